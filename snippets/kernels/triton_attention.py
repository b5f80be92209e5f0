# --8<-- [start:header]
"""FlashAttention-2 in Triton: one forward kernel, a single-kernel backward, an autograd wrapper.

The math is FlashAttention-2's (Dao, ICLR 2024, Algorithms 1 and 2). The forward kernel follows
Triton's tutorial 06 (python/tutorials/06-fused-attention.py, _attn_fwd): on Hopper its loads go
through tensor descriptors (TMA) and its key loop may be warp-specialised. The backward is
FlashAttention-2's single pass: one program per tile of keys walks over the query tiles and adds
each one's share of dQ with atomic additions (five matrix products per tile).

Supported: head dimension d in {16, 32, 64, 128}; dtypes float16, bfloat16, float32, and
float64 in the CPU interpreter only (for gradcheck). Any sequence lengths (N_q may differ
from N_k, also with causal=True, which is top-left aligned as in SDPA: query i sees j <= i).

Without CUDA this module runs its kernels in Triton's interpreter on CPU tensors: it sets
TRITON_INTERPRET=1 itself before importing triton. Imported after triton without it (to
compile the kernels for a GPU on a machine without one, as bench.compile does), it loads,
and a call says why it cannot run. Inputs are made contiguous.

exp2: exp(scale * x) = exp2(c * x) with c = scale * log2(e); NVIDIA GPUs compute 2^x with one
instruction (PTX ex2). The scores S = Q K^T stay unscaled, the running max m_i in the same
units, and c multiplies only the differences S - m_i, which are small. Scaling the scores first
(tutorial 06 multiplies them by scale * log2 e) rounds numbers as large as the logits before
m_i is subtracted; it saves one floating-point operation per score, one that is not a matrix
product and so costs many times a matmul FLOP (16 times on an A100, FlashAttention-2, §3.1), in
the step whose exponentials can take half as long as the matrix products on an H100 (FP16
forward at d = 128, FlashAttention-3, §3.1).

float32 inputs use "tf32x3" dots on a GPU: three TensorFloat-32 tensor-core products whose
sum recovers about float32 accuracy (plain tf32 keeps 10 of float32's 23 mantissa bits,
about three decimal digits per product; "ieee" dots run on CUDA cores instead).
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
from triton.tools.tensor_descriptor import TensorDescriptor

from snippets.kernels._common import LOG2E, acc_dtype, check_attention_inputs, keeps_fp32_O
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
def _load_rows(X, bh, start, N, HEAD_DIM: tl.constexpr, BLOCK: tl.constexpr,
               TMA: tl.constexpr, UPCAST: tl.constexpr):
    """Rows [start, start + BLOCK) of head bh of X, (BLOCK, HEAD_DIM), zeros past row N."""
    if TMA:  # X is a tensor descriptor of shape (B * H, N, d): its bounds give the zeros
        x = X.load([bh, start, 0]).reshape(BLOCK, HEAD_DIM)
        if UPCAST:
            x = x.to(tl.float32)
    else:
        offs = start + tl.arange(0, BLOCK)
        ptrs = X + bh.to(tl.int64) * N * HEAD_DIM + offs[:, None] * HEAD_DIM \
            + tl.arange(0, HEAD_DIM)[None, :]
        x = _load(ptrs, offs[:, None] < N, UPCAST)
    return x


@triton.jit
def _load_rows_T(X, bh, start, N, HEAD_DIM: tl.constexpr, BLOCK: tl.constexpr,
                 TMA: tl.constexpr, UPCAST: tl.constexpr):
    """The same rows transposed, (HEAD_DIM, BLOCK). By pointer they are loaded transposed: a
    loaded tile transposed in registers costs Ampere and Ada register spills at d = 128."""
    if TMA:  # a transposed view of the tile in shared memory, which wgmma reads as it is
        x = tl.trans(_load_rows(X, bh, start, N, HEAD_DIM, BLOCK, TMA, UPCAST))
    else:
        offs = start + tl.arange(0, BLOCK)
        ptrs = X + bh.to(tl.int64) * N * HEAD_DIM + offs[None, :] * HEAD_DIM \
            + tl.arange(0, HEAD_DIM)[:, None]
        x = _load(ptrs, offs[None, :] < N, UPCAST)
    return x


@triton.jit
def _scalar(x, ACC: tl.constexpr):
    """A scale factor in ACC precision. float64 runs (interpreter only) pass it in a one-element
    tensor, because a Python float argument arrives as float32."""
    if ACC == tl.float64:
        x = tl.load(x)
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
def _query_tile(CAUSAL: tl.constexpr):
    """The query tile of this program. Tiles are on grid axis 0, assumed to vary fastest in
    launch order (commonly observed; CUDA documents no order), so programs that run together
    share one head's K and V in the L2 cache. Causal tiles differ in length (tile t sees the
    first min((t + 1) * BLOCK_M, N_k) keys): the longest of each head start first."""
    tile = tl.program_id(0)
    if CAUSAL:
        tile = tl.num_programs(0) - 1 - tile
    return tile


@triton.jit
def _key_range(start_m, N_K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               CAUSAL: tl.constexpr):
    """Key tiles for query rows [start_m, start_m + BLOCK_M), in two ranges: [0, hi_full)
    every row sees in full (below the causal diagonal, no ragged tail): no mask; [hi_full, hi)
    the diagonal tiles (causal) and the ragged last tile: masked. Tiles above the diagonal
    are never visited. BLOCK_M is a multiple of BLOCK_N, so start_m is a tile boundary."""
    n_full = (N_K // BLOCK_N) * BLOCK_N
    if CAUSAL:
        hi_full = tl.minimum(start_m, n_full)
        hi = tl.minimum(start_m + BLOCK_M, N_K)
    else:
        hi_full = n_full
        hi = N_K
    return hi_full, hi


@triton.jit
def _attn_fwd_inner(O_i, l_i, m_i, Q_i, K, V, bh, offs_m, c, N_K, lo, hi,
                    HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, MASK: tl.constexpr,
                    CAUSAL: tl.constexpr, TMA: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
                    UPCAST: tl.constexpr, ACC: tl.constexpr, PRECISION: tl.constexpr):
    # With WARP_SPECIALIZE, Triton may split this loop into asynchronous partitions (loads,
    # matrix products, vector operations); which warps do what here was not inspected.
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=WARP_SPECIALIZE):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        offs_n = start_n + tl.arange(0, BLOCK_N)
        K_jT = _load_rows_T(K, bh, start_n, N_K, HEAD_DIM, BLOCK_N, TMA, UPCAST)  # (d, BLOCK_N)
        V_j = _load_rows(V, bh, start_n, N_K, HEAD_DIM, BLOCK_N, TMA, UPCAST)  # (BLOCK_N, d)
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
def _attn_fwd(Q, K, V, O, LSE, scale, c, N_Q, N_K, H,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr, TMA: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
              UPCAST: tl.constexpr, ACC: tl.constexpr, PRECISION: tl.constexpr):
    start_m = _query_tile(CAUSAL) * BLOCK_M
    bh = tl.program_id(2) * H + tl.program_id(1)  # (batch, head): grid axes 2 and 1
    scale, c = _scalar(scale, ACC), _scalar(c, ACC)  # c = scale * log2(e)
    offs_m = start_m + tl.arange(0, BLOCK_M)
    Q_i = _load_rows(Q, bh, start_m, N_Q, HEAD_DIM, BLOCK_M, TMA, UPCAST)  # (BLOCK_M, d)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=ACC)  # running max of the scores
    l_i = tl.zeros([BLOCK_M], dtype=ACC)  # running sum of exp2((S - m_i) * c)
    O_i = tl.zeros([BLOCK_M, HEAD_DIM], dtype=ACC)  # unnormalised output
    hi_full, hi = _key_range(start_m, N_K, BLOCK_M, BLOCK_N, CAUSAL)
    if WARP_SPECIALIZE:  # one loop, every tile masked: Triton 3.6 specialises no second loop
        O_i, l_i, m_i = _attn_fwd_inner(O_i, l_i, m_i, Q_i, K, V, bh, offs_m, c, N_K, 0, hi,
                                        HEAD_DIM, BLOCK_N, True, CAUSAL, TMA, True, UPCAST, ACC,
                                        PRECISION)
    else:
        O_i, l_i, m_i = _attn_fwd_inner(O_i, l_i, m_i, Q_i, K, V, bh, offs_m, c, N_K, 0,
                                        hi_full, HEAD_DIM, BLOCK_N, False, CAUSAL, TMA, False,
                                        UPCAST, ACC, PRECISION)
        O_i, l_i, m_i = _attn_fwd_inner(O_i, l_i, m_i, Q_i, K, V, bh, offs_m, c, N_K, hi_full,
                                        hi, HEAD_DIM, BLOCK_N, True, CAUSAL, TMA, False, UPCAST,
                                        ACC, PRECISION)
    # The caller's lse, of the scaled logits: log sum_j exp(scale * S_ij) = scale * m_i + ln l_i
    row = bh.to(tl.int64) * N_Q + offs_m
    tl.store(LSE + row, m_i * scale + tl.log(l_i), mask=offs_m < N_Q)
    O_ptrs = O + row[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    tl.store(O_ptrs, (O_i / l_i[:, None]).to(O.dtype.element_ty), mask=offs_m[:, None] < N_Q)


# --8<-- [end:forward]
# --8<-- [start:backward]
# ----------------------------------------------------------------------------- backward
@triton.jit
def _attn_bwd_preprocess(O, DO, DLSE, D, DQ, N_Q, H,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, HAS_DLSE: tl.constexpr,
                         UPCAST: tl.constexpr, ACC: tl.constexpr):
    bh = tl.program_id(2) * H + tl.program_id(1)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row = bh.to(tl.int64) * N_Q + offs_m
    offs = row[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    in_range = offs_m[:, None] < N_Q
    D_i = tl.sum(_load(O + offs, in_range, UPCAST).to(ACC) * _load(DO + offs, in_range, UPCAST)
                 .to(ACC), axis=1)  # D_i = rowsum(dO * O)
    if HAS_DLSE:  # d lse_i / d (scale S_ij) = P_ij: the same as lowering D_i by dlse_i
        D_i -= tl.load(DLSE + row, mask=offs_m < N_Q, other=0.0).to(ACC)
    tl.store(D + row, D_i, mask=offs_m < N_Q)
    tl.store(DQ + offs, tl.zeros([BLOCK_M, HEAD_DIM], dtype=ACC), mask=in_range)  # for atomics


@triton.jit
def _attn_bwd_inner(dK_j, dV_j, K_j, V_j, Q, DO, LSE, D, DQ, bh, offs_n, scale, c, N_Q, N_K,
                    lo, hi, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, MASK: tl.constexpr,
                    CAUSAL: tl.constexpr, UPCAST: tl.constexpr, ACC: tl.constexpr,
                    PRECISION: tl.constexpr):
    # Transposed tiles: keys along rows. Query rows past N_Q load as zeros with lse = D = 0,
    # so dO = 0 and dS = 0 there: they add nothing, and their dQ is not written.
    offs_d = tl.arange(0, HEAD_DIM)
    for start_m in tl.range(lo, hi, BLOCK_M):
        start_m = tl.multiple_of(start_m, BLOCK_M)
        offs_m = start_m + tl.arange(0, BLOCK_M)
        row = bh.to(tl.int64) * N_Q + offs_m
        Q_i = _load_rows(Q, bh, start_m, N_Q, HEAD_DIM, BLOCK_M, False, UPCAST)  # (BLOCK_M, d)
        dO_i = _load_rows(DO, bh, start_m, N_Q, HEAD_DIM, BLOCK_M, False, UPCAST)
        lse = tl.load(LSE + row, mask=offs_m < N_Q, other=0.0) / scale  # in units of S
        D_i = tl.load(D + row, mask=offs_m < N_Q, other=0.0)
        S_T = tl.dot(K_j, tl.trans(Q_i), input_precision=PRECISION, out_dtype=ACC)  # 1: S^T
        if MASK:  # _visible, transposed: key j exists and, if causal, j <= i
            S_T = tl.where(tl.trans(_visible(offs_m, offs_n, N_K, CAUSAL)), S_T, float("-inf"))
        P_T = tl.math.exp2((S_T - lse[None, :]) * c)  # P^T, recomputed from the saved lse
        dV_j = tl.dot(P_T.to(dO_i.dtype), dO_i, dV_j, input_precision=PRECISION,
                      out_dtype=ACC)  # 2: dV += P^T dO
        dP_T = tl.dot(V_j, tl.trans(dO_i), input_precision=PRECISION, out_dtype=ACC)  # 3
        dS_T = (P_T * (dP_T - D_i[None, :])).to(Q_i.dtype)  # gradient of the logits scale * S
        dK_j = tl.dot(dS_T, Q_i, dK_j, input_precision=PRECISION, out_dtype=ACC)  # 4: += dS^T Q
        dQ_i = tl.dot(tl.trans(dS_T), K_j, input_precision=PRECISION, out_dtype=ACC)  # 5: dS K
        # This key tile's share of dQ = dS K * scale; other programs add theirs to the same rows.
        # (The scale is applied after rounding dS: scaled first, small fp16 values would lose
        # bits to the subnormal range.)
        tl.atomic_add(DQ + row[:, None] * HEAD_DIM + offs_d[None, :], dQ_i * scale,
                      mask=offs_m[:, None] < N_Q, sem="relaxed")
    return dK_j, dV_j


@triton.heuristics({"EVEN_N": lambda args: args["N_K"] % args["BLOCK_N"] == 0})
@triton.jit
def _attn_bwd(Q, K, V, DO, LSE, D, DQ, DK, DV, scale, c, N_Q, N_K, H,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr, EVEN_N: tl.constexpr, UPCAST: tl.constexpr,
              ACC: tl.constexpr, PRECISION: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N  # key tiles on the fastest axis, as query tiles are
    bh = tl.program_id(2) * H + tl.program_id(1)
    scale, c = _scalar(scale, ACC), _scalar(c, ACC)
    offs_n = start_n + tl.arange(0, BLOCK_N)
    K_j = _load_rows(K, bh, start_n, N_K, HEAD_DIM, BLOCK_N, False, UPCAST)  # (BLOCK_N, d)
    V_j = _load_rows(V, bh, start_n, N_K, HEAD_DIM, BLOCK_N, False, UPCAST)
    dK_j = tl.zeros([BLOCK_N, HEAD_DIM], dtype=ACC)
    dV_j = tl.zeros([BLOCK_N, HEAD_DIM], dtype=ACC)
    # One loop over the query tiles that see these keys, masked if causal or if the key tile
    # is ragged (its missing keys would add exp2(-lse * c), which can overflow, to dQ). A
    # second, unmasked loop for the tiles below the diagonal would save the mask there, but
    # two loops hold more registers than a program has at d = 128 (bench.compile).
    lo = start_n if CAUSAL else 0  # queries before start_n never see these keys
    dK_j, dV_j = _attn_bwd_inner(dK_j, dV_j, K_j, V_j, Q, DO, LSE, D, DQ, bh, offs_n, scale, c,
                                 N_Q, N_K, lo, N_Q, HEAD_DIM, BLOCK_M, CAUSAL or not EVEN_N,
                                 CAUSAL, UPCAST, ACC, PRECISION)
    kv = (bh.to(tl.int64) * N_K + offs_n)[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    tl.store(DV + kv, dV_j.to(DV.dtype.element_ty), mask=offs_n[:, None] < N_K)
    tl.store(DK + kv, (dK_j * scale).to(DK.dtype.element_ty), mask=offs_n[:, None] < N_K)


# --8<-- [end:backward]
# --8<-- [start:tiles]
# fmt: on
# ----------------------------------------------------------------------------- tiles
@dataclasses.dataclass(frozen=True)
class Tiles:
    """A launch configuration: tile sizes (powers of 2, >= 16), warps and pipeline stages."""

    BLOCK_M: int  # query rows: per program (forward), per step (backward)
    BLOCK_N: int  # key rows: per step (forward), per program (backward)
    num_warps: int = 4
    num_stages: int = 3
    warp_specialize: bool = False  # forward on Hopper only

    def __post_init__(self):
        for b in (self.BLOCK_M, self.BLOCK_N):
            if b < 16 or b & (b - 1):  # tl.arange needs powers of 2; tl.dot needs K >= 16
                raise ValueError(f"block sizes must be powers of 2 >= 16, got {b}")

    def meta(self) -> dict:
        """The constexpr arguments these tiles set."""
        return dict(BLOCK_M=self.BLOCK_M, BLOCK_N=self.BLOCK_N)

    def triton(self, pre_hook=None) -> triton.Config:
        """The same settings as a triton.Config for the autotuner."""
        return triton.Config(self.meta(), num_warps=self.num_warps, num_stages=self.num_stages,
                             pre_hook=pre_hook)  # fmt: skip


class ForwardTiles(Tiles):
    """Forward tiles: the causal split falls on key-tile boundaries if BLOCK_M >= BLOCK_N."""

    def __post_init__(self):
        super().__post_init__()
        if self.BLOCK_M < self.BLOCK_N:
            raise ValueError(f"forward tiles need BLOCK_M >= BLOCK_N, got {self}")

    def meta(self) -> dict:
        """The constexpr arguments these tiles set, warp specialisation included."""
        return dict(super().meta(), WARP_SPECIALIZE=self.warp_specialize)


class BackwardTiles(Tiles):
    """Backward tiles: the diagonal band is whole query steps if BLOCK_N >= BLOCK_M."""

    def __post_init__(self):
        super().__post_init__()
        if self.warp_specialize or self.BLOCK_N < self.BLOCK_M:
            raise ValueError(f"backward tiles need BLOCK_N >= BLOCK_M, no warp roles: {self}")


KiB = 1024
# Shared memory a block may use: Hopper (H100, H200), A100, and the 99 KiB of consumer and
# inference Ampere/Ada parts (sm_86: RTX 30, A10; sm_89: RTX 40, L4, L40S).
SMEM_TIERS = (227 * KiB, 163 * KiB, 99 * KiB)


def tier(capability: tuple[int, int], smem: int) -> str:
    """Which tile space a device gets: "sm_90" only for compute capability 9.x (wgmma and the
    warp-specialised forward are Hopper's), else by shared memory: "sm_80" or "sm_89"."""
    if capability[0] == 9 and smem >= SMEM_TIERS[0]:
        return "sm_90"
    return "sm_80" if smem >= SMEM_TIERS[1] else "sm_89"


# Triton releases whose Hopper warp specialisation compiles the forward kernel (bench.compile):
# 3.6 does, with one key loop per kernel; 3.9's pass fails on it with an internal assertion.
WARP_SPECIALIZE_RELEASES = ("3.6.",)


def forward_space(d: int, dtype: torch.dtype, where: str) -> list[ForwardTiles]:
    """The forward tiles the autotuner times on a device of tier `where` (one tile elsewhere,
    and in the interpreter). Every one compiles without register spills in 16 bits for its
    target with triton 3.6 and 3.9 (bench.compile, tests/kernels/test_compile.py)."""
    if where == "interpreter":  # cost ~ programs x steps: big tiles
        return [ForwardTiles(128, 128)]
    if dtype == torch.float32:  # tf32x3 keeps three tiles per operand: small tiles
        return [ForwardTiles(32, 32, num_warps=4, num_stages=2)]
    if where == "sm_90":
        # 128 x 128 at d = 128 ran 9-11 % faster than 128 x 64 (bench/results/tiles-2026-12-01,
        # the previous kernel); warp-specialised, 128 x 128 spills at d = 128, 128 x 64 does not.
        space = [ForwardTiles(128, 128, num_warps=8, num_stages=2),
                 ForwardTiles(128, 64, num_warps=8, num_stages=3)]  # fmt: skip
        if triton.__version__.startswith(WARP_SPECIALIZE_RELEASES):
            # num_warps is per consumer warpgroup: Triton launches 3 warpgroups (12 warps).
            rows = 64 if d == 128 else 128
            space.append(ForwardTiles(128, rows, num_warps=4, num_stages=3 if d == 128 else 2,
                                      warp_specialize=True))  # fmt: skip
        return space
    # Ampere and Ada: tiles that compile without register spills (not timed on such a GPU).
    if d == 128:
        return [ForwardTiles(32, 32, num_warps=4, num_stages=2)]
    if where == "sm_80":
        return [ForwardTiles(128, 64, num_warps=8, num_stages=3)]
    return [ForwardTiles(64, 32, num_warps=4, num_stages=2)]


def backward_space(d: int, dtype: torch.dtype, where: str) -> list[BackwardTiles]:
    """The backward tiles, as forward_space. At d = 128 the five products' operands and the
    dK, dV accumulators leave room only for 16 query rows per step (more spill registers)."""
    if where == "interpreter":
        return [BackwardTiles(128, 128)]
    if dtype == torch.float32:  # at d = 128, 32 keys per program need 112 KiB of shared memory
        return [BackwardTiles(16, 16 if d == 128 else 32, num_warps=4, num_stages=2)]
    if where == "sm_90":
        if d == 128:
            return [BackwardTiles(16, 64, num_warps=8, num_stages=s) for s in (2, 3)]
        return [BackwardTiles(64, n, num_warps=8, num_stages=2) for n in (128, 64)]
    if where == "sm_80" and d <= 64:
        return [BackwardTiles(32, 64, num_warps=4, num_stages=2)]
    return [BackwardTiles(16, 32, num_warps=4, num_stages=2)]


# --8<-- [end:tiles]
# --8<-- [start:wrapper]
# ----------------------------------------------------------------------------- wrapper
def device_tier(device: torch.device) -> str:
    """The tile space of `device` ("interpreter" without a GPU)."""
    if INTERPRET:
        return "interpreter"
    props = triton.runtime.driver.active.utils.get_device_properties(device.index or 0)
    return tier(torch.cuda.get_device_capability(device), props["max_shared_mem"])


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
    B, H = q.shape[:2]
    if max(B, H) > 65535:  # CUDA caps grid axes 1 and 2 at 65,535 blocks
        raise ValueError(f"batch and heads must be at most 65535 each, got B={B}, H={H}")


# Query rows per program of _attn_bwd_preprocess: a pass bound by memory; 64 rows spill
# registers at d = 128 (bench.compile), 32 do not.
PREPROCESS_ROWS = 32


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


def _scales(scale: float, dtype: torch.dtype) -> tuple:
    """(scale, scale * log2 e) as kernel arguments: Python floats (float32 in the kernel), or
    one-element tensors for float64, which _scalar loads."""
    scales = (scale, scale * LOG2E)
    if dtype == torch.float64:
        return tuple(torch.tensor([x], dtype=torch.float64) for x in scales)
    return scales


def _descriptor_block_shapes(nargs: dict) -> None:
    """Autotuner pre-hook: the TMA boxes of Q, K and V follow the config being launched."""
    for name, rows in (("Q", "BLOCK_M"), ("K", "BLOCK_N"), ("V", "BLOCK_N")):
        if isinstance(nargs.get(name), TensorDescriptor):
            nargs[name].block_shape = [1, nargs[rows], nargs["HEAD_DIM"]]


TUNERS: dict[tuple, triton.runtime.Autotuner] = {}  # made on first use, one per space


def _tuned(kernel, space: tuple[Tiles, ...], reset: tuple[str, ...] = ()):
    """`kernel` autotuned over `space`, keyed on the sequence lengths and causality (and,
    through the tensors, the dtype; the head size and the device select the space)."""
    key = (kernel, space, reset)
    if key not in TUNERS:
        hook = _descriptor_block_shapes if kernel is _attn_fwd else None
        configs = [t.triton(hook) for t in space]
        tune = triton.autotune(configs, key=["N_Q", "N_K", "CAUSAL"], reset_to_zero=list(reset))
        TUNERS[key] = tune(kernel)
    return TUNERS[key]


def _launch(kernel, space: list[Tiles], grid, args: tuple, reset: tuple[str, ...] = (), **meta):
    """Run `kernel` on `grid` (a function of the tiles): with a one-tile space (the interpreter,
    float32, Ampere and Ada) as it is, else through the autotuner."""
    if len(space) > 1:
        _tuned(kernel, tuple(space), reset)[grid](*args, **meta)
        return
    t = space[0]
    named = dict(zip(kernel.arg_names, args, strict=False))
    _descriptor_block_shapes({**named, **t.meta(), **meta})
    kernel[grid(t.meta())](*args, **t.meta(), num_warps=t.num_warps, num_stages=t.num_stages,
                           **meta)  # fmt: skip


def _heads_grid(N: int, B: int, H: int, rows: str):
    """(tiles of `rows` over N, heads, batch): tiles on the fastest axis."""
    return lambda meta: (triton.cdiv(N, meta[rows]), H, B)


def _tma_ok(*tensors: torch.Tensor) -> bool:
    """TMA descriptors need 16-byte aligned bases (strides are, for d >= 16)."""
    return all(t.data_ptr() % 16 == 0 for t in tensors)


# fmt: off
class _FlashAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, causal, scale, where, needs_grad):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        B, H, N_q, d = q.shape
        N_k = k.shape[2]
        args = launch_args(q.dtype, d)
        # O is written in q's dtype, as FlashAttention-2 and -3 and PyTorch do, except for very
        # short query sequences under autograd (keeps_fp32_O): see the tiled kernel's page.
        fp32_O = keeps_fp32_O(q.dtype, N_q, needs_grad)
        O = torch.empty(q.shape, dtype=acc_dtype(q.dtype) if fp32_O else _out_dtype(q.dtype),
                        device=q.device)
        lse = torch.empty(B, H, N_q, dtype=acc_dtype(q.dtype), device=q.device)
        space = forward_space(d, q.dtype, where)
        Q, K, V = q, k, v
        if where == "sm_90" and q.dtype != torch.float32 and _tma_ok(q, k, v):
            # Descriptors of (B * H, N, d) views; the boxes are set per config (pre-hook).
            Q, K, V = (TensorDescriptor.from_tensor(x.view(B * H, -1, d), [1, 16, d])
                       for x in (q, k, v))
        tma = isinstance(Q, TensorDescriptor)
        space = [t for t in space if tma or not t.warp_specialize]  # producers issue TMA loads
        _launch(_attn_fwd, space, _heads_grid(N_q, B, H, "BLOCK_M"),
                (Q, K, V, O, lse, *_scales(scale, q.dtype), N_q, N_k, H),
                CAUSAL=causal, TMA=tma, **args)
        ctx.save_for_backward(q, k, v, O, lse)
        ctx.causal, ctx.scale, ctx.where = causal, scale, where
        ctx.set_materialize_grads(False)
        return O.to(q.dtype), lse  # a no-op unless O is float32 for a 16-bit q

    @staticmethod
    def backward(ctx, dO, dlse):
        q, k, v, O, lse = ctx.saved_tensors
        B, H, N_q, d = q.shape
        N_k = k.shape[2]
        if dO is None:
            dO = torch.zeros(q.shape, dtype=_out_dtype(q.dtype), device=q.device)
        dO = dO.contiguous()
        args = launch_args(q.dtype, d)
        D = torch.empty_like(lse)  # D_i = rowsum(dO * O) - dlse_i
        dq = torch.empty(q.shape, dtype=acc_dtype(q.dtype), device=q.device)  # atomics: fp32
        dk, dv = (torch.empty(x.shape, dtype=_out_dtype(q.dtype), device=q.device) for x in (k, v))
        has_dlse = dlse is not None
        _attn_bwd_preprocess[(triton.cdiv(N_q, PREPROCESS_ROWS), H, B)](
            O, dO, dlse.contiguous() if has_dlse else lse, D, dq, N_q, H, HEAD_DIM=d,
            BLOCK_M=PREPROCESS_ROWS, HAS_DLSE=has_dlse, UPCAST=args["UPCAST"], ACC=args["ACC"])
        _launch(_attn_bwd, backward_space(d, q.dtype, ctx.where),
                _heads_grid(N_k, B, H, "BLOCK_N"),
                (q, k, v, dO, lse, D, dq, dk, dv, *_scales(ctx.scale, q.dtype), N_q, N_k, H),
                reset=("DQ",), CAUSAL=ctx.causal, **args)
        return dq.to(q.dtype), dk.to(q.dtype), dv.to(q.dtype), None, None, None, None


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
    needs_grad = torch.is_grad_enabled() and any(x.requires_grad for x in (q, k, v))
    out, lse = _FlashAttention.apply(q, k, v, causal, scale, device_tier(q.device), needs_grad)
    return (out, lse) if return_lse else out


# --8<-- [end:wrapper]
