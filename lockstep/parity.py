"""Two languages, one content: what must be identical between a page and its translation.

Translations may reword prose and code comments only. Code (after stripping comments),
checked outputs, figures (each in its own language), computed placeholders, the cited works,
the multiset of numbers in prose and the heading structure must match; a notebook's code
cells must match and its markdown cells must have the same headings and numbers.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter

from lockstep import fences, placeholders
from lockstep.citations import cited
from lockstep.frontmatter import split_front_matter
from lockstep.markup import headings
from lockstep.numbers import prose_numbers


def strip_comments(code: str) -> str:
    """Python source without comments or blank lines."""
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(code + "\n").readline)
        if t.type != tokenize.COMMENT
    ]
    return "\n".join(
        line.rstrip() for line in tokenize.untokenize(tokens).splitlines() if line.strip()
    )


def _blocks(text: str) -> list[tuple[str, str]]:
    out = []
    for f in fences.scan(split_front_matter(text)[1]):
        body = "\n".join(line.strip() for line in f.code.splitlines())
        out.append((f.lang, strip_comments(body) if f.lang == "python" else body))
    return out


def heading_levels(text: str) -> list[int]:
    """Levels of the page's headings (outside fences), in order."""
    return [level for _, level, _ in headings(text)]


def figures(text: str, dest: str) -> list[tuple[str, str]]:
    """(figure, language) of every figure a page shows from `dest`."""
    return re.findall(rf"{re.escape(dest)}/([\w-]+)\.(\w+)\.svg", text)


def page_problems(a: str, b: str, langs: tuple[str, str], figures_dest: str) -> list[str]:
    """What differs between page text `a` (language langs[0]) and its translation `b`."""
    p = []
    if _blocks(a) != _blocks(b):
        p.append("code blocks or checked outputs differ (comments aside)")
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
    if code_a != code_b:
        p.append("code cells differ (comments aside)")
    md_a, md_b = ("\n\n".join(notebook_cells(t, "markdown")) for t in (a, b))
    if heading_levels(md_a) != heading_levels(md_b):
        p.append("markdown headings differ")
    if Counter(prose_numbers(md_a)) != Counter(prose_numbers(md_b)):
        p.append("numbers in markdown cells differ")
    return p
