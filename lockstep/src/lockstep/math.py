"""Formulas drawn at build time: every page ships its math as SVG, and no MathJax script.

MathJax (npm `mathjax-full`, pinned in package-lock.json) runs in one Node process per build
(`tex2svg.cjs`) and turns each formula into an `<mjx-container>`: the drawing, hidden from
assistive technology, followed by the formula as MathML for screen readers. A reader's browser
downloads no script and waits for nothing; the single-file handbook and its PDF copy the
drawn formulas as they are.

Where the math is:
- Markdown pages: pymdownx.arithmatex (generic mode) leaves `\\( \\)` and `\\[ \\]` as the text
  of `<span class="arithmatex">` and `<div class="arithmatex">`.
- Notebook pages: nbconvert leaves the math of markdown cells as raw `$…$` and `$$…$$` in the
  text of a `jp-RenderedMarkdown` element (never inside `<code>` or `<pre>`); `\\$` is a dollar.

A TeX error or an unknown macro fails the build, naming the page and the formula. Drawn
formulas are cached per page under a digest of the page's formulas and of the renderer.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

from lockstep.cache import Cache, digest
from lockstep.errors import BuildError

SCRIPT = Path(__file__).with_name("tex2svg.cjs")
CSS_DEST = "assets/stylesheets/math.css"
STYLE = "style"  # the style sheet's name in the cache, beside the pages' `<lang>/<page>`

ARITHMATEX = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
DELIMITED = re.compile(r"\\\((.*)\\\)|\\\[(.*)\\\]", re.S)
# Tags and the text between them, for the notebook cells.
TOKEN = re.compile(r"<[^>]*>|[^<]+")
OPEN_DIV = re.compile(r"<div\b")
MARKDOWN_CELL = re.compile(r'<div class="[^"]*\bjp-RenderedMarkdown\b')
# $$display$$ before $inline$; a backslash-escaped dollar is neither.
DOLLARS = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$", re.S)
# Each drawn formula defines the glyphs it uses in its own <defs>, numbered per formula
# (id="MJX-7-TEX-I-1D45E": font variant and code point after the number). On a page, every
# glyph is defined once, in one hidden <svg> (as MathJax's own "global" font cache does), and
# the formulas refer to it: the handbook page shrinks from 320 KB to 130 KB gzip-compressed.
DEFS = re.compile(r"<defs>(.*?)</defs>", re.S)
GLYPH = re.compile(r'<path id="MJX-\d+-([^"]+)" d="([^"]*)"></path>')
GLYPH_REF = re.compile(r'href="#MJX-\d+-')
GLOBAL_DEFS = (
    '<svg id="MJX-SVG-global-cache" aria-hidden="true" style="display:none"><defs>{}</defs></svg>'
)


def node_modules(root: Path) -> Path:
    """The node_modules folder that has mathjax-full: in `root` or above it, as Node looks."""
    for folder in (root, *root.parents):
        if (folder / "node_modules" / "mathjax-full").is_dir():
            return folder / "node_modules"
    return root / "node_modules"  # missing: MathJax.version() says how to install it


# A line may break between an inline formula (an atomic SVG) and the punctuation after it,
# leaving "。" or "，" alone at the start of a line. Formula and punctuation are kept together.
FORMULA_THEN_PUNCTUATION = re.compile(
    r'((?:<span class="arithmatex">)?<mjx-container[^>]*>(?:(?!</mjx-container>).)*'
    r"</mjx-container>(?:</span>)?)"
    r"([。，、；：？！）」』”’.,;:?!)])",
    re.S,
)
NO_BREAK = r'<span class="math-nobr">\1\2</span>'


class MathJax:
    """One Node process running tex2svg.cjs, started on first use."""

    def __init__(self, node_modules: Path):
        self.node_modules = Path(node_modules)
        self._proc: subprocess.Popen | None = None

    def version(self) -> str:
        """The installed mathjax-full's version; a clear error if Node or MathJax is missing."""
        package = self.node_modules / "mathjax-full" / "package.json"
        if shutil.which("node") is None or not package.is_file():
            missing = f"mathjax-full in {self.node_modules}"
            what = "Node.js" if shutil.which("node") is None else missing
            raise BuildError(
                f"build-time math (the `mathjax` option) needs Node.js and npm's mathjax-full 3, "
                f"and {what} is missing: install Node.js, then run `npm install mathjax-full@3` "
                "beside the configuration file (or set `mathjax: false`)"
            )
        return json.loads(package.read_text(encoding="utf-8"))["version"]

    def _start(self) -> subprocess.Popen:
        self.version()
        env = {**os.environ, "NODE_PATH": str(self.node_modules)}
        return subprocess.Popen(
            [shutil.which("node"), str(SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
            encoding="utf-8",
        )

    def ask(self, request: dict) -> dict:
        """Send one request to the Node process and return its answer."""
        if self._proc is None or self._proc.poll() is not None:
            self._proc = self._start()
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise BuildError(f"{SCRIPT.name} stopped (exit status {self._proc.wait()})")
        return json.loads(line)

    def draw(self, tex: str, display: bool) -> str:
        """The <mjx-container> for one formula; ValueError with MathJax's message on a TeX error."""
        answer = self.ask({"tex": tex, "display": display})
        if "error" in answer:
            raise ValueError(answer["error"])
        return answer["html"]

    def css(self) -> str:
        """The style sheet that drawn formulas need."""
        return self.ask({"css": True})["css"]

    def close(self) -> None:
        """Stop the Node process."""
        if self._proc is not None:
            self._proc.stdin.close()
            self._proc.wait()
            self._proc = None


def _markdown_cell_text(page: str):
    """Yield (start, end) of each text run inside a notebook's markdown cells, outside code."""
    depth = 0  # open <div>s, counted from the markdown cell's own
    code = 0
    for m in TOKEN.finditer(page):
        token = m.group()
        if token.startswith("<"):
            if depth == 0:
                depth = 1 if MARKDOWN_CELL.match(token) else 0
            elif OPEN_DIV.match(token):
                depth += 1
            elif token.startswith("</div"):
                depth -= 1
            elif re.match(r"<(code|pre)\b", token):
                code += 1
            elif re.match(r"</(code|pre)\b", token):
                code -= 1
        elif depth and not code:
            yield m.start(), m.end()


def find(page: str) -> list[tuple[int, int, str, bool]]:
    """Every formula on a built page: (start, end, TeX, display), in page order.

    For arithmatex the span is the TeX inside its element; for notebook cells, the dollars."""
    found = []
    for m in ARITHMATEX.finditer(page):
        inner = DELIMITED.fullmatch(html.unescape(m[2]).strip())
        if inner is None:
            raise ValueError(f"arithmatex element without \\( \\) or \\[ \\]: {m[0][:80]!r}")
        display = inner[2] is not None
        found.append((m.start(2), m.end(2), inner[2] if display else inner[1], display))
    for start, end in _markdown_cell_text(page):
        for m in DOLLARS.finditer(page, start, end):
            display = m[1] is not None
            found.append((m.start(), m.end(), html.unescape(m[1] if display else m[2]), display))
    return sorted(found)


def cache_name(lang: str, page: str) -> str:
    """The cache name of a page's formulas: its language and its path in that language's tree."""
    return f"{lang}/{page}"


SHAPE = '<g stroke="currentColor"'  # a drawn formula's body, after its <defs>


def _shared_shapes(svgs: list[str]) -> tuple[list[str], str]:
    """A formula drawn more than once on a page is defined once, beside the shared glyphs,
    and each occurrence refers to it (its own size, position and MathML stay with it): the
    same TeX repeats hundreds of times on the handbook. Returns the formulas and the
    definitions."""

    def body_of(svg: str) -> tuple[int, int]:
        drawing = svg.split("<mjx-assistive-mml", 1)[0]
        return drawing.find(SHAPE), drawing.rfind("</svg>")

    bodies = [
        svg[i:j] if 0 <= i < j else None
        for svg, (i, j) in zip(svgs, map(body_of, svgs), strict=True)
    ]
    repeated = [b for b, n in Counter(bodies).items() if b and n > 1]
    ids = {body: k for k, body in enumerate(repeated)}  # in page order: byte-identical builds
    out = []
    for svg, body in zip(svgs, bodies, strict=True):
        if body in ids:
            i, j = body_of(svg)
            svg = f'{svg[:i]}<use href="#MJX-F{ids[body]}"></use>{svg[j:]}'
        out.append(svg)
    shapes = "".join(f'<g id="MJX-F{k}">{body}</g>' for body, k in ids.items())
    return out, shapes


class PageMath:
    """Draws the formulas of built pages through MathJax, cached per page."""

    def __init__(self, mathjax: MathJax, cache: Cache, root: Path):
        self.mathjax, self.cache, self.root = mathjax, cache, root
        self.version = mathjax.version()  # with tex2svg.cjs, what every drawing depends on
        self._drawn: dict[tuple[str, bool], str] = {}  # across the languages of one process

    def css(self) -> bytes:
        """The style sheet drawn formulas need, cached like them (no Node start on a warm build)."""
        key = digest([SCRIPT], self.root, salt=self.version)
        return self.cache.fetch(STYLE, key, lambda: self.mathjax.css().encode()).read_bytes()

    def prune(self, pages: list[str]) -> None:
        """Drop cached drawings of pages (cache names) the site no longer has."""
        self.cache.prune([STYLE, *pages])

    def _draw(self, formulas: list[tuple[str, bool]], where: str) -> bytes:
        drawn = []
        for tex, display in formulas:
            if (tex, display) not in self._drawn:
                try:
                    self._drawn[tex, display] = self.mathjax.draw(tex, display)
                except ValueError as err:
                    raise BuildError(f"{where}: TeX error in {tex!r}: {err}") from None
            drawn.append(self._drawn[tex, display])
        return json.dumps(drawn, ensure_ascii=False).encode()

    def typeset(self, page: str, name: str) -> str:
        """`page` with every formula drawn; `name` (the page's path) names its cache entry."""
        found = find(page)
        if not found:
            return page
        formulas = [(tex, display) for _, _, tex, display in found]
        key = digest([SCRIPT], self.root, salt=json.dumps([self.version, formulas]))
        entry = self.cache.fetch(name, key, lambda: self._draw(formulas, name))
        drawn = json.loads(entry.read_text(encoding="utf-8"))
        glyphs: dict[str, str] = {}

        def shared_glyphs(defs: re.Match) -> str:
            for glyph in GLYPH.finditer(defs[1]):
                glyphs.setdefault(glyph[1], glyph[2])
            return ""

        svgs = [GLYPH_REF.sub('href="#MJX-', DEFS.sub(shared_glyphs, svg)) for svg in drawn]
        svgs, shapes = _shared_shapes(svgs)
        pieces, last = [], 0
        for (start, end, _, _), svg in zip(found, svgs, strict=True):
            pieces += [page[last:start], svg]
            last = end
        pieces.append(page[last:])
        out = "".join(pieces)
        paths = "".join(f'<path id="MJX-{i}" d="{d}"></path>' for i, d in sorted(glyphs.items()))
        paths += shapes
        out = FORMULA_THEN_PUNCTUATION.sub(NO_BREAK, out)
        head, body_end, tail = out.rpartition("</body>")
        if not body_end:
            raise ValueError(f"{name}: no </body> to put the formulas' glyphs before")
        return head + GLOBAL_DEFS.format(paths) + body_end + tail
