// System pickers: as the user types in an input tied to the shared datalist, the datalist is refilled
// with at most 20 matching system names from the server, so the page never lists every system; a system
// private to the reader's team is labelled so, as on the systems list.
(function () {
  "use strict";

  function attach(list) {
    let pending = null;
    let asked = "";
    function refill(names, privateNames) {
      const hidden = new Set(privateNames || []);
      list.replaceChildren(...names.map((name) => {
        const option = document.createElement("option");
        option.value = name;
        if (hidden.has(name)) option.label = name + " (private)";
        return option;
      }));
    }
    async function search(text) {
      if (text === asked) return;
      asked = text;
      const response = await fetch(list.dataset.search + "?q=" + encodeURIComponent(text), {
        headers: { Accept: "application/json" },
      });
      if (!response.ok || asked !== text) return;
      const found = await response.json();
      refill(found.systems, found.private);
    }
    document.querySelectorAll('input[list="' + list.id + '"]').forEach((input) => {
      input.addEventListener("input", () => {
        clearTimeout(pending);
        pending = setTimeout(() => search(input.value.trim()), 150);
      });
    });
  }

  function start() {
    document.querySelectorAll("datalist[data-search]").forEach(attach);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
