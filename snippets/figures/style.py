"""The look the site's figures share. (Fonts and deterministic SVG are the build's business.)"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from snippets.figures.palette import COLORS, LINESTYLES, REFERENCE, SERIES

__all__ = ["REFERENCE", "SERIES", "log2_axes", "new_figure"]

RC = {
    "axes.unicode_minus": False,
    "figure.dpi": 100,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.prop_cycle": cycler(color=COLORS, linestyle=LINESTYLES),
}


def new_figure(width: float = 8.0, height: float = 3.2) -> Figure:
    """A fresh figure in the site's style, not registered with pyplot's global state."""
    plt.rcParams.update(RC)
    return Figure(figsize=(width, height), layout="constrained")


def log2_axes(xlabel: str, ylabel: str) -> tuple[Figure, Axes]:
    """A figure with one axes whose x axis (a size: d_k or N) is on a base-2 log scale."""
    fig = new_figure(7.0, 3.4)
    ax = fig.subplots()
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return fig, ax
