"""Held-out accuracy while training, for each d_k, logit scale and learning rate (cached runs)."""

import numpy as np
from matplotlib.figure import Figure

from snippets import training
from snippets.figures.style import REFERENCE, SERIES, new_figure

LABELS = {
    "zh": {
        "sqrt": "除以 √dₖ",
        "none": "不缩放",
        "d": "除以 dₖ",
        "x": "训练步数",
        "y": "留出集准确率",
        "lr": "学习率",
        "sep": "，",
    },
    "en": {
        "sqrt": "divide by √dₖ",
        "none": "unscaled",
        "d": "divide by dₖ",
        "x": "training step",
        "y": "held-out accuracy",
        "lr": "learning rate",
        "sep": ", ",
    },
}


def data() -> dict[tuple[int, str], dict[float, dict[str, np.ndarray]]]:
    """(d_k, scale) -> lr -> {"step", "accuracy"}: accuracy averaged over the seeds."""
    runs = training.load()["runs"]
    cfg = training.CONFIG
    out = {}
    for d_k in cfg.d_ks:
        for scale in cfg.scales:
            out[d_k, scale] = {}
            for lr in cfg.lrs:
                same = training.select(runs, d_k=d_k, scale=scale, lr=lr)
                out[d_k, scale][lr] = {
                    "step": np.array(same[0]["step"]),
                    "accuracy": np.mean([r["accuracy"] for r in same], axis=0),
                }
    return out


def draw(lang: str) -> Figure:
    """A grid: one row per d_k, one column per scale, one line per learning rate."""
    labels, cfg = LABELS[lang], training.CONFIG
    fig = new_figure(width=8.0, height=4.6)
    axes = fig.subplots(len(cfg.d_ks), len(cfg.scales), sharex=True, sharey=True, squeeze=False)
    for (d_k, scale), by_lr in data().items():
        ax = axes[cfg.d_ks.index(d_k), cfg.scales.index(scale)]
        for look, (lr, curve) in zip(SERIES[: len(by_lr)], by_lr.items(), strict=True):
            ax.plot(curve["step"], curve["accuracy"], linewidth=1.5, label=f"{lr:g}", **look)
        ax.axhline(training.THRESHOLD, color=REFERENCE, linewidth=0.8, linestyle=(0, (1, 3)))
        ax.set_title(f"{labels[scale]}{labels['sep']}dₖ = {d_k}", fontsize=10)
        ax.set_ylim(0, 1.02)
    for ax in axes[-1]:
        ax.set_xlabel(labels["x"])
    for ax in axes[:, 0]:
        ax.set_ylabel(labels["y"])
    handles, names = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, names, title=labels["lr"], loc="outside right center", fontsize=8)
    return fig
