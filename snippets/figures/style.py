"""Shared matplotlib setup: CJK font, text as paths, deterministic SVG."""

import functools
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure


@functools.cache
def _cjk_font_name() -> str:
    """Register Noto Sans CJK (shipped on PyPI) and return its family name."""
    import noto_cjk_sans_otc

    path = Path(noto_cjk_sans_otc.__file__).parent / "NotoSansCJK-Regular.ttc"
    font_manager.fontManager.addfont(str(path))
    # The .ttc holds every regional face; SC has the Simplified Chinese glyph forms.
    return "Noto Sans CJK SC"


def setup() -> None:
    """Apply the site's figure style; safe to call many times."""
    plt.rcParams.update(
        {
            # Latin text in DejaVu Sans, Chinese falls back to Noto Sans CJK.
            "font.family": ["DejaVu Sans", _cjk_font_name()],
            "svg.fonttype": "path",  # readers need no font
            "svg.hashsalt": "attention-verified",  # stable element ids
            "axes.unicode_minus": False,
            "figure.dpi": 100,
            "axes.grid": True,
            "grid.alpha": 0.3,
        }
    )


def new_figure(width: float = 8.0, height: float = 3.2) -> Figure:
    """A fresh figure not registered with pyplot's global state."""
    return Figure(figsize=(width, height), layout="constrained")


def close(fig: Figure) -> None:
    """Release a figure's memory."""
    fig.clear()


def log2_axes(xlabel: str, ylabel: str) -> tuple[Figure, Axes]:
    """A figure with one axes whose x axis (a size: d_k or N) is on a base-2 log scale."""
    fig = new_figure(7.0, 3.4)
    ax = fig.subplots()
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return fig, ax
