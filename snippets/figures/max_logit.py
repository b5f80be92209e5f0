"""The largest of N standard normal logits vs √(2 ln N) (measured)."""

import functools

from matplotlib.figure import Figure

from snippets import long_context
from snippets.figures.style import log2_axes

NS = tuple(2**e for e in range(2, 17, 2))  # 4 … 65536

LABELS = {
    "zh": {
        "x": "键的个数 N（对数坐标）",
        "y": "logit",
        "max": "实测 max sⱼ 的均值",
        "asym": "√(2 ln N)",
        "title": "缩放后的 logit：sⱼ ~ N(0, 1)",
    },
    "en": {
        "x": "number of keys N (log scale)",
        "y": "logit",
        "max": "measured mean of max sⱼ",
        "asym": "√(2 ln N)",
        "title": "scaled logits: sⱼ ~ N(0, 1)",
    },
}


@functools.cache
def data() -> dict[str, list[float]]:
    """Measured max and entropy for every N in NS, with their asymptotes."""
    return long_context.sweep(NS)


def draw(lang: str) -> Figure:
    """The maximum keeps growing with N, slowly, and stays below √(2 ln N)."""
    labels, d = LABELS[lang], data()
    fig, ax = log2_axes(labels["x"], labels["y"])
    ax.plot(d["N"], d["max"], "o-", label=labels["max"])
    ax.plot(d["N"], d["sqrt_2lnN"], "--", label=labels["asym"])
    ax.set_title(labels["title"])
    ax.legend()
    return fig
