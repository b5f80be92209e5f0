"""Train a one-layer attention model with the logits scaled by 1/√d_k, by 1, or by 1/d_k.

The task is key retrieval: a sequence holds `n_pairs` (key, value) tokens and a query key;
the model must output the value stored with that key. Attention must single out one
position, so the model only learns once q·k separates the matching key from the others.

Initialisation follows the derivation's assumptions: token embeddings have N(0, 1)
components and W_Q, W_K have N(0, 1/d_model) entries, so each component of q and k has
variance d_model · 1 · (1/d_model) = 1 at initialisation, whatever d_k is.

Regenerate the cached results (a minute or two, on one thread) with
`python -m snippets.training`.
"""

# --8<-- [start:model]
import dataclasses
import datetime
import json
import math
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F

RESULTS = Path(__file__).parent / "data" / "training_runs.json"
EVAL_SEED = 10_000  # the held-out batch is the same for every run
THRESHOLD = 0.9  # "learned": held-out accuracy at least this
THREADS = 1  # the sweep's torch threads: deterministic, and polite on a shared 2-core machine

# Factor that multiplies q·k before the softmax, as a function of d_k.
SCALES = {
    "sqrt": lambda d_k: 1 / math.sqrt(d_k),  # softmax(QK^T/√d_k)
    "none": lambda d_k: 1.0,  # softmax(QK^T)
    "d": lambda d_k: 1 / d_k,  # softmax(QK^T/d_k)
}


@dataclass(frozen=True)
class Config:
    """Everything that determines the sweep; the cached JSON records it."""

    d_model: int = 64
    d_ks: tuple[int, ...] = (64, 256)
    scales: tuple[str, ...] = ("sqrt", "none", "d")
    lrs: tuple[float, ...] = (3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1)  # every best lr inside the grid
    seeds: tuple[int, ...] = (0, 1)
    n_pairs: int = 16
    n_keys: int = 64
    n_values: int = 64
    batch: int = 64
    steps: int = 300
    eval_every: int = 20
    n_eval: int = 512
    betas: tuple[float, float] = (0.9, 0.999)  # Adam; constant learning rate, no weight decay


CONFIG = Config()


def make_batch(cfg: Config, n: int, gen: torch.Generator) -> tuple[torch.Tensor, ...]:
    """n sequences: keys (n, P) distinct per row, values (n, P), query (n,), target (n,)."""
    keys = torch.rand(n, cfg.n_keys, generator=gen).argsort(-1)[:, : cfg.n_pairs]  # (n, P)
    values = torch.randint(cfg.n_values, (n, cfg.n_pairs), generator=gen)  # (n, P)
    pick = torch.randint(cfg.n_pairs, (n, 1), generator=gen)  # (n, 1)
    return keys, values, keys.gather(1, pick).squeeze(1), values.gather(1, pick).squeeze(1)


class KeyRetrieval(torch.nn.Module):
    """Embeddings, one attention head with logits scale·q·k, and a readout to the values."""

    def __init__(self, cfg: Config, d_k: int, scale: float, gen: torch.Generator):
        super().__init__()
        d, std = cfg.d_model, 1 / math.sqrt(cfg.d_model)

        def param(*shape: int, std: float = 1.0) -> torch.nn.Parameter:
            return torch.nn.Parameter(torch.randn(*shape, generator=gen) * std)

        self.scale = scale
        self.key_emb = param(cfg.n_keys, d)  # N(0, 1) components
        self.value_emb = param(cfg.n_values, d)
        self.W_Q = param(d, d_k, std=std)  # q = x W_Q: unit-variance components
        self.W_K = param(d, d_k, std=std)
        self.W_V = param(d, d, std=std)
        self.W_O = param(d, cfg.n_values, std=std)

    def forward(self, keys, values, query) -> tuple[torch.Tensor, torch.Tensor]:
        """Return (value logits (B, n_values), attention logits scale·q·k (B, P))."""
        # Each position carries its key and its value; /√2 keeps unit variance.
        x = (self.key_emb[keys] + self.value_emb[values]) / math.sqrt(2)  # (B, P, d)
        q = self.key_emb[query] @ self.W_Q  # (B, d_k)
        k = x @ self.W_K  # (B, P, d_k)
        v = x @ self.W_V  # (B, P, d)
        s = self.scale * torch.einsum("bd,bpd->bp", q, k)  # (B, P)
        out = torch.einsum("bp,bpd->bd", s.softmax(-1), v)  # (B, d)
        return out @ self.W_O, s


# --8<-- [end:model]
# --8<-- [start:train]
def entropy(s: torch.Tensor) -> torch.Tensor:
    """Entropy (nats) of softmax(s) along the last dimension."""
    return -(s.softmax(-1) * s.log_softmax(-1)).sum(-1)


def _sig(x: float) -> float:
    return float(f"{x:.6g}")  # six significant digits keep the JSON short


def train(
    cfg: Config, d_k: int, scale: str, lr: float, seed: int, steps: int | None = None
) -> dict:
    """One run; returns its settings and curves measured on the held-out batch every eval_every."""
    steps = cfg.steps if steps is None else steps
    model = KeyRetrieval(cfg, d_k, SCALES[scale](d_k), torch.Generator().manual_seed(seed))
    opt = torch.optim.Adam(model.parameters(), lr=lr, betas=cfg.betas)
    *eval_inputs, eval_target = make_batch(
        cfg, cfg.n_eval, torch.Generator().manual_seed(EVAL_SEED)
    )
    data = torch.Generator().manual_seed(seed + 1)  # same data stream for every scale and lr
    run = {"d_k": d_k, "scale": scale, "lr": lr, "seed": seed}
    curves = {k: [] for k in ("step", "loss", "accuracy", "logit_std", "entropy")}
    for step in range(steps + 1):
        if step % cfg.eval_every == 0 or step == steps:
            with torch.no_grad():
                out, s = model(*eval_inputs)
            for key, value in (
                ("step", step),
                ("loss", _sig(F.cross_entropy(out, eval_target).item())),
                ("accuracy", _sig((out.argmax(-1) == eval_target).float().mean().item())),
                ("logit_std", _sig(s.std().item())),
                ("entropy", _sig(entropy(s).mean().item())),
            ):
                curves[key].append(value)
        if step == steps:
            break
        *inputs, target = make_batch(cfg, cfg.batch, data)
        loss = F.cross_entropy(model(*inputs)[0], target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return run | curves


# --8<-- [end:train]
def sweep(cfg: Config = CONFIG) -> list[dict]:
    """Every (d_k, scale, lr, seed) of cfg, trained on THREADS threads."""
    threads = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        return [
            train(cfg, d_k, scale, lr, seed)
            for d_k in cfg.d_ks
            for scale in cfg.scales
            for lr in cfg.lrs
            for seed in cfg.seeds
        ]
    finally:
        torch.set_num_threads(threads)


def config_dict(cfg: Config = CONFIG) -> dict:
    """cfg as JSON would store it (tuples become lists)."""
    return json.loads(json.dumps(dataclasses.asdict(cfg)))


def cpu_model() -> str:
    """The CPU's model name where the OS tells it: rounding, and so the runs, depend on the CPU."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            names = [line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")]
    except OSError:
        names = []
    return names[0] if names else platform.processor() or platform.machine()


def regenerate(path: Path = RESULTS, cfg: Config = CONFIG) -> dict:
    """Run the sweep and write it, with when, where and with what it ran, to `path`."""
    start = time.perf_counter()
    runs = sweep(cfg)
    meta = {
        "date": datetime.date.today().isoformat(),
        "seconds": round(time.perf_counter() - start, 1),
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu": cpu_model(),
            "cpu_count": os.cpu_count(),
            "torch_threads": THREADS,
        },
        "versions": {"python": platform.python_version(), "torch": torch.__version__},
        "config": config_dict(cfg),
    }
    # One run per line: readable diffs when the results are regenerated.
    body = ",\n".join("    " + json.dumps(run) for run in runs)
    head = json.dumps(meta, indent=2)[:-2]  # without the closing "\n}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'{head},\n  "runs": [\n{body}\n  ]\n}}\n', encoding="utf-8")
    return load(path)


def load(path: Path = RESULTS) -> dict:
    """The cached sweep, as regenerate() wrote it."""
    return json.loads(path.read_text(encoding="utf-8"))


def select(runs: list[dict], **match) -> list[dict]:
    """The runs whose settings equal every keyword given."""
    return [r for r in runs if all(r[k] == v for k, v in match.items())]


def steps_to(run: dict, accuracy: float = THRESHOLD) -> int | None:
    """First evaluated step at which the run's held-out accuracy reached `accuracy`, or None."""
    return next(
        (s for s, a in zip(run["step"], run["accuracy"], strict=True) if a >= accuracy), None
    )


def slowest_steps_to(runs: list[dict], accuracy: float = THRESHOLD) -> int | None:
    """steps_to of the slowest of `runs` (the seeds of one setting); None if any never got there."""
    steps = [steps_to(r, accuracy) for r in runs]
    return None if None in steps else max(steps)


def final_accuracy(runs: list[dict]) -> float:
    """Held-out accuracy after the last step, averaged over `runs`."""
    return sum(r["accuracy"][-1] for r in runs) / len(runs)


def fastest_lrs(runs: list[dict], d_k: int, scale: str) -> list[float]:
    """Every learning rate reaching THRESHOLD in the fewest steps (all seeds); [] if none does."""
    steps = {
        lr: slowest_steps_to(select(runs, d_k=d_k, scale=scale, lr=lr))
        for lr in sorted({r["lr"] for r in select(runs, d_k=d_k, scale=scale)})
    }
    reached = [s for s in steps.values() if s is not None]
    return [lr for lr, s in steps.items() if reached and s == min(reached)]


def best_lr(runs: list[dict], d_k: int, scale: str) -> float:
    """The learning rate that reaches THRESHOLD in the fewest steps (all seeds); ties: accuracy."""

    def rank(lr: float) -> tuple[float, float]:
        same = select(runs, d_k=d_k, scale=scale, lr=lr)
        steps = slowest_steps_to(same)
        return (math.inf if steps is None else steps, -final_accuracy(same))

    return min(sorted({r["lr"] for r in select(runs, d_k=d_k, scale=scale)}), key=rank)


if __name__ == "__main__":
    results = regenerate()
    print(f"{len(results['runs'])} runs in {results['seconds']} s -> {RESULTS}")
