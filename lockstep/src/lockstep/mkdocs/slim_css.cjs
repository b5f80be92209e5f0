// The style sheets of a notebook page with every rule the page cannot use removed, for
// lockstep/mkdocs/jupyter.py: nbconvert inlines JupyterLab's whole style sheet (about
// 570 KB) into every notebook page. PurgeCSS (npm `purgecss`, pinned in package-lock.json)
// keeps the rules whose selectors match the page's classes, ids and elements, and the custom
// properties those rules use.
//
// Protocol: one JSON request on stdin, {"content": "<html>", "css": ["...", ...]}; one JSON
// answer on stdout, {"css": ["...", ...]} in the same order.
"use strict";

const { PurgeCSS } = require("purgecss");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", async () => {
  const request = JSON.parse(input);
  const purger = new PurgeCSS();
  const out = [];
  for (const raw of request.css) {
    const [result] = await purger.purge({
      content: [{ raw: request.content, extension: "html" }],
      css: [{ raw }],
      variables: true,
      // The colour scheme is set on <body> by Material's script, after the page is written:
      // the notebook's dark-scheme rules would otherwise look unused.
      safelist: { greedy: [/data-md-color-scheme/] },
    });
    out.push(result.css);
  }
  process.stdout.write(JSON.stringify({ css: out }));
});
