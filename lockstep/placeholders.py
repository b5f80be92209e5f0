"""`{{ name }}` in a page: a value the build computes. The pattern is defined here only."""

from __future__ import annotations

import re
from collections.abc import Callable

PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


def names(text: str) -> list[str]:
    """The placeholder names in `text`, in order, repeats kept."""
    return PLACEHOLDER.findall(text)


def substitute(text: str, render: Callable[[str], str]) -> str:
    """`text` with every placeholder replaced by `render(name)`."""
    return PLACEHOLDER.sub(lambda m: render(m.group(1)), text)
