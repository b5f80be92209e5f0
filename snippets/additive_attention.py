"""Additive (Bahdanau) scores stay bounded as inputs grow; dot-product scores do not."""

import torch


def additive_score(
    q: torch.Tensor, k: torch.Tensor, W_q: torch.Tensor, W_k: torch.Tensor, v: torch.Tensor
) -> torch.Tensor:
    """v^T tanh(W_q q + W_k k) for rows of q and k; bounded by ||v||_1 whatever q and k are."""
    return torch.tanh(q @ W_q.T + k @ W_k.T) @ v  # (n,)


def dot_score(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """q·k for rows of q and k: grows with the size of the inputs."""
    return (q * k).sum(-1)  # (n,)


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    d, d_a, n = 64, 64, 10_000
    W_q = torch.randn(d_a, d, generator=gen, dtype=torch.float64) / d**0.5
    W_k = torch.randn(d_a, d, generator=gen, dtype=torch.float64) / d**0.5
    v = torch.randn(d_a, generator=gen, dtype=torch.float64) / d_a**0.5
    q = torch.randn(n, d, generator=gen, dtype=torch.float64)
    k = torch.randn(n, d, generator=gen, dtype=torch.float64)
    bound = v.abs().sum()
    print(f"bound ||v||_1 = {bound:.2f}")
    for c in (1, 4, 16):  # inputs c times larger
        add, dot = additive_score(c * q, c * k, W_q, W_k, v), dot_score(c * q, c * k)
        a_max, d_max = add.abs().max(), dot.abs().max()
        print(
            f"inputs x{c:<3d} max |additive| = {a_max:4.2f} ({a_max / bound:.0%} of the bound)"
            f"   max |dot| = {d_max:6.1f} = {d_max / c**2:.1f} * {c}**2"
        )
