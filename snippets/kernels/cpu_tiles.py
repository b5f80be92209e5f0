"""How tall the tiled implementation's query tiles are on this CPU: a budget, in bytes, for the
float32 scores of one step over all batch * heads, measured once per machine and cached.

A static guess from the cache size, twice the L2 of torch's threads together, chose the tiles
that met the time target on the AMD EPYC of bench/results/cpu.json, but not on an Intel Xeon
with 2 MiB of L2 per core (the benchmarks page). The best budget depends on more than the L2
(the L3, the prefetchers, the matrix-product library), so the first call on a machine times
the forward pass at one shape with each candidate budget, three interleaved rounds, and keeps
the fastest in .cache/cpu-tiles.json, keyed by the CPU model, its L2, the threads and torch.

ATTENTION_TILE_BUDGET=static uses the static guess; a number of bytes fixes the budget (the
tests do either, so that they never time anything).
"""

from __future__ import annotations

import json
import os
import platform
import re
import statistics
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "cpu-tiles.json"
MiB = 2**20
# The calibration: float32, d = 64, batch * heads = 4, N = 2048, key tiles of 512. Its query
# tiles of 128 ... 2048 rows are budgets of 1 ... 16 MiB of scores per step.
SHAPE = (1, 4, 2048, 64)
BLOCK_K = 512
CANDIDATE_ROWS = (128, 256, 512, 1024, 2048)
ROUNDS = 3


def l2_cache_bytes() -> int:
    """The L2 cache of one core, as Linux reports it (1 MiB where the OS does not say)."""
    # os.sysconf has no cache sizes on most builds; Linux lists each cache level in sysfs.
    for index in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            if (index / "level").read_text().strip() == "2":
                size = (index / "size").read_text().strip()  # e.g. "1024K"
                unit = {"K": 2**10, "M": 2**20}.get(size[-1], 1)
                return int(size.rstrip("KM")) * unit
        except (OSError, ValueError):
            break
    return 2**20


def cpu_model() -> str:
    """The CPU's model name, as /proc/cpuinfo gives it (the platform's guess elsewhere)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or "unknown"
    found = re.search(r"^model name\s*:\s*(.+)$", text, re.M)
    return found.group(1).strip() if found else platform.processor() or "unknown"


def machine_key() -> str:
    """What a calibration holds for: CPU model, L2 per core, threads, torch version."""
    return f"{cpu_model()} | L2 {l2_cache_bytes()} | {torch.get_num_threads()} threads | " + (
        f"torch {torch.__version__}"
    )


def static_budget(l2_bytes: int | None = None, threads: int | None = None) -> int:
    """Twice the L2 of torch's threads together: the rule before calibration."""
    return 2 * (l2_bytes or l2_cache_bytes()) * (threads or torch.get_num_threads())


def rows_budget(rows: int, batch_heads: int = SHAPE[1], block_k: int = BLOCK_K) -> int:
    """Bytes of float32 scores in one step of `rows` query rows."""
    return batch_heads * rows * block_k * 4


def calibrate(rounds: int = ROUNDS) -> dict:
    """Time the forward pass at SHAPE with each candidate tile, in interleaved rounds; return
    the fastest one's budget and every median time."""
    from snippets.kernels import online_softmax  # imports this module

    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(SHAPE, generator=gen) for _ in range(3))
    times = {rows: [] for rows in CANDIDATE_ROWS}
    with torch.no_grad():
        online_softmax.attention(q, k, v, block_q=128, block_k=BLOCK_K)  # warm up
        for _ in range(rounds):
            for rows in CANDIDATE_ROWS:
                start = time.perf_counter()
                online_softmax.attention(q, k, v, block_q=rows, block_k=BLOCK_K)
                times[rows].append(time.perf_counter() - start)
    medians = {rows: statistics.median(t) for rows, t in times.items()}
    best = min(medians, key=medians.get)
    return {
        "machine": machine_key(),
        "budget_bytes": rows_budget(best),
        "median_s": {str(rows_budget(rows)): round(s, 5) for rows, s in medians.items()},
    }


def cached_calibration() -> dict | None:
    """This machine's calibration from the cache, if one was made."""
    try:
        entry = json.loads(CACHE.read_text(encoding="utf-8")).get(machine_key())
    except (OSError, ValueError):
        return None
    return entry


def save_calibration(entry: dict) -> None:
    """Keep `entry` in the cache beside other machines' (written whole, then renamed)."""
    try:
        known = json.loads(CACHE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    known[entry["machine"]] = entry
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    tmp = CACHE.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(known, indent=1) + "\n", encoding="utf-8")
    tmp.replace(CACHE)


def score_budget() -> int:
    """The budget the default tiles follow on this machine: ATTENTION_TILE_BUDGET if set, else
    the cached calibration, else a new one (cached; the static rule if it cannot be saved)."""
    fixed = os.environ.get("ATTENTION_TILE_BUDGET")
    if fixed == "static":
        return static_budget()
    if fixed:
        return int(fixed)
    entry = cached_calibration()
    if entry is None:
        entry = calibrate()
        try:
            save_calibration(entry)
        except OSError:
            return static_budget()
    return entry["budget_bytes"]
