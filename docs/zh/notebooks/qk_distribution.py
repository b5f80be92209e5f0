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
# # 实验笔记：q·k 的分布
#
# “[点积为什么随 d_k 增大](../why-dot-product-grows.md)”一页背后的实验，用的是同一个抽样函数
# `snippets/variance.py`。这个实验笔记的文本一有改动，或它导入的代码的行为（只加注释不算）及其读取的数据有变，构建就会重新运行它；任何一个单元格出错，构建就失败。
#
# [下载本实验笔记（qk_distribution.py）](qk_distribution.py)：jupytext 的 percent
# 格式文件，可以直接当脚本运行，也可以在装了 jupytext 的 Jupyter 里打开。

# %% [markdown]
# ## 均值与离散程度
#
# 若 $q$、$k$ 的各分量相互独立且服从 $\mathcal{N}(0, 1)$，则 $q\cdot k=\sum_{i=1}^{d_k} q_i k_i$
# 满足 $\mathbb{E}[q\cdot k]=0$、$\operatorname{Var}(q\cdot k)=d_k$；因此除以 $\sqrt{d_k}$
# 之后，对每个 $d_k$ 标准差都应为 $1$。

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
# ## 形状：离正态分布有多近？
#
# 方差论证不涉及分布的形状。每一项 $q_i k_i$ 的四阶矩是
# $\mathbb{E}[q_i^4]\,\mathbb{E}[k_i^4] = 3\cdot 3$、方差是 $1$，所以它的超额峰度是
# $9 - 3 = 6$；$d_k$ 个独立项之和的超额峰度是 $6/d_k$。正态分布的超额峰度为 $0$。用 $n$
# 个样本实测的超额峰度，标准误约为 $\sqrt{24/n}$（重尾时更大）。

# %%
n = variance.N_SAMPLES
print(f"standard error: about {math.sqrt(24 / n):.3f}")
for d_k, s in samples.items():
    z = (s - s.mean()) / s.std()
    excess = np.mean(z**4) - 3
    print(f"d_k={d_k:4d}  kurtosis-3 {excess:+.3f}  6/d_k {6 / d_k:.3f}")

# %% [markdown]
# ## 除以 √d_k 之后的直方图
#
# 横轴：$q\cdot k/\sqrt{d_k}$；纵轴：概率密度。黑色圆点描出标准正态分布的密度曲线。
#
# 几个直方图的离散程度一致，不再依赖 $d_k$。形状仍略有差别：$d_k = 16$
# 时，直方图的尾部比正态密度重（超额峰度 $6/d_k$ 衡量的是尾部，见上面的输出），这里峰也略高一些；
# 随着 $d_k$ 增大，它逐渐贴近正态密度。

# %% alt="d_k = 16、64、256、1024 时 q·k/√d_k 的直方图，黑色圆点标出标准正态密度：四个直方图的离散程度相同。"
bins = np.linspace(-4, 4, 81)
x = np.linspace(-4, 4, 401)
normal = np.exp(-(x**2) / 2) / math.sqrt(2 * math.pi)
style = {"bins": bins, "density": True, "histtype": "step", "lw": 1.5}
fig, ax = plt.subplots(figsize=(7, 3.2), layout="constrained")
# 每个直方图各用一种颜色和线型
for (d_k, s), look in zip(samples.items(), SERIES, strict=False):
    ax.hist(s / math.sqrt(d_k), label=f"dₖ = {d_k}", **style, **look)
ax.plot(x, normal, "k.", markevery=8, label="N(0, 1)")
ax.set_xlabel(r"$q\cdot k/\sqrt{d_k}$")
ax.legend()
plt.show()
