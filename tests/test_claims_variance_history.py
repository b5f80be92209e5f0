"""Claims in the prose of the variance, saturation and history pages that no block prints."""

import math

import pytest
import torch

from snippets import additive_attention, init_scale, saturation, variance
from snippets.figures import softmax_sharpness


@pytest.fixture(scope="module")
def sweep() -> dict[str, list[float]]:
    """The rows behind the sharpness and Jacobian figures, by d_k in softmax_sharpness.D_KS."""
    return softmax_sharpness.data()


def at(d_k: int, values: list[float]) -> float:
    return values[softmax_sharpness.D_KS.index(d_k)]


def test_unscaled_jacobian_is_larger_at_d_k_4_and_16_only_for_small_heads(sweep):
    # saturation: "at d_k = 4 and d_k = 16 the unscaled Jacobian is *larger* than the scaled one"
    for d_k in (4, 16):
        assert at(d_k, sweep["jac_raw"]) > at(d_k, sweep["jac_scaled"])
    # "... that dependence only hurts once d_k is large"
    for d_k in (64, 256, 1024):
        assert at(d_k, sweep["jac_raw"]) < at(d_k, sweep["jac_scaled"])


def test_unscaled_curves_head_for_one_hot_and_scaled_stay_nearly_level(sweep):
    # saturation: "the largest weight climbs towards 1 and the Jacobian norm falls towards 0"
    assert sweep["max_p_raw"] == sorted(sweep["max_p_raw"]) and sweep["max_p_raw"][-1] > 0.95
    assert sweep["jac_raw"][-1] < 0.3 * sweep["jac_scaled"][-1]
    # "Divided by √d_k, both stay nearly level"
    for key in ("max_p_scaled", "jac_scaled"):
        assert max(sweep[key]) - min(sweep[key]) < 0.03


def test_scaled_histograms_share_their_variance_but_small_d_k_is_more_peaked():
    # why-dot-product-grows: same variance; excess kurtosis 6/d_k, so d_k = 8 is more peaked
    excess = {}
    for d_k in (8, 64, 512):
        s = variance.dot_products(d_k) / math.sqrt(d_k)
        assert s.std().item() == pytest.approx(1, abs=0.02)
        excess[d_k] = ((s - s.mean()) ** 4).mean().item() / s.var().item() ** 2 - 3
    assert excess[8] == pytest.approx(6 / 8, abs=0.25)
    assert excess[8] > excess[64] and excess[8] > excess[512]


def test_gradient_at_logits_vanishes_in_attention_but_not_for_cross_entropy():
    # saturation: ∇_s L → 0 when ∇_p L stays bounded (attention), not for cross-entropy on p
    gen = torch.Generator().manual_seed(0)
    base = torch.tensor([0.0, 1.0, -1.0], dtype=torch.float64)
    V = torch.randn(3, 4, generator=gen, dtype=torch.float64)
    g_o = torch.randn(4, generator=gen, dtype=torch.float64)
    norms = []
    for c in (1, 10, 30):
        s = (c * base).requires_grad_()
        (torch.softmax(s, -1) @ V @ g_o).backward()  # L = <o, g_o>, o = pᵀV
        norms.append(s.grad.norm().item())
    assert norms[0] > 0.1 and norms[-1] < 1e-8
    s = torch.tensor([0.0, 8.0, -8.0], dtype=torch.float64, requires_grad=True)
    torch.nn.functional.cross_entropy(s[None], torch.tensor([0])).backward()  # confidently wrong
    p = torch.softmax(s.detach(), -1)
    assert torch.allclose(s.grad, p - torch.tensor([1.0, 0.0, 0.0], dtype=torch.float64))
    assert s.grad.norm().item() > 1


def test_additive_scores_tend_to_a_sum_of_signed_v_below_the_l1_bound():
    # history: as tanh saturates a score tends to Σ v_i sign(·)_i, which reaches ||v||_1 only
    # if every sign agrees with v_i
    gen = torch.Generator().manual_seed(0)
    W_q, W_k = torch.randn(8, 4, generator=gen), torch.randn(8, 4, generator=gen)
    v = torch.randn(8, generator=gen, dtype=torch.float64)
    q, k = torch.randn(20, 4, generator=gen), torch.randn(20, 4, generator=gen)
    big = 1e6
    limit = torch.sign((big * q) @ W_q.T + (big * k) @ W_k.T).double() @ v
    score = additive_attention.additive_score(
        big * q.double(), big * k.double(), W_q.double(), W_k.double(), v
    )
    assert torch.allclose(score, limit)
    assert score.abs().max() < v.abs().sum()


def test_fixed_std_logit_scale_grows_with_d_model():
    # history: with std 0.02, std(q·k/√d_k) ≈ 0.02² d_model, below 1 under 2500, above beyond
    small = init_scale.logit_std_at_init(1024, 64, 0.02)[1]
    large = init_scale.logit_std_at_init(3072, 64, 0.02)[1]
    assert small == pytest.approx(0.02**2 * 1024, rel=0.05) and small < 1
    assert large == pytest.approx(0.02**2 * 3072, rel=0.05) and large > 1


def test_lipschitz_constant_one_half_is_reached_for_two_keys_only_in_the_limit_for_more():
    # saturation: ||J||_2 = 1/2 for two equal logits; for four keys it stays below 1/2
    def norm(s):
        p = torch.softmax(torch.tensor(s, dtype=torch.float64), -1)
        return torch.linalg.matrix_norm(saturation.softmax_jacobian(p), ord=2).item()

    assert norm([0.0, 0.0]) == pytest.approx(0.5, abs=1e-15)
    gaps = [0.5 - norm([0.0, 0.0, -t, -t]) for t in (2.0, 5.0, 10.0, 20.0)]
    assert all(g > 0 for g in gaps) and gaps == sorted(gaps, reverse=True)
