"""Claims on the interview card packed-sequences that its own code blocks do not print.

- packed-sequences.md, "Key points" and "Derivation": FlexAttention with the card's document
  mask (and_masks of a causal and a same-document mask_mod) computes what SDPA computes with the
  equivalent boolean mask, and running each document alone gives the same rows.
- packed-sequences.md, follow-up "Does RoPE still need the position reset?": with rotary
  positions and a document mask, global position ids change the outputs only by rounding, since
  a rotary score depends on i - j alone; learned absolute positions are changed for real (the
  card's own block shows that case).
"""

import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import and_masks, create_block_mask, flex_attention

LENGTHS = torch.tensor([3, 5, 4])
T = int(LENGTHS.sum())
DOC_ID = torch.repeat_interleave(torch.arange(len(LENGTHS)), LENGTHS)
ALLOWED = (DOC_ID[:, None] == DOC_ID[None, :]) & torch.ones(T, T, dtype=torch.bool).tril()


def _causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def _same_document(b, h, q_idx, kv_idx):
    return DOC_ID[q_idx] == DOC_ID[kv_idx]


def _rope(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """Rotate each pair (x_2i, x_2i+1) of row t by the angle positions[t] * 10000^(-2i/d)."""
    d = x.shape[-1]
    theta = positions[:, None] * 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    cos, sin = theta.cos(), theta.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)


def test_flex_attention_with_the_document_mask_matches_sdpa_and_each_document_alone():
    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 2, T, 16, generator=gen, dtype=torch.float64) for _ in range(3))
    block_mask = create_block_mask(and_masks(_causal, _same_document), None, None, T, T, "cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # eager flex_attention warns that it is not compiled
        flex = flex_attention(q, k, v, block_mask=block_mask)
    sdpa = F.scaled_dot_product_attention(q, k, v, attn_mask=ALLOWED)
    assert torch.allclose(flex, sdpa, atol=1e-12)
    starts = torch.cumsum(LENGTHS, 0) - LENGTHS
    for start, n in zip(starts.tolist(), LENGTHS.tolist(), strict=True):
        part = slice(start, start + n)
        alone = F.scaled_dot_product_attention(
            q[..., part, :], k[..., part, :], v[..., part, :], is_causal=True
        )
        assert torch.allclose(sdpa[..., part, :], alone, atol=1e-12)


def test_rope_with_a_document_mask_needs_no_position_reset_but_rounding_differs():
    gen = torch.Generator().manual_seed(1)
    q, k, v = (torch.randn(T, 16, generator=gen, dtype=torch.float64) for _ in range(3))
    starts = (torch.cumsum(LENGTHS, 0) - LENGTHS)[DOC_ID]
    outputs = []
    for positions in (torch.arange(T, dtype=torch.float64), (torch.arange(T) - starts).double()):
        qr, kr = _rope(q, positions), _rope(k, positions)
        outputs.append(
            F.scaled_dot_product_attention(qr[None], kr[None], v[None], attn_mask=ALLOWED)
        )
    difference = (outputs[0] - outputs[1]).abs().max().item()
    assert difference < 1e-12  # equal up to rounding
    assert difference > 0  # but not bit for bit: the angles themselves differ
