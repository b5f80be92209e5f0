"""Long context: the largest of N logits and the entropy of the attention weights, by N."""

import math

import torch


def max_and_entropy(N: int, trials: int = 200, seed: int = 0) -> tuple[float, float]:
    """Mean of max_j s_j and mean entropy of softmax(s) over rows of N i.i.d. N(0, 1) logits."""
    gen = torch.Generator().manual_seed(seed)
    s = torch.randn(trials, N, generator=gen, dtype=torch.float64)  # (trials, N) scaled logits
    log_p = torch.log_softmax(s, dim=-1)
    entropy = -(log_p.exp() * log_p).sum(-1)  # (trials,) in nats
    return s.amax(-1).mean().item(), entropy.mean().item()


def sweep(Ns: tuple[int, ...], trials: int = 200) -> dict[str, list[float]]:
    """Measured max and entropy next to the asymptotes sqrt(2 ln N) and ln N - 1/2."""
    measured = [max_and_entropy(N, trials) for N in Ns]
    return {
        "N": list(Ns),
        "max": [m for m, _ in measured],
        "sqrt_2lnN": [math.sqrt(2 * math.log(N)) for N in Ns],
        "entropy": [h for _, h in measured],
        "lnN": [math.log(N) for N in Ns],
        "lnN_minus_half": [math.log(N) - 0.5 for N in Ns],
    }


if __name__ == "__main__":
    for N in (16, 1024, 65536):
        m, h = max_and_entropy(N)
        print(
            f"N={N:6d}  max={m:5.2f}  sqrt(2 ln N)={math.sqrt(2 * math.log(N)):5.2f}  "
            f"entropy={h:6.2f}  ln N - 1/2={math.log(N) - 0.5:6.2f}  ln N={math.log(N):6.2f}"
        )
