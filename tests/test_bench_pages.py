"""bench.pages runs end to end on the built site (a quick run: three pages), the committed
results are of pages the site has, and every page's first visit stays within its budget
(bench.pages.budget): the quick run measures it in Chromium, and an estimate without a browser,
checked against those measurements here, covers every page. Times are not judged."""

from __future__ import annotations

import json
import subprocess
import sys

from bench.pages import QUICK, RESULTS, budget, estimate
from lockstep.browser import built_pages
from tests.browser_support import require_chromium
from tests.conftest import ROOT

require_chromium()


def test_quick_run_measures_bytes_and_time_to_math(built_site, tmp_path):
    out = tmp_path / "pages.json"
    cmd = [sys.executable, "-m", "bench.pages", str(built_site), "--quick", "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, timeout=300)
    report = json.loads(out.read_text(encoding="utf-8"))
    rows = {r["page"]: r for r in report["results"]}
    assert set(rows) == set(QUICK)
    for row in rows.values():
        assert row["bytes"] > row["bytes_gzip"] > 0 and row["requests"] > 1
        # First paint and the end of parsing are not ordered: a short page can finish parsing
        # before anything is painted, a long one paint before it has finished.
        assert row["paint_ms"] > 0 and row["parsed_ms"] > 0 and row["math_ms"] > 0
    assert rows["en/cards/handbook/"]["formulas"] > 100  # the build drew the handbook's math
    for page, row in rows.items():
        assert row["bytes_gzip"] <= budget(page), f"{page}: {row['bytes_gzip']:,} B gzip"
        # The estimate the budget test below uses counts what Chromium fetched, byte for byte.
        assert estimate(built_site, page) == row["bytes_gzip"], page


def test_every_page_stays_within_its_first_visit_budget(built_site):
    over = [
        f"{page}: {n:,} B gzip on a first visit, over its budget of {budget(page):,}"
        for page in built_pages(built_site)
        for n in (estimate(built_site, page),)
        if n > budget(page)
    ]
    assert over == [], "\n".join(over)


def test_committed_results_are_of_pages_the_site_has(built_site):
    # A new page need not re-run the benchmark; a measured page that is gone must.
    report = json.loads(RESULTS.read_text(encoding="utf-8"))
    measured = {r["page"] for r in report["results"]}
    assert set(QUICK) <= measured <= set(built_pages(built_site))
    assert report["date"] and report["machine"]["cpus"]


def test_readme_states_the_committed_before_and_after_figures():
    import re

    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### A reader's first visit", 1)[1].split("\n#", 1)[0]
    table = {row.split("|")[1].strip(): row for row in section.splitlines() if row.startswith("| ")}
    before = json.loads((RESULTS.parent / "pages-mathjax.json").read_text(encoding="utf-8"))
    after = json.loads(RESULTS.read_text(encoding="utf-8"))

    def cells(row: str) -> list[int]:
        return [int(n.replace(",", "")) for n in re.findall(r"(\d[\d,]*) (?:B|ms)", row)]

    b, a = before["summary"], after["summary"]
    assert cells(table["first visit, gzip"]) == [
        b["bytes_gzip_median"], b["bytes_gzip_max"], a["bytes_gzip_median"], a["bytes_gzip_max"]
    ]  # fmt: skip
    assert cells(table["time to math"]) == [
        b["math_ms_median"], b["math_ms_max"], a["math_ms_median"], a["math_ms_max"]
    ]  # fmt: skip
    parsed = cells(table["page parsed (DOMContentLoaded)"])
    assert parsed == [a["parsed_ms_median"], a["parsed_ms_max"]]
    measured = {
        "before": {r["page"]: r for r in before["results"]},
        "after": {r["page"]: r for r in after["results"]},
    }
    for row, key in (
        ("first visit, gzip", "bytes_gzip"),
        ("time to math", "math_ms"),
        ("page parsed (DOMContentLoaded)", "parsed_ms"),
    ):
        # "heaviest" cells name their page: the last one is after's, a first of two before's
        pages = re.findall(r"\(`([^`]*)`\)", table[row])
        assert measured["after"][pages[-1]][key] == cells(table[row])[-1], row
        if len(pages) == 2:
            assert measured["before"][pages[0]][key] == cells(table[row])[1], row
