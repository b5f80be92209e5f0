"""Logit soft-capping: cap · tanh(x / cap), a smooth bound on the size of a logit."""

import torch


def softcap(x: torch.Tensor, cap: float) -> torch.Tensor:
    """cap · tanh(x / cap): odd, about x near 0; |result| < cap exactly, <= cap in floats."""
    if cap <= 0:
        raise ValueError(f"cap must be positive, got {cap}")
    return cap * torch.tanh(x / cap)


def softcap_grad(x: torch.Tensor, cap: float) -> torch.Tensor:
    """d softcap / dx = 1 - tanh²(x / cap): 1 at 0, vanishing for |x| >> cap."""
    return 1 - torch.tanh(x / cap) ** 2


if __name__ == "__main__":
    x = torch.tensor([1.0, 10.0, 50.0, 100.0, 150.0, 200.0], dtype=torch.float64)
    print(f"{'x':>7s} {'50·tanh(x/50)':>14s} {'gradient':>9s}")
    for xi, yi, gi in zip(x, softcap(x, 50.0), softcap_grad(x, 50.0), strict=True):
        print(f"{xi.item():7.0f} {yi.item():14.4f} {gi.item():9.4f}")
