# --8<-- [start:header]
"""FlashAttention-2 in Triton: forward, backward and an autograd wrapper.

The math is FlashAttention-2's (Dao, ICLR 2024, Algorithms 1 and 2); the layout and the backward's
split into a dK/dV loop and a dQ loop, with no atomics, follow Triton's tutorial 06,
python/tutorials/06-fused-attention.py (_attn_fwd, _attn_bwd_dkdv, _attn_bwd_dq).

Supported: head dimension d in {16, 32, 64, 128}; dtypes float16, bfloat16, float32, and
float64 in the CPU interpreter only (for gradcheck). Any sequence lengths (N_q may differ
from N_k, also with causal=True, which is top-left aligned as in SDPA: query i sees j <= i).

Without CUDA this module runs its kernels in Triton's interpreter on CPU tensors: it sets
TRITON_INTERPRET=1 itself before importing triton. Imported after triton without it (to
compile the kernels for a GPU on a machine without one, as bench.compile does), it loads,
and a call says why it cannot run. Inputs are made contiguous.

exp2: exp(scale * x) = exp2(c * x) with c = scale * log2(e); NVIDIA GPUs compute 2^x with one
instruction (PTX ex2). The scores S = Q K^T stay unscaled, the running max m_i and the saved
log-sum-exp in the same units, and c multiplies only the differences S - m_i, which are small.
Scaling the scores first (tutorial 06 multiplies them by scale * log2 e) rounds numbers as
large as the logits before m_i is subtracted: the row maximum always, each score unless the
compiler fuses the multiply and the subtraction into one FMA (not on diagonal tiles, where the
mask is added in between). That costs accuracy when logits are large.

float32 inputs use "tf32x3" dots on a GPU: three TensorFloat-32 tensor-core products whose
sum recovers about float32 accuracy (plain tf32 keeps 10 of float32's 23 mantissa bits,
about three decimal digits per product; "ieee" dots run on CUDA cores and spill registers at
d = 128).
"""

# ruff: noqa: E741  (names mirror the math: O)
from __future__ import annotations

import dataclasses
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

from snippets.kernels._common import LOG2E, acc_dtype, check_attention_inputs
from snippets.kernels._triton_interpreter_fix import fix_scalar_index

INTERPRET: bool = isinstance(tl.sum, InterpretedFunction)  # how triton itself was set up
if INTERPRET != bool(triton.knobs.runtime.interpret):
    raise RuntimeError(
        "TRITON_INTERPRET changed after triton was imported; the kernels below would not "
        "match triton's own library. Set it once, before importing triton."
    )
if INTERPRET:
    fix_scalar_index()

SUPPORTED_D = (16, 32, 64, 128)
SUPPORTED_DTYPES = (torch.float16, torch.bfloat16, torch.float32) + (
    (torch.float64,) if INTERPRET else ()
)


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
def _key_range(start_m, N_K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               CAUSAL: tl.constexpr):
    """Key blocks for query rows [start_m, start_m + BLOCK_M), in two ranges: [0, hi_full)
    every row sees in full (below the causal diagonal, no ragged tail): no mask; [hi_full, hi)
    the diagonal blocks (causal) and the ragged last block: masked. Blocks above the diagonal
    are never visited. BLOCK_M is a multiple of BLOCK_N, so start_m is a block boundary."""
    n_full = (N_K // BLOCK_N) * BLOCK_N
    if CAUSAL:
        hi_full = tl.minimum(start_m, n_full)
        hi = tl.minimum(start_m + BLOCK_M, N_K)
    else:
        hi_full = n_full
        hi = N_K
    return hi_full, hi


@triton.jit
def _attn_fwd_inner(O_i, l_i, m_i, Q_i, K_base, V_base, offs_m, c, N_K, lo, hi,
                    HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, MASK: tl.constexpr,
                    CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                    PRECISION: tl.constexpr):
    offs_d = tl.arange(0, HEAD_DIM)
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        K_jT = _load(K_base + offs_n[None, :] * HEAD_DIM + offs_d[:, None],
                     offs_n[None, :] < N_K, UPCAST)  # (HEAD_DIM, BLOCK_N)
        V_j = _load(V_base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                    offs_n[:, None] < N_K, UPCAST)  # (BLOCK_N, HEAD_DIM)
        S = tl.dot(Q_i, K_jT, input_precision=PRECISION, out_dtype=ACC)  # scores, unscaled
        if MASK:
            S = tl.where(_visible(offs_m, offs_n, N_K, CAUSAL), S, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(S, 1))  # finite: every row has seen key 0 by now
        P = tl.math.exp2((S - m_new[:, None]) * c)  # (BLOCK_M, BLOCK_N)
        alpha = tl.math.exp2((m_i - m_new) * c)  # rescales what was summed so far
        l_i = l_i * alpha + tl.sum(P, 1)
        # out_dtype even with an accumulator: triton 3.6 checks it against the accumulator's
        # type and defaults it to float32, which fails for the float64 interpreter runs.
        O_i = tl.dot(P.to(V_j.dtype), V_j, O_i * alpha[:, None], input_precision=PRECISION,
                     out_dtype=ACC)
        m_i = m_new
    return O_i, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, O, LSE, Scales, N_Q, N_K,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
              PRECISION: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)  # (batch, head) pair; int64 so offsets cannot overflow
    start_m = tl.program_id(1) * BLOCK_M
    Q_base, O_base = Q + bh * N_Q * HEAD_DIM, O + bh * N_Q * HEAD_DIM
    K_base, V_base = K + bh * N_K * HEAD_DIM, V + bh * N_K * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    qo_offs = offs_m[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    Q_i = _load(Q_base + qo_offs, offs_m[:, None] < N_Q, UPCAST)  # (BLOCK_M, HEAD_DIM)
    c = tl.load(Scales + 1)  # scale * log2(e), in ACC precision (float64 too)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=ACC)  # running max of the scores
    l_i = tl.zeros([BLOCK_M], dtype=ACC)  # running sum of exp2((S - m_i) * c)
    O_i = tl.zeros([BLOCK_M, HEAD_DIM], dtype=ACC)  # unnormalised output
    hi_full, hi = _key_range(start_m, N_K, BLOCK_M, BLOCK_N, CAUSAL)
    O_i, l_i, m_i = _attn_fwd_inner(O_i, l_i, m_i, Q_i, K_base, V_base, offs_m, c, N_K, 0,
                                    hi_full, HEAD_DIM, BLOCK_N, False, CAUSAL, UPCAST, ACC,
                                    PRECISION)
    O_i, l_i, m_i = _attn_fwd_inner(O_i, l_i, m_i, Q_i, K_base, V_base, offs_m, c, N_K,
                                    hi_full, hi, HEAD_DIM, BLOCK_N, True, CAUSAL, UPCAST, ACC,
                                    PRECISION)
    # Unscaled, like the scores: P = exp2((S - lse) * c); the wrapper scales it for the caller.
    tl.store(LSE + bh * N_Q + offs_m, m_i + tl.math.log2(l_i) / c, mask=offs_m < N_Q)
    O_i = O_i / l_i[:, None]
    tl.store(O_base + qo_offs, O_i.to(O.dtype.element_ty), mask=offs_m[:, None] < N_Q)


# --8<-- [end:forward]
# --8<-- [start:backward]
# ----------------------------------------------------------------------------- backward
@triton.jit
def _attn_bwd_preprocess(O, DO, D, N_Q, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                         UPCAST: tl.constexpr, ACC: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    offs_m = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs = bh * N_Q * HEAD_DIM + offs_m[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    O_i = _load(O + offs, offs_m[:, None] < N_Q, UPCAST).to(ACC)
    dO_i = _load(DO + offs, offs_m[:, None] < N_Q, UPCAST).to(ACC)
    tl.store(D + bh * N_Q + offs_m, tl.sum(O_i * dO_i, axis=1), mask=offs_m < N_Q)  # D_i


@triton.jit
def _attn_bwd_dkdv_inner(dK_j, dV_j, K_j, V_j, Q_base, DO_base, LSE_base, D_base, offs_n,
                         c, N_Q, lo, hi, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                         MASK: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                         PRECISION: tl.constexpr):
    # Works on transposed tiles (keys along rows). Query rows past N_Q load as zeros, with
    # lse = D = 0: then dO = 0 and dS = 0, so they add exactly nothing to dK and dV.
    offs_d = tl.arange(0, HEAD_DIM)
    for start_m in range(lo, hi, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        Q_iT = _load(Q_base + offs_m[None, :] * HEAD_DIM + offs_d[:, None],
                     offs_m[None, :] < N_Q, UPCAST)  # (HEAD_DIM, BLOCK_M)
        dO_i = _load(DO_base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                     offs_m[:, None] < N_Q, UPCAST)  # (BLOCK_M, HEAD_DIM)
        lse = tl.load(LSE_base + offs_m, mask=offs_m < N_Q, other=0.0)
        D_i = tl.load(D_base + offs_m, mask=offs_m < N_Q, other=0.0)
        S_T = tl.dot(K_j, Q_iT, input_precision=PRECISION, out_dtype=ACC)  # unscaled
        if MASK:  # diagonal band only: key j is seen by query i iff j <= i
            S_T = tl.where(offs_n[:, None] <= offs_m[None, :], S_T, float("-inf"))
        P_T = tl.math.exp2((S_T - lse[None, :]) * c)  # P^T, recomputed from the saved lse
        dV_j = tl.dot(P_T.to(dO_i.dtype), dO_i, dV_j, input_precision=PRECISION,
                      out_dtype=ACC)  # += P^T dO
        dP_T = tl.dot(V_j, tl.trans(dO_i), input_precision=PRECISION, out_dtype=ACC)  # (dO V^T)^T
        dS_T = P_T * (dP_T - D_i[None, :])  # dS^T = P^T * (dP^T - D)
        dK_j = tl.dot(dS_T.to(Q_iT.dtype), tl.trans(Q_iT), dK_j, input_precision=PRECISION,
                      out_dtype=ACC)
    return dK_j, dV_j


@triton.jit
def _attn_bwd_dkdv(Q, K, V, DO, LSE, D, DK, DV, Scales, N_Q, N_K,
                   HEAD_DIM: tl.constexpr, BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,
                   CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                   PRECISION: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    start_n = tl.program_id(1) * BLOCK_N1
    Q_base, DO_base = Q + bh * N_Q * HEAD_DIM, DO + bh * N_Q * HEAD_DIM
    LSE_base, D_base = LSE + bh * N_Q, D + bh * N_Q
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    kv_offs = bh * N_K * HEAD_DIM + offs_n[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    K_j = _load(K + kv_offs, offs_n[:, None] < N_K, UPCAST)  # (BLOCK_N1, HEAD_DIM)
    V_j = _load(V + kv_offs, offs_n[:, None] < N_K, UPCAST)
    scale, c = tl.load(Scales), tl.load(Scales + 1)
    dK_j = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=ACC)
    dV_j = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=ACC)
    lo = 0
    if CAUSAL:  # queries before start_n never see these keys; the diagonal band is masked
        dK_j, dV_j = _attn_bwd_dkdv_inner(dK_j, dV_j, K_j, V_j, Q_base, DO_base, LSE_base,
                                          D_base, offs_n, c, N_Q, start_n,
                                          tl.minimum(start_n + BLOCK_N1, N_Q), HEAD_DIM,
                                          BLOCK_M1, True, UPCAST, ACC, PRECISION)
        lo = start_n + BLOCK_N1
    dK_j, dV_j = _attn_bwd_dkdv_inner(dK_j, dV_j, K_j, V_j, Q_base, DO_base, LSE_base, D_base,
                                      offs_n, c, N_Q, lo, N_Q, HEAD_DIM, BLOCK_M1, False,
                                      UPCAST, ACC, PRECISION)
    tl.store(DV + kv_offs, dV_j.to(DV.dtype.element_ty), mask=offs_n[:, None] < N_K)
    dK_j = dK_j * scale  # dK = dS^T Q * scale
    tl.store(DK + kv_offs, dK_j.to(DK.dtype.element_ty), mask=offs_n[:, None] < N_K)


@triton.jit
def _attn_bwd_dq_inner(dQ_i, Q_i, dO_i, lse, D_i, K_base, V_base, offs_m, c, N_K, lo, hi,
                       HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, MASK: tl.constexpr,
                       CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                       PRECISION: tl.constexpr):
    offs_d = tl.arange(0, HEAD_DIM)
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kvT_offs = offs_n[None, :] * HEAD_DIM + offs_d[:, None]
        K_jT = _load(K_base + kvT_offs, offs_n[None, :] < N_K, UPCAST)  # (HEAD_DIM, BLOCK_N)
        V_jT = _load(V_base + kvT_offs, offs_n[None, :] < N_K, UPCAST)
        S = tl.dot(Q_i, K_jT, input_precision=PRECISION, out_dtype=ACC)  # unscaled
        if MASK:
            S = tl.where(_visible(offs_m, offs_n, N_K, CAUSAL), S, float("-inf"))
        P = tl.math.exp2((S - lse[:, None]) * c)  # P, recomputed from the saved lse
        dP = tl.dot(dO_i, V_jT, input_precision=PRECISION, out_dtype=ACC)  # dP = dO V^T
        dS = P * (dP - D_i[:, None])  # dS = P * (dP - D)
        dQ_i = tl.dot(dS.to(K_jT.dtype), tl.trans(K_jT), dQ_i,
                      input_precision=PRECISION, out_dtype=ACC)  # dQ += dS K
    return dQ_i


@triton.jit
def _attn_bwd_dq(Q, K, V, DO, LSE, D, DQ, Scales, N_Q, N_K,
                 HEAD_DIM: tl.constexpr, BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,
                 CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                 PRECISION: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    start_m = tl.program_id(1) * BLOCK_M2
    K_base, V_base = K + bh * N_K * HEAD_DIM, V + bh * N_K * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    qo_offs = bh * N_Q * HEAD_DIM + offs_m[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    Q_i = _load(Q + qo_offs, offs_m[:, None] < N_Q, UPCAST)  # (BLOCK_M2, HEAD_DIM)
    dO_i = _load(DO + qo_offs, offs_m[:, None] < N_Q, UPCAST)
    lse = tl.load(LSE + bh * N_Q + offs_m, mask=offs_m < N_Q, other=0.0)
    D_i = tl.load(D + bh * N_Q + offs_m, mask=offs_m < N_Q, other=0.0)
    scale, c = tl.load(Scales), tl.load(Scales + 1)
    dQ_i = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=ACC)
    hi_full, hi = _key_range(start_m, N_K, BLOCK_M2, BLOCK_N2, CAUSAL)  # as in the forward
    dQ_i = _attn_bwd_dq_inner(dQ_i, Q_i, dO_i, lse, D_i, K_base, V_base, offs_m, c, N_K, 0,
                              hi_full, HEAD_DIM, BLOCK_N2, False, CAUSAL, UPCAST, ACC, PRECISION)
    dQ_i = _attn_bwd_dq_inner(dQ_i, Q_i, dO_i, lse, D_i, K_base, V_base, offs_m, c, N_K,
                              hi_full, hi, HEAD_DIM, BLOCK_N2, True, CAUSAL, UPCAST, ACC,
                              PRECISION)
    dQ_i = dQ_i * scale  # dQ = dS K * scale
    tl.store(DQ + qo_offs, dQ_i.to(DQ.dtype.element_ty), mask=offs_m[:, None] < N_Q)


# --8<-- [end:backward]
# --8<-- [start:wrapper]
# ----------------------------------------------------------------------------- wrapper
@dataclasses.dataclass(frozen=True)
class Config:
    """Tile sizes (powers of 2, >= 16) and launch settings."""

    BLOCK_M: int  # forward: queries per program
    BLOCK_N: int  # forward: keys per step
    BLOCK_M1: int  # dK/dV: queries per step
    BLOCK_N1: int  # dK/dV: keys per program
    BLOCK_M2: int  # dQ: queries per program
    BLOCK_N2: int  # dQ: keys per step
    num_warps: int = 4  # forward
    num_stages: int = 3
    # Backward kernels: Hopper's wgmma runs a warpgroup (4 warps) on 64 rows, so a 64-row tile
    # wants 4 warps even when the forward's 128-row tile wants 8. None: as the forward.
    num_warps_bwd: int | None = None

    @property
    def warps_bwd(self) -> int:
        """Warps per program of the backward kernels."""
        return self.num_warps_bwd or self.num_warps

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


KiB = 1024
# Shared memory a block may use: Hopper (H100, H200), A100, and the 99 KiB of consumer and
# inference Ampere/Ada parts (sm_86: RTX 30, A10; sm_89: RTX 40, L4, L40S). A device gets the
# largest tier it has.
SMEM_TIERS = (227 * KiB, 163 * KiB, 99 * KiB)


def config(d: int, dtype: torch.dtype, smem: int) -> Config:
    """Tiles for head size d and dtype on a device with `smem` bytes of shared memory per
    block. bench.compile compiles every choice for every tier (sm_90, sm_80, sm_89) and the
    tests check its table: shared memory within the tier, and no register spills in 16-bit
    except for tiles that no candidate timed by bench.tiles beat beyond the run-to-run spread."""
    if INTERPRET:  # cost ~ programs x steps: big tiles
        return Config(128, 64, 64, 128, 128, 64)
    if dtype == torch.float32:  # tf32x3 keeps three tiles per operand: small tiles
        return Config(32, 32, 16, 32, 32, 16, num_warps=4, num_stages=2)
    if smem >= SMEM_TIERS[0]:  # Hopper: chosen by timing on an H200 (bench.tiles)
        # No register spills on triton 3.9 or 3.6 at d <= 64; at d = 128 some (few on 3.9,
        # more on 3.6), and within the run-to-run spread of the fastest timed: the spill-free
        # tiles ran the backward at a third of the speed.
        return Config(128, 64, 32, 64, 64, 32, num_warps=8, num_warps_bwd=4)
    # Ampere and Ada, from `make bench-compile` on triton 3.9 and 3.6: tiles with no register
    # spills in 16-bit on both (not yet timed on such a GPU).
    if smem >= SMEM_TIERS[1]:  # A100
        if d <= 64:
            return Config(128, 64, 32, 32, 64, 32, num_warps=8, num_stages=3)
        return Config(128, 32, 32, 32, 32, 32, num_warps=8, num_stages=3)
    return Config(64, 32, 32, 32, 32, 16, num_warps=4, num_stages=2)


def device_smem(device: torch.device) -> int:
    """Shared memory a block may use on `device`, in bytes."""
    props = triton.runtime.driver.active.utils.get_device_properties(device.index or 0)
    return props["max_shared_mem"]


def _scales(scale: float, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """[scale, scale * log2(e)] on the device, made there: no host-to-device copy, so it can
    run inside CUDA-graph capture; and exact in float64, which Python floats are not (a kernel
    receives float arguments as float32)."""
    scales = torch.full((2,), scale, dtype=dtype, device=device)
    scales[1:].fill_(scale * LOG2E)
    return scales


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
    if not INTERPRET and not torch.cuda.is_available():
        raise RuntimeError(
            "triton was imported without TRITON_INTERPRET=1 and there is no CUDA device: the "
            "kernels can be compiled here but not run. Set TRITON_INTERPRET=1 before anything "
            "imports triton (or import snippets.kernels.triton_attention first, which sets it)"
        )
    if not INTERPRET and q.device.type != "cuda":
        raise ValueError(
            f"q is on {q.device}, but Triton compiles for the GPU; move q, k, v to CUDA, or set "
            "TRITON_INTERPRET=1 before importing this module to run on the CPU"
        )


def _out_dtype(dtype: torch.dtype) -> torch.dtype:
    """What the kernels write: fp32 for bf16 in the interpreter (see _load), else dtype."""
    return torch.float32 if INTERPRET and dtype == torch.bfloat16 else dtype


def launch_args(dtype: torch.dtype, d: int) -> dict:
    """Constexpr arguments every kernel takes."""
    return dict(
        HEAD_DIM=d,
        UPCAST=INTERPRET and dtype == torch.bfloat16,  # see _load
        ACC=tl.float64 if dtype == torch.float64 else tl.float32,
        PRECISION={torch.float32: "tf32x3", torch.float64: "ieee"}.get(dtype, "tf32"),
    )


# fmt: off
class _FlashAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, causal, scale, cfg):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        B, H, N_q, d = q.shape
        N_k = k.shape[2]
        args = launch_args(q.dtype, d)
        # O is written in the accumulator's type and rounded to q's dtype only for the caller:
        # an error in the backward's D_i = rowsum(dO * O) enters dS weighted by P, which is
        # large in rows that see few keys, so a 16-bit O's rounding would reach dK.
        O = torch.empty(q.shape, dtype=acc_dtype(q.dtype), device=q.device)
        lse = torch.empty(B, H, N_q, dtype=acc_dtype(q.dtype), device=q.device)
        scales = _scales(scale, lse.dtype, q.device)
        # (batch * heads, query tiles): the first grid axis has no 65,535 limit.
        grid = (B * H, triton.cdiv(N_q, cfg.BLOCK_M))
        _attn_fwd[grid](q, k, v, O, lse, scales, N_q, N_k, BLOCK_M=cfg.BLOCK_M,
                        BLOCK_N=cfg.BLOCK_N, CAUSAL=causal, num_warps=cfg.num_warps,
                        num_stages=cfg.num_stages, **args)
        ctx.save_for_backward(q, k, v, O, lse, scales)
        ctx.causal, ctx.cfg = causal, cfg
        ctx.set_materialize_grads(False)
        return O.to(q.dtype), lse * scale  # the caller's lse is of the scaled logits

    @staticmethod
    def backward(ctx, dO, dlse):
        q, k, v, O, lse, scales = ctx.saved_tensors
        cfg = ctx.cfg
        B, H, N_q, d = q.shape
        N_k = k.shape[2]
        if dO is None:
            dO = torch.zeros(q.shape, dtype=_out_dtype(q.dtype), device=q.device)
        dO = dO.contiguous()
        args = launch_args(q.dtype, d)
        D = torch.empty_like(lse)  # D_i = rowsum(dO * O)
        grid_q = (B * H, triton.cdiv(N_q, cfg.BLOCK_M2))
        _attn_bwd_preprocess[grid_q](O, dO, D, N_q, HEAD_DIM=d, BLOCK_M=cfg.BLOCK_M2,
                                     UPCAST=args["UPCAST"], ACC=args["ACC"],
                                     num_warps=cfg.warps_bwd)
        if dlse is not None:  # d lse_i / d S_ij = P_ij: the same as lowering D_i by dlse_i
            D = D - dlse.to(D.dtype)
        dq, dk, dv = (torch.empty(x.shape, dtype=_out_dtype(q.dtype), device=q.device)
                      for x in (q, k, v))
        launch = dict(CAUSAL=ctx.causal, num_warps=cfg.warps_bwd, num_stages=cfg.num_stages,
                      **args)
        grid_k = (B * H, triton.cdiv(N_k, cfg.BLOCK_N1))
        _attn_bwd_dkdv[grid_k](q, k, v, dO, lse, D, dk, dv, scales, N_q, N_k,
                               BLOCK_M1=cfg.BLOCK_M1, BLOCK_N1=cfg.BLOCK_N1, **launch)
        _attn_bwd_dq[grid_q](q, k, v, dO, lse, D, dq, scales, N_q, N_k,
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
    smem = 0 if INTERPRET else device_smem(q.device)
    cfg = config(q.shape[-1], q.dtype, smem)
    out, lse = _FlashAttention.apply(q, k, v, causal, scale, cfg)
    return (out, lse) if return_lse else out


# --8<-- [end:wrapper]
