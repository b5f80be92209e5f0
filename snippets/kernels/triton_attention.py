# --8<-- [start:header]
"""FlashAttention-2 in Triton: forward, backward and an autograd wrapper (after tutorial 06).

Supported: head dimension d in {16, 32, 64, 128}; dtypes float16, bfloat16, float32, and
float64 in the CPU interpreter only (for gradcheck). Any sequence lengths (N_q may differ
from N_k, also with causal=True, which is top-left aligned as in SDPA: query i sees j <= i).

Without CUDA this module runs its kernels in Triton's interpreter on CPU tensors: it sets
TRITON_INTERPRET=1 itself before importing triton, and raises RuntimeError if triton was
already imported without it. Inputs are made contiguous.

The exp2 trick: exp(x) = 2^(x / ln 2), and exp2 is the cheaper instruction. The logits are
multiplied once by qk_scale = scale / ln 2, so the running max m_i, the running sum l_i and
the saved log-sum-exp are all base 2; the wrapper converts lse back to natural log.
"""

# ruff: noqa: E741  (names mirror the math: O)
from __future__ import annotations

import dataclasses
import functools
import math
import os
import sys

import torch

# Without CUDA the kernels run in Triton's interpreter. TRITON_INTERPRET must be set before
# `import triton`: its own library (tl.sum, tl.max, ...) is @jit-decorated at import time.
if not torch.cuda.is_available() and "triton" not in sys.modules:
    os.environ["TRITON_INTERPRET"] = "1"

import triton
import triton.language as tl
from triton.runtime.interpreter import InterpretedFunction

from snippets.kernels._checks import check_attention_inputs

INTERPRET: bool = isinstance(tl.sum, InterpretedFunction)  # how triton itself was set up
if not INTERPRET and not torch.cuda.is_available():
    raise RuntimeError(
        "triton was imported without TRITON_INTERPRET=1 and there is no CUDA device, so "
        "these kernels cannot run. Set TRITON_INTERPRET=1 before anything imports triton "
        "(or import snippets.kernels.triton_attention first, which sets it)."
    )
if INTERPRET != bool(triton.knobs.runtime.interpret):
    raise RuntimeError(
        "TRITON_INTERPRET changed after triton was imported; the kernels below would not "
        "match triton's own library. Set it once, before importing triton."
    )

SUPPORTED_D = (16, 32, 64, 128)
SUPPORTED_DTYPES = (torch.float16, torch.bfloat16, torch.float32) + (
    (torch.float64,) if INTERPRET else ()
)
LOG2E = 1.4426950408889634  # = 1/ln(2): exp(x) = exp2(x * LOG2E)
LN2 = math.log(2.0)


# Kernels are laid out by hand, like tutorial 06 (long signatures, aligned continuations).
# fmt: off
# --8<-- [end:header]
# --8<-- [start:helpers]
# ----------------------------------------------------------------------------- helpers
@triton.jit
def _load(ptrs, mask, UPCAST: tl.constexpr):
    """Masked load (zeros outside the tensor)."""
    x = tl.load(ptrs, mask=mask, other=0.0)
    # Interpreter-only workaround (UPCAST is False on GPU): the interpreter computes bf16
    # arithmetic on the raw 16-bit integers, so bf16 is upcast right after loading
    # (triton-lang/triton#11584, #4972). Its fp32 -> bf16 cast is not round-to-nearest
    # either, so with UPCAST the wrapper gives kernels fp32 outputs and rounds with torch.
    if UPCAST:
        x = x.to(tl.float32)
    return x


@triton.jit
def _visible(offs_m, offs_n, N_K, CAUSAL: tl.constexpr):
    """(BLOCK_M, BLOCK_N) mask: key j exists and, if causal, j <= i."""
    ok = offs_n[None, :] < N_K
    if CAUSAL:
        ok = ok & (offs_n[None, :] <= offs_m[:, None])
    return ok


# --8<-- [end:helpers]
# --8<-- [start:forward]
# ----------------------------------------------------------------------------- forward
@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, offs_m, qk_scale, N_K, lo, hi,
                    HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, MASK: tl.constexpr,
                    CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                    PRECISION: tl.constexpr):
    offs_d = tl.arange(0, HEAD_DIM)
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kT = _load(k_base + offs_n[None, :] * HEAD_DIM + offs_d[:, None],
                   offs_n[None, :] < N_K, UPCAST)  # (HEAD_DIM, BLOCK_N)
        v = _load(v_base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                  offs_n[:, None] < N_K, UPCAST)  # (BLOCK_N, HEAD_DIM)
        qk = tl.dot(q, kT, input_precision=PRECISION, out_dtype=ACC) * qk_scale  # base-2 logits
        if MASK:
            qk = tl.where(_visible(offs_m, offs_n, N_K, CAUSAL), qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))  # finite: every row has seen key 0 by now
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)  # rescales what was summed so far
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None], input_precision=PRECISION)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, Out, LSE2, Scales, N_Q, N_K,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
              PRECISION: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1).to(tl.int64)  # (batch, head) pair; int64 so offsets cannot overflow
    q_base, o_base = Q + bh * N_Q * HEAD_DIM, Out + bh * N_Q * HEAD_DIM
    k_base, v_base = K + bh * N_K * HEAD_DIM, V + bh * N_K * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    qo_offs = offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    q = _load(q_base + qo_offs, offs_m[:, None] < N_Q, UPCAST)  # (BLOCK_M, HEAD_DIM)
    qk_scale = tl.load(Scales + 1)  # scale / ln 2, stored in ACC precision
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=ACC)
    l_i = tl.zeros([BLOCK_M], dtype=ACC)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=ACC)
    # Two loops over key blocks. The first covers blocks every query row of this program
    # sees in full (below the causal diagonal, no ragged tail): no mask at all. The second
    # covers the diagonal blocks (causal) and the ragged last block: masked. Blocks above
    # the diagonal are never loaded. BLOCK_M is a multiple of BLOCK_N, so start_m is a
    # block boundary.
    n_full = (N_K // BLOCK_N) * BLOCK_N
    if CAUSAL:
        hi_full = tl.minimum(start_m, n_full)
        hi = tl.minimum(start_m + BLOCK_M, N_K)
    else:
        hi_full = n_full
        hi = N_K
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, offs_m, qk_scale, N_K,
                                    0, hi_full, HEAD_DIM, BLOCK_N, False, CAUSAL, UPCAST, ACC,
                                    PRECISION)
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, offs_m, qk_scale, N_K,
                                    hi_full, hi, HEAD_DIM, BLOCK_N, True, CAUSAL, UPCAST, ACC,
                                    PRECISION)
    tl.store(LSE2 + bh * N_Q + offs_m, m_i + tl.math.log2(l_i), mask=offs_m < N_Q)
    out = acc / l_i[:, None]
    tl.store(o_base + qo_offs, out.to(Out.dtype.element_ty), mask=offs_m[:, None] < N_Q)


# --8<-- [end:forward]
# --8<-- [start:backward]
# ----------------------------------------------------------------------------- backward
@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, N_Q, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                         UPCAST: tl.constexpr, ACC: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    bh = tl.program_id(1).to(tl.int64)
    offs = bh * N_Q * HEAD_DIM + offs_m[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    o = _load(O + offs, offs_m[:, None] < N_Q, UPCAST).to(ACC)
    do = _load(DO + offs, offs_m[:, None] < N_Q, UPCAST).to(ACC)
    tl.store(Delta + bh * N_Q + offs_m, tl.sum(o * do, axis=1), mask=offs_m < N_Q)  # D_i


@triton.jit
def _attn_bwd_dkdv_inner(dk, dv, k, v, q_base, do_base, lse_base, delta_base, offs_n,
                         qk_scale, N_Q, lo, hi, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                         MASK: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                         PRECISION: tl.constexpr):
    # Works on transposed tiles (keys along rows). Query rows past N_Q load as zeros, with
    # lse = D = 0: then dO = 0 and dS = 0, so they add exactly nothing to dK and dV.
    offs_d = tl.arange(0, HEAD_DIM)
    for start_m in range(lo, hi, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        qT = _load(q_base + offs_m[None, :] * HEAD_DIM + offs_d[:, None],
                   offs_m[None, :] < N_Q, UPCAST)  # (HEAD_DIM, BLOCK_M)
        do = _load(do_base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                   offs_m[:, None] < N_Q, UPCAST)  # (BLOCK_M, HEAD_DIM)
        lse2 = tl.load(lse_base + offs_m, mask=offs_m < N_Q, other=0.0)
        Di = tl.load(delta_base + offs_m, mask=offs_m < N_Q, other=0.0)
        qkT = tl.dot(k, qT, input_precision=PRECISION, out_dtype=ACC) * qk_scale
        pT = tl.math.exp2(qkT - lse2[None, :])  # P^T, recomputed from the saved lse
        if MASK:  # diagonal band only: key j is seen by query i iff j <= i
            pT = tl.where(offs_n[:, None] <= offs_m[None, :], pT, 0.0)
        dv = tl.dot(pT.to(do.dtype), do, dv, input_precision=PRECISION)  # dV += P^T dO
        dpT = tl.dot(v, tl.trans(do), input_precision=PRECISION, out_dtype=ACC)  # (dO V^T)^T
        dsT = pT * (dpT - Di[None, :])  # dS^T = P^T * (dP^T - D)
        dk = tl.dot(dsT.to(qT.dtype), tl.trans(qT), dk, input_precision=PRECISION)
    return dk, dv


@triton.jit
def _attn_bwd_dkdv(Q, K, V, DO, LSE2, Delta, DK, DV, Scales, N_Q, N_K,
                   HEAD_DIM: tl.constexpr, BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,
                   CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                   PRECISION: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N1
    bh = tl.program_id(1).to(tl.int64)
    q_base, do_base = Q + bh * N_Q * HEAD_DIM, DO + bh * N_Q * HEAD_DIM
    lse_base, delta_base = LSE2 + bh * N_Q, Delta + bh * N_Q
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    kv_offs = bh * N_K * HEAD_DIM + offs_n[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    k = _load(K + kv_offs, offs_n[:, None] < N_K, UPCAST)  # (BLOCK_N1, HEAD_DIM)
    v = _load(V + kv_offs, offs_n[:, None] < N_K, UPCAST)
    scale, qk_scale = tl.load(Scales), tl.load(Scales + 1)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=ACC)
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=ACC)
    lo = 0
    if CAUSAL:  # queries before start_n never see these keys; the diagonal band is masked
        dk, dv = _attn_bwd_dkdv_inner(dk, dv, k, v, q_base, do_base, lse_base, delta_base,
                                      offs_n, qk_scale, N_Q, start_n,
                                      tl.minimum(start_n + BLOCK_N1, N_Q), HEAD_DIM, BLOCK_M1,
                                      True, UPCAST, ACC, PRECISION)
        lo = start_n + BLOCK_N1
    dk, dv = _attn_bwd_dkdv_inner(dk, dv, k, v, q_base, do_base, lse_base, delta_base, offs_n,
                                  qk_scale, N_Q, lo, N_Q, HEAD_DIM, BLOCK_M1, False, UPCAST,
                                  ACC, PRECISION)
    tl.store(DV + kv_offs, dv.to(DV.dtype.element_ty), mask=offs_n[:, None] < N_K)
    dk = dk * scale  # dK = dS^T Q * scale
    tl.store(DK + kv_offs, dk.to(DK.dtype.element_ty), mask=offs_n[:, None] < N_K)


@triton.jit
def _attn_bwd_dq_inner(dq, q, do, lse2, Di, k_base, v_base, offs_m, qk_scale, N_K, lo, hi,
                       HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, MASK: tl.constexpr,
                       CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                       PRECISION: tl.constexpr):
    offs_d = tl.arange(0, HEAD_DIM)
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kvT_offs = offs_n[None, :] * HEAD_DIM + offs_d[:, None]
        kT = _load(k_base + kvT_offs, offs_n[None, :] < N_K, UPCAST)  # (HEAD_DIM, BLOCK_N)
        vT = _load(v_base + kvT_offs, offs_n[None, :] < N_K, UPCAST)
        qk = tl.dot(q, kT, input_precision=PRECISION, out_dtype=ACC) * qk_scale
        p = tl.math.exp2(qk - lse2[:, None])  # P, recomputed from the saved lse
        if MASK:
            p = tl.where(_visible(offs_m, offs_n, N_K, CAUSAL), p, 0.0)
        dp = tl.dot(do, vT, input_precision=PRECISION, out_dtype=ACC)  # dP = dO V^T
        ds = p * (dp - Di[:, None])  # dS = P * (dP - D)
        dq = tl.dot(ds.to(kT.dtype), tl.trans(kT), dq, input_precision=PRECISION)  # dQ += dS K
    return dq


@triton.jit
def _attn_bwd_dq(Q, K, V, DO, LSE2, Delta, DQ, Scales, N_Q, N_K,
                 HEAD_DIM: tl.constexpr, BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,
                 CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                 PRECISION: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M2
    bh = tl.program_id(1).to(tl.int64)
    k_base, v_base = K + bh * N_K * HEAD_DIM, V + bh * N_K * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    qo_offs = bh * N_Q * HEAD_DIM + offs_m[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    q = _load(Q + qo_offs, offs_m[:, None] < N_Q, UPCAST)  # (BLOCK_M2, HEAD_DIM)
    do = _load(DO + qo_offs, offs_m[:, None] < N_Q, UPCAST)
    lse2 = tl.load(LSE2 + bh * N_Q + offs_m, mask=offs_m < N_Q, other=0.0)
    Di = tl.load(Delta + bh * N_Q + offs_m, mask=offs_m < N_Q, other=0.0)
    scale, qk_scale = tl.load(Scales), tl.load(Scales + 1)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=ACC)
    n_full = (N_K // BLOCK_N2) * BLOCK_N2  # same unmasked / masked split as the forward
    if CAUSAL:
        hi_full = tl.minimum(start_m, n_full)
        hi = tl.minimum(start_m + BLOCK_M2, N_K)
    else:
        hi_full = n_full
        hi = N_K
    dq = _attn_bwd_dq_inner(dq, q, do, lse2, Di, k_base, v_base, offs_m, qk_scale, N_K, 0,
                            hi_full, HEAD_DIM, BLOCK_N2, False, CAUSAL, UPCAST, ACC,
                            PRECISION)
    dq = _attn_bwd_dq_inner(dq, q, do, lse2, Di, k_base, v_base, offs_m, qk_scale, N_K,
                            hi_full, hi, HEAD_DIM, BLOCK_N2, True, CAUSAL, UPCAST, ACC,
                            PRECISION)
    dq = dq * scale  # dQ = dS K * scale
    tl.store(DQ + qo_offs, dq.to(DQ.dtype.element_ty), mask=offs_m[:, None] < N_Q)


# --8<-- [end:backward]
# --8<-- [start:wrapper]
# ----------------------------------------------------------------------------- wrapper
@dataclasses.dataclass(frozen=True)
class _Config:
    """Tile sizes (powers of 2, >= 16) and launch settings."""

    BLOCK_M: int  # forward: queries per program
    BLOCK_N: int  # forward: keys per step
    BLOCK_M1: int  # dK/dV: queries per step
    BLOCK_N1: int  # dK/dV: keys per program
    BLOCK_M2: int  # dQ: queries per program
    BLOCK_N2: int  # dQ: keys per step
    num_warps: int = 4
    num_stages: int = 3

    def __post_init__(self):
        blocks = [self.BLOCK_M, self.BLOCK_N, self.BLOCK_M1, self.BLOCK_N1, self.BLOCK_M2]
        for b in [*blocks, self.BLOCK_N2]:
            if b < 16 or b & (b - 1):  # tl.arange needs powers of 2; tl.dot needs K >= 16
                raise ValueError(f"block sizes must be powers of 2 >= 16, got {b}")
        # Causal loops split at block boundaries: the bigger block is a multiple of the other.
        if self.BLOCK_M % self.BLOCK_N or self.BLOCK_N1 % self.BLOCK_M1:
            raise ValueError("need BLOCK_M % BLOCK_N == 0 and BLOCK_N1 % BLOCK_M1 == 0")
        if self.BLOCK_M2 % self.BLOCK_N2:
            raise ValueError("need BLOCK_M2 % BLOCK_N2 == 0")


def _config(d: int, dtype: torch.dtype) -> _Config:
    """Block sizes: big in the interpreter (cost ~ programs x steps), tutorial-06-like on GPU."""
    if INTERPRET:
        return _Config(128, 64, 64, 128, 128, 64)
    # Untuned starting points from tutorial 06's search space (no GPU was at hand to tune).
    if dtype == torch.float32:  # 4-byte tiles: fewer pipeline stages fit in shared memory
        return _Config(64, 32, 32, 64, 64, 32, num_warps=4, num_stages=2)
    return _Config(128, 64, 32, 128, 128, 32, num_warps=8 if d == 128 else 4, num_stages=3)


@functools.lru_cache(maxsize=64)
def _scales(scale: float, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """[scale, scale / ln 2] as a tensor: Python float arguments reach kernels as fp32 only."""
    return torch.tensor([scale, scale * LOG2E], dtype=dtype, device=device)


def _check_backend(q: torch.Tensor) -> None:
    d = q.shape[-1]
    if d not in SUPPORTED_D:
        raise ValueError(f"head dimension d must be one of {SUPPORTED_D}, got d={d}")
    if q.dtype not in SUPPORTED_DTYPES:
        where = "the interpreter" if INTERPRET else "the GPU (float64 is interpreter-only)"
        raise TypeError(f"q dtype {q.dtype} is not supported on {where}: use {SUPPORTED_DTYPES}")
    if INTERPRET and q.device.type != "cpu":
        raise ValueError(
            f"q is on {q.device}, but Triton runs in the interpreter (TRITON_INTERPRET=1), "
            "which takes CPU tensors here; move q, k, v to the CPU or unset TRITON_INTERPRET"
        )
    if not INTERPRET and q.device.type != "cuda":
        raise ValueError(
            f"q is on {q.device}, but Triton compiles for the GPU; move q, k, v to CUDA, or set "
            "TRITON_INTERPRET=1 before importing this module to run on the CPU"
        )


def _acc_dtype(dtype: torch.dtype) -> torch.dtype:
    return torch.float64 if dtype == torch.float64 else torch.float32


def _out_dtype(dtype: torch.dtype) -> torch.dtype:
    """What the kernels write: fp32 for bf16 in the interpreter (see _load), else dtype."""
    return torch.float32 if INTERPRET and dtype == torch.bfloat16 else dtype


def _launch_args(q: torch.Tensor) -> dict:
    return dict(
        HEAD_DIM=q.shape[-1],
        UPCAST=INTERPRET and q.dtype == torch.bfloat16,  # see _load
        ACC=tl.float64 if q.dtype == torch.float64 else tl.float32,
        PRECISION="ieee" if q.dtype in (torch.float32, torch.float64) else "tf32",
    )


class _FlashAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, causal, scale, cfg):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        B, H, N_q, _ = q.shape
        N_k = k.shape[2]
        args = _launch_args(q)
        acc = _acc_dtype(q.dtype)
        o = torch.empty(q.shape, dtype=_out_dtype(q.dtype), device=q.device)
        lse2 = torch.empty(B, H, N_q, dtype=acc, device=q.device)  # base 2
        scales = _scales(scale, acc, q.device)
        grid = (triton.cdiv(N_q, cfg.BLOCK_M), B * H)
        _attn_fwd[grid](q, k, v, o, lse2, scales, N_q, N_k, BLOCK_M=cfg.BLOCK_M,
                        BLOCK_N=cfg.BLOCK_N, CAUSAL=causal, num_warps=cfg.num_warps,
                        num_stages=cfg.num_stages, **args)
        o = o.to(q.dtype)
        ctx.save_for_backward(q, k, v, o, lse2)
        ctx.causal, ctx.scale, ctx.cfg = causal, scale, cfg
        ctx.set_materialize_grads(False)
        return o, lse2 * LN2  # natural-log lse for the caller

    @staticmethod
    def backward(ctx, do, dlse):
        q, k, v, o, lse2 = ctx.saved_tensors
        cfg = ctx.cfg
        B, H, N_q, d = q.shape
        N_k = k.shape[2]
        do = torch.zeros_like(o) if do is None else do.contiguous()
        args = _launch_args(q)
        delta = torch.empty_like(lse2)  # D_i = rowsum(dO * O)
        grid_q = (triton.cdiv(N_q, cfg.BLOCK_M2), B * H)
        _attn_bwd_preprocess[grid_q](o, do, delta, N_q, HEAD_DIM=d, BLOCK_M=cfg.BLOCK_M2,
                                     UPCAST=args["UPCAST"], ACC=args["ACC"])
        if dlse is not None:  # d lse_i / d S_ij = P_ij: the same as lowering D_i by dlse_i
            delta = delta - dlse.to(delta.dtype)
        scales = _scales(ctx.scale, lse2.dtype, q.device)
        dq, dk, dv = (torch.empty(x.shape, dtype=_out_dtype(q.dtype), device=q.device)
                      for x in (q, k, v))
        launch = dict(CAUSAL=ctx.causal, num_warps=cfg.num_warps, num_stages=cfg.num_stages,
                      **args)
        grid_k = (triton.cdiv(N_k, cfg.BLOCK_N1), B * H)
        _attn_bwd_dkdv[grid_k](q, k, v, do, lse2, delta, dk, dv, scales, N_q, N_k,
                               BLOCK_M1=cfg.BLOCK_M1, BLOCK_N1=cfg.BLOCK_N1, **launch)
        _attn_bwd_dq[grid_q](q, k, v, do, lse2, delta, dq, scales, N_q, N_k,
                             BLOCK_M2=cfg.BLOCK_M2, BLOCK_N2=cfg.BLOCK_N2, **launch)
        return dq.to(q.dtype), dk.to(q.dtype), dv.to(q.dtype), None, None, None


# fmt: on
def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    return_lse: bool = False,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """FlashAttention-2 in Triton (forward and backward): softmax(q k^T * scale) v."""
    scale = check_attention_inputs(q, k, v, causal=causal, scale=scale)
    _check_backend(q)
    out, lse = _FlashAttention.apply(q, k, v, causal, scale, _config(q.shape[-1], q.dtype))
    return (out, lse) if return_lse else out


# --8<-- [end:wrapper]
