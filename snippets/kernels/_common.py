"""What every attention implementation shares, written once: the input checks, the base-2
constants, the dtype tiles accumulate in and which O the backward pass reads.

Convention, shared with ``torch.nn.functional.scaled_dot_product_attention`` as far as it
goes: q is (B, H, N_q, d), k and v are (B, H, N_k, d); ``causal`` (SDPA's ``is_causal``) lets
query i see keys j <= i (top-left aligned, also when N_q != N_k); ``scale=None`` means
1/sqrt(d). Narrower than SDPA: exactly four dimensions, v has the head size of q, and there
is no attention mask, dropout or grouped-query option.
"""

from __future__ import annotations

import math
import numbers

import torch

LOG2E = 1 / math.log(2)  # log2(e): exp(x) = exp2(x * LOG2E); GPUs have an exp2 instruction
LN2 = math.log(2)  # ln(2): a base-2 log-sum-exp times LN2 is the natural one


def acc_dtype(dtype: torch.dtype) -> torch.dtype:
    """The dtype tiles accumulate in: float64 for float64 inputs, float32 for the rest."""
    return torch.float64 if dtype == torch.float64 else torch.float32


# With a 16-bit O, D_i = rowsum(dO * O) carries O's rounding into every dS_ij of its row,
# weighted by P_ij. Where only a few query rows exist, those few roundings decide the error of
# dQ and dK alone: the rule of twice SDPA's error failed in 11 of 1500 random problems
# with N_q <= 8 (none above; tests/kernels/test_accuracy.py). There the float32 O is kept.
FP32_O_MAX_ROWS = 16


def keeps_fp32_O(dtype: torch.dtype, N_q: int, needs_grad: bool) -> bool:
    """Whether a forward pass saves O in float32 for the backward: 16-bit inputs, at most
    FP32_O_MAX_ROWS query rows, and a backward pass to come. Else it saves the output itself."""
    return needs_grad and dtype in (torch.float16, torch.bfloat16) and N_q <= FP32_O_MAX_ROWS


def check_attention_inputs(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: object,
    scale: object,
) -> float:
    """Validate q, k, v, causal and scale; return the scale to use (1/sqrt(d) if None)."""
    tensors = {"q": q, "k": k, "v": v}
    for name, t in tensors.items():
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
        if not t.is_floating_point():
            raise TypeError(f"{name} must have a floating dtype, got {t.dtype}")
        if t.dim() != 4:
            raise ValueError(
                f"{name} must be 4-D (batch, heads, seq, d), got shape {tuple(t.shape)}"
            )
    for name in ("k", "v"):
        t = tensors[name]
        if t.dtype != q.dtype:
            raise TypeError(f"{name} has dtype {t.dtype} but q has dtype {q.dtype}")
        if t.device != q.device:
            raise ValueError(f"{name} is on device {t.device} but q is on {q.device}")
        for axis, what in ((0, "batch"), (1, "heads"), (3, "d")):
            if t.shape[axis] != q.shape[axis]:
                raise ValueError(
                    f"{name} has {what} {t.shape[axis]} but q has {what} {q.shape[axis]}"
                )
    if v.shape[2] != k.shape[2]:
        raise ValueError(f"v has seq length {v.shape[2]} but k has seq length {k.shape[2]}")
    for name in ("q", "k"):
        if tensors[name].shape[2] == 0:
            raise ValueError(f"{name} has an empty sequence (seq length 0)")
    if q.shape[3] == 0:
        raise ValueError("q has head dimension d = 0")
    if not isinstance(causal, bool):
        raise TypeError(f"causal must be a bool, got {type(causal).__name__}")
    if scale is None:
        return 1.0 / math.sqrt(q.shape[-1])
    # bool is a numbers.Real; scale=True is a bug, not 1.0.
    if isinstance(scale, bool) or not isinstance(scale, numbers.Real):
        raise TypeError(f"scale must be a real number or None, got {type(scale).__name__}")
    scale = float(scale)
    if not math.isfinite(scale) or scale <= 0.0:
        raise ValueError(f"scale must be finite and positive, got {scale}")
    return scale


def check_block_size(name: str, value: object) -> int:
    """Validate a tile size: a positive int (bool excluded); return it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{name} must be a positive int, got {value}")
    return int(value)
