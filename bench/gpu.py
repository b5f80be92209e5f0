"""GPU benchmark: the Triton kernel vs SDPA's backends, in TFLOP/s (one H200, < 5 minutes).

    python -m bench.gpu            # writes bench/results/gpu.json
    python -m bench.gpu --quick    # N in {1024, 4096}, d = 64 only

Sweep: N from 1k to 16k, d in {64, 128}, bf16 and fp16, causal and not, forward and
forward+backward. Tokens per batch (B * N = 16k) and model width (H * d = 2048) are fixed,
so every configuration moves the same amount of data. Providers: snippets' Triton kernel
and SDPA restricted (torch.nn.attention.sdpa_kernel) to its flash, memory-efficient and
cuDNN backends. Before a provider is timed on a configuration, its output and gradients
on a (1, 2, N, d) slice are checked against SDPA's math backend in fp32; a provider that
fails the check, or does not support the configuration, is reported and not timed.
Times come from triton.testing.do_bench (median of CUDA-event timings).
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
from collections.abc import Callable
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "gpu.json"
SEQ_LENS = (1024, 2048, 4096, 8192, 16384)
HEAD_DIMS = (64, 128)
DTYPES = ("bfloat16", "float16")
TOKENS, WIDTH = 16384, 2048  # B * N and H * d, fixed across the sweep
MODES = ("fwd", "fwd+bwd")
# Max abs error allowed against the fp32 math backend, relative to the largest true value.
TOLERANCE = {"float16": {"fwd": 1e-2, "bwd": 3e-2}, "bfloat16": {"fwd": 3e-2, "bwd": 8e-2}}


def shape_for(N: int, d: int) -> tuple[int, int]:
    """(batch, heads) keeping B * N = 16k tokens and H * d = 2048."""
    return max(1, TOKENS // N), WIDTH // d


def causal_pairs(N_q: int, N_k: int) -> int:
    """Number of (i, j) with j <= i < N_q, j < N_k: the scores a causal kernel computes."""
    if N_q <= N_k:
        return N_q * (N_q + 1) // 2
    return N_k * (N_k + 1) // 2 + (N_q - N_k) * N_k


def attention_flops(B: int, H: int, N_q: int, N_k: int, d: int, *, causal: bool, mode: str) -> int:
    """Matmul FLOPs: forward = 2 matmuls (QK^T, PV); backward = 5 more (2.5x the forward)."""
    pairs = causal_pairs(N_q, N_k) if causal else N_q * N_k
    forward = 2 * 2 * B * H * pairs * d  # two N_q x N_k x d matmuls, 2 FLOPs per multiply-add
    if mode == "fwd":
        return forward
    if mode == "fwd+bwd":
        return forward + 5 * forward // 2  # S recomputed, dV, dP, dQ, dK
    raise ValueError(f"mode must be 'fwd' or 'fwd+bwd', got {mode!r}")


def tflops(flops: float, ms: float) -> float:
    """FLOPs done in ms milliseconds, as TFLOP/s."""
    return flops / (ms * 1e-3) / 1e12


def sweep(quick: bool = False) -> list[dict]:
    """Every configuration of the sweep, as dicts (N, d, dtype, causal, batch, heads)."""
    seq_lens, head_dims = ((1024, 4096), (64,)) if quick else (SEQ_LENS, HEAD_DIMS)
    return [
        {"N": N, "d": d, "dtype": dtype, "causal": causal, "batch": B, "heads": H}
        for dtype in DTYPES
        for d in head_dims
        for causal in (False, True)
        for N in seq_lens
        for B, H in [shape_for(N, d)]
    ]


def format_table(rows: list[dict]) -> str:
    """Fixed-width table of TFLOP/s (or the reason a cell was not timed)."""
    lines = [f"{'dtype':<9} {'d':>3} {'causal':<6} {'N':>6} {'mode':<8} {'provider':<16} TFLOP/s"]
    for r in rows:
        cell = f"{r['tflops']:7.1f}" if r.get("tflops") is not None else f"  -  {r['status']}"
        lines.append(
            f"{r['dtype']:<9} {r['d']:>3} {r['causal']!s:<6} {r['N']:>6} {r['mode']:<8} "
            f"{r['provider']:<16} {cell}"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------- GPU side
def _providers() -> dict[str, Callable]:
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from snippets.kernels import triton_attention

    def sdpa_with(backend):
        def run(q, k, v, causal):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

        return run

    providers = {
        "triton": lambda q, k, v, causal: triton_attention.attention(q, k, v, causal=causal),
        "sdpa-flash": sdpa_with(SDPBackend.FLASH_ATTENTION),
        "sdpa-efficient": sdpa_with(SDPBackend.EFFICIENT_ATTENTION),
    }
    if hasattr(SDPBackend, "CUDNN_ATTENTION"):
        providers["sdpa-cudnn"] = sdpa_with(SDPBackend.CUDNN_ATTENTION)
    return providers


def _check(fn, cfg: dict) -> str | None:
    """None if fn matches SDPA's fp32 math backend on a (1, 2, N, d) slice, else why not."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    gen = torch.Generator(device="cuda").manual_seed(0)
    shape = (1, 2, cfg["N"], cfg["d"])
    dtype = getattr(torch, cfg["dtype"])
    q, k, v, dO = (torch.randn(shape, device="cuda", generator=gen).to(dtype) for _ in range(4))
    want = [x.float().requires_grad_() for x in (q, k, v)]
    with sdpa_kernel(SDPBackend.MATH):
        out_ref = F.scaled_dot_product_attention(*want, is_causal=cfg["causal"])
    refs = [out_ref, *torch.autograd.grad(out_ref, want, dO.float())]
    got_in = [x.clone().requires_grad_() for x in (q, k, v)]
    out = fn(*got_in, cfg["causal"])
    gots = [out, *torch.autograd.grad(out, got_in, dO)]
    for name, g, r in zip(("out", "dq", "dk", "dv"), gots, refs, strict=True):
        tol = TOLERANCE[cfg["dtype"]]["fwd" if name == "out" else "bwd"]
        err = (g.float() - r).abs().max().item()
        if not err <= tol * max(1.0, r.abs().max().item()):  # also catches nan
            return f"check failed: {name} max error {err:.3g}"
    return None


def _time(fn, cfg: dict, mode: str) -> float:
    """Median milliseconds of one call (forward, or forward and backward)."""
    from triton.testing import do_bench

    shape = (cfg["batch"], cfg["heads"], cfg["N"], cfg["d"])
    dtype = getattr(torch, cfg["dtype"])
    q, k, v = (torch.randn(shape, device="cuda", dtype=dtype, requires_grad=True) for _ in range(3))
    if mode == "fwd":
        with torch.no_grad():
            return do_bench(
                lambda: fn(q, k, v, cfg["causal"]), warmup=10, rep=50, return_mode="median"
            )
    out = fn(q, k, v, cfg["causal"])
    dO = torch.randn_like(out)

    def step():
        fn(q, k, v, cfg["causal"]).backward(dO)

    return do_bench(step, warmup=10, rep=50, grad_to_none=[q, k, v], return_mode="median")


def run(quick: bool = False) -> list[dict]:
    """Check, then time, every provider on every configuration; one row per measurement."""
    providers, rows = _providers(), []
    for cfg in sweep(quick):
        for provider, fn in providers.items():
            try:
                status = _check(fn, cfg)
            except RuntimeError as exc:  # e.g. "No available kernel" for this backend
                status = f"unsupported: {str(exc).splitlines()[0][:80]}"
            for mode in MODES:
                row = {**cfg, "mode": mode, "provider": provider, "status": status or "ok"}
                if status is None:
                    ms = _time(fn, cfg, mode)
                    B, H, N, d = cfg["batch"], cfg["heads"], cfg["N"], cfg["d"]
                    flops = attention_flops(B, H, N, N, d, causal=cfg["causal"], mode=mode)
                    row.update(ms=round(ms, 4), tflops=round(tflops(flops, ms), 2))
                rows.append(row)
                print(format_table([row]).splitlines()[-1], flush=True)
            torch.cuda.empty_cache()
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the sweep on the first CUDA device, print a table, write the JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.gpu", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="N in {1024, 4096}, d = 64 only")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON path (default {RESULTS})")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        raise SystemExit(
            "bench.gpu needs a CUDA GPU, and torch.cuda.is_available() is False here. "
            "On a CPU-only machine run the CPU benchmark instead: python -m bench.cpu"
        )
    import triton

    rows = run(args.quick)
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {
            "gpu": torch.cuda.get_device_name(0),
            "python": platform.python_version(),
            "torch": torch.__version__,
            "cuda": torch.version.cuda,
            "triton": triton.__version__,
        },
        "method": __doc__.split("\n\n", 2)[2].strip(),
        "results": rows,
    }
    print(format_table(rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
