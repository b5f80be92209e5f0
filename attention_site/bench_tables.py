"""Tables and verdicts for the benchmarks page, from the committed results in bench/results/."""

from collections.abc import Callable

from bench.cpu import MEMORY_TARGET, MEMORY_TARGET_N, TIME_TARGET, TIME_TARGET_MIN_N
from bench.report import cpu_rows, load
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
    "zh": ("dtype", "d", "因果", "N", "模式", "实现", "TFLOP/s（有用）", "TFLOP/s（执行）"),
    "en": (
        "dtype",
        "d",
        "causal",
        "N",
        "mode",
        "provider",
        "TFLOP/s (useful)",
        "TFLOP/s (executed)",
    ),
}
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


def gpu_table(lang: str) -> str:
    """The GPU results (TFLOP/s per provider) as a Markdown table, or a note if none exist."""
    results = load("gpu")
    if results is None:
        return NO_GPU[lang]
    rows = [
        (
            r["dtype"],
            r["d"],
            r["causal"],
            r["N"],
            r["mode"],
            r["provider"],
            f"{r['tflops']:.1f}" if r.get("tflops") is not None else r["status"],
            f"{r['executed_tflops']:.1f}" if r.get("executed_tflops") is not None else "",
        )
        for r in results["results"]
    ]
    m = results["machine"]
    when = f"{results['date'][:10]}, {m['gpu']}, PyTorch {m['torch']}, Triton {m['triton']}"
    return when + "\n\n" + markdown_table(GPU_HEADERS[lang], rows)


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
}
