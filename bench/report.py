"""The committed benchmark results in bench/results/, read as rows (no formatting here)."""

import json
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
