"""What initialisation gives Var(q_i) = 1, and what happens to q·k once q and k are correlated."""

import math

import torch
import torch.nn.functional as F


def logit_std_at_init(
    d_model: int, d_k: int, w_std: float, n_tokens: int = 4096, seed: int = 0
) -> tuple[float, float]:
    """(std of q_i, std of q·k/sqrt(d_k)) for LayerNorm-ed tokens and N(0, w_std^2) projections."""
    gen = torch.Generator().manual_seed(seed)
    x = F.layer_norm(torch.randn(n_tokens, d_model, generator=gen, dtype=torch.float64), (d_model,))
    W_q = w_std * torch.randn(d_k, d_model, generator=gen, dtype=torch.float64)
    W_k = w_std * torch.randn(d_k, d_model, generator=gen, dtype=torch.float64)
    q, k = x @ W_q.T, x.roll(1, dims=0) @ W_k.T  # each query meets another token's key
    return q.std().item(), ((q * k).sum(-1) / math.sqrt(d_k)).std().item()


def correlated_logits(d_k: int, rho: float, n: int = 20_000, seed: int = 0) -> torch.Tensor:
    """q·k for unit-variance q, k whose components have correlation rho (aligned by training)."""
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(n, d_k, generator=gen, dtype=torch.float64)
    noise = torch.randn(n, d_k, generator=gen, dtype=torch.float64)
    k = rho * q + math.sqrt(1 - rho**2) * noise  # Var(k_i) = 1, Corr(q_i, k_i) = rho
    return (q * k).sum(-1)


if __name__ == "__main__":
    d_model, d_k = 768, 64
    for name, w_std in (("1/sqrt(d_model)", 1 / math.sqrt(d_model)), ("0.02", 0.02)):
        q_std, s_std = logit_std_at_init(d_model, d_k, w_std)
        print(f"W std {name:16s} std(q_i) = {q_std:.3f}   std(q·k/sqrt(d_k)) = {s_std:.3f}")
    print(f"predicted for 0.02: Var(q_i) = 0.02**2 * {d_model} = {0.02**2 * d_model:.4f}")
    # With std 0.02, std(q·k/sqrt(d_k)) = Var(q_i) = 0.02**2 * d_model: it grows with the width.
    for width in (1600, 4096):
        print(
            f"W std 0.02, d_model = {width}: std(q·k/sqrt(d_k)) = "
            f"{logit_std_at_init(width, d_k, 0.02)[1]:.2f}, predicted {0.02**2 * width:.2f}"
        )
    print(f"predicted std 1 at d_model = 1 / 0.02**2 = {1 / 0.02**2:.0f}")
    for d_k in (64, 256, 1024):
        s = correlated_logits(d_k, rho=0.5)
        print(
            f"rho=0.5 d_k={d_k:5d}  mean q·k/sqrt(d_k) = {(s / math.sqrt(d_k)).mean():6.2f}"
            f"   mean q·k/d_k = {(s / d_k).mean():.3f}"
        )
