"""online_softmax on vectors, and the tiled attention's tile schedule (causal skipping)."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.overrides import TorchFunctionMode

from snippets.kernels import cpu_tiles
from snippets.kernels import online_softmax as tiled
from snippets.kernels.online_softmax import _backward, attention, online_softmax, tile_schedule

from .support import KERNEL_SETTINGS, max_abs_err

MATMULS = {torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__, torch.Tensor.__rmatmul__}


@pytest.mark.parametrize("n", [1, 3, 7, 31, 101])
@pytest.mark.parametrize("block", [1, 2, 4, 5])
def test_online_softmax_matches_reference_for_odd_lengths(n, block):
    x = torch.randn(n, dtype=torch.float64, generator=torch.Generator().manual_seed(n))
    assert max_abs_err(online_softmax(x, block=block), torch.softmax(x, dim=0)) <= 1e-15


@settings(KERNEL_SETTINGS, max_examples=40)
@given(
    values=st.lists(st.floats(-1e4, 1e4), min_size=1, max_size=200),
    block=st.integers(1, 8),
)
def test_online_softmax_matches_torch_softmax_for_any_vector(values, block):
    x = torch.tensor(values, dtype=torch.float64)
    assert max_abs_err(online_softmax(x, block=block), torch.softmax(x, dim=0)) <= 1e-14


def test_online_softmax_survives_huge_values():
    x = torch.tensor([1e30, -1e30, 3e38, 0.0, 3e38], dtype=torch.float32)
    p = online_softmax(x, block=2)
    assert torch.isfinite(p).all()
    assert torch.equal(p, torch.softmax(x, dim=0))  # [0, 0, .5, 0, .5] exactly


def test_online_softmax_rejects_non_vectors_and_bad_blocks():
    with pytest.raises(ValueError, match="x must be a non-empty 1-D"):
        online_softmax(torch.zeros(2, 2))
    with pytest.raises(ValueError, match="x must be a non-empty 1-D"):
        online_softmax(torch.zeros(0))
    with pytest.raises(TypeError, match="x must have a floating dtype"):
        online_softmax(torch.arange(3))
    with pytest.raises(ValueError, match="block"):
        online_softmax(torch.zeros(3), block=0)


def _tiles_by_brute_force(N_q, N_k, block_q, block_k, causal):
    """(q0, k0, needs_mask) for every tile holding at least one visible (i, j) pair."""
    visible = torch.ones(N_q, N_k, dtype=torch.bool)
    if causal:
        visible = visible.tril()  # SDPA's is_causal mask
    tiles = []
    for q0 in range(0, N_q, block_q):
        for k0 in range(0, N_k, block_k):
            tile = visible[q0 : q0 + block_q, k0 : k0 + block_k]
            if tile.any():
                tiles.append((q0, k0, not bool(tile.all())))
    return tiles


SHAPES = [(64, 64, 16, 16), (100, 70, 16, 32), (70, 100, 32, 16), (33, 33, 8, 8), (5, 9, 4, 4)]


@pytest.mark.parametrize("N_q,N_k,block_q,block_k", SHAPES)
@pytest.mark.parametrize("causal", [False, True])
def test_tile_schedule_lists_exactly_the_tiles_with_visible_pairs(
    N_q, N_k, block_q, block_k, causal
):
    want = _tiles_by_brute_force(N_q, N_k, block_q, block_k, causal)
    assert tile_schedule(N_q, N_k, block_q, block_k, causal=causal) == want


class _CountCalls(TorchFunctionMode):
    """Counts matmuls and masked_fill_ calls made by torch code run inside the mode."""

    def __init__(self):
        super().__init__()
        self.matmuls = 0
        self.masks = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.matmuls += func in MATMULS
        self.masks += func is torch.Tensor.masked_fill_
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize("N_q,N_k,block_q,block_k", SHAPES)
def test_causal_forward_and_backward_compute_only_tiles_on_or_below_the_diagonal(
    N_q, N_k, block_q, block_k
):
    gen = torch.Generator().manual_seed(0)
    q = torch.randn(1, 2, N_q, 16, generator=gen, requires_grad=True)
    k = torch.randn(1, 2, N_k, 16, generator=gen, requires_grad=True)
    v = torch.randn(1, 2, N_k, 16, generator=gen, requires_grad=True)
    tiles = _tiles_by_brute_force(N_q, N_k, block_q, block_k, causal=True)
    n_all = -(-N_q // block_q) * -(-N_k // block_k)
    n_masked = sum(masked for *_, masked in tiles)
    assert len(tiles) < n_all  # the premise: some tiles lie entirely above the diagonal

    fwd = _CountCalls()
    with fwd:
        out, lse = attention(
            q, k, v, causal=True, block_q=block_q, block_k=block_k, return_lse=True
        )
    assert fwd.matmuls == 2 * len(tiles)  # S = Q K^T and P V, per visited tile
    assert fwd.masks == n_masked  # only the diagonal tiles are masked

    # The autograd engine does not carry the mode into backward, so call the backward itself.
    bwd = _CountCalls()
    with bwd, torch.no_grad():
        _backward(q, k, v, out, lse, torch.ones_like(out), None, True, 0.25, block_q, block_k)
    assert bwd.matmuls == 5 * len(tiles)  # S, dV, dP, dQ, dK per visited tile
    assert bwd.masks == n_masked


def test_non_causal_forward_computes_every_tile_unmasked():
    q = k = v = torch.randn(1, 1, 50, 16)
    counter = _CountCalls()
    with counter:
        attention(q, k, v, block_q=16, block_k=16)
    assert counter.matmuls == 2 * 4 * 4
    assert counter.masks == 0


MiB = 2**20


@pytest.mark.parametrize("heads", [1, 2, 8, 32])
@pytest.mark.parametrize("N", [1, 17, 100, 4096, 16384])
def test_default_tiles_are_the_tallest_powers_of_two_within_the_budget(heads, N):
    budget = 4 * MiB
    block_q, block_k = tiled.default_blocks(heads, N, N, budget=budget)
    for b in (block_q, block_k):
        assert b >= 16 and b & (b - 1) == 0
        assert b < 2 * max(N, 16)  # no longer than the sequence needs
    assert heads * block_q * block_k * 4 <= budget or block_q == 16
    taller = 2 * block_q
    assert heads * taller * block_k * 4 > budget or taller >= 2 * max(N, 16)


def test_default_tiles_grow_with_the_budget_and_shrink_with_more_heads():
    def area(heads, budget):
        q, k = tiled.default_blocks(heads, 16384, 16384, budget=budget)
        return q * k

    assert area(1, 16 * MiB) > area(1, 4 * MiB) > area(8, 4 * MiB) > area(32, 4 * MiB)


def test_the_static_budget_is_twice_the_l2_of_the_threads_together():
    assert cpu_tiles.static_budget(l2_bytes=MiB, threads=2) == 4 * MiB


def test_the_calibration_picks_the_fastest_candidate_and_is_cached_per_machine(
    monkeypatch, tmp_path
):
    # The clock is replaced: each call "takes" longer the farther its tile is from 512 rows.
    monkeypatch.setattr(cpu_tiles, "CACHE", tmp_path / "cpu-tiles.json")
    monkeypatch.delenv("ATTENTION_TILE_BUDGET")
    calls = []

    def fake_attention(q, k, v, *, block_q, block_k):
        calls.append(block_q)

    monkeypatch.setattr(tiled, "attention", fake_attention)
    monkeypatch.setattr(cpu_tiles.time, "perf_counter", lambda: _elapsed(calls))
    entry = cpu_tiles.calibrate(rounds=2)
    assert entry["budget_bytes"] == cpu_tiles.rows_budget(512)
    assert sorted(set(calls)) == sorted(cpu_tiles.CANDIDATE_ROWS)
    cpu_tiles.save_calibration(entry)
    assert cpu_tiles.score_budget() == cpu_tiles.rows_budget(512)  # read back, no timing
    assert cpu_tiles.cached_calibration()["machine"] == cpu_tiles.machine_key()


def _elapsed(calls: list[int]) -> float:
    """A clock that advances by |log2(rows / 512)| + 1 for each call made."""
    return sum(abs(math.log2(rows / 512)) + 1 for rows in calls)


def test_the_budget_can_be_fixed_by_the_environment(monkeypatch):
    monkeypatch.setenv("ATTENTION_TILE_BUDGET", str(3 * MiB))
    assert cpu_tiles.score_budget() == 3 * MiB
    monkeypatch.setenv("ATTENTION_TILE_BUDGET", "static")
    assert cpu_tiles.score_budget() == cpu_tiles.static_budget()


def test_the_default_call_uses_the_default_tiles(monkeypatch):
    seen = []
    real = tiled._forward

    def spy(Q, K, V, causal, scale, block_q, block_k):
        seen.append((block_q, block_k))
        return real(Q, K, V, causal, scale, block_q, block_k)

    monkeypatch.setattr(tiled, "_forward", spy)
    q = torch.randn(1, 2, 300, 16)
    tiled.attention(q, q, q)
    assert seen == [tiled.default_blocks(2, 300, 300)]
