"""Lab notebooks (jupytext percent-format `.py` files executed at build time): what a notebook
page is made from, its cache name, and the text alternatives of the images its cells draw.

The engine's adapter (lockstep/mkdocs/jupyter.py) runs and renders them.
"""

from __future__ import annotations

import bisect
import html as html_lib
import re
from pathlib import Path

from lockstep import deps
from lockstep.cache import digest
from lockstep.errors import BuildError

# Text alternatives (1.1.1): nbconvert gives an image without one this English placeholder;
# the cell that draws the image says what it shows, in the page's language: `# %% alt="..."`.
CELL = re.compile(r'<div class="jp-Cell [^"]*" id="cell-id=[^"]*">')
NO_ALT = 'alt="No description has been provided for this image"'


def cache_name(path: Path, tree: Path, lang: str) -> str:
    """The cache name of a notebook: its path in its language tree, and the language."""
    return f"{path.relative_to(tree).as_posix()}.{lang}"


def page_key(path: Path, root: Path, salt: str = "") -> str:
    """The digest of what a notebook's page is made from: its own text (cells and their
    comments are on the page) and what the project modules it imports do."""
    imports = deps.inputs(deps.imported_names(path, path.stem), root)
    return digest([path], root, salt=salt + digest(imports, root, code=True))


def with_alt_text(html: str, alts: list[str | None], where: str) -> str:
    """Each image drawn by a cell gets that cell's `alt` metadata as its text alternative."""
    starts = [m.start() for m in CELL.finditer(html)]
    if len(starts) != len(alts):
        raise BuildError(f"{where}: {len(starts)} cells on the page, {len(alts)} in the notebook")
    # A cell that gives alt text must draw an image: else the figure silently went missing.
    bounds = [*starts, len(html)]
    for i, text in enumerate(alts):
        if text and "<img" not in html[bounds[i] : bounds[i + 1]]:
            raise BuildError(f"{where}: cell {i + 1} has alt text but drew no image")

    def alt(m: re.Match) -> str:
        cell = bisect.bisect_right(starts, m.start()) - 1
        if cell < 0 or not alts[cell]:
            raise BuildError(
                f'{where}: cell {cell + 1} draws an image without alt text: write `# %% alt="…"`'
            )
        return f'alt="{html_lib.escape(alts[cell])}"'

    return re.sub(re.escape(NO_ALT), alt, html)


def cell_alts(path: Path) -> list[str | None]:
    """The `alt` metadata of every cell of a jupytext notebook, in order."""
    import jupytext

    return [cell.metadata.get("alt") for cell in jupytext.read(path).cells]
