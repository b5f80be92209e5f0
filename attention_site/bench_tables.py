"""Tables and verdicts for the benchmarks page, from the committed results in bench/results/."""

from collections.abc import Callable

from bench.cpu import MEMORY_TARGET, MEMORY_TARGET_N, TIME_TARGET, TIME_TARGET_MIN_N
from bench.gpu import TARGET_MIN_N
from bench.gpu import TARGETS as GPU_TARGETS
from bench.report import (
    GPU_PROVIDERS,
    cpu_rows,
    gpu_rows,
    gpu_untimed,
    load,
    tile_margins,
    tiles_unbeaten,
)
from lockstep.tables import markdown_table

HEADERS = {
    "zh": (
        "N",
        "头数",
        "参考实现 / SDPA",
        "分块（默认调用）/ SDPA",
        "分块（方形块）/ SDPA",
        "SDPA 中位时间",
        "额外峰值内存：参考 / 分块 / SDPA",
    ),
    "en": (
        "N",
        "heads",
        "reference / SDPA",
        "tiled (default call) / SDPA",
        "tiled (square tiles) / SDPA",
        "SDPA median",
        "extra peak memory: reference / tiled / SDPA",
    ),
}
MEASURED_ON = {
    "zh": "测量于 {date}，{cpu}，{cores} 核，PyTorch {torch}，{dtype}，d = {d}，batch = {batch}。",
    "en": "Measured on {date}, {cpu}, {cores} cores, PyTorch {torch}, {dtype}, "
    "d = {d}, batch = {batch}.",
}
PER_HEAD = {
    "zh": "† 此配置下参考实现逐头计算：同时为全部头保存 S、exp(S) 与 P 会超出本机内存。",
    "en": "† Here the reference ran one head at a time: S, exp(S) and P for all heads "
    "at once exceed this machine's memory.",
}
NO_GPU = {
    "zh": "尚无 GPU 测量结果：在有 CUDA 的机器上运行 `make bench-gpu`（`python3 -m bench.gpu`）"
    "生成 `bench/results/gpu.json`。",
    "en": "No GPU measurements yet: run `make bench-gpu` (`python3 -m bench.gpu`) on a CUDA "
    "machine to produce `bench/results/gpu.json`.",
}
GPU_HEADERS = {
    "zh": (
        "dtype",
        "d",
        "因果",
        "N",
        "模式",
        "Triton（执行）",
        "SDPA",
        "flash",
        "efficient",
        "cuDNN",
        "Triton / SDPA",
    ),
    "en": (
        "dtype",
        "d",
        "causal",
        "N",
        "mode",
        "Triton (exec.)",
        "SDPA",
        "flash",
        "efficient",
        "cuDNN",
        "Triton / SDPA",
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
    "zh": "单位为有用 TFLOP/s；括号内是 Triton 内核实际执行的 TFLOP/s。SDPA 是默认调用，"
    "flash、efficient、cuDNN 是强制指定该后端的 SDPA。",
    "en": " Cells are useful TFLOP/s; in brackets, what the Triton kernel executes. SDPA is the "
    "default call; flash, efficient and cuDNN are SDPA with that backend forced.",
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
FLASH_LINE = {
    "zh": "- 对比 SDPA 的 flash 后端：前向 {f_lo:.2f}× 到 {f_hi:.2f}×，"
    "前向+反向 {b_lo:.2f}× 到 {b_hi:.2f}×。",
    "en": "- Against SDPA's flash backend: forward {f_lo:.2f}× to {f_hi:.2f}×, "
    "forward+backward {b_lo:.2f}× to {b_hi:.2f}×.",
}
GPU_TARGET_LINE = {
    "zh": "- {mode}（目标 ≥ {t}× SDPA）：{n_ok} / {n} 个配置达标，Triton / SDPA 在 {lo:.2f}× 到 "
    "{hi:.2f}× 之间。",
    "en": "- {mode} (target ≥ {t}× SDPA): met in {n_ok} of {n} configurations; Triton / SDPA "
    "ranges from {lo:.2f}× to {hi:.2f}×.",
}
GPU_SCOPE = {
    "zh": "Triton 内核在 16 位（bfloat16、float16）、N ≥ {n}、因果与非因果下，"
    "对比 SDPA 的默认调用：\n",
    "en": "The Triton kernel in 16 bits (bfloat16, float16), N ≥ {n}, causal or not, against "
    "SDPA's default call:\n",
}
MODE_NAMES = {
    "zh": {"fwd": "前向", "fwd+bwd": "前向+反向"},
    "en": {"fwd": "Forward", "fwd+bwd": "Forward+backward"},
}
TILE_HEADERS = {
    "zh": (
        "d",
        "N",
        "分块（前向 M×N；反向 dK/dV、dQ）",
        "warp 数（前向/反向）",
        "前向 TFLOP/s",
        "前向+反向 TFLOP/s",
    ),
    "en": (
        "d",
        "N",
        "tiles (forward M×N; backward dK/dV, dQ)",
        "warps (fwd/bwd)",
        "forward TFLOP/s",
        "forward+backward TFLOP/s",
    ),
}
DEFAULT_MARK = {"zh": "（默认）", "en": " (default)"}
FAILED = {"zh": "失败：{}", "en": "failed: {}"}


TARGETS = {
    "zh": (
        "- 时间目标（N ≥ {min_n} 时分块 ≤ {t}× SDPA）：{n_ok} / {n} 个配置达标{misses}。\n"
        "- 内存目标（N = {mem_n} 时分块的额外峰值内存 ≤ 参考实现的 {m:.0%}）：{mem}。"
    ),
    "en": (
        "- Time target (tiled ≤ {t}× SDPA at N ≥ {min_n}): "
        "met in {n_ok} of {n} configurations{misses}.\n"
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


def cpu_table(lang: str) -> str:
    """The CPU results as a Markdown table with a line saying when and where they were measured."""
    results = _cpu_results()
    rows = cpu_rows(results)
    cells = []
    for r in rows:
        ref, tiled, sdpa = r["peak_mib"]
        dagger = "†" if r["reference_per_head"] else ""
        cells.append(
            (
                r["N"],
                r["heads"],
                f"{r['reference_ratio']:.2f}×{dagger}",
                f"{r['tiled_ratio']:.2f}×",
                f"{r['square_ratio']:.2f}×",
                f"{r['sdpa_ms']:.1f} ms",
                f"{ref:.1f}{dagger} / {tiled:.1f} / {sdpa:.1f} MiB",
            )
        )
    m, s = results["machine"], results["settings"]
    parts = [
        MEASURED_ON[lang].format(date=results["date"][:10], **m, **s),
        markdown_table(HEADERS[lang], cells, align="rrrrrrr"),
    ]
    if any(r["reference_per_head"] for r in rows):
        parts.append(PER_HEAD[lang])
    return "\n\n".join(parts)


def _tflops(x: float | None) -> str:
    return "–" if x is None else f"{x:.0f}"


def _reason(status: str, lang: str) -> str:
    """bench.gpu's status in the page's language; the exception's own text stays as it is."""
    status = status.rstrip(".")
    for prefix, said in STATUS[lang].items():
        if status.startswith(prefix):
            return said + status.removeprefix(prefix)
    return status


def gpu_table(lang: str) -> str:
    """The GPU results, one row per configuration and a column per provider, or a note."""
    results = load("gpu")
    if results is None:
        return NO_GPU[lang]
    cells = [
        (
            SHORT_DTYPE[r["dtype"]],
            r["d"],
            "✓" if r["causal"] else "",
            r["N"],
            SHORT_MODE[lang][r["mode"]],
            f"{_tflops(r['triton'])} ({_tflops(r['executed'])})",
            *(_tflops(r.get(p)) for p in GPU_PROVIDERS[1:]),
            "–" if r["ratio"] is None else f"{r['ratio']:.2f}×",
        )
        for r in gpu_rows(results)
    ]
    untimed = ITEM_SEPARATOR[lang].join(
        UNTIMED_ITEM[lang].format(p=p, dt=dt, why=_reason(why, lang))
        for p, dt, why in gpu_untimed(results)
    )
    parts = [
        GPU_ON[lang].format(date=results["date"][:10], **results["machine"]) + GPU_CELLS[lang],
        markdown_table(GPU_HEADERS[lang], cells, align="lrcrlrrrrrr"),
    ]
    if untimed:
        parts.append(NOT_TIMED[lang].format(untimed))
    return "\n\n".join(parts)


def gpu_targets(lang: str) -> str:
    """Whether the Triton kernel meets its GPU targets in 16-bit, computed from the rows."""
    results = load("gpu")
    if results is None:
        return NO_GPU[lang]
    rows = [
        r
        for r in gpu_rows(results)
        if r["dtype"] != "float32" and r["N"] >= TARGET_MIN_N and r["ratio"] is not None
    ]
    lines = [GPU_SCOPE[lang].format(n=TARGET_MIN_N)]
    for mode, target in GPU_TARGETS.items():
        ratios = [r["ratio"] for r in rows if r["mode"] == mode]
        lines.append(
            GPU_TARGET_LINE[lang].format(
                mode=MODE_NAMES[lang][mode],
                t=target,
                n_ok=sum(x >= target for x in ratios),
                n=len(ratios),
                lo=min(ratios),
                hi=max(ratios),
            )
        )
    flash = {
        mode: [r["triton"] / r["sdpa-flash"] for r in rows if r["mode"] == mode and r["sdpa-flash"]]
        for mode in GPU_TARGETS
    }
    lines.append(
        FLASH_LINE[lang].format(
            f_lo=min(flash["fwd"]),
            f_hi=max(flash["fwd"]),
            b_lo=min(flash["fwd+bwd"]),
            b_hi=max(flash["fwd+bwd"]),
        )
    )
    return "\n".join(lines)


UNBEATEN = {
    "zh": "在 d = {d} 时，最好的一组候选比默认的块{dir} {diff}%"
    "（对计时的各个 N 与两种模式取几何平均）；"
    "没有哪组候选比默认的块快出的幅度超过两次运行之间的差异"
    "（默认的块在同一形状、同一模式上两次计时之差最多 {spread}%）。",
    "en": "At d = {d}, the best candidate ran {diff}% {dir} than the default tiles (geometric "
    "mean over the timed N and both modes); none beat them by more than the run-to-run spread "
    "(the default's own two timings of one shape and mode differ by up to {spread}%).",
}
BEATEN = {  # only when the best ran faster by more than the spread, so "faster"
    "zh": "在 d = {d} 时，最好的一组候选比默认的块快 {diff}%"
    "（对计时的各个 N 与两种模式取几何平均），超出了两次运行之间的差异"
    "（默认的块在同一形状、同一模式上两次计时之差最多 {spread}%）。",
    "en": "At d = {d}, the best candidate ran {diff}% faster than the default tiles (geometric "
    "mean over the timed N and both modes), beyond the run-to-run spread (the default's own "
    "two timings of one shape and mode differ by up to {spread}%).",
}
FASTER = {"zh": ("快", "慢"), "en": ("faster", "slower")}
SENTENCE_JOIN = {"zh": "", "en": " "}  # no space after a full-width full stop


def tiles_verdict(lang: str) -> str:
    """Per head size: whether a candidate beat the default tiles beyond the run-to-run spread."""
    results = load("tiles")
    if results is None:
        return NO_GPU[lang]
    lines = []
    for d in sorted({r["d"] for r in results["results"]}):
        best, spread = tile_margins(results, d)
        template = UNBEATEN if tiles_unbeaten(results, d) else BEATEN
        lines.append(
            template[lang].format(
                d=d,
                diff=f"{100 * abs(best):.1f}",
                dir=FASTER[lang][best < 0],
                spread=f"{100 * spread:.1f}",
            )
        )
    return SENTENCE_JOIN[lang].join(lines)


def tiles_table(lang: str) -> str:
    """The Hopper tile sweep (bench/results/tiles.json): the default tiles against candidates."""
    results = load("tiles")
    if results is None:
        return NO_GPU[lang]
    cells = []
    for r in results["results"]:
        c = r["config"]
        tiles = (
            f"{c['BLOCK_M']}×{c['BLOCK_N']}; {c['BLOCK_N1']}×{c['BLOCK_M1']}, "
            f"{c['BLOCK_M2']}×{c['BLOCK_N2']}"
        )
        if r["default"]:
            tiles += DEFAULT_MARK[lang]
        warps = f"{c['num_warps']}/{c['num_warps_bwd'] or c['num_warps']}"
        if "status" in r:
            timing = (FAILED[lang].format(r["status"]), "")
        else:
            timing = (f"{r['fwd']['tflops']:.0f}", f"{r['fwd+bwd']['tflops']:.0f}")
        cells.append((r["d"], r["N"], tiles, warps, *timing))
    when = GPU_ON[lang].format(date=results["date"][:10], **results["machine"])
    return when + "\n\n" + markdown_table(TILE_HEADERS[lang], cells, align="rrllrr")


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
        m=MEMORY_TARGET,
        mem_n=MEMORY_TARGET_N,
        mem=", ".join(memory),
    )


def exp_ratio(lang: str) -> str:
    """How many times longer torch.exp takes than torch.exp2, as measured with the table."""
    return f"{_cpu_results()['exp_over_exp2']:.1f}"


VALUES: dict[str, Callable[[str], str]] = {
    "bench_cpu_table": cpu_table,
    "bench_exp_ratio": exp_ratio,
    "bench_cpu_targets": cpu_targets,
    "bench_gpu_table": gpu_table,
    "bench_gpu_targets": gpu_targets,
    "bench_tiles_table": tiles_table,
    "bench_tiles_verdict": tiles_verdict,
}
