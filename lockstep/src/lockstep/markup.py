"""Markdown's headings, links and collapsible blocks: the one pattern for each.

Everything here reads prose only; which lines are code is the fence scanner's business.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from lockstep.fences import line_states

HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.*?)\s*$")  # ATX: "## Title"
LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)]*)\)")  # [text](target)
# pymdownx.details: `??? kind "title"` is collapsed, `???+` is open.
DETAILS = re.compile(
    r'^(?P<indent>\s*)\?\?\?(?P<open>\+?) (?P<kind>[\w-]+)(?: "(?P<title>[^"]*)")?'
)


def headings(text: str) -> Iterator[tuple[int, int, str]]:
    """(line index, level, text) of every heading outside fences."""
    for i, (line, fenced) in enumerate(line_states(text)):
        m = None if fenced else HEADING.match(line)
        if m:
            yield i, len(m["level"]), m["text"]


def link_texts(text: str) -> str:
    """`text` with every link replaced by its text (for exports that cannot follow links)."""
    return LINK.sub(lambda m: m["text"], text)


def without_targets(text: str) -> str:
    """`text` with every link target emptied (a path or URL is not prose)."""
    return LINK.sub(lambda m: f"[{m['text']}]()", text)


def retarget(text: str, new_target: Callable[[str], str | None]) -> str:
    """`text` with each link's target replaced by new_target(target), where that is not None."""

    def replace(m: re.Match) -> str:
        target = new_target(m["target"])
        return m[0] if target is None else f"[{m['text']}]({target})"

    return LINK.sub(replace, text)


def targets(text: str) -> list[str]:
    """Every link target in `text`, in order."""
    return [m["target"] for m in LINK.finditer(text)]


# Spans of a line that are not prose: inline code, inline math, link targets, HTML tags and
# attribute lists. Whatever reads or rewrites words (terms, citations) leaves them alone.
NOT_PROSE = re.compile(r"`[^`]*`|\$[^$]*\$|\]\([^)]*\)|<[^>]+>|\{[^}]*\}")


def prose_spans(line: str) -> Iterator[tuple[str, bool]]:
    """The pieces of one line, in order, each with whether it is prose."""
    last = 0
    for m in NOT_PROSE.finditer(line):
        yield line[last : m.start()], True
        yield m[0], False
        last = m.end()
    yield line[last:], True


def map_prose(line: str, change: Callable[[str], str]) -> str:
    """`line` with change() applied to its prose pieces only."""
    return "".join(change(piece) if prose else piece for piece, prose in prose_spans(line))


# Inside a raw-HTML block with `markdown` (md_in_html), Python-Markdown's HTML parser reads
# "<" followed by a letter as a start tag even within $...$, so `$L_q<L_k$` swallows the rest
# of the block and the page renders empty from there (the handbook did). `\lt` is the same
# symbol to MathJax, and the parser leaves it alone.
MATH = re.compile(r"\$\$(?P<display>.+?)\$\$|\$(?P<inline>[^$\n]+)\$", re.S)  # $$…$$ or $…$


def math_safe_in_html_block(text: str) -> str:
    """`text` with every `<` inside a formula written `\\lt `, for a raw-HTML block."""
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            out.append(MATH.sub(lambda m: m[0].replace("<", r"\lt "), "\n".join(prose)))
            prose.clear()

    for line, fenced in line_states(text):
        if fenced:
            flush()
            out.append(line)
        else:
            prose.append(line)
    flush()
    return "\n".join(out)
