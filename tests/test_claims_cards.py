"""Claims on the interview cards long-context, qk-norm, flashattention-memory and soft-capping
that their own code blocks do not print (the cards' blocks print the cases they show; the soft
cap's slopes at 1, 2 and 3 caps are asserted in test_variants.py).

- long-context.md, "Key points" and a follow-up: the entropy of independent N(0, sigma^2)
  logits is about ln N - sigma^2/2 only once N >> e^(sigma^2).
- qk-norm.md, follow-up "Normalise before or after RoPE?": l2 normalisation commutes with a
  rotation, LayerNorm does not.
- flashattention-memory.md, follow-up "What is D_i": sum_j P_ij dP_ij = sum_t dO_it O_it.
- soft-capping.md, "Key points" and "Pitfalls": in float32, cap * tanh(x / cap) never
  reverses the order of two logits, but logits several caps out round to the same value, and
  every logit beyond about nine caps comes out as exactly the cap.
"""

import math

import torch
import torch.nn.functional as F


def _entropy(sigma: float, n: int, rows: int) -> float:
    gen = torch.Generator().manual_seed(0)
    s = sigma * torch.randn(rows, n, generator=gen, dtype=torch.float64)
    p = torch.softmax(s, dim=-1)
    return (-(p * p.log()).sum(-1)).mean().item()


def test_entropy_matches_ln_n_minus_half_sigma_squared_only_when_n_is_large():
    # sigma = 1, N = 16384 >> e^1: the formula holds to two decimals
    assert abs(_entropy(1.0, 16384, 50) - (math.log(16384) - 0.5)) < 0.01
    # sigma = 3, N = 64 << e^9: the formula gives a negative "entropy", the real one is positive
    formula = math.log(64) - 9 / 2
    measured = _entropy(3.0, 64, 2000)
    assert formula < 0 < measured
    assert measured - formula > 1.0


def _rope(x: torch.Tensor, pos: int) -> torch.Tensor:
    """Rotate each pair (x_2i, x_2i+1) by the angle pos * 10000^(-2i/d)."""
    d = x.shape[-1]
    theta = pos * 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    cos, sin = theta.cos(), theta.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)


def test_l2_normalisation_commutes_with_rope_but_layernorm_does_not():
    gen = torch.Generator().manual_seed(0)
    q = torch.randn(64, generator=gen, dtype=torch.float64) + 0.5  # nonzero mean
    d = q.shape[-1]
    assert torch.allclose(F.normalize(_rope(q, 7), dim=-1), _rope(F.normalize(q, dim=-1), 7))
    ln_after = F.layer_norm(_rope(q, 7), (d,))
    ln_before = _rope(F.layer_norm(q, (d,)), 7)
    assert (ln_after - ln_before).abs().max() > 0.1


def test_d_i_needs_only_do_and_o():
    gen = torch.Generator().manual_seed(0)
    n, d = 12, 8
    q, k, v, d_o = (torch.randn(n, d, generator=gen, dtype=torch.float64) for _ in range(4))
    p = torch.softmax(q @ k.T / math.sqrt(d), dim=-1)  # (n, n)
    o = p @ v  # (n, d)
    d_p = d_o @ v.T  # (n, n)
    assert torch.allclose((p * d_p).sum(-1), (d_o * o).sum(-1))


def _soft_cap(x: torch.Tensor, cap: float) -> torch.Tensor:
    return cap * torch.tanh(x / cap)  # as on the card


def test_float32_soft_cap_keeps_the_order_but_ties_logits_several_caps_out():
    for cap in (50.0, 30.0):  # Gemma 2's caps
        x = torch.linspace(0.0, 12 * cap, 2_000_001, dtype=torch.float32)
        y = _soft_cap(x, cap)
        steps = y[1:] - y[:-1]
        assert (steps >= 0).all(), "an order reversed"
        assert (steps == 0).any(), "no ties"
        whole = torch.arange(0, 12 * cap, dtype=torch.float32)  # integer logits
        whole_steps = _soft_cap(whole, cap).diff()
        first_tie = whole[1:][whole_steps == 0][0].item()
        assert 5 * cap < first_tie < 9 * cap  # two different integer logits, one value
        pinned = x[y == cap]  # logits that come out as exactly the cap
        assert 9.0 * cap < pinned.min().item() < 9.1 * cap
        assert (y[x >= pinned.min()] == cap).all()
