"""Chinese prose wraps in the source; browsers would render each line break as a space."""

import re

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def join_cjk_lines(markdown: str) -> str:
    """Join a line ending in a CJK character with a next line starting with one, outside fences."""
    out: list[str] = []
    fence = None
    for line in markdown.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None and m and m.group(1).startswith(fence):
            fence = None
            out.append(line)
            continue
        stripped = line.lstrip()
        if (
            fence is None
            and out
            and stripped
            and CJK.match(stripped)
            and out[-1]
            and CJK.match(out[-1][-1])
            and not FENCE.match(out[-1])
        ):
            out[-1] += stripped
        else:
            out.append(line)
    return "\n".join(out)
