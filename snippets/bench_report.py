"""Tables for the benchmarks page, rendered from the committed results in bench/results/."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
MiB = 2**20

_HEAD = {
    "zh": (
        "N",
        "头数",
        "参考实现 / SDPA",
        "分块 / SDPA",
        "SDPA 中位时间",
        "额外峰值内存：参考 / 分块 / SDPA",
    ),
    "en": (
        "N",
        "heads",
        "reference / SDPA",
        "tiled / SDPA",
        "SDPA median",
        "extra peak memory: reference / tiled / SDPA",
    ),
}
_MEASURED_ON = {
    "zh": "测量于 {date}，{cpu}，{cores} 核，PyTorch {torch}，{dtype}，d = {d}，batch = {batch}。",
    "en": "Measured on {date}, {cpu}, {cores} cores, PyTorch {torch}, {dtype}, "
    "d = {d}, batch = {batch}.",
}
_PER_HEAD = {
    "zh": "† 此配置下参考实现逐头计算：同时为全部头保存 S、exp(S) 与 P 会超出本机内存。",
    "en": "† Here the reference ran one head at a time: S, exp(S) and P for all heads "
    "at once exceed this machine's memory.",
}
_NO_GPU = {
    "zh": "尚无 GPU 测量结果：在有 CUDA 的机器上运行 `make bench-gpu` "
    "生成 `bench/results/gpu.json`。",
    "en": "No GPU measurements yet: run `make bench-gpu` on a CUDA machine "
    "to produce `bench/results/gpu.json`.",
}


def load(name: str) -> dict | None:
    """The committed results file bench/results/<name>.json, or None if it does not exist."""
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def cpu_rows(results: dict) -> list[dict]:
    """One row per (N, heads): ratios to SDPA and peak memory above the inputs, as measured."""
    rows = []
    for r in results["results"]:
        c = r["contenders"]
        rows.append(
            {
                "N": r["N"],
                "heads": r["heads"],
                "reference_ratio": c["reference"]["ratio_to_sdpa"],
                "tiled_ratio": c["tiled"]["ratio_to_sdpa"],
                "sdpa_ms": 1000 * c["sdpa"]["median_s"],
                "peak_mib": tuple(
                    c[k]["peak_bytes_above_inputs"] / MiB for k in ("reference", "tiled", "sdpa")
                ),
                "reference_per_head": bool(c["reference"]["note"]),
            }
        )
    return rows


def cpu_table(lang: str) -> str:
    """The CPU results as a Markdown table with a line saying when and where they were measured."""
    results = load("cpu")
    if results is None:
        raise FileNotFoundError("bench/results/cpu.json is missing: run `make bench`")
    m, s = results["machine"], results["settings"]
    lines = [
        _MEASURED_ON[lang].format(date=results["date"][:10], **m, **s),
        "",
        "| " + " | ".join(_HEAD[lang]) + " |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    rows = cpu_rows(results)
    for r in rows:
        ref, tiled, sdpa = r["peak_mib"]
        dagger = "†" if r["reference_per_head"] else ""
        lines.append(
            f"| {r['N']} | {r['heads']} | {r['reference_ratio']:.2f}×{dagger} "
            f"| {r['tiled_ratio']:.2f}× | {r['sdpa_ms']:.1f} ms "
            f"| {ref:.1f}{dagger} / {tiled:.1f} / {sdpa:.1f} MiB |"
        )
    if any(r["reference_per_head"] for r in rows):
        lines += ["", _PER_HEAD[lang]]
    return "\n".join(lines)


def gpu_table(lang: str) -> str:
    """The GPU results (TFLOP/s per provider) as a Markdown table, or a note if none exist."""
    results = load("gpu")
    if results is None:
        return _NO_GPU[lang]
    head = ("dtype", "d", "causal", "N", "mode", "provider", "TFLOP/s")
    lines = [
        f"{results['date'][:10]}, {results['machine']['gpu']}, "
        f"PyTorch {results['machine']['torch']}",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for r in results["results"]:
        cell = f"{r['tflops']:.1f}" if r.get("tflops") is not None else r["status"]
        lines.append(
            f"| {r['dtype']} | {r['d']} | {r['causal']} | {r['N']} | {r['mode']} "
            f"| {r['provider']} | {cell} |"
        )
    return "\n".join(lines)


_TARGETS = {
    "zh": (
        "- 时间目标（N ≥ 4096 时分块 ≤ {t}× SDPA）：{n_ok} / {n} 个配置达标{misses}。\n"
        "- 内存目标（N = 16384 时分块的额外峰值内存 ≤ 参考实现的 {m:.0%}）：{mem}。"
    ),
    "en": (
        "- Time target (tiled ≤ {t}× SDPA at N ≥ 4096): "
        "met in {n_ok} of {n} configurations{misses}.\n"
        "- Memory target (tiled extra peak memory ≤ {m:.0%} of the reference's "
        "at N = 16384): {mem}."
    ),
}
_MISSED = {"zh": "；未达标：{}", "en": "; missed: {}"}
_MEMORY = {"zh": "{:.2%}（H={}）", "en": "{:.2%} (H={})"}


def cpu_targets(lang: str) -> str:
    """Whether the measured CPU results meet the targets, computed from the rows."""
    from bench.cpu import MEMORY_TARGET, TIME_TARGET

    rows = cpu_rows(load("cpu"))
    timed = [r for r in rows if r["N"] >= 4096]
    missed = [r for r in timed if r["tiled_ratio"] > TIME_TARGET]
    misses = ", ".join(f"N={r['N']}, H={r['heads']}: {r['tiled_ratio']:.2f}×" for r in missed)
    memory = [
        _MEMORY[lang].format(r["peak_mib"][1] / r["peak_mib"][0], r["heads"])
        for r in rows
        if r["N"] == 16384 and not r["reference_per_head"]
    ]
    return _TARGETS[lang].format(
        t=TIME_TARGET,
        n_ok=len(timed) - len(missed),
        n=len(timed),
        misses=_MISSED[lang].format(misses) if missed else "",
        m=MEMORY_TARGET,
        mem=", ".join(memory),
    )
