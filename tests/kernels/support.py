"""Shared by the kernel tests: the kernels under test, an fp64 ground truth, error helpers."""

from __future__ import annotations

import functools

import torch
import torch.nn.functional as F
from hypothesis import settings

from snippets.kernels import online_softmax, reference, triton_attention

KERNEL_SETTINGS = settings.get_profile("kernels")

# Each kernel with the calling convention attention(q, k, v, *, causal, scale, return_lse).
# The tiled kernel gets small blocks so that short sequences still span several tiles.
KERNELS = {
    "reference": reference.attention,
    "tiled": functools.partial(online_softmax.attention, block_q=64, block_k=32),
    "triton": triton_attention.attention,
}


def sdpa(q, k, v, *, causal=False, scale=None, return_lse=False):
    """PyTorch's own kernel in our convention (the yardstick for the error rule)."""
    assert not return_lse
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)


def truth(q, k, v, *, causal=False, scale=None):
    """fp64 ground truth built from torch.softmax, independent of snippets.kernels."""
    q, k, v = (x.to(torch.float64) for x in (q, k, v))
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    S = q @ k.transpose(-2, -1) * scale  # (B, H, N_q, N_k)
    if causal:  # the mask PyTorch documents for is_causal: ones(N_q, N_k).tril()
        keep = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
        S = S.masked_fill(~keep, float("-inf"))
    return torch.softmax(S, dim=-1) @ v, torch.logsumexp(S, dim=-1)


def random_inputs(shape_q, shape_kv, dtype, seed):
    """q, k, v, dO drawn in fp64 then rounded to dtype, so every kernel sees the same values."""
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(shape_q, generator=gen, dtype=torch.float64).to(dtype)
    k = torch.randn(shape_kv, generator=gen, dtype=torch.float64).to(dtype)
    v = torch.randn(shape_kv, generator=gen, dtype=torch.float64).to(dtype)
    dO = torch.randn(shape_q, generator=gen, dtype=torch.float64).to(dtype)
    return q, k, v, dO


def forward_backward(fn, q, k, v, dO, *, causal, scale):
    """(out, dq, dk, dv) of fn for the upstream gradient dO, all as fp64 for comparison."""
    q, k, v = (x.detach().clone().requires_grad_() for x in (q, k, v))
    out = fn(q, k, v, causal=causal, scale=scale)
    dq, dk, dv = torch.autograd.grad(out, (q, k, v), dO.to(out.dtype))
    return [t.detach().to(torch.float64) for t in (out, dq, dk, dv)]


def true_forward_backward(q, k, v, dO, *, causal, scale):
    """(out, dq, dk, dv) of the fp64 ground truth on the same (rounded) inputs."""
    return forward_backward(
        lambda q, k, v, **kw: truth(q, k, v, **kw)[0],
        *(x.to(torch.float64) for x in (q, k, v, dO)),
        causal=causal,
        scale=scale,
    )


def max_abs_err(a: torch.Tensor, b: torch.Tensor) -> float:
    return (a - b).abs().max().item()
