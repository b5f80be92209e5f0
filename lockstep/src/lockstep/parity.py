"""Two languages, one content: what must be identical between a page and its translation.

Translations may reword prose and code comments only. Code (comments and blank lines aside,
indentation included), checked outputs, figures (each in its own language), computed
placeholders, the cited works, the multiset of numbers in prose and the heading structure
must match; a notebook's code cells must match and its markdown cells must have the same
headings and numbers.
"""

from __future__ import annotations

import difflib
import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass

from lockstep import fences, placeholders
from lockstep.citations import cited
from lockstep.frontmatter import split_front_matter
from lockstep.markup import headings
from lockstep.numbers import prose_numbers


def strip_comments(code: str) -> str:
    """Python source without comments or blank lines; indentation kept."""
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(code + "\n").readline)
        if t.type != tokenize.COMMENT
    ]
    return "\n".join(
        line.rstrip() for line in tokenize.untokenize(tokens).splitlines() if line.strip()
    )


@dataclass(frozen=True)
class Block:
    """A fence as parity compares it: its language, its code (comments aside) and its line."""

    lang: str
    code: str
    lineno: int


def blocks(text: str) -> list[Block]:
    """Every fence of a page, python without its comments, the rest as written."""
    body = split_front_matter(text)[1]
    offset = text[: len(text) - len(body)].count("\n")
    out = []
    for f in fences.scan(body):
        code = strip_comments(f.code) if f.lang == "python" else f.code.rstrip()
        out.append(Block(f.lang, code, f.lineno + offset))
    return out


def block_problems(a: str, b: str, langs: tuple[str, str]) -> list[str]:
    """Each fence that differs between a page and its translation: which one, where in each
    page, and a diff of the two."""
    ba, bb = blocks(a), blocks(b)
    if len(ba) != len(bb):
        return [f"{langs[0]} has {len(ba)} code blocks, {langs[1]} has {len(bb)}"]
    problems = []
    for n, (x, y) in enumerate(zip(ba, bb, strict=True), start=1):
        if (x.lang, x.code) == (y.lang, y.code):
            continue
        diff = difflib.unified_diff(
            f"```{x.lang}\n{x.code}".splitlines(keepends=True),
            f"```{y.lang}\n{y.code}".splitlines(keepends=True),
            f"{langs[0]} line {x.lineno}",
            f"{langs[1]} line {y.lineno}",
        )
        problems.append(
            f"code block {n} differs ({langs[0]} line {x.lineno}, {langs[1]} line {y.lineno}; "
            f"comments aside):\n"
            + "".join(line if line.endswith("\n") else line + "\n" for line in diff)
        )
    return problems


def heading_levels(text: str) -> list[int]:
    """Levels of the page's headings (outside fences), in order."""
    return [level for _, level, _ in headings(text)]


def figures(text: str, dest: str) -> list[tuple[str, str]]:
    """(figure, language) of every figure a page shows from `dest`."""
    return re.findall(rf"{re.escape(dest)}/([\w-]+)\.(\w+)\.svg", text)


def page_problems(a: str, b: str, langs: tuple[str, str], figures_dest: str) -> list[str]:
    """What differs between page text `a` (language langs[0]) and its translation `b`."""
    p = block_problems(a, b, langs)
    if heading_levels(a) != heading_levels(b):
        p.append(f"heading levels differ: {heading_levels(a)} vs {heading_levels(b)}")
    for lang, text in zip(langs, (a, b), strict=True):
        wrong = [f"{n}.{lg}.svg" for n, lg in figures(text, figures_dest) if lg != lang]
        if wrong:
            p.append(f"the {lang} page shows another language's figure: {wrong}")
    fa, fb = ([n for n, _ in figures(t, figures_dest)] for t in (a, b))
    if fa != fb:
        p.append(f"figures differ: {fa} vs {fb}")
    if placeholders.names(a) != placeholders.names(b):
        p.append(f"computed values differ: {placeholders.names(a)} vs {placeholders.names(b)}")
    ca, cb = cited(a), cited(b)
    if set(ca) != set(cb):
        p.append(
            f"cited works differ: {langs[0]} only {sorted(set(ca) - set(cb))}, "
            f"{langs[1]} only {sorted(set(cb) - set(ca))}"
        )
    na, nb = Counter(prose_numbers(a)), Counter(prose_numbers(b))
    if na != nb:
        p.append(
            f"numbers in prose differ: {langs[0]} has extra {dict(na - nb)}, "
            f"{langs[1]} has extra {dict(nb - na)}"
        )
    return p


def notebook_cells(text: str, cell_type: str) -> list[str]:
    """The sources of a percent-format notebook's cells of one type, in order."""
    import jupytext

    notebook = jupytext.reads(text, fmt="py:percent")
    return [c.source for c in notebook.cells if c.cell_type == cell_type]


def notebook_problems(a: str, b: str) -> list[str]:
    """What differs between a notebook and its translation."""
    p = []
    code_a, code_b = ([strip_comments(c) for c in notebook_cells(t, "code")] for t in (a, b))
    if len(code_a) != len(code_b):
        p.append(f"code cells differ in number: {len(code_a)} vs {len(code_b)}")
    for n, (x, y) in enumerate(zip(code_a, code_b, strict=False), start=1):
        if x != y:
            diff = difflib.unified_diff(x.splitlines(), y.splitlines(), "one", "other", lineterm="")
            p.append(f"code cell {n} differs (comments aside):\n" + "\n".join(diff))
    md_a, md_b = ("\n\n".join(notebook_cells(t, "markdown")) for t in (a, b))
    if heading_levels(md_a) != heading_levels(md_b):
        p.append("markdown headings differ")
    if Counter(prose_numbers(md_a)) != Counter(prose_numbers(md_b)):
        p.append("numbers in markdown cells differ")
    return p
