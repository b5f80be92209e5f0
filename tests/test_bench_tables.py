"""The kernel pages show exactly what bench/results/ holds, say which kernel and which machine
it is from, and judge the targets right."""

import pytest

from attention_site import bench_tables
from bench.cpu import MEMORY_TARGET, MEMORY_TARGET_N, TIME_TARGET, TIME_TARGET_MIN_N
from snippets.figures import bench_cpu, bench_results


@pytest.fixture(scope="module")
def results():
    data = bench_results.load("cpu")
    assert data is not None, "bench/results/cpu.json must be committed: run `make bench`"
    return data


def test_results_say_when_where_and_how(results):
    assert results["date"][:4].isdigit()
    assert {"cpu", "cores", "torch"} <= set(results["machine"])
    assert results["settings"]["quick"] is False, "commit a full run, not --quick"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_cpu_table_has_a_row_per_measured_configuration_with_its_range(results, lang):
    table = bench_tables.cpu_table(lang)
    assert results["machine"]["cpu"] in table  # which CPU the figures are from
    for row, raw in zip(bench_results.cpu_rows(results), results["results"], strict=True):
        c = raw["contenders"]
        tiled, square = c["tiled"]["ratio_to_sdpa"], c["tiled_square"]["ratio_to_sdpa"]
        lo, hi = row["tiled_range"]
        assert f"| {raw['N']} | {raw['heads']} |" in table
        assert f"| {tiled:.2f}× ({lo:.2f}–{hi:.2f}) | {square:.2f}× |" in table
        assert lo <= tiled <= hi


def test_the_cpu_s_l2_is_said_when_recorded_and_its_absence_when_not(results, monkeypatch):
    assert "not recorded" in bench_tables.cpu_machine("en")  # the committed run predates it
    machine = {**results["machine"], "cpu": "Intel(R) Xeon(R)", "l2_per_core_bytes": 2**21}
    monkeypatch.setattr(bench_tables, "load", lambda name: {**results, "machine": machine})
    assert bench_tables.cpu_machine("en") == "Intel(R) Xeon(R) (L2 2 MiB per core)"
    assert "每核 L2 2 MiB" in bench_tables.cpu_table("zh")


def test_the_exp_ratio_on_the_page_is_the_measured_one(results):
    assert bench_tables.exp_ratio("en") == f"{results['exp_over_exp2']:.1f}"
    assert results["exp_over_exp2"] > 1, "the page says exp2 is the cheaper call on this CPU"


def test_rows_are_the_json_numbers(results):
    rows = bench_results.cpu_rows(results)
    assert [(r["N"], r["heads"]) for r in rows] == [
        (r["N"], r["heads"]) for r in results["results"]
    ]
    for row, raw in zip(rows, results["results"], strict=True):
        assert row["tiled_ratio"] == raw["contenders"]["tiled"]["ratio_to_sdpa"]
        assert row["sdpa_ms"] == pytest.approx(1000 * raw["contenders"]["sdpa"]["median_s"])


def test_targets_verdict_matches_the_rows(results):
    rows = bench_results.cpu_rows(results)
    timed = [r for r in rows if r["N"] >= TIME_TARGET_MIN_N]
    met = sum(r["tiled_ratio"] <= TIME_TARGET for r in timed)
    text = bench_tables.cpu_targets("en")
    assert f"met in {met} of {len(timed)} configurations" in text
    assert f"{max(r['tiled_range'][1] for r in timed):.2f}×" in text
    share = [
        r["peak_mib"][1] / r["peak_mib"][0]
        for r in rows
        if r["N"] == MEMORY_TARGET_N and not r["reference_per_head"]
    ]
    assert share and all(s <= MEMORY_TARGET for s in share), f"tiled memory share {share}"


def test_figure_plots_the_same_rows(results):
    assert bench_cpu.data() == bench_results.cpu_rows(results)


def test_what_the_page_says_about_the_tiled_kernel_holds(results):
    # "for a given number of heads its time comes closer to SDPA's as N grows, and from
    # N = 4096 on its own tiles are faster than the square ones tuned by hand"
    rows = bench_results.cpu_rows(results)
    for heads in {r["heads"] for r in rows}:
        ratios = [
            r["tiled_ratio"] for r in sorted(rows, key=lambda r: r["N"]) if r["heads"] == heads
        ]
        assert ratios == sorted(ratios, reverse=True), (heads, ratios)
    assert all(r["tiled_ratio"] < r["square_ratio"] for r in rows if r["N"] >= 4096)


# ----------------------------------------------------------------------------- GPU
def _gpu_report(triton_ms: float, sdpa_ms: float, kernel: str | None = None, N: int = 4096):
    """A run in bench.gpu's format: bf16, d = 64, causal, one N, SDPA and the Triton kernel
    timed over three rounds, cuDNN unsupported."""
    B, H = 4, 32
    shape = dict(dtype="bfloat16", d=64, causal=True, N=N, batch=B, heads=H)
    rows = []
    for mode in ("fwd", "fwd+bwd"):
        for provider, ms in (("triton", triton_ms), ("sdpa", sdpa_ms)):
            row = {**shape, "mode": mode, "provider": provider, "status": "ok", "ms": ms}
            row.update(times_ms=[ms] * 3, spread=0.01)
            if provider == "triton":
                row["ratio_to_sdpa"] = {"median": sdpa_ms / ms, "q1": 0.9, "q3": 1.1}
            rows.append(row)
        rows.append({**shape, "mode": mode, "provider": "sdpa-cudnn", "status": "unsupported: X."})
    machine = {"gpu": "a GPU", "torch": "2.11", "cuda": "13.0", "triton": "3.6"}
    fingerprint = kernel or bench_results.kernel_fingerprint()
    return {"date": "2026-12-02T00:00:00+00:00", "machine": machine, "results": rows,
            "kernel": {"ast_sha256": fingerprint}}  # fmt: skip


def _serve(monkeypatch, **files):
    monkeypatch.setattr(bench_tables, "load", lambda name: files.get(name))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_without_a_run_of_this_kernel_the_pages_say_so_and_give_the_command(monkeypatch, lang):
    _serve(monkeypatch)
    for value in (bench_tables.gpu_table, bench_tables.gpu_targets, bench_tables.tiles_table):
        assert "python3 -m bench." in value(lang)


def test_gpu_table_has_a_row_per_shape_in_flashattention_s_count(monkeypatch):
    _serve(monkeypatch, gpu=_gpu_report(triton_ms=2.0, sdpa_ms=1.0))
    table = bench_tables.gpu_table("en")
    flops = bench_results.attention_flops(4, 32, 4096, 4096, 64, causal=True, mode="fwd")
    triton, sdpa = flops / 2e-3 / 1e12, flops / 1e-3 / 1e12
    row = f"| bf16 | 64 | ✓ | 4096 | 4×32 | fwd | {triton:.0f} (1.0%) | {sdpa:.0f} | – | – | – |"
    assert row + " 0.50× (0.90–1.10) |" in table
    assert "not timed: sdpa-cudnn, bfloat16: unsupported: X." in table
    assert "CUDA 13.0" in table and "a GPU" in bench_tables.gpu_table("zh")
    assert "earlier version" not in table


def test_a_run_of_an_earlier_kernel_source_is_said_to_be_one(monkeypatch):
    _serve(monkeypatch, gpu=_gpu_report(triton_ms=2.0, sdpa_ms=1.0, kernel="0123abcd"))
    assert "earlier version of the kernel's source (syntax-tree hash 0123abcd" in (
        bench_tables.gpu_table("en")
    )
    assert "python3 -m bench.gpu" in bench_tables.gpu_targets("en")  # no verdict from it


@pytest.mark.parametrize(("triton_ms", "met"), [(0.9, 2), (1.1, 1), (2.0, 0)])
def test_gpu_targets_are_judged_from_the_rows(monkeypatch, triton_ms, met):
    # forward >= 1.0x and forward+backward >= 0.8x SDPA: 0.9 ms against 1.0 meets both,
    # 1.1 ms (0.91x) only the second, 2.0 ms (0.5x) neither
    _serve(monkeypatch, gpu=_gpu_report(triton_ms=triton_ms, sdpa_ms=1.0))
    text = bench_tables.gpu_targets("en")
    hits = [line for line in text.splitlines() if "met in 1 of 1" in line]
    assert len(hits) == met
    assert f"from {1 / triton_ms:.2f}× to {1 / triton_ms:.2f}×" in text


def test_the_previous_run_is_recomputed_in_flashattention_s_count_and_labelled():
    previous = bench_results.load(bench_results.PREVIOUS_GPU)
    rows = bench_results.gpu_rows(previous)
    raw = next(
        r
        for r in previous["results"]
        if (r["provider"], r["mode"], r["N"], r["d"], r["causal"], r["dtype"])
        == ("triton", "fwd+bwd", 16384, 128, False, "bfloat16")
    )
    row = next(
        r
        for r in rows
        if (r["mode"], r["N"], r["d"], r["causal"], r["dtype"])
        == ("fwd+bwd", 16384, 128, False, "bfloat16")
    )
    assert row["triton"] == pytest.approx(raw["tflops"] * 7 / 6, rel=2e-3)  # 2 + 5 against 2 + 4
    text = bench_tables.gpu_previous_table("en")
    assert "previous kernel" in text and previous["date"][:10] in text and "H200" in text
    assert "do_bench(warmup=10, rep=50)" in text


def test_the_previous_tile_sweep_is_read_shape_by_shape():
    findings = bench_results.previous_tile_findings(
        bench_results.load(bench_results.PREVIOUS_TILES)
    )
    assert len(findings) == 8  # two head sizes, two N, two modes
    table = bench_tables.tiles_previous_table("en")
    for f in findings:
        assert f"| {100 * f['spread']:.1f}% |" in table and f"{100 * f['margin']:+.1f}%" in table


def test_the_page_says_how_the_default_tiles_of_the_cpu_run_were_chosen(results, monkeypatch):
    assert "before the tiles were calibrated" in bench_tables.cpu_provenance("en")
    calibrated = {**results, "tile_calibration": {"budget_bytes": 8 * 2**20}}
    monkeypatch.setattr(bench_tables, "load", lambda name: calibrated)
    assert "calibrated on it (a budget of 8 MiB" in bench_tables.cpu_provenance("en")
    assert "8 MiB" in bench_tables.cpu_provenance("zh")
