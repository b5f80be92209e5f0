"""Triton-specific behaviour: interpreter switch, device errors, tile configs, bf16 workaround."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl
from torch.utils._python_dispatch import TorchDispatchMode

from snippets.kernels import triton_attention as T

from .support import max_abs_err, random_inputs, true_forward_backward

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter without TRITON_INTERPRET in its environment."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA path")
def test_module_turns_the_interpreter_on_by_itself_without_cuda():
    result = _python(
        "import torch\n"
        "from snippets.kernels import triton_attention as T\n"
        "q = torch.randn(1, 1, 20, 16)\n"
        "out = T.attention(q, q, q, causal=True)\n"
        "ref = torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)\n"
        "print(T.INTERPRET, (out - ref).abs().max().item() < 1e-5)\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA path")
def test_after_triton_without_the_interpreter_it_loads_to_compile_and_a_call_says_why_not():
    result = _python(
        "import torch, triton\n"
        "from snippets.kernels import triton_attention as T\n"
        "print('loaded, interpreter:', T.INTERPRET)\n"
        "T.attention(*(torch.zeros(1, 1, 4, 16) for _ in range(3)))\n"
    )
    assert "loaded, interpreter: False" in result.stdout
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("RuntimeError: triton was imported without TRITON_INTERPRET=1")


@pytest.mark.skipif(not T.INTERPRET, reason="interpreter only")
def test_interpreter_refuses_non_cpu_tensors_naming_q():
    q = torch.zeros(1, 1, 4, 16, device="meta")
    with pytest.raises(ValueError, match=r"q is on meta, but Triton runs in the interpreter"):
        T.attention(q, q, q)


def test_compiled_triton_refuses_cpu_tensors_naming_q(monkeypatch):
    monkeypatch.setattr(T, "INTERPRET", False)  # as on a CUDA machine without the interpreter
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    q = torch.zeros(1, 1, 4, 16)
    with pytest.raises(ValueError, match=r"q is on cpu, but Triton compiles for the GPU"):
        T.attention(q, q, q)


def _with_tiles(monkeypatch, forward: T.ForwardTiles, backward: T.BackwardTiles, where=None):
    """Make the wrapper launch these tiles (and, with `where`, take that device's path)."""
    monkeypatch.setattr(T, "forward_space", lambda *_: [forward])
    monkeypatch.setattr(T, "backward_space", lambda *_: [backward])
    if where:
        monkeypatch.setattr(T, "device_tier", lambda _: where)


def _forward_backward(causal, N_q, N_k, dtype=torch.float64, seed=8):
    q, k, v, dO = random_inputs((1, 2, N_q, 16), (1, 2, N_k, 16), dtype, seed=seed)
    q, k, v = (x.requires_grad_() for x in (q, k, v))
    out = T.attention(q, k, v, causal=causal, scale=0.25)
    return [out, *torch.autograd.grad(out, (q, k, v), dO)], (q, k, v, dO)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("N_q,N_k", [(100, 77), (77, 100), (64, 64)])
def test_small_tiles_give_the_same_answer_as_the_default_tiles(monkeypatch, causal, N_q, N_k):
    # 32 x 16 forward and 16 x 32 backward tiles: many off-diagonal tiles, several diagonal
    # tiles, ragged tails, and several programs adding to the same rows of dQ.
    _with_tiles(monkeypatch, T.ForwardTiles(32, 16), T.BackwardTiles(16, 32))
    got, (q, k, v, dO) = _forward_backward(causal, N_q, N_k)
    want = true_forward_backward(q, k, v, dO, causal=causal, scale=0.25)
    for g, w in zip(got, want, strict=True):
        assert max_abs_err(g, w) <= 1e-12


@pytest.mark.skipif(not T.INTERPRET, reason="compares the two load paths in the interpreter")
@pytest.mark.parametrize("causal", [False, True])
def test_the_hopper_path_with_tma_descriptors_gives_the_same_answer(monkeypatch, causal):
    # The interpreter runs tensor-descriptor loads (and ignores warp specialisation): the
    # Hopper forward computes exactly what the pointer loads of the other GPUs compute.
    # (Warp specialisation needs the TMA: its single masked loop runs here for both.)
    forward = T.ForwardTiles(64, 32, warp_specialize=True)
    _with_tiles(monkeypatch, T.ForwardTiles(64, 32), T.BackwardTiles(32, 64))
    pointers, _ = _forward_backward(causal, 100, 77, torch.float16)
    launches = _Launches(T._attn_fwd)
    monkeypatch.setattr(T, "_attn_fwd", launches)
    _with_tiles(monkeypatch, forward, T.BackwardTiles(32, 64), where="sm_90")
    tma, _ = _forward_backward(causal, 100, 77, torch.float16)
    (args,) = launches.args
    assert all(isinstance(x, T.TensorDescriptor) for x in args[:3])  # Q, K and V
    for a, b in zip(tma, pointers, strict=True):
        assert torch.equal(a, b)


def test_non_contiguous_inputs_give_the_same_answer():
    q, k, v, _ = random_inputs((1, 30, 2, 32), (1, 40, 2, 32), torch.float32, seed=9)
    q, k, v = (x.transpose(1, 2) for x in (q, k, v))  # (B, N, H, d) -> (B, H, N, d) view
    assert not q.is_contiguous()
    want = T.attention(q.contiguous(), k.contiguous(), v.contiguous())
    assert torch.equal(T.attention(q, k, v), want)


@pytest.mark.skipif(not T.INTERPRET, reason="the workaround only exists in the interpreter")
def test_interpreter_bf16_equals_the_fp32_run_rounded_to_bf16():
    # With loads upcast to fp32 and rounding left to torch, bf16 inputs are computed exactly
    # like their fp32 copies; without the workaround the output is far off (#11584).
    q, k, v, _ = random_inputs((2, 1, 50, 32), (2, 1, 70, 32), torch.bfloat16, seed=10)
    out16 = T.attention(q, k, v, causal=True)
    out32 = T.attention(q.float(), k.float(), v.float(), causal=True)
    assert torch.equal(out16, out32.to(torch.bfloat16))


def test_supported_sets_are_the_documented_ones():
    assert T.SUPPORTED_D == (16, 32, 64, 128)
    assert set(T.SUPPORTED_DTYPES) >= {torch.float16, torch.bfloat16, torch.float32}
    assert (torch.float64 in T.SUPPORTED_DTYPES) == T.INTERPRET
    for word in ("16, 32, 64, 128", "float16", "bfloat16", "float32", "float64"):
        assert word in T.__doc__


@pytest.mark.parametrize(
    "tiles,pattern",
    [
        (lambda: T.ForwardTiles(128, 48), r"powers of 2 >= 16, got 48"),
        (lambda: T.BackwardTiles(8, 64), r"powers of 2 >= 16, got 8"),
        (lambda: T.ForwardTiles(32, 64), r"forward tiles need BLOCK_M >= BLOCK_N"),
        (lambda: T.BackwardTiles(64, 32), r"backward tiles need BLOCK_N >= BLOCK_M"),
    ],
)
def test_tiles_must_be_powers_of_two_aligned_for_the_causal_split(tiles, pattern):
    with pytest.raises(ValueError, match=pattern):
        tiles()


@pytest.mark.parametrize("release", ["3.6.0", "3.9.0"])
@pytest.mark.parametrize("where", ["sm_90", "sm_80", "sm_89", "interpreter"])
def test_every_tier_gets_tiles_and_only_hopper_in_16_bits_is_autotuned(where, release, monkeypatch):
    monkeypatch.setattr(triton, "__version__", release)  # warp specialisation: 3.6 only
    for d in T.SUPPORTED_D:
        for dtype in (torch.float16, torch.bfloat16, torch.float32):
            spaces = (T.forward_space(d, dtype, where), T.backward_space(d, dtype, where))
            for space, kind in zip(spaces, (T.ForwardTiles, T.BackwardTiles), strict=True):
                assert space and all(isinstance(t, kind) for t in space)
                tuned = where == "sm_90" and dtype != torch.float32
                assert (len(space) > 1) == tuned, (where, d, dtype, space)
    hopper = T.forward_space(128, torch.bfloat16, "sm_90")
    assert any((t.BLOCK_M, t.BLOCK_N) == (128, 128) for t in hopper)
    specialised = [t for t in hopper if t.warp_specialize]
    assert bool(specialised) == release.startswith(T.WARP_SPECIALIZE_RELEASES)
    assert len(specialised) < len(hopper)


def test_the_hopper_tiles_need_compute_capability_9_not_only_shared_memory():
    # A B200 (10.0) has Hopper's 227 KiB per block, but no wgmma: it gets the A100 tiles.
    assert T.tier((9, 0), T.SMEM_TIERS[0]) == "sm_90"
    assert T.tier((10, 0), T.SMEM_TIERS[0]) == "sm_80"
    assert T.tier((8, 0), T.SMEM_TIERS[1]) == "sm_80"
    assert T.tier((8, 9), T.SMEM_TIERS[2]) == "sm_89"


def test_float64_scales_reach_the_kernels_exactly_and_others_as_floats():
    scale, c = T._scales(0.1, torch.float64)
    assert (scale.item(), c.item()) == (0.1, 0.1 / math.log(2))
    assert T._scales(0.1, torch.float16) == (0.1, 0.1 / math.log(2))


class _Launches:
    """Stands in for a kernel: records each launch's grid and arguments, then launches it
    (telling `ops`, if given, that what happens meanwhile is the kernel's)."""

    def __init__(self, kernel, ops=None):
        self.kernel, self.ops, self.grids, self.args = kernel, ops, [], []

    def __getattr__(self, name):  # arg_names, fn, ...
        return getattr(self.kernel, name)

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            self.grids.append(grid)
            self.args.append(args)
            if self.ops is not None:
                self.ops.inside = True
            try:
                return self.kernel[grid](*args, **kwargs)
            finally:
                if self.ops is not None:
                    self.ops.inside = False

        return launch


class _ComputeOps(TorchDispatchMode):
    """Records the torch operations that compute something (not allocations or views) outside
    the Triton launches."""

    FREE = frozenset(("empty", "empty_like", "empty_strided", "view", "_unsafe_view", "detach"))

    def __init__(self):
        super().__init__()
        self.ops, self.inside = [], False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if not self.inside and func.__name__.split(".")[0] not in self.FREE:
            self.ops.append(func.__name__)
        return func(*args, **(kwargs or {}))


KERNEL_NAMES = ("_attn_fwd", "_attn_bwd_preprocess", "_attn_bwd")


def _record_launches(monkeypatch, ops=None) -> dict[str, _Launches]:
    recorders = {n: _Launches(getattr(T, n), ops) for n in KERNEL_NAMES}
    for n, r in recorders.items():
        monkeypatch.setattr(T, n, r)
    return recorders


def test_every_launch_puts_tiles_on_the_first_grid_axis_then_heads_then_batch(monkeypatch):
    # Axis 0 is assumed to vary fastest in launch order: programs that run together share a head.
    _with_tiles(monkeypatch, T.ForwardTiles(32, 16), T.BackwardTiles(16, 64))
    recorders = _record_launches(monkeypatch)
    q, k, v, dO = random_inputs((2, 3, 40, 16), (2, 3, 300, 16), torch.float32, seed=11)
    q.requires_grad_()
    torch.autograd.grad(T.attention(q, k, v), q, dO)
    tiles = {"_attn_fwd": math.ceil(40 / 32), "_attn_bwd": math.ceil(300 / 64)}
    for n, r in recorders.items():
        (grid,) = r.grids
        assert grid[1:] == (3, 2), (n, grid)  # (heads, batch)
        assert grid[0] == tiles.get(n, grid[0]), (n, grid)


@pytest.mark.skipif(not T.INTERPRET, reason="runs a small kernel in the interpreter")
def test_causal_programs_take_the_longest_query_tiles_first():
    @triton.jit
    def which_tile(Out, CAUSAL: tl.constexpr):
        tl.store(Out + tl.program_id(0), T._query_tile(CAUSAL))

    for causal, want in ((False, [0, 1, 2, 3]), (True, [3, 2, 1, 0])):
        out = torch.empty(4, dtype=torch.int32)
        which_tile[(4,)](out, CAUSAL=causal)
        assert out.tolist() == want


def test_the_forward_is_one_launch_and_the_backward_two_and_one_conversion(monkeypatch):
    # No scale tensors, no float32 copy of O, no lse scaling: the kernel writes what the caller
    # gets. The backward's preprocess also zeroes dQ for the atomic additions.
    ops = _ComputeOps()
    recorders = _record_launches(monkeypatch, ops)
    q, k, v, dO = random_inputs((1, 2, 64, 16), (1, 2, 64, 16), torch.float16, seed=12)
    q, k, v = (x.requires_grad_() for x in (q, k, v))
    with ops:
        out, lse = T.attention(q, k, v, causal=True, return_lse=True)
    assert [len(r.grids) for r in recorders.values()] == [1, 0, 0] and ops.ops == []
    assert out.dtype == torch.float16 and lse.dtype == torch.float32
    with ops:
        torch.autograd.grad(out, (q, k, v), dO)
    assert [len(r.grids) for r in recorders.values()] == [1, 1, 1]
    assert ops.ops == ["_to_copy.default"], ops.ops  # dQ, added up in float32, to float16


def test_the_autotuners_time_each_configuration_and_set_the_descriptor_boxes():
    # Built here as on the GPU (nothing is launched): one autotuner per space, keyed on the
    # sequence lengths and causality; the forward's pre-hook sizes the TMA boxes per config.
    space = tuple(T.forward_space(128, torch.bfloat16, "sm_90"))
    tuner = T._tuned(T._attn_fwd, space)
    assert tuner is T._tuned(T._attn_fwd, space)
    assert [c.kwargs for c in tuner.configs] == [t.meta() for t in space]
    assert tuner.keys == ["N_Q", "N_K", "CAUSAL"]
    x = torch.zeros(6, 64, 128, dtype=torch.bfloat16)
    Q, K, V = (T.TensorDescriptor.from_tensor(x, [1, 16, 128]) for _ in range(3))
    for config, tiles in zip(tuner.configs, space, strict=True):
        config.pre_hook({"Q": Q, "K": K, "V": V, "HEAD_DIM": 128, **config.kwargs})
        assert Q.block_shape == [1, tiles.BLOCK_M, 128] and K.block_shape == [1, tiles.BLOCK_N, 128]
    backward = T._tuned(T._attn_bwd, tuple(T.backward_space(128, torch.bfloat16, "sm_90")), ("DQ",))
    assert backward.reset_to_zero == ["DQ"]  # its atomic additions start from zero each time


def test_the_gpu_benchmark_records_what_the_autotuners_chose(monkeypatch):
    from bench import gpu

    space = tuple(T.forward_space(64, torch.float16, "sm_90"))
    tuner = T._tuned(T._attn_fwd, space)
    monkeypatch.setitem(tuner.cache, (4096, 4096, True, "torch.float16"), tuner.configs[1])
    chosen = [c for c in gpu.tuned_choices() if c["key"][0] == "4096"]
    assert chosen == [
        {
            "kernel": "_attn_fwd",
            "key": ["4096", "4096", "True", "torch.float16"],
            "config": {**space[1].meta(), "num_warps": space[1].num_warps,
                       "num_stages": space[1].num_stages},
        }
    ]  # fmt: skip
