"""Claims in the prose of the variance, saturation and history pages that no block prints."""

import itertools
import math

import pytest
import torch

from attention_site import derivation_tables
from snippets import additive_attention, init_scale, saturation, variance
from snippets.figures import softmax_sharpness

# One worker runs this module (make test: --dist loadgroup), so its module fixture (the sweep behind
# two figures) is made once, not once per worker.
pytestmark = pytest.mark.xdist_group("claims_variance_history")


@pytest.fixture(scope="module")
def sweep() -> dict[str, list[float]]:
    """The rows behind the sharpness and Jacobian figures, by d_k in softmax_sharpness.D_KS."""
    return softmax_sharpness.data()


def at(d_k: int, values: list[float]) -> float:
    return values[softmax_sharpness.D_KS.index(d_k)]


def test_unscaled_jacobian_is_larger_up_to_one_crossover_and_peaks_before_it(sweep):
    # saturation: "for every d_k of the sweep up to {{ jacobian_unscaled_larger_up_to }} ... the
    # unscaled Jacobian is *larger* than the scaled one, whose weights are the flatter ones";
    # "it is highest at d_k = {{ jacobian_unscaled_peak }} and falls only beyond that; from
    # d_k = {{ jacobian_scaled_larger_from }} on, the scaled Jacobian is the larger one"
    raw, scaled = sweep["jac_raw"], sweep["jac_scaled"]
    larger = [r > s for r, s in zip(raw, scaled, strict=True)]
    first = larger.index(False)
    assert first > 0 and all(larger[:first]) and not any(larger[first:]), "one crossover"
    assert all(r > s for r, s in zip(sweep["max_p_raw"], sweep["max_p_scaled"], strict=True))
    d_ks = softmax_sharpness.D_KS
    assert derivation_tables.jacobian_unscaled_larger_up_to("en") == str(d_ks[first - 1])
    assert derivation_tables.jacobian_scaled_larger_from("en") == str(d_ks[first])
    std = float(derivation_tables.jacobian_unscaled_larger_std("en"))
    assert std == pytest.approx(math.sqrt(d_ks[first - 1]), abs=0.05)
    peak = raw.index(max(raw))
    assert derivation_tables.jacobian_unscaled_peak("en") == str(d_ks[peak])
    assert 0 < peak < first, "the unscaled curve rises before it falls"
    assert all(a > b for a, b in itertools.pairwise(raw[peak:])), "and then falls steadily"
    # "that dependence only hurts once d_k is large"
    for d_k in (64, 256, 1024):
        assert at(d_k, sweep["jac_raw"]) < at(d_k, sweep["jac_scaled"])


def test_jacobian_is_small_for_uniform_and_for_one_hot_weights():
    # saturation: "with 16 equal weights its norm is 1/16", and it vanishes at one-hot
    def norm(p):
        return torch.linalg.matrix_norm(saturation.softmax_jacobian(p), ord=2).item()

    assert norm(torch.full((16,), 1 / 16, dtype=torch.float64)) == pytest.approx(1 / 16)
    assert norm(torch.softmax(torch.tensor([30.0] + [0.0] * 15, dtype=torch.float64), -1)) < 1e-11


def test_layernorm_on_q_and_k_bounds_the_scaled_logit_by_sqrt_d_k_but_not_its_variance():
    # saturation: after a LayerNorm without gain or bias ||q||^2 ≈ d_k, so every scaled logit
    # is at most √d_k; unit variance also needs q and k to stay uncorrelated
    d_k = 64
    gen = torch.Generator().manual_seed(0)
    x = 3 + 5 * torch.randn(4000, d_k, generator=gen, dtype=torch.float64)
    q = torch.nn.functional.layer_norm(x, (d_k,))
    norms = q.pow(2).sum(-1)  # (4000,)
    assert torch.allclose(norms, torch.full_like(norms, float(d_k)), rtol=1e-4)
    k_indep = torch.nn.functional.layer_norm(torch.randn(4000, d_k, generator=gen), (d_k,))
    k_aligned = torch.nn.functional.layer_norm(x + torch.randn(4000, d_k, generator=gen), (d_k,))
    for k in (k_indep.double(), k_aligned):
        assert ((q * k).sum(-1) / math.sqrt(d_k)).abs().max() <= math.sqrt(d_k) + 1e-9
    assert ((q * k_indep.double()).sum(-1) / math.sqrt(d_k)).std() == pytest.approx(1, abs=0.05)
    aligned = (q * k_aligned).sum(-1) / math.sqrt(d_k)
    assert aligned.mean() > 0.9 * math.sqrt(d_k), "aligned q and k: logits near √d_k, not unit"


def test_unscaled_curves_head_for_one_hot_and_scaled_stay_nearly_level(sweep):
    # saturation: "the largest weight climbs towards 1 and the Jacobian norm falls towards 0"
    raw = sweep["max_p_raw"]
    assert all(a < b for a, b in itertools.pairwise(raw)) and raw[-1] > 0.95
    assert sweep["jac_raw"][-1] < 0.3 * sweep["jac_scaled"][-1]
    # "Divided by √d_k, both stay nearly level"
    for key in ("max_p_scaled", "jac_scaled"):
        assert max(sweep[key]) - min(sweep[key]) < 0.03


def test_scaled_histograms_share_their_variance_but_small_d_k_is_heavier_tailed_and_peaked():
    # why-dot-product-grows: same variance; excess kurtosis 6/d_k; the d_k = 8 histogram is
    # heavier-tailed and here also more peaked; the notebook says the same of d_k = 16
    excess = {}
    for d_k in (8, 16, 64, 512):
        s = variance.dot_products(d_k) / math.sqrt(d_k)
        assert s.std().item() == pytest.approx(1, abs=0.02)
        excess[d_k] = ((s - s.mean()) ** 4).mean().item() / s.var().item() ** 2 - 3
        if d_k in (8, 16):
            normal_centre = math.erf(0.25 / math.sqrt(2)) / 0.5  # N(0,1) density over |z| < 1/4
            normal_tail = math.erfc(3 / math.sqrt(2))  # P(|Z| > 3)
            assert (s.abs() < 0.25).double().mean().item() / 0.5 > 1.04 * normal_centre
            assert (s.abs() > 3).double().mean().item() > 1.5 * normal_tail
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
