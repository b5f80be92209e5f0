"""The Triton kernels compile for NVIDIA GPUs: the committed tables (bench/results/compile.json
with the pinned triton, compile-triton-3.6.json with the release the GPU machine runs; made by
`make bench-compile` without a GPU) cover every tile configuration the wrapper can launch or
autotune over, show no register spills in 16 bits, shared memory within each target's limit,
tensor-core products, TMA loads in the Hopper forward and, with Triton 3.6, warp-specialised
forward kernels; and they are what the current code compiles to (two kernels compiled again)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import triton

from bench.compile_jobs import configurations, jobs_for
from snippets.kernels import triton_attention as T
from tests.conftest import ROOT

TABLES = {
    p.stem: json.loads(p.read_text()) for p in sorted(ROOT.glob("bench/results/compile*.json"))
}
TABLE = TABLES["compile"]  # the pinned triton's
each_table = pytest.mark.parametrize("table", list(TABLES.values()), ids=list(TABLES))
KEY = ("target", "d", "dtype", "causal", "kernel")


def _key(row: dict) -> tuple:
    tiles = json.dumps(row["tiles"], sort_keys=True)
    return (*(row[k] for k in KEY), tiles, row.get("keys_even"))


def test_the_release_the_gpu_machine_runs_is_compiled_too():
    assert {t["versions"]["triton"] for t in TABLES.values()} >= {triton.__version__, "3.6.0"}


@each_table
def test_the_table_covers_every_kernel_and_tile_the_wrapper_can_launch(table, monkeypatch):
    # The spaces depend on the release (warp specialisation): computed as under the table's.
    monkeypatch.setattr(triton, "__version__", table["versions"]["triton"])
    want = {
        _key({**job, "keys_even": job.get("even") if job["kernel"] == "bwd" else None})
        for c in configurations(quick=False)
        for job in jobs_for(c, preprocess=not c["causal"])
    }
    assert {_key(r) for r in table["results"]} == want


@each_table
def test_no_16_bit_kernel_spills_registers(table):
    spilling = [_key(r) for r in table["results"] if r["dtype"] != "float32" and r["spill_bytes"]]
    assert not spilling, spilling


@each_table
def test_every_kernel_fits_its_shared_memory(table):
    too_big = [_key(r) for r in table["results"] if r["shared_bytes"] > r["shared_limit"]]
    assert not too_big, too_big


@each_table
def test_every_matrix_product_runs_on_tensor_cores_and_hopper_s_are_wgmma(table):
    dots = [r for r in table["results"] if r["kernel"] in ("fwd", "bwd")]
    assert all(r["tensor_core_dots"] > 0 for r in dots)
    hopper_16 = [r for r in dots if r["target"] == "sm_90" and r["dtype"] != "float32"]
    assert hopper_16 and all(r["hgmma"] > 0 for r in hopper_16)


@each_table
def test_the_hopper_forward_loads_through_the_tma_and_nothing_else_does(table):
    for r in table["results"]:
        uses = r["kernel"] == "fwd" and r["target"] == "sm_90" and r["dtype"] != "float32"
        assert r["tma"] == uses and (r["tma_loads"] > 0) == uses, _key(r)


@each_table
def test_warp_specialised_tiles_compile_to_warp_specialised_code(table):
    # Triton 3.6 splits such a kernel into a producer warpgroup and two consumer warpgroups of
    # num_warps each, and moves registers between them; the pinned release has none in its space.
    ws = [r for r in table["results"] if r["tiles"] and r["tiles"]["warp_specialize"]]
    specialises = table["versions"]["triton"].startswith(T.WARP_SPECIALIZE_RELEASES)
    assert bool(ws) == specialises
    for r in table["results"]:
        if r["kernel"] == "fwd":
            marked = r["setmaxnreg"] > 0 and r["launched_warps"] == 3 * r["tiles"]["num_warps"]
            assert marked == r["tiles"]["warp_specialize"], _key(r)


@pytest.mark.skipif(
    TABLE["versions"]["triton"] != triton.__version__,
    reason=f"the table was compiled with triton {TABLE['versions']['triton']}",
)
def test_compiling_again_gives_the_committed_rows():
    jobs = ["sm_90:64:float16:causal:fwd", "sm_89:128:bfloat16:causal:bwd"]
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    cmd = [sys.executable, "-m", "bench.compile", *(f"--only={j}" for j in jobs)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    fresh = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    committed = {_key(r): r for r in TABLE["results"]}
    assert len(fresh) >= len(jobs)
    for row in fresh:
        assert row == committed[_key(row)]
