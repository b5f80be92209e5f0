"""The benchmarks page's table of build times and edit-to-preview latency, with the targets
checked, from the committed bench/results/site.json (bench/site.py)."""

from collections.abc import Callable

from bench.report import load
from bench.site import TARGETS
from lockstep.tables import markdown_table

HEADERS = {
    "zh": (
        "每种语言的卡片数",
        "冷构建",
        "热构建",
        "卡片的文档测试",
        "改卡片正文",
        "改图的模块",
        "改被引用的代码片段",
    ),
    "en": (
        "cards per language",
        "cold build",
        "warm build",
        "cards' docs tests",
        "prose edit",
        "figure module edit",
        "included snippet edit",
    ),
}
COLUMNS = (
    "cold_build_s",
    "warm_build_s",
    "cards_tests_s",
    "prose_edit_s",
    "figure_edit_s",
    "snippet_edit_s",
)
SECONDS = {"zh": "{:.1f} 秒", "en": "{:.1f} s"}
MEASURED_ON = {
    "zh": "测量于 {date}，{cores} 核 CPU，Python {python}；每项运行一次。",
    "en": "Measured on {date}, {cores} CPU cores, Python {python}; one run each.",
}
MISSING = {
    "zh": "尚无测量结果：运行 `make bench-site`（`python -m bench.site`）生成 "
    "`bench/results/site.json`。",
    "en": "No measurements yet: run `make bench-site` (`python -m bench.site`) to produce "
    "`bench/results/site.json`.",
}
WHAT = {
    "zh": {"prose_edit_s": "改一处卡片正文", "snippet_edit_s": "改被引用的代码片段"},
    "en": {"prose_edit_s": "Prose edit", "snippet_edit_s": "Included snippet edit"},
}
TARGET_LINE = {
    "zh": "- 每种语言 {n} 张卡片时，{what}（目标 ≤ {t:g} 秒）：{got:.1f} 秒，{verdict}。",
    "en": "- {what} at {n} cards per language (target ≤ {t:g} s): {got:.1f} s, {verdict}.",
}
VERDICT = {"zh": ("达标", "未达标"), "en": ("met", "missed")}
GROWTH = {
    "zh": "- 热构建：卡片从 {n0} 张增加到 {n1} 张（{cards:.1f} 倍），用时变为 {times:.1f} 倍，"
    "{verdict}。",
    "en": "- Warm build: from {n0} to {n1} cards ({cards:.1f}×) it took {times:.1f}× as long, "
    "{verdict}.",
}
GROWTH_VERDICT = {
    "zh": ("增长不快于线性", "增长快于线性"),
    "en": ("no faster than linear", "faster than linear"),
}


def site_bench_table(lang: str) -> str:
    """Build and edit times per deck size, as measured, and where they were measured."""
    results = load("site")
    if results is None:
        return MISSING[lang]
    rows = [
        [r["cards_per_language"], *(SECONDS[lang].format(r[c]) for c in COLUMNS)]
        for r in results["results"]
    ]
    machine = results["machine"]
    note = MEASURED_ON[lang].format(
        date=results["date"][:10], cores=machine["cpus"], python=machine["python"]
    )
    return markdown_table(HEADERS[lang], rows, align="r" * len(HEADERS[lang])) + "\n\n" + note


def site_bench_targets(lang: str) -> str:
    """Each target against the measurement at its deck size, and how the warm build grows."""
    results = load("site")
    if results is None:
        return MISSING[lang]
    by_size = {r["cards_per_language"]: r for r in results["results"]}
    lines = []
    for column, targets in TARGETS.items():
        for n, target in targets.items():
            if n in by_size:
                got = by_size[n][column]
                verdict = VERDICT[lang][got > target]
                what = WHAT[lang][column]
                lines.append(
                    TARGET_LINE[lang].format(n=n, what=what, t=target, got=got, verdict=verdict)
                )
    n0, n1 = min(by_size), max(by_size)
    cards, times = n1 / n0, by_size[n1]["warm_build_s"] / by_size[n0]["warm_build_s"]
    verdict = GROWTH_VERDICT[lang][times > cards]
    lines.append(GROWTH[lang].format(n0=n0, n1=n1, cards=cards, times=times, verdict=verdict))
    return "\n".join(lines)


VALUES: dict[str, Callable[[str], str]] = {
    "site_bench_table": site_bench_table,
    "site_bench_targets": site_bench_targets,
}
