"""Triton-specific behaviour: interpreter switch, device errors, tile configs, bf16 workaround."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

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


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("N_q,N_k", [(100, 77), (77, 100), (64, 64)])
def test_small_tiles_give_the_same_answer_as_the_default_tiles(causal, N_q, N_k):
    # 32 x 16 tiles: many off-diagonal blocks, several diagonal blocks, ragged tails.
    cfg = T.Config(BLOCK_M=32, BLOCK_N=16, BLOCK_M1=16, BLOCK_N1=32, BLOCK_M2=32, BLOCK_N2=16)
    q, k, v, dO = random_inputs((1, 2, N_q, 16), (1, 2, N_k, 16), torch.float64, seed=8)
    q, k, v = (x.requires_grad_() for x in (q, k, v))
    out, _ = T._FlashAttention.apply(q, k, v, causal, 0.25, cfg)
    got = [out, *torch.autograd.grad(out, (q, k, v), dO)]
    want = true_forward_backward(q, k, v, dO, causal=causal, scale=0.25)
    for g, w in zip(got, want, strict=True):
        assert max_abs_err(g, w) <= 1e-12


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
    "blocks,pattern",
    [
        ((128, 48, 32, 128, 128, 32), r"powers of 2 >= 16, got 48"),
        ((128, 64, 8, 128, 128, 32), r"powers of 2 >= 16, got 8"),
        ((32, 64, 32, 128, 128, 32), r"BLOCK_M % BLOCK_N == 0"),
        ((128, 64, 32, 128, 32, 64), r"BLOCK_M2 % BLOCK_N2 == 0"),
    ],
)
def test_tile_configs_must_be_aligned_powers_of_two(blocks, pattern):
    with pytest.raises(ValueError, match=pattern):
        T.Config(*blocks)


def test_every_shared_memory_tier_gets_a_valid_config_that_shrinks_with_the_memory(monkeypatch):
    monkeypatch.setattr(T, "INTERPRET", False)  # the GPU choices
    for d in T.SUPPORTED_D:
        for dtype in (torch.float16, torch.bfloat16, torch.float32):
            configs = [T.config(d, dtype, smem) for smem in T.SMEM_TIERS]
            areas = [c.BLOCK_M * c.BLOCK_N for c in configs]
            assert areas == sorted(areas, reverse=True), (d, dtype, configs)


def test_scales_are_exact_in_the_accumulator_dtype():
    scales = T._scales(0.1, torch.float64, torch.device("cpu"))
    assert scales.tolist() == [0.1, 0.1 / math.log(2)]


class _Grids:
    """Stands in for a kernel: records each launch's grid, then launches the real one."""

    def __init__(self, kernel):
        self.kernel, self.grids = kernel, []

    def __getitem__(self, grid):
        self.grids.append(grid)
        return self.kernel[grid]


def test_every_launch_puts_batch_times_heads_on_the_first_grid_axis(monkeypatch):
    # CUDA caps grid axes 1 and 2 at 65,535 blocks; axis 0 allows 2^31 - 1.
    names = ("_attn_fwd", "_attn_bwd_preprocess", "_attn_bwd_dkdv", "_attn_bwd_dq")
    recorders = {n: _Grids(getattr(T, n)) for n in names}
    for n, r in recorders.items():
        monkeypatch.setattr(T, n, r)
    q, k, v, dO = random_inputs((2, 3, 40, 16), (2, 3, 50, 16), torch.float32, seed=11)
    q.requires_grad_()
    torch.autograd.grad(T.attention(q, k, v), q, dO)
    for n, r in recorders.items():
        assert r.grids and all(g[0] == 2 * 3 for g in r.grids), (n, r.grids)
