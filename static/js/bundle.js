// The white-paper bundle's progress page: asks the status endpoint every second and shows the
// progress, the step, a note (no worker yet), the error, or the download link when the zip is built.
(function () {
  "use strict";

  const INTERVAL_MS = 1000;
  const section = document.getElementById("bundle");
  if (!section) {
    return;
  }
  const progress = document.getElementById("bundle-progress");
  const percent = document.getElementById("bundle-percent");
  const step = document.getElementById("bundle-step");
  const note = document.getElementById("bundle-note");
  const error = document.getElementById("bundle-error");
  const ready = document.getElementById("bundle-ready");
  const size = document.getElementById("bundle-size");

  function kilobytes(bytes) {
    return bytes >= 1048576 ? (bytes / 1048576).toFixed(1) + " MB" : Math.max(1, Math.round(bytes / 1024)) + " KB";
  }

  function show(state) {
    const share = Math.round(100 * (state.progress || 0));
    progress.value = share;
    progress.textContent = share + " %";
    percent.textContent = share + " %";
    section.dataset.state = state.status;
    note.hidden = !state.note;
    note.textContent = state.note || "";
    if (state.status === "done") {
      step.textContent = "Done.";
      size.textContent = state.size_bytes ? "(" + kilobytes(state.size_bytes) + ")" : "";
      ready.hidden = false;
      document.getElementById("bundle-download").focus();
      return false;
    }
    if (state.status === "failed" || state.status === "missing") {
      step.textContent = "Stopped.";
      // A failed build's error is a sentence; a bundle that is not there is answered as every error is.
      const message = state.status === "missing" ? state.error.message : state.error;
      error.firstChild.textContent = (message || "The bundle could not be built.") + " ";
      error.hidden = false;
      return false;
    }
    step.textContent = (state.step || "Waiting for a worker") + "…";
    return true;
  }

  async function poll() {
    let again = true;
    try {
      const response = await fetch(section.dataset.status, { headers: { Accept: "application/json" } });
      again = show(await response.json());
    } catch (failure) {
      note.hidden = false;
      note.textContent = "The portal did not answer (" + failure.message + "); trying again.";
    }
    if (again) {
      window.setTimeout(poll, INTERVAL_MS);
    }
  }

  if (section.dataset.state !== "done" && section.dataset.state !== "failed") {
    window.setTimeout(poll, INTERVAL_MS);
  }
})();
