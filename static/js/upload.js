// The upload page: send the chosen or dropped files in one request, then follow every unfinished row
// by polling the status endpoint. Everything from the server is inserted as text, never as HTML.
(function () {
  "use strict";

  var table = document.getElementById("upload-table");
  if (!table) return;
  var tbody = table.tBodies[0];
  var announce = document.getElementById("upload-announce");
  var form = document.getElementById("upload-form");
  var statusUrl = table.dataset.statusUrl;
  var POLL_MS = 1000;
  var pollTimer = null;

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function link(href, text) {
    var a = el("a", text);
    a.href = href;
    return a;
  }

  function plural(count, word) {
    return count + " " + word + (count === 1 ? "" : "s");
  }

  function statusCell(row) {
    var cell = el("td", null, "status");
    cell.appendChild(el("strong", row.status_text, "state state-" + row.status));
    cell.appendChild(document.createTextNode(" "));
    if (row.status === "parsing" && row.progress_pct > 0) {
      var bar = el("progress");
      bar.max = 100;
      bar.value = row.progress_pct;
      bar.textContent = row.progress_pct + "%";
      cell.appendChild(bar);
    } else if (row.status === "done" && row.read_with) {
      cell.appendChild(document.createTextNode("read together with "));
      cell.appendChild(link(row.read_with.url, "upload #" + row.read_with.id));
      cell.appendChild(document.createTextNode(", which holds the runs"));
    } else if (row.status === "done") {
      if (row.system) {
        cell.appendChild(link(row.system.url, row.system.name));
        cell.appendChild(document.createTextNode(", "));
      }
      cell.appendChild(document.createTextNode(plural(row.run_count, "run") + ", " + plural(row.point_count, "point")));
      if (row.warnings) {
        cell.appendChild(document.createTextNode(", "));
        cell.appendChild(link(row.url, plural(row.warnings, "warning")));
      }
      if (row.runs.length) {
        var list = el("ul", null, "runs");
        row.runs.forEach(function (run) {
          var item = el("li");
          item.appendChild(link(run.url, run.name));
          list.appendChild(item);
        });
        if (row.run_count > row.runs.length) {
          var more = el("li");
          more.appendChild(link(row.url, "all " + row.run_count + " runs"));
          list.appendChild(more);
        }
        cell.appendChild(list);
      }
    } else if (row.status === "duplicate" && row.duplicate_of) {
      cell.appendChild(document.createTextNode("of "));
      cell.appendChild(link(row.duplicate_of.url, "upload #" + row.duplicate_of.id));
    } else if (row.status === "failed") {
      cell.appendChild(el("span", row.error, "error"));
    }
    if (row.status === "done" && row.error) {
      cell.appendChild(el("span", row.error, "error"));  // a re-ingest that failed; the earlier runs are kept
    }
    return cell;
  }

  function rowElement(row, old) {
    var tr = el("tr");
    tr.dataset.status = row.status;
    var number = el("td");
    if (row.id) {
      tr.dataset.uploadId = row.id;
      number.appendChild(link(row.url, "#" + row.id));
    } else {
      number.textContent = "—";
    }
    tr.appendChild(number);
    tr.appendChild(el("td", row.name, "file"));
    tr.appendChild(el("td", row.tool || "–", "format"));  // the tool's name, as the page's own rows say
    tr.appendChild(statusCell(row));
    // Who and when do not change; keep the cells the page already shows.
    if (old) {
      tr.appendChild(old.cells[4].cloneNode(true));
      tr.appendChild(old.cells[5].cloneNode(true));
      tr.appendChild(old.cells[6].cloneNode(true));
    } else {
      tr.appendChild(el("td", "you"));
      tr.appendChild(el("td", "just now"));
      var original = el("td");
      if (row.id) original.appendChild(link(row.url.replace(/\/$/, "/original"), "download"));
      tr.appendChild(original);
    }
    return tr;
  }

  function addRow(row) {
    var empty = tbody.querySelector("tr.empty");
    if (empty) empty.remove();
    var existing = row.id ? tbody.querySelector('tr[data-upload-id="' + row.id + '"]') : null;
    var tr = rowElement(row, existing);
    if (existing) existing.replaceWith(tr);
    else tbody.insertBefore(tr, tbody.firstChild);
  }

  function unfinishedIds() {
    return Array.prototype.map.call(
      tbody.querySelectorAll('tr[data-status="queued"], tr[data-status="parsing"]'),
      function (tr) { return tr.dataset.uploadId; }
    );
  }

  function poll() {
    pollTimer = null;
    var ids = unfinishedIds();
    if (!ids.length) return;
    fetch(statusUrl + "?ids=" + ids.join(","), { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        body.uploads.forEach(function (row) {
          var old = tbody.querySelector('tr[data-upload-id="' + row.id + '"]');
          if (old && old.dataset.status !== row.status) {
            addRow(row);
            if (row.finished) announce.textContent = row.name + ": " + row.status_text;
          }
        });
      })
      .catch(function () { /* a missed poll is retried on the next tick */ })
      .then(schedulePoll);
  }

  function schedulePoll() {
    if (!pollTimer && unfinishedIds().length) pollTimer = window.setTimeout(poll, POLL_MS);
  }

  function showMessage(text) {
    document.getElementById("upload-message").textContent = text;
  }

  // Files chosen or dropped together go in one request, so the server can read together the
  // files that belong together (the files of one ORION test, a fio sweep).
  function sendBatch(files) {
    var maxBytes = Number(form.dataset.maxUploadBytes);
    var maxFiles = Number(form.dataset.maxFiles);
    if (files.length > maxFiles) {
      // The server would refuse the whole request; say so before sending any of it.
      showMessage("At most " + maxFiles + " files can be sent at once; send the others in another upload, " +
        "or put the files in a .zip archive");
      return Promise.resolve();
    }
    var data = new FormData(form);
    data.delete("files");
    var accepted = 0;
    files.forEach(function (file) {
      if (file.size > maxBytes) {
        addRow({ name: file.name, status: "failed", status_text: "failed",
          error: file.name + ": larger than " + form.dataset.maxUploadMb + " MB, the largest file accepted here" });
      } else {
        data.append("files", file, file.name);
        accepted += 1;
      }
    });
    if (!accepted) return Promise.resolve();
    return fetch(form.action, { method: "POST", body: data, headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        (body.uploads || []).forEach(addRow);
        (body.refused || []).forEach(function (item) {
          addRow({ name: item.name, status: "failed", status_text: "failed", error: item.error });
        });
        if (body.error) {
          showMessage(body.error.message);
          // Files the server kept (the job queue is down) are followed like any other; else nothing was sent.
          if (!(body.uploads || []).length) throw new Error("labels refused");
        }
      });
  }

  function sendFiles(files) {
    showMessage("");
    return sendBatch(Array.prototype.slice.call(files)).then(schedulePoll).catch(function (error) {
      if (error.message !== "labels refused") showMessage("The upload did not reach the server: " + error.message);
    }).then(function () {
      form.elements.files.value = "";
    });
  }

  // Every label an entry can fill is set, to "" (unknown) when the entry does not state it, so that
  // nothing of an entry chosen before is left behind.
  function fillFromProfile(entry) {
    ["raid_level", "drive_count", "drive_type", "drive_rpm", "segment_kb"].forEach(function (name) {
      form.elements[name].value = entry[name] !== undefined ? entry[name] : "";
    });
    ["read_cache", "write_cache", "write_cache_mirroring"].forEach(function (name) {
      form.elements[name].value = entry[name] === undefined ? "" : entry[name] ? "true" : "false";
    });
  }

  function loadProfile() {
    var wrapper = document.getElementById("profile-prefill");
    var select = document.getElementById("profile-entry");
    var systemId = form.elements.system.value;
    wrapper.hidden = true;
    while (select.options.length > 1) select.remove(1);
    Array.prototype.slice.call(select.querySelectorAll("optgroup")).forEach(function (g) { g.remove(); });
    if (!systemId) return;
    fetch(form.dataset.profileUrl.replace("/0/", "/" + systemId + "/"), { headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (profile) {
        var entries = [];
        [["arrays", "Arrays"], ["volumes", "Logical drives"]].forEach(function (kind) {
          if (!profile[kind[0]].length) return;
          var group = document.createElement("optgroup");
          group.label = kind[1];
          profile[kind[0]].forEach(function (entry) {
            var parts = [entry.raid_level, entry.drive_count && plural(entry.drive_count, "drive"),
              [entry.drive_type, entry.drive_rpm && entry.drive_rpm + " rpm"].filter(Boolean).join(" "),
              entry.segment_kb && entry.segment_kb + " KB segments"].filter(Boolean);
            var option = el("option", kind[1].replace(/s$/, "") + " " + entry.name + (parts.length ? " (" + parts.join(", ") + ")" : ""));
            option.value = String(entries.length);
            entries.push(entry);
            group.appendChild(option);
          });
          select.appendChild(group);
        });
        select.onchange = function () { if (select.value !== "") fillFromProfile(entries[Number(select.value)]); };
        wrapper.hidden = entries.length === 0;
      })
      .catch(function () { wrapper.hidden = true; });
  }

  if (form) {
    var input = form.elements.files;
    var zone = document.getElementById("dropzone");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!input.files.length) {
        showMessage("Choose at least one file.");
        input.focus();
        return;
      }
      sendFiles(input.files);
    });
    ["dragenter", "dragover"].forEach(function (name) {
      zone.addEventListener(name, function (event) { event.preventDefault(); zone.classList.add("over"); });
    });
    ["dragleave", "drop"].forEach(function (name) {
      zone.addEventListener(name, function () { zone.classList.remove("over"); });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      if (event.dataTransfer.files.length) sendFiles(event.dataTransfer.files);
    });
    form.elements.system.addEventListener("change", loadProfile);
    loadProfile();
  }
  schedulePoll();
})();
