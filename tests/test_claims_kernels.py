"""What the kernel pages say about measured and compiled results, held to the committed data.

docs/{en,zh}/kernels/benchmarks.md states claims about bench/results/cpu.json that its
tables render but its code blocks do not print; docs/{en,zh}/kernels/triton.md states some
about bench/results/compile*.json and the previous kernel's tile sweep;
docs/{en,zh}/kernels/online-softmax.md says that the attention implementations never start a
query tile with a fully masked key tile. Re-measuring or re-compiling can change the data:
then these tests say which sentence to update.
"""

import pytest

from snippets.figures import bench_results as report
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
    # triton.md: "The float32 kernels, whose products are tf32x3, spill." (That no 16-bit
    # kernel does is generated from the same tables and held by tests/kernels/test_compile.py.)
    for name in ("compile", "compile-triton-3.6"):
        data = report.load(name)
        assert data is not None, f"bench/results/{name}.json must be committed"
        for target in data["targets"]:
            rows = [r for r in data["results"] if r["target"] == target]
            assert any(r["dtype"] == "float32" and r["spill_bytes"] for r in rows), (name, target)


def test_only_at_d_128_and_n_16384_did_other_tiles_beat_the_previous_default_beyond_the_spread():
    # triton.md: "Only at d = 128 and N = 16384 did other tiles beat the default by more than
    # that shape's own spread, in both modes, and both times with 128 × 128 forward tiles."
    findings = report.previous_tile_findings(report.load(report.PREVIOUS_TILES))
    beyond = [f for f in findings if f["margin"] > f["spread"]]
    assert {(f["d"], f["N"]) for f in beyond} == {(128, 16384)}
    assert {f["mode"] for f in beyond} == {"fwd", "fwd+bwd"}
    assert all((f["best"]["BLOCK_M"], f["best"]["BLOCK_N"]) == (128, 128) for f in beyond)
    # "In every forward+backward pair the default was slower in its repeat"
    assert all(f["repeat_slower"] for f in findings if f["mode"] == "fwd+bwd")


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


def test_the_previous_kernel_s_hopper_numbers_the_triton_page_gives():
    # triton.md: "at d = 128 its forward used 255 registers for each of 256 threads, which fills
    # a multiprocessor's 64 K registers ... with Triton 3.6 its d = 128 backward spilled up to
    # 2,536 bytes per thread"
    previous = report.load("previous-compile-triton-3.6")
    assert previous["versions"]["triton"] == "3.6.0"
    rows = [r for r in previous["results"] if r["target"] == "sm_90" and r["d"] == 128]
    forward = [r for r in rows if r["kernel"] == "fwd" and r["dtype"] != "float32"]
    assert {(r["registers"], 32 * r["num_warps"]) for r in forward} == {(255, 256)}
    assert 255 * 256 <= 64 * 1024 < 2 * 255 * 256  # room for one program
    backward = [r for r in rows if r["kernel"].startswith("bwd") and r["dtype"] != "float32"]
    assert max(r["spill_bytes"] for r in backward) == 2536


def test_sdpa_s_default_call_ran_about_as_fast_as_forced_cudnn_on_the_h200():
    # triton.md: "SDPA's default call, which on the H200 of these measurements runs cuDNN
    # (forcing cuDNN gives about the same times)"; and "16 × 32 pairs at N = 1024, d = 64"
    from bench.gpu import shape_for

    rows = report.gpu_rows(report.load(report.PREVIOUS_GPU))
    ratios = [r["sdpa"] / r["sdpa-cudnn"] for r in rows if r["dtype"] != "float32"]
    assert ratios and all(0.85 <= x <= 1.15 for x in ratios), (min(ratios), max(ratios))
    assert shape_for(1024, 64) == (16, 32)


def test_the_gpu_runs_stop_starting_shapes_after_the_minutes_the_page_gives():
    # triton.md: "`bench.gpu` ... starts no new shape after 7 minutes; `bench.tiles` ... after 5"
    from bench import gpu, tiles

    assert (gpu.BUDGET_S, tiles.BUDGET_S) == (7 * 60, 5 * 60)
