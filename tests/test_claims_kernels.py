"""What the kernel pages say about measured and compiled results, held to the committed data.

docs/{en,zh}/kernels/benchmarks.md states claims about bench/results/cpu.json that its
tables render but its code blocks do not print; docs/{en,zh}/kernels/triton.md states one
about bench/results/compile.json; docs/{en,zh}/kernels/online-softmax.md says that the
attention kernels never start a query tile with a fully masked key tile. Re-measuring or
re-compiling can change the data: then these tests say which sentence to update.
"""

import pytest

from bench import report
from snippets.kernels import online_softmax

FLOAT32_BYTES = 4
MiB = 2**20


@pytest.fixture(scope="module")
def rows():
    data = report.load("cpu")
    assert data is not None, "bench/results/cpu.json must be committed: run `make bench`"
    return report.cpu_rows(data)


def test_the_reference_takes_at_least_three_times_as_long_as_sdpa(rows):
    # benchmarks.md: "The reference takes at least three times as long as SDPA in every
    # configuration."
    assert all(r["reference_ratio"] >= 3 for r in rows), [r["reference_ratio"] for r in rows]


def test_the_reference_holds_three_square_float32_matrices_per_head_from_4096_on(rows):
    # benchmarks.md: "from N = 4096 on, its extra memory is, to within a few percent, that of
    # three N x N float32 matrices for each head it processes at once" (one head at a time
    # where the table marks the reference with a dagger).
    checked = 0
    for r in rows:
        if r["N"] < 4096:
            continue
        heads_at_once = 1 if r["reference_per_head"] else r["heads"]
        predicted = 3 * r["N"] ** 2 * FLOAT32_BYTES * heads_at_once / MiB
        assert r["peak_mib"][0] == pytest.approx(predicted, rel=0.05), (r["N"], r["heads"])
        checked += 1
    assert checked >= 2


def test_the_tiled_kernel_memory_grows_far_more_slowly_than_the_reference(rows):
    # benchmarks.md: "its extra memory grows far more slowly with N than the reference's".
    # Compared between consecutive N with the same number of heads, where the reference
    # held every head at once both times.
    by_key = {(r["N"], r["heads"]): r for r in rows}
    pairs = 0
    for (N, heads), small in by_key.items():
        larger = [n for n, h in by_key if h == heads and n > N]
        if not larger:
            continue
        big = by_key[(min(larger), heads)]
        if small["reference_per_head"] or big["reference_per_head"]:
            continue
        reference_growth = big["peak_mib"][0] / small["peak_mib"][0]
        tiled_growth = big["peak_mib"][1] / small["peak_mib"][1]
        assert 4 * tiled_growth < reference_growth, (N, heads, tiled_growth, reference_growth)
        pairs += 1
    assert pairs >= 2


def test_the_float32_kernels_spill_registers_on_every_target():
    # triton.md: "The float32 kernels, whose products are tf32x3, spill too." (Which 16-bit
    # kernels spill is generated from the same tables, and tests/kernels/test_compile.py
    # accepts those only where the GPU timed them fastest.)
    for name in ("compile", "compile-triton-3.6"):
        data = report.load(name)
        assert data is not None, f"bench/results/{name}.json must be committed"
        for target in data["targets"]:
            rows = [r for r in data["results"] if r["target"] == target]
            assert any(r["dtype"] == "float32" and r["spill_bytes"] for r in rows), (name, target)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(
    "N_q,N_k,block_q,block_k", [(1, 1, 16, 16), (300, 70, 64, 16), (70, 300, 16, 64)]
)
def test_every_query_tile_starts_with_the_key_tile_of_key_0(causal, N_q, N_k, block_q, block_k):
    # online-softmax.md: "their first key tile holds key 0, which every query sees, with or
    # without the causal mask", so the running maximum is finite after the first step.
    tiles = online_softmax.tile_schedule(N_q, N_k, block_q, block_k, causal=causal)
    firsts = {}
    for q0, k0, _ in tiles:
        firsts.setdefault(q0, k0)
    assert sorted(firsts) == list(range(0, N_q, block_q))
    assert set(firsts.values()) == {0}
