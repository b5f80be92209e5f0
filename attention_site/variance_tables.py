"""Values for the page on why q·k grows: the σ table and its sampling error."""

import math
from collections.abc import Callable

from lockstep.tables import markdown_table
from snippets import variance

D_KS = (16, 64, 256, 1024)

HEADERS = {
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
        root = math.sqrt(d_k)
        rows.append((d_k, root, s.std().item(), (s / root).std().item(), (s / d_k).std().item()))
    return rows


def sigma_table(lang: str) -> str:
    """The σ table, headers in the page's language."""
    rows = [
        (d_k, f"{root:.2f}", f"{raw:.2f}", f"{by_root:.3f}", f"{by_d:.4f}")
        for d_k, root, raw, by_root, by_d in sigma_rows()
    ]
    return markdown_table(HEADERS[lang], rows, align="rrrrr")


def std_relative_error(lang: str) -> str:
    """Relative standard error of a sample std with the default sample count, 1/√(2n)."""
    return f"{100 / math.sqrt(2 * variance.N_SAMPLES):.1f}\\%"


VALUES: dict[str, Callable[[str], str]] = {
    "n_samples": lambda lang: f"{variance.N_SAMPLES}",
    "sigma_table": sigma_table,
    "std_relative_error": std_relative_error,
}
