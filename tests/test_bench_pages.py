"""bench.pages runs end to end on the built site (a quick run: two pages), and the committed
results are of pages the site has. A benchmark, not a timed test: nothing judges the numbers."""

from __future__ import annotations

import json
import subprocess
import sys

from bench.pages import QUICK, RESULTS
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
        assert 0 < row["paint_ms"] <= row["parsed_ms"] and row["math_ms"] > 0
    assert rows["en/cards/handbook/"]["formulas"] > 100  # the build drew the handbook's math


def test_committed_results_are_of_pages_the_site_has(built_site):
    # A new page need not re-run the benchmark; a measured page that is gone must.
    report = json.loads(RESULTS.read_text(encoding="utf-8"))
    measured = {r["page"] for r in report["results"]}
    assert set(QUICK) <= measured <= set(built_pages(built_site))
    assert report["date"] and report["machine"]["cpus"]
