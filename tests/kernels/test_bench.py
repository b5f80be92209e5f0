"""The benchmarks: bench.cpu runs end to end (--quick); bench.gpu's pure helpers are right."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from bench import cpu, gpu

ROOT = Path(__file__).resolve().parents[2]


def test_cpu_benchmark_quick_run_writes_every_measurement(tmp_path):
    out = tmp_path / "cpu.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench.cpu", "--quick", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert {"date", "machine", "settings", "results", "targets"} <= report.keys()
    assert report["machine"]["cores"] >= 1 and report["machine"]["torch"] == torch.__version__
    assert report["machine"]["l2_per_core_bytes"] > 0 and report["machine"]["cpu"]
    assert report["tile_calibration"] is None  # a smoke test keeps no timing
    assert [(r["N"], r["heads"]) for r in report["results"]] == cpu.QUICK_CONFIGS
    for r in report["results"]:
        assert set(r["contenders"]) == set(cpu.CONTENDERS)
        for c in r["contenders"].values():
            assert len(c["times_s"]) == r["rounds"] and c["median_s"] > 0
        assert r["contenders"]["sdpa"]["ratio_to_sdpa"] == 1.0
    assert "x SDPA" in proc.stdout and "tiled" in proc.stdout


def test_reference_memory_model_matches_the_measured_peaks():
    # The model decides when the reference must run head by head; the committed measurements
    # (peak resident memory above the inputs) are what it must predict.
    results = json.loads((ROOT / "bench/results/cpu.json").read_text())
    checked = 0
    for r in results["results"]:
        ref = r["contenders"]["reference"]
        heads = 1 if ref["note"] else r["heads"]  # head by head: one head's matrices at a time
        if r["N"] >= 4096:
            model = cpu.reference_peak_bytes(1, heads, r["N"], r["N"])
            assert 1.0 <= ref["peak_bytes_above_inputs"] / model <= 1.05, r
            checked += 1
    assert checked >= 2


def test_cpu_benchmark_targets_are_judged_from_the_measurements():
    def row(N, H, ratio, tiled_peak, ref_peak, note=None):
        return {
            "N": N,
            "heads": H,
            "contenders": {
                "tiled": {"ratio_to_sdpa": ratio, "peak_bytes_above_inputs": tiled_peak},
                "reference": {"peak_bytes_above_inputs": ref_peak, "note": note},
            },
        }

    targets = cpu._targets(
        [row(4096, 1, 1.1, 10, 1000), row(16384, 1, 1.3, 10, 1000), row(16384, 8, 1.0, 9, 9, "x")]
    )
    time_target = targets["time"]
    assert time_target["target"] == cpu.TIME_TARGET and time_target["min_N"] == 4096
    assert time_target["met"] is False and time_target["values"]["N=16384,H=1"] == 1.3
    memory_target = targets["memory"]
    assert memory_target["target"] == cpu.MEMORY_TARGET
    assert memory_target["met"] is True and memory_target["values"] == {"N=16384,H=1": 0.01}
    assert memory_target["not_evaluated"]  # H=8 ran the reference head by head


def test_forward_flops_are_what_torch_counts_for_the_reference_and_half_if_causal():
    from torch.utils.flop_counter import FlopCounterMode

    from snippets.kernels import reference

    q = torch.randn(2, 3, 128, 64)
    with FlopCounterMode(display=False) as counter:
        reference.attention(q, q, q)
    fwd = gpu.attention_flops(2, 3, 128, 128, 64, causal=False, mode="fwd")
    assert fwd == counter.get_total_flops()
    assert gpu.attention_flops(2, 3, 128, 128, 64, causal=True, mode="fwd") == fwd / 2


def test_the_backward_counts_its_four_products_and_the_recomputation_of_s():
    # FlashAttention's convention: backward = 2.5 x forward, i.e. the four products torch
    # counts for autograd through the reference (2 x forward) plus S recomputed (0.5 x).
    from torch.utils.flop_counter import FlopCounterMode

    from snippets.kernels import reference

    q, k, v = (torch.randn(1, 2, 64, 32, requires_grad=True) for _ in range(3))
    out = reference.attention(q, k, v)
    with FlopCounterMode(display=False) as counter:
        out.backward(torch.ones_like(out))
    fwd = gpu.attention_flops(1, 2, 64, 64, 32, causal=False, mode="fwd")
    recompute_s = fwd / 2
    assert gpu.attention_flops(1, 2, 64, 64, 32, causal=False, mode="bwd") == (
        counter.get_total_flops() + recompute_s
    )
    assert gpu.attention_flops(1, 2, 64, 64, 32, causal=False, mode="fwd+bwd") == 3.5 * fwd


def test_tflops_converts_milliseconds():
    assert gpu.tflops(2e12, 1000.0) == pytest.approx(2.0)
    assert gpu.tflops(1e9, 1.0) == pytest.approx(1.0)


def test_gpu_sweep_keeps_tokens_and_width_fixed_and_shuffles_each_dtype_reproducibly():
    shapes = gpu.sweep()
    assert len(shapes) == len(gpu.SEQ_LENS) * len(gpu.HEAD_DIMS) * len(gpu.DTYPES) * 2
    for c in shapes:
        assert c["batch"] * c["N"] == gpu.TOKENS and c["heads"] * c["d"] == gpu.WIDTH
    assert [c["dtype"] for c in shapes] == sorted(
        (c["dtype"] for c in shapes), key=gpu.DTYPES.index
    )
    ordered = sorted(shapes, key=lambda c: (c["dtype"], c["d"], c["causal"], c["N"]))
    assert shapes != ordered and shapes == gpu.sweep() and shapes != gpu.sweep(seed=1)
    assert {c["dtype"] for c in gpu.sweep(dtypes=("float32",))} == {"float32"}
    assert {c["N"] for c in gpu.sweep(quick=True)} < set(gpu.SEQ_LENS)


def test_a_failure_is_a_reason_even_without_a_message():
    assert gpu.reason(ValueError()) == "ValueError"
    assert gpu.reason(RuntimeError("no kernel\nsecond line")) == "RuntimeError: no kernel"


def test_spread_is_the_interquartile_range_over_the_median():
    cell = gpu.summary([1.0, 2.0, 3.0, 4.0, 5.0])
    assert cell == {"ms": 3.0, "spread": pytest.approx((4.0 - 2.0) / 3.0, abs=1e-4)}


def test_rounds_time_every_provider_and_mode_once_each_in_a_fresh_random_order(monkeypatch):
    calls = []

    class Timer:
        rounds, warmup = 6, 1

        def __call__(self, fn):
            fn()
            return 1.0

    def provider(name):
        def fn(q, k, v, causal):
            calls.append(name)
            return q * k.sum() + v.sum()

        return fn

    fns = {name: provider(name) for name in ("sdpa", "a", "b")}
    monkeypatch.setattr(gpu, "check", lambda *_: None)
    monkeypatch.setattr(gpu, "reference", lambda *_: (None, None))
    shape = gpu.sweep(dry_run=True)[0]
    rows = gpu.measure_shape(shape, fns, "cpu", Timer(), random.Random(0))
    warmup = len(fns) * len(gpu.MODES) * Timer.warmup
    rounds = [calls[warmup + i * 6 : warmup + (i + 1) * 6] for i in range(Timer.rounds)]
    for r in rounds:  # each provider twice per round: once per mode
        assert sorted(r) == sorted(list(fns) * 2)
    assert len({tuple(r) for r in rounds}) > 1, "the order never changed"
    assert all(len(r["times_ms"]) == Timer.rounds and r["ratio_to_sdpa"] for r in rows)


def test_any_exception_of_a_provider_is_reported_and_results_are_written_each_time(
    monkeypatch,
):
    def boom(q, k, v, causal):
        raise KeyError  # not a RuntimeError, and no message

    def wrong(q, k, v, causal):
        return (q + k + v) * 0  # differentiable in q, k and v, and wrong

    monkeypatch.setattr(gpu, "providers", lambda: {"boom": boom, "wrong": wrong})
    written = []
    shapes = gpu.sweep(dry_run=True)[:2]
    rows = gpu.run(shapes, "cpu", gpu.CpuTimer(), lambda r: written.append(len(r)))
    assert written == [4, 8]  # after each shape
    assert {r["status"] for r in rows if r["provider"] == "boom"} == {"unsupported: KeyError"}
    assert all(
        r["status"].startswith("check failed: out") for r in rows if r["provider"] == "wrong"
    )


def test_gpu_benchmark_runs_end_to_end_on_the_cpu_in_a_dry_run(tmp_path):
    from snippets.figures.bench_results import kernel_fingerprint

    out = tmp_path / "gpu.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench.gpu", "--dry-run", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    rows = report["results"]
    assert len(rows) == len(gpu.sweep(dry_run=True)) * len(gpu.providers()) * len(gpu.MODES)
    triton = [r for r in rows if r["provider"] == "triton"]
    assert triton and all(r["status"] == "ok" and r["ms"] > 0 for r in triton)
    assert all(len(r["times_ms"]) == gpu.DRY_ROUNDS and r["ratio_to_sdpa"] for r in triton)
    assert report["settings"]["dry_run"] is True and report["settings"]["flops"] == "flashattention"
    assert report["kernel"]["ast_sha256"] == kernel_fingerprint()


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA message")
def test_gpu_benchmark_exits_with_a_clear_message_without_cuda():
    with pytest.raises(SystemExit, match=r"needs a CUDA GPU.*--dry-run"):
        gpu.main([])


# ----------------------------------------------------------------- committed GPU measurements
PREVIOUS = json.loads((ROOT / "bench/results/gpu-2026-12-01.json").read_text())
PREVIOUS_TILES = json.loads((ROOT / "bench/results/tiles-2026-12-01.json").read_text())


def test_the_previous_gpu_run_is_a_full_sweep_with_every_provider():
    assert not PREVIOUS["settings"]["quick"] and not PREVIOUS["settings"]["dry_run"]
    done = {(r["N"], r["d"], r["dtype"], r["causal"], r["provider"]) for r in PREVIOUS["results"]}
    providers = ("triton", "sdpa", "sdpa-flash", "sdpa-efficient", "sdpa-cudnn")
    want = {
        (N, d, dt, c, p)
        for N in gpu.SEQ_LENS
        for d in gpu.HEAD_DIMS
        for dt in ("bfloat16", "float16", "float32")
        for c in (False, True)
        for p in providers
    }
    assert done == want


def test_the_previous_triton_kernel_passed_the_check_in_every_configuration_on_the_gpu():
    # The Triton page says so; the check is bench.gpu's relative-norm comparison.
    triton_rows = [r for r in PREVIOUS["results"] if r["provider"] == "triton"]
    assert triton_rows and all(r["status"] == "ok" and r["tflops"] > 0 for r in triton_rows)


def test_the_gpu_ran_the_older_triton_that_is_compiled_too():
    older = json.loads((ROOT / "bench/results/compile-triton-3.6.json").read_text())
    assert PREVIOUS["machine"]["triton"] == older["versions"]["triton"]
    assert PREVIOUS_TILES["machine"]["triton"] == older["versions"]["triton"]


def test_the_tile_sweep_times_the_hopper_spaces_forward_and_backward_apart(monkeypatch):
    from bench import tiles
    from snippets.kernels import triton_attention as T

    for d in (64, 128):
        spaces = tiles.spaces(d)
        assert spaces["fwd"] == T.forward_space(d, torch.bfloat16, "sm_90")
        assert spaces["bwd"] == T.backward_space(d, torch.bfloat16, "sm_90")
        assert len(spaces["fwd"]) > 1 and len(spaces["bwd"]) > 1
    assert {causal for *_, causal in tiles.SHAPES} == {False, True}


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA message")
def test_tile_sweep_exits_with_a_clear_message_without_cuda():
    proc = subprocess.run(
        [sys.executable, "-m", "bench.tiles"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode != 0 and "CUDA GPU" in proc.stderr
