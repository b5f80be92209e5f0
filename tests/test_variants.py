"""The Variants page's claims: √d_model, 1/d, soft-capping, and the scale split between Q and K."""

import math

import pytest
import torch

from attention_site import derivation_tables
from snippets import softcap
from snippets.figures import softcap as softcap_figure

CAPS = [30.0, 50.0]


# --- √d_k or √d_model -----------------------------------------------------------------------


def test_dividing_by_sqrt_d_model_shrinks_the_measured_std_by_one_over_sqrt_h():
    rows = derivation_tables.dmodel_rows()
    for h, _, by_dk, by_dm, _ in rows:
        assert by_dk == pytest.approx(1.0, rel=0.03)  # measured, not the formula
        assert by_dm * math.sqrt(h) == pytest.approx(by_dk, rel=0.03)
    assert [r[3] for r in rows] == sorted((r[3] for r in rows), reverse=True)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_dmodel_table_shows_each_measured_row(lang):
    table = derivation_tables.dmodel_table(lang)
    for h, d_model, by_dk, by_dm, _ in derivation_tables.dmodel_rows():
        assert f"| {h} | {d_model} | {by_dk:.3f} | {by_dm:.3f} |" in table


# --- 1/d (μP) -------------------------------------------------------------------------------


def test_correlated_queries_and_keys_grow_like_d_so_one_over_d_keeps_them_bounded():
    gen = torch.Generator().manual_seed(0)
    for d in (64, 1024):
        q = torch.randn(2000, d, generator=gen, dtype=torch.float64)
        k = 0.5 * q + math.sqrt(0.75) * torch.randn(2000, d, generator=gen, dtype=torch.float64)
        s = (q * k).sum(-1)
        assert (s / d).mean().item() == pytest.approx(0.5, abs=0.02)
        assert (s / math.sqrt(d)).mean().item() == pytest.approx(0.5 * math.sqrt(d), rel=0.05)


# --- Soft-capping ---------------------------------------------------------------------------


@pytest.mark.parametrize("cap", CAPS)
def test_softcap_is_bounded_by_the_cap(cap):
    x = torch.linspace(-1e4, 1e4, 20_001, dtype=torch.float64)
    y = softcap.softcap(x, cap)
    assert (y.abs() <= cap).all()  # in floating point tanh can round to exactly 1
    moderate = x.abs() <= 5 * cap
    assert (y[moderate].abs() < cap).all()


@pytest.mark.parametrize("cap", CAPS)
def test_softcap_is_odd(cap):
    x = torch.linspace(0, 300, 301, dtype=torch.float64)
    assert torch.equal(softcap.softcap(-x, cap), -softcap.softcap(x, cap))


@pytest.mark.parametrize("cap", CAPS)
def test_softcap_agrees_with_the_identity_through_second_order_and_departs_at_third(cap):
    x = torch.linspace(-1, 1, 201, dtype=torch.float64)
    error = (softcap.softcap(x, cap) - x).abs()
    assert (error <= x.abs() ** 3 / (3 * cap**2) + 1e-15).all()
    small = torch.tensor([1e-1, 1e-2], dtype=torch.float64) * cap
    departure = (softcap.softcap(small, cap) - small) / small**3  # the cubic term is not zero
    assert torch.allclose(departure, torch.full_like(small, -1 / (3 * cap**2)), rtol=1e-2)


@pytest.mark.parametrize("cap", CAPS)
def test_softcap_gradient_is_one_minus_tanh_squared_and_matches_autograd(cap):
    x = torch.linspace(-4 * cap, 4 * cap, 401, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(softcap.softcap(x, cap).sum(), x)
    assert torch.allclose(g, softcap.softcap_grad(x.detach(), cap), rtol=1e-12, atol=1e-15)
    assert softcap.softcap_grad(torch.tensor(0.0), cap).item() == 1.0
    at_cap = softcap.softcap_grad(torch.tensor(cap, dtype=torch.float64), cap).item()
    assert at_cap == pytest.approx(1 - math.tanh(1) ** 2)
    slopes = [softcap.softcap_grad(torch.tensor(m * cap), cap).item() for m in (1, 2, 3)]
    assert [round(g, 3) for g in slopes] == [0.42, 0.071, 0.01]  # the cards' numbers, any cap


def test_softcap_rejects_a_non_positive_cap():
    with pytest.raises(ValueError, match="cap"):
        softcap.softcap(torch.zeros(3), 0.0)


def test_softcap_figure_data_is_bounded_odd_and_has_unit_slope_at_zero():
    d = softcap_figure.data()
    x = d["x"]
    assert sorted(d["caps"]) == CAPS
    for cap, curve in d["caps"].items():
        y, g = curve["y"], curve["grad"]
        assert (abs(y) < cap).all()
        assert (abs(y + y[::-1]) < 1e-12).all()  # x is symmetric about 0
        assert g.max() == pytest.approx(1.0) and x[g.argmax()] == pytest.approx(0.0, abs=1e-9)
        assert (g > 0).all() and (g <= 1).all()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_softcap_table_lists_each_x_with_values_below_the_caps(lang):
    rows = derivation_tables.softcap_table(lang).splitlines()[2:]
    xs = [float(row.strip("|").split("|")[0]) for row in rows]
    assert xs == list(derivation_tables.SOFTCAP_XS)
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert float(cells[1]) < 30 and float(cells[3]) < 50


# --- Splitting the scale between Q and K ----------------------------------------------------


def test_scaling_before_the_product_avoids_a_float16_overflow_that_scaling_after_hits():
    d_k = 128
    q = torch.full((1, d_k), 24.0, dtype=torch.float16)
    s = 1 / math.sqrt(d_k)
    exact = 24.0 * 24.0 * d_k
    assert exact > torch.finfo(torch.float16).max > exact * s
    assert torch.isinf((q @ q.T) * s).all()
    assert torch.isfinite((q * s) @ q.T).all()
    assert torch.isfinite((q * math.sqrt(s)) @ (q * math.sqrt(s)).T).all()
