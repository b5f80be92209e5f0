"""The Triton kernels compiled for GPUs (bench/results/compile.json), summarised for the page."""

from collections.abc import Callable

from bench.report import load
from lockstep.tables import markdown_table

HEADERS = {
    "zh": ("目标", "dtype", "内核数", "最多寄存器", "最多溢出", "最多共享内存 / 上限", "张量核心"),
    "en": (
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
    "zh": "{n} 个内核于 {date} 由 Triton {triton} 编译（没有 GPU），每个目标用它那一档共享内存下"
    "包装层会选的块。溢出按字节计，共享内存按 KiB 计；“张量核心”指每个做矩阵乘法的内核都编译成了"
    "张量核心指令（sm_90 上为 HGMMA，其余为 HMMA）。",
    "en": "{n} kernels compiled on {date} by Triton {triton} (without a GPU), each target with the "
    "tiles the wrapper picks for its tier of shared memory. Spill in bytes, shared memory in KiB; "
    "“tensor cores”: every kernel that multiplies matrices compiled to tensor-core instructions "
    "(HGMMA on sm_90, HMMA on the others).",
}
YES = {"zh": "是", "en": "yes"}
NO = {"zh": "否", "en": "no"}


def compile_summary(lang: str) -> str:
    """Per target and dtype: the largest registers, spills and shared memory of any kernel."""
    results = load("compile")
    if results is None:
        raise FileNotFoundError("bench/results/compile.json is missing: run `make bench-compile`")
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in results["results"]:
        groups.setdefault((r["target"], r["dtype"]), []).append(r)
    rows = []
    for (target, dtype), kernels in groups.items():
        dots = [k for k in kernels if k["kernel"] != "bwd_preprocess"]
        rows.append(
            (
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
    intro = COMPILED[lang].format(
        n=len(results["results"]), date=results["date"][:10], triton=results["versions"]["triton"]
    )
    return intro + "\n\n" + markdown_table(HEADERS[lang], rows, align="llrrrrl")


VALUES: dict[str, Callable[[str], str]] = {"triton_compile_summary": compile_summary}
