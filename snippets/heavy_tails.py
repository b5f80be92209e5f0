"""The variance argument without Gaussians: unit-variance Student-t components, and the CLT."""

import math

import numpy as np


def unit_variance_samples(
    shape: tuple[int, ...], nu: float | None, rng: np.random.Generator
) -> np.ndarray:
    """Standard normal (nu=None) or Student-t(nu) samples rescaled to variance 1 (needs nu > 2)."""
    if nu is None:
        return rng.standard_normal(shape)
    if nu <= 2:
        raise ValueError(f"Student-t has infinite variance for nu <= 2, got nu={nu}")
    return rng.standard_t(nu, shape) / math.sqrt(nu / (nu - 2))  # t(nu) has variance nu/(nu-2)


def scaled_logit_stats(
    d_k: int, nu: float | None, n: int = 50_000, seed: int = 0
) -> tuple[float, float]:
    """(std, P(|s| > 3)) of s = q·k/sqrt(d_k) for unit-variance components of the given law."""
    rng = np.random.default_rng(seed)
    q = unit_variance_samples((n, d_k), nu, rng)
    k = unit_variance_samples((n, d_k), nu, rng)
    s = (q * k).sum(-1) / math.sqrt(d_k)
    return float(s.std()), float((np.abs(s) > 3).mean())


if __name__ == "__main__":
    print(f"normal reference: P(|Z| > 3) = {math.erfc(3 / math.sqrt(2)):.4f}")
    for name, nu in (("normal", None), ("t(5)", 5.0), ("t(3)", 3.0)):
        for d_k in (4, 64):
            std, tail = scaled_logit_stats(d_k, nu)
            print(f"{name:7s} d_k={d_k:3d}  std = {std:.3f}   P(|s| > 3) = {tail:.4f}")
