"""Folding a constant into W_Q: the same model, a different training.

Said on why-dot-product-grows.md, derivation/variants.md, derivation/training.md and the card
why-scale.md: folding c = 1/sqrt(d_k) into W_Q leaves the forward pass unchanged, but with the
explicit factor one optimiser step changes the effective weights c W_Q by c^2 times as much as
in the folded model under SGD, and by c times under Adam.
"""

import math

import pytest
import torch


def _models(d_model: int = 32, d_k: int = 64, n: int = 16):
    """The explicit model's W_Q (c applied to the logits), the folded W_Q' = c W_Q, a loss."""
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, d_model, generator=gen, dtype=torch.float64)  # (n, d_model)
    W_k = torch.randn(d_model, d_k, generator=gen, dtype=torch.float64) / math.sqrt(d_model)
    target = torch.randn(n, n, generator=gen, dtype=torch.float64)  # (n, n)
    W_q = torch.randn(d_model, d_k, generator=gen, dtype=torch.float64) / math.sqrt(d_model)
    c = 1 / math.sqrt(d_k)
    explicit = W_q.clone().requires_grad_()
    folded = (c * W_q).clone().requires_grad_()

    def loss(W: torch.Tensor, scale: float) -> torch.Tensor:
        p = torch.softmax(scale * (x @ W) @ (x @ W_k).T, dim=-1)  # (n, n)
        return ((p - target.softmax(-1)) ** 2).sum()

    return c, explicit, folded, loss


@pytest.mark.parametrize("optimiser, power", [(torch.optim.SGD, 2), (torch.optim.Adam, 1)])
def test_folding_the_scale_into_w_q_changes_the_step_not_the_forward_pass(optimiser, power):
    c, explicit, folded, loss = _models()
    start_explicit, start_folded = c * explicit.detach().clone(), folded.detach().clone()
    assert torch.allclose(loss(explicit, c), loss(folded, 1.0))  # same function at the start

    for W, scale in ((explicit, c), (folded, 1.0)):
        opt = optimiser([W], lr=1e-3, **({"eps": 1e-30} if optimiser is torch.optim.Adam else {}))
        opt.zero_grad()
        loss(W, scale).backward()
        opt.step()

    step_explicit = c * explicit.detach() - start_explicit  # change of the effective weights c W_Q
    step_folded = folded.detach() - start_folded
    assert torch.allclose(step_explicit, c**power * step_folded, rtol=1e-9, atol=0)
