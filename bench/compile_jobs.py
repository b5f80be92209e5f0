"""The kernels bench.compile compiles: every tile configuration the wrapper can launch, or
autotune over, on each target (importable without compiling anything)."""

from __future__ import annotations

import torch

from snippets.kernels import triton_attention as T

# name -> (compute capability, shared memory per block in bytes, devices of that kind)
TARGETS = {
    "sm_90": ((9, 0), T.SMEM_TIERS[0], "H100, H200"),
    "sm_80": ((8, 0), T.SMEM_TIERS[1], "A100"),
    "sm_89": ((8, 9), T.SMEM_TIERS[2], "L4, L40S, RTX 40"),
}
DTYPES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}
QUICK = [  # the largest head size, 16-bit and float32, and the d = 64 Hopper kernels
    dict(target=t, d=128, dtype=dt, causal=True) for t in TARGETS for dt in ("bfloat16", "float32")
] + [dict(target="sm_90", d=64, dtype="float16", causal=True)]


def uses_tma(target: str, dtype: str) -> bool:
    """Whether the wrapper gives the forward kernel tensor descriptors there."""
    return target == "sm_90" and dtype != "float32"


def launched_tiles(target: str, d: int, dtype: str) -> dict[str, list[dict]]:
    """kernel -> every tile configuration the wrapper may launch there (as dicts)."""
    cc, smem, _ = TARGETS[target]
    where = T.tier(cc, smem)
    torch_dtype = getattr(torch, dtype)
    return {
        "fwd": [t.__dict__ for t in T.forward_space(d, torch_dtype, where)],
        "bwd": [t.__dict__ for t in T.backward_space(d, torch_dtype, where)],
    }


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


def jobs_for(config: dict, preprocess: bool = True) -> list[dict]:
    """The kernels of one configuration: every forward and backward tile, the backward also
    for ragged key counts where that changes the code (no causal mask), and the preprocess."""
    spaces = launched_tiles(config["target"], config["d"], config["dtype"])
    jobs = [{**config, "kernel": "fwd", "tiles": t} for t in spaces["fwd"]]
    for t in spaces["bwd"]:
        for even in (True,) if config["causal"] else (True, False):
            jobs.append({**config, "kernel": "bwd", "tiles": t, "even": even})
    if preprocess:
        jobs.append({**config, "kernel": "bwd_preprocess", "tiles": None})
    return jobs
