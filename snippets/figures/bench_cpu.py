"""Wall time relative to SDPA on CPU, from the committed benchmark results."""

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from snippets.figures import bench_results
from snippets.figures.style import REFERENCE, SERIES, new_figure

LABELS = {
    "zh": {
        "y": "相对 SDPA 的耗时（对数坐标）",
        "reference": "参考实现",
        "tiled": "分块（默认调用）",
        "sdpa": "SDPA = 1",
        "head": "{h} 个头",
        "heads": "{h} 个头",
    },
    "en": {
        "y": "time relative to SDPA (log scale)",
        "reference": "reference",
        "tiled": "tiled (default call)",
        "sdpa": "SDPA = 1",
        "head": "{h} head",
        "heads": "{h} heads",
    },
}


def data() -> list[dict]:
    """The measured rows of bench/results/cpu.json."""
    results = bench_results.load("cpu")
    if results is None:
        raise FileNotFoundError("bench/results/cpu.json is missing: run `make bench`")
    return bench_results.cpu_rows(results)


def draw(lang: str) -> Figure:
    """Grouped bars per (N, heads): reference and tiled time divided by SDPA's."""
    labels, rows = LABELS[lang], data()
    fig = new_figure(8.0, 3.4)
    ax = fig.subplots()
    x = np.arange(len(rows))
    # Bars take only a colour from the cycle: the second series is hatched as well.
    reference = [r["reference_ratio"] for r in rows]
    tiled = [r["tiled_ratio"] for r in rows]
    ax.bar(x - 0.2, reference, 0.4, color=SERIES[0]["color"], label=labels["reference"])
    ax.bar(x + 0.2, tiled, 0.4, color="white", edgecolor=SERIES[1]["color"], hatch="///",
           label=labels["tiled"])  # fmt: skip
    ax.axhline(1.0, color=REFERENCE, linestyle=":", label=labels["sdpa"])
    ax.set_yscale("log", base=2)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
    heads = [labels["head" if r["heads"] == 1 else "heads"].format(h=r["heads"]) for r in rows]
    ax.set_xticks(x, [f"N={r['N']}\n{h}" for r, h in zip(rows, heads, strict=True)])
    ax.set_ylabel(labels["y"])
    ax.set_ylim(top=max(r["reference_ratio"] for r in rows) * 2)  # head room for the legend
    ax.legend(loc="upper left", ncols=3)
    return fig
