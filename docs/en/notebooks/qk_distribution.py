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
# # Lab notebook: the distribution of q·k
#
# The experiment behind the page [Why the dot product grows with d_k](../why-dot-product-grows.md),
# with the same sampler, `snippets/variance.py`. The build runs this notebook again whenever
# its own text changes, or what the code it imports does (a comment there does not count), or
# the data that code reads; a failing cell fails the build.
#
# [Download this notebook (qk_distribution.py)](qk_distribution.py) — a jupytext
# percent-format file: run it as a script, or open it in Jupyter with jupytext installed.

# %% [markdown]
# ## Mean and spread
#
# For $q, k$ with independent $\mathcal{N}(0, 1)$ components, $q\cdot k=\sum_{i=1}^{d_k} q_i k_i$
# has $\mathbb{E}[q\cdot k]=0$ and $\operatorname{Var}(q\cdot k)=d_k$, so after dividing by
# $\sqrt{d_k}$ the standard deviation should be $1$ for every $d_k$.

# %%
# %matplotlib inline
import math

import matplotlib.pyplot as plt
import numpy as np

from snippets import variance
from snippets.figures.palette import SERIES

D_KS = (16, 64, 256, 1024)
samples = {d_k: variance.dot_products(d_k).numpy() for d_k in D_KS}
print(f"{variance.N_SAMPLES} samples per d_k")
for d_k, s in samples.items():
    std, root = s.std(ddof=1), math.sqrt(d_k)
    print(
        f"d_k={d_k:4d}  mean={s.mean():+.3f}  std={std:6.3f}"
        f"  sqrt(d_k)={root:5.2f}  ratio={std / root:.3f}"
    )

# %% [markdown]
# ## Shape: how close to a normal distribution?
#
# The variance argument says nothing about the shape. Each term $q_i k_i$ has fourth moment
# $\mathbb{E}[q_i^4]\,\mathbb{E}[k_i^4] = 3\cdot 3$ and variance $1$, so its excess kurtosis is
# $9 - 3 = 6$; a sum of $d_k$ independent terms has excess kurtosis $6/d_k$. A normal
# distribution has $0$. With $n$ samples, a measured excess kurtosis has a standard error of
# roughly $\sqrt{24/n}$ (more for heavy tails).

# %%
n = variance.N_SAMPLES
print(f"standard error: about {math.sqrt(24 / n):.3f}")
for d_k, s in samples.items():
    z = (s - s.mean()) / s.std()
    excess = np.mean(z**4) - 3
    print(f"d_k={d_k:4d}  kurtosis-3 {excess:+.3f}  6/d_k {6 / d_k:.3f}")

# %% [markdown]
# ## Histogram after dividing by √d_k
#
# Horizontal axis: $q\cdot k/\sqrt{d_k}$; vertical axis: density. The black dots trace the
# standard normal density. The spreads coincide: the scale no longer depends on $d_k$. The
# shapes still differ a little: at $d_k = 16$ the histogram has heavier tails than the normal
# density (excess kurtosis $6/d_k$, printed above, measures the tails), and here also a slightly
# higher peak; it approaches the normal density as $d_k$ grows.

# %% alt="Histograms of q·k/√d_k for d_k = 16, 64, 256 and 1024, with the standard normal density marked by black dots: all four have the same spread."
bins = np.linspace(-4, 4, 81)
x = np.linspace(-4, 4, 401)
normal = np.exp(-(x**2) / 2) / math.sqrt(2 * math.pi)
style = {"bins": bins, "density": True, "histtype": "step", "lw": 1.5}
fig, ax = plt.subplots(figsize=(7, 3.2), layout="constrained")
# each histogram gets its own colour and line style
for (d_k, s), look in zip(samples.items(), SERIES, strict=False):
    ax.hist(s / math.sqrt(d_k), label=f"dₖ = {d_k}", **style, **look)
ax.plot(x, normal, "k.", markevery=8, label="N(0, 1)")
ax.set_xlabel(r"$q\cdot k/\sqrt{d_k}$")
ax.legend()
plt.show()
