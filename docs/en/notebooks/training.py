# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lab notebook: training with and without the scale
#
# The record behind the page [Training with and without the scale](../derivation/training.md).
# It opens the cached runs, checks that they belong to the code as it is now, runs the first
# steps of one run again, and plots the held-out loss of each logit scale at its best learning
# rate. The build runs this notebook again whenever its own text changes, or what the code it
# imports does (a comment there does not count), or the data that code reads; a failing cell
# fails the build.
#
# [Download this notebook (training.py)](training.py) — a jupytext percent-format file: run
# it as a script, or open it in Jupyter with jupytext installed.

# %% [markdown]
# ## The cached runs
#
# `python -m snippets.training` trains every combination of $d_k$, logit scale, learning rate
# and seed, and writes the curves to `snippets/data/training_runs.json`. A cache made with
# another configuration than the one in the code would be stale, so the notebook stops there.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import torch

from snippets import training
from snippets.figures.palette import SERIES

results = training.load()
runs, cfg = results["runs"], training.CONFIG
stale = "stale cache: run python -m snippets.training"
assert results["config"] == training.config_dict(), stale
print(f"{len(runs)} runs in {results['seconds']} s on {results['date']}")
print(f"{results['machine']['cpu_count']} cpus, {results['versions']}")

# %% [markdown]
# ## Do the cached curves come from this code?
#
# Train the $1/\sqrt{d_k}$ model at the largest $d_k$ again, with seed 0 and its best learning
# rate, for two evaluation intervals, on one thread as the sweep did, and compare the
# held-out loss with the cache.

# %%
torch.set_num_threads(training.THREADS)  # as the sweep did
d_k = cfg.d_ks[-1]
lr = training.best_lr(runs, d_k, "sqrt")
cached = training.select(runs, d_k=d_k, scale="sqrt", lr=lr, seed=0)[0]
steps = 2 * cfg.eval_every
fresh = training.train(cfg, d_k, "sqrt", lr, seed=0, steps=steps)
n = len(fresh["step"])
pairs = zip(fresh["step"], fresh["loss"], cached["loss"][:n], strict=True)
for step, now, then in pairs:
    print(f"step {step:3d}  loss now {now:.5f}  cached {then:.5f}")
    assert abs(now - then) <= 1e-3 * then, "the cache does not reproduce"

# %% [markdown]
# ## Best learning rate of each setting
#
# The best learning rate is the one that reaches the accuracy threshold in the fewest steps,
# counting the slower of the seeds; a tie goes to the higher final accuracy. `steps=None` means
# that no learning rate got every seed there; the learning rate shown is then the one with the
# highest final accuracy. The last column says whether the next larger learning rate of the
# grid is slower or fails to reach the threshold: where it is, the best one lies inside the grid.

# %%
print(f"threshold: held-out accuracy {training.THRESHOLD:.0%}")
print(f"steps counted every {cfg.eval_every}, for the slower of {len(cfg.seeds)} seeds")


def steps_at(d_k: int, scale: str, lr: float) -> int | None:
    return training.slowest_steps_to(training.select(runs, d_k=d_k, scale=scale, lr=lr))


for d_k in cfg.d_ks:
    for scale in cfg.scales:
        lr = training.best_lr(runs, d_k, scale)
        i = cfg.lrs.index(lr)
        steps = steps_at(d_k, scale, lr)
        above = steps_at(d_k, scale, cfg.lrs[i + 1]) if i + 1 < len(cfg.lrs) else steps
        # inside the grid if the next larger one is slower or fails
        inside = steps is not None and (above is None or above > steps)
        print(f"d_k={d_k:3d}  {scale:4s}  lr={lr:<6g}  steps={steps}  next lr slower: {inside}")

# %% [markdown]
# ## Held-out loss at the best learning rate
#
# One panel per $d_k$; horizontal axis: training step $t$; vertical axis: cross-entropy
# $\mathcal{L}$ on the held-out sequences (log scale), averaged over the seeds. Each logit
# scale is shown at its own best learning rate, so that no scale is favoured by a learning
# rate that happens to suit it. Every one of those lies inside the grid (the cell above shows
# the next larger one slower or failing), but "best" rests on step counts resolved to the evaluation
# interval, for two seeds: a difference of one interval between two learning rates means little.

# %% alt="Held-out loss (log scale) against training step, one panel per d_k, one line per logit scale (1/√d_k, 1, 1/d_k) at its best learning rate."
labels = {"sqrt": "1/√dₖ", "none": "1", "d": "1/dₖ"}
ncols = len(cfg.d_ks)
fig, axes = plt.subplots(1, ncols, figsize=(8, 3), sharey=True)
fig.set_layout_engine("constrained")
for ax, d_k in zip(axes, cfg.d_ks, strict=True):
    # each line gets its own colour and line style
    for scale, look in zip(cfg.scales, SERIES, strict=False):
        lr = training.best_lr(runs, d_k, scale)
        same = training.select(runs, d_k=d_k, scale=scale, lr=lr)
        loss = np.mean([r["loss"] for r in same], axis=0)
        label = f"{labels[scale]}  (lr {lr:g})"
        ax.plot(same[0]["step"], loss, label=label, **look)
    ax.set(yscale="log", title=f"dₖ = {d_k}", xlabel="$t$")
    ax.legend(fontsize=8)
axes[0].set_ylabel(r"$\mathcal{L}$")
plt.show()
