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
        c = r["contenders"]
        tiled, square = c["tiled"]["ratio_to_sdpa"], c["tiled_square"]["ratio_to_sdpa"]
        assert f"| {r['N']} | {r['heads']} |" in table
        assert f"| {tiled:.2f}× | {square:.2f}× |" in table


def test_the_exp_ratio_on_the_page_is_the_measured_one(results):
    assert bench_tables.exp_ratio("en") == f"{results['exp_over_exp2']:.1f}"
    assert results["exp_over_exp2"] > 1, "the page says exp2 is the cheaper call on this CPU"


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


def test_what_the_page_says_about_the_tiled_kernel_holds(results):
    # "for a given number of heads its time comes closer to SDPA's as N grows, and from
    # N = 4096 on its own tiles are faster than the square ones tuned by hand"
    rows = report.cpu_rows(results)
    for heads in {r["heads"] for r in rows}:
        ratios = [
            r["tiled_ratio"] for r in sorted(rows, key=lambda r: r["N"]) if r["heads"] == heads
        ]
        assert ratios == sorted(ratios, reverse=True), (heads, ratios)
    assert all(r["tiled_ratio"] < r["square_ratio"] for r in rows if r["N"] >= 4096)


def _gpu_report(triton: float, sdpa: float, flash: float, N: int = 4096) -> dict:
    row = dict(dtype="bfloat16", d=64, causal=True, N=N, status="ok")
    results = []
    for mode in ("fwd", "fwd+bwd"):
        results += [
            {**row, "mode": mode, "provider": "triton", "tflops": triton, "executed_tflops": 1.5},
            {**row, "mode": mode, "provider": "sdpa", "tflops": sdpa},
            {**row, "mode": mode, "provider": "sdpa-flash", "tflops": flash},
            {**row, "mode": mode, "provider": "sdpa-cudnn", "status": "unsupported: RuntimeError."},
        ]
    machine = {"gpu": "a GPU", "torch": "2.11", "cuda": "13.0", "triton": "3.6"}
    return {"date": "2026-11-30T00:00:00+00:00", "machine": machine, "results": results}


def test_gpu_table_has_a_row_per_configuration_and_says_what_was_not_timed(monkeypatch):
    report_ = _gpu_report(triton=123.45, sdpa=200.0, flash=100.0)
    monkeypatch.setattr(bench_tables, "load", lambda name: report_ if name == "gpu" else None)
    table = bench_tables.gpu_table("en")
    assert "| bf16 | 64 | ✓ | 4096 | fwd | 123 (2) | 200 | 100 | – | – | 0.62× |" in table
    assert "not timed: sdpa-cudnn, bfloat16: unsupported: RuntimeError." in table
    assert "CUDA 13.0" in table and "a GPU" in bench_tables.gpu_table("zh")


@pytest.mark.parametrize(("triton", "met"), [(210.0, 1), (150.0, 0)])
def test_gpu_targets_are_judged_from_the_rows(monkeypatch, triton, met):
    # forward target 1.0x and forward+backward 0.8x SDPA: 210/200 meets both, 150/200 neither
    report_ = _gpu_report(triton=triton, sdpa=200.0, flash=100.0)
    monkeypatch.setattr(bench_tables, "load", lambda name: report_ if name == "gpu" else None)
    text = bench_tables.gpu_targets("en")
    assert text.count(f"met in {met} of 1 configurations") == 2
    assert f"forward {triton / 100:.2f}× to {triton / 100:.2f}×" in text


def _tiles_report(default_tflops: float, repeat_tflops: float, other_tflops: float) -> dict:
    def row(config: dict, tflops: float, default: bool = False) -> dict:
        timing = {"ms": 1.0, "tflops": tflops}
        return dict(d=64, N=4096, default=default, config=config, fwd=timing, **{"fwd+bwd": timing})

    mine, other = {"BLOCK_M": 128}, {"BLOCK_M": 64}
    rows = [row(mine, default_tflops, True), row(mine, repeat_tflops), row(other, other_tflops)]
    return {"results": rows}


@pytest.mark.parametrize(("other", "beaten"), [(104.0, False), (110.0, True)])
def test_tiles_verdict_says_whether_a_candidate_beat_the_default_beyond_the_spread(
    monkeypatch, other, beaten
):
    # the default timed 100 and 105: a 5 % spread; 104 is within it, 110 beats it
    report_ = _tiles_report(100.0, 105.0, other)
    monkeypatch.setattr(bench_tables, "load", lambda name: report_ if name == "tiles" else None)
    text = bench_tables.tiles_verdict("en")
    assert f"ran {other - 100:.1f}% faster than the default tiles" in text
    assert ("beyond the run-to-run spread" in text) is beaten
    assert ("none beat them" in text) is not beaten
    assert "up to 5.0%" in text


def test_one_fast_timing_alone_does_not_beat_the_default_tiles():
    # 15 % faster at one N and 13 % slower at the other: about even over both, within 5 %
    timing = lambda tflops: {"ms": 1.0, "tflops": tflops}  # noqa: E731
    rows = [
        dict(d=64, N=N, default=i == 0, config=cfg, fwd=timing(t), **{"fwd+bwd": timing(t)})
        for N, times in ((4096, (100.0, 105.0, 115.0)), (16384, (100.0, 100.0, 87.0)))
        for i, (cfg, t) in enumerate(zip(({"M": 128}, {"M": 128}, {"M": 64}), times, strict=True))
    ]
    best, spread = report.tile_margins({"results": rows}, 64)
    assert best == pytest.approx((1.15 * 0.87) ** 0.5 - 1) and spread == pytest.approx(0.05)
    assert report.tiles_unbeaten({"results": rows}, 64)


def test_a_tile_sweep_without_a_repeated_default_is_an_error():
    report_ = _tiles_report(100.0, 105.0, 110.0)
    report_["results"][1]["config"] = {"BLOCK_M": 32}  # the repeat is gone
    with pytest.raises(ValueError, match="did not time the default tiles twice"):
        report.tile_margins(report_, 64)
