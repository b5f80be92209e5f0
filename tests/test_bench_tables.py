"""The benchmarks page shows exactly what bench/results/cpu.json holds, and judges targets right."""

import pytest

from attention_site import bench_tables
from bench import report
from bench.cpu import MEMORY_TARGET, MEMORY_TARGET_N, TIME_TARGET, TIME_TARGET_MIN_N
from snippets.figures import bench_cpu


@pytest.fixture(scope="module")
def results():
    data = report.load("cpu")
    assert data is not None, "bench/results/cpu.json must be committed: run `make bench`"
    return data


def test_results_say_when_where_and_how(results):
    assert results["date"][:4].isdigit()
    assert {"cpu", "cores", "torch"} <= set(results["machine"])
    assert results["settings"]["quick"] is False, "commit a full run, not --quick"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_cpu_table_has_a_row_per_measured_configuration(results, lang):
    table = bench_tables.cpu_table(lang)
    for r in results["results"]:
        ratio = r["contenders"]["tiled"]["ratio_to_sdpa"]
        assert f"| {r['N']} | {r['heads']} |" in table
        assert f"{ratio:.2f}×" in table


def test_rows_are_the_json_numbers(results):
    rows = report.cpu_rows(results)
    assert [(r["N"], r["heads"]) for r in rows] == [
        (r["N"], r["heads"]) for r in results["results"]
    ]
    for row, raw in zip(rows, results["results"], strict=True):
        assert row["tiled_ratio"] == raw["contenders"]["tiled"]["ratio_to_sdpa"]
        assert row["sdpa_ms"] == pytest.approx(1000 * raw["contenders"]["sdpa"]["median_s"])


def test_targets_verdict_matches_the_rows(results):
    rows = report.cpu_rows(results)
    timed = [r for r in rows if r["N"] >= TIME_TARGET_MIN_N]
    met = sum(r["tiled_ratio"] <= TIME_TARGET for r in timed)
    assert f"met in {met} of {len(timed)} configurations" in bench_tables.cpu_targets("en")
    share = [
        r["peak_mib"][1] / r["peak_mib"][0]
        for r in rows
        if r["N"] == MEMORY_TARGET_N and not r["reference_per_head"]
    ]
    assert share and all(s <= MEMORY_TARGET for s in share), f"tiled memory share {share}"


def test_figure_plots_the_same_rows(results):
    assert bench_cpu.data() == report.cpu_rows(results)


def test_gpu_table_says_so_when_there_are_no_gpu_results(monkeypatch):
    monkeypatch.setattr(bench_tables, "load", lambda name: None)
    assert "make bench-gpu" in bench_tables.gpu_table("en")
    assert "make bench-gpu" in bench_tables.gpu_table("zh")
