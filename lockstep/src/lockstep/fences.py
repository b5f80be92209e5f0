"""The one fence scanner: where fenced code blocks open and close in a Markdown page.

The rule is CommonMark's, as SuperFences applies it: a fence opens with three or more
backticks or tildes, indented or not (fences nest in tabs and admonitions), and closes with a
line that holds nothing but the same character, at least as many times. A fence left open
runs to the end of the page. Every part of the generator that needs to know "is this line
code?" asks this module.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

OPENING = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*?)\s*$")
# A pytest-codeblocks marker, e.g. <!--pytest-codeblocks:expected-output-->
MARKER = re.compile(r"^\s*<!--\s*pytest-codeblocks:\s*(?P<kw>[a-z]+(?:-[a-z]+)*)")
MARKER_LINE = re.compile(r"^\s*<!--\s*pytest-codeblocks:[^>]*-->\s*$")


@dataclass(frozen=True)
class Fence:
    """A fenced block as written in the page."""

    start: int  # index of the opening line
    end: int  # index of the closing line; len(lines) if the fence never closes
    indent: str
    fence: str  # the opening run, e.g. ``` or ~~~~
    info: str  # what follows the opening run: language and attributes
    body: tuple[str, ...]  # the lines in between, as written
    marker: str | None  # the pytest-codeblocks marker right above it, if any

    @property
    def lineno(self) -> int:
        """1-based line number of the opening fence."""
        return self.start + 1

    @property
    def lang(self) -> str:
        """The language the fence declares ('' for none); `{.python}` counts as python."""
        return self.info.split()[0].lstrip("{.").rstrip("}") if self.info else ""

    @property
    def code(self) -> str:
        """The body with the fence's own indentation removed."""
        n = len(self.indent)
        return "\n".join(line[n:] if line[:n].isspace() else line.lstrip() for line in self.body)


def _opens(line: str) -> re.Match | None:
    m = OPENING.match(line)
    # A backtick fence's info string may not hold a backtick: ```x``` is inline code.
    if m and m["fence"][0] == "`" and "`" in m["info"]:
        return None
    return m


def closes(line: str, fence: str) -> bool:
    """Whether `line` closes a fence opened with `fence`."""
    s = line.strip()
    return len(s) >= len(fence) and set(s) == {fence[0]}


def scan(text: str) -> list[Fence]:
    """Every fence of a page, in order."""
    lines = text.splitlines()
    fences, marker, i = [], None, 0
    while i < len(lines):
        m = _opens(lines[i])
        if m is None:
            kw = MARKER.match(lines[i])
            if kw:
                marker = kw["kw"]
            elif lines[i].strip():
                marker = None
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not closes(lines[j], m["fence"]):
            j += 1
        fences.append(
            Fence(i, j, m["indent"], m["fence"], m["info"], tuple(lines[i + 1 : j]), marker)
        )
        marker, i = None, j + 1
    return fences


@functools.lru_cache(maxsize=512)  # a page's checks each walk its lines: about 40 per page
def line_states(text: str) -> tuple[tuple[str, bool], ...]:
    """Each line of `text` with whether it belongs to a fence (opening and closing included)."""
    lines = text.splitlines()
    fenced = [False] * len(lines)
    for f in scan(text):
        for k in range(f.start, min(f.end + 1, len(lines))):
            fenced[k] = True
    return tuple(zip(lines, fenced, strict=True))


def prose(text: str) -> str:
    """The page without its fences: what a reader reads as text."""
    return "\n".join(line for line, fenced in line_states(text) if not fenced)


def without_markers(text: str) -> str:
    """The page without its pytest-codeblocks marker lines, which are for the tests only.
    Indented in a tab or an admonition, Markdown would wrap a marker and the block after it
    in a paragraph (invalid HTML)."""
    kept = [line for line, fenced in line_states(text) if fenced or not MARKER_LINE.match(line)]
    return "\n".join(kept) + ("\n" if text.endswith("\n") else "")
