"""Largest attention weight vs d_k, unscaled and divided by √d_k (measured)."""

import functools

from matplotlib.figure import Figure

from snippets import saturation
from snippets.figures.style import REFERENCE, log2_axes

D_KS = (4, 8, 16, 32, 64, 128, 256, 512, 1024)
N_KEYS = 16

LABELS = {
    "zh": {
        "x": "dₖ（对数坐标）",
        "y": "最大注意力权重的均值",
        "raw": "未缩放",
        "scaled": "除以 √dₖ",
        "uniform": "均匀分布 1/16",
    },
    "en": {
        "x": "dₖ (log scale)",
        "y": "mean largest attention weight",
        "raw": "unscaled",
        "scaled": "divided by √dₖ",
        "uniform": "uniform 1/16",
    },
}


@functools.cache
def data() -> dict[str, list[float]]:
    """Measured mean max_j p_j over random rows of 16 keys, for every d_k in D_KS."""
    return saturation.sweep(D_KS, n_keys=N_KEYS)


def draw(lang: str) -> Figure:
    """Unscaled weights approach one-hot as d_k grows; scaled ones stay put."""
    labels, d = LABELS[lang], data()
    fig, ax = log2_axes(labels["x"], labels["y"])
    ax.plot(D_KS, d["max_p_raw"], "o-", label=labels["raw"])
    ax.plot(D_KS, d["max_p_scaled"], "s-", label=labels["scaled"])
    ax.axhline(1 / N_KEYS, color=REFERENCE, linestyle=":", label=labels["uniform"])
    ax.set_ylim(0, 1.02)
    ax.legend()
    return fig
