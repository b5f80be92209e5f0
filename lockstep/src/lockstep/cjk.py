"""Chinese prose wraps in the source; browsers would render each line break as a space.

A break is joined without a space where Chinese typography has none: between two Chinese
characters, and on either side of full-width punctuation (，。：“”——…). A break between a
Chinese character and Latin text or math is left alone: it renders as the space that
separates them anyway ("使用 softmax").
"""

from __future__ import annotations

import functools
import re

from lockstep.fences import line_states

# A Chinese character: CJK Unified Ideographs, Extension A and the compatibility block. The
# one definition lockstep uses (punctuation, line joining, answer sizes, citations).
IDEOGRAPH = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Full-width and CJK punctuation, plus the quotation marks, dash and ellipsis Chinese uses.
PUNCTUATION = r"\u3000-\u303f\uff00-\uffef\u2014\u2018-\u201d\u2026"
CJK = re.compile(rf"[{IDEOGRAPH}{PUNCTUATION}]")
ENDS_IN_PUNCTUATION = re.compile(rf"[{PUNCTUATION}]$")
ENDS_IN_IDEOGRAPH = re.compile(rf"[{IDEOGRAPH}]$")
STARTS_CJK = re.compile(rf"[{IDEOGRAPH}{PUNCTUATION}]")
STARTS_WITH_PUNCTUATION = re.compile(rf"[{PUNCTUATION}]")
# What may continue a paragraph after full-width punctuation: words, inline math or code,
# a link, emphasis. Not a list item, a table row, display math, a fence or an HTML block.
CONTINUES = re.compile(
    rf"[{IDEOGRAPH}{PUNCTUATION}A-Za-z]|\$(?!\$)|`(?!``)|\d(?!\d*\.\s)|\[(?!\^)|\*\*?(?!\s)"
)


def join_cjk_lines(markdown: str) -> str:
    """Join the wrapped lines of Chinese prose where the break would render as a stray space."""
    out: list[str] = []
    previous_fenced = True  # nothing to join with before the first line
    for line, fenced in line_states(markdown):
        stripped = line.lstrip()
        if (
            not fenced
            and not previous_fenced
            and stripped
            and out[-1]
            and _joins(out[-1], stripped)
        ):
            out[-1] += stripped
        else:
            out.append(line)
        previous_fenced = fenced
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")


# Markup at the end of a line that the reader does not see: a link's target and attributes,
# emphasis. "[附录](a.md)" ends, for the reader, in 录.
TRAILING_MARKUP = re.compile(r"(?:\]\([^)]*\)(?:\{[^}]*\})?|[*_]+)$")


def _joins(previous: str, following: str) -> bool:
    """Whether a break between these two lines must not render as a space."""
    if previous.lstrip().startswith(("#", "|")):  # a heading or a table row ends at its line
        return False
    previous = TRAILING_MARKUP.sub("", previous)
    if ENDS_IN_PUNCTUATION.search(previous):
        return bool(CONTINUES.match(following))
    if ENDS_IN_IDEOGRAPH.search(previous):
        # A link or emphasis counts by its first word: "见\n[附录](x.md)" joins.
        return bool(STARTS_CJK.match(following.lstrip("[*_")))
    # Latin text or math, then full-width punctuation: "$m$（8 个头".
    return bool(STARTS_WITH_PUNCTUATION.match(following))


PRE = re.compile(r"(<pre[\s>].*?</pre>)", re.S)
HTML_BREAK = re.compile(rf"(?<=[{IDEOGRAPH}{PUNCTUATION}])\n(?=[{IDEOGRAPH}{PUNCTUATION}])")


def join_cjk_html(html: str) -> str:
    """The same for HTML rendered elsewhere (a notebook's Markdown cells): drop a line break
    between two Chinese characters or punctuation marks, outside <pre>."""
    parts = PRE.split(html)
    return "".join(p if i % 2 else HTML_BREAK.sub("", p) for i, p in enumerate(parts))


@functools.lru_cache(maxsize=4096)  # titles are sorted by it in every build
def reading(text: str) -> str:
    """A sort key that orders Chinese by its pinyin reading (as dictionaries do) and Latin
    text alphabetically, case aside: 分块 < 归一化 < 掩码, softmax < Triton."""
    try:
        from pypinyin import lazy_pinyin
    except ImportError:  # without the reading, code point order: lockstep's [cjk] extra has it
        return text.casefold()
    return " ".join(lazy_pinyin(text)).casefold()
