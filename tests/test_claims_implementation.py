"""Claims of the Implementation and Variants pages that their printed output does not settle.

Implementation: the naive softmax fails by underflow too, and agrees with the stable one only
where every exponential is a normal number; the stable terms lie in [0, 1]; the exact overflow
boundary sits above ln(max) but below the next value of the type; a float16 running sum stalls;
the worst-case errors of the scale placements in a row of the table lie within one eps, while
single scores of two placements can lie further apart in float32; SDPA's CPU backend choice.
(The soft cap's order of agreement is in test_variants.py, folding a constant into W_Q in
test_folding.py.)
"""

import math

import pytest
import torch

from attention_site import derivation_tables
from snippets import overflow
from snippets.kernels.reference import naive_softmax, stable_softmax
from snippets.scale_placement import PLACEMENTS, placement_errors, scaled_scores

FLOATS = (torch.float32, torch.float64)

# --- Implementation: naive and stable softmax -----------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_naive_softmax_is_nan_when_every_exp_underflows_and_stable_is_not(dtype):
    x = torch.tensor([1000.0, 999.0, 998.0], dtype=dtype) - 2000.0  # every exp(x) is 0
    assert (torch.exp(x) == 0).all()
    assert torch.isnan(naive_softmax(x)).all()
    expected = torch.softmax(x.double(), dim=-1).to(dtype)
    assert torch.allclose(stable_softmax(x), expected, rtol=1e-6)


def test_naive_softmax_loses_digits_among_subnormal_exps_and_stable_does_not():
    x = torch.tensor([-100.0, -101.0, -102.0])  # float32: every exp(x) is subnormal
    tiny = torch.finfo(torch.float32).tiny
    assert (torch.exp(x) < tiny).all()
    exact = torch.softmax(x.double(), dim=-1)
    naive_err = ((naive_softmax(x).double() - exact).abs() / exact).max().item()
    stable_err = ((stable_softmax(x).double() - exact).abs() / exact).max().item()
    assert naive_err > 0.01  # visibly wrong weights, as the page prints
    assert stable_err < 1e-6


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_naive_and_stable_agree_to_rounding_where_every_exp_is_normal(dtype):
    info = torch.finfo(dtype)
    lo, hi = math.log(info.tiny) + 1, math.log(info.max) - 10  # exp(x) normal, sum finite
    gen = torch.Generator().manual_seed(0)
    x = (lo + (hi - lo) * torch.rand(64, 8, generator=gen, dtype=torch.float64)).to(dtype)
    assert torch.isfinite(torch.exp(x).sum(-1)).all() and (torch.exp(x) >= info.tiny).all()
    # weights lie in [0, 1]: agreement to rounding is a difference of a few units of eps
    assert (naive_softmax(x) - stable_softmax(x)).abs().max().item() <= 4 * info.eps


def test_stable_softmax_terms_lie_in_the_closed_unit_interval_far_and_masked_ones_are_zero():
    p = stable_softmax(torch.tensor([0.0, -200.0, -math.inf]))  # float32
    assert p.tolist() == [1.0, 0.0, 0.0]


def test_stable_softmax_is_nan_only_where_the_row_maximum_is_not_finite():
    # implementation: "safe as long as the row's maximum m is finite"; a fully masked row, or
    # a logit of +inf, makes x - m nan and so every weight
    inf = math.inf
    for row in ([-inf, -inf, -inf], [inf, 0.0, 1.0]):
        assert torch.isnan(stable_softmax(torch.tensor(row))).all(), row
    p = stable_softmax(torch.tensor([-inf, 0.0, -inf, 3.0]))
    assert torch.isfinite(p).all() and p.sum().item() == pytest.approx(1)


@pytest.mark.parametrize("dtype", overflow.DTYPES, ids=str)
def test_exact_overflow_boundary_is_above_ln_max_but_below_the_next_value(dtype):
    fmax = torch.tensor(torch.finfo(dtype).max, dtype=dtype)
    ulp = (fmax - torch.nextafter(fmax, torch.tensor(0.0, dtype=dtype))).item()
    t = math.log(fmax.item())
    gap = math.log1p(ulp / 2 / fmax.item())  # ln(max + ulp/2) - ln(max): exp is inf beyond
    below, above = overflow.neighbours(t, dtype)
    assert gap > 0  # the exact boundary lies above ln(max) ...
    assert above.item() - t >= gap  # ... but not above the next value of the type
    assert below.item() <= t


def test_a_float16_running_sum_of_ones_stalls_at_2048():
    totals = {}
    for dtype in (torch.float16, torch.float32):
        total = torch.zeros((), dtype=dtype)
        for _ in range(4096):
            total += 1
        totals[dtype] = total.item()
    assert totals == {torch.float16: 2048.0, torch.float32: 4096.0}
    assert torch.finfo(torch.float16).eps * 2048 == 2  # the spacing above 2048


# --- Implementation: scale placement and SDPA -----------------------------------------------


@pytest.mark.parametrize("dtype", derivation_tables.PLACEMENT_DTYPES, ids=str)
def test_worst_case_errors_of_the_placements_in_a_row_of_the_table_lie_within_one_eps(dtype):
    errors = placement_errors(dtype)  # the table's inputs (its default seed)
    assert set(errors) == set(PLACEMENTS)
    assert max(errors.values()) - min(errors.values()) < 1


def test_in_float32_single_scores_of_two_placements_lie_more_than_one_eps_apart():
    dtype, d_k, n = torch.float32, 128, 64  # the table's inputs (placement_errors' defaults)
    gen = torch.Generator().manual_seed(0)
    q = torch.randn(n, d_k, generator=gen).to(dtype)
    k = torch.randn(n, d_k, generator=gen).to(dtype)
    scale = 1 / math.sqrt(d_k)
    exact = (q.double() @ k.double().T) * scale
    unit = exact.abs().max() * torch.finfo(dtype).eps  # the table's unit
    S = {w: scaled_scores(q, k, scale, w).double() for w in PLACEMENTS}
    apart = max(((S[a] - S[b]).abs().max() / unit).item() for a in S for b in S)
    assert apart > 1


def test_sdpa_on_the_cpu_picks_the_fused_kernel_unless_the_value_dim_differs():
    from torch.nn.attention import SDPBackend

    def choice(*qkv: torch.Tensor) -> SDPBackend:
        return SDPBackend(torch._fused_sdp_choice(*qkv))

    for dtype in FLOATS:
        q = torch.randn(2, 4, 10, 64, dtype=dtype)
        v = torch.randn(2, 4, 10, 32, dtype=dtype)
        assert choice(q, q, v) == SDPBackend.MATH
        assert choice(q, q, q) == SDPBackend.FLASH_ATTENTION


# --- Variants ---------------------------------------------------------------------------------
