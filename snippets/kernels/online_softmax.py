# --8<-- [start:header]
"""Online softmax, and FlashAttention-2 (forward and backward) written tile by tile in PyTorch.

Online softmax (Milakov & Gimelshein 2018, section 3, Algorithm 3) keeps a running maximum m
and a running sum l of exp(x - m). When a new block raises the maximum from m_old to m_new,
the sum so far is rescaled:

    l = l * exp(m_old - m_new) + sum(exp(x_block - m_new))

The first block must hold a finite entry: while m is -inf, exp(m_old - m_new) is NaN.

The attention forward applies this per query row to tiles of the logits scale * Q K^T, so
only block_q x block_k tiles exist at any time, never the (N_q, N_k) matrix. It saves one
log-sum-exp per row; the backward recomputes each tile of P from it (FlashAttention-2, Dao,
ICLR 2024, Algorithms 1 and 2): D_i = rowsum(dO * O), dV += P^T dO, dP = dO V^T,
dS = P * (dP - D) (the gradient of the logits), dQ += dS K * scale, dK += dS^T Q * scale.

Like the Triton kernel, the tiles call exp2: exp(scale * x) = exp2(c * x) with c = scale *
log2(e). On the AMD EPYC of bench/results/cpu.json torch.exp2 was the faster call; how much
depends on the CPU (exp_over_exp2 in bench/cpu.py measures it). The scores S = Q K^T are kept
unscaled, m_i and lse in the same units (P = exp2((S - m) * c), lse = m_i + log2(l_i) / c),
and c multiplies only the differences S - m, which are small: scaling the scores first would
round numbers as large as the logits before m is subtracted (see the kernel pages).

Without block sizes the query tiles follow a budget of bytes for one step's scores, measured
on this machine once (cpu_tiles.py). The backward reads O as the caller got it, except for
very short query sequences in 16 bits (keeps_fp32_O).

Causal (query i sees keys j <= i, top-left aligned as in SDPA): tiles entirely above the
diagonal are skipped, tiles entirely below it run unmasked, only diagonal tiles are masked.
Tiles are computed in float32 (float64 for float64 inputs); lse is returned in that dtype.
"""

# ruff: noqa: E741  (names mirror the math: O, l)
from __future__ import annotations

from collections.abc import Iterator

import torch

from snippets.kernels import cpu_tiles
from snippets.kernels._common import (
    LOG2E,
    acc_dtype,
    check_attention_inputs,
    check_block_size,
    keeps_fp32_O,
)


# --8<-- [end:header]
# --8<-- [start:online_softmax]
def online_softmax(x: torch.Tensor, block: int = 4) -> torch.Tensor:
    """Softmax of a 1-D vector, with its max and normaliser found in one pass over blocks."""
    if not isinstance(x, torch.Tensor) or x.dim() != 1 or x.numel() == 0:
        raise ValueError("x must be a non-empty 1-D tensor")
    if not x.is_floating_point():
        raise TypeError(f"x must have a floating dtype, got {x.dtype}")
    block = check_block_size("block", block)
    m = torch.tensor(float("-inf"), dtype=x.dtype)  # running maximum
    l = torch.tensor(0.0, dtype=x.dtype)  # running sum of exp(x - m)
    for x_block in x.split(block):
        m_new = torch.maximum(m, x_block.max())
        l = l * torch.exp(m - m_new) + torch.exp(x_block - m_new).sum()
        m = m_new
    return torch.exp(x - m) / l  # the second (and last) pass: normalise


# --8<-- [end:online_softmax]
# --8<-- [start:tiles]
def _key_blocks(
    q0: int, q1: int, N_k: int, block_k: int, causal: bool
) -> Iterator[tuple[int, int, bool]]:
    """Key tiles that query rows [q0, q1) see: (k0, k1, needs_mask)."""
    k_end = min(N_k, q1) if causal else N_k  # keys j >= q1 are above the diagonal: skipped
    for k0 in range(0, k_end, block_k):
        k1 = min(k0 + block_k, N_k)
        yield k0, k1, causal and k1 - 1 > q0  # some key in the tile is after some query


def _query_blocks(
    k0: int, k1: int, N_q: int, block_q: int, causal: bool
) -> Iterator[tuple[int, int, bool]]:
    """Query tiles that see some key in [k0, k1): (q0, q1, needs_mask)."""
    if causal and k0 >= N_q:  # keys after the last query are seen by no query
        return
    q_start = (k0 // block_q) * block_q if causal else 0  # earlier queries never see k0
    for q0 in range(q_start, N_q, block_q):
        q1 = min(q0 + block_q, N_q)
        yield q0, q1, causal and k1 - 1 > q0


def tile_schedule(
    N_q: int, N_k: int, block_q: int, block_k: int, *, causal: bool
) -> list[tuple[int, int, bool]]:
    """The (q0, k0, needs_mask) tiles the forward visits, in order."""
    return [
        (q0, k0, masked)
        for q0 in range(0, N_q, block_q)
        for k0, _, masked in _key_blocks(q0, min(q0 + block_q, N_q), N_k, block_k, causal)
    ]


def default_blocks(
    batch_heads: int, N_q: int, N_k: int, budget: int | None = None
) -> tuple[int, int]:
    """(block_q, block_k) when the caller gives none: key tiles of 512, and query tiles as
    tall as they can be while the float32 scores of one step, over all batch * heads, take at
    most `budget` bytes (this machine's, cpu_tiles.score_budget, if not given).

    Each step costs Python the same number of torch calls whatever its tiles (counted on the
    kernel page): tall tiles make few steps and large matrix products, until the tile of
    scores, read and written several times per step, no longer stays in cache. Blocks are
    powers of 2, at least 16, and no longer than the sequence needs.
    """
    budget = cpu_tiles.score_budget() if budget is None else budget
    block_k = min(512, _power_of_2_above(N_k))
    block_q = 16
    while block_q < _power_of_2_above(N_q) and batch_heads * 2 * block_q * block_k * 4 <= budget:
        block_q *= 2  # the doubled tile still fits
    return block_q, block_k


def _power_of_2_above(n: int) -> int:
    """The smallest power of 2 >= n, and at least 16."""
    return 1 << max(4, (n - 1).bit_length())


def _matmul_into(buffer: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a @ b written into `buffer` when it has the right shape (every full tile), else anew.

    Allocating a fresh tile of scores at every step can cost page faults and allocator work
    that a buffer reused for the whole call does not (not measured apart)."""
    if buffer.shape == (*a.shape[:-1], b.shape[-1]):
        return torch.matmul(a, b, out=buffer)
    return a @ b


def _mask_above_diagonal(S: torch.Tensor, q0: int, k0: int) -> torch.Tensor:
    """Set S[..., i, j] = -inf where key k0 + j comes after query q0 + i (in place)."""
    i = torch.arange(q0, q0 + S.shape[-2], device=S.device)[:, None]  # (bq, 1)
    j = torch.arange(k0, k0 + S.shape[-1], device=S.device)[None, :]  # (1, bk)
    return S.masked_fill_(j > i, float("-inf"))  # (B, H, bq, bk)


# --8<-- [end:tiles]
# --8<-- [start:forward]
def _forward(Q, K, V, causal: bool, scale: float, block_q: int, block_k: int):
    B, H, N_q, _ = Q.shape
    N_k = K.shape[-2]
    acc = acc_dtype(Q.dtype)
    c = scale * LOG2E  # exp(scale * x) = exp2(c * x), applied to differences of scores only
    O = torch.empty(Q.shape, dtype=acc, device=Q.device)  # (B, H, N_q, d)
    lse = torch.empty(B, H, N_q, dtype=acc, device=Q.device)  # (B, H, N_q)  unscaled units
    tile = torch.empty(B, H, block_q, block_k, dtype=acc, device=Q.device)  # S, then P
    for q0 in range(0, N_q, block_q):
        q1 = min(q0 + block_q, N_q)
        Q_i = Q[:, :, q0:q1].to(acc)  # (B, H, bq, d)
        m_i = torch.full((B, H, q1 - q0), float("-inf"), dtype=acc, device=Q.device)
        l_i = torch.zeros_like(m_i)  # (B, H, bq)
        O_i = torch.zeros_like(Q_i)  # (B, H, bq, d)  unnormalised output
        for k0, k1, masked in _key_blocks(q0, q1, N_k, block_k, causal):
            K_j, V_j = K[:, :, k0:k1].to(acc), V[:, :, k0:k1].to(acc)  # (B, H, bk, d)
            S = _matmul_into(tile, Q_i, K_j.transpose(-2, -1))  # (B, H, bq, bk)  unscaled
            if masked:
                _mask_above_diagonal(S, q0, k0)
            m_new = torch.maximum(m_i, S.amax(dim=-1))  # (B, H, bq)  finite: key 0 comes first
            alpha = torch.exp2((m_i - m_new) * c)  # (B, H, bq)  rescales the sums so far
            P = S.sub_(m_new[..., None]).mul_(c).exp2_()  # (B, H, bq, bk)  in place
            l_i = l_i * alpha + P.sum(dim=-1)  # (B, H, bq)
            O_i = O_i * alpha[..., None] + P @ V_j  # (B, H, bq, d)
            m_i = m_new
        O[:, :, q0:q1] = O_i / l_i[..., None]  # (B, H, bq, d)
        lse[:, :, q0:q1] = m_i + torch.log2(l_i) / c  # (B, H, bq)  P = exp2((S - lse) * c)
    return O, lse


# --8<-- [end:forward]
# --8<-- [start:backward]
def _backward(Q, K, V, O, lse, dO, dlse, causal: bool, scale: float, block_q, block_k):
    N_q, N_k = Q.shape[-2], K.shape[-2]
    acc = lse.dtype
    c = scale * LOG2E  # as in the forward; lse is in unscaled units
    # D_i = rowsum(dO * O); a gradient on lse adds P * dlse to dS, i.e. subtracts it from D.
    D = (dO.to(acc) * O.to(acc)).sum(dim=-1)  # (B, H, N_q)  O as the forward saved it
    if dlse is not None:
        D = D - dlse.to(acc)
    dQ = torch.zeros(Q.shape, dtype=acc, device=Q.device)  # (B, H, N_q, d)
    dK = torch.empty(K.shape, dtype=acc, device=Q.device)  # (B, H, N_k, d)
    dV = torch.empty(V.shape, dtype=acc, device=Q.device)  # (B, H, N_k, d)
    tile_S = torch.empty(*Q.shape[:2], block_q, block_k, dtype=acc, device=Q.device)
    tile_dS = torch.empty_like(tile_S)  # dP, then dS
    for k0 in range(0, N_k, block_k):
        k1 = min(k0 + block_k, N_k)
        K_j, V_j = K[:, :, k0:k1].to(acc), V[:, :, k0:k1].to(acc)  # (B, H, bk, d)
        dK_j, dV_j = torch.zeros_like(K_j), torch.zeros_like(V_j)
        for q0, q1, masked in _query_blocks(k0, k1, N_q, block_q, causal):
            Q_i, dO_i = Q[:, :, q0:q1].to(acc), dO[:, :, q0:q1].to(acc)  # (B, H, bq, d)
            S = _matmul_into(tile_S, Q_i, K_j.transpose(-2, -1))  # (B, H, bq, bk)  unscaled
            if masked:
                _mask_above_diagonal(S, q0, k0)
            P = S.sub_(lse[:, :, q0:q1, None]).mul_(c).exp2_()  # (B, H, bq, bk)  recomputed
            dV_j += P.transpose(-2, -1) @ dO_i  # (B, H, bk, d)
            dP = _matmul_into(tile_dS, dO_i, V_j.transpose(-2, -1))  # (B, H, bq, bk)
            dS = dP.sub_(D[:, :, q0:q1, None]).mul_(P)  # (B, H, bq, bk)  P * (dP - D)
            dQ[:, :, q0:q1] += (dS @ K_j) * scale  # (B, H, bq, d)
            dK_j += (dS.transpose(-2, -1) @ Q_i) * scale  # (B, H, bk, d)
        dK[:, :, k0:k1], dV[:, :, k0:k1] = dK_j, dV_j
    return dQ.to(Q.dtype), dK.to(K.dtype), dV.to(V.dtype)


# --8<-- [end:backward]
# --8<-- [start:autograd]
class _TiledAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, Q, K, V, causal, scale, block_q, block_k, needs_grad):
        O, lse = _forward(Q, K, V, causal, scale, block_q, block_k)  # O in acc
        out = O.to(Q.dtype)
        # The backward reads the output, as FlashAttention does; a float32 O only where
        # keeps_fp32_O says (very short query sequences in 16 bits).
        saved = O if keeps_fp32_O(Q.dtype, Q.shape[-2], needs_grad) else out
        ctx.save_for_backward(Q, K, V, saved, lse)
        ctx.args = (causal, scale, block_q, block_k)
        ctx.set_materialize_grads(False)
        return out, lse * scale  # the caller's lse is of the scaled logits

    @staticmethod
    def backward(ctx, dO, dlse):
        Q, K, V, O, lse = ctx.saved_tensors
        if dO is None:
            dO = torch.zeros_like(O)
        dQ, dK, dV = _backward(Q, K, V, O, lse, dO, dlse, *ctx.args)
        return dQ, dK, dV, None, None, None, None, None


def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    block_q: int | None = None,
    block_k: int | None = None,
    return_lse: bool = False,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """Tiled FlashAttention-2 forward (and backward) in PyTorch: softmax(q k^T * scale) v.

    Without block sizes the tiles follow default_blocks (sized for this CPU)."""
    scale = check_attention_inputs(q, k, v, causal=causal, scale=scale)
    B, H, N_q, _ = q.shape
    if block_q is None or block_k is None:
        default_q, default_k = default_blocks(B * H, N_q, k.shape[-2])
        block_q = default_q if block_q is None else block_q
        block_k = default_k if block_k is None else block_k
    block_q = check_block_size("block_q", block_q)
    block_k = check_block_size("block_k", block_k)
    needs_grad = torch.is_grad_enabled() and any(x.requires_grad for x in (q, k, v))
    O, lse = _TiledAttention.apply(q, k, v, causal, scale, block_q, block_k, needs_grad)
    return (O, lse) if return_lse else O


# --8<-- [end:autograd]
