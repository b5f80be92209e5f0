"""Softmax saturation: how sharp the weights get and how small the Jacobian becomes, by d_k."""

import math

import torch


def softmax_jacobian(p: torch.Tensor) -> torch.Tensor:
    """Jacobian of softmax at probabilities p (last dim n): diag(p) - p p^T, shape (..., n, n)."""
    return torch.diag_embed(p) - p.unsqueeze(-1) * p.unsqueeze(-2)


def random_logits(d_k: int, n_keys: int, trials: int, seed: int = 0) -> torch.Tensor:
    """Raw dot products q·k_j, shape (trials, n_keys), for q, k_j with i.i.d. N(0, 1) entries."""
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(trials, 1, d_k, generator=gen, dtype=torch.float64)  # (T, 1, d_k)
    K = torch.randn(trials, n_keys, d_k, generator=gen, dtype=torch.float64)  # (T, n, d_k)
    return (q * K).sum(-1)  # (T, n)


def saturation_stats(
    d_k: int, scale: float, n_keys: int = 16, trials: int = 2000, seed: int = 0
) -> dict[str, float]:
    """Mean largest weight and mean spectral norm of the softmax Jacobian at logits scale·q·k."""
    p = torch.softmax(scale * random_logits(d_k, n_keys, trials, seed), dim=-1)  # (T, n)
    J = softmax_jacobian(p)  # (T, n, n), symmetric
    norm = torch.linalg.eigvalsh(J).amax(-1)  # spectral norm of a symmetric PSD matrix
    return {"max_p": p.amax(-1).mean().item(), "jacobian_norm": norm.mean().item()}


def sweep(d_ks: tuple[int, ...], n_keys: int = 16, trials: int = 2000) -> dict[str, list[float]]:
    """saturation_stats for every d_k, unscaled (scale 1) and scaled (1/sqrt(d_k))."""
    out: dict[str, list[float]] = {
        k: [] for k in ("max_p_raw", "max_p_scaled", "jac_raw", "jac_scaled")
    }
    for d_k in d_ks:
        raw = saturation_stats(d_k, 1.0, n_keys, trials)
        scaled = saturation_stats(d_k, 1 / math.sqrt(d_k), n_keys, trials)
        out["max_p_raw"].append(raw["max_p"])
        out["max_p_scaled"].append(scaled["max_p"])
        out["jac_raw"].append(raw["jacobian_norm"])
        out["jac_scaled"].append(scaled["jacobian_norm"])
    return out
