"""The Triton kernels compile for NVIDIA GPUs: the committed tables (bench/results/compile.json
with the pinned triton, compile-triton-3.6.json with an older release; made by
`make bench-compile` without a GPU) cover every kernel the wrapper launches, show no register
spills in 16-bit except on sm_90 at head sizes where no candidate timed on the H200 beat the
default tiles by more than the run-to-run spread, shared memory within each target's limit and
tensor-core dots, and are what the current code compiles to (two kernels are compiled again
here)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest
import torch
import triton

from bench import report
from snippets.kernels import triton_attention as T
from tests.conftest import ROOT

TABLES = {
    p.stem: json.loads(p.read_text()) for p in sorted(ROOT.glob("bench/results/compile*.json"))
}
TABLE = TABLES["compile"]  # the pinned triton's
ROWS = TABLE["results"]
each_table = pytest.mark.parametrize("table", list(TABLES.values()), ids=list(TABLES))
KEY = ("target", "d", "dtype", "causal", "kernel")
DOTS = ("fwd", "bwd_dkdv", "bwd_dq")


def test_an_older_triton_is_compiled_too():
    assert {t["versions"]["triton"] for t in TABLES.values()} >= {triton.__version__, "3.6.0"}


@each_table
def test_the_table_covers_every_kernel_of_every_configuration(table):
    dtypes = ("float16", "bfloat16", "float32")
    want = {
        (t, d, dt, c, k)
        for t in table["targets"]
        for d in T.SUPPORTED_D
        for dt in dtypes
        for c in (False, True)
        for k in (*DOTS, "bwd_preprocess")
        if not (k == "bwd_preprocess" and c)  # it does not depend on causal
    }
    assert {tuple(r[k] for k in KEY) for r in table["results"]} == want


TILES = json.loads((ROOT / "bench/results/tiles.json").read_text())


def head_sizes_no_candidate_beat() -> set[int]:
    """Head sizes at which no candidate in bench/results/tiles.json beat the default tiles, over
    all timed shapes, by more than the default's own two timings differ (tiles_unbeaten)."""
    return {d for d in {r["d"] for r in TILES["results"]} if report.tiles_unbeaten(TILES, d)}


def test_the_tile_sweep_timed_the_tiles_the_wrapper_picks_now(monkeypatch):
    monkeypatch.setattr(T, "INTERPRET", False)  # the GPU choices
    hopper = T.SMEM_TIERS[0]
    for r in TILES["results"]:
        if r["default"]:
            assert r["config"] == dataclasses.asdict(T.config(r["d"], torch.bfloat16, hopper))


@each_table
def test_16_bit_kernels_spill_only_where_no_timed_candidate_beat_those_tiles(table):
    """Spills are a proxy for slow code; where the GPU says otherwise, the timing wins. The
    spill-free tiles at d = 128 ran the backward at a third of the speed (tiles.json)."""
    spilling = {
        (r["target"], r["d"])
        for r in table["results"]
        if r["dtype"] != "float32" and r["spill_bytes"]
    }
    timed = {("sm_90", d) for d in head_sizes_no_candidate_beat()}
    assert spilling <= timed, sorted(spilling - timed)


@each_table
def test_every_kernel_fits_its_shared_memory(table):
    too_big = [r for r in table["results"] if r["shared_bytes"] > r["shared_limit"]]
    assert not too_big, [tuple(r[k] for k in KEY) for r in too_big]


@each_table
def test_every_matrix_product_runs_on_tensor_cores(table):
    assert all(r["tensor_core_dots"] > 0 for r in table["results"] if r["kernel"] in DOTS)


@each_table
def test_the_table_was_made_with_the_tiles_the_wrapper_picks_now(table, monkeypatch):
    monkeypatch.setattr(T, "INTERPRET", False)  # the GPU choices
    for r in table["results"]:
        cfg = T.config(r["d"], getattr(torch, r["dtype"]), r["shared_limit"])
        tile = {
            "fwd": [cfg.BLOCK_M, cfg.BLOCK_N],
            "bwd_preprocess": [cfg.BLOCK_M2, None],
            "bwd_dkdv": [cfg.BLOCK_N1, cfg.BLOCK_M1],
            "bwd_dq": [cfg.BLOCK_M2, cfg.BLOCK_N2],
        }[r["kernel"]]
        assert (r["tile"], r["num_warps"], r["num_stages"]) == (
            tile,
            cfg.num_warps if r["kernel"] == "fwd" else cfg.warps_bwd,
            cfg.num_stages,
        ), tuple(r[k] for k in KEY)


@pytest.mark.skipif(
    TABLE["versions"]["triton"] != triton.__version__,
    reason=f"the table was compiled with triton {TABLE['versions']['triton']}",
)
def test_compiling_again_gives_the_committed_rows():
    jobs = ["sm_90:64:float16:causal:fwd", "sm_89:128:bfloat16:causal:bwd_dq"]
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    cmd = [sys.executable, "-m", "bench.compile", *(f"--only={j}" for j in jobs)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    fresh = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    committed = {tuple(r[k] for k in KEY): r for r in ROWS}
    assert len(fresh) == len(jobs)
    for row in fresh:
        assert row == committed[tuple(row[k] for k in KEY)]
