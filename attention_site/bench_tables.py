"""Tables and verdicts for the kernel pages, from the committed results in bench/results/."""

from collections.abc import Callable

from bench.cpu import MEMORY_TARGET, MEMORY_TARGET_N, TIME_TARGET, TIME_TARGET_MIN_N
from bench.gpu import SHORT_N, SHORT_TARGET, TARGET_MIN_N, shape_for
from bench.gpu import TARGETS as GPU_TARGETS
from lockstep.tables import markdown_table
from snippets.figures.bench_results import (
    GPU_PROVIDERS,
    PREVIOUS_GPU,
    PREVIOUS_TILES,
    cpu_rows,
    gpu_rows,
    gpu_samples,
    gpu_untimed,
    load,
    measures_this_kernel,
    previous_tile_findings,
)

MiB = 2**20
SENTENCE_JOIN = {"zh": "", "en": " "}  # no space after a full-width full stop

# ----------------------------------------------------------------------------- CPU
HEADERS = {
    "zh": (
        "N",
        "头数",
        "参考实现 / SDPA",
        "分块实现（默认调用）/ SDPA（各轮范围）",
        "分块实现（方形分块）/ SDPA",
        "SDPA 中位时间",
        "额外峰值内存：参考实现 / 分块实现 / SDPA",
    ),
    "en": (
        "N",
        "heads",
        "reference / SDPA",
        "tiled (default call) / SDPA (range over rounds)",
        "tiled (square tiles) / SDPA",
        "SDPA median",
        "extra peak memory: reference / tiled / SDPA",
    ),
}
MEASURED_ON = {
    "zh": "测量于 {date}，CPU：{cpu}（{l2}），{cores} 核，PyTorch {torch}，{dtype}，d = {d}，"
    "批次大小 = {batch}。",
    "en": "Measured on {date}, CPU: {cpu} ({l2}), {cores} cores, PyTorch {torch}, {dtype}, "
    "d = {d}, batch size {batch}.",
}
L2_OF = {
    "zh": ("每核 L2 {} MiB", "未记录 L2 大小"),
    "en": ("L2 {} MiB per core", "L2 size not recorded"),
}
PER_HEAD = {
    "zh": "† 此配置下参考实现逐头计算：同时为全部头保存 S、exp(S) 与 P 会超出本机内存。",
    "en": "† Here the reference ran one head at a time: S, exp(S) and P for all heads "
    "at once exceed this machine's memory.",
}
TARGETS = {
    "zh": (
        "- 时间目标（N ≥ {min_n} 时分块实现 ≤ {t}× SDPA）：{n_ok} / {n} 个配置达标{misses}；"
        "各轮比值最高 {worst:.2f}×。\n"
        "- 内存目标（N = {mem_n} 时分块实现的额外峰值内存 ≤ 参考实现的 {m:.0%}）：{mem}。"
    ),
    "en": (
        "- Time target (tiled ≤ {t}× SDPA at N ≥ {min_n}): "
        "met in {n_ok} of {n} configurations{misses}; the highest ratio of a single round "
        "is {worst:.2f}×.\n"
        "- Memory target (tiled extra peak memory ≤ {m:.0%} of the reference's "
        "at N = {mem_n}): {mem}."
    ),
}
MISSED = {"zh": "；未达标：{}", "en": "; missed: {}"}
MEMORY = {"zh": "{:.2%}（H={}）", "en": "{:.2%} (H={})"}


def _cpu_results() -> dict:
    results = load("cpu")
    if results is None:
        raise FileNotFoundError("bench/results/cpu.json is missing: run `make bench`")
    return results


def cpu_machine(lang: str) -> str:
    """Which CPU bench/results/cpu.json is from, with its L2 per core if it was recorded."""
    m = _cpu_results()["machine"]
    l2 = m.get("l2_per_core_bytes")
    said = L2_OF[lang][0].format(f"{l2 / MiB:g}") if l2 else L2_OF[lang][1]
    return f"{m['cpu']}（{said}）" if lang == "zh" else f"{m['cpu']} ({said})"


PROVENANCE = {
    "zh": ("{cpu}，这次运行早于分块校准，默认调用的分块按静态规则选出",
           "{cpu}，默认调用的分块在这台机器上校准过（每步分数的预算为 {budget} MiB）"),
    "en": ("{cpu}, a run made before the tiles were calibrated, with the static rule's tiles",
           "{cpu}, with the default call's tiles calibrated on it (a budget of {budget} MiB of "
           "scores per step)"),
}  # fmt: skip


def cpu_provenance(lang: str) -> str:
    """Which CPU the CPU figures are from, and how the default call's tiles were chosen."""
    calibration = _cpu_results().get("tile_calibration")
    if not calibration:
        return PROVENANCE[lang][0].format(cpu=cpu_machine(lang))
    budget = f"{calibration['budget_bytes'] / MiB:g}"
    return PROVENANCE[lang][1].format(cpu=cpu_machine(lang), budget=budget)


def cpu_table(lang: str) -> str:
    """The CPU results as a Markdown table with a line saying when and where they were measured."""
    results = _cpu_results()
    rows = cpu_rows(results)
    cells = []
    for r in rows:
        ref, tiled, sdpa = r["peak_mib"]
        dagger = "†" if r["reference_per_head"] else ""
        lo, hi = r["tiled_range"]
        cells.append(
            (
                r["N"],
                r["heads"],
                f"{r['reference_ratio']:.2f}×{dagger}",
                f"{r['tiled_ratio']:.2f}× ({lo:.2f}–{hi:.2f})",
                f"{r['square_ratio']:.2f}×",
                f"{r['sdpa_ms']:.1f} ms",
                f"{ref:.1f}{dagger} / {tiled:.1f} / {sdpa:.1f} MiB",
            )
        )
    m, s = results["machine"], results["settings"]
    l2 = m.get("l2_per_core_bytes")
    machine = dict(m, l2=L2_OF[lang][0].format(f"{l2 / MiB:g}") if l2 else L2_OF[lang][1])
    parts = [
        MEASURED_ON[lang].format(date=results["date"][:10], **machine, **s),
        markdown_table(HEADERS[lang], cells, align="rrrrrrr"),
    ]
    if any(r["reference_per_head"] for r in rows):
        parts.append(PER_HEAD[lang])
    return "\n\n".join(parts)


def cpu_targets(lang: str) -> str:
    """Whether the measured CPU results meet the targets, computed from the rows."""
    rows = cpu_rows(_cpu_results())
    timed = [r for r in rows if r["N"] >= TIME_TARGET_MIN_N]
    missed = [r for r in timed if r["tiled_ratio"] > TIME_TARGET]
    misses = ", ".join(f"N={r['N']}, H={r['heads']}: {r['tiled_ratio']:.2f}×" for r in missed)
    memory = [
        MEMORY[lang].format(r["peak_mib"][1] / r["peak_mib"][0], r["heads"])
        for r in rows
        if r["N"] == MEMORY_TARGET_N and not r["reference_per_head"]
    ]
    return TARGETS[lang].format(
        t=TIME_TARGET,
        min_n=TIME_TARGET_MIN_N,
        n_ok=len(timed) - len(missed),
        n=len(timed),
        misses=MISSED[lang].format(misses) if missed else "",
        worst=max(r["tiled_range"][1] for r in timed),
        m=MEMORY_TARGET,
        mem_n=MEMORY_TARGET_N,
        mem=", ".join(memory),
    )


def exp_ratio(lang: str) -> str:
    """How many times longer torch.exp takes than torch.exp2, as measured with the table."""
    return f"{_cpu_results()['exp_over_exp2']:.1f}"


# ----------------------------------------------------------------------------- GPU
NO_GPU = {
    "zh": "本内核还没有 GPU 测量结果：在 H200 上运行 `python3 -m bench.gpu`"
    "（即 `make bench-gpu`），生成 `bench/results/gpu.json`。",
    "en": "No GPU measurement of this kernel yet: run `python3 -m bench.gpu` (`make bench-gpu`) "
    "on an H200 to produce `bench/results/gpu.json`.",
}
STALE = {
    "zh": "注意：这次运行测的是内核源码的较早版本（语法树哈希 {then}，现在是 {now}）。",
    "en": "Note: this run timed an earlier version of the kernel's source (syntax-tree hash "
    "{then}; now {now}).",
}
GPU_HEADERS = {
    "zh": (
        "dtype",
        "d",
        "因果",
        "N",
        "B × H",
        "模式",
        "Triton（离散程度）",
        "SDPA",
        "flash",
        "efficient",
        "cuDNN",
        "Triton / SDPA（四分位）",
    ),
    "en": (
        "dtype",
        "d",
        "causal",
        "N",
        "B × H",
        "mode",
        "Triton (spread)",
        "SDPA",
        "flash",
        "efficient",
        "cuDNN",
        "Triton / SDPA (quartiles)",
    ),
}
SHORT_DTYPE = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}
SHORT_MODE = {
    "zh": {"fwd": "前向", "fwd+bwd": "前向+反向"},
    "en": {"fwd": "fwd", "fwd+bwd": "fwd+bwd"},
}
GPU_ON = {
    "zh": "测量于 {date}，{gpu}，PyTorch {torch}，CUDA {cuda}，Triton {triton}。",
    "en": "Measured on {date}, {gpu}, PyTorch {torch}, CUDA {cuda}, Triton {triton}.",
}
GPU_CELLS = {
    "zh": "单位为 TFLOP/s，按 FlashAttention 的约定计数（前向每个头 4·N²·d，因果减半；反向是前向的"
    " 2.5 倍）。SDPA 是默认调用，flash、efficient、cuDNN 是强制指定该后端的 SDPA。"
    "每格是 {lo} 到 {hi} 次计时的中位数；离散程度是四分位距除以中位数，Triton / SDPA 是各轮比值的"
    "中位数及其四分位。",
    "en": " Cells are TFLOP/s in FlashAttention's count (forward 4·N²·d per head, halved if "
    "causal; backward 2.5 times the forward). SDPA is the default call; flash, efficient and "
    "cuDNN are SDPA with that backend forced. Each cell is the median of {lo} to {hi} timings; "
    "the spread is the interquartile range over the median, Triton / SDPA the median of the "
    "per-round ratios with their quartiles.",
}
PREVIOUS_ON = {
    "zh": "上一个内核（三个反向内核、float32 的 O、前向前后另有四次启动）测量于 {date}，{gpu}，"
    "PyTorch {torch}，CUDA {cuda}，Triton {triton}，当时的方法：每格是 "
    "`triton.testing.do_bench(warmup=10, rep=50)` 给出的中位数，估计由 {lo} 到 {hi} 次计时得出，"
    "各提供方依次计时、不交替。TFLOP/s 已由记录的中位时间按 FlashAttention 的约定重新计算"
    "（当时的表少算了反向的重计算，是这里的 6/7）；没有离散程度，比值是两个中位数之比。",
    "en": "The previous kernel (three backward kernels, an fp32 O, four more launches around the "
    "forward), measured on {date}, {gpu}, PyTorch {torch}, CUDA {cuda}, Triton {triton}, by the "
    "method of the time: each cell the median of `triton.testing.do_bench(warmup=10, rep=50)`, "
    "an estimated {lo} to {hi} timings, providers timed one after another, not interleaved. "
    "TFLOP/s are recomputed from the recorded median times in FlashAttention's count (the "
    "table of the time left out the backward's recomputation: 6/7 of these); there is no "
    "spread, and the ratio is of the two medians.",
}
NOT_TIMED = {"zh": "– 未计时：{}。", "en": "– not timed: {}."}
ITEM_SEPARATOR = {"zh": "；", "en": "; "}
UNTIMED_ITEM = {"zh": "{p}（{dt}，{why}）", "en": "{p}, {dt}: {why}"}
# bench.gpu's status prefixes, translated; the exception's own text stays as it is.
STATUS = {
    "zh": {
        "unsupported: ": "不支持：",
        "failed: ": "失败：",
        "check failed: ": "检查未通过：",
        "reference failed: ": "参考结果失败：",
    },
    "en": {},
}


def _tflops(x: float | None) -> str:
    return "–" if x is None else f"{x:.0f}"


def _reason(status: str, lang: str) -> str:
    """bench.gpu's status in the page's language; the exception's own text stays as it is."""
    status = status.rstrip(".")
    for prefix, said in STATUS[lang].items():
        if status.startswith(prefix):
            return said + status.removeprefix(prefix)
    return status


def _gpu_cells(results: dict, lang: str) -> list[tuple]:
    cells = []
    for r in gpu_rows(results):
        B, H = shape_for(r["N"], r["d"])
        spread = "" if r.get("spread") is None else f" ({100 * r['spread']:.1f}%)"
        ratio = "–" if r["ratio"] is None else f"{r['ratio']:.2f}×"
        if r.get("ratio_range"):
            ratio += " ({:.2f}–{:.2f})".format(*r["ratio_range"])
        cells.append(
            (
                SHORT_DTYPE[r["dtype"]],
                r["d"],
                "✓" if r["causal"] else "",
                r["N"],
                f"{B}×{H}",
                SHORT_MODE[lang][r["mode"]],
                _tflops(r.get("triton")) + spread,
                *(_tflops(r.get(p)) for p in GPU_PROVIDERS[1:]),
                ratio,
            )
        )
    return cells


def _gpu_table(results: dict, lang: str, intro: str) -> str:
    untimed = ITEM_SEPARATOR[lang].join(
        UNTIMED_ITEM[lang].format(p=p, dt=dt, why=_reason(why, lang))
        for p, dt, why in gpu_untimed(results)
    )
    parts = [intro, markdown_table(GPU_HEADERS[lang], _gpu_cells(results, lang), "lrcrrlrrrrrr")]
    if untimed:
        parts.append(NOT_TIMED[lang].format(untimed))
    return "\n\n".join(parts)


def gpu_table(lang: str) -> str:
    """The GPU run of this kernel (bench/results/gpu.json), or a note that there is none."""
    results = load("gpu")
    if results is None:
        return NO_GPU[lang]
    lo, hi = gpu_samples(results)
    intro = GPU_ON[lang].format(date=results["date"][:10], **results["machine"])
    intro += GPU_CELLS[lang].format(lo=lo, hi=hi)
    if not measures_this_kernel(results):
        from snippets.figures.bench_results import kernel_fingerprint

        then = results.get("kernel", {}).get("ast_sha256", "–")
        intro += SENTENCE_JOIN[lang] + STALE[lang].format(then=then, now=kernel_fingerprint())
    return _gpu_table(results, lang, intro)


def gpu_previous_table(lang: str) -> str:
    """The previous kernel's GPU run, in FlashAttention's count, said to be what it is."""
    results = load(PREVIOUS_GPU)
    lo, hi = gpu_samples(results)
    intro = PREVIOUS_ON[lang].format(date=results["date"][:10], lo=lo, hi=hi, **results["machine"])
    return _gpu_table(results, lang, intro)


GPU_TARGET_LINE = {
    "zh": "- {what}（目标 ≥ {t}× SDPA）：{n_ok} / {n} 个配置达标，Triton / SDPA 在 {lo:.2f}× 到 "
    "{hi:.2f}× 之间。",
    "en": "- {what} (target ≥ {t}× SDPA): met in {n_ok} of {n} configurations; Triton / SDPA "
    "ranges from {lo:.2f}× to {hi:.2f}×.",
}
TARGET_WHAT = {
    "zh": {"fwd": "前向，N ≥ {n}", "fwd+bwd": "前向+反向，N ≥ {n}", "short": "N = {n}，两种模式"},
    "en": {
        "fwd": "Forward, N ≥ {n}",
        "fwd+bwd": "Forward+backward, N ≥ {n}",
        "short": "N = {n}, both modes",
    },
}
GPU_SCOPE = {
    "zh": "Triton 内核在 16 位（bfloat16、float16）、d ∈ {{64, 128}}、因果与非因果下，"
    "对比 SDPA 的默认调用（{run}）：\n",
    "en": "The Triton kernel in 16 bits (bfloat16, float16), d ∈ {{64, 128}}, causal or not, "
    "against SDPA's default call ({run}):\n",
}
RUN_OF = {
    "zh": {"now": "本内核，{date}，{gpu}", "before": "上一个内核，{date}，{gpu}，旧方法"},
    "en": {"now": "this kernel, {date}, {gpu}", "before": "the previous kernel, {date}, {gpu}, "
           "the old method"},
}  # fmt: skip
FLASH_LINE = {
    "zh": "- 对比 SDPA 的 flash 后端（FlashAttention-2，为 Ampere 一代编写、在 Hopper 上运行的"
    "内核），N ≥ {n}：前向 {f_lo:.2f}× 到 {f_hi:.2f}×，前向+反向 {b_lo:.2f}× 到 {b_hi:.2f}×。",
    "en": "- Against SDPA's flash backend (FlashAttention-2, an Ampere-generation kernel running "
    "on Hopper), N ≥ {n}: forward {f_lo:.2f}× to {f_hi:.2f}×, forward+backward {b_lo:.2f}× to "
    "{b_hi:.2f}×.",
}


def _targets(results: dict, lang: str, run: str) -> str:
    rows = [
        r
        for r in gpu_rows(results)
        if r["dtype"] != "float32" and r["d"] in (64, 128) and r["ratio"] is not None
    ]
    m = results["machine"]
    lines = [GPU_SCOPE[lang].format(run=RUN_OF[lang][run].format(date=results["date"][:10], **m))]
    groups = [
        (mode, GPU_TARGETS[mode], [r for r in rows if r["mode"] == mode and r["N"] >= TARGET_MIN_N])
        for mode in GPU_TARGETS
    ] + [("short", SHORT_TARGET, [r for r in rows if r["N"] == SHORT_N])]
    for what, target, group in groups:
        ratios = [r["ratio"] for r in group]
        if not ratios:
            continue
        n = SHORT_N if what == "short" else TARGET_MIN_N
        lines.append(
            GPU_TARGET_LINE[lang].format(
                what=TARGET_WHAT[lang][what].format(n=n),
                t=target,
                n_ok=sum(x >= target for x in ratios),
                n=len(ratios),
                lo=min(ratios),
                hi=max(ratios),
            )
        )
    big = [r for r in rows if r["N"] >= TARGET_MIN_N and r.get("sdpa-flash")]
    flash = {
        mode: [r["triton"] / r["sdpa-flash"] for r in big if r["mode"] == mode]
        for mode in GPU_TARGETS
    }
    if all(flash.values()):
        lines.append(
            FLASH_LINE[lang].format(
                n=TARGET_MIN_N,
                f_lo=min(flash["fwd"]),
                f_hi=max(flash["fwd"]),
                b_lo=min(flash["fwd+bwd"]),
                b_hi=max(flash["fwd+bwd"]),
            )
        )
    return "\n".join(lines)


def gpu_targets(lang: str) -> str:
    """Whether this kernel meets its GPU targets, from its own run, or a note that it has none."""
    results = load("gpu")
    if results is None or not measures_this_kernel(results):
        return NO_GPU[lang]
    return _targets(results, lang, "now")


def gpu_previous_targets(lang: str) -> str:
    """The same verdicts for the previous kernel's run (the 'before' of the page)."""
    return _targets(load(PREVIOUS_GPU), lang, "before")


# ----------------------------------------------------------------------------- tiles
NO_TILES = {
    "zh": "本内核的分块还没有在 GPU 上计时：在 H200 上运行 `python3 -m bench.tiles`（即 "
    "`make bench-tiles`），生成 `bench/results/tiles.json`。",
    "en": "This kernel's tiles have not been timed on a GPU yet: run `python3 -m bench.tiles` "
    "(`make bench-tiles`) on an H200 to produce `bench/results/tiles.json`.",
}
TILE_HEADERS = {
    "zh": ("d", "N", "因果", "内核", "分块（行 × 列）", "warp 数", "流水级数", "warp 特化",
           "TFLOP/s", "离散程度"),
    "en": ("d", "N", "causal", "kernel", "tiles (M × N)", "warps", "stages", "warp roles",
           "TFLOP/s", "spread"),
}  # fmt: skip
YES = {"zh": "是", "en": "yes"}
KERNEL_NAME = {"zh": {"fwd": "前向", "bwd": "反向"}, "en": {"fwd": "forward", "bwd": "backward"}}
FAILED = {"zh": "失败：{}", "en": "failed: {}"}


def tiles_table(lang: str) -> str:
    """This kernel's tile sweep (bench/results/tiles.json), or a note that there is none."""
    results = load("tiles")
    if results is None or not measures_this_kernel(results):
        return NO_TILES[lang]
    cells = []
    for r in results["results"]:
        t = r["tiles"]
        timing = (
            (f"{r['tflops']:.0f}", f"{100 * r['spread']:.1f}%")
            if r["status"] == "ok"
            else (FAILED[lang].format(r["status"]), "")
        )
        cells.append(
            (
                r["d"],
                r["N"],
                "✓" if r["causal"] else "",
                KERNEL_NAME[lang][r["kernel"]],
                f"{t['BLOCK_M']}×{t['BLOCK_N']}",
                t["num_warps"],
                t["num_stages"],
                YES[lang] if t["warp_specialize"] else "",
                *timing,
            )
        )
    when = GPU_ON[lang].format(date=results["date"][:10], **results["machine"])
    return when + "\n\n" + markdown_table(TILE_HEADERS[lang], cells, align="rrcllrrlrr")


PREVIOUS_TILE_HEADERS = {
    "zh": ("d", "N", "模式", "默认分块的两次计时", "二者之差", "最快的其他分块", "比默认快"),
    "en": ("d", "N", "mode", "default tiles, two timings", "their difference",
           "fastest other tiles", "faster than the default"),
}  # fmt: skip
PREVIOUS_TILES_ON = {
    "zh": "上一个内核的分块扫描（{date}，{gpu}，Triton {triton}，bfloat16，非因果，TFLOP/s 按当时的"
    "“有用” FLOP 计数）：默认分块最先计时，第四次又计时一次（第三组候选就是默认分块本身），"
    "二者之差就是这个形状、这个模式下两次运行之间的离散程度。前向分块 M×N；反向 dK/dV 的键行数 × "
    "查询行数，dQ 的查询行数 × 键行数。",
    "en": "The previous kernel's tile sweep ({date}, {gpu}, Triton {triton}, bfloat16, "
    "non-causal, TFLOP/s in the “useful” count of the time): the default tiles were timed first "
    "and again fourth (the third candidate was the default itself), and the difference of the "
    "two is the spread at that shape and mode. Forward tiles M×N; backward dK/dV keys × "
    "queries, dQ queries × keys.",
}


def _old_tiles(c: dict) -> str:
    return (
        f"{c['BLOCK_M']}×{c['BLOCK_N']}; {c['BLOCK_N1']}×{c['BLOCK_M1']}, "
        f"{c['BLOCK_M2']}×{c['BLOCK_N2']}"
    )


def tiles_previous_table(lang: str) -> str:
    """The previous kernel's tile sweep, shape by shape and mode by mode."""
    results = load(PREVIOUS_TILES)
    cells = [
        (
            f["d"],
            f["N"],
            SHORT_MODE[lang][f["mode"]],
            " / ".join(f"{x:.0f}" for x in f["default"]),
            f"{100 * f['spread']:.1f}%",
            _old_tiles(f["best"]),
            f"{100 * f['margin']:+.1f}%",
        )
        for f in previous_tile_findings(results)
    ]
    intro = PREVIOUS_TILES_ON[lang].format(date=results["date"][:10], **results["machine"])
    return intro + "\n\n" + markdown_table(PREVIOUS_TILE_HEADERS[lang], cells, align="rrlrrlr")


VALUES: dict[str, Callable[[str], str]] = {
    "bench_cpu_table": cpu_table,
    "bench_cpu_machine": cpu_machine,
    "bench_cpu_provenance": cpu_provenance,
    "bench_exp_ratio": exp_ratio,
    "bench_cpu_targets": cpu_targets,
    "bench_gpu_table": gpu_table,
    "bench_gpu_targets": gpu_targets,
    "bench_gpu_previous_table": gpu_previous_table,
    "bench_gpu_previous_targets": gpu_previous_targets,
    "bench_tiles_table": tiles_table,
    "bench_tiles_previous_table": tiles_previous_table,
}
