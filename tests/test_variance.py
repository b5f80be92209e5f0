"""The variance argument, checked on samples: E[q·k] = 0, Var(q·k) = d_k, and what scaling does."""

import math

import pytest

from snippets import computed, variance


@pytest.mark.parametrize("d_k", [1, 16, 64, 256])
def test_dot_product_has_mean_zero_and_variance_d_k(d_k):
    s = variance.dot_products(d_k)
    n = s.numel()
    # Sampling error of the mean is sqrt(d_k / n); of the variance about sqrt(Var(s^2) / n).
    assert abs(s.mean().item()) < 4 * math.sqrt(d_k / n)
    assert s.var().item() == pytest.approx(d_k, rel=0.05)


def test_dividing_by_sqrt_d_k_gives_unit_std_for_every_d_k():
    for d_k in (16, 256, 1024):
        assert variance.scaled_std(d_k, 1 / math.sqrt(d_k)) == pytest.approx(1.0, rel=0.03)


def test_dividing_by_d_k_makes_the_std_shrink_like_one_over_sqrt_d_k():
    for d_k in (16, 256, 1024):
        assert variance.scaled_std(d_k, 1 / d_k) == pytest.approx(1 / math.sqrt(d_k), rel=0.03)


def test_samples_are_reproducible_and_seeded():
    a, b = variance.dot_products(8, n=100, seed=3), variance.dot_products(8, n=100, seed=3)
    assert (a == b).all()
    assert not (a == variance.dot_products(8, n=100, seed=4)).all()


@pytest.mark.parametrize("d_k, n", [(0, 100), (8, 1)])
def test_bad_sizes_are_rejected(d_k, n):
    with pytest.raises(ValueError, match="d_k"):
        variance.dot_products(d_k, n=n)


def test_sigma_table_rows_follow_the_derivation():
    for d_k, root, raw, by_root, by_d in computed.sigma_rows():
        assert root == math.sqrt(d_k)
        assert raw == pytest.approx(root, rel=0.03)
        assert by_root == pytest.approx(1.0, rel=0.03)
        assert by_d == pytest.approx(1 / root, rel=0.03)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sigma_table_is_markdown_with_a_row_per_d_k(lang):
    lines = computed.render("sigma_table", lang).splitlines()
    assert len(lines) == 2 + len(computed.D_KS)
    assert all(line.startswith("|") and line.endswith("|") for line in lines)


def test_unknown_computed_name_names_the_known_ones():
    with pytest.raises(KeyError, match="sigma_table"):
        computed.render("sigma_tabel", "en")


def test_relative_error_matches_its_formula():
    expected = 100 / math.sqrt(2 * variance.N_SAMPLES)
    assert computed.render("std_relative_error", "en") == f"{expected:.1f}\\%"
