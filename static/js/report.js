// The report's compose form: captions left at their defaults are not sent, so the report's address
// holds only the captions the author changed (a caption not in the address gets its default).
(function () {
  "use strict";
  var form = document.getElementById("report-form");
  var data = document.getElementById("caption-defaults");
  if (!form || !data) {
    return;
  }
  var defaults = new Set(JSON.parse(data.textContent));
  form.addEventListener("submit", function () {
    var area = form.querySelector("#id_captions");
    area.value = area.value.split(/\r?\n/).filter(function (line) {
      return line.trim() !== "" && !defaults.has(line.trim());
    }).join("\n");
  });
})();
