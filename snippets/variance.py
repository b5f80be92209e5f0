"""Why q·k grows with d_k: sample dot products of random unit-variance vectors."""

import math

import torch

N_SAMPLES = 20_000


def dot_products(d_k: int, n: int = N_SAMPLES, seed: int = 0) -> torch.Tensor:
    """Return n samples of q·k for q, k with i.i.d. N(0, 1) components."""
    if d_k < 1 or n < 2:
        raise ValueError(f"need d_k >= 1 and n >= 2, got d_k={d_k}, n={n}")
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(n, d_k, generator=gen, dtype=torch.float64)  # (n, d_k)
    k = torch.randn(n, d_k, generator=gen, dtype=torch.float64)  # (n, d_k)
    return (q * k).sum(dim=-1)  # (n,): one dot product per row


def scaled_std(d_k: int, scale: float, n: int = N_SAMPLES, seed: int = 0) -> float:
    """Measured standard deviation of scale · q·k."""
    return (scale * dot_products(d_k, n, seed)).std().item()


if __name__ == "__main__":
    worst = 0.0
    for d_k in (16, 64, 256, 1024):
        measured, expected = scaled_std(d_k, scale=1.0), math.sqrt(d_k)
        # Standard error of a sample std: sigma * sqrt((kurtosis - 1) / (4n)). With Gaussian
        # components q·k has kurtosis 3 + 6/d_k: its tails are heavier for small d_k.
        std_err = expected * math.sqrt((2 + 6 / d_k) / (4 * N_SAMPLES))
        worst = max(worst, abs(measured - expected) / std_err)
        print(
            f"d_k={d_k:5d}  std(q·k)={measured:7.2f}  sqrt(d_k)={expected:6.2f}"
            f"  off by {(measured - expected) / std_err:+.1f} standard errors"
        )
    print(f"largest deviation: {worst:.1f} standard errors")
