"""Numerical stability: where exp overflows, and which kernels survive huge logits."""

from __future__ import annotations

import pytest
import torch

from snippets.kernels.reference import (
    exp_overflow_threshold,
    naive_softmax,
    stable_softmax,
)
from snippets.overflow import neighbours

from .support import KERNELS, max_abs_err, truth

FLOAT_DTYPES = [torch.float16, torch.bfloat16, torch.float32]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
def test_naive_softmax_overflows_exactly_above_the_threshold(dtype):
    below, above = neighbours(exp_overflow_threshold(dtype), dtype)
    assert below.item() < exp_overflow_threshold(dtype) < above.item()
    zero = torch.zeros((), dtype=dtype)
    ok = naive_softmax(torch.stack([below, zero]))
    bad = naive_softmax(torch.stack([above, zero]))
    assert torch.isfinite(ok).all(), ok
    assert torch.isnan(bad[0]), bad  # exp(x) = inf, and inf / inf = nan
    # the max-subtracted softmax is fine on both sides
    for x in (below, above):
        p = stable_softmax(torch.stack([x, zero]))
        assert torch.isfinite(p).all() and p.sum().item() == pytest.approx(1.0, rel=1e-2)


def _huge_logit_inputs(causal: bool):
    """q, k of norm 100 along random directions, scale 1: logits q.k reach about +-1e4."""
    gen = torch.Generator().manual_seed(0)
    B, H, N, d = 2, 2, 48, 16
    unit = lambda n: torch.nn.functional.normalize(  # noqa: E731
        torch.randn(B, H, n, d, generator=gen, dtype=torch.float64), dim=-1
    )
    q, k = 100 * unit(N), 100 * unit(N)
    k[:, :, 0] = -q[:, :, 0]  # guarantees the logit -1e4 (query 0 sees key 0, also causal)
    k[:, :, 1] = q[:, :, 1]  # and +1e4
    v = torch.randn(B, H, N, d, generator=gen, dtype=torch.float64)
    return q, k, v


@pytest.mark.parametrize("name", list(KERNELS))
@pytest.mark.parametrize("causal", [False, True])
def test_logits_of_1e4_give_finite_outputs_equal_to_truth_in_fp32(name, causal):
    q, k, v = _huge_logit_inputs(causal)
    logits = q @ k.transpose(-2, -1)
    assert logits.max() >= 0.999e4 and logits.min() <= -0.999e4  # the premise holds
    want, _ = truth(q, k, v, causal=causal, scale=1.0)
    q32, k32, v32 = (x.float() for x in (q, k, v))
    out = KERNELS[name](q32, k32, v32, causal=causal, scale=1.0)
    assert torch.isfinite(out).all()
    # fp32 logits of size 1e4 are only known to ~1e4 * eps ~ 1e-3, which moves near-tied
    # probabilities by about that much (measured: 2e-5); overflow garbage would be O(1).
    assert max_abs_err(out.double(), want) <= 1e-3
    # the same logits through the naive softmax do overflow
    assert torch.isnan(naive_softmax(q32 @ k32.transpose(-2, -1))).any()


def test_stable_softmax_matches_torch_softmax():
    x = torch.randn(7, 33, generator=torch.Generator().manual_seed(0)) * 50
    assert max_abs_err(stable_softmax(x), torch.softmax(x, dim=-1)) <= 1e-6
    assert max_abs_err(naive_softmax(x / 50), torch.softmax(x / 50, dim=-1)) <= 1e-6
