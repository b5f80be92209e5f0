"""Triton-specific behaviour: interpreter switch, device errors, tile configs, bf16 workaround."""

from __future__ import annotations

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
def test_import_fails_clearly_when_triton_came_first_without_the_interpreter():
    result = _python("import triton\nimport snippets.kernels.triton_attention\n")
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("RuntimeError: triton was imported without TRITON_INTERPRET=1")


@pytest.mark.skipif(not T.INTERPRET, reason="interpreter only")
def test_interpreter_refuses_non_cpu_tensors_naming_q():
    q = torch.zeros(1, 1, 4, 16, device="meta")
    with pytest.raises(ValueError, match=r"q is on meta, but Triton runs in the interpreter"):
        T.attention(q, q, q)


def test_compiled_triton_refuses_cpu_tensors_naming_q(monkeypatch):
    monkeypatch.setattr(T, "INTERPRET", False)  # as on a CUDA machine without the interpreter
    q = torch.zeros(1, 1, 4, 16)
    with pytest.raises(ValueError, match=r"q is on cpu, but Triton compiles for the GPU"):
        T.attention(q, q, q)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("N_q,N_k", [(100, 77), (77, 100), (64, 64)])
def test_small_tiles_give_the_same_answer_as_the_default_tiles(causal, N_q, N_k):
    # 32 x 16 tiles: many off-diagonal blocks, several diagonal blocks, ragged tails.
    cfg = T._Config(BLOCK_M=32, BLOCK_N=16, BLOCK_M1=16, BLOCK_N1=32, BLOCK_M2=32, BLOCK_N2=16)
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
        T._Config(*blocks)
