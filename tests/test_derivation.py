"""Properties the derivation pages claim, checked on the snippets that produce their numbers."""

import math
from itertools import pairwise

import numpy as np
import pytest
import torch

from snippets import additive_attention, heavy_tails, init_scale, saturation
from snippets.figures import attention_entropy, jacobian_norm, max_logit


def test_softmax_jacobian_matches_autograd():
    s = torch.randn(5, dtype=torch.float64)
    J_auto = torch.autograd.functional.jacobian(lambda x: torch.softmax(x, -1), s)
    assert torch.allclose(saturation.softmax_jacobian(torch.softmax(s, -1)), J_auto)


def test_jacobian_vanishes_at_one_hot_and_peaks_at_one_half():
    one_hot = torch.tensor([0.0, 1.0, 0.0], dtype=torch.float64)
    assert saturation.softmax_jacobian(one_hot).abs().max() == 0
    half = torch.tensor([0.5, 0.5, 0.0], dtype=torch.float64)
    assert torch.linalg.matrix_norm(saturation.softmax_jacobian(half), ord=2) == pytest.approx(0.5)


def test_jacobian_norm_never_exceeds_one_half():
    p = torch.softmax(5 * torch.randn(5000, 7, dtype=torch.float64), -1)
    assert torch.linalg.eigvalsh(saturation.softmax_jacobian(p)).amax() <= 0.5 + 1e-12


# That unscaled sharpness grows with d_k and scaled does not: tests/test_claims_variance_history.py
# (the saturation page's claim, on the same sweep its module computes once).


def test_jacobian_shrinks_for_large_d_k_only_without_scale():
    d = jacobian_norm.data()
    assert d["raw"][-1] < 0.3 * d["scaled"][-1]
    assert max(d["scaled"]) - min(d["scaled"]) < 0.03
    assert d["raw"][0] > d["scaled"][0], "at d_k = 4 unscaled logits are not yet saturated"


def test_max_logit_grows_below_its_asymptote():
    d = max_logit.data()
    assert all(a < b for a, b in pairwise(d["max"]))
    assert all(m < a for m, a in zip(d["max"], d["sqrt_2lnN"], strict=True))
    assert d["sqrt_2lnN"][-1] - d["max"][-1] < 0.5


def test_entropy_is_ln_n_minus_one_half():
    d = attention_entropy.data()
    for N, h in zip(d["N"], d["entropy"], strict=True):
        if N >= 64:
            assert h == pytest.approx(math.log(N) - 0.5, abs=0.05)


def test_additive_scores_are_bounded_by_l1_norm_of_v():
    gen = torch.Generator().manual_seed(0)
    W_q, W_k = torch.randn(8, 4, generator=gen), torch.randn(8, 4, generator=gen)
    v = torch.randn(8, generator=gen)
    q, k = 1000 * torch.randn(50, 4, generator=gen), 1000 * torch.randn(50, 4, generator=gen)
    assert additive_attention.additive_score(q, k, W_q, W_k, v).abs().max() <= v.abs().sum() + 1e-4
    assert additive_attention.dot_score(q, k).abs().max() > 1e4


def test_init_std_one_over_sqrt_d_model_gives_unit_variance_and_0_02_does_not():
    q_std, s_std = init_scale.logit_std_at_init(768, 64, 1 / math.sqrt(768))
    assert q_std == pytest.approx(1, rel=0.03) and s_std == pytest.approx(1, rel=0.05)
    q_std, s_std = init_scale.logit_std_at_init(768, 64, 0.02)
    assert q_std == pytest.approx(math.sqrt(0.02**2 * 768), rel=0.03)
    assert s_std == pytest.approx(0.02**2 * 768, rel=0.05)


@pytest.mark.parametrize("d_k", [64, 1024])
def test_correlated_q_k_grow_like_d_k(d_k):
    s = init_scale.correlated_logits(d_k, rho=0.5)
    assert (s / d_k).mean().item() == pytest.approx(0.5, abs=0.01)


@pytest.mark.parametrize("nu", [None, 5.0, 3.0])
def test_variance_argument_holds_without_gaussians(nu):
    std, _ = heavy_tails.scaled_logit_stats(64, nu)
    assert std == pytest.approx(1.0, abs=0.03)


def test_heavy_tails_have_more_large_logits_than_normal():
    _, tail_normal = heavy_tails.scaled_logit_stats(64, None)
    _, tail_t3 = heavy_tails.scaled_logit_stats(64, 3.0)
    assert tail_t3 > 2 * tail_normal


def test_student_t_without_variance_is_rejected():
    with pytest.raises(ValueError, match="nu"):
        heavy_tails.unit_variance_samples((2, 2), 2.0, np.random.default_rng(0))
