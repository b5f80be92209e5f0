"""Figures drawn at build time: one module per figure, each with data() and draw(lang)."""

import importlib
import io
from types import ModuleType

LANGS = ("zh", "en")

# name -> module; the name is the file stem under assets/figures/ (name.zh.svg, name.en.svg).
FIGURES = {
    "bench_cpu": "snippets.figures.bench_cpu",
    "qk_distribution": "snippets.figures.qk_distribution",
    "training_curves": "snippets.figures.training_curves",
    "softmax_sharpness": "snippets.figures.softmax_sharpness",
    "jacobian_norm": "snippets.figures.jacobian_norm",
    "max_logit": "snippets.figures.max_logit",
    "attention_entropy": "snippets.figures.attention_entropy",
    "overflow_thresholds": "snippets.figures.overflow_thresholds",
    "softcap": "snippets.figures.softcap",
}


def figure_module(name: str) -> ModuleType:
    """Import the module that draws figure `name`."""
    if name not in FIGURES:
        raise KeyError(f"unknown figure {name!r}; known: {', '.join(sorted(FIGURES))}")
    return importlib.import_module(FIGURES[name])


def render_svg(name: str, lang: str) -> bytes:
    """Draw figure `name` with labels in `lang` and return deterministic SVG bytes."""
    from snippets.figures import style

    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    style.setup()
    fig = figure_module(name).draw(lang)
    buf = io.BytesIO()
    # No date and a fixed hash salt: the same inputs give byte-identical files.
    fig.savefig(buf, format="svg", metadata={"Date": None})
    style.close(fig)
    return buf.getvalue()
