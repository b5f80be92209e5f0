"""The position cards' claims about sinusoids, their unseen angles, T5's buckets and ALiBi's
slopes, checked against the papers' definitions and an independent scalar transcription of the
official bucket code."""

import math

import numpy as np
import pytest
import torch

from snippets.positions import alibi_slopes, sinusoid, t5_bucket, unseen_angles


def mesh_tf_bucket(rel: int, bidirectional: bool, num_buckets: int = 32, max_distance: int = 128):
    """Mesh TensorFlow's _relative_position_bucket for one offset, in numpy float32 like mtf."""
    ret, n = 0, -rel
    if bidirectional:
        num_buckets //= 2
        ret += int(n < 0) * num_buckets
        n = abs(n)
    else:
        n = max(n, 0)
    max_exact = num_buckets // 2
    if n < max_exact:
        return ret + n
    ratio = np.log(np.float32(n) / np.float32(max_exact))  # mtf.log(mtf.to_float(n) / max_exact)
    large = max_exact + int(ratio / math.log(max_distance / max_exact) * (num_buckets - max_exact))
    return ret + min(large, num_buckets - 1)


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_bucket_matches_a_scalar_transcription_of_mesh_tensorflow(bidirectional):
    rel = torch.arange(-3000, 3001)
    got = t5_bucket(rel, bidirectional=bidirectional).tolist()
    want = [mesh_tf_bucket(r, bidirectional) for r in rel.tolist()]
    assert got == want


def test_t5_buckets_follow_the_paper():
    """32 buckets, log-spaced, every offset of 128 or more in one bucket per direction (§2.1)."""
    far = torch.arange(0, 20_000)
    for bidirectional, last in ((True, 15), (False, 31)):
        behind = t5_bucket(-far, bidirectional=bidirectional)
        assert behind.min() >= 0 and behind.max() == last
        assert (behind[128:] == last).all()
        assert (behind[1:] >= behind[:-1]).all()  # farther never means a nearer bucket
    ahead = t5_bucket(far[1:])  # keys after the query: the upper half of an encoder's buckets
    assert ahead.min() == 17 and ahead.max() == 31  # offset 0 counts as behind: 16 goes unused
    assert 16 not in t5_bucket(torch.arange(-20_000, 20_001)).tolist()


def test_t5_bucket_rejects_fractional_offsets():
    with pytest.raises(TypeError, match="integer"):
        t5_bucket(torch.tensor([1.5]))


def test_alibi_slopes_are_the_papers_sequences():
    """8 heads: 1/2^1 .. 1/2^8; 16 heads: 1/2^0.5 .. 1/2^8; n heads: start 2^(-8/n), same ratio."""
    assert alibi_slopes(8) == [2.0**-h for h in range(1, 9)]
    assert alibi_slopes(16) == pytest.approx([2.0 ** (-h / 2) for h in range(1, 17)])
    for n in (1, 2, 4, 32):
        start = 2 ** (-8 / n)
        assert alibi_slopes(n) == pytest.approx([start ** (h + 1) for h in range(n)])


def test_alibi_slopes_for_other_head_counts_reuse_the_power_of_two_ones():
    """The authors' workaround: the slopes of the largest power of 2, then every other one of
    the next power, so 12 heads start with the 8-head slopes."""
    twelve = alibi_slopes(12)
    assert twelve[:8] == alibi_slopes(8)
    assert twelve[8:] == pytest.approx(alibi_slopes(16)[0::2][:4])
    assert len(set(twelve)) == 12
    with pytest.raises(ValueError, match="at least one head"):
        alibi_slopes(0)


def test_sinusoid_is_vaswanis_formula_and_an_offset_is_a_linear_map():
    d, pos = 16, torch.arange(0, 300)
    pe = sinusoid(pos, d)
    for p, i in ((7, 0), (123, 3), (299, 7)):
        assert pe[p, 2 * i].item() == pytest.approx(math.sin(p / 10000 ** (2 * i / d)))
        assert pe[p, 2 * i + 1].item() == pytest.approx(math.cos(p / 10000 ** (2 * i / d)))
    # A least-squares fit of PE[pos + k] on PE[pos] leaves no residual: one matrix for all pos.
    k = 11
    M, *_ = torch.linalg.lstsq(pe[:-k], pe[k:])
    assert torch.allclose(pe[:-k] @ M, pe[k:], atol=1e-9)
    with pytest.raises(ValueError, match="even"):
        sinusoid(pos, 7)


@pytest.mark.parametrize("d, L", [(16, 64), (64, 1024), (512, 512)])
def test_unseen_angles_matches_the_angles_the_sinusoid_actually_took(d, L):
    """Read each pair's angle back from its (sin, cos) values: a pair is unseen at pos exactly
    when it never finished a turn over 0..L-1 and its angle at pos lies beyond all it took."""
    omega = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    trained = sinusoid(torch.arange(L), d)
    angle = torch.atan2(trained[:, 0::2], trained[:, 1::2]) % (2 * math.pi)  # (L, d/2)
    full_turn = (L - 1) * omega >= 2 * math.pi
    for pos in (0, L - 1, L, L + 7, 3 * L, 10 * L + 1):
        pe = sinusoid(torch.tensor([pos]), d)[0]
        now = torch.atan2(pe[0::2], pe[1::2]) % (2 * math.pi)
        want = ~full_turn & (now > angle.max(dim=0).values + 1e-9)
        assert torch.equal(unseen_angles(omega, L, pos), want)
        if pos < L:
            assert not unseen_angles(omega, L, pos).any()  # a trained position is never new


def test_unseen_angles_rejects_an_empty_training_range():
    omega = torch.ones(4, dtype=torch.float64)
    with pytest.raises(ValueError, match="trained length"):
        unseen_angles(omega, 0, 5)
    with pytest.raises(ValueError, match="position"):
        unseen_angles(omega, 8, -1)
