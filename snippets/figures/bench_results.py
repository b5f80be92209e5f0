"""The committed benchmark results in bench/results/, read as rows (no formatting here).

Shared by the benchmark figure and the benchmark pages' tables; the benchmark harness (bench/)
writes these files and imports this module, never the other way round.
"""

from __future__ import annotations

import ast
import hashlib
import json
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"
KERNEL_SOURCE = ROOT / "snippets" / "kernels" / "triton_attention.py"
MiB = 2**20
GPU_PROVIDERS = ("triton", "sdpa", "sdpa-flash", "sdpa-efficient", "sdpa-cudnn")
# The GPU run of the previous Triton kernel (three backward kernels, fp32 O, four launches
# around the forward), measured with do_bench medians and the "useful FLOPs" count.
PREVIOUS_GPU = "gpu-2026-12-01"
PREVIOUS_TILES = "tiles-2026-12-01"
# FlashAttention's FLOP convention, in units of the forward's 4 N_q N_k d per head.
FLOP_UNITS = {"fwd": 1.0, "bwd": 2.5, "fwd+bwd": 3.5}


def load(name: str) -> dict | None:
    """The committed results file bench/results/<name>.json, or None if it does not exist."""
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def kernel_fingerprint(path: Path = KERNEL_SOURCE) -> str:
    """sha256 of a module's syntax tree (comments do not change it), 16 hex digits."""
    tree = ast.dump(ast.parse(path.read_text(encoding="utf-8")))
    return hashlib.sha256(tree.encode()).hexdigest()[:16]


def measures_this_kernel(results: dict) -> bool:
    """Whether a GPU run timed the Triton kernel as its source is now (same syntax tree)."""
    return results.get("kernel", {}).get("ast_sha256") == kernel_fingerprint()


def attention_flops(B: int, H: int, N_q: int, N_k: int, d: int, *, causal: bool, mode: str):
    """FLOPs of one call in FlashAttention's convention: 4 N_q N_k d per head forward (two
    matrix products of 2 FLOPs per multiply-add), halved if causal; the backward 2.5 times."""
    forward = 4 * B * H * N_q * N_k * d * (0.5 if causal else 1.0)
    return forward * FLOP_UNITS[mode]


def cpu_rows(results: dict) -> list[dict]:
    """One row per (N, heads): ratios to SDPA, their per-round range, and peak memory above
    the inputs, as measured."""
    rows = []
    for r in results["results"]:
        c = r["contenders"]
        tiled, sdpa = c["tiled"]["times_s"], c["sdpa"]["times_s"]
        per_round = [a / b for a, b in zip(tiled, sdpa, strict=True)]
        rows.append(
            {
                "N": r["N"],
                "heads": r["heads"],
                "reference_ratio": c["reference"]["ratio_to_sdpa"],
                "tiled_ratio": c["tiled"]["ratio_to_sdpa"],  # the default call
                "tiled_range": (min(per_round), max(per_round)),
                "tiles": c["tiled"]["note"],
                "square_ratio": c["tiled_square"]["ratio_to_sdpa"],
                "sdpa_ms": 1000 * c["sdpa"]["median_s"],
                "peak_mib": tuple(
                    c[k]["peak_bytes_above_inputs"] / MiB for k in ("reference", "tiled", "sdpa")
                ),
                "reference_per_head": bool(c["reference"]["note"]),
            }
        )
    return rows


def _fa_tflops(r: dict) -> float | None:
    """TFLOP/s of a row in FlashAttention's convention, from its median time."""
    if r.get("ms") is None:
        return None
    size = dict(B=r["batch"], H=r["heads"], N_q=r["N"], N_k=r["N"], d=r["d"])
    return attention_flops(**size, causal=r["causal"], mode=r["mode"]) / (r["ms"] * 1e-3) / 1e12


def gpu_rows(results: dict) -> list[dict]:
    """One row per (dtype, d, causal, N, mode): each provider's TFLOP/s in FlashAttention's
    convention (recomputed from the median times, so older runs count the same way), the
    Triton kernel's spread and its ratio to SDPA's default call with the ratio's quartiles
    (runs before the interleaved method have neither: the ratio is of the two medians)."""
    rows: dict[tuple, dict] = {}
    for r in results["results"]:
        key = (r["dtype"], r["d"], r["causal"], r["N"], r["mode"])
        row = rows.setdefault(
            key, dict(zip(("dtype", "d", "causal", "N", "mode"), key, strict=True))
        )
        row[r["provider"]] = _fa_tflops(r) if r.get("status") == "ok" else None
        if r["provider"] == "triton":
            row["spread"] = r.get("spread")
            ratio = r.get("ratio_to_sdpa")
            row["ratio_range"] = (ratio["q1"], ratio["q3"]) if ratio else None
            row["ratio"] = ratio["median"] if ratio else None
    for row in rows.values():
        if row.get("ratio") is None and row.get("triton") and row.get("sdpa"):
            row["ratio"] = row["triton"] / row["sdpa"]
        row.setdefault("ratio", None)
    return list(rows.values())


def gpu_untimed(results: dict) -> list[tuple[str, str, str]]:
    """(provider, dtype, reason) for every provider and dtype that was not timed, once each."""
    seen = {}
    for r in results["results"]:
        if r.get("status") != "ok":
            seen.setdefault((r["provider"], r["dtype"]), r["status"])
    return [(p, dt, why) for (p, dt), why in seen.items()]


def gpu_samples(results: dict) -> tuple[int, int]:
    """(fewest, most) timings behind one timed cell of a run: the timings per cell of runs that
    record them, else do_bench's, estimated as the old harness did (rep=50 ms of calls)."""
    counts = []
    for r in results["results"]:
        if r.get("status") != "ok":
            continue
        counts.append(len(r["times_ms"]) if "times_ms" in r else max(1, int(50 / r["ms"])))
    return min(counts), max(counts)


def previous_tile_findings(results: dict) -> list[dict]:
    """The previous kernel's tile sweep (bf16, non-causal), shape by shape and mode by mode:
    the default tiles' two timings, their difference (that shape's spread), and the fastest
    other tiles with their margin over the mean of the default's two timings."""
    groups: dict[tuple, list[dict]] = {}
    for r in results["results"]:
        if "status" not in r:
            groups.setdefault((r["d"], r["N"]), []).append(r)
    findings = []
    for (d, N), rows in sorted(groups.items()):
        mine = next(r for r in rows if r["default"])["config"]
        default = [r for r in rows if r["config"] == mine]
        others = [r for r in rows if r["config"] != mine]
        for mode in ("fwd", "fwd+bwd"):
            own = [r[mode]["tflops"] for r in default]
            mean = statistics.mean(own)
            best = max(others, key=lambda r: r[mode]["tflops"])
            findings.append(
                {
                    "d": d,
                    "N": N,
                    "mode": mode,
                    "default": own,
                    "spread": (max(own) - min(own)) / mean,
                    "repeat_slower": own[1] < own[0],  # the default ran first and fourth
                    "best": best["config"],
                    "margin": best[mode]["tflops"] / mean - 1,
                }
            )
    return findings
