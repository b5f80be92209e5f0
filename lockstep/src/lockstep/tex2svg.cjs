// TeX -> SVG at build time with MathJax (npm mathjax-full), for lockstep/math.py.
//
// Protocol: one JSON request per line on stdin, one JSON answer per line on stdout.
//   {"tex": "...", "display": true}  ->  {"html": "<mjx-container ...>...</mjx-container>"}
//                                        or {"error": "TeX error message"}
//   {"css": true}                    ->  {"css": "the style sheet the formulas need"}
// Each formula is self-contained (fontCache "local": its glyphs are defined inside its own
// <svg>), so it can be cached on its own and copied into any page or export. The visible
// <svg> is hidden from assistive technology and followed by the formula as MathML, which a
// screen reader reads; nothing is focusable.
"use strict";

const readline = require("readline");
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { SVG } = require("mathjax-full/js/output/svg.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { AssistiveMmlHandler } = require("mathjax-full/js/a11y/assistive-mml.js");
const { AllPackages } = require("mathjax-full/js/input/tex/AllPackages.js");

const adaptor = liteAdaptor();
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));

// Without "noerrors" and "noundefined", a TeX error or an unknown macro is an error here
// (and fails the build) instead of red text on the page.
const packages = AllPackages.filter((p) => p !== "noerrors" && p !== "noundefined");
const tex = new TeX({
  packages,
  formatError: (jax, err) => {
    throw err;
  },
});
const svg = new SVG({ fontCache: "local" });
const html = mathjax.document("", { InputJax: tex, OutputJax: svg });

function answer(request) {
  if (request.css) {
    return { css: adaptor.textContent(svg.styleSheet(html)) };
  }
  try {
    const node = html.convert(request.tex, { display: Boolean(request.display) });
    return { html: adaptor.outerHTML(node) };
  } catch (err) {
    return { error: String(err && err.message ? err.message : err) };
  }
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
});
