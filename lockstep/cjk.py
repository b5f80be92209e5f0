"""Chinese prose wraps in the source; browsers would render each line break as a space."""

from __future__ import annotations

import re

from lockstep.fences import line_states

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def join_cjk_lines(markdown: str) -> str:
    """Join a line ending in a CJK character with a next line starting with one, outside fences."""
    out: list[str] = []
    previous_fenced = True  # nothing to join with before the first line
    for line, fenced in line_states(markdown):
        stripped = line.lstrip()
        if (
            not fenced
            and not previous_fenced
            and stripped
            and CJK.match(stripped)
            and out[-1]
            and CJK.match(out[-1][-1])
        ):
            out[-1] += stripped
        else:
            out.append(line)
        previous_fenced = fenced
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")
