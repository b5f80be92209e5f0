"""Lab notebooks (mkdocs-jupyter) under mkdocs-static-i18n's folder layout.

Workaround, upstream: ultrabug/mkdocs-static-i18n#198 ("Incompatible with mkdocs-jupyter
plugin"), open. i18n re-creates every File in its on_files (priority -100), after
mkdocs-jupyter has marked the notebooks as pages (priority 0). A new File decides by its
suffix that a `.py` is not a page, so i18n treats the notebook as an asset: the source is
copied raw to the page's URL, unexecuted and with no language alternates, and the strict
build does not notice. `keep_notebooks_as_pages` makes a file that was a page stay a page
while i18n re-creates it. Remove it once a release fixes #198.

The rest is not a workaround. Executed notebooks are cached by lockstep's cache (per
notebook and language, under lockstep.notebooks.page_key; mkdocs-jupyter's own cache is
keyed on the notebook file alone and is switched off). Chinese headings get the table of
contents' ids (mkdocs-jupyter keeps ASCII only), and a link to a page's source file
(`../derivation/training.md`, which also works in Jupyter) is resolved to that language's
page; a link to a missing page fails the build.
"""

from __future__ import annotations

import html as html_lib
import itertools
import json
import logging
import os
import posixpath
import re
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.structure.toc import get_toc

from lockstep.cache import Cache, digest
from lockstep.notebooks import cell_alts, page_key, with_alt_text

HTML_HEADING = re.compile(r'<h([1-6]) id="[^"]*">(.*?)<a class="anchor-link" href="#[^"]*">', re.S)
PAGE_LINK = re.compile(r'href="([^":#]+\.md)(#[^"]*)?"')
# nbconvert's template loads MathJax 2 (with an empty src) to typeset in the browser; the build
# draws the formulas instead (lockstep/math.py), so the loader and its configuration go.
MATHJAX_LOADER = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
# Keyboard access (WCAG 2.1.1): nbconvert makes every cell's input a tab stop, markdown
# included, but not the code that scrolls sideways; the code gets the tab stop instead.
INPUT_TAB_STOP = '<div class="jp-Cell-inputWrapper" tabindex="0">'
SCROLLING_CODE = re.compile(r'<div class="highlight-ipynb( [^"]*)?">')
# mkdocs-jupyter 0.26's template writes its copy button's label and notice in English; they
# get the theme's own words for the page's language (Material's translations).
COPY_WORDS = ("clipboard.copy", "clipboard.copied")
COPY_LABEL = 'aria-label="Copy to Clipboard"'
COPIED = re.compile(r'(<span class="notice" hidden(?:="")?>)Copied!(</span>)')
# mkdocs-jupyter options that change the rendered page (they key its own cache too).
RENDER_OPTIONS = (
    "execute", "kernel_name", "theme", "allow_errors", "show_input", "no_input", "no_prompt",
    "remove_tag_config", "highlight_extra_classes", "include_requirejs", "custom_mathjax_url",
    "toc_depth", "ignore_h1_titles",
)  # fmt: skip


class NotebookPage(File):
    """A file mkdocs-jupyter renders: a documentation page whatever its suffix."""

    def is_documentation_page(self) -> bool:
        return True


def keep_notebooks_as_pages() -> None:
    """Patch i18n's file re-creation once (static-i18n#198)."""
    from mkdocs_static_i18n import folder

    create_i18n_file = folder.create_i18n_file
    if getattr(create_i18n_file, "keeps_page_type", False):
        return

    def create(file: File, *args, **kwargs) -> File:
        new = create_i18n_file(file, *args, **kwargs)
        if file.is_documentation_page() and not new.is_documentation_page():
            new.__class__ = NotebookPage
        return new

    create.keeps_page_type = True
    folder.create_i18n_file = create


def _toc_tokens(items) -> list[dict]:
    return [
        {"level": i.level, "id": i.id, "name": i.title, "children": _toc_tokens(i.children)}
        for i in items
    ]


STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.S)
SLIM_CSS = Path(__file__).with_name("slim_css.cjs")
log = logging.getLogger("mkdocs.plugins.lockstep")


def slim_styles(html: str, node_modules: Path) -> str:
    """The page with its inline style sheets cut to the rules it can use (slim_css.cjs). Without
    Node.js or npm's purgecss the page keeps them whole: heavier, not wrong."""
    if shutil.which("node") is None or not (node_modules / "purgecss").is_dir():
        log.warning("notebook pages keep JupyterLab's whole style sheet: npm purgecss is missing")
        return html
    styles = STYLE.findall(html)
    request = {"content": STYLE.sub("", html), "css": [css for _, css, _ in styles]}
    done = subprocess.run(
        [shutil.which("node"), str(SLIM_CSS)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "NODE_PATH": str(node_modules)},
        check=True,
    )
    slim = iter(json.loads(done.stdout)["css"])
    return STYLE.sub(lambda m: m[1] + next(slim) + m[3], html)


def cache_rendering(
    page, name: str, jupyter_options, root: Path, cache: Cache, node_modules: Path
) -> None:
    """Wrap the render that mkdocs-jupyter gave `page` with lockstep's cache; the rendering is
    stored with its style sheets cut to what it uses."""
    path = Path(page.file.abs_src_path)
    options = repr([(k, jupyter_options.get(k)) for k in RENDER_OPTIONS])
    key = page_key(path, root, salt=options + digest([SLIM_CSS], root))
    render = page.render

    def cached_render(config, files) -> None:
        def make() -> bytes:
            render(config, files)
            content = slim_styles(page.content, node_modules)
            entry = {"content": content, "toc": _toc_tokens(page.toc), "title": page.title}
            return json.dumps(entry, ensure_ascii=False).encode()

        entry = json.loads(cache.fetch(name, key, make).read_text(encoding="utf-8"))
        page.content, page.toc = entry["content"], get_toc(entry["toc"])
        if entry["title"] is not None:
            page.title = entry["title"]

    page.render = cached_render


def _toc_ids(items) -> list[str]:
    return [i for item in items for i in (item.id, *_toc_ids(item.children))]


CELL_ID = re.compile(r'(<div class="jp-Cell [^"]*" id="cell-id=)[^"]*"')


def fix_html(html: str, page, files, words: dict[str, str]) -> str:
    """Chinese headings get the table of contents' ids; links to page sources are resolved;
    nbconvert's MathJax loader is dropped; images get their cells' alt text; the code, not
    every cell, is what the keyboard reaches; the copy buttons speak the page's language
    (`words`: the theme's "clipboard.copy" and "clipboard.copied")."""
    label = html_lib.escape(words["clipboard.copy"], quote=True)
    html = html.replace(COPY_LABEL, f'aria-label="{label}"')
    notice = html_lib.escape(words["clipboard.copied"])
    html = COPIED.sub(lambda m: m[1] + notice + m[2], html)
    ids = _toc_ids(page.toc)
    if len(ids) != len(HTML_HEADING.findall(html)):
        raise PluginError(f"{page.file.src_uri}: headings and table of contents do not match")
    slugs = iter(ids)

    def relabel(m: re.Match) -> str:
        slug = next(slugs)
        return f'<h{m[1]} id="{slug}">{m[2]}<a class="anchor-link" href="#{slug}">'

    def resolve(m: re.Match) -> str:
        target_path = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), m[1]))
        target = files.get_file_from_path(target_path)
        if target is None:
            raise PluginError(f"{page.file.src_uri}: link to a missing page {m[1]!r}")
        return f'href="{target.url_relative_to(page.file)}{m[2] or ""}"'

    html = MATHJAX_LOADER.sub("", html)
    # jupytext gives each cell a random id on every read: number them, so that two builds of
    # the same notebook write the same bytes (a --dirty build and a clean one).
    numbers = itertools.count(1)
    html = CELL_ID.sub(lambda m: f'{m[1]}{next(numbers)}"', html)
    html = with_alt_text(html, cell_alts(Path(page.file.abs_src_path)), page.file.src_uri)
    html = SCROLLING_CODE.sub(lambda m: m[0][:-1] + ' tabindex="0">', html)
    html = html.replace(INPUT_TAB_STOP, '<div class="jp-Cell-inputWrapper">')
    return PAGE_LINK.sub(resolve, HTML_HEADING.sub(relabel, html))
