"""Chinese punctuation in Chinese prose: “” for quotation marks, full-width marks next to
Chinese characters. Code, math, link targets, HTML and the titles of admonitions and tabs
(whose quotes are Markdown syntax) are not prose and are left alone."""

from __future__ import annotations

import re

from lockstep.citations import group
from lockstep.citations import in_prose as citations_in
from lockstep.cjk import IDEOGRAPH
from lockstep.fences import line_states
from lockstep.frontmatter import split_front_matter
from lockstep.glossary import TITLE_LINE
from lockstep.markup import prose_spans

HAN = f"[{IDEOGRAPH}]"
RULES = [
    (re.compile(r'"'), "ASCII quotation mark: use “ and ”"),
    (
        re.compile(rf"{HAN}[,;:?!]|[,;:?!]{HAN}"),
        "half-width punctuation next to Chinese: use ，；：？！",
    ),
    (re.compile(rf"{HAN}\.(?![A-Za-z0-9_.])"), "a full stop after Chinese is 。"),
    (re.compile(rf"{HAN}[()]|[()]{HAN}"), "half-width bracket next to Chinese: use （ and ）"),
    (re.compile(r"[，。；：？！、]\**\s+(?=\S)"), "no space after full-width punctuation"),
    (
        # "缩小 3 倍" reads as a growth by (1 + 3)×, or is ambiguous: 倍 measures increases.
        re.compile(
            r"(?:缩小|减少|降低|下降|减小|缩减|(?<![至多不稀])少)[^，。；：？！、\n]{0,12}?倍"
        ),
        "倍 after a verb of decrease: write 降到原来的 1/X, or 减少 Y%",
    ),
    (
        # Chinese groups large numbers by ten thousand: "65 千" is an English "65k" word by word.
        re.compile(r"\d{2,}(?:\.\d+)?\s*千"),
        "tens of 千: count in 万 (6.5 万), or write the digits",
    ),
]


# A locator is printed as written, inside the Chinese citation's ，-joined parts: "`a.py`, `f`"
# would join them with ASCII punctuation between two code spans, where RULES see no Chinese.
LOCATOR_JOIN = "ASCII , or ; in a citation's locator: join its parts with 、 or write a 中的 b"


def chinese_problems(text: str) -> list[tuple[int, str, str]]:
    """(line number, the offending text, what to use) for each punctuation slip in the prose."""
    _, body = split_front_matter(text)
    offset = text[: len(text) - len(body)].count("\n")
    found = []
    for number, (line, fenced) in enumerate(line_states(body), start=1 + offset):
        if fenced or TITLE_LINE.match(line):
            continue
        on_line, offset = [], 0
        for piece, prose in prose_spans(line):
            if prose:
                on_line += [
                    (offset + m.start(), m[0], advice)
                    for rule, advice in RULES
                    for m in rule.finditer(piece)
                ]
            offset += len(piece)
        on_line += [
            (m.start(), locator, LOCATOR_JOIN)
            for m in citations_in(line)
            for _, locator in group(m)
            if locator and re.search(r"[,;]\s", re.sub(r"`[^`]*`", "", locator))  # code aside
        ]
        found += [(number, text, advice) for _, text, advice in sorted(on_line)]
    return found
