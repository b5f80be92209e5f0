"""Tile sweep on a GPU: the Triton kernel's default tiles against candidates (a few minutes).

    python3 -m bench.tiles   # bf16, d in {64, 128}, N in {4096, 16384} -> bench/results/tiles.json

Times the Hopper tiles `config()` returns against candidates (larger tiles, which spill at
d = 128, smaller ones, and the default again, to show the run-to-run spread), in bf16 with the
same shapes as bench.gpu (B * N = 16k tokens, H * d = 2048), non-causal, median of CUDA-event
timings. Each candidate is checked against the default's output first (relative norm < 1e-2)
and reported with the reason when it fails to launch.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import sys
import time
from pathlib import Path

import torch

from bench.gpu import (
    MODES,
    USEFUL_MATMULS,
    attention_flops,
    cuda_timer,
    machine,
    measure,
    reason,
    relative_error,
    shape_for,
    tflops,
)

RESULTS = Path(__file__).resolve().parent / "results" / "tiles.json"
BUDGET_S = 150


def candidates() -> list:
    """Tiles to time beside the default: larger ones (they spill at d = 128), smaller ones, and
    the default itself again."""
    from snippets.kernels.triton_attention import Config

    return [
        Config(128, 128, 32, 128, 128, 32, num_warps=8),
        Config(128, 128, 32, 64, 64, 32, num_warps=8, num_warps_bwd=4),
        Config(128, 64, 32, 64, 64, 32, num_warps=8, num_warps_bwd=4),
        Config(128, 64, 16, 64, 64, 16, num_warps=8, num_warps_bwd=4),
        Config(64, 64, 32, 64, 64, 32, num_warps=4),
        Config(64, 64, 16, 64, 64, 16, num_warps=4),
        Config(64, 64, 32, 32, 64, 32, num_warps=8),
    ]


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    """The kernel's call, with whatever config() returns at the time."""
    from snippets.kernels import triton_attention as ta

    return ta.attention(q, k, v, causal=causal)


def main() -> int:
    """Time the default and every candidate; write the JSON after each shape."""
    if not torch.cuda.is_available():
        raise SystemExit("bench.tiles times the Triton kernel on a CUDA GPU; there is none here")
    from snippets.kernels import triton_attention as ta

    default_config = ta.config
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine("cuda"),
        "method": __doc__.split("\n\n", 2)[2].strip(),
        "results": [],
    }
    start, rows = time.monotonic(), []
    for d in (64, 128):
        for N in (4096, 16384):
            if time.monotonic() - start > BUDGET_S:
                break
            B, H = shape_for(N, d)
            q, k, v = (
                torch.randn(B, H, N, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)
                for _ in "qkv"
            )
            with torch.no_grad():
                want = ta.attention(q, k, v)
            default = default_config(d, torch.bfloat16, ta.device_smem(q.device))
            for i, cfg in enumerate([default, *candidates()]):
                ta.config = lambda *_, cfg=cfg: cfg
                row = {"d": d, "N": N, "default": i == 0, "config": dataclasses.asdict(cfg)}
                try:
                    with torch.no_grad():
                        err = relative_error(ta.attention(q, k, v), want)
                    if not err < 1e-2:
                        raise RuntimeError(f"output differs from the default's: {err:.3g}")
                    shape = {"N": N, "d": d, "dtype": "bfloat16", "causal": False}
                    for mode in MODES:
                        ms = measure(
                            run, {**shape, "batch": B, "heads": H}, mode, "cuda", cuda_timer
                        )
                        flops = attention_flops(
                            B, H, N, N, d, causal=False, matmuls=USEFUL_MATMULS[mode]
                        )
                        row[mode] = {"ms": round(ms, 4), "tflops": round(tflops(flops, ms), 1)}
                except Exception as exc:  # OutOfResources, compile errors: report, go on
                    row["status"] = f"failed: {reason(exc)}"
                finally:
                    ta.config = default_config
                rows.append(row)
                print(json.dumps(row), flush=True)
            out = Path(sys.argv[1]) if len(sys.argv) > 1 else RESULTS
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps({**report, "results": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
