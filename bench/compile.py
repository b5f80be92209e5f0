"""Compile every Triton kernel the wrapper can launch for NVIDIA GPUs, on a machine without one.

    python -m bench.compile           # every configuration -> bench/results/compile.json
    python -m bench.compile --quick   # a representative subset, printed (and --out to write)
    python -m bench.compile --only sm_90:128:bfloat16:causal:fwd   # one kernel, printed

For each target (a compute capability and its shared memory per block), head size d, dtype
and causal flag, every tile configuration the wrapper may launch on such a device (each one
the autotuner may pick) is compiled by Triton's own compiler with a CUDA target; triton's
wheel ships ptxas and nvdisasm. On sm_90 the 16-bit forward reads Q, K and V through tensor
descriptors, as the wrapper does. The backward is compiled for key counts that are a multiple
of its tile and, without a causal mask, for ragged ones (a masked variant). Recorded per
kernel: registers per thread and spill bytes (ptxas -v), shared memory, the warps launched,
and from the machine code (nvdisasm): tensor-core instructions (HGMMA on sm_90, HMMA),
TMA loads (UTMALDG) and register reallocation between warpgroups (USETMAXREG), the mark of
warp specialisation. Runs in its own process so that triton is imported without its CPU
interpreter.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.pop("TRITON_INTERPRET", None)  # compile, do not interpret
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # triton 3.9's default, said aloud
if "triton" in sys.modules:
    raise SystemExit("bench.compile must import triton itself: run it as its own process")

import torch
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia.compiler import get_ptxas

from bench.compile_jobs import DTYPES, TARGETS, configurations, jobs_for, uses_tma
from snippets.kernels import triton_attention as T

RESULTS = Path(__file__).resolve().parent / "results" / "compile.json"
KERNELS = ("fwd", "bwd_preprocess", "bwd")
BIN = Path(triton.__file__).parent / "backends" / "nvidia" / "bin"


def _signature(kernel: str, dtype: str, d: int, tiles: T.Tiles | None, tma: bool) -> tuple:
    """(jit function, argument types) of one kernel."""
    ptr, acc = f"*{DTYPES[dtype]}", "*fp32"
    scalars = dict(scale="fp32", c="fp32", N_Q="i32", N_K="i32", H="i32")
    if kernel == "fwd":
        if tma:
            box = lambda rows: f"tensordesc<{DTYPES[dtype]}[1,{rows},{d}]>"  # noqa: E731
            qkv = dict(Q=box(tiles.BLOCK_M), K=box(tiles.BLOCK_N), V=box(tiles.BLOCK_N))
        else:
            qkv = dict(Q=ptr, K=ptr, V=ptr)
        return T._attn_fwd, dict(**qkv, O=ptr, LSE=acc, **scalars)
    if kernel == "bwd_preprocess":
        return T._attn_bwd_preprocess, dict(O=ptr, DO=ptr, DLSE=acc, D=acc, DQ=acc, N_Q="i32",
                                            H="i32")  # fmt: skip
    tensors = dict(Q=ptr, K=ptr, V=ptr, DO=ptr, LSE=acc, D=acc, DQ=acc, DK=ptr, DV=ptr)
    return T._attn_bwd.fn, dict(**tensors, **scalars)  # the jit function under the heuristic


def _constexprs(kernel: str, dtype: str, d: int, causal: bool, tiles, tma: bool, even: bool):
    args = T.launch_args(getattr(torch, dtype), d)
    if kernel == "fwd":
        return dict(args, **tiles.meta(), CAUSAL=causal, TMA=tma)
    if kernel == "bwd_preprocess":
        return dict(HEAD_DIM=d, BLOCK_M=T.PREPROCESS_ROWS, HAS_DLSE=False, UPCAST=False,
                    ACC=tl.float32)  # fmt: skip
    return dict(args, **tiles.meta(), CAUSAL=causal, EVEN_N=even)


def ptxas_usage(ptx: str, cc: int) -> dict:
    """Registers and spill bytes that ptxas (the one triton uses for `cc`) reports."""
    arch = re.search(r"^\.target\s+(\S+)", ptx, re.M).group(1)
    ptxas = get_ptxas(cc).path
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernel.ptx"
        path.write_text(ptx)
        log = subprocess.run(
            [ptxas, f"-arch={arch}", "-v", str(path), "-o", str(path.with_suffix(".o"))],
            capture_output=True, text=True, check=True,
        ).stderr  # fmt: skip
    regs = int(re.search(r"Used (\d+) registers", log).group(1))
    stores = int(re.search(r"(\d+) bytes spill stores", log).group(1))
    loads = int(re.search(r"(\d+) bytes spill loads", log).group(1))
    return {"registers": regs, "spill_bytes": stores + loads}


def sass_counts(cubin: bytes) -> dict:
    """Instructions of interest in the machine code: tensor-core products, TMA loads and
    register reallocation (setmaxnreg, used by warp-specialised kernels)."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as fh:
        fh.write(cubin)
        fh.flush()
        sass = subprocess.run(
            [BIN / "nvdisasm", fh.name], capture_output=True, text=True, check=True
        ).stdout
    count = lambda pattern: len(re.findall(pattern, sass))  # noqa: E731
    return {
        "tensor_core_dots": count(r"\bH(?:G)?MMA\b"),
        "hgmma": count(r"\bHGMMA\b"),
        "tma_loads": count(r"\bUTMALDG\b"),
        "setmaxnreg": count(r"\bUSETMAXREG\b"),
    }


def compile_one(target: str, d: int, dtype: str, causal: bool, kernel: str, tiles: dict | None,
                even: bool = True) -> dict:  # fmt: skip
    """Compile one kernel for one configuration; what the compiler and ptxas report."""
    cc, smem, _ = TARGETS[target]
    kind = T.ForwardTiles if kernel == "fwd" else T.BackwardTiles
    t = kind(**tiles) if tiles else None
    tma = kernel == "fwd" and uses_tma(target, dtype)
    fn, signature = _signature(kernel, dtype, d, t, tma)
    constexprs = _constexprs(kernel, dtype, d, causal, t, tma, even)
    signature = {**signature, **dict.fromkeys(constexprs, "constexpr")}
    warps, stages = (t.num_warps, t.num_stages) if t else (4, 3)  # the preprocess: defaults
    compiled = triton.compile(
        triton.compiler.ASTSource(fn=fn, signature=signature, constexprs=constexprs),
        target=GPUTarget("cuda", 10 * cc[0] + cc[1], 32),
        options=dict(num_warps=warps, num_stages=stages),
    )
    row = dict(target=target, d=d, dtype=dtype, causal=causal, kernel=kernel, tiles=tiles)
    if kernel == "bwd":
        row["keys_even"] = even
    row.update(tma=tma, launched_warps=compiled.metadata.num_warps)
    row.update(ptxas_usage(compiled.asm["ptx"], 10 * cc[0] + cc[1]))
    row["shared_bytes"] = compiled.metadata.shared
    row["shared_limit"] = smem
    row.update(sass_counts(compiled.asm["cubin"]))
    return row


def _compile(job: dict) -> dict:
    return compile_one(**job)


def parse_only(text: str) -> list[dict]:
    """`target:d:dtype:causal|full:kernel` as the jobs of that kernel (every tile)."""
    target, d, dtype, mask, kernel = text.split(":")
    if target not in TARGETS or dtype not in DTYPES or kernel not in KERNELS:
        raise SystemExit(f"--only {text!r}: expected target:d:dtype:causal|full:kernel")
    config = dict(target=target, d=int(d), dtype=dtype, causal=mask == "causal")
    return [j for j in jobs_for(config) if j["kernel"] == kernel]


def run(quick: bool, workers: int = 2, only: list[dict] | None = None) -> list[dict]:
    """Compile every kernel of every configuration (the preprocess kernel once per causal pair)
    in `workers` processes, or just the `only` jobs; rows in job order."""
    jobs = only or [
        j
        for c in configurations(quick)
        for j in jobs_for(c, preprocess=quick or not c["causal"])  # the preprocess: causal-free
    ]
    with ProcessPoolExecutor(workers) as pool:
        rows = []
        for row in pool.map(_compile, jobs):
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    """Compile, print one JSON line per kernel, and write the table."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.compile", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="a representative subset")
    parser.add_argument("--out", type=Path, help=f"JSON path (default {RESULTS}, full run only)")
    parser.add_argument("--only", action="append", type=parse_only, help="one kernel (repeatable)")
    args = parser.parse_args(argv)
    only = [job for jobs in args.only for job in jobs] if args.only else None
    rows = run(args.quick, only=only)
    out = args.out or (None if args.quick or args.only else RESULTS)
    if out is not None:
        report = {
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "versions": {"triton": triton.__version__, "torch": torch.__version__},
            "targets": {
                k: {"cc": 10 * cc[0] + cc[1], "shared_limit": s, "devices": dev}
                for k, (cc, s, dev) in TARGETS.items()
            },
            "method": __doc__.split("\n\n", 2)[2].strip(),
            "results": rows,
        }
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=1) + "\n")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
