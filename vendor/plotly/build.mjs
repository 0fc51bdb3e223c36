// Builds static/vendor/plotly/plotly.min.js: plotly.js with the trace types the portal's charts draw
// (portal/charts.py: scatter, scattergl, bar, heatmap) and every layout component plotly.js's core
// registers (annotations, shapes, error bars, colour bars, legends, hover). The esbuild settings and the
// UMD wrapper are those of plotly.js's own dist bundles, so the page's global Plotly is the same.
//
//   make plotly-bundle    (npm ci --ignore-scripts && node build.mjs, here)
//
// plotly.js's version must be the one the pinned Python plotly package bundles (tests check it), and a
// trace type added to portal/charts.py must be added to TRACES (and to the tests' list).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import * as esbuild from "esbuild";
import { environmentPlugin } from "esbuild-plugin-environment";
import { glsl } from "esbuild-plugin-glsl";

// scatter comes with plotly.js's core.
const TRACES = ["bar", "heatmap", "scattergl"];
const OUT = fileURLToPath(new URL("../../static/vendor/plotly/plotly.min.js", import.meta.url));

const { version } = JSON.parse(readFileSync(new URL("node_modules/plotly.js/package.json", import.meta.url)));
const entry = [
  "var Plotly = require('plotly.js/lib/core');",
  `Plotly.register([${TRACES.map((trace) => `require('plotly.js/lib/${trace}')`).join(", ")}]);`,
  "module.exports = Plotly;",
].join("\n");
const header = `/**
* plotly.js (scatter, ${TRACES.join(", ")} - minified) v${version}
* Copyright 2012-2026, Plotly, Inc.
* All rights reserved.
* Licensed under the MIT license
*/
(
 function(root, factory) {
  if (typeof module === "object" && module.exports) {
   module.exports = factory();
  } else {
   root.moduleName = factory();
  }
} (typeof self !== "undefined" ? self : this, () => {
"use strict";`;

const result = await esbuild.build({
  stdin: { contents: entry, resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
  write: false,
  format: "iife",
  globalName: "Plotly",
  bundle: true,
  minify: true,
  plugins: [glsl({ minify: true }), environmentPlugin({ NODE_DEBUG: false })],
  // The one stylesheet plotly.js requires is maplibre's, and only when a map trace is registered: this
  // bundle has none (inlined, the stylesheet would also name itself by the checkout's absolute path).
  loader: { ".css": "empty" },
  alias: { regl: "@plotly/regl", stream: "stream-browserify" },
  define: { global: "window", "define.amd": "false" },
  target: "es2016",
  logLevel: "warning",
});
const bundle = `${header}${result.outputFiles[0].text}\nwindow.Plotly = Plotly;\nreturn Plotly;\n}));\n`;
writeFileSync(OUT, bundle);
const sha256 = createHash("sha256").update(bundle).digest("hex");
console.log(`plotly.js v${version} (scatter, ${TRACES.join(", ")}): ${bundle.length.toLocaleString("en")} bytes, sha256 ${sha256}`);
