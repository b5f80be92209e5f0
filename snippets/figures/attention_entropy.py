"""Entropy of softmax over N standard normal logits vs ln N (measured)."""

from matplotlib.figure import Figure

from snippets.figures import max_logit
from snippets.figures.style import REFERENCE, log2_axes

LABELS = {
    "zh": {
        "x": "键的个数 N（对数坐标）",
        "y": "熵（奈特）",
        "h": "实测注意力熵",
        "lnN": "ln N（均匀分布）",
        "shift": "ln N − 1/2",
    },
    "en": {
        "x": "number of keys N (log scale)",
        "y": "entropy (nats)",
        "h": "measured attention entropy",
        "lnN": "ln N (uniform)",
        "shift": "ln N − 1/2",
    },
}


def data() -> dict[str, list[float]]:
    """The rows of the max-logit figure: entropy per N with ln N and ln N − 1/2."""
    d = max_logit.data()
    return {k: d[k] for k in ("N", "entropy", "lnN", "lnN_minus_half")}


def draw(lang: str) -> Figure:
    """The weights spread over more keys as N grows: entropy tracks ln N − 1/2."""
    labels, d = LABELS[lang], data()
    fig, ax = log2_axes(labels["x"], labels["y"])
    ax.plot(d["N"], d["lnN"], ":", color=REFERENCE, label=labels["lnN"])
    ax.plot(d["N"], d["lnN_minus_half"], "--", label=labels["shift"])
    ax.plot(d["N"], d["entropy"], "o", label=labels["h"])
    ax.legend()
    return fig
