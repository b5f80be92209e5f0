"""The benchmarks page's table of a reader's first visit, before and after, with each page
against its budget, from the committed bench/results/pages.json and pages-mathjax.json
(bench/pages.py)."""

from collections.abc import Callable

from bench.pages import BUDGET, DECK_PAGES, budget
from bench.report import load
from lockstep.tables import markdown_table

HEADERS = {
    "zh": ("", "之前，中位数", "之前，最重的页面", "之后，中位数", "之后，最重的页面"),
    "en": ("", "before, median", "before, heaviest", "after, median", "after, heaviest"),
}
ROWS = {
    "zh": {"bytes_gzip": "首次访问（gzip）", "math_ms": "公式显示所需时间"},
    "en": {"bytes_gzip": "first visit, gzip", "math_ms": "time to math"},
}
UNITS = {"bytes_gzip": "{:,} B", "math_ms": "{:,} ms"}
MEASURED_ON = {
    "zh": "之前测量于 {before}，之后测量于 {after}；{cpus} 个 CPU，Chromium，页面由 127.0.0.1 "
    "本地提供，不限速；共 {pages} 个页面。",
    "en": "Before measured on {before}, after on {after}, {cpus} CPUs, Chromium, served from "
    "127.0.0.1 without throttling; {pages} pages.",
}
BUDGETS = {
    "zh": "预算：每个页面首次访问不超过 {page:,} B（gzip），承载整副卡片的打印版手册和练习模式"
    "不超过 {deck:,} B。之后的测量中超出预算的页面：{over}。",
    "en": "Budgets: at most {page:,} B gzip on a first visit to a page, {deck:,} B for the "
    "printable handbook and practice mode, which carry the whole deck. Pages over their budget "
    "in the after measurement: {over}.",
}
NONE = {"zh": "没有", "en": "none"}
MISSING = {
    "zh": "尚无测量结果：运行 `make bench-pages` 生成 `bench/results/pages.json`。",
    "en": "No measurements yet: run `make bench-pages` to produce `bench/results/pages.json`.",
}
WHERE = {"zh": "{value}（`{page}`）", "en": "{value} (`{page}`)"}


def _cells(results: dict, key: str, lang: str) -> list[str]:
    """Median and heaviest page of one measure."""
    rows = results["results"]
    median = results["summary"][f"{key}_median"]
    heaviest = max(rows, key=lambda r: r[key])
    unit = UNITS[key]
    where = WHERE[lang].format(value=unit.format(heaviest[key]), page=heaviest["page"] or "/")
    return [unit.format(median), where]


def pages_bench_table(lang: str) -> str:
    """First-visit bytes and time to math, before and after, and the pages over budget."""
    before, after = load("pages-mathjax"), load("pages")
    if before is None or after is None:
        return MISSING[lang]
    rows = [[ROWS[lang][k], *_cells(before, k, lang), *_cells(after, k, lang)] for k in ROWS[lang]]
    over = [
        f"`{r['page'] or '/'}`" for r in after["results"] if r["bytes_gzip"] > budget(r["page"])
    ]
    note = MEASURED_ON[lang].format(
        before=before["date"][:10],
        after=after["date"][:10],
        cpus=after["machine"]["cpus"],
        pages=after["summary"]["pages"],
    )
    limits = BUDGETS[lang].format(
        page=BUDGET,
        deck=max(DECK_PAGES.values()),
        over=("、" if lang == "zh" else ", ").join(over) or NONE[lang],
    )
    table = markdown_table(HEADERS[lang], rows, align="lrrrr")
    return f"{table}\n\n{note}\n\n{limits}"


VALUES: dict[str, Callable[[str], str]] = {"pages_bench_table": pages_bench_table}
