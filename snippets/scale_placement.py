"""Where the scale goes: on the scores, on Q, on K, or split as scale**0.5 on both."""

import math

import torch

PLACEMENTS = ("scores", "Q", "K", "split")


def scaled_scores(q: torch.Tensor, k: torch.Tensor, scale: float, where: str) -> torch.Tensor:
    """scale * q k^T with the multiplication applied at `where`; (..., N, d) -> (..., N_q, N_k)."""
    kt = k.transpose(-2, -1)  # (..., d, N_k)
    if where == "scores":
        return (q @ kt) * scale
    if where == "Q":
        return (q * scale) @ kt
    if where == "K":
        return q @ (kt * scale)
    if where == "split":
        root = math.sqrt(scale)  # scale = root * root: d_k**-0.25 on each side
        return (q * root) @ (kt * root)
    raise ValueError(f"where must be one of {PLACEMENTS}, got {where!r}")


def placement_errors(
    dtype: torch.dtype, d_k: int = 128, n: int = 64, seed: int = 0
) -> dict[str, float]:
    """Largest error of each placement computed in dtype, in units of dtype's eps."""
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(n, d_k, generator=gen).to(dtype)  # (n, d_k), rounded to dtype
    k = torch.randn(n, d_k, generator=gen).to(dtype)  # (n, d_k)
    scale = 1 / math.sqrt(d_k)
    exact = (q.double() @ k.double().T) * scale  # (n, n): same inputs, float64 arithmetic
    unit = exact.abs().max() * torch.finfo(dtype).eps  # eps relative to the largest score
    return {
        where: ((scaled_scores(q, k, scale, where).double() - exact).abs().max() / unit).item()
        for where in PLACEMENTS
    }


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    for d_k in (128, 256):
        q = torch.randn(64, d_k, generator=gen)  # (64, d_k) float32
        k = torch.randn(64, d_k, generator=gen)  # (64, d_k)
        S = {where: scaled_scores(q, k, 1 / math.sqrt(d_k), where) for where in PLACEMENTS}
        same = all(torch.equal(S["scores"], S[where]) for where in PLACEMENTS)
        close = all(torch.allclose(S["scores"], S[where], rtol=1e-5, atol=1e-5) for where in S)
        print(f"d_k={d_k}: bit-identical {same}, equal to 1e-5 {close}")
