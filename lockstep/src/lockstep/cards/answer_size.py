"""How long a one-sentence answer is when said aloud: words in English, characters in Chinese.

A formula counts as one word (or character) per four symbols it shows, so a formula cannot
smuggle a second sentence into an answer: `$\\operatorname{Var}(q\\cdot k)=d_k$` shows the 11
symbols V a r ( q · k ) = d k and counts 3. TeX commands that only set a font (`\\mathrm{..}`,
`\\operatorname{..}`) show nothing themselves; any other command (`\\cdot`, `\\sqrt`) shows
one symbol. In Chinese text each Han character counts 1 and so does each Latin word or number
(`softmax`, `one-hot`, `0.5`); punctuation counts nothing.
"""

from __future__ import annotations

import math
import re

from lockstep.cjk import IDEOGRAPH
from lockstep.markup import LINK, MATH

FONT = re.compile(r"\\(?:operatorname|math[a-z]+|text[a-z]*|boldsymbol|left|right)\b")
COMMAND = re.compile(r"\\(?:[A-Za-z]+|.)")
SILENT = set("{}_^ \t\n&")  # grouping, sub- and superscript marks, spacing
HAN = re.compile(f"[{IDEOGRAPH}]")
LATIN_WORD = re.compile(r"[A-Za-z0-9µμ√±×·∞′ʹ]+(?:[-.'’/][A-Za-z0-9]+)*")
SYMBOLS_PER_WORD = 4


def formula_symbols(tex: str) -> int:
    """The symbols a TeX formula shows: letters, digits, operators, one per command."""
    tex = FONT.sub("", tex)
    commands = len(COMMAND.findall(tex))
    return commands + sum(ch not in SILENT for ch in COMMAND.sub("", tex))


def formulas(text: str) -> list[str]:
    """The TeX of every `$...$` and `$$...$$` formula in `text`."""
    return [m["display"] or m["inline"] for m in MATH.finditer(text)]


def answer_size(text: str, chinese: bool) -> int:
    """The answer's length: English words or Chinese characters, formulas included."""
    prose = LINK.sub(lambda m: m["text"], text)  # a link counts as its text
    prose = re.sub(r"\[@[^\]]*\]|@[\w-]+", " ", prose)  # citations are not spoken
    spoken = sum(math.ceil(formula_symbols(t) / SYMBOLS_PER_WORD) for t in formulas(prose))
    prose = MATH.sub(" ", prose).replace("`", "").replace("*", "")
    if chinese:
        return spoken + len(HAN.findall(prose)) + len(LATIN_WORD.findall(HAN.sub(" ", prose)))
    return spoken + len(LATIN_WORD.findall(prose))
