"""The one Markdown table builder."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

_RULE = {"l": "---", "r": "---:", "c": ":---:"}


def cell(value: object) -> str:
    """A value as a table cell: a `|` inside it must not end the cell."""
    return str(value).replace("|", r"\|")


def markdown_table(
    headers: Sequence[str], rows: Iterable[Sequence[object]], align: str = ""
) -> str:
    """A pipe table; `align` has one letter per column (l, r or c), left by default."""
    align = align or "l" * len(headers)
    if len(align) != len(headers) or set(align) - set(_RULE):
        raise ValueError(f"align must be one of l/r/c per column, got {align!r}")
    lines = [
        "| " + " | ".join(cell(h) for h in headers) + " |",
        "|" + "|".join(_RULE[a] for a in align) + "|",
    ]
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"row {row!r} has {len(row)} cells for {len(headers)} columns")
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)
