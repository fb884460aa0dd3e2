// The puzzle player: one component for every page that shows a puzzle (repository, revision,
// algorithm, job, play and embed pages). It draws any definition from the player model the server
// gives (puzzlehub/web/player.py: cells, colours, moves as cycles with guards), turns it, animates
// each move by gliding every carried sticker from its cell to the cell it is carried to, and plays
// sequences back (scrub, step, play/pause, tempo). Alg notation is read by the server only
// (/api/.../play/), so there is one parser.
//
// The timeline is `setup` followed by `moves`; `cursor` counts the moves made after the setup.
// Playing a move while not at the end drops the moves after the cursor (as undo/redo does).

const SVG = "http://www.w3.org/2000/svg";
const CELL = 30;        // pixels per layout unit
const GAP = 0.08;       // part of a cell left empty around each sticker
const CHECKPOINT = 32;  // a state is kept every this many moves, so seeking replays at most 31
const TEXT_WINDOW = 400; // moves shown either side of the cursor in the move text

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// Smallest distance between two distinct cell centres (sweep over x): stickers are sized to it so
// that circle layouts such as the megaminx's never overlap.
function minSpacing(points) {
  const sorted = points.slice().sort((a, b) => a[0] - b[0]);
  let best = Infinity;
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j][0] - sorted[i][0] < best; j++) {
      const d = Math.hypot(sorted[j][0] - sorted[i][0], sorted[j][1] - sorted[i][1]);
      if (d > 1e-9 && d < best) best = d;
    }
  }
  return Number.isFinite(best) ? Math.min(1, best) : 1;
}

function shapeNode(shape, size) {
  const h = size / 2;
  const attrs = { class: "sticker-shape" };
  if (shape === "circle") return svgEl("circle", { ...attrs, r: h.toFixed(2) });
  const points = {
    "triangle-up": [[0, -h], [h, h], [-h, h]],
    "triangle-down": [[-h, -h], [h, -h], [0, h]],
    "diamond": [[0, -h], [h, 0], [0, h], [-h, 0]],
  }[shape];
  if (points) return svgEl("polygon", { ...attrs, points: points.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" ") });
  return svgEl("rect", { ...attrs, x: (-h).toFixed(2), y: (-h).toFixed(2), width: size.toFixed(2), height: size.toFixed(2), rx: 3 });
}

// --- the puzzle: states and moves -----------------------------------------------------------------
export class Puzzle {
  constructor(model) {
    this.model = model;
    this.moves = new Map();
    for (const m of model.moves) {
      // per case: dest[i] = where the sticker at i goes (identity outside the cycles), and its guard
      const cases = m.cases.map((c) => {
        const carried = [];
        for (const cycle of c.cycles) {
          for (let k = 0; k < cycle.length; k++) carried.push([cycle[k], cycle[(k + 1) % cycle.length]]);
        }
        return { carried, guard: c.guard };
      });
      this.moves.set(m.name, cases);
    }
  }

  caseFor(name, state) {
    const cases = this.moves.get(name);
    if (!cases) return null;
    return cases.find((c) => c.guard.every(([p, colour]) => state[p] === colour)) || null;
  }

  // The state after `name`, and the (from, to) pairs of the stickers it carried; null when no case applies.
  apply(state, name) {
    const c = this.caseFor(name, state);
    if (!c) return null;
    const next = state.slice();
    for (const [from, to] of c.carried) next[to] = state[from];
    return { state: next, carried: c.carried };
  }
}

// --- the drawing ------------------------------------------------------------------------------------
class Drawing {
  constructor(model, container) {
    this.model = model;
    const cells = model.cells;
    const drawn = [];
    cells.forEach((c, i) => { if (c) drawn.push(i); });
    const minX = Math.min(...drawn.map((i) => cells[i][0]));
    const minY = Math.min(...drawn.map((i) => cells[i][1]));
    const maxX = Math.max(...drawn.map((i) => cells[i][0]));
    const maxY = Math.max(...drawn.map((i) => cells[i][1]));
    const spacing = minSpacing(drawn.map((i) => cells[i]));
    const size = CELL * spacing * (1 - 2 * GAP);
    const pad = CELL * (1 - spacing) / 2;
    this.centres = cells.map((c) => c && [(c[0] - minX + 0.5) * CELL, (c[1] - minY + 0.5) * CELL]);
    const width = (maxX - minX + 1) * CELL, height = (maxY - minY + 1) * CELL;
    this.svg = svgEl("svg", {
      class: "puzzle player-svg", viewBox: `${pad.toFixed(1)} ${pad.toFixed(1)} ${(width - 2 * pad).toFixed(1)} ${(height - 2 * pad).toFixed(1)}`,
      role: "img", "aria-label": model.name,
    });
    this.svg.style.maxWidth = Math.max(160, Math.min(width * 1.4, 720)) + "px";
    this.blanks = new Set(model.blanks);
    this.nodes = new Array(cells.length).fill(null);
    this.labels = new Array(cells.length).fill(null);
    const fontSize = (size * 0.5).toFixed(1);
    for (const i of drawn) {
      const g = svgEl("g", { class: "sticker", "data-position": i });
      g.appendChild(shapeNode(cells[i][2], size));
      if (model.tiles) {
        const t = svgEl("text", { class: "tile-label", "font-size": fontSize, "text-anchor": "middle", "dominant-baseline": "central" });
        g.appendChild(t);
        this.labels[i] = t;
      }
      g.appendChild(svgEl("title"));
      this.place(g, i, 0, 0);
      this.svg.appendChild(g);
      this.nodes[i] = g;
    }
    container.appendChild(this.svg);
  }

  place(g, i, dx, dy) {
    const [x, y] = this.centres[i];
    g.setAttribute("transform", `translate(${(x + dx).toFixed(2)} ${(y + dy).toFixed(2)})`);
  }

  paint(i, colour) {
    const g = this.nodes[i];
    if (!g || g.dataset.colour === colour) return;
    g.dataset.colour = colour;
    const blank = this.blanks.has(colour);
    g.classList.toggle("blank", blank);
    g.firstChild.setAttribute("fill", blank ? "none" : this.model.colours[colour]);
    if (this.labels[i]) this.labels[i].textContent = blank ? "" : colour;
    g.lastChild.textContent = `sticker ${i}: ${colour}`;
  }

  show(state) {
    for (let i = 0; i < state.length; i++) {
      this.paint(i, state[i]);
      if (this.nodes[i]) this.place(this.nodes[i], i, 0, 0);
    }
  }

  // How a move looks while it runs: each sticker shown at `dst` glides in from the cell `src` it
  // left. frame(left) draws it with `left` of the way still to go (1 -> 0).
  motion(pairs) {
    const glides = [];
    for (const [src, dst] of pairs) {
      if (!this.nodes[dst] || !this.centres[src]) continue;
      glides.push([this.nodes[dst], dst, this.centres[src][0] - this.centres[dst][0], this.centres[src][1] - this.centres[dst][1]]);
    }
    if (!glides.length) return null;
    return {
      frame: (left) => { for (const [node, i, dx, dy] of glides) this.place(node, i, dx * left, dy * left); },
      end: () => { for (const [node, i] of glides) this.place(node, i, 0, 0); },
    };
  }
}

// --- the 3D drawing: the definition's geometry block, seen from a view the user turns by dragging ----
function rotationMatrix(axis, degrees) {
  const len = Math.hypot(axis[0], axis[1], axis[2]);
  const [x, y, z] = axis.map((v) => v / len);
  const a = degrees * Math.PI / 180, c = Math.cos(a), s = Math.sin(a), t = 1 - c;
  return [
    [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
    [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
    [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
  ];
}

function dot3(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

function multiply(a, b) {
  return a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j]));
}

class Drawing3D {
  constructor(model, container) {
    this.model = model;
    this.polygons = model.geometry.stickers;
    this.turns = model.geometry.moves || {};
    let radius = 0;
    for (const poly of this.polygons) if (poly) for (const p of poly) radius = Math.max(radius, Math.hypot(p[0], p[1], p[2]));
    this.scale = 100 / (radius || 1);
    this.yaw = -35;
    this.pitch = 28;
    this.svg = svgEl("svg", { class: "puzzle player-svg player-3d", viewBox: "-108 -108 216 216", role: "img", "aria-label": model.name });
    this.svg.style.maxWidth = "440px";
    this.blanks = new Set(model.blanks);
    // Each polygon is flat, so its projection is an affine image of the polygon in its own plane:
    // the points are written once in plane coordinates (origin poly[0], axes to poly[1] and to the
    // last point) and each frame only sets the element's transform matrix, without parsing text.
    this.frames = [];
    this.nodes = this.polygons.map((poly, i) => {
      if (!poly) return null;
      const o = poly[0];
      const e1 = poly[1].map((v, k) => v - o[k]), e2 = poly[poly.length - 1].map((v, k) => v - o[k]);
      const g11 = dot3(e1, e1), g12 = dot3(e1, e2), g22 = dot3(e2, e2), det = g11 * g22 - g12 * g12;
      const local = poly.map((p) => {
        const d = p.map((v, k) => v - o[k]), b1 = dot3(d, e1), b2 = dot3(d, e2);
        return [((g22 * b1 - g12 * b2) / det).toFixed(4), ((g11 * b2 - g12 * b1) / det).toFixed(4)].join(",");
      });
      this.frames[i] = [o, e1, e2];
      const g = svgEl("g", { class: "sticker", "data-position": i });
      g.appendChild(svgEl("polygon", { class: "sticker-shape", points: local.join(" "), "vector-effect": "non-scaling-stroke" }));
      g.appendChild(svgEl("title"));
      g.transform.baseVal.initialize(this.svg.createSVGTransform());
      this.svg.appendChild(g);
      return g;
    });
    this.labels = [];
    this.rotating = null;  // [stickers, rotation] while a move runs
    this.view();
    this.drag();
    container.appendChild(this.svg);
  }

  view() {
    this.matrix = multiply(rotationMatrix([1, 0, 0], this.pitch), rotationMatrix([0, 1, 0], this.yaw));
    const turned = this.rotating ? multiply(this.matrix, this.rotating[1]) : null;
    const moving = this.rotating ? this.rotating[0] : new Set();
    for (let i = 0; i < this.nodes.length; i++) if (this.nodes[i]) this.render(i, moving.has(i) ? turned : this.matrix);
  }

  // Project sticker i with the 3x3 matrix m (the view, times the move's rotation while it runs);
  // a polygon facing away is hidden.
  render(i, m) {
    const [o, e1, e2] = this.frames[i], k = this.scale;
    const a = (m[0][0] * e1[0] + m[0][1] * e1[1] + m[0][2] * e1[2]) * k;
    const b = -(m[1][0] * e1[0] + m[1][1] * e1[1] + m[1][2] * e1[2]) * k;
    const c = (m[0][0] * e2[0] + m[0][1] * e2[1] + m[0][2] * e2[2]) * k;
    const d = -(m[1][0] * e2[0] + m[1][1] * e2[1] + m[1][2] * e2[2]) * k;
    const g = this.nodes[i];
    const hidden = a * d - b * c >= 0;  // counter-clockwise from outside turns clockwise on screen (y down)
    if (g.hidden3d !== hidden) { g.style.display = hidden ? "none" : ""; g.hidden3d = hidden; }
    if (hidden) return;
    const t = g.transform.baseVal.getItem(0).matrix;
    t.a = a; t.b = b; t.c = c; t.d = d;
    t.e = (m[0][0] * o[0] + m[0][1] * o[1] + m[0][2] * o[2]) * k;
    t.f = -(m[1][0] * o[0] + m[1][1] * o[1] + m[1][2] * o[2]) * k;
  }

  drag() {
    let last = null;
    this.svg.addEventListener("pointerdown", (e) => { last = [e.clientX, e.clientY]; this.svg.setPointerCapture(e.pointerId); });
    this.svg.addEventListener("pointermove", (e) => {
      if (!last) return;
      this.yaw += (e.clientX - last[0]) * 0.6;
      this.pitch = Math.max(-89, Math.min(89, this.pitch + (e.clientY - last[1]) * 0.6));
      last = [e.clientX, e.clientY];
      this.view();
    });
    const stop = () => { last = null; };
    this.svg.addEventListener("pointerup", stop);
    this.svg.addEventListener("pointercancel", stop);
  }

  paint(i, colour) { Drawing.prototype.paint.call(this, i, colour); }

  show(state) {
    for (let i = 0; i < state.length; i++) this.paint(i, state[i]);
  }

  // The stickers a move carries turn about its axis: the one shown at `dst` starts turned back by
  // the move's angle (forward; backwards the other way) and ends in place.
  motion(pairs, name, backwards) {
    const turn = this.turns[name];
    if (!turn) return null;
    const moving = pairs.map(([, dst]) => dst).filter((i) => this.nodes[i]);
    const sign = backwards ? 1 : -1;
    const frame = (left) => {
      const rotation = rotationMatrix(turn.axis, sign * turn.angle * left);
      this.rotating = [new Set(moving), rotation];
      const m = multiply(this.matrix, rotation);
      for (const i of moving) this.render(i, m);
    };
    return { frame, end: () => { this.rotating = null; for (const i of moving) this.render(i, this.matrix); } };
  }
}

// --- the player -------------------------------------------------------------------------------------
export class Player {
  constructor(root, model, options = {}) {
    this.root = root;
    this.puzzle = new Puzzle(model);
    this.model = model;
    this.options = options;
    // a partial goal shows `?` where a sticker does not matter; "solved" and Reset mean reaching it
    this.goal = options.goal || null;
    this.home = this.goal || model.goal;
    this.origin = options.start || this.home;  // the state before the setup (a job's start state)
    this.setup = options.setup || [];
    this.moves = options.alg || [];
    this.cursor = 0;
    this.tempo = 2;  // moves per second
    this.timer = null;
    this.animation = null;
    this.reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.build();
    this.rebuildCheckpoints();
    this.seek(options.cursor ?? 0);
  }

  // ----- timeline and states -----
  get timeline() { return this.setup.concat(this.moves); }

  rebuildCheckpoints() {
    // checkpoints[k] = state after k * CHECKPOINT moves of the whole timeline (setup included)
    const line = this.timeline;
    let state = this.origin.slice();
    this.checkpoints = [state];
    this.broken = null;
    for (let k = 0; k < line.length; k++) {
      const next = this.puzzle.apply(state, line[k]);
      if (!next) { this.broken = k; break; }
      state = next.state;
      if ((k + 1) % CHECKPOINT === 0) this.checkpoints.push(state);
    }
    if (this.broken !== null) {
      const inSetup = this.broken < this.setup.length;
      const index = inSetup ? this.broken : this.broken - this.setup.length;
      this.message(`${inSetup ? "setup" : "alg"}: move ${index + 1} (${line[this.broken]}) cannot be made in this state`);
      this.moves = this.moves.slice(0, Math.max(0, this.broken - this.setup.length));
      if (inSetup) this.setup = this.setup.slice(0, this.broken);
    }
  }

  stateAt(step) {  // state after `step` moves of the timeline
    const line = this.timeline;
    const k = Math.min(Math.floor(step / CHECKPOINT), this.checkpoints.length - 1);
    let state = this.checkpoints[k];
    for (let i = k * CHECKPOINT; i < step; i++) state = this.puzzle.apply(state, line[i]).state;
    return state;
  }

  // ----- user interface -----
  build() {
    const r = this.root;
    r.classList.add("player-ready");
    r.tabIndex = -1;
    this.stage = el("div", { class: "player-stage" });
    r.appendChild(this.stage);
    this.threeD = Boolean(this.model.geometry);
    this.drawing = this.threeD ? new Drawing3D(this.model, this.stage) : new Drawing(this.model, this.stage);

    this.text = el("div", { class: "player-moves moves", "aria-label": "Move sequence" });
    r.appendChild(this.text);

    const bar = el("div", { class: "player-bar" });
    this.scrub = el("input", { type: "range", min: 0, max: 0, value: 0, class: "player-scrub", "aria-label": "Position in the sequence" });
    this.scrub.addEventListener("input", () => { this.pause(); this.seek(Number(this.scrub.value)); });
    const button = (label, title, action, cls = "") => {
      const b = el("button", { type: "button", class: `button small ${cls}`, title, "aria-label": title }, label);
      b.addEventListener("click", () => { action(); });
      return b;
    };
    this.playButton = button("Play", "Play", () => this.toggle(), "player-play");
    const tempo = el("select", { class: "player-tempo", "aria-label": "Tempo (moves per second)" });
    for (const t of [0.5, 1, 2, 4, 8, 16]) tempo.appendChild(el("option", { value: t, ...(t === this.tempo ? { selected: "" } : {}) }, `${t}/s`));
    tempo.addEventListener("change", () => { this.tempo = Number(tempo.value); });
    this.counter = el("span", { class: "player-counter", "aria-live": "polite" });
    // a read-only player gets no moves later: with none (a job without a solution yet) there is
    // nothing to play, and buttons that do nothing would say otherwise
    const playable = !this.options.readOnly || this.moves.length > 0;
    if (playable) {
      bar.append(
        button("|◀◀", "To the start", () => { this.pause(); this.seek(0); }, "player-first"),
        button("◀", "Step back", () => { this.pause(); this.step(-1); }, "player-back"),
        this.playButton,
        button("▶", "Step forward", () => { this.pause(); this.step(1); }, "player-forward"),
        button("▶▶|", "To the end", () => { this.pause(); this.seek(this.moves.length); }, "player-last"),
        this.scrub, tempo,
      );
    }
    if (this.model.geometry) {
      const view = button(this.threeD ? "2D" : "3D", "Switch between the 3D view and the flat layout", () => {
        this.finishAnimation();
        this.threeD = !this.threeD;
        view.textContent = this.threeD ? "2D" : "3D";
        this.stage.textContent = "";
        this.drawing = this.threeD ? new Drawing3D(this.model, this.stage) : new Drawing(this.model, this.stage);
        this.drawing.show(this.stateAt(this.setup.length + this.cursor));
      }, "player-view");
      bar.append(view);
    }
    this.solvedMark = el("span", { class: "player-solved", title: this.goal ? "The stickers the goal looks at are home" : "Solved" });
    if (playable) bar.append(this.counter);
    bar.append(this.solvedMark);
    r.appendChild(bar);

    if (!this.options.readOnly) {
      const keys = el("div", { class: "player-buttons", role: "group", "aria-label": "Moves" });
      this.moveButtons = new Map();
      for (const group of this.model.groups) {
        const g = el("span", { class: "move-group" });
        for (const name of group) {
          const b = button(name, `Move ${name}`, () => this.play(name), "move");
          b.dataset.move = name;
          this.moveButtons.set(name, b);
          g.appendChild(b);
        }
        keys.appendChild(g);
      }
      r.appendChild(keys);

      const tools = el("div", { class: "player-tools" });
      tools.append(
        button("Undo", "Undo the last move", () => { this.pause(); this.step(-1); }, "player-undo"),
        button("Redo", "Redo", () => { this.pause(); this.step(1); }, "player-redo"),
        button("Reset", "Back to the solved state", () => this.reset(), "player-reset"),
      );
      if (this.options.scrambleUrl) tools.append(button("Scramble", "A random scramble from the server", () => this.scramble(), "player-scramble"));
      if (this.options.solveUrl) tools.append(button("Solve this", "Send this state to the solver and play the answer", () => this.solve(), "player-solve primary"));
      r.appendChild(tools);
    }

    const stateRow = el("div", { class: "player-state" });
    this.stateText = el("input", { class: "code", "aria-label": "Current state", spellcheck: "false", ...(this.options.readOnly ? { readonly: "" } : {}) });
    const copy = button("Copy", "Copy the state", () => this.copyState(), "player-copy");
    stateRow.append(el("label", {}, "State"), this.stateText, copy);
    if (!this.options.readOnly) {
      stateRow.append(button("Set", "Start from the state typed in the box", () => this.setState(this.stateText.value), "player-set"));
      this.stateText.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); this.setState(this.stateText.value); } });
    }
    r.appendChild(stateRow);
    if (this.goal) {
      const ignored = this.goal.filter((c) => c === "?").length;
      r.appendChild(el("p", { class: "help player-goal" },
        `Partial goal: ${this.goal.length - ignored} of ${this.goal.length} stickers matter; the grey ones (?) do not.`));
    }

    this.notice = el("p", { class: "player-message" });
    r.appendChild(this.notice);

    this.keyHelp();
    this.root.addEventListener("keydown", (e) => this.key(e));
    if (this.options.keyboard) document.addEventListener("keydown", (e) => { if (e.target === document.body) this.key(e); });
  }

  keyHelp() {
    const one = this.model.moves.filter((m) => m.name.length === 1 && /[a-z]/i.test(m.name));
    this.keyMoves = new Map(one.map((m) => [m.name, m.name]));
    if (one.length && !this.options.readOnly) {
      this.root.appendChild(el("p", { class: "help player-keys" },
        "Keys: a move's letter turns it, Shift + letter its inverse, Backspace undoes, Space plays or pauses."));
    }
  }

  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (e.key === " ") { e.preventDefault(); this.toggle(); return; }
    if (e.key === "Backspace") { e.preventDefault(); this.pause(); this.step(-1); return; }
    if (this.options.readOnly || e.key.length !== 1) return;
    let name = null;
    if (this.keyMoves.has(e.key) && !e.shiftKey) name = e.key;
    else if (this.keyMoves.has(e.key.toUpperCase())) {
      const base = e.key.toUpperCase();
      name = e.shiftKey ? this.model.inverses[base] : base;
    }
    if (name) { e.preventDefault(); this.play(name); }
  }

  // a new alert for each message, and none while there is nothing to say (an empty alert is read
  // out as a blank line); a fresh role="alert" node with its text is what screen readers announce
  message(text) {
    if (!this.notice) return;
    const notice = el("p", text ? { class: "player-message", role: "alert" } : { class: "player-message" }, text || "");
    this.notice.replaceWith(notice);
    this.notice = notice;
  }

  // ----- moving -----
  play(name) {
    this.pause();
    const here = this.stateAt(this.setup.length + this.cursor);
    const result = this.puzzle.apply(here, name);
    if (!result) { this.message(`move ${name} cannot be made in this state`); return; }
    this.message("");
    // the moves after the cursor are dropped, and with them the checkpoints past it
    this.moves = this.moves.slice(0, this.cursor).concat([name]);
    const done = this.setup.length + this.cursor;
    this.checkpoints.length = Math.floor(done / CHECKPOINT) + 1;
    if ((done + 1) % CHECKPOINT === 0) this.checkpoints.push(result.state);
    this.cursor += 1;
    this.animate(here, result, false, name);
    this.update(result.state);
  }

  step(delta) {
    const target = this.cursor + delta;
    if (target < 0 || target > this.moves.length) return false;
    if (Math.abs(delta) !== 1) { this.seek(target); return true; }
    const from = this.stateAt(this.setup.length + this.cursor);
    if (delta > 0) {
      const name = this.moves[this.cursor];
      const result = this.puzzle.apply(from, name);
      this.cursor = target;
      this.animate(from, result, false, name);
      this.update(result.state);
    } else {
      const before = this.stateAt(this.setup.length + target);
      const result = this.puzzle.apply(before, this.moves[target]);
      this.cursor = target;
      this.animate(before, result, true, this.moves[target]);
      this.update(before);
    }
    return true;
  }

  seek(target) {
    this.cursor = Math.max(0, Math.min(this.moves.length, target));
    this.finishAnimation();
    const state = this.stateAt(this.setup.length + this.cursor);
    this.drawing.show(state);
    this.update(state);
  }

  // Each carried sticker moves from where it was to where it is carried (backwards: the reverse):
  // gliding between cells in 2D, turning about the move's axis in 3D.
  animate(before, result, backwards, name) {
    this.finishAnimation();
    const d = this.drawing;
    const pairs = result.carried.map(([from, to]) => (backwards ? [to, from] : [from, to]));
    for (const [, dst] of pairs) d.paint(dst, backwards ? before[dst] : result.state[dst]);
    const duration = this.reduced ? 0 : Math.min(400, 800 / this.tempo);
    if (duration === 0) return;
    const motion = d.motion(pairs, name, backwards);
    if (!motion) return;
    motion.frame(1);
    const start = performance.now();
    const frame = (now) => {
      const t = Math.min(1, (now - start) / duration);
      motion.frame(1 - (t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2));  // eased
      if (t < 1) this.animation.id = requestAnimationFrame(frame);
      else { motion.end(); this.animation = null; }
    };
    this.animation = { id: requestAnimationFrame(frame), motion };
  }

  finishAnimation() {
    if (!this.animation) return;
    cancelAnimationFrame(this.animation.id);
    this.animation.motion.end();
    this.animation = null;
  }

  toggle() { if (this.timer) this.pause(); else this.start(); }

  start() {
    if (!this.moves.length) return;
    if (this.cursor >= this.moves.length) this.seek(0);
    this.playButton.textContent = "Pause";
    this.playButton.title = "Pause";
    const tick = () => {
      if (!this.step(1) || this.cursor >= this.moves.length) { this.pause(); return; }
      this.timer = setTimeout(tick, 1000 / this.tempo);
    };
    this.timer = setTimeout(tick, this.reduced ? 0 : 200);
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.playButton) { this.playButton.textContent = "Play"; this.playButton.title = "Play"; }
  }

  reset() {
    this.pause();
    this.origin = this.home;
    this.setup = [];
    this.moves = [];
    this.rebuildCheckpoints();
    this.seek(0);
    this.message("");
  }

  load({ setup, alg, cursor = 0 }) {
    this.pause();
    this.setup = setup;
    this.moves = alg;
    this.rebuildCheckpoints();
    this.seek(cursor);
  }

  // ----- server round trips -----
  async scramble() {
    this.pause();
    this.message("Scrambling…");
    try {
      const response = await fetch(this.options.scrambleUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      const data = await response.json();
      if (!response.ok) throw new Error(Object.values(data).flat().join(" "));
      this.origin = this.home;  // the server's moves scramble the solved puzzle
      this.load({ setup: data.moves, alg: [] });
      this.message("");
    } catch (err) {
      this.message(`Scramble failed: ${err.message}`);
    }
  }

  async solve() {
    this.pause();
    const state = this.stateAt(this.setup.length + this.cursor);
    this.message("Sent to the solver…");
    try {
      const csrf = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || this.options.csrf || "";
      const response = await fetch(this.options.solveUrl, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(this.goal ? { state, goal: this.goal } : { state }),
      });
      // the job as submitted: already succeeded, with its result, when answered from an earlier solve
      let job = await response.json();
      if (!response.ok) throw new Error(Object.entries(job).map(([k, v]) => `${k}: ${[v].flat().join(" ")}`).join("; "));
      const url = job.url || `/api/jobs/${job.id}/`;
      while (job.status === "queued" || job.status === "running") {
        // queued, the server's words say it waits for a worker and how many jobs are ahead of it (the
        // submission's answer has no progress: "Sent to the solver…" stays until the first look)
        const text = job.progress ? job.progress.text : "";
        if (job.status === "running") this.message(`Solving… ${text}`);
        else if (text) this.message(text.charAt(0).toUpperCase() + text.slice(1));
        await new Promise((ok) => setTimeout(ok, 700));
        job = await (await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })).json();
      }
      const solution = job.result && job.result.solution;
      if (job.status !== "succeeded" || !Array.isArray(solution)) throw new Error(job.error || `the job ${job.status}`);
      if (!solution.length) { this.message("Already solved."); return; }
      this.load({ setup: this.timeline.slice(0, this.setup.length + this.cursor), alg: solution });
      const earlier = job.result.cached_from ? " (an earlier answer)" : "";
      this.message(`Solved in ${solution.length} move${solution.length === 1 ? "" : "s"}${earlier}: playing it.`);
      this.start();
    } catch (err) {
      this.message(`Solve failed: ${err.message}`);
    }
  }

  // A state typed or pasted in the box: letters, space-separated colours or a JSON list, as the CLI
  // and the API take them; `?` only towards a partial goal. The server checks it again on a solve.
  setState(text) {
    const value = text.trim();
    let symbols;
    try {
      symbols = value.startsWith("[") ? JSON.parse(value).map(String)
        : /\s/.test(value) || !this.model.goal.every((c) => c.length === 1) ? value.split(/\s+/) : [...value];
    } catch (err) {
      this.message(`state: not a valid JSON list (${err.message})`);
      return false;
    }
    if (symbols.length !== this.model.stickers) {
      this.message(`state: ${symbols.length} colours given, this puzzle has ${this.model.stickers} stickers`);
      return false;
    }
    const unknown = symbols.find((c) => !(c in this.model.colours) || (c === "?" && !this.goal && !this.model.goal.includes("?")));
    if (unknown !== undefined) {
      this.message(unknown === "?" ? "state: ? (does not matter) is only for a partial goal"
        : `state: unknown colour ${JSON.stringify(unknown)}`);
      return false;
    }
    this.pause();
    this.origin = symbols;
    this.load({ setup: [], alg: [] });
    this.message("Starting from the state given.");
    return true;
  }

  copyState() {
    this.stateText.select();
    if (navigator.clipboard) navigator.clipboard.writeText(this.stateText.value).catch(() => {});
    this.message("State copied.");
  }

  // ----- showing where we are -----
  // A state as text, as the command line writes it: letters run together, longer colours spaced.
  textOf(state) {
    return this.model.goal.every((c) => c.length === 1) ? state.join("") : state.join(" ");
  }

  update(state) {
    this.scrub.max = this.moves.length;
    this.scrub.value = this.cursor;
    this.counter.textContent = `${this.cursor} / ${this.moves.length} move${this.moves.length === 1 ? "" : "s"}`;
    const text = this.textOf(state);
    if (document.activeElement !== this.stateText) this.stateText.value = text;  // not while the user types
    const solved = this.home.every((c, i) => c === "?" || c === state[i]);
    this.solvedMark.textContent = solved ? (this.goal ? "✓ goal reached" : "✓ solved") : "";
    this.root.dataset.solved = solved;
    this.root.dataset.state = text;
    this.root.dataset.cursor = this.cursor;
    this.renderText();
    if (this.moveButtons) {
      for (const [name, b] of this.moveButtons) b.disabled = !this.puzzle.caseFor(name, state);
    }
    if (this.options.onChange) this.options.onChange(this);
  }

  renderText() {
    const t = this.text;
    t.textContent = "";
    if (this.setup.length) {
      const s = el("span", { class: "setup muted", title: "Setup: played before the sequence" },
        `setup (${this.setup.length} move${this.setup.length === 1 ? "" : "s"})`);
      t.append(s, " ");
    }
    const lo = Math.max(0, this.cursor - TEXT_WINDOW), hi = Math.min(this.moves.length, this.cursor + TEXT_WINDOW);
    if (lo > 0) t.append("… ");
    for (let i = lo; i < hi; i++) {
      const span = el("button", { type: "button", class: "move-token" + (i === this.cursor - 1 ? " current" : ""), "data-index": i }, this.moves[i]);
      span.addEventListener("click", () => { this.pause(); this.seek(i + 1); });
      t.append(span);
    }
    if (hi < this.moves.length) t.append(" …");
    if (!this.moves.length) t.append(el("span", { class: "muted" }, this.options.readOnly ? "" : "Turn the puzzle with the buttons below."));
  }
}

// Mount every `.player[data-model]` on the page: the model is a json_script element's id; the
// options come from data attributes (see web/_player.html).
export function mountAll() {
  const players = [];
  for (const root of document.querySelectorAll(".player[data-model]")) {
    if (root.player) continue;  // each include of the player mounts what is not mounted yet
    const model = JSON.parse(document.getElementById(root.dataset.model).textContent);
    const initial = root.dataset.initial ? JSON.parse(document.getElementById(root.dataset.initial).textContent) : {};
    root.querySelectorAll(".player-fallback").forEach((n) => n.remove());
    const player = new Player(root, model, {
      start: initial.start || null, goal: initial.goal || null, setup: initial.setup || [], alg: initial.alg || [], cursor: initial.cursor || 0,
      readOnly: root.dataset.readonly === "true",
      keyboard: players.length === 0 && root.dataset.readonly !== "true",
      scrambleUrl: root.dataset.scrambleUrl, solveUrl: root.dataset.solveUrl,
      onChange: root.dataset.permalink ? keepUrl(root.dataset.permalink) : null,
    });
    if (initial.error) player.message(initial.error);
    root.player = player;
    players.push(player);
  }
  return players;
}

// The play page keeps its URL current: setup and the moves so far (up to the cursor), so that the
// address bar is always a permalink of what is shown.
function keepUrl(base) {
  let pending = null;
  return (player) => {
    clearTimeout(pending);
    pending = setTimeout(() => {
      const url = new URL(window.location.href);
      const same = (a, b) => a.length === b.length && a.every((c, i) => c === b[i]);
      if (same(player.origin, player.home)) url.searchParams.delete("state");
      else url.searchParams.set("state", player.textOf(player.origin));
      if (player.goal) url.searchParams.set("goal", player.textOf(player.goal));
      url.searchParams.set("setup", player.setup.join(" "));
      url.searchParams.set("alg", player.moves.join(" "));
      if (!player.setup.length) url.searchParams.delete("setup");
      if (!player.moves.length) url.searchParams.delete("alg");
      if (player.cursor !== player.moves.length) url.searchParams.set("at", player.cursor);
      else url.searchParams.delete("at");
      window.history.replaceState(null, "", url);
    }, 150);
  };
}
