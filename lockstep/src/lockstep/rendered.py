"""Checks of a built page in a language written in Chinese script: what a reader sees, after
every generator and the theme have had their say, must not leave a raw citation key, join a
Chinese list with ASCII punctuation, or show an English word of the theme's or the exports'.

The text checked is the page's visible text and the texts of its `title`, `aria-label`,
`placeholder` and `alt` attributes; code, formulas, scripts and styles are left out, and so is
anything marked as another language (`lang="en"`: titles of English works, glosses).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from lockstep.cjk import IDEOGRAPH

SKIPPED = {"code", "pre", "script", "style", "kbd", "samp", "mjx-container", "math"}
# Skipped elements that never nest in themselves, cut out before parsing: a drawn formula is
# hundreds of SVG tags, and parsing them was most of the check's time.
CUT = re.compile(r"<(mjx-container|pre|script|style)\b.*?</\1>", re.S)
ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
CHECKS = [
    (re.compile(r"\[@|(?<![\w.@/])@[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*"), "a citation left raw: "
     "cite a key the bibliography has, as [@key, locator]"),
    (re.compile(rf"[{IDEOGRAPH}）」』”][,;]|[,;]\s*[{IDEOGRAPH}（「『“]"),
     "ASCII , or ; joins Chinese text: use ，、 or ；"),
]  # fmt: skip
# What a theme, a notebook template or an export writes in English when left alone, and where
# to change it when the place is not obvious.
ENGLISH_UI = dict.fromkeys((
    "Permanent link", "Copy to Clipboard", "Copy to clipboard", "Copied!",
    "In [", "Out[", "Back to top", "Skip to content", "Table of contents",
    "GitHub repository", "technical report", "arXiv preprint", "blog post", " authors", " Team",
), "translate it where it is made (theme language, bibliography)") | {
    "Made with": "Material's footer credit has no translation: set extra.generator: false",
}  # fmt: skip


class _Text(HTMLParser):
    """The texts of a page a reader of its language sees."""

    def __init__(self, lang: str):
        super().__init__(convert_charrefs=True)
        self.lang, self.stack, self.texts = lang, [], []

    def _hidden(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        values = dict(attrs)
        other = values.get("lang") not in (None, self.lang)
        if not self._hidden() and not other:
            self.texts += [values[a] for a in ATTRIBUTES if values.get(a)]
        if tag not in VOID:
            self.stack.append((tag, tag in SKIPPED or other))

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        values = dict(attrs)
        if not self._hidden() and values.get("lang") in (None, self.lang):
            self.texts += [values[a] for a in ATTRIBUTES if values.get(a)]

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):  # tolerate unclosed inner elements
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if not self._hidden() and data.strip():
            self.texts.append(data)


def visible_texts(html: str, lang: str) -> list[str]:
    """The page's texts in `lang` (body only): text nodes and the attributes readers get."""
    body = CUT.sub(" ", html.split("<body", 1)[-1])
    parser = _Text(lang)
    parser.feed(body)
    return parser.texts


def problems(html: str, lang: str) -> list[str]:
    """One line per slip in a built Chinese page: the text around it, and what to do."""
    found = []
    for text in visible_texts(html, lang):
        text = " ".join(text.split())
        for pattern, advice in CHECKS:
            for m in pattern.finditer(text):
                found.append(f"“{_around(text, m.start(), m.end())}”: {advice}")
        for word, advice in ENGLISH_UI.items():
            if word in text:
                at = text.index(word)
                found.append(
                    f"“{_around(text, at, at + len(word))}”: English {word.strip()!r} on a "
                    f"{lang} page: {advice}"
                )
    return found


def _around(text: str, start: int, end: int, width: int = 12) -> str:
    """The match with a little context on either side."""
    return text[max(0, start - width) : end + width]
