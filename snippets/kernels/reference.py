"""Scaled dot-product attention written to be read: softmax(Q K^T * scale) V.

Shapes: B batch, H heads, N_q queries, N_k keys, d head dimension.
This is the formula, not the fast path: it materialises the full (N_q, N_k) score
matrix. The fast paths are ``online_softmax.attention`` (tiled, plain PyTorch),
``triton_attention.attention`` and ``torch.nn.functional.scaled_dot_product_attention``.
"""

from __future__ import annotations

import math

import torch

from snippets.kernels._common import check_attention_inputs


# --8<-- [start:softmax]
def naive_softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Softmax straight from the definition exp(x) / sum(exp(x)); overflows for large x."""
    e = torch.exp(x)  # inf once x > ln(finfo.max)
    return e / e.sum(dim=dim, keepdim=True)  # inf / inf = nan; 0 / 0 = nan if all underflow


def stable_softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Softmax with the row maximum subtracted first, so every exp argument is <= 0."""
    m = x.amax(dim=dim, keepdim=True)  # the largest logit becomes exp(0) = 1
    e = torch.exp(x - m)  # in [0, 1]: cannot overflow (far-off terms round to 0)
    return e / e.sum(dim=dim, keepdim=True)  # the sum is >= 1: no division by zero


# --8<-- [end:softmax]


def exp_overflow_threshold(dtype: torch.dtype) -> float:
    """ln of the largest finite value of dtype: exp(x) is inf in that dtype for x above it."""
    return math.log(torch.finfo(dtype).max)


def causal_mask(N_q: int, N_k: int, device: torch.device | str | None = None) -> torch.Tensor:
    """Boolean (N_q, N_k) mask, True where query i may see key j, i.e. j <= i (top-left)."""
    i = torch.arange(N_q, device=device)[:, None]  # (N_q, 1)
    j = torch.arange(N_k, device=device)[None, :]  # (1, N_k)
    return j <= i  # (N_q, N_k), same as SDPA's is_causal


def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    return_lse: bool = False,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """softmax(q k^T * scale) v, optionally with the log-sum-exp of each query row."""
    scale = check_attention_inputs(q, k, v, causal=causal, scale=scale)
    N_q, N_k = q.shape[-2], k.shape[-2]

    S = q @ k.transpose(-2, -1)  # (B, H, N_q, N_k)  raw dot products
    S = S * scale  # (B, H, N_q, N_k)  scaled logits; scale = 1/sqrt(d) by default
    if causal:
        allowed = causal_mask(N_q, N_k, device=q.device)  # (N_q, N_k)
        S = S.masked_fill(~allowed, float("-inf"))  # (B, H, N_q, N_k)  exp(-inf) = 0
    m_i = S.amax(dim=-1, keepdim=True)  # (B, H, N_q, 1)  row max; finite, key 0 is visible
    E = torch.exp(S - m_i)  # (B, H, N_q, N_k)  every exponent <= 0
    l_i = E.sum(dim=-1, keepdim=True)  # (B, H, N_q, 1)  >= 1
    P = E / l_i  # (B, H, N_q, N_k)  attention weights, rows sum to 1
    out = P @ v  # (B, H, N_q, d)
    if return_lse:
        lse = (m_i + torch.log(l_i)).squeeze(-1)  # (B, H, N_q)  log sum_j exp(S_ij)
        return out, lse
    return out
