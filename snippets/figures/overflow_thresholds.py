"""The largest x for which exp(x) is still finite, per floating-point type."""

import math

from matplotlib.figure import Figure

from snippets.figures.style import new_figure
from snippets.overflow import overflow_rows

LABELS = {
    "zh": {
        "title": "exp(x) 在各浮点类型中溢出的位置",
        "x": "x（对数坐标）：x 超过 ln(max) 时 exp(x) = inf",
        "value": "ln(max) = {t:.2f}",
    },
    "en": {
        "title": "Where exp(x) overflows, per floating-point type",
        "x": "x (log scale): exp(x) = inf once x > ln(max)",
        "value": "ln(max) = {t:.2f}",
    },
}


def data() -> dict[str, float]:
    """dtype name -> ln(finfo.max), the exp overflow threshold, from torch.finfo."""
    return {name: t for name, _, t, *_ in overflow_rows()}


def draw(lang: str) -> Figure:
    """Horizontal bars on a log axis, one per dtype, each labelled with its threshold."""
    labels = LABELS[lang]
    thresholds = data()
    fig = new_figure(height=2.8)
    ax = fig.subplots()
    names = list(thresholds)[::-1]  # float16 on top
    values = [thresholds[n] for n in names]
    ax.barh(names, values, color="#3f51b5", height=0.55)
    for y, t in enumerate(values):
        ax.text(t * 1.08, y, labels["value"].format(t=t), va="center")
    ax.set_xscale("log")
    ax.set_xlim(1, 10 ** math.ceil(math.log10(max(values)) + 0.6))
    ax.set_xlabel(labels["x"])
    ax.set_title(labels["title"])
    ax.grid(axis="y", visible=False)
    return fig
