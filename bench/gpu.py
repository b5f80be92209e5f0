"""GPU benchmark: the Triton kernel vs PyTorch SDPA's backends, in TFLOP/s (a few minutes).

    python3 -m bench.gpu            # full sweep on the first CUDA device -> bench/results/gpu.json
    python3 -m bench.gpu --quick    # N in {1024, 4096}, d = 64
    python3 -m bench.gpu --dry-run  # tiny sizes on the CPU, Triton interpreted: checks the script

Needs only torch and triton (the machine's own: it installs nothing) and is run from the
repository root. Sweep: N from 1k to 16k, d in {64, 128}, bf16, fp16 and fp32 (tf32x3 in the
Triton kernel), causal and not, forward and forward+backward. Tokens per batch (B * N = 16k)
and model width (H * d = 2048) are fixed, so every configuration moves the same data.
Providers: the Triton kernel; SDPA as users call it (torch picks the backend); and SDPA
restricted (torch.nn.attention.sdpa_kernel) to its flash, memory-efficient and cuDNN
backends. Before a provider is timed, its output and gradients on a (1, 2, N, d) slice must
match SDPA's float32 math backend in relative norm,
||got - want|| / ||want||, per tensor; the reference is computed once per configuration. A
provider that fails the check, does not support the configuration or raises is reported with
the reason and not timed. Times are medians of CUDA-event timings (triton.testing.do_bench).
Results are written after every configuration, so an interrupted run keeps what it measured.
TFLOP/s are reported twice: useful (the 2 matmuls of the forward, and the 4 of the backward,
dV, dP, dQ, dK) and, for the Triton kernel, executed (its backward recomputes S twice and dP
once more: 7 matmuls).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch
import torch.nn.functional as F

RESULTS = Path(__file__).resolve().parent / "results" / "gpu.json"
SEQ_LENS = (1024, 2048, 4096, 8192, 16384)
HEAD_DIMS = (64, 128)
DTYPES = ("bfloat16", "float16", "float32")
TOKENS, WIDTH = 16384, 2048  # B * N and H * d, fixed across the sweep
MODES = ("fwd", "fwd+bwd")
# Targets for the Triton kernel in 16-bit at N >= 4096, as a ratio of SDPA's TFLOP/s (the
# call users make, torch's own choice of backend): forward, and forward+backward.
TARGET_MIN_N = 4096
TARGETS = {"fwd": 1.0, "fwd+bwd": 0.8}
BUDGET_S = 270  # start no configuration after this many seconds of measuring
# Largest relative-norm error against the float32 math backend, per input dtype.
TOLERANCE = {"float16": 5e-3, "bfloat16": 3e-2, "float32": 1e-4}
# Matmuls of size N_q x N_k x d per call: what the math needs, and what the Triton kernel runs.
USEFUL_MATMULS = {"fwd": 2, "fwd+bwd": 2 + 4}
TRITON_MATMULS = {"fwd": 2, "fwd+bwd": 2 + 7}


def shape_for(N: int, d: int) -> tuple[int, int]:
    """(batch, heads) keeping B * N = 16k tokens and H * d = 2048."""
    return max(1, TOKENS // N), WIDTH // d


def causal_pairs(N_q: int, N_k: int) -> int:
    """Number of (i, j) with j <= i < N_q, j < N_k: the scores a causal kernel computes."""
    if N_q <= N_k:
        return N_q * (N_q + 1) // 2
    return N_k * (N_k + 1) // 2 + (N_q - N_k) * N_k


def attention_flops(
    B: int, H: int, N_q: int, N_k: int, d: int, *, causal: bool, matmuls: int
) -> int:
    """FLOPs of `matmuls` products of size N_q x N_k x d (2 FLOPs per multiply-add)."""
    pairs = causal_pairs(N_q, N_k) if causal else N_q * N_k
    return matmuls * 2 * B * H * pairs * d


def tflops(flops: float, ms: float) -> float:
    """FLOPs done in ms milliseconds, as TFLOP/s."""
    return flops / (ms * 1e-3) / 1e12


def sweep(quick: bool = False, dry_run: bool = False) -> list[dict]:
    """Every configuration of the sweep, as dicts (N, d, dtype, causal, batch, heads)."""
    if dry_run:  # tiny, on the CPU through the interpreter
        return [
            {"N": N, "d": 16, "dtype": dtype, "causal": causal, "batch": 1, "heads": 2}
            for dtype in ("float32", "bfloat16")
            for causal in (False, True)
            for N in (64, 96)
        ]
    seq_lens, head_dims = ((1024, 4096), (64,)) if quick else (SEQ_LENS, HEAD_DIMS)
    return [
        {"N": N, "d": d, "dtype": dtype, "causal": causal, "batch": B, "heads": H}
        for dtype in DTYPES
        for d in head_dims
        for causal in (False, True)
        for N in seq_lens
        for B, H in [shape_for(N, d)]
    ]


def reason(exc: BaseException) -> str:
    """A one-line reason for a failure, whatever the exception holds."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0][:100]}" if lines else type(exc).__name__


def relative_error(got: torch.Tensor, want: torch.Tensor) -> float:
    """||got - want|| / ||want|| in float32 (nan if got is not finite)."""
    got, want = got.float(), want.float()
    if not torch.isfinite(got).all():
        return float("nan")
    return ((got - want).norm() / want.norm().clamp_min(1e-30)).item()


def format_table(rows: list[dict]) -> str:
    """Fixed-width table of useful TFLOP/s (or the reason a cell was not timed)."""
    lines = [f"{'dtype':<9} {'d':>3} {'causal':<6} {'N':>6} {'mode':<8} {'provider':<15} TFLOP/s"]
    for r in rows:
        cell = f"{r['tflops']:7.1f}" if r.get("tflops") is not None else f"  -  {r['status']}"
        lines.append(
            f"{r['dtype']:<9} {r['d']:>3} {r['causal']!s:<6} {r['N']:>6} {r['mode']:<8} "
            f"{r['provider']:<15} {cell}"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------- device side
def providers() -> dict[str, Callable]:
    """name -> fn(q, k, v, causal): the Triton kernel and each SDPA backend this torch has."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from snippets.kernels import triton_attention

    def sdpa_with(backend):
        def run(q, k, v, causal):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

        return run

    found = {
        "triton": lambda q, k, v, causal: triton_attention.attention(q, k, v, causal=causal),
        "sdpa": lambda q, k, v, causal: F.scaled_dot_product_attention(q, k, v, is_causal=causal),
    }
    for name, backend in (
        ("sdpa-flash", "FLASH_ATTENTION"),
        ("sdpa-efficient", "EFFICIENT_ATTENTION"),
        ("sdpa-cudnn", "CUDNN_ATTENTION"),
    ):
        if hasattr(SDPBackend, backend):
            found[name] = sdpa_with(getattr(SDPBackend, backend))
    return found


def reference(cfg: dict, device: str) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """Inputs (q, k, v, dO) of a (1, 2, N, d) slice, and SDPA's float32 math answer on them."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    gen = torch.Generator(device=device).manual_seed(0)
    shape = (1, 2, cfg["N"], cfg["d"])
    dtype = getattr(torch, cfg["dtype"])
    inputs = [torch.randn(shape, device=device, generator=gen).to(dtype) for _ in range(4)]
    want = [x.float().requires_grad_() for x in inputs[:3]]
    with sdpa_kernel(SDPBackend.MATH):
        out = F.scaled_dot_product_attention(*want, is_causal=cfg["causal"])
    return inputs, [out, *torch.autograd.grad(out, want, inputs[3].float())]


def check(fn, cfg: dict, inputs, want) -> str | None:
    """None if fn matches the reference in relative norm on every tensor, else why not."""
    q, k, v, dO = inputs
    args = [x.clone().requires_grad_() for x in (q, k, v)]
    out = fn(*args, cfg["causal"])
    got = [out, *torch.autograd.grad(out, args, dO)]
    for name, g, w in zip(("out", "dq", "dk", "dv"), got, want, strict=True):
        err = relative_error(g, w)
        if not err <= TOLERANCE[cfg["dtype"]]:  # also catches nan
            return f"check failed: {name} relative error {err:.3g}"
    return None


def cuda_timer(fn: Callable[[], object]) -> float:
    """Median milliseconds of fn, from CUDA events."""
    from triton.testing import do_bench

    return do_bench(fn, warmup=10, rep=50, return_mode="median")


def cpu_timer(fn: Callable[[], object]) -> float:
    """Median milliseconds of fn over a few calls (the dry run's stand-in for CUDA events)."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        fn()
        times.append(1e3 * (time.perf_counter() - start))
    return statistics.median(times)


def measure(fn, cfg: dict, mode: str, device: str, timer) -> float:
    """Milliseconds of one call (forward, or forward and backward) at the full shape."""
    shape = (cfg["batch"], cfg["heads"], cfg["N"], cfg["d"])
    dtype = getattr(torch, cfg["dtype"])
    q, k, v = (torch.randn(shape, device=device, dtype=dtype, requires_grad=True) for _ in "qkv")
    if mode == "fwd":
        with torch.no_grad():
            return timer(lambda: fn(q, k, v, cfg["causal"]))
    dO = torch.randn_like(q)

    def step():
        q.grad = k.grad = v.grad = None
        fn(q, k, v, cfg["causal"]).backward(dO)

    return timer(step)


def _digits(x: float) -> float:
    """Four significant digits: what a median of a few timings is worth."""
    return float(f"{x:.4g}")


def timed_row(fn, cfg: dict, mode: str, provider: str, device: str, timer) -> dict:
    """One measurement: milliseconds and TFLOP/s, or why it failed."""
    row = {**cfg, "mode": mode, "provider": provider, "status": "ok"}
    try:
        ms = measure(fn, cfg, mode, device, timer)
    except Exception as exc:  # a launch can fail at this size only (memory, resources)
        return {**row, "status": f"failed: {reason(exc)}"}
    size = dict(B=cfg["batch"], H=cfg["heads"], N_q=cfg["N"], N_k=cfg["N"], d=cfg["d"])
    useful = attention_flops(**size, causal=cfg["causal"], matmuls=USEFUL_MATMULS[mode])
    row.update(ms=_digits(ms), tflops=_digits(tflops(useful, ms)))
    if provider == "triton":
        done = attention_flops(**size, causal=cfg["causal"], matmuls=TRITON_MATMULS[mode])
        row["executed_tflops"] = _digits(tflops(done, ms))
    return row


def run(configs: list[dict], device: str, timer, write: Callable[[list[dict]], None]) -> list:
    """Check, then time, every provider on every configuration; write after each one."""
    rows, start = [], time.monotonic()
    for cfg in configs:
        if time.monotonic() - start > BUDGET_S:
            print(f"time budget of {BUDGET_S} s spent: {cfg} and later not run", flush=True)
            break
        try:
            inputs, want = reference(cfg, device)
            failure = None
        except Exception as exc:  # one configuration may fail; the run goes on
            inputs, want, failure = None, None, f"reference failed: {reason(exc)}"
        for provider, fn in providers().items():
            try:
                status = failure or check(fn, cfg, inputs, want)
            except Exception as exc:  # "No available kernel", OutOfResources, compile errors
                status = f"unsupported: {reason(exc)}"
            for mode in MODES:
                if status is None:
                    row = timed_row(fn, cfg, mode, provider, device, timer)
                else:
                    row = {**cfg, "mode": mode, "provider": provider, "status": status}
                rows.append(row)
                print(format_table([row]).splitlines()[-1], flush=True)
        write(rows)
        if device == "cuda":
            torch.cuda.empty_cache()
    return rows


def machine(device: str) -> dict:
    """What ran the benchmark."""
    import triton

    gpu = (
        torch.cuda.get_device_name(0)
        if device == "cuda"
        else f"none ({platform.processor() or 'cpu'}, dry run)"
    )
    return {
        "gpu": gpu,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "triton": triton.__version__,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the sweep, print a table, write the JSON (after every configuration)."""
    parser = argparse.ArgumentParser(
        prog="python3 -m bench.gpu", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="N in {1024, 4096}, d = 64 only")
    parser.add_argument("--dry-run", action="store_true", help="tiny sizes on the CPU")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON path (default {RESULTS})")
    args = parser.parse_args(argv)
    if args.dry_run:
        if "triton" in sys.modules and not os.environ.get("TRITON_INTERPRET"):
            raise SystemExit("--dry-run needs TRITON_INTERPRET=1 set before triton is imported")
        os.environ.setdefault("TRITON_INTERPRET", "1")
        device, timer = "cpu", cpu_timer
    elif torch.cuda.is_available():
        device, timer = "cuda", cuda_timer
    else:
        raise SystemExit(
            "bench.gpu needs a CUDA GPU, and torch.cuda.is_available() is False here. "
            "Check the script with --dry-run, or measure the CPU: python -m bench.cpu"
        )
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(device),
        "settings": {"quick": args.quick, "dry_run": args.dry_run, "budget_s": BUDGET_S},
        "method": __doc__.split("\n\n", 2)[2].strip(),
        "results": [],
    }

    def write(rows: list[dict]) -> None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({**report, "results": rows}, indent=2) + "\n")

    rows = run(sweep(args.quick, args.dry_run), device, timer, write)
    print(format_table(rows))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
