"""Position schemes that put numbers into the logits: sinusoids, T5's buckets, ALiBi's slopes."""

import math

import torch


# --8<-- [start:sinusoid]
def sinusoid(pos: torch.Tensor, d: int, base: float = 10000.0) -> torch.Tensor:
    """PE[pos, 2i] = sin(pos·ω_i), PE[pos, 2i+1] = cos(pos·ω_i), ω_i = base^(-2i/d); (N, d)."""
    if d % 2:
        raise ValueError(f"sinusoids come in (sin, cos) pairs: d must be even, got d={d}")
    omega = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)  # (d/2,)
    angle = pos.to(torch.float64)[:, None] * omega  # (N, d/2)
    pe = torch.empty(len(pos), d, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = angle.sin(), angle.cos()
    return pe


# --8<-- [end:sinusoid]


# --8<-- [start:unseen_angles]
def unseen_angles(omega: torch.Tensor, L: int, pos: int) -> torch.Tensor:
    """Pairs whose angle pos·ω, read on the circle, lies outside the arc swept by 0..L-1."""
    if L < 1 or pos < 0:
        raise ValueError(f"need a trained length L >= 1 and a position >= 0, got L={L}, pos={pos}")
    swept = (L - 1) * omega  # the arc [0, swept] each pair covered; a full turn covers the circle
    return (swept < 2 * math.pi) & (pos * omega % (2 * math.pi) > swept)


# --8<-- [end:unseen_angles]


# --8<-- [start:t5_bucket]
def t5_bucket(
    relative_position: torch.Tensor,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> torch.Tensor:
    """Mesh TensorFlow's _relative_position_bucket; relative_position = key - query."""
    if relative_position.is_floating_point():
        raise TypeError("relative positions are whole numbers of tokens: pass an integer tensor")
    ret = torch.zeros_like(relative_position)
    n = -relative_position  # > 0: the key lies behind the query
    if bidirectional:
        num_buckets //= 2  # half the buckets for each direction
        ret += (n < 0).long() * num_buckets  # keys ahead of the query take the upper half
        n = n.abs()
    else:
        n = n.clamp(min=0)  # attention that only looks back: all buckets for the past
    max_exact = num_buckets // 2  # offsets below this get a bucket each
    is_small = n < max_exact
    log_ratio = torch.log(n.clamp(min=1).float() / max_exact)  # float32, as in the original
    scaled = log_ratio / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    val_if_large = max_exact + scaled.long()  # log-spaced buckets; .long() truncates like int32
    val_if_large = val_if_large.clamp(max=num_buckets - 1)  # every farther offset: last bucket
    return ret + torch.where(is_small, n, val_if_large)


# --8<-- [end:t5_bucket]


# --8<-- [start:alibi_slopes]
def alibi_slopes(n_heads: int) -> list[float]:
    """ALiBi's slopes: a geometric sequence that starts at 2^(-8/n) and has that ratio."""
    if n_heads < 1:
        raise ValueError(f"ALiBi needs at least one head, got n_heads={n_heads}")
    if math.log2(n_heads).is_integer():
        start = 2 ** (-8 / n_heads)
        return [start ** (h + 1) for h in range(n_heads)]
    p = 2 ** math.floor(math.log2(n_heads))  # the authors' code: p slopes, then fill in
    return alibi_slopes(p) + alibi_slopes(2 * p)[0::2][: n_heads - p]


# --8<-- [end:alibi_slopes]
