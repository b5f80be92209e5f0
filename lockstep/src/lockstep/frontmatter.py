"""YAML front matter at the top of a page, split from the body."""

from __future__ import annotations

import re

from lockstep import yaml_data

_FRONT_MATTER = re.compile(r"^---\n(.*?)\n---\n", re.S)


def split_front_matter(text: str) -> tuple[dict, str]:
    """(front matter as a dict, the rest); a page without front matter gives ({}, text)."""
    m = _FRONT_MATTER.match(text)
    if not m:
        return {}, text
    meta = yaml_data.load(m.group(1)) or {}
    return (meta if isinstance(meta, dict) else {}), text[m.end() :]


def front_matter_block(text: str) -> str:
    """The front matter as written, unparsed ('' for none)."""
    m = _FRONT_MATTER.match(text)
    return m.group(1) if m else ""
