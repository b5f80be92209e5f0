"""Distribution of q·k for several d_k, unscaled and divided by √d_k."""

import math

import numpy as np
from matplotlib.figure import Figure

from snippets import variance
from snippets.figures.style import SERIES, new_figure

D_KS = (8, 64, 512)

LABELS = {
    "zh": {
        "raw": "未缩放：q·k",
        "scaled": "缩放后：q·k / √dₖ",
        "x": "取值",
        "y": "概率密度",
    },
    "en": {
        "raw": "unscaled: q·k",
        "scaled": "scaled: q·k / √dₖ",
        "x": "value",
        "y": "density",
    },
}


def data() -> dict[int, dict[str, np.ndarray]]:
    """Samples of q·k and q·k/√d_k for each d_k in D_KS."""
    out = {}
    for d_k in D_KS:
        s = variance.dot_products(d_k).numpy()
        out[d_k] = {"raw": s, "scaled": s / math.sqrt(d_k)}
    return out


def draw(lang: str) -> Figure:
    """Two panels of histograms: unscaled spreads out with d_k, scaled does not."""
    labels = LABELS[lang]
    fig = new_figure()
    ax_raw, ax_scaled = fig.subplots(1, 2)
    for (d_k, samples), look in zip(data().items(), SERIES[: len(D_KS)], strict=True):
        for ax, key, bins in (
            (ax_raw, "raw", np.linspace(-80, 80, 161)),
            (ax_scaled, "scaled", np.linspace(-5, 5, 101)),
        ):
            ax.hist(
                samples[key],
                bins=bins,
                density=True,
                histtype="step",
                linewidth=1.5,
                label=f"dₖ = {d_k}",
                **look,  # a histogram takes only its colour from the cycle: the style too
            )
    for ax, key in ((ax_raw, "raw"), (ax_scaled, "scaled")):
        ax.set_title(labels[key])
        ax.set_xlabel(labels["x"])
        ax.set_ylabel(labels["y"])
        ax.legend()
    return fig
