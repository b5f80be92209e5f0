"""Logit soft-capping cap·tanh(x/cap) and its gradient, for the caps of Gemma 2 and Grok-1."""

import numpy as np
import torch
from matplotlib.figure import Figure

from snippets.figures.style import REFERENCE, SERIES, new_figure
from snippets.softcap import softcap, softcap_grad

CAPS = (30.0, 50.0)
X_MAX = 200.0

LABELS = {
    "zh": {
        "curve": "cap·tanh(x/cap)",
        "grad": "梯度 1 − tanh²(x/cap)",
        "identity": "不封顶：y = x",
        "x": "原始 logit x",
        "y": "封顶后的 logit",
        "dy": "导数",
        "cap": "cap = {cap:g}",
    },
    "en": {
        "curve": "cap·tanh(x/cap)",
        "grad": "gradient 1 − tanh²(x/cap)",
        "identity": "no cap: y = x",
        "x": "raw logit x",
        "y": "capped logit",
        "dy": "derivative",
        "cap": "cap = {cap:g}",
    },
}


def data() -> dict[str, np.ndarray | dict[float, dict[str, np.ndarray]]]:
    """x on [-X_MAX, X_MAX] and, per cap, the capped value and its gradient."""
    x = torch.linspace(-X_MAX, X_MAX, 801, dtype=torch.float64)
    curves = {
        cap: {"y": softcap(x, cap).numpy(), "grad": softcap_grad(x, cap).numpy()} for cap in CAPS
    }
    return {"x": x.numpy(), "caps": curves}


def draw(lang: str) -> Figure:
    """Left: the capped logit against the raw one; right: the gradient that reaches x."""
    labels = LABELS[lang]
    d = data()
    x = d["x"]
    fig = new_figure()
    ax_y, ax_g = fig.subplots(1, 2)
    ax_y.plot(x, x, color=REFERENCE, linestyle=":", label=labels["identity"])
    for (cap, curve), look in zip(d["caps"].items(), SERIES[: len(CAPS)], strict=True):
        label = labels["cap"].format(cap=cap)
        ax_y.plot(x, curve["y"], linewidth=1.8, label=label, **look)
        for sign in (1, -1):  # the asymptotes ±cap, thin and in the curve's colour
            ax_y.axhline(sign * cap, color=look["color"], linestyle=(0, (1, 3)), linewidth=0.8)
        ax_g.plot(x, curve["grad"], linewidth=1.8, label=label, **look)
    ax_y.set_ylim(-1.3 * max(CAPS), 1.3 * max(CAPS))
    ax_y.set_title(labels["curve"])
    ax_y.set_xlabel(labels["x"])
    ax_y.set_ylabel(labels["y"])
    ax_y.legend(loc="upper left")
    ax_g.set_title(labels["grad"])
    ax_g.set_xlabel(labels["x"])
    ax_g.set_ylabel(labels["dy"])
    ax_g.legend(loc="upper right")
    return fig
