"""Histogram of the sum of four dice."""

from collections import Counter

from matplotlib.figure import Figure

from dice.rolls import sampled_sums

LABELS = {"en": {"x": "sum of four dice", "y": "throws"}, "zh": {"x": "四个骰子之和", "y": "次数"}}


def data() -> dict[int, int]:
    """How often each sum came up."""
    return dict(sorted(Counter(sampled_sums(4)).items()))


def draw(lang: str) -> Figure:
    """Bars of the counts."""
    counts = data()
    fig = Figure(figsize=(5, 2.5), layout="constrained")
    ax = fig.subplots()
    ax.bar(list(counts), list(counts.values()))
    ax.set_xlabel(LABELS[lang]["x"])
    ax.set_ylabel(LABELS[lang]["y"])
    return fig
