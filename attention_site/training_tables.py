"""Tables and values for the training page, computed from the cached runs when the site is built."""

from collections.abc import Callable

from lockstep.tables import markdown_table
from snippets import training

SCALE_NAMES = {
    "zh": {"sqrt": r"除以 $\sqrt{d_k}$", "none": "不缩放", "d": "除以 $d_k$"},
    "en": {"sqrt": r"divide by $\sqrt{d_k}$", "none": "unscaled", "d": "divide by $d_k$"},
}

SETUP_ROWS = {
    "zh": (
        ("d_model", r"$d_\text{model}$（嵌入宽度）"),
        ("d_ks", "$d_k$"),
        ("n_pairs", "每个序列的（键，值）对数"),
        ("n_keys", "键的词表大小"),
        ("n_values", "值的词表大小"),
        ("batch", "批次大小"),
        ("steps", "训练步数"),
        ("eval_every", "每隔多少步在留出集上评估"),
        ("n_eval", "留出集序列数"),
        ("lrs", "学习率"),
        ("seeds", "随机种子"),
        ("betas", r"Adam 的 $(\beta_1, \beta_2)$"),
    ),
    "en": (
        ("d_model", r"$d_\text{model}$ (embedding width)"),
        ("d_ks", "$d_k$"),
        ("n_pairs", "(key, value) pairs per sequence"),
        ("n_keys", "key vocabulary"),
        ("n_values", "value vocabulary"),
        ("batch", "batch size"),
        ("steps", "training steps"),
        ("eval_every", "evaluated on the held-out set every … steps"),
        ("n_eval", "held-out sequences"),
        ("lrs", "learning rates"),
        ("seeds", "seeds"),
        ("betas", r"Adam's $(\beta_1, \beta_2)$"),
    ),
}

HEADERS = {
    "setup": {"zh": ("设置", "取值"), "en": ("setting", "value")},
    "results": {
        "zh": ("$d_k$", "logit 缩放", "学习率 {lr:g}"),
        "en": ("$d_k$", "scale", "lr {lr:g}"),
    },
}


def _value(value) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
    return str(value)


def training_setup(lang: str) -> str:
    """The configuration of the cached sweep as a two-column Markdown table."""
    cfg = training.load()["config"]
    rows = [(label, _value(cfg[key])) for key, label in SETUP_ROWS[lang]]
    return markdown_table(HEADERS["setup"][lang], rows)


def training_table(lang: str) -> str:
    """Per (d_k, scale) and learning rate: steps to the threshold (slowest seed), final accuracy.

    Every learning rate with the fewest steps of its row is in bold, so a tie shows as two bold
    cells; — means some seed never got there.
    """
    runs, cfg = training.load()["runs"], training.CONFIG
    first, second, per_lr = HEADERS["results"][lang]
    headers = [first, second, *(per_lr.format(lr=lr) for lr in cfg.lrs)]
    rows = []
    for d_k in cfg.d_ks:
        for scale in cfg.scales:
            fastest = training.fastest_lrs(runs, d_k, scale)
            cells = []
            for lr in cfg.lrs:
                same = training.select(runs, d_k=d_k, scale=scale, lr=lr)
                steps = training.slowest_steps_to(same)
                cell = f"{'—' if steps is None else steps} ({training.final_accuracy(same):.2f})"
                cells.append(f"**{cell}**" if lr in fastest else cell)
            rows.append((d_k, SCALE_NAMES[lang][scale], *cells))
    return markdown_table(headers, rows, align="rl" + "r" * len(cfg.lrs))


def training_threshold(lang: str) -> str:
    """The held-out accuracy that counts as learned, in percent (for prose, not math)."""
    return f"{training.THRESHOLD:.0%}"


def training_provenance(lang: str) -> str:
    """When, where and with what the cached runs were measured, as a sentence fragment."""
    meta = training.load()
    n, secs, m, v = len(meta["runs"]), meta["seconds"], meta["machine"], meta["versions"]
    if lang == "zh":
        return (
            f"{meta['date']} 在一台 {m['cpu_count']} 核 {m['cpu']} 机器上测得"
            f"（{m['torch_threads']} 个线程，PyTorch {v['torch']}，Python {v['python']}），"
            f"{n} 次训练共用 {secs} 秒"
        )
    return (
        f"measured on {meta['date']} on a {m['cpu_count']}-core {m['cpu']} machine "
        f"({m['torch_threads']} torch thread{'s' if m['torch_threads'] != 1 else ''}, "
        f"PyTorch {v['torch']}, Python {v['python']}): "
        f"{n} runs in {secs} s"
    )


VALUES: dict[str, Callable[[str], str]] = {
    "training_setup": training_setup,
    "training_table": training_table,
    "training_threshold": training_threshold,
    "training_provenance": training_provenance,
}
