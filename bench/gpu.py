"""GPU benchmark: the Triton kernel against PyTorch SDPA's backends, in TFLOP/s (about 8 minutes).

    python3 -m bench.gpu            # the sweep on the first CUDA device -> bench/results/gpu.json
    python3 -m bench.gpu --quick    # N in {1024, 4096}, d = 128, bfloat16 (a few minutes)
    python3 -m bench.gpu --dry-run  # tiny sizes on the CPU, Triton interpreted: checks the script

Needs only torch and triton (the machine's own: it installs nothing) and is run from the
repository root. Sweep: N from 1k to 16k, d in {64, 128}, causal and not, bfloat16 then float16
(--dtypes adds float32), forward and forward+backward, with B * N = 16k tokens and H * d = 2048
(FlashAttention-2's benchmark setting, section 4.1), so that every shape moves the same data.
Providers: the Triton kernel; SDPA as users call it (torch picks the backend); and SDPA
restricted (torch.nn.attention.sdpa_kernel) to its flash, memory-efficient and cuDNN backends.
TFLOP/s follow FlashAttention's convention: the forward counts 4 N_q N_k d per head (two
matrix products), half of it with a causal mask, and the backward 2.5 times the forward (five
products, the recomputation of S included), so forward+backward is 3.5 times the forward.
Order: the shapes of each dtype in random order (the seed is recorded), bfloat16 first; for
each shape, every provider is warmed up with 3 calls at the full size (the Triton kernel
compiles and autotunes there), then checked on a (1, 2, N, d) slice against SDPA's float32
math backend, in relative norm ||got - want|| / ||want|| per tensor (a provider that fails the
check, does not support the shape or raises is reported with the reason and not timed); then
25 rounds, each timing every (provider, mode) once in a fresh random order. Each call is timed
alone with CUDA events after the L2 cache is flushed (a 256 MB write, as
triton.testing.do_bench does). Reported per provider and mode: every timing, their median
and their spread (interquartile range over the median); per provider and mode, the ratio to
SDPA's default call as the median of the per-round ratios, with their quartiles. Results are
written after every shape; no shape is started once a time budget is spent.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch
import torch.nn.functional as F

from snippets.figures.bench_results import attention_flops, kernel_fingerprint

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "gpu.json"
KERNEL_SOURCE = ROOT / "snippets" / "kernels" / "triton_attention.py"
SEQ_LENS = (1024, 2048, 4096, 8192, 16384)
HEAD_DIMS = (64, 128)
DTYPES = ("bfloat16", "float16")  # float32 on request (--dtypes)
TOKENS, WIDTH = 16384, 2048  # B * N and H * d, fixed across the sweep
MODES = ("fwd", "fwd+bwd")
ROUNDS, WARMUP = 25, 3  # timed calls per (provider, mode) and shape; calls before them
DRY_ROUNDS = 2  # the dry run checks the code, not the numbers
FLUSH_BYTES = 256 * 2**20  # written before each timed call, as triton.testing.do_bench does
BUDGET_S = 420  # start no shape after this many seconds
# Targets for the Triton kernel at N >= 4096, as a ratio of SDPA's default call (forward,
# forward+backward), and at N = 1024 (both modes).
TARGET_MIN_N = 4096
TARGETS = {"fwd": 1.0, "fwd+bwd": 0.8}
SHORT_N, SHORT_TARGET = 1024, 0.6
# Largest relative-norm error against the float32 math backend, per input dtype.
TOLERANCE = {"float16": 5e-3, "bfloat16": 3e-2, "float32": 1e-4}


def shape_for(N: int, d: int) -> tuple[int, int]:
    """(batch, heads) keeping B * N = 16k tokens and H * d = 2048."""
    return max(1, TOKENS // N), WIDTH // d


def tflops(flops: float, ms: float) -> float:
    """FLOPs done in ms milliseconds, as TFLOP/s."""
    return flops / (ms * 1e-3) / 1e12


def sweep(quick: bool = False, dry_run: bool = False, dtypes=DTYPES, seed: int = 0) -> list:
    """The shapes to run, as dicts (N, d, dtype, causal, batch, heads): each dtype's shapes in
    random order, the dtypes in the order given."""
    if dry_run:  # tiny, on the CPU through the interpreter
        seq_lens, head_dims, dtypes = (64, 96), (16,), ("float32", "bfloat16")
    elif quick:
        seq_lens, head_dims, dtypes = (1024, 4096), (128,), ("bfloat16",)
    else:
        seq_lens, head_dims = SEQ_LENS, HEAD_DIMS
    rng = random.Random(seed)
    shapes = []
    for dtype in dtypes:
        group = [
            {"N": N, "d": d, "dtype": dtype, "causal": causal, "batch": B, "heads": H}
            for d in head_dims
            for causal in (False, True)
            for N in seq_lens
            for B, H in [(1, 2) if dry_run else shape_for(N, d)]
        ]
        rng.shuffle(group)
        shapes += group
    return shapes


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


def quartiles(xs: list[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile), interpolated."""
    if len(xs) == 1:
        return xs[0], xs[0], xs[0]
    q1, q2, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return q1, q2, q3


def summary(times_ms: list[float]) -> dict:
    """Median and spread (interquartile range over the median) of one cell's timings."""
    q1, median, q3 = quartiles(times_ms)
    return {"ms": _digits(median), "spread": round((q3 - q1) / median, 4)}


def _digits(x: float) -> float:
    return float(f"{x:.4g}")


def format_table(rows: list[dict]) -> str:
    """Fixed-width table: TFLOP/s, spread and ratio to SDPA (or why a cell was not timed)."""
    head = f"{'dtype':<9} {'d':>3} {'causal':<6} {'N':>6} {'mode':<8} {'provider':<15}"
    lines = [f"{head} TFLOP/s  spread  x SDPA"]
    for r in rows:
        if r.get("tflops") is None:
            cell = f"  -  {r['status']}"
        else:
            ratio = r.get("ratio_to_sdpa")
            cell = f"{r['tflops']:7.1f} {100 * r['spread']:6.1f}% " + (
                f"{ratio['median']:6.2f}" if ratio else "     -"
            )
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


class CudaTimer:
    """Milliseconds of one call, from CUDA events, after flushing the L2 cache."""

    rounds, warmup = ROUNDS, WARMUP

    def __init__(self):
        self.flush = torch.empty(FLUSH_BYTES, dtype=torch.int8, device="cuda")
        self.start, self.end = (torch.cuda.Event(enable_timing=True) for _ in range(2))

    def __call__(self, fn: Callable[[], object]) -> float:
        self.flush.zero_()
        self.start.record()
        fn()
        self.end.record()
        torch.cuda.synchronize()
        return self.start.elapsed_time(self.end)


class CpuTimer:
    """The dry run's stand-in: wall-clock milliseconds of one call."""

    rounds, warmup = DRY_ROUNDS, 1

    def __call__(self, fn: Callable[[], object]) -> float:
        start = time.perf_counter()
        fn()
        return 1e3 * (time.perf_counter() - start)


def calls(fn, cfg: dict, device: str) -> dict[str, Callable[[], object]]:
    """mode -> a no-argument call of fn at the full shape (inputs made once)."""
    shape = (cfg["batch"], cfg["heads"], cfg["N"], cfg["d"])
    dtype = getattr(torch, cfg["dtype"])
    q, k, v = (torch.randn(shape, device=device, dtype=dtype, requires_grad=True) for _ in "qkv")
    dO = torch.randn(shape, device=device, dtype=dtype)

    def forward():
        with torch.no_grad():
            fn(q, k, v, cfg["causal"])

    def forward_backward():
        torch.autograd.grad(fn(q, k, v, cfg["causal"]), (q, k, v), dO)

    return {"fwd": forward, "fwd+bwd": forward_backward}


def measure_shape(cfg: dict, fns: dict, device: str, timer, rng: random.Random) -> list[dict]:
    """Warm up, check, then time every provider and mode of one shape in interleaved rounds."""
    rows, cells = {}, {}
    try:
        inputs, want = reference(cfg, device)
        failure = None
    except Exception as exc:  # one shape may fail; the run goes on
        inputs, want, failure = None, None, f"reference failed: {reason(exc)}"
    for provider, fn in fns.items():
        status = failure
        try:
            if status is None:
                modes = calls(fn, cfg, device)
                for call in modes.values():
                    for _ in range(timer.warmup):  # compiles and autotunes at the full size
                        call()
                status = check(fn, cfg, inputs, want)
        except Exception as exc:  # "No available kernel", OutOfResources, compile errors
            status = f"unsupported: {reason(exc)}"
        for mode in MODES:
            rows[provider, mode] = {**cfg, "mode": mode, "provider": provider, "status": status}
            if status is None:
                cells[provider, mode] = (modes[mode], [])
    for _ in range(timer.rounds):
        order = list(cells)
        rng.shuffle(order)
        for key in order:
            call, times = cells[key]
            try:
                times.append(timer(call))
            except Exception as exc:  # a launch can fail at this size only (memory)
                rows[key]["status"] = f"failed: {reason(exc)}"
                del cells[key]
    size = dict(B=cfg["batch"], H=cfg["heads"], N_q=cfg["N"], N_k=cfg["N"], d=cfg["d"])
    for (provider, mode), (_, times) in cells.items():
        row = rows[provider, mode]
        row.update(status="ok", times_ms=[_digits(t) for t in times], **summary(times))
        flops = attention_flops(**size, causal=cfg["causal"], mode=mode)
        row["tflops"] = _digits(tflops(flops, row["ms"]))
        if ("sdpa", mode) in cells:
            sdpa = cells["sdpa", mode][1]
            per_round = [b / a for a, b in zip(times, sdpa, strict=True)]  # speed ratio
            q1, median, q3 = quartiles(per_round)
            row["ratio_to_sdpa"] = {"median": round(median, 4), "q1": round(q1, 4),
                                    "q3": round(q3, 4)}  # fmt: skip
    return list(rows.values())


def run(shapes: list[dict], device: str, timer, write: Callable[[list[dict]], None],
        seed: int = 0, budget_s: float = BUDGET_S) -> list[dict]:  # fmt: skip
    """Measure every shape (until the budget is spent), writing the rows after each one."""
    rows, start, rng = [], time.monotonic(), random.Random(seed + 1)
    fns = providers()
    for cfg in shapes:
        if time.monotonic() - start > budget_s:
            print(f"time budget of {budget_s} s spent: {cfg} and later not run", flush=True)
            break
        new = measure_shape(cfg, fns, device, timer, rng)
        rows += new
        print(format_table(new).split("\n", 1)[1], flush=True)
        write(rows)
        if device == "cuda":
            torch.cuda.empty_cache()
    return rows


def tuned_choices() -> list[dict]:
    """What the Triton kernel's autotuners chose, per kernel and key (sequence lengths, causal,
    the tensors' dtypes)."""
    from snippets.kernels import triton_attention as T

    return [
        {
            "kernel": tuner.base_fn.__name__,
            "key": [str(x) for x in key],
            "config": {
                **config.kwargs,
                "num_warps": config.num_warps,
                "num_stages": config.num_stages,
            },
        }
        for tuner in T.TUNERS.values()
        for key, config in tuner.cache.items()
    ]


def machine(device: str) -> dict:
    """What ran the benchmark."""
    import triton

    info = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "triton": triton.__version__,
    }
    if device == "cuda":
        props = torch.cuda.get_device_properties(0)
        info.update(gpu=props.name, capability=f"{props.major}.{props.minor}",
                    sms=props.multi_processor_count)  # fmt: skip
    else:
        info["gpu"] = f"none ({platform.processor() or 'cpu'}, dry run)"
    return info


def main(argv: list[str] | None = None) -> int:
    """Run the sweep, print a table, write the JSON (after every shape)."""
    parser = argparse.ArgumentParser(
        prog="python3 -m bench.gpu", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="N in {1024, 4096}, d = 128, bf16")
    parser.add_argument("--dry-run", action="store_true", help="tiny sizes on the CPU")
    parser.add_argument("--dtypes", default=",".join(DTYPES), help="comma-separated, in order")
    parser.add_argument("--seed", type=int, default=0, help="the order of shapes and rounds")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON path (default {RESULTS})")
    args = parser.parse_args(argv)
    if args.dry_run:
        if "triton" in sys.modules and not os.environ.get("TRITON_INTERPRET"):
            raise SystemExit("--dry-run needs TRITON_INTERPRET=1 set before triton is imported")
        os.environ.setdefault("TRITON_INTERPRET", "1")
        device, timer = "cpu", CpuTimer()
    elif torch.cuda.is_available():
        device, timer = "cuda", CudaTimer()
    else:
        raise SystemExit(
            "bench.gpu needs a CUDA GPU, and torch.cuda.is_available() is False here. "
            "Check the script with --dry-run, or measure the CPU: python -m bench.cpu"
        )
    dtypes = tuple(args.dtypes.split(","))
    if not set(dtypes) <= set(TOLERANCE):
        raise SystemExit(f"--dtypes {args.dtypes!r}: choose from {', '.join(TOLERANCE)}")
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(device),
        "kernel": {
            "source": str(KERNEL_SOURCE.relative_to(ROOT)),
            "ast_sha256": kernel_fingerprint(),
        },
        "settings": {
            "quick": args.quick,
            "dry_run": args.dry_run,
            "dtypes": list(dtypes),
            "seed": args.seed,
            "rounds": timer.rounds,
            "warmup": timer.warmup,
            "budget_s": BUDGET_S,
            "flops": "flashattention",
        },
        "method": __doc__.split("\n\n", 2)[2].strip(),
        "results": [],
    }

    def write(rows: list[dict]) -> None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({**report, "results": rows}, indent=1) + "\n")

    shapes = sweep(args.quick, args.dry_run, dtypes, args.seed)
    rows = run(shapes, device, timer, write, args.seed)
    report["autotuned"] = tuned_choices()
    write(rows)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
