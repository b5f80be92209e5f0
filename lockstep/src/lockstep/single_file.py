"""A built page as one self-contained HTML file and a PDF, made by Chromium after the build.

    lockstep handbook SITE_DIR [--page cards/handbook/] [--name handbook]
                            [--config mkdocs.yml]

For each language, Chromium opens the built page and keeps what a reader sees: the article
with its formulas as the build drew them, SVG (no script needed to read them), every style
sheet inlined, images as data URIs, links within the page kept and links to other pages made
absolute on the published site (SITE_URL), and a table of contents of the page's `h2`
headings. The file opens from disk with nothing else and makes no request; printed (the PDF,
also by Chromium) it has page numbers and an outline. Output: `<lang>/assets/downloads/
<name>.<lang>.html` and `.pdf` in SITE_DIR. Needs Chromium (CHROMIUM, as the tests use it).
"""

from __future__ import annotations

import html
from pathlib import Path

from lockstep.browser import chromium, served
from lockstep.site import Site

CONTENTS = {"zh": "目录", "en": "Contents"}
FOOTER = (
    '<div style="font-size:8px;width:100%;text-align:center;color:#666">'
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)

# Runs in the loaded page; returns the pieces of the single file. The formulas' glyphs are
# defined once per page, in MJX-SVG-global-cache (lockstep/math.py): it comes along.
COLLECT = """async ({root, published}) => {
  const article = document.querySelector("article").cloneNode(true);
  // what only works with the site's scripts: copy buttons, permalinks, page actions
  article.querySelectorAll("script, button, .md-code__nav, .headerlink, .md-content__button")
    .forEach(e => e.remove());
  const dataUri = async (src) => {
    const blob = await (await fetch(src)).blob();
    return await new Promise(done => {
      const reader = new FileReader();
      reader.onload = () => done(reader.result);
      reader.readAsDataURL(blob);
    });
  };
  for (const img of article.querySelectorAll("img")) {
    img.src = await dataUri(img.src);
    img.removeAttribute("loading");
  }
  const here = location.href.split("#")[0];
  for (const a of article.querySelectorAll("a[href]")) {
    const url = new URL(a.getAttribute("href"), location.href);
    if (url.href.split("#")[0] === here) a.setAttribute("href", url.hash || "#");
    else if (url.href.startsWith(root))
      a.setAttribute("href", published + url.href.slice(root.length));
  }
  const css = [...document.styleSheets].map(sheet => {
    try { return [...sheet.cssRules].map(rule => rule.cssText).join("\\n"); }
    catch (e) { return ""; }
  }).join("\\n");
  const toc = [...article.querySelectorAll("h2[id]")]
    .map(h => [h.id, h.textContent.replace(/\\s+/g, " ").trim()]);
  const cache = document.getElementById("MJX-SVG-global-cache");
  const body = {};
  for (const {name, value} of document.body.attributes) body[name] = value;
  return {title: document.title, css, toc, body, article: article.outerHTML,
          cache: cache ? cache.outerHTML : ""};
}"""


def document(parts: dict, lang: str) -> str:
    """The single HTML file from what COLLECT returned."""
    attrs = "".join(f' {k}="{html.escape(v)}"' for k, v in parts["body"].items())
    toc = "".join(f'<li><a href="#{i}">{html.escape(t)}</a></li>' for i, t in parts["toc"])
    nav = f'<nav class="single-file-toc md-typeset"><h2>{CONTENTS[lang]}</h2><ol>{toc}</ol></nav>'
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{html.escape(parts['title'])}</title><style>{parts['css']}\n"
        ".single-file{max-width:52rem;margin:0 auto;padding:1rem}"
        # MathJax draws glyphs as filled paths in a <g stroke-width="0">; in a PDF a zero line
        # width is the thinnest line the device can draw, so printed formulas came out bold.
        'mjx-container g[stroke-width="0"]{stroke:none}'
        "@media print{.single-file-toc{break-after:page}}</style></head>"
        f'<body{attrs}><div class="single-file md-content">{nav}{parts["article"]}</div>'
        f"{parts['cache']}</body></html>\n"
    )


def export(site: Site, site_dir: Path, page: str, name: str, published: str) -> list[Path]:
    """Write `<name>.<lang>.html` and `.pdf` for every language; the paths written."""
    dest = site.options.cards.anki_dest
    site_dir = site_dir.resolve()  # the PDF printer opens the file by its file:// URL
    written = []
    with served(site_dir) as root, chromium() as browser:
        for lang in site.languages:
            prefix = site.languages.prefix(lang)
            tab = browser.new_page()
            # Parsed to the end first: on a long page the network can fall idle while the
            # parser has not yet reached the glyph definitions at the end of the body.
            tab.goto(root + prefix + page, wait_until="load")
            tab.wait_for_load_state("networkidle")
            parts = tab.evaluate(COLLECT, {"root": root, "published": published})
            tab.close()
            out = site_dir / prefix / dest / f"{name}.{lang}.html"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(document(parts, lang), encoding="utf-8")
            pdf = out.with_suffix(".pdf")
            printer = browser.new_page()
            printer.goto(out.as_uri(), wait_until="load")
            printer.pdf(
                path=str(pdf),
                format="A4",
                print_background=True,
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=FOOTER,
                margin={"top": "14mm", "bottom": "16mm", "left": "12mm", "right": "12mm"},
                outline=True,
                tagged=True,
            )
            printer.close()
            written += [out, pdf]
    return written
