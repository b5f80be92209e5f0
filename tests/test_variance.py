"""The variance argument, checked on samples: E[q·k] = 0, Var(q·k) = d_k, and what scaling does."""

import math

import pytest
import torch

from attention_site import variance_tables
from snippets import variance

# One worker runs this module (make test: --dist loadgroup), so its module fixture (the sampled
# table's rows) is made once, not once per worker.
pytestmark = pytest.mark.xdist_group("variance")


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


@pytest.fixture(scope="module")
def rows():
    return variance_tables.sigma_rows()


def test_measured_std_grows_like_sqrt_d_k_and_the_scales_undo_it(rows):
    assert [r[2] for r in rows] == sorted(r[2] for r in rows)  # grows with d_k
    for d_k, _, raw, by_root, by_d in rows:
        assert raw == pytest.approx(math.sqrt(d_k), rel=0.03)
        assert by_root == pytest.approx(1.0, rel=0.03)
        assert by_d * math.sqrt(d_k) == pytest.approx(1.0, rel=0.03)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sigma_table_shows_each_measured_row(lang, rows, monkeypatch):
    monkeypatch.setattr(variance_tables, "sigma_rows", lambda: rows)  # the same samples
    table = variance_tables.sigma_table(lang)
    for d_k, root, raw, by_root, by_d in rows:
        assert f"| {d_k} | {root:.2f} | {raw:.2f} | {by_root:.3f} | {by_d:.4f} |" in table


def test_stated_sampling_error_of_the_std_is_what_repeated_samples_show():
    # The page says a sample std has relative standard error about 1/sqrt(2n).
    stds = [variance.dot_products(64, n=variance.N_SAMPLES, seed=s).std().item() for s in range(40)]
    spread = torch.tensor(stds).std().item() / torch.tensor(stds).mean().item()
    stated = float(variance_tables.std_relative_error("en").removesuffix("\\%")) / 100
    assert spread == pytest.approx(stated, rel=0.35)
