"""A worked example: every logit, probability and gradient norm at d_k = 4 and d_k = 64."""

import math

import torch

from snippets.saturation import softmax_jacobian


def fmt(x: torch.Tensor) -> str:
    """Numbers in a row, three decimals."""
    return " ".join(f"{v:7.3f}" for v in x.tolist())


def show(name: str, s: torch.Tensor, scale: float, grad_p: torch.Tensor) -> None:
    """Print logits, weights and gradient norms at the softmax input and at q·k."""
    p = torch.softmax(scale * s, dim=-1)
    grad_logits = softmax_jacobian(p) @ grad_p  # dL/d(scale·q·k) = J dL/dp
    print(f"  {name:9s} logits {fmt(scale * s)}")
    print(f"  {'':9s} p      {fmt(p)}")
    g = grad_logits.norm()
    print(f"  {'':9s} |dL/dlogits| = {g:.4f}   |dL/d(q·k)| = {scale * g:.4f}")


if __name__ == "__main__":
    q = torch.tensor([1.0, 0.5, -0.5, 1.0], dtype=torch.float64)
    K = torch.tensor(
        [[0.5, 1.0, 0.0, -1.0], [1.0, 0.5, 0.5, 0.0], [-1.0, 0.0, 1.0, 0.5]], dtype=torch.float64
    )
    grad_p = torch.tensor(
        [0.0, -1.0, 1.0], dtype=torch.float64
    )  # the loss wants weight moved to key 3
    print("hand-picked vectors, d_k = 4:")
    show("unscaled", K @ q, 1.0, grad_p)
    show("scaled", K @ q, 1 / math.sqrt(4), grad_p)
    show("4x spread", 4 * (K @ q), 1.0, grad_p)  # the same logits with the spread of d_k = 64
    for d_k in (4, 64):
        gen = torch.Generator().manual_seed(1)
        q = torch.randn(d_k, generator=gen, dtype=torch.float64)
        K = torch.randn(3, d_k, generator=gen, dtype=torch.float64)
        print(f"random vectors, d_k = {d_k}:")
        show("unscaled", K @ q, 1.0, grad_p)
        show("scaled", K @ q, 1 / math.sqrt(d_k), grad_p)
