"""The Triton kernels compiled for GPUs (bench/results/compile*.json: the pinned triton and an
older release), summarised for the page."""

from collections.abc import Callable

from lockstep.tables import markdown_table
from snippets.figures.bench_results import load

TABLES = ("compile", "compile-triton-3.6")  # bench/results/<name>.json, newest first
HEADERS = {
    "zh": (
        "Triton",
        "目标",
        "dtype",
        "内核数",
        "最多寄存器",
        "最多溢出",
        "最多共享内存 / 上限",
        "张量核心",
        "前向 TMA",
        "warp 特化的前向",
    ),
    "en": (
        "Triton",
        "target",
        "dtype",
        "kernels",
        "max registers",
        "max spill",
        "max shared / limit",
        "tensor cores",
        "forward TMA",
        "warp-specialised forwards",
    ),
}
COMPILED = {
    "zh": "编译的内核：{counts}（{date}，没有 GPU）。每个目标上包装层可能启动的每一组分块（自动"
    "调优从中选择的每一组）都编译一遍。溢出是 ptxas 报告的每线程溢出存储与读取的字节数之和，"
    "共享内存按 KiB 计；“张量核心”指每个做矩阵乘法的内核都编译成了张量核心指令（sm_90 上的"
    " 16 位内核为 HGMMA，其余为 HMMA）；“前向 TMA”指前向内核的机器码里有 TMA 加载（UTMALDG）；"
    "“warp 特化的前向”是机器码里在 warpgroup 之间重新分配寄存器（USETMAXREG）的前向内核数，"
    "Triton 为它们启动 12 个 warp。",
    "en": "Kernels compiled: {counts} ({date}, without a GPU), on each target every tile "
    "configuration the wrapper may launch (each one the autotuner chooses from). Spill: bytes of "
    "spill stores plus loads per thread (ptxas); shared memory in KiB; “tensor cores”: every "
    "kernel that multiplies matrices compiled to tensor-core instructions (HGMMA for 16 bits on "
    "sm_90, HMMA otherwise); “forward TMA”: the forward kernels' machine code loads through the "
    "TMA (UTMALDG); “warp-specialised forwards”: forward kernels whose machine code moves "
    "registers between warpgroups (USETMAXREG), launched by Triton with 12 warps.",
}
COUNT = {"zh": "Triton {v} 下 {n} 个", "en": "{n} with Triton {v}"}
YES = {"zh": "是", "en": "yes"}
NO = {"zh": "否", "en": "no"}
DOTS = ("fwd", "bwd")


def _tables() -> list[dict]:
    tables = [load(name) for name in TABLES]
    if None in tables:
        raise FileNotFoundError("bench/results/compile*.json missing: run `make bench-compile`")
    return tables


def compile_summary(lang: str) -> str:
    """Per triton release, target and dtype: the largest registers, spills and shared memory
    of any kernel, and whether the forward used the TMA and warp specialisation."""
    rows = []
    for results in _tables():
        groups: dict[tuple[str, str], list[dict]] = {}
        for r in results["results"]:
            groups.setdefault((r["target"], r["dtype"]), []).append(r)
        for (target, dtype), kernels in groups.items():
            dots = [k for k in kernels if k["kernel"] in DOTS]
            forwards = [k for k in kernels if k["kernel"] == "fwd"]
            tma = [k for k in forwards if k["tma"]]
            rows.append(
                (
                    results["versions"]["triton"],
                    target,
                    dtype,
                    len(kernels),
                    max(k["registers"] for k in kernels),
                    max(k["spill_bytes"] for k in kernels),
                    f"{max(k['shared_bytes'] for k in kernels) / 1024:.0f} / "
                    f"{kernels[0]['shared_limit'] / 1024:.0f}",
                    YES[lang] if all(k["tensor_core_dots"] > 0 for k in dots) else NO[lang],
                    (YES[lang] if all(k["tma_loads"] > 0 for k in tma) else NO[lang])
                    if tma
                    else "–",
                    f"{sum(k['setmaxnreg'] > 0 for k in forwards)} / {len(forwards)}",
                )
            )
    tables = _tables()
    counts = AND[lang].join(
        COUNT[lang].format(n=len(t["results"]), v=t["versions"]["triton"]) for t in tables
    )
    intro = COMPILED[lang].format(counts=counts, date=tables[0]["date"][:10])
    return intro + "\n\n" + markdown_table(HEADERS[lang], rows, align="lllrrrrllr")


SPILLS_16 = {
    "zh": "16 位下溢出寄存器的只有 {where}：ptxas 报告的每线程溢出存储与读取字节数之和，"
    "最多为 {worst}。",
    "en": "In 16 bits, only {where} spill registers: at most {worst} of spill stores plus "
    "loads per thread, as ptxas reports them.",
}
NO_SPILLS_16 = {
    "zh": "16 位下没有哪个内核溢出寄存器（两个 Triton 版本、三个目标、全部分块）。",
    "en": "No 16-bit kernel spills registers (both Triton releases, the three targets, every "
    "tile configuration).",
}
AT = {"zh": "{target} 上 d = {d} 的内核", "en": "the kernels for {target} at d = {d}"}
BYTES_WITH = {"zh": "{b} 字节（Triton {v}）", "en": "{b} bytes with Triton {v}"}
AND = {"zh": "和 ", "en": " and "}


def spills_16bit(lang: str) -> str:
    """Which 16-bit kernels spill registers, and how much, per triton release."""
    where, worst = set(), []
    for results in _tables():
        rows = [r for r in results["results"] if r["dtype"] != "float32" and r["spill_bytes"]]
        where |= {(r["target"], r["d"]) for r in rows}
        b = max((r["spill_bytes"] for r in rows), default=0)
        worst.append(BYTES_WITH[lang].format(b=b, v=results["versions"]["triton"]))
    if not where:
        return NO_SPILLS_16[lang]
    return SPILLS_16[lang].format(
        where=AND[lang].join(AT[lang].format(target=t, d=d) for t, d in sorted(where)),
        worst=AND[lang].join(worst),
    )


PREVIOUS = "previous-compile-triton-3.6"  # the previous kernel's compile record, Triton 3.6
PREVIOUS_FORWARD = {
    "zh": "每个线程用 {regs} 个寄存器、共 {threads} 个线程",
    "en": "{regs} registers for each of {threads} threads",
}
PREVIOUS_SPILL = {"zh": "{:,} 字节", "en": "{:,} bytes"}


def _previous_hopper_128() -> list[dict]:
    rows = load(PREVIOUS)["results"]
    return [r for r in rows if (r["target"], r["d"]) == ("sm_90", 128) and r["dtype"] != "float32"]


def previous_forward_registers(lang: str) -> str:
    """The previous kernel's Hopper forward at d = 128: registers per thread and threads."""
    (regs, warps), *_ = {(r["registers"], r["num_warps"]) for r in _previous_hopper_128()
                         if r["kernel"] == "fwd"}  # fmt: skip
    return PREVIOUS_FORWARD[lang].format(regs=regs, threads=32 * warps)


def previous_backward_spill(lang: str) -> str:
    """The largest register spill of the previous kernel's Hopper backward at d = 128."""
    worst = max(r["spill_bytes"] for r in _previous_hopper_128() if r["kernel"] != "fwd")
    return PREVIOUS_SPILL[lang].format(worst)


VALUES: dict[str, Callable[[str], str]] = {
    "triton_compile_summary": compile_summary,
    "triton_spills_16bit": spills_16bit,
    "triton_previous_forward_registers": previous_forward_registers,
    "triton_previous_backward_spill": previous_backward_spill,
}
