"""The Triton kernels compiled for GPUs (bench/results/compile*.json: the pinned triton and an
older release), summarised for the page."""

from collections.abc import Callable

from bench.report import load
from lockstep.tables import markdown_table

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
    ),
}
COMPILED = {
    "zh": "每个 Triton 版本编译 {n} 个内核（{date}，没有 GPU），每个目标用它那一档共享内存下"
    "包装层会选的块。溢出是 ptxas 报告的每线程溢出存储与读取的字节数之和，共享内存按 KiB 计；"
    "“张量核心”指每个做矩阵乘法的内核都编译成了张量核心指令（sm_90 上为 HGMMA，其余为 HMMA）。",
    "en": "{n} kernels compiled per Triton release ({date}, without a GPU), each target with the "
    "tiles the wrapper picks for its tier of shared memory. Spill: bytes of spill stores plus "
    "loads per thread (ptxas); shared memory in KiB; "
    "“tensor cores”: every kernel that multiplies matrices compiled to tensor-core instructions "
    "(HGMMA on sm_90, HMMA on the others).",
}
YES = {"zh": "是", "en": "yes"}
NO = {"zh": "否", "en": "no"}


def compile_summary(lang: str) -> str:
    """Per triton release, target and dtype: the largest registers, spills and shared memory
    of any kernel."""
    tables = [load(name) for name in TABLES]
    if None in tables:
        raise FileNotFoundError("bench/results/compile*.json missing: run `make bench-compile`")
    rows = []
    for results in tables:
        groups: dict[tuple[str, str], list[dict]] = {}
        for r in results["results"]:
            groups.setdefault((r["target"], r["dtype"]), []).append(r)
        for (target, dtype), kernels in groups.items():
            dots = [k for k in kernels if k["kernel"] != "bwd_preprocess"]
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
                )
            )
    intro = COMPILED[lang].format(n=len(tables[0]["results"]), date=tables[0]["date"][:10])
    return intro + "\n\n" + markdown_table(HEADERS[lang], rows, align="lllrrrrl")


SPILLS_16 = {
    "zh": "16 位下溢出寄存器的只有 {where}：ptxas 报告的每线程溢出存储与读取字节数之和，"
    "最多为 {worst}。",
    "en": "In 16 bits, only {where} spill registers: at most {worst} of spill stores plus "
    "loads per thread, as ptxas reports them.",
}
NO_SPILLS_16 = {"zh": "16 位下没有内核溢出寄存器。", "en": "No 16-bit kernel spills registers."}
AT = {"zh": "{target} 上 d = {d} 的内核", "en": "the kernels for {target} at d = {d}"}
BYTES_WITH = {"zh": "{b} 字节（Triton {v}）", "en": "{b} bytes with Triton {v}"}
AND = {"zh": "和 ", "en": " and "}


def spills_16bit(lang: str) -> str:
    """Which 16-bit kernels spill registers, and how much, per triton release."""
    tables = [load(name) for name in TABLES]
    if None in tables:
        raise FileNotFoundError("bench/results/compile*.json missing: run `make bench-compile`")
    where, worst = set(), []
    for results in tables:
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


VALUES: dict[str, Callable[[str], str]] = {
    "triton_compile_summary": compile_summary,
    "triton_spills_16bit": spills_16bit,
}
