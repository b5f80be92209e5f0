"""The benchmarks: bench.cpu runs end to end (--quick); bench.gpu's pure helpers are right."""

from __future__ import annotations

import json
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


def test_causal_pairs_counts_the_lower_triangle_top_left_aligned():
    for N_q, N_k in [(1, 1), (4, 4), (3, 7), (7, 3), (128, 64)]:
        want = int(torch.ones(N_q, N_k).tril().sum())
        assert gpu.causal_pairs(N_q, N_k) == want


def test_forward_flops_are_what_torch_counts_for_the_reference():
    from torch.utils.flop_counter import FlopCounterMode

    from snippets.kernels import reference

    q = torch.randn(2, 3, 128, 64)
    with FlopCounterMode(display=False) as counter:
        reference.attention(q, q, q)
    fwd = gpu.USEFUL_MATMULS["fwd"]
    assert gpu.attention_flops(2, 3, 128, 128, 64, causal=False, matmuls=fwd) == (
        counter.get_total_flops()
    )
    causal = gpu.attention_flops(2, 3, 128, 128, 64, causal=True, matmuls=fwd)
    assert causal == counter.get_total_flops() * gpu.causal_pairs(128, 128) / 128**2


def test_useful_backward_flops_are_what_torch_counts_for_the_reference_backward():
    from torch.utils.flop_counter import FlopCounterMode

    from snippets.kernels import reference

    q = torch.randn(1, 2, 64, 32, requires_grad=True)
    out = reference.attention(q, q.detach(), q.detach())
    with FlopCounterMode(display=False) as counter:
        out.backward(torch.ones_like(out))
    k_and_v_need_no_grad = 2  # of the backward's 4 matmuls, dK and dV were skipped here
    useful_bwd = gpu.USEFUL_MATMULS["fwd+bwd"] - gpu.USEFUL_MATMULS["fwd"]
    matmuls = useful_bwd - k_and_v_need_no_grad
    assert gpu.attention_flops(1, 2, 64, 64, 32, causal=False, matmuls=matmuls) == (
        counter.get_total_flops()
    )


def test_tflops_converts_milliseconds():
    assert gpu.tflops(2e12, 1000.0) == pytest.approx(2.0)
    assert gpu.tflops(1e9, 1.0) == pytest.approx(1.0)


def test_gpu_sweep_keeps_tokens_and_width_fixed_and_includes_fp32():
    configs = gpu.sweep()
    assert len(configs) == len(gpu.SEQ_LENS) * len(gpu.HEAD_DIMS) * len(gpu.DTYPES) * 2
    for c in configs:
        assert c["batch"] * c["N"] == gpu.TOKENS and c["heads"] * c["d"] == gpu.WIDTH
    assert {c["dtype"] for c in configs} == {"bfloat16", "float16", "float32"}
    assert {c["N"] for c in gpu.sweep(quick=True)} < set(gpu.SEQ_LENS)


def test_a_failure_is_a_reason_even_without_a_message():
    assert gpu.reason(ValueError()) == "ValueError"
    assert gpu.reason(RuntimeError("no kernel\nsecond line")) == "RuntimeError: no kernel"


def test_any_exception_of_a_provider_is_reported_and_results_are_written_each_time(
    monkeypatch,
):
    def boom(q, k, v, causal):
        raise KeyError  # not a RuntimeError, and no message

    def wrong(q, k, v, causal):
        return (q + k + v) * 0  # differentiable in q, k and v, and wrong

    monkeypatch.setattr(gpu, "providers", lambda: {"boom": boom, "wrong": wrong})
    written = []
    configs = gpu.sweep(dry_run=True)[:2]
    rows = gpu.run(configs, "cpu", gpu.cpu_timer, lambda r: written.append(len(r)))
    assert written == [4, 8]  # after each configuration
    assert {r["status"] for r in rows if r["provider"] == "boom"} == {"unsupported: KeyError"}
    assert all(
        r["status"].startswith("check failed: out") for r in rows if r["provider"] == "wrong"
    )


def test_gpu_benchmark_runs_end_to_end_on_the_cpu_in_a_dry_run(tmp_path):
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
    for r in triton:
        assert (r["executed_tflops"] > r["tflops"]) == (r["mode"] == "fwd+bwd")
    assert report["settings"]["dry_run"] is True


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA message")
def test_gpu_benchmark_exits_with_a_clear_message_without_cuda():
    with pytest.raises(SystemExit, match=r"needs a CUDA GPU.*--dry-run"):
        gpu.main([])


# ----------------------------------------------------------------- committed GPU measurements
GPU_RESULTS = json.loads((ROOT / "bench/results/gpu.json").read_text())
TILE_RESULTS = json.loads((ROOT / "bench/results/tiles.json").read_text())


def test_the_committed_gpu_run_is_a_full_sweep_with_every_provider():
    assert not GPU_RESULTS["settings"]["quick"] and not GPU_RESULTS["settings"]["dry_run"]
    done = {
        (r["N"], r["d"], r["dtype"], r["causal"], r["provider"]) for r in GPU_RESULTS["results"]
    }
    want = {
        (c["N"], c["d"], c["dtype"], c["causal"], p)
        for c in gpu.sweep()
        for p in ("triton", "sdpa", "sdpa-flash", "sdpa-efficient", "sdpa-cudnn")
    }
    assert done == want


def test_the_triton_kernel_passed_the_check_in_every_configuration_on_the_gpu():
    # The Triton page says so; the check is bench.gpu's relative-norm comparison.
    triton_rows = [r for r in GPU_RESULTS["results"] if r["provider"] == "triton"]
    assert triton_rows and all(r["status"] == "ok" and r["tflops"] > 0 for r in triton_rows)


def test_the_older_triton_compiled_is_the_one_the_gpu_ran():
    older = json.loads((ROOT / "bench/results/compile-triton-3.6.json").read_text())
    assert GPU_RESULTS["machine"]["triton"] == older["versions"]["triton"]
    assert TILE_RESULTS["machine"]["triton"] == older["versions"]["triton"]


def test_in_the_tile_sweep_32_row_backward_tiles_on_8_warps_are_the_slowest():
    # The Triton page says so, as the reason the backward kernels get 4 warps on Hopper.
    for d, N in {(r["d"], r["N"]) for r in TILE_RESULTS["results"]}:
        rows = [r for r in TILE_RESULTS["results"] if (r["d"], r["N"]) == (d, N)]
        slowest = min(rows, key=lambda r: r["fwd+bwd"]["tflops"])["config"]
        assert slowest["BLOCK_N1"] == 32
        assert (slowest["num_warps_bwd"] or slowest["num_warps"]) == 8


def test_tile_candidates_hold_the_hopper_default_and_larger_and_smaller_tiles(monkeypatch):
    from bench import tiles
    from snippets.kernels import triton_attention as T

    monkeypatch.setattr(T, "INTERPRET", False)  # the GPU choice
    default = T.config(64, torch.bfloat16, T.SMEM_TIERS[0])
    sizes = {c.BLOCK_M * c.BLOCK_N for c in tiles.candidates()}
    assert default in tiles.candidates()  # timed twice: the run-to-run spread
    assert max(sizes) > default.BLOCK_M * default.BLOCK_N > min(sizes)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA message")
def test_tile_sweep_exits_with_a_clear_message_without_cuda():
    proc = subprocess.run(
        [sys.executable, "-m", "bench.tiles"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode != 0 and "CUDA GPU" in proc.stderr
