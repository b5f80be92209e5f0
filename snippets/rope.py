"""Rotary position embedding (RoPE): rotate each pair of coordinates by an angle ∝ position."""

import torch


def rope_angles(positions: torch.Tensor, d: int, base: float = 10000.0) -> torch.Tensor:
    """Angles m·θ_i with θ_i = base**(-2(i-1)/d), i = 1..d/2; shape (N, d/2)."""
    if d % 2:
        raise ValueError(f"RoPE needs an even dimension, got d={d}")
    i = torch.arange(0, d, 2, dtype=torch.float64)  # 2(i-1) for i = 1..d/2
    theta = base ** (-i / d)  # (d/2,)
    return positions.to(torch.float64)[:, None] * theta[None, :]  # (N, d/2)


def rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """Rotate the pairs (x_2i, x_2i+1) of x, shape (..., N, d), by the angles of `positions`."""
    angles = rope_angles(positions, x.shape[-1], base)  # (N, d/2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., 0::2], x[..., 1::2]  # (..., N, d/2) each: the two halves of every pair
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * cos - x2 * sin  # a 2x2 rotation per pair: linear in x
    out[..., 1::2] = x1 * sin + x2 * cos
    return out


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    d = 64
    q = torch.randn(1, d, generator=gen, dtype=torch.float64)  # (1, d)
    k = torch.randn(1, d, generator=gen, dtype=torch.float64)  # (1, d)

    def score(m: int, n: int) -> float:
        """RoPE'd query at position m against RoPE'd key at position n."""
        return (rope(q, torch.tensor([m])) @ rope(k, torch.tensor([n])).T).item()

    # The score depends on m - n only: shifting both positions changes nothing.
    print(f"score(5, 2) = {score(5, 2):.6f}, score(105, 102) = {score(105, 102):.6f}")
    print(f"norm kept: {torch.allclose(rope(q, torch.tensor([7])).norm(), q.norm())}")
