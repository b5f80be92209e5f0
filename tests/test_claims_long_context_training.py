"""Claims of derivation/worked-example.md and derivation/long-context.md, checked on the code
those pages run (and, for long context, on every N of the page's figures)."""

import itertools
import math

import torch

from snippets import long_context, worked_example
from snippets.figures.max_logit import NS

Q = torch.tensor([1.0, 0.5, -0.5, 1.0], dtype=torch.float64)
K = torch.tensor(
    [[0.5, 1.0, 0.0, -1.0], [1.0, 0.5, 0.5, 0.0], [-1.0, 0.0, 1.0, 0.5]], dtype=torch.float64
)


def test_a_descent_step_moves_weight_to_the_second_key_from_the_first_and_third():
    dp = worked_example.case(K @ Q, 1.0)["dp"]
    assert dp[1] > 0 and dp[0] < 0 and dp[2] < 0
    assert dp.sum().abs() < 1e-12  # weight moves, it is not created


def test_the_loss_falls_after_the_descent_step():
    c = worked_example.case(K @ Q, 1.0)
    assert (worked_example.GRAD_P @ c["dp"]).item() < 0  # L is linear in p


def test_four_times_the_spread_cuts_the_gradient_by_more_than_ten():
    unscaled = worked_example.case(K @ Q, 1.0)
    spread = worked_example.case(4 * (K @ Q), 1.0)
    assert unscaled["grad_logits"] > 10 * spread["grad_logits"]


def test_at_d_k_64_the_scaled_gradient_at_q_dot_k_is_about_eight_times_larger():
    gen = torch.Generator().manual_seed(1)
    q = torch.randn(64, generator=gen, dtype=torch.float64)
    k = torch.randn(3, 64, generator=gen, dtype=torch.float64)
    raw, scaled = worked_example.case(k @ q, 1.0), worked_example.case(k @ q, 1 / 8)
    assert 7 < scaled["grad_qk"] / raw["grad_qk"] < 9


def test_the_measured_maximum_stays_below_sqrt_2_ln_n_at_every_n_of_the_figure():
    d = long_context.sweep(NS)
    assert all(m < bound for m, bound in zip(d["max"], d["sqrt_2lnN"], strict=True))


def test_entropy_meets_ln_n_minus_half_from_above_as_n_grows():
    d = long_context.sweep(NS)
    gap = [h - line for h, line in zip(d["entropy"], d["lnN_minus_half"], strict=True)]
    assert all(a > b for a, b in itertools.pairwise(gap) if a > 0.005)
    assert gap[NS.index(16)] > 0.05  # "at N = 16 it is higher"
    assert all(abs(g) < 0.005 for n, g in zip(NS, gap, strict=True) if n >= 1024)
    assert math.isclose(d["lnN_minus_half"][-1], math.log(NS[-1]) - 0.5)
