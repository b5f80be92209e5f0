"""The committed benchmark results, read as rows: kept in snippets/figures/bench_results.py,
below both the figures and this harness, and named here for the harness's readers."""

from snippets.figures.bench_results import (  # noqa: F401
    GPU_PROVIDERS,
    RESULTS,
    cpu_rows,
    gpu_rows,
    gpu_untimed,
    load,
)
