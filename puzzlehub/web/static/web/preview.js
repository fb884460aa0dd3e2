// The preview beside a definition being written (new-puzzle and edit pages): while the user types
// (debounced) or opens a file, the text goes to the server's parser (/api/preview/), and the box shows
// what it read (facts, a drawing, warnings such as overlapping layout cells) or the errors under the
// field they belong to. Nothing is saved.

const WAIT = 600;  // ms after the last keystroke

function csrfToken(form) {
  const input = form.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function facts(data) {
  const dl = el("dl", { class: "preview-facts" });
  const row = (term, value) => dl.append(el("dt", {}, term), el("dd", {}, String(value)));
  row("Name", data.name);
  row("Stickers", data.stickers);
  row("Moves", `${data.moves}: ${data.move_names.join(" ")}${data.moves > data.move_names.length ? " …" : ""}`);
  row("Solved states", data.goals);
  row("States", data.state_count === null ? data.state_count_note : `${data.state_count}${data.state_count_exact ? "" : " (estimate)"}`);
  row("Content hash", data.content_hash);
  return dl;
}

export function mountPreview(textarea, box, url) {
  const form = textarea.form;
  const field = textarea.closest(".field") || textarea.parentNode;
  const fieldError = el("p", { class: "error preview-error", role: "alert" });
  field.appendChild(fieldError);
  let timer = null, asked = 0;

  const show = (data, ok) => {
    // the live error replaces what the server said when the form was last sent
    field.querySelectorAll(".error:not(.preview-error)").forEach((n) => n.remove());
    box.textContent = "";
    fieldError.textContent = "";
    field.classList.toggle("has-error", !ok);
    box.classList.toggle("invalid", !ok);
    if (!ok) {
      // errors by field: the definition's under its textarea, any other field's in the box
      for (const [name, problems] of Object.entries(data)) {
        const text = [problems].flat().join(" ");
        if (name === textarea.name) fieldError.textContent = text;
        else box.append(el("p", { class: "error" }, `${name}: ${text}`));
      }
      box.append(el("p", { class: "muted" }, "Fix the definition to see the puzzle."));
      return;
    }
    if (data.too_long) { box.append(el("p", { class: "muted" }, data.note)); return; }
    const drawing = el("div", { class: "preview-drawing" });
    drawing.innerHTML = data.drawing;  // SVG made by the server from validated data
    box.append(drawing, facts(data));
    for (const w of data.warnings) box.append(el("p", { class: "warning" }, w));
  };

  // one question to the server at a time: the answer to an older one, arriving late, is dropped
  const query = async (body, answer, failed) => {
    const mine = ++asked;
    box.classList.add("busy");
    try {
      const response = await fetch(url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken(form) },
        body: JSON.stringify(body),
      });
      const data = await response.json();
      if (mine !== asked) return;
      if (response.status === 429) { box.append(el("p", { class: "muted" }, "Preview paused: too many checks; it resumes shortly.")); return; }
      answer(data, response.ok);
    } catch (err) {
      if (mine === asked) failed(err);
    } finally {
      if (mine === asked) box.classList.remove("busy");
    }
  };

  const ask = () => {
    const text = textarea.value;
    if (!text.trim()) { box.textContent = ""; fieldError.textContent = ""; return; }
    query({ definition: text }, show, (err) => { box.textContent = `Preview failed: ${err.message}`; });
  };

  textarea.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(ask, WAIT); });

  // "From a shape" (web/new_repository.html): the server builds the definition from the shape, the
  // preview shows it and its text goes into the definition field, ready to publish or to edit
  const shape = document.querySelector(`[data-shape-for="${textarea.id}"]`);
  if (shape) {
    const shapeError = el("p", { class: "error shape-error", role: "alert" });
    shape.insertAdjacentElement("afterend", shapeError);
    const built = (data, ok) => {
      shape.closest(".shape-box").classList.toggle("has-error", !ok);
      if (!ok) { shapeError.textContent = [Object.values(data)].flat(2).join(" "); return; }
      shapeError.textContent = "";
      textarea.value = data.definition;
      const name = form.querySelector("input[name=name]");
      if (name && !name.value) name.value = data.name;
      show(data, true);
    };
    const askShape = () => {
      const text = shape.value.trim();
      if (!text) { shapeError.textContent = ""; return; }
      query({ shape: text }, built, (err) => { shapeError.textContent = `Preview failed: ${err.message}`; });
    };
    shape.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(askShape, WAIT); });
  }

  // a file chosen from disk goes into the text area, as if pasted
  const upload = el("input", { type: "file", accept: ".yaml,.yml,.json,.txt,.def,.tws,.ksolve,.kpuzzle", class: "preview-file", "aria-label": "Open a definition file" });
  upload.addEventListener("change", async () => {
    const file = upload.files[0];
    if (!file) return;
    textarea.value = await file.text();
    ask();
  });
  const label = el("label", { class: "small muted preview-upload" }, "or open a file: ");
  label.appendChild(upload);
  textarea.insertAdjacentElement("afterend", label);

  if (textarea.value.trim()) ask();
}

export function mountAll() {
  for (const box of document.querySelectorAll("[data-preview-for]")) {
    const textarea = document.getElementById(box.dataset.previewFor);
    if (textarea && !box.mounted) { box.mounted = true; mountPreview(textarea, box, box.dataset.previewUrl); }
  }
}
