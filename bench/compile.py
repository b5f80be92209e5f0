"""Compile every Triton kernel the wrapper launches for NVIDIA GPUs, on a machine without one.

    python -m bench.compile           # every configuration -> bench/results/compile.json
    python -m bench.compile --quick   # a representative subset, printed (and --out to write)
    python -m bench.compile --only sm_90:64:float16:causal:fwd   # one kernel, printed

For each target (a compute capability and its shared memory per block), head size d, dtype
and causal flag, the configuration the wrapper would choose on such a device is compiled by
Triton's own compiler with a CUDA target; triton's wheel ships ptxas and nvdisasm. Recorded
per kernel: registers per thread and spill bytes (ptxas -v), shared memory, and whether the
dots became tensor-core instructions (HGMMA on sm_90, HMMA before). Runs in its own process
so that triton is imported without its CPU interpreter.
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

from snippets.kernels import triton_attention as T

RESULTS = Path(__file__).resolve().parent / "results" / "compile.json"
# name -> (compute capability, shared memory per block in bytes, devices of that kind)
TARGETS = {
    "sm_90": (90, T.SMEM_TIERS[0], "H100, H200"),
    "sm_80": (80, T.SMEM_TIERS[1], "A100"),
    "sm_89": (89, T.SMEM_TIERS[2], "L4, L40S, RTX 40"),
}
DTYPES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}
KERNELS = ("fwd", "bwd_preprocess", "bwd_dkdv", "bwd_dq")
QUICK = [  # the largest tiles and the d = 64 backward, 16-bit and float32
    dict(target=t, d=128, dtype=dt, causal=True) for t in TARGETS for dt in ("bfloat16", "float32")
] + [dict(target="sm_90", d=64, dtype="float16", causal=True)]
BIN = Path(triton.__file__).parent / "backends" / "nvidia" / "bin"


def _signature(kernel: str, ptr: str) -> tuple:
    """(jit function, pointer and scalar argument types) of one kernel."""
    acc = "*fp32"
    if kernel == "fwd":
        return T._attn_fwd, dict(
            Q=ptr, K=ptr, V=ptr, O=acc, LSE=acc, Scales=acc, N_Q="i32", N_K="i32"
        )
    if kernel == "bwd_preprocess":
        return T._attn_bwd_preprocess, dict(O=acc, DO=ptr, D=acc, N_Q="i32")  # O kept in fp32
    common = dict(Q=ptr, K=ptr, V=ptr, DO=ptr, LSE=acc, D=acc)
    if kernel == "bwd_dkdv":
        return T._attn_bwd_dkdv, dict(**common, DK=ptr, DV=ptr, Scales=acc, N_Q="i32", N_K="i32")
    return T._attn_bwd_dq, dict(**common, DQ=ptr, Scales=acc, N_Q="i32", N_K="i32")


def _constexprs(kernel: str, cfg: T.Config, args: dict, causal: bool) -> dict:
    if kernel == "fwd":
        return dict(args, BLOCK_M=cfg.BLOCK_M, BLOCK_N=cfg.BLOCK_N, CAUSAL=causal)
    if kernel == "bwd_preprocess":
        return dict(HEAD_DIM=args["HEAD_DIM"], BLOCK_M=cfg.BLOCK_M2, UPCAST=False, ACC=tl.float32)
    if kernel == "bwd_dkdv":
        return dict(args, BLOCK_M1=cfg.BLOCK_M1, BLOCK_N1=cfg.BLOCK_N1, CAUSAL=causal)
    return dict(args, BLOCK_M2=cfg.BLOCK_M2, BLOCK_N2=cfg.BLOCK_N2, CAUSAL=causal)


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


def tensor_core_dots(cubin: bytes) -> int:
    """How many tensor-core matrix instructions (HGMMA/HMMA) the machine code has."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as fh:
        fh.write(cubin)
        fh.flush()
        sass = subprocess.run(
            [BIN / "nvdisasm", fh.name], capture_output=True, text=True, check=True
        ).stdout
    return len(re.findall(r"\bH(?:G)?MMA\b", sass))


def compile_one(target: str, d: int, dtype: str, causal: bool, kernel: str) -> dict:
    """Compile one kernel for one configuration; what the compiler and ptxas report."""
    cc, smem, _ = TARGETS[target]
    torch_dtype = getattr(torch, dtype)
    cfg = T.config(d, torch_dtype, smem)
    args = T.launch_args(torch_dtype, d)
    fn, signature = _signature(kernel, f"*{DTYPES[dtype]}")
    constexprs = _constexprs(kernel, cfg, args, causal)
    signature = {**signature, **dict.fromkeys(constexprs, "constexpr")}
    compiled = triton.compile(
        triton.compiler.ASTSource(fn=fn, signature=signature, constexprs=constexprs),
        target=GPUTarget("cuda", cc, 32),
        options=dict(num_warps=warps(cfg, kernel), num_stages=cfg.num_stages),
    )
    row = dict(target=target, d=d, dtype=dtype, causal=causal, kernel=kernel)
    row.update(dataclass_fields(cfg, kernel))
    row.update(ptxas_usage(compiled.asm["ptx"], cc))
    row["shared_bytes"] = compiled.metadata.shared
    row["shared_limit"] = smem
    row["tensor_core_dots"] = tensor_core_dots(compiled.asm["cubin"])
    return row


def dataclass_fields(cfg: T.Config, kernel: str) -> dict:
    """The tile sizes and launch settings a kernel was compiled with."""
    blocks = {
        "fwd": (cfg.BLOCK_M, cfg.BLOCK_N),
        "bwd_preprocess": (cfg.BLOCK_M2, None),
        "bwd_dkdv": (cfg.BLOCK_N1, cfg.BLOCK_M1),
        "bwd_dq": (cfg.BLOCK_M2, cfg.BLOCK_N2),
    }[kernel]
    return dict(tile=blocks, num_warps=warps(cfg, kernel), num_stages=cfg.num_stages)


def warps(cfg: T.Config, kernel: str) -> int:
    """Warps per program the wrapper launches `kernel` with."""
    return cfg.num_warps if kernel == "fwd" else cfg.warps_bwd


def configurations(quick: bool) -> list[dict]:
    """Every (target, d, dtype, causal) the wrapper can launch, or the quick subset."""
    if quick:
        return QUICK
    return [
        dict(target=t, d=d, dtype=dt, causal=c)
        for t in TARGETS
        for d in T.SUPPORTED_D
        for dt in DTYPES
        for c in (False, True)
    ]


def _compile(job: dict) -> dict:
    return compile_one(**job)


def parse_only(text: str) -> dict:
    """`target:d:dtype:causal|full:kernel` as a job."""
    target, d, dtype, mask, kernel = text.split(":")
    if target not in TARGETS or dtype not in DTYPES or kernel not in KERNELS:
        raise SystemExit(f"--only {text!r}: expected target:d:dtype:causal|full:kernel")
    return dict(target=target, d=int(d), dtype=dtype, causal=mask == "causal", kernel=kernel)


def run(quick: bool, workers: int = 2, only: list[dict] | None = None) -> list[dict]:
    """Compile every kernel of every configuration (the preprocess kernel once per causal pair)
    in `workers` processes, or just the `only` jobs; rows in job order."""
    jobs = only or [
        {**c, "kernel": kernel}
        for c in configurations(quick)
        for kernel in KERNELS
        if not (kernel == "bwd_preprocess" and c["causal"] and not quick)  # causal-free
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
    rows = run(args.quick, only=args.only)
    out = args.out or (None if args.quick or args.only else RESULTS)
    if out is not None:
        report = {
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "versions": {"triton": triton.__version__, "torch": torch.__version__},
            "targets": {
                k: {"cc": cc, "shared_limit": s, "devices": dev}
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
