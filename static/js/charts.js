// Draws every [data-chart] element once the page has loaded: fetch the figure JSON, then Plotly.newPlot.
// A chart that cannot be drawn says why in place; the CSV link under it keeps working.
(function () {
  "use strict";

  function say(element, text) {
    const note = document.createElement("p");
    note.className = "error chart-status";
    note.textContent = text;
    element.replaceChildren(note);
  }

  async function draw(element) {
    try {
      const response = await fetch(element.dataset.chart, { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (!response.ok) {
        say(element, (body.error && body.error.message) || "The chart data could not be loaded (" + response.status + ").");
        return;
      }
      element.replaceChildren();
      await Plotly.newPlot(element, body.data, body.layout, { responsive: true, displaylogo: false });
      element.dataset.drawn = "true";
    } catch (error) {
      say(element, "The chart could not be drawn: " + error.message);
    }
  }

  function drawAll() {
    if (typeof Plotly === "undefined") {
      document.querySelectorAll("[data-chart]").forEach((element) => say(element, "plotly.js did not load."));
      return;
    }
    document.querySelectorAll("[data-chart]").forEach(draw);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawAll);
  } else {
    drawAll();
  }
})();
