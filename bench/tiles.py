"""Tile sweep on a GPU: every tile configuration the Triton kernel autotunes over on Hopper, the
forward and the backward timed apart (a few minutes).

    python3 -m bench.tiles   # bf16, d in {64, 128}, N in {4096, 16384}, causal and not
                             # -> bench/results/tiles.json

For each shape (bench.gpu's: B * N = 16k tokens, H * d = 2048), the forward kernel is timed
with each of its configurations alone (the autotuner bypassed), and the backward pass with
each backward configuration (after one forward with the first forward configuration): the
two choices are independent, so they are compared apart. Every configuration is first
checked against SDPA's output and gradients (relative norm < 1e-2), then timed in 25 rounds,
each timing every configuration once in a fresh random order, with bench.gpu's timer (CUDA
events after an L2 flush); the shapes run in random order. Reported per shape and
configuration: every timing, the median and the spread (interquartile range over the median).
A configuration beats another at a shape only if its median is faster by more than both their
spreads.
"""

from __future__ import annotations

import datetime
import json
import random
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

from bench.gpu import (
    ROUNDS,
    CudaTimer,
    machine,
    reason,
    relative_error,
    shape_for,
    summary,
    tflops,
)
from snippets.figures.bench_results import attention_flops, kernel_fingerprint

RESULTS = Path(__file__).resolve().parent / "results" / "tiles.json"
BUDGET_S = 300
SHAPES = [(d, N, causal) for d in (64, 128) for N in (4096, 16384) for causal in (False, True)]


def spaces(d: int) -> dict[str, list]:
    """kernel ("fwd", "bwd") -> the Hopper bf16 tiles the autotuner chooses from."""
    from snippets.kernels import triton_attention as T

    return {
        "fwd": T.forward_space(d, torch.bfloat16, "sm_90"),
        "bwd": T.backward_space(d, torch.bfloat16, "sm_90"),
    }


def pinned(kernel: str, tiles, calls):
    """A call that runs with `tiles` for `kernel` (the other kernel keeps its first tiles)."""
    from snippets.kernels import triton_attention as T

    def run():
        saved = T.forward_space, T.backward_space
        first = {k: space[0] for k, space in spaces(calls["d"]).items()}
        first[kernel] = tiles
        T.forward_space = lambda *_: [first["fwd"]]
        T.backward_space = lambda *_: [first["bwd"]]
        try:
            return calls[kernel]()
        finally:
            T.forward_space, T.backward_space = saved

    return run


def shape_calls(d: int, N: int, causal: bool) -> dict:
    """The forward and the backward alone at one shape, and what SDPA gives there."""
    from snippets.kernels import triton_attention as T

    B, H = shape_for(N, d)
    q, k, v = (
        torch.randn(B, H, N, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        for _ in "qkv"
    )
    dO = torch.randn_like(q)
    state = {}

    def forward():
        with torch.no_grad():
            return T.attention(q, k, v, causal=causal)

    def backward():
        if "out" not in state:  # one forward, then only the backward is timed
            state["out"] = T.attention(q, k, v, causal=causal)
        return torch.autograd.grad(state["out"], (q, k, v), dO, retain_graph=True)[0]

    with torch.no_grad():
        want_out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    q2 = q.detach().clone().requires_grad_()
    out = F.scaled_dot_product_attention(q2, k.detach(), v.detach(), is_causal=causal)
    want_dq = torch.autograd.grad(out, q2, dO)[0]
    return {"d": d, "fwd": forward, "bwd": backward, "want": {"fwd": want_out, "bwd": want_dq},
            "size": (B, H)}  # fmt: skip


def measure_shape(d: int, N: int, causal: bool, timer, rng: random.Random) -> list[dict]:
    """Check, then time in interleaved rounds, every configuration at one shape."""
    calls = shape_calls(d, N, causal)
    cells, rows = {}, []
    for kernel, space in spaces(d).items():
        for tiles in space:
            row = {"d": d, "N": N, "causal": causal, "kernel": kernel, "tiles": tiles.__dict__}
            run = pinned(kernel, tiles, calls)
            try:
                err = relative_error(run(), calls["want"][kernel])
                if not err < 1e-2:
                    raise RuntimeError(f"differs from SDPA: relative error {err:.3g}")
                cells[len(rows)] = (run, [])
            except Exception as exc:  # OutOfResources, compile errors: report, go on
                row["status"] = f"failed: {reason(exc)}"
            rows.append(row)
    for _ in range(ROUNDS):
        order = list(cells)
        rng.shuffle(order)
        for i in order:
            cells[i][1].append(timer(cells[i][0]))
    B, H = calls["size"]
    for i, (_, times) in cells.items():
        row = rows[i]
        row.update(status="ok", times_ms=[round(t, 4) for t in times], **summary(times))
        flops = attention_flops(B, H, N, N, d, causal=causal, mode=row["kernel"])
        row["tflops"] = round(tflops(flops, row["ms"]), 1)
    return rows


def main() -> int:
    """Check and time every configuration at every shape; write the JSON after each shape."""
    if not torch.cuda.is_available():
        raise SystemExit("bench.tiles times the Triton kernel on a CUDA GPU; there is none here")
    timer, rng = CudaTimer(), random.Random(0)
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine("cuda"),
        "kernel": {"ast_sha256": kernel_fingerprint()},
        "settings": {"rounds": ROUNDS, "seed": 0, "dtype": "bfloat16"},
        "method": __doc__.split("\n\n", 2)[2].strip(),
        "results": [],
    }
    shapes = list(SHAPES)
    rng.shuffle(shapes)
    start, rows = time.monotonic(), []
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else RESULTS
    for d, N, causal in shapes:
        if time.monotonic() - start > BUDGET_S:
            print(f"time budget of {BUDGET_S} s spent: d={d}, N={N} and later not run")
            break
        new = measure_shape(d, N, causal, timer, rng)
        rows += new
        for row in new:
            print(json.dumps({k: v for k, v in row.items() if k != "times_ms"}), flush=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({**report, "results": rows}, indent=1) + "\n")
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
