"""The Implementation page's claims: stable softmax, exp overflow, SDPA, scale placement."""

import math

import pytest
import torch
from torch.nn.functional import scaled_dot_product_attention

from attention_site import derivation_tables
from lockstep import includes
from snippets import overflow, rope, scale_placement
from snippets.figures import overflow_thresholds
from snippets.kernels import reference
from snippets.kernels.reference import naive_softmax, stable_softmax
from tests.conftest import SITE

# --- Naive and stable softmax ---------------------------------------------------------------


def test_stable_softmax_equals_naive_on_moderate_logits():
    gen = torch.Generator().manual_seed(0)
    x = 5 * torch.randn(32, 50, generator=gen, dtype=torch.float64)
    assert torch.allclose(stable_softmax(x), naive_softmax(x), rtol=1e-13, atol=1e-16)


def test_softmax_ignores_a_constant_shift_but_naive_overflows_on_it():
    x = torch.tensor([3.0, 2.0, 1.0])
    shifted = x + 1000.0
    assert torch.allclose(stable_softmax(shifted), stable_softmax(x))
    assert torch.isnan(naive_softmax(shifted)).all()


def test_the_reference_kernels_softmax_section_is_exactly_the_two_softmax_functions():
    code = includes.expand(
        '--8<-- "snippets/kernels/reference.py:softmax"', SITE.root, SITE.snippets_options
    )
    namespace = {"torch": torch}
    exec(code, namespace)
    defined = {k for k, v in namespace.items() if callable(v) and k != "torch"}
    assert defined == {"naive_softmax", "stable_softmax"}


# --- Where exp overflows --------------------------------------------------------------------


@pytest.mark.parametrize("dtype", overflow.DTYPES, ids=str)
def test_exp_is_finite_just_below_the_threshold_and_inf_just_above(dtype):
    t = reference.exp_overflow_threshold(dtype)
    below, above = overflow.neighbours(t, dtype)
    assert below.item() <= t < above.item()
    # adjacent values of the type: nothing representable lies between them
    assert torch.nextafter(below, torch.tensor(math.inf, dtype=dtype)) == above
    assert torch.isfinite(torch.exp(below))
    assert torch.isinf(torch.exp(above))


def test_exp_700_overflows_in_float32_but_not_in_float64():
    assert torch.isinf(torch.exp(torch.tensor(700.0, dtype=torch.float32)))
    assert torch.isfinite(torch.exp(torch.tensor(700.0, dtype=torch.float64)))
    assert 700 < reference.exp_overflow_threshold(torch.float64) < 710


def test_float16_has_the_smallest_threshold_and_bfloat16_is_close_to_float32():
    t = overflow_thresholds.data()
    assert min(t, key=t.get) == "float16"
    assert abs(t["bfloat16"] - t["float32"]) < 0.01
    assert t["float64"] > 700


def test_overflow_figure_plots_log_of_finfo_max_for_every_dtype():
    data = overflow_thresholds.data()
    assert list(data) == [overflow.dtype_name(d) for d in overflow.DTYPES]
    for dtype in overflow.DTYPES:
        assert data[overflow.dtype_name(dtype)] == math.log(torch.finfo(dtype).max)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_overflow_table_has_a_row_per_dtype_with_inf_just_above(lang):
    rows = derivation_tables.overflow_table(lang).splitlines()[2:]
    assert [r.split("|")[1].strip(" `") for r in rows] == [
        overflow.dtype_name(d) for d in overflow.DTYPES
    ]
    assert all(row.rstrip().endswith("= inf |") for row in rows)


# --- PyTorch's scaled_dot_product_attention -------------------------------------------------


def test_sdpa_default_scale_is_one_over_sqrt_of_the_query_dim_not_the_value_dim():
    gen = torch.Generator().manual_seed(0)
    q = torch.randn(1, 2, 5, 16, generator=gen, dtype=torch.float64)
    k = torch.randn(1, 2, 7, 16, generator=gen, dtype=torch.float64)
    v = torch.randn(1, 2, 7, 4, generator=gen, dtype=torch.float64)
    out = scaled_dot_product_attention(q, k, v)

    def explicit(scale: float) -> torch.Tensor:
        return torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1) @ v

    assert torch.allclose(out, explicit(1 / math.sqrt(16)), rtol=1e-12)
    assert not torch.allclose(out, explicit(1 / math.sqrt(4)), rtol=1e-3)


# --- Where the scale goes -------------------------------------------------------------------


def _qk(d_k: int, dtype: torch.dtype, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(3, 24, d_k, generator=gen, dtype=torch.float64).to(dtype)
    k = torch.randn(3, 20, d_k, generator=gen, dtype=torch.float64).to(dtype)
    return q, k


def test_all_four_placements_agree_in_float64():
    q, k = _qk(96, torch.float64)
    s = 1 / math.sqrt(96)
    ref = scale_placement.scaled_scores(q, k, s, "scores")
    for where in scale_placement.PLACEMENTS:
        assert torch.allclose(scale_placement.scaled_scores(q, k, s, where), ref, rtol=1e-13)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16], ids=str)
def test_every_placement_is_within_a_few_eps_in_low_precision(dtype):
    errors = scale_placement.placement_errors(dtype)
    assert set(errors) == set(scale_placement.PLACEMENTS)
    assert all(0 <= e < 8 for e in errors.values()), errors


@pytest.mark.parametrize("d_k", [1, 16, 256])
def test_placements_are_bit_identical_when_the_factors_are_powers_of_two(d_k):
    q, k = _qk(d_k, torch.float32)
    s = 1 / math.sqrt(d_k)  # d_k = 4**j: both s and sqrt(s) are powers of 2
    ref = scale_placement.scaled_scores(q, k, s, "scores")
    for where in scale_placement.PLACEMENTS:
        assert torch.equal(scale_placement.scaled_scores(q, k, s, where), ref)


def test_an_unknown_placement_is_rejected():
    q, k = _qk(4, torch.float64)
    with pytest.raises(ValueError, match="where"):
        scale_placement.scaled_scores(q, k, 0.5, "values")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_placement_table_has_a_row_per_low_precision_dtype(lang):
    rows = derivation_tables.placement_table(lang).splitlines()[2:]
    assert [r.split("|")[1].strip(" `") for r in rows] == [
        overflow.dtype_name(d) for d in derivation_tables.PLACEMENT_DTYPES
    ]


def test_scaling_after_the_softmax_or_on_v_is_not_equivalent():
    gen = torch.Generator().manual_seed(2)
    q, k, v = (torch.randn(8, 64, generator=gen, dtype=torch.float64) for _ in range(3))
    S, s = q @ k.T, 1 / 8
    right = torch.softmax(S * s, -1)
    after = torch.softmax(S, -1) * s
    assert torch.allclose(right.sum(-1), torch.ones(8, dtype=torch.float64))
    assert torch.allclose(after.sum(-1), torch.full((8,), s, dtype=torch.float64))
    assert not torch.allclose(torch.softmax(S, -1) @ (v * s), right @ v)


# --- RoPE -----------------------------------------------------------------------------------


def _rotation_matrix(m: int, d: int, base: float = 10000.0) -> torch.Tensor:
    """R^d_{Θ,m} of RoFormer Eq. (15), written out as a dense block-diagonal matrix."""
    R = torch.zeros(d, d, dtype=torch.float64)
    for i in range(d // 2):
        a = m * base ** (-2 * i / d)
        c, s = math.cos(a), math.sin(a)
        R[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = torch.tensor([[c, -s], [s, c]])
    return R


def test_rope_is_the_block_diagonal_rotation_of_roformer():
    gen = torch.Generator().manual_seed(3)
    d, positions = 8, torch.tensor([0, 1, 5, 40])
    x = torch.randn(len(positions), d, generator=gen, dtype=torch.float64)
    out = rope.rope(x, positions)
    for row, m in enumerate(positions.tolist()):
        assert torch.allclose(out[row], _rotation_matrix(m, d) @ x[row])


def test_rope_is_linear_so_the_scale_commutes_with_it():
    gen = torch.Generator().manual_seed(4)
    x, pos = torch.randn(2, 10, 16, generator=gen, dtype=torch.float64), torch.arange(10)
    assert torch.allclose(rope.rope(0.125 * x, pos), 0.125 * rope.rope(x, pos))


def test_rope_score_depends_only_on_the_relative_position_and_norms_are_kept():
    gen = torch.Generator().manual_seed(5)
    q, k = (torch.randn(1, 32, generator=gen, dtype=torch.float64) for _ in range(2))

    def score(m: int, n: int) -> float:
        return (rope.rope(q, torch.tensor([m])) @ rope.rope(k, torch.tensor([n])).T).item()

    assert score(7, 3) == pytest.approx(score(107, 103), rel=1e-10)
    assert score(7, 3) != pytest.approx(score(7, 4), rel=1e-3)
    assert rope.rope(q, torch.tensor([9])).norm().item() == pytest.approx(q.norm().item())


def test_rope_keeps_the_variance_of_the_dot_product_at_d_k():
    gen = torch.Generator().manual_seed(6)
    n, d_k = 20_000, 64
    q = torch.randn(n, d_k, generator=gen, dtype=torch.float64)
    k = torch.randn(n, d_k, generator=gen, dtype=torch.float64)
    qr = rope.rope(q, torch.full((n,), 11))  # every query at position 11
    kr = rope.rope(k, torch.full((n,), 3))  # every key at position 3
    assert (qr * kr).sum(-1).var().item() == pytest.approx(d_k, rel=0.05)


def test_rope_rejects_an_odd_dimension():
    with pytest.raises(ValueError, match="even"):
        rope.rope(torch.zeros(2, 5), torch.arange(2))
