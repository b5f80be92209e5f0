"""Claims on the interview cards long-context, qk-norm, flashattention-memory, soft-capping,
fully-masked-rows and flashattention-versions that their own code blocks do not print (the
cards' blocks print the cases they show; the soft cap's slopes at 1, 2 and 3 caps are asserted
in test_variants.py).

- long-context.md, "Key points", "Derivation" and a follow-up: the entropy of independent
  N(0, sigma^2) logits is about ln N - sigma^2/2 only once N >> e^(sigma^2).
- qk-norm.md, follow-up "Normalise before or after RoPE?": l2 normalisation commutes with a
  rotation, LayerNorm does not.
- flashattention-memory.md, follow-up "What is D_i": sum_j P_ij dP_ij = sum_t dO_it O_it.
- fully-masked-rows.md, "Pitfalls" and a follow-up: a causal sliding window [i - w + 1, i]
  never empties a row by itself; combined with left padding it does.
- flashattention-versions.md, "Extra credit": incoherent processing with a Hadamard matrix
  times a random +-1 diagonal, an orthogonal R, leaves QK^T unchanged.
- soft-capping.md, "Derivation" ("Increasing is not order-preserving in float32") and
  "Pitfalls", for Gemma 2's caps 50 and 30, with PyTorch's float32 tanh on the CPU (the page
  scopes these numbers to that implementation; fused GPU kernels use an approximate tanh):
  cap * tanh(x / cap) reverses the order of no two float32 logits in [cap, 12 cap] or in
  [-12 cap, -cap] (every bit pattern there is walked); adjacent float32 values already tie in
  [1, 2]; on a grid of step 0.01 the first tie lies between 4 and 5 caps out, on the integers
  between 6.5 and 7.5 caps out; and every logit beyond about 9 caps comes out as exactly the cap.
"""

import math
import struct

import torch
import torch.nn.functional as F


def _entropy(sigma: float, n: int, rows: int) -> float:
    gen = torch.Generator().manual_seed(0)
    s = sigma * torch.randn(rows, n, generator=gen, dtype=torch.float64)
    p = torch.softmax(s, dim=-1)
    return (-(p * p.log()).sum(-1)).mean().item()


def test_entropy_matches_ln_n_minus_half_sigma_squared_only_when_n_is_large():
    # sigma = 1, N = 16384 >> e^1: the formula holds to two decimals
    assert abs(_entropy(1.0, 16384, 50) - (math.log(16384) - 0.5)) < 0.01
    # sigma = 3, N = 64 << e^9: the formula gives a negative "entropy", the real one is positive
    formula = math.log(64) - 9 / 2
    measured = _entropy(3.0, 64, 2000)
    assert formula < 0 < measured
    assert measured - formula > 1.0


def _rope(x: torch.Tensor, pos: int) -> torch.Tensor:
    """Rotate each pair (x_2i, x_2i+1) by the angle pos * 10000^(-2i/d)."""
    d = x.shape[-1]
    theta = pos * 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    cos, sin = theta.cos(), theta.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)


def test_l2_normalisation_commutes_with_rope_but_layernorm_does_not():
    gen = torch.Generator().manual_seed(0)
    q = torch.randn(64, generator=gen, dtype=torch.float64) + 0.5  # nonzero mean
    d = q.shape[-1]
    assert torch.allclose(F.normalize(_rope(q, 7), dim=-1), _rope(F.normalize(q, dim=-1), 7))
    ln_after = F.layer_norm(_rope(q, 7), (d,))
    ln_before = _rope(F.layer_norm(q, (d,)), 7)
    assert (ln_after - ln_before).abs().max() > 0.1


def test_d_i_needs_only_do_and_o():
    gen = torch.Generator().manual_seed(0)
    n, d = 12, 8
    q, k, v, d_o = (torch.randn(n, d, generator=gen, dtype=torch.float64) for _ in range(4))
    p = torch.softmax(q @ k.T / math.sqrt(d), dim=-1)  # (n, n)
    o = p @ v  # (n, d)
    d_p = d_o @ v.T  # (n, n)
    assert torch.allclose((p * d_p).sum(-1), (d_o * o).sum(-1))


def _sliding_window(L: int, w: int) -> torch.Tensor:
    """keep[i, j]: query i may see key j, for i - w < j <= i."""
    i, j = torch.arange(L)[:, None], torch.arange(L)[None, :]
    return (j <= i) & (j > i - w)


def test_a_causal_sliding_window_empties_a_row_only_with_padding():
    L = 16
    for w in range(1, L + 1):
        keep = _sliding_window(L, w)
        assert keep.any(-1).all()  # every query keeps at least its own key
        padded = keep & (torch.arange(L)[None, :] >= 3)  # left padding hides keys 0, 1, 2
        assert not padded.any(-1).all()  # the padded queries 0, 1, 2 now see no key
        assert not padded[:3].any() and padded[3:].any(-1).all()


def test_incoherent_processing_leaves_the_scores_unchanged():
    gen = torch.Generator().manual_seed(0)
    d = 64
    H = torch.ones(1, 1, dtype=torch.float64)
    while H.shape[0] < d:  # Sylvester's construction of a Hadamard matrix
        H = torch.cat((torch.cat((H, H), 1), torch.cat((H, -H), 1)), 0)
    signs = torch.randint(0, 2, (d,), generator=gen).double() * 2 - 1
    R = H * signs / math.sqrt(d)  # Hadamard times a random +-1 diagonal, scaled to orthogonal
    assert torch.allclose(R @ R.T, torch.eye(d, dtype=torch.float64))
    Q, K = (torch.randn(32, d, generator=gen, dtype=torch.float64) for _ in range(2))
    Q[0, 5] = 100.0  # an outlier feature
    assert torch.allclose((Q @ R) @ (K @ R).T, Q @ K.T)
    assert (Q @ R).abs().max() < Q.abs().max() / 4  # the outlier is spread over the row


def _soft_cap(x: torch.Tensor, cap: float) -> torch.Tensor:
    assert x.device.type == "cpu"  # the card's float32 numbers are those of the CPU tanh
    return cap * torch.tanh(x / cap)  # as on the card


def _bits(v: float) -> int:
    """The float32 bit pattern of v as an int32 (for v >= 0 the patterns increase with v)."""
    return struct.unpack("<i", struct.pack("<f", v))[0]


def _every_float32(lo: float, hi: float, chunk: int = 1 << 22):
    """Every float32 in [lo, hi] (0 <= lo <= hi), ascending, in chunks that overlap by one
    value so that the differences across chunk borders are seen too."""
    first, last = _bits(lo), _bits(hi)
    for start in range(first, last + 1, chunk):
        stop = min(start + chunk + 1, last + 1)
        yield torch.arange(start, stop, dtype=torch.int32).view(torch.float32)


def _first_tie(x: torch.Tensor, cap: float) -> float:
    """The smaller of the first two neighbours of the grid x that come out equal."""
    tied = (_soft_cap(x, cap).diff() == 0).nonzero()
    return x[tied[0, 0]].item()


def test_float32_soft_cap_keeps_the_order_and_ties_logits_as_the_card_says():
    for cap in (50.0, 30.0):  # Gemma 2's caps
        pinned = {1: None, -1: None}  # the first float32 that comes out as exactly +-cap
        for x in _every_float32(cap, 12 * cap):
            for sign in (1, -1):
                y = _soft_cap(sign * x, cap)
                assert (sign * y.diff() >= 0).all(), f"an order reversed, cap {cap}, sign {sign}"
                at_cap = y == sign * cap
                if pinned[sign] is None and at_cap.any():
                    pinned[sign] = x[at_cap.nonzero()[0, 0]].item()
                    assert at_cap[at_cap.nonzero()[0, 0] :].all()
                elif pinned[sign] is not None:
                    assert at_cap.all(), "a logit beyond the first pinned one is not the cap"
        for sign in (1, -1):
            assert 9.0 * cap < pinned[sign] < 9.1 * cap
        far = torch.tensor([1e3 * cap, 1e30, float("inf")], dtype=torch.float32)  # past 12 caps
        assert (_soft_cap(far, cap) == cap).all() and (_soft_cap(-far, cap) == -cap).all()

        # adjacent float32 values already tie between 1 and 2, without reversing either
        (x,) = _every_float32(1.0, 2.0, chunk=1 << 24)
        steps = _soft_cap(x, cap).diff()
        assert (steps >= 0).all() and (steps == 0).any()

        hundredths = torch.arange(0, 1200 * cap + 1, dtype=torch.float64) / 100
        whole = torch.arange(0, 12 * cap + 1, dtype=torch.float64)
        for sign in (1, -1):
            grid = (sign * hundredths).to(torch.float32)  # step 0.01
            assert 4 * cap < abs(_first_tie(grid, cap)) < 5 * cap
            grid = (sign * whole).to(torch.float32)  # step 1
            assert 6.5 * cap < abs(_first_tie(grid, cap)) < 7.5 * cap
