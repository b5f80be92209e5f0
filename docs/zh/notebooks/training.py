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
# # 实验笔记：有缩放与无缩放的训练
#
# 这是“[有缩放与无缩放的训练](../derivation/training.md)”一页背后的实验记录。
#
# 它读入缓存的训练结果，检查这些结果确实出自当前的代码，把其中一次训练的前几步重新跑一遍，再画出每种
# logit 缩放在各自最佳学习率下的留出集损失。
#
# 这个实验笔记的文本一有改动，或它导入的代码的行为（只加注释不算）及其读取的数据有变，构建就会重新运行它；任何一个单元格出错，构建就失败。
#
# [下载本实验笔记（training.py）](training.py)：jupytext 的 percent
# 格式文件，可以直接当脚本运行，也可以在装了 jupytext 的 Jupyter 里打开。

# %% [markdown]
# ## 缓存的训练结果
#
# `python -m snippets.training` 训练 $d_k$、logit 缩放、学习率和随机种子的每一种组合，把曲线写进
# `snippets/data/training_runs.json`。
#
# 如果缓存用的配置和代码里的不同，缓存就过时了，实验笔记会在这里停下。

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
# ## 缓存的曲线出自这份代码吗？
#
# 用最大的 $d_k$、种子 0 和它的最佳学习率，把 $1/\sqrt{d_k}$
# 模型重新训练两个评估间隔，和完整实验一样只用一个线程，再把留出集损失与缓存比较。

# %%
torch.set_num_threads(training.THREADS)  # 与完整实验相同
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
# ## 每种设置的最佳学习率
#
# 最佳学习率：按较慢的那个种子计，达到准确率阈值所需步数最少的学习率；步数相同时取最终准确率更高者。
#
# `steps=None` 表示没有哪个学习率能让每个种子都达到阈值，这时显示的是最终准确率最高的学习率。
# 最后一列说明网格中下一个更大的学习率是否更慢或达不到阈值：是的话，最佳学习率就落在网格内部。

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
        # 下一个更大的学习率更慢或失败，最佳学习率就在网格内部
        inside = steps is not None and (above is None or above > steps)
        print(f"d_k={d_k:3d}  {scale:4s}  lr={lr:<6g}  steps={steps}  next lr slower: {inside}")

# %% [markdown]
# ## 最佳学习率下的留出集损失
#
# 每个 $d_k$ 一幅子图；横轴：训练步数 $t$；纵轴：留出集上的交叉熵
# $\mathcal{L}$（对数坐标），对各个种子取平均。每种 logit
# 缩放都用它自己的最佳学习率，这样比较就不会偏向恰好适合某一种缩放的那个学习率。这些最佳学习率都落在
# 网格内部（上一个单元格显示，下一个更大的学习率都更慢或达不到阈值）；但“最佳”依据的步数是按评估间隔
# 计的，而且只有两个种子，两个学习率相差一个间隔说明不了什么。

# %% alt="留出集损失（对数坐标）随训练步数的变化，每个 d_k 一幅子图，每种 logit 缩放（1/√d_k、1、1/d_k）一条曲线，各取其最佳学习率。"
labels = {"sqrt": "1/√dₖ", "none": "1", "d": "1/dₖ"}
ncols = len(cfg.d_ks)
fig, axes = plt.subplots(1, ncols, figsize=(8, 3), sharey=True)
fig.set_layout_engine("constrained")
for ax, d_k in zip(axes, cfg.d_ks, strict=True):
    # 每条曲线各用一种颜色和线型
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
