// A job's page: refresh the progress while the job runs (reload when it finishes, so that the
// server renders the outcome). The solution plays in the site's player (web/player.js).
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
})();
