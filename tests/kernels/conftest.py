"""Kernel tests: one deterministic hypothesis profile, so CI draws the same examples; the tiled
implementation's default tiles from the static rule, so that no test times the CPU."""

import os

from hypothesis import HealthCheck, settings

os.environ.setdefault("ATTENTION_TILE_BUDGET", "static")

settings.register_profile(
    "kernels",
    derandomize=True,  # the same examples on every run
    deadline=None,  # interpreter timings vary with machine load
    database=None,  # nothing written to .hypothesis/
    max_examples=10,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
