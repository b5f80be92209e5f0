"""The benchmarks page's tables of build times and edit-to-preview latency, with the targets
checked: from the committed bench/results/site.json (bench/site.py), and before, from the
results of 2026-12-01 (bench/results/site-2026-12-01.json), when every rebuild under
`make serve` also rewrote the pages that list every card."""

from collections.abc import Callable

from bench.report import load
from bench.site import BEFORE, GROWTH_ALLOWANCE, TARGETS, checked_row
from lockstep.tables import markdown_table

HEADERS = {
    "zh": (
        "每种语言的卡片数",
        "冷构建",
        "热构建",
        "卡片页面的文档测试",
        "改卡片正文",
        "正文修改在手册中显示",
        "改绘图模块",
        "改被包含的代码片段",
    ),
    "en": (
        "cards per language",
        "cold build",
        "warm build",
        "docs tests of the card pages",
        "prose edit",
        "handbook shows the prose edit",
        "figure module edit",
        "included snippet edit",
    ),
}
COLUMNS = (
    "cold_build_s",
    "warm_build_s",
    "cards_tests_s",
    "prose_edit_s",
    "prose_listings_s",
    "figure_edit_s",
    "snippet_edit_s",
)
SECONDS = {"zh": "{:.1f} 秒", "en": "{:.1f} s"}
MEASURED_ON = {
    "zh": "{date} 测量，{cpus} 个 CPU，Python {python}；{runs}",
    "en": "Measured on {date}, {cpus} CPUs, Python {python}; {runs}",
}
RUNS = {  # one run each before 2026-12-03; since then each edit three times
    "zh": ("每项运行一次。", "构建与测试各运行一次，每处修改做 {n} 次，取中位数。"),
    "en": ("one run each.", "builds and tests one run each, each edit made {n} times (median)."),
}
MISSING = {
    "zh": "尚无测量结果：运行 `make bench-site`（`python -m bench.site`）生成 "
    "`bench/results/site.json`。",
    "en": "No measurements yet: run `make bench-site` (`python -m bench.site`) to produce "
    "`bench/results/site.json`.",
}
WHAT = {
    "zh": {"prose_edit_s": "改卡片正文", "snippet_edit_s": "改被包含的代码片段"},
    "en": {"prose_edit_s": "Prose edit", "snippet_edit_s": "Included snippet edit"},
}
TARGET_LINE = {
    "zh": "- 每种语言 {n} 张卡片时{what}，从保存到网站显示出修改（目标 ≤ {t:g} 秒）：{got:.2f} 秒，"
    "{verdict}。",
    "en": "- {what} at {n} cards per language, from saving to seeing it (target ≤ {t:g} s): "
    "{got:.2f} s, {verdict}.",
}
VERDICT = {"zh": ("达标", "未达标"), "en": ("met", "missed")}
GROWTH = {
    "zh": "- 热构建：每种语言的卡片从 {n0} 张增至 {n1} 张时，每多一张，用时多 {first:.0f} 毫秒；"
    "从 {n2} 张增至 {n3} 张时，每多一张多 {last:.0f} 毫秒：{verdict}（由于每个规模只运行一次，"
    "后者不超过前者的 {k:g} 倍仍算线性）。",
    "en": "- Warm build: each card added per language cost {first:.0f} ms from {n0} to {n1} cards "
    "and {last:.0f} ms from {n2} to {n3}: {verdict} (up to {k:g}× the earlier cost still counts "
    "as linear, since each size was run once).",
}
GROWTH_VERDICT = {
    "zh": ("增长不快于线性", "增长快于线性"),
    "en": ("growing no faster than linearly", "growing faster than linearly"),
}


def site_bench_table(lang: str, name: str = "site") -> str:
    """Build and edit times per deck size, as measured, and where they were measured."""
    results = load(name)
    if results is None:
        return MISSING[lang]
    rows = [
        [r["cards_per_language"], *(SECONDS[lang].format(r[c]) if c in r else "–" for c in COLUMNS)]
        for r in results["results"]
    ]
    machine = results["machine"]
    repeats = len(results["results"][0].get("prose_edit_runs", [None]))
    runs = RUNS[lang][repeats > 1].format(n=repeats)
    note = MEASURED_ON[lang].format(
        date=results["date"][:10], cpus=machine["cpus"], python=machine["python"], runs=runs
    )
    return markdown_table(HEADERS[lang], rows, align="r" * len(HEADERS[lang])) + "\n\n" + note


def site_bench_targets(lang: str, name: str = "site") -> str:
    """Each target against the measurement at its deck size, and how the warm build grows
    (nothing when there are no results: the table says so)."""
    results = load(name)
    if results is None:
        return ""
    rows = results["results"]
    lines = []
    for column, targets in TARGETS.items():
        for n, target in targets.items():
            row = checked_row(rows, n)
            if row is not None and column in row:
                got, size = row[column], row["cards_per_language"]
                what, verdict = WHAT[lang][column], VERDICT[lang][got > target]
                lines.append(
                    TARGET_LINE[lang].format(n=size, what=what, t=target, got=got, verdict=verdict)
                )
    by_size = {r["cards_per_language"]: r for r in rows}
    sizes = sorted(n for n, r in by_size.items() if "warm_build_s" in r)
    if len(sizes) >= 3:
        first, last = (
            1000 * (by_size[b]["warm_build_s"] - by_size[a]["warm_build_s"]) / (b - a)
            for a, b in (sizes[:2], sizes[-2:])
        )
        verdict = GROWTH_VERDICT[lang][last > GROWTH_ALLOWANCE * first]
        n0, n1, n2, n3 = *sizes[:2], *sizes[-2:]
        lines.append(
            GROWTH[lang].format(
                n0=n0, n1=n1, n2=n2, n3=n3, first=first, last=last, verdict=verdict,
                k=GROWTH_ALLOWANCE,
            )
        )  # fmt: skip
    return "\n".join(lines)


VALUES: dict[str, Callable[[str], str]] = {
    "site_bench_table": site_bench_table,
    "site_bench_targets": site_bench_targets,
    "site_bench_before_table": lambda lang: site_bench_table(lang, BEFORE),
    "site_bench_before_targets": lambda lang: site_bench_targets(lang, BEFORE),
}
