"""Values and tables that pages show in prose, computed at build time.

A page writes ``{{ name }}`` on its own; the build replaces it with ``COMPUTED[name](lang)``.
An unknown name fails the build, so a typo cannot publish a placeholder.
"""

import math
from collections.abc import Callable

from snippets import variance

D_KS = (16, 64, 256, 1024)

_SIGMA_HEADERS = {
    "zh": (
        "$d_k$",
        r"$\sqrt{d_k}$",
        "实测 std($q\\cdot k$)",
        r"除以 $\sqrt{d_k}$ 后",
        "除以 $d_k$ 后",
    ),
    "en": (
        "$d_k$",
        r"$\sqrt{d_k}$",
        "measured std($q\\cdot k$)",
        r"after $/\sqrt{d_k}$",
        "after $/d_k$",
    ),
}


def sigma_rows(d_ks: tuple[int, ...] = D_KS) -> list[tuple[int, float, float, float, float]]:
    """Rows (d_k, √d_k, std q·k, std q·k/√d_k, std q·k/d_k), measured on the same samples."""
    rows = []
    for d_k in d_ks:
        s = variance.dot_products(d_k)
        rows.append(
            (
                d_k,
                math.sqrt(d_k),
                s.std().item(),
                (s / math.sqrt(d_k)).std().item(),
                (s / d_k).std().item(),
            )
        )
    return rows


def sigma_table(lang: str) -> str:
    """The σ table as Markdown, headers in the page's language."""
    lines = ["| " + " | ".join(_SIGMA_HEADERS[lang]) + " |", "|" + "---:|" * 5]
    for d_k, root, raw, by_root, by_d in sigma_rows():
        lines.append(f"| {d_k} | {root:.2f} | {raw:.2f} | {by_root:.3f} | {by_d:.4f} |")
    return "\n".join(lines)


def std_relative_error(lang: str) -> str:
    """Relative standard error of a sample std with the default sample count, 1/√(2n)."""
    return f"{100 / math.sqrt(2 * variance.N_SAMPLES):.1f}\\%"


COMPUTED: dict[str, Callable[[str], str]] = {
    "n_samples": lambda lang: f"{variance.N_SAMPLES}",
    "sigma_table": sigma_table,
    "std_relative_error": std_relative_error,
}


def render(name: str, lang: str) -> str:
    """Look up a computed value by name; fail loudly on an unknown one."""
    if name not in COMPUTED:
        known = ", ".join(sorted(COMPUTED))
        raise KeyError(f"unknown computed value {{{{ {name} }}}}; known: {known}")
    return COMPUTED[name](lang)


# --- Interview cards: the deck table, its relations and the handbook, from the front matter ---
from snippets import cards_render  # noqa: E402

COMPUTED.update(
    {
        "cards_table": cards_render.cards_table,
        "cards_relations": cards_render.cards_relations,
        "cards_handbook": lambda lang: cards_render.handbook(lang, render),
    }
)

# --- Derivation pages (implementation, variants): overflow, scale placement, soft-capping ---
from snippets import derivation_tables  # noqa: E402

COMPUTED.update(derivation_tables.COMPUTED)

# --- Training with and without the scale: setup, results and provenance of the cached runs ---
from snippets import training_tables  # noqa: E402

COMPUTED.update(training_tables.COMPUTED)

# --- Kernel benchmarks: tables rendered from the committed results in bench/results/ ---
from snippets import bench_report  # noqa: E402

COMPUTED.update(
    {
        "bench_cpu_table": bench_report.cpu_table,
        "bench_cpu_targets": bench_report.cpu_targets,
        "bench_gpu_table": bench_report.gpu_table,
    }
)
