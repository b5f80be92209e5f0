"""The committed benchmark results in bench/results/, read as rows (no formatting here)."""

import json
import math
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
MiB = 2**20


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
                "tiled_ratio": c["tiled"]["ratio_to_sdpa"],  # the default call
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


GPU_PROVIDERS = ("triton", "sdpa", "sdpa-flash", "sdpa-efficient", "sdpa-cudnn")


def gpu_rows(results: dict) -> list[dict]:
    """One row per (dtype, d, causal, N, mode): each provider's useful TFLOP/s (None if not
    timed), the Triton kernel's executed TFLOP/s, and its ratio to SDPA's default call."""
    rows: dict[tuple, dict] = {}
    for r in results["results"]:
        key = (r["dtype"], r["d"], r["causal"], r["N"], r["mode"])
        row = rows.setdefault(
            key, dict(zip(("dtype", "d", "causal", "N", "mode"), key, strict=True))
        )
        row[r["provider"]] = r.get("tflops")
        if r["provider"] == "triton":
            row["executed"] = r.get("executed_tflops")
    for row in rows.values():
        timed = row.get("triton") and row.get("sdpa")
        row["ratio"] = row["triton"] / row["sdpa"] if timed else None
    return list(rows.values())


def gpu_untimed(results: dict) -> list[tuple[str, str, str]]:
    """(provider, dtype, reason) for every provider and dtype that was not timed, once each."""
    seen = {}
    for r in results["results"]:
        if r.get("tflops") is None:
            seen.setdefault((r["provider"], r["dtype"]), r["status"])
    return [(p, dt, why) for (p, dt), why in seen.items()]


def tile_margins(results: dict, d: int) -> tuple[float, float]:
    """From the tile sweep at head size d: how much faster than the default tiles the best
    candidate ran, as the geometric mean over the timed N and modes (tiles serve all shapes, and
    one timing alone is as noisy as the spread), and the largest difference between the
    default's own two timings of one shape and mode (the run-to-run spread), as fractions."""
    rows = [r for r in results["results"] if "status" not in r and r["d"] == d]
    defaults = {r["N"]: r for r in rows if r["default"]}
    speedups: dict[str, list[float]] = {}  # other tiles -> their speed / the default's, per timing
    spread, repeats = 0.0, 0
    for r in rows:
        default = defaults[r["N"]]
        for mode in ("fwd", "fwd+bwd"):
            ratio = r[mode]["tflops"] / default[mode]["tflops"]
            if r["config"] != default["config"]:
                speedups.setdefault(json.dumps(r["config"], sort_keys=True), []).append(ratio)
            elif r is not default:
                spread, repeats = max(spread, abs(ratio - 1)), repeats + 1
    if not repeats:
        raise ValueError(f"the tile sweep did not time the default tiles twice at d = {d}")
    best = max(math.prod(x) ** (1 / len(x)) for x in speedups.values()) - 1
    return best, spread


def tiles_unbeaten(results: dict, d: int) -> bool:
    """At head size d, no candidate beat the default tiles (geometric mean over N and modes)
    by more than the default's own two timings of one shape and mode differ at that d."""
    best, spread = tile_margins(results, d)
    return best <= spread
