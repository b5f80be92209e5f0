"""`{{ name }}` in a page: a value the build computes. The pattern is defined here only."""

from __future__ import annotations

import re
from collections.abc import Callable

from lockstep.errors import did_you_mean

PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


def names(text: str) -> list[str]:
    """The placeholder names in `text`, in order, repeats kept."""
    return PLACEHOLDER.findall(text)


def substitute(text: str, render: Callable[[str], str]) -> str:
    """`text` with every placeholder replaced by `render(name)`."""
    return PLACEHOLDER.sub(lambda m: render(m.group(1)), text)


def unknown(text: str, known: set[str], where: str) -> list[str]:
    """One line per placeholder in `text` that names no known value: where it is, and the
    closest known name."""
    return [
        f"`{{{{ {m[1]} }}}}` on {where}:{text.count(chr(10), 0, m.start()) + 1} is not a computed "
        f"value{did_you_mean(m[1], known) or '; known: ' + ', '.join(sorted(known))}"
        for m in PLACEHOLDER.finditer(text)
        if m[1] not in known
    ]
