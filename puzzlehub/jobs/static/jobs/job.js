// A job's page: refresh the progress while the job runs (reload when it finishes, so that the
// server renders the outcome), and step through a solution one state at a time.
(function () {
  "use strict";
  const job = document.getElementById("job");
  if (!job) return;

  const running = (status) => status === "queued" || status === "running";
  if (running(job.dataset.status)) {
    const bar = document.getElementById("job-progress");
    const text = job.querySelector('[data-field="progress-text"]');
    const status = job.querySelector('[data-field="status"]');
    const poll = () => {
      fetch(job.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
        .then((data) => {
          if (!running(data.status)) { window.location.reload(); return; }
          bar.value = Math.round(data.progress.fraction * 100);
          bar.textContent = bar.value + "%";
          text.textContent = data.progress.text;
          status.textContent = data.status;
          setTimeout(poll, 1000);
        })
        .catch(() => setTimeout(poll, 3000));
    };
    setTimeout(poll, 500);
  }

  const playback = job.querySelector(".playback");
  if (!playback) return;
  const steps = Array.from(playback.querySelectorAll(".step"));
  const label = playback.querySelector('[data-field="step-label"]');
  let current = 0, timer = null;
  const show = (k) => {
    current = Math.max(0, Math.min(steps.length - 1, k));
    steps.forEach((s, i) => s.setAttribute("aria-hidden", i === current ? "false" : "true"));
    label.textContent = "step " + current + " of " + (steps.length - 1);
  };
  const stop = () => { clearInterval(timer); timer = null; };
  playback.classList.add("js-playback");
  playback.querySelector(".controls").hidden = false;
  playback.addEventListener("click", (event) => {
    const action = event.target.dataset && event.target.dataset.step;
    if (!action) return;
    if (action === "first") { stop(); show(0); }
    if (action === "prev") { stop(); show(current - 1); }
    if (action === "next") { stop(); show(current + 1); }
    if (action === "play") {
      if (timer) { stop(); return; }
      if (current === steps.length - 1) show(0);
      timer = setInterval(() => { if (current >= steps.length - 1) stop(); else show(current + 1); }, 700);
    }
  });
  show(0);
})();
