"""A worked example: every logit, probability and gradient norm at d_k = 4 and d_k = 64."""

import math

import torch

from snippets.saturation import softmax_jacobian

# dL/dp for a loss L that is linear in the weights: L falls when p_2 rises or p_3 falls.
GRAD_P = torch.tensor([0.0, -1.0, 1.0], dtype=torch.float64)
STEP = 1e-3  # learning rate of the one small descent step taken on q·k


def fmt(x: torch.Tensor) -> str:
    """Numbers in a row, three decimals."""
    return " ".join(f"{v:7.3f}" for v in x.tolist())


def case(qk: torch.Tensor, scale: float, grad_p: torch.Tensor = GRAD_P) -> dict:
    """Logits scale·q·k, their weights p, the gradient norms at the softmax input and at q·k,
    and the change in p after one small gradient-descent step on q·k."""
    p = torch.softmax(scale * qk, dim=-1)
    grad_logits = softmax_jacobian(p) @ grad_p  # dL/d(scale·q·k) = J dL/dp
    grad_qk = scale * grad_logits  # chain rule: dL/d(q·k)
    stepped = torch.softmax(scale * (qk - STEP * grad_qk), dim=-1)
    return {
        "logits": scale * qk,
        "p": p,
        "grad_logits": grad_logits.norm().item(),
        "grad_qk": grad_qk.norm().item(),
        "dp": stepped - p,
    }


def show(name: str, c: dict, direction: bool = False) -> None:
    """Print logits, weights and gradient norms; with `direction`, the sign of each weight's
    change after the descent step."""
    print(f"  {name:9s} logits {fmt(c['logits'])}")
    print(f"  {'':9s} p      {fmt(c['p'])}")
    print(f"  {'':9s} |dL/dlogits| = {c['grad_logits']:.4f}   |dL/d(q·k)| = {c['grad_qk']:.4f}")
    if direction:
        signs = "  ".join("+" if d > 0 else "-" for d in c["dp"].tolist())
        print(f"  {'':9s} sign of the change in p after one descent step on q·k: {signs}")


if __name__ == "__main__":
    q = torch.tensor([1.0, 0.5, -0.5, 1.0], dtype=torch.float64)
    K = torch.tensor(
        [[0.5, 1.0, 0.0, -1.0], [1.0, 0.5, 0.5, 0.0], [-1.0, 0.0, 1.0, 0.5]], dtype=torch.float64
    )
    print("hand-picked vectors, d_k = 4:")
    unscaled = case(K @ q, 1.0)
    show("unscaled", unscaled, direction=True)
    show("scaled", case(K @ q, 1 / math.sqrt(4)))
    spread = case(4 * (K @ q), 1.0)  # the same logits with the spread of d_k = 64
    show("4x spread", spread)
    ratio = unscaled["grad_logits"] / spread["grad_logits"]
    print(f"  gradient at the softmax input, unscaled / 4x spread: {ratio:.1f}")
    for d_k in (4, 64):
        gen = torch.Generator().manual_seed(1)
        q = torch.randn(d_k, generator=gen, dtype=torch.float64)
        K = torch.randn(3, d_k, generator=gen, dtype=torch.float64)
        print(f"random vectors, d_k = {d_k}:")
        raw, scaled = case(K @ q, 1.0), case(K @ q, 1 / math.sqrt(d_k))
        show("unscaled", raw)
        show("scaled", scaled)
        print(f"  gradient at q·k, scaled / unscaled: {scaled['grad_qk'] / raw['grad_qk']:.1f}")
