"""Spectral norm of the softmax Jacobian vs d_k, unscaled and divided by √d_k (measured)."""

from matplotlib.figure import Figure

from snippets.figures import softmax_sharpness
from snippets.figures.style import REFERENCE, log2_axes

D_KS = softmax_sharpness.D_KS

LABELS = {
    "zh": {
        "x": "dₖ（对数坐标）",
        "y": "‖J‖₂ 的均值",
        "raw": "未缩放",
        "scaled": "除以 √dₖ",
        "bound": "上界 1/2",
    },
    "en": {
        "x": "dₖ (log scale)",
        "y": "mean ‖J‖₂",
        "raw": "unscaled",
        "scaled": "divided by √dₖ",
        "bound": "bound 1/2",
    },
}


def data() -> dict[str, list[float]]:
    """The same measured rows as the sharpness figure: mean ‖diag(p) − p pᵀ‖₂ per d_k."""
    d = softmax_sharpness.data()
    return {"raw": d["jac_raw"], "scaled": d["jac_scaled"]}


def draw(lang: str) -> Figure:
    """The Jacobian, which carries every gradient into the logits, shrinks without the scale."""
    labels, d = LABELS[lang], data()
    fig, ax = log2_axes(labels["x"], labels["y"])
    ax.plot(D_KS, d["raw"], "o-", label=labels["raw"])
    ax.plot(D_KS, d["scaled"], "s-", label=labels["scaled"])
    ax.axhline(0.5, color=REFERENCE, linestyle=":", label=labels["bound"])
    ax.set_ylim(0, 0.55)
    ax.legend()
    return fig
