// Draws every [data-chart] element: its figure JSON is fetched at once, while plotly.js (loaded async,
// 1.5 MB) is still being read, then drawn with Plotly.newPlot as soon as both are there.
// A chart that cannot be drawn says why in place; the CSV link under it keeps working.
(function () {
  "use strict";

  function say(element, text) {
    const note = document.createElement("p");
    note.className = "error chart-status";
    note.textContent = text;
    element.replaceChildren(note);
  }

  // Settles when plotly.js has run, or when the page has loaded without it.
  function plotlyLoaded() {
    return new Promise((resolve) => {
      if (typeof Plotly !== "undefined" || document.readyState === "complete") {
        resolve();
      } else {
        window.addEventListener("load", resolve, { once: true });
      }
    });
  }

  async function draw(element, plotly) {
    try {
      const response = await fetch(element.dataset.chart, { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (!response.ok) {
        say(element, (body.error && body.error.message) || "The chart data could not be loaded (" + response.status + ").");
        return;
      }
      await plotly;
      if (typeof Plotly === "undefined") {
        say(element, "plotly.js did not load.");
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
    const plotly = plotlyLoaded();
    document.querySelectorAll("[data-chart]").forEach((element) => draw(element, plotly));
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawAll);
  } else {
    drawAll();
  }
})();
