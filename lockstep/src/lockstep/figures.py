"""Figures drawn at build time: every module of the site's figures package with `draw(lang)`.

A figure module holds `LABELS = {lang: {...}}`, `data()` (the numbers it plots, which unit
tests check) and `draw(lang) -> matplotlib.figure.Figure`. This module finds them, draws them
as deterministic SVG (text as paths, no date, fixed ids: byte-identical across builds, no
font needed by readers) and caches each (figure, language) under a digest of its inputs.
"""

from __future__ import annotations

import functools
import importlib
import io
import pkgutil
from pathlib import Path
from types import ModuleType

from lockstep import deps
from lockstep.cache import Cache, digest
from lockstep.errors import BuildError

# Settings that make output byte-identical and self-contained; the look is the site's own.
SVG_RC = {"svg.fonttype": "path", "svg.hashsalt": "lockstep", "svg.id": None}


def figure_names(package: str) -> list[str]:
    """Names of the figures in `package`: its modules that define draw(lang)."""
    pkg = importlib.import_module(package)
    names = []
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_") and _defines_draw(Path(pkg.__path__[0]), info.name):
            names.append(info.name)
    return sorted(names)


def _defines_draw(folder: Path, name: str) -> bool:
    source = (folder / f"{name}.py").read_text(encoding="utf-8")
    return "\ndef draw(" in source


def figure_module(package: str, name: str) -> ModuleType:
    """The module that draws figure `name`; an unknown name lists the known ones."""
    known = figure_names(package)
    if name not in known:
        raise KeyError(f"unknown figure {name!r}; known: {', '.join(known)}")
    return importlib.import_module(f"{package}.{name}")


@functools.cache
def cjk_font_family() -> str | None:
    """Register Noto Sans CJK (PyPI noto-cjk-sans-otc) with matplotlib; its family name."""
    try:
        import noto_cjk_sans_otc
    except ImportError:
        return None
    from matplotlib import font_manager

    path = Path(noto_cjk_sans_otc.__file__).parent / "NotoSansCJK-Regular.ttc"
    font_manager.fontManager.addfont(str(path))
    return "Noto Sans CJK SC"  # the .ttc holds every regional face; SC: Simplified Chinese


def render_svg(package: str, name: str, lang: str, cjk_needed: bool = False) -> bytes:
    """Draw figure `name` with labels in `lang`; deterministic SVG bytes. With `cjk_needed`
    (a language written in Chinese script) a missing CJK font is an error, not boxes."""
    try:
        import matplotlib
    except ImportError:
        raise BuildError(
            "the `figures` option needs matplotlib: pip install 'mkdocs-lockstep[figures]'"
        ) from None
    matplotlib.use("Agg")
    module = figure_module(package, name)
    if lang not in getattr(module, "LABELS", {}):
        raise BuildError(f"figure {name!r} has no labels for lang {lang!r}")
    cjk = cjk_font_family()
    if cjk_needed and cjk is None:
        raise BuildError(
            f"figure {name!r} in {lang}: its labels need a CJK font, or they are drawn as "
            "boxes: pip install 'mkdocs-lockstep[cjk]' (the noto-cjk-sans-otc font)"
        )
    families = ["DejaVu Sans", cjk] if cjk else ["DejaVu Sans"]  # Latin first, CJK fallback
    with matplotlib.rc_context({**SVG_RC, "font.family": families}):
        fig = module.draw(lang)
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    fig.clear()
    return buf.getvalue()


class Figures:
    """A site's figures, drawn through the build cache."""

    def __init__(self, package: str, root: Path, cache: Cache, cjk: tuple[str, ...] = ()):
        self.package, self.root, self.cache = package, root.resolve(), cache
        self.cjk = set(cjk)  # languages whose labels need a CJK font
        self.names = figure_names(package)

    def inputs(self, name: str) -> list[Path]:
        """The project files figure `name` is drawn from (this module included)."""
        return deps.inputs([f"{self.package}.{name}"], self.root, extra=[Path(__file__)])

    def svg(self, name: str, lang: str) -> Path:
        """The SVG of figure `name` in `lang`, drawn unless the cache has it for these inputs."""
        key = digest(self.inputs(name), self.root, salt=lang, code=True)
        draw = lambda: render_svg(self.package, name, lang, lang in self.cjk)  # noqa: E731
        return self.cache.fetch(f"{name}.{lang}", key, draw)

    def live_names(self, languages) -> list[str]:
        """Cache names of every figure in every language."""
        return [f"{name}.{lang}" for name in self.names for lang in languages]
