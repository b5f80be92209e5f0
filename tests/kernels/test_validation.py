"""Bad input: every kernel raises the right error type, and the message names the argument."""

from __future__ import annotations

import math

import pytest
import torch

from snippets.kernels import online_softmax, triton_attention

from .support import KERNELS


def _qkv(**shapes):
    q = torch.zeros(shapes.get("q", (1, 2, 8, 16)))
    k = torch.zeros(shapes.get("k", (1, 2, 8, 16)))
    v = torch.zeros(shapes.get("v", (1, 2, 8, 16)))
    return q, k, v


def _case(q=None, k=None, v=None):
    base_q, base_k, base_v = _qkv()
    return (base_q if q is None else q, base_k if k is None else k, base_v if v is None else v)


BAD_INPUTS = {
    # id: (args, kwargs, error type, message pattern)
    "q-not-4d": (_case(q=torch.zeros(2, 8, 16)), {}, ValueError, r"q must be 4-D"),
    "v-not-4d": (_case(v=torch.zeros(1, 1, 2, 8, 16)), {}, ValueError, r"v must be 4-D"),
    "k-batch": (_case(k=torch.zeros(2, 2, 8, 16)), {}, ValueError, r"k has batch 2"),
    "v-heads": (_case(v=torch.zeros(1, 3, 8, 16)), {}, ValueError, r"v has heads 3"),
    "k-d": (_case(k=torch.zeros(1, 2, 8, 32)), {}, ValueError, r"k has d 32"),
    "v-d": (_case(v=torch.zeros(1, 2, 8, 32)), {}, ValueError, r"v has d 32"),
    "kv-seq": (_case(v=torch.zeros(1, 2, 9, 16)), {}, ValueError, r"v has seq length 9"),
    "k-dtype": (
        _case(k=torch.zeros(1, 2, 8, 16, dtype=torch.float64)),
        {},
        TypeError,
        r"k has dtype",
    ),
    "v-device": (
        _case(v=torch.zeros(1, 2, 8, 16, device="meta")),
        {},
        ValueError,
        r"v is on device meta",
    ),
    "q-empty": (_case(q=torch.zeros(1, 2, 0, 16)), {}, ValueError, r"q has an empty sequence"),
    "kv-empty": (
        _case(k=torch.zeros(1, 2, 0, 16), v=torch.zeros(1, 2, 0, 16)),
        {},
        ValueError,
        r"k has an empty sequence",
    ),
    "q-int": (
        _case(q=torch.zeros(1, 2, 8, 16, dtype=torch.int64)),
        {},
        TypeError,
        r"q must have a floating dtype",
    ),
    "k-not-tensor": (_case(k=[[0.0]]), {}, TypeError, r"k must be a torch.Tensor"),
    "scale-nan": (_case(), {"scale": math.nan}, ValueError, r"scale must be finite and positive"),
    "scale-inf": (_case(), {"scale": math.inf}, ValueError, r"scale must be finite and positive"),
    "scale-zero": (_case(), {"scale": 0.0}, ValueError, r"scale must be finite and positive"),
    "scale-negative": (_case(), {"scale": -0.5}, ValueError, r"scale must be finite and positive"),
    "scale-str": (_case(), {"scale": "0.5"}, TypeError, r"scale must be a real number"),
    "scale-bool": (_case(), {"scale": True}, TypeError, r"scale must be a real number"),
    "causal-int": (_case(), {"causal": 1}, TypeError, r"causal must be a bool"),
    "causal-none": (_case(), {"causal": None}, TypeError, r"causal must be a bool"),
}


@pytest.mark.parametrize("name", list(KERNELS))
@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_raises_an_error_that_names_the_argument(name, case):
    args, kwargs, error, pattern = BAD_INPUTS[case]
    with pytest.raises(error, match=pattern):
        KERNELS[name](*args, **kwargs)


@pytest.mark.parametrize("name", list(KERNELS))
def test_good_input_passes_the_same_checks(name):
    out = KERNELS[name](*_qkv(q=(1, 2, 5, 16)), causal=True, scale=0.5)
    assert out.shape == (1, 2, 5, 16)


@pytest.mark.parametrize(
    "kwargs,error,pattern",
    [
        ({"block_q": 0}, ValueError, r"block_q must be a positive int"),
        ({"block_k": -4}, ValueError, r"block_k must be a positive int"),
        ({"block_q": 16.0}, TypeError, r"block_q must be a positive int"),
        ({"block_k": True}, TypeError, r"block_k must be a positive int"),
    ],
)
def test_tiled_attention_rejects_bad_block_sizes(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        online_softmax.attention(*_qkv(), **kwargs)


@pytest.mark.parametrize("d", [8, 24, 256])
def test_triton_rejects_unsupported_head_dims_naming_d(d):
    q, k, v = _qkv(q=(1, 1, 4, d), k=(1, 1, 4, d), v=(1, 1, 4, d))
    with pytest.raises(ValueError, match=r"head dimension d must be one of \(16, 32, 64, 128\)"):
        triton_attention.attention(q, k, v)


def test_triton_rejects_unsupported_dtypes_naming_q():
    q, k, v = (x.to(torch.float8_e4m3fn) for x in _qkv())
    with pytest.raises(TypeError, match=r"q dtype torch.float8_e4m3fn is not supported"):
        triton_attention.attention(q, k, v)
