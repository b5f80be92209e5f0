// MathJax 3 configuration; loaded before MathJax itself.
// Markdown pages: pymdownx.arithmatex (generic mode) puts \( \) and \[ \] as the text of
// elements of class "arithmatex". Notebook pages: nbconvert leaves the math of markdown cells
// as raw $…$ and $$…$$ in <p>, <li>, <h2> … inside a "jp-RenderedMarkdown" element.
// MathJax skips every element that has a class (ignoreHtmlClass ".+"), except those two
// classes; an element without a class inherits its parent's choice, so the unclassed <p> in a
// notebook cell is read and a $ anywhere else on the page (code, outputs) is not. (".*|"
// would also match an empty class and skip those <p>.)
window.MathJax = {
  tex: {
    inlineMath: [
      ["\\(", "\\)"],
      ["$", "$"],
    ],
    displayMath: [
      ["\\[", "\\]"],
      ["$$", "$$"],
    ],
    processEscapes: true,
    processEnvironments: true,
  },
  options: {
    ignoreHtmlClass: ".+",
    processHtmlClass: "arithmatex|jp-RenderedMarkdown",
  },
  svg: { fontCache: "global" },
};
