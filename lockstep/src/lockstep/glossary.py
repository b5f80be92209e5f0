"""The glossary: one rendering of every term per language, a definition in each, and the
variants that must not be used. A site writes it once, in YAML:

    soft-capping:
      en: soft-capping
      zh: 软封顶
      avoid: {zh: [软截断]}            # renderings the pages must not use
      why: {zh: ...}                   # why this rendering, for the glossary page
      define: {en: "...", zh: "..."}   # one line each
      not_in: {en: [...]}              # phrases where the word means something else

An avoided variant may name its own replacement (`avoid: {zh: {参考内核: 参考实现}}`), when the
term's rendering is not what to write instead; a variant that holds a formula (`温度 $g$`)
is matched with the page's formulas in place. `hover: false` keeps a term's definition off
the pages (a word too common to explain on every page) while its variants are still checked.

It gives a glossary page per language, a hover definition on the first use of each term on
every page (an <abbr> element, which Material shows as a tooltip), and the check that no page
uses an avoided rendering. The English term in brackets right after the Chinese one, as in
雅可比矩阵（Jacobian）, is a gloss, not a use of an avoided variant.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from pathlib import Path

from lockstep import yaml_data
from lockstep.fences import line_states
from lockstep.markup import HEADING, NOT_PROSE, prose_spans
from lockstep.tables import markdown_table

NOT_USED = {"zh": "不用{}。", "en": "Not {}."}
QUOTE = {"zh": "“{}”", "en": "“{}”"}
TABLE_HEADERS = {
    "zh": ("术语", "英文", "定义", "不用的译法与理由"),
    "en": ("Term", "Chinese", "Definition", "Not used, and why"),
}
# Where no definition goes: whatever is not prose, and link texts and citations too (a hover
# inside a link or a quoted section title would be a link inside a link, or misread).
# Nor inside HTML elements whose content is text only: a dropdown's options, an SVG's titles
# and labels.
TEXT_ONLY = r"<(option|title|text|tspan|textarea)\b[^>]*>.*?</\1>"
NO_HOVER = re.compile(rf"{TEXT_ONLY}|\[@[^\]]*\]|\[[^\]]*\]\([^)]*\)|{NOT_PROSE.pattern}")
# Lines whose text is an attribute, not prose: admonition and tab titles.
TITLE_LINE = re.compile(r"^\s*(?:!!!|\?\?\?\+?|===)\s")


@dataclass(frozen=True)
class Term:
    """One glossary entry."""

    key: str
    names: dict[str, str]  # lang -> the rendering
    avoid: dict[str, dict[str, str]]  # lang -> {rendering not to use: what to write instead}
    define: dict[str, str]  # lang -> one-line definition
    why: dict[str, str]  # lang -> why this rendering (optional)
    not_in: dict[str, tuple[str, ...]]  # lang -> phrases where the word means something else
    hover: bool = True  # whether pages show the definition on the term's first use


class Glossary:
    """The terms of a site."""

    def __init__(self, terms: dict[str, Term], path: Path | None = None):
        self.terms, self.path = terms, path

    @classmethod
    def load(cls, path: str | Path, languages: tuple[str, ...]) -> Glossary:
        """Read the YAML file; every term has a rendering and a definition in every language."""
        with open(path, encoding="utf-8") as fh:
            data = yaml_data.load(fh) or {}
        terms, problems = {}, []
        for key, entry in data.items():
            entry = entry or {}
            define = entry.get("define") or {}
            missing = [lang for lang in languages if not entry.get(lang)]
            missing += [f"define.{lang}" for lang in languages if not define.get(lang)]
            if missing:
                problems.append(f"{key} lacks {', '.join(missing)}")
                continue
            terms[key] = Term(
                key=key,
                names={lang: entry[lang] for lang in languages},
                avoid={
                    lang: _replacements(v, entry[lang])
                    for lang, v in (entry.get("avoid") or {}).items()
                },
                define={lang: define[lang] for lang in languages},
                why=dict(entry.get("why") or {}),
                not_in={lang: tuple(v) for lang, v in (entry.get("not_in") or {}).items()},
                hover=entry.get("hover", True),
            )
        glossary = cls(terms, Path(path))
        problems += glossary._clashes(languages)
        if problems:
            raise ValueError(f"{path}: glossary problems:\n  " + "\n  ".join(problems))
        return glossary

    def _clashes(self, languages: tuple[str, ...]) -> list[str]:
        """A rendering one term prescribes and another avoids: no page could satisfy both."""
        names = {(lang, t.names[lang]): t.key for t in self.terms.values() for lang in languages}
        return [
            f"{t.key} avoids {variant!r}, the {lang} rendering of {names[(lang, variant)]}"
            for t in self.terms.values()
            for lang, variants in t.avoid.items()
            for variant in variants
            if (lang, variant) in names
        ]

    def unused(self, pages: dict[str, dict[str, str]]) -> list[str]:
        """One line per term that no page of a language uses (`pages`: lang -> page -> text)."""
        problems = []
        for lang, texts in pages.items():
            prose = "\n".join(texts.values())
            problems += [
                f"{self.path}: {t.key} ({t.names[lang]!r}) is used by no {lang} page: use it or "
                "remove it"
                for t in self.terms.values()
                if t.names[lang] not in prose
            ]
        return problems

    def avoided(self, text: str, lang: str) -> list[tuple[int, str, str]]:
        """(line number, variant used, what to write instead) for every avoided rendering in
        the prose of a page."""
        glosses = [
            f"{t.names[lang]}（{t.names['en']}）" for t in self.terms.values() if "en" in t.names
        ]
        found = []
        for number, (line, fenced) in enumerate(line_states(text), start=1):
            if fenced or TITLE_LINE.match(line):
                continue
            prose = " ".join(piece for piece, is_prose in prose_spans(line) if is_prose)
            with_math = "".join(
                piece if is_prose or piece[0] == "$" else " "
                for piece, is_prose in prose_spans(line)
            )
            for gloss in glosses:
                prose, with_math = prose.replace(gloss, " "), with_math.replace(gloss, " ")
            for term in self.terms.values():
                for variant, instead in term.avoid.get(lang, {}).items():
                    where = with_math if "$" in variant else prose
                    if _term_pattern(variant, exact=True).search(where):
                        found.append((number, variant, instead))
        return found

    def with_definitions(self, text: str, lang: str) -> str:
        """The page with the first use of each term in its prose marked as an abbreviation
        whose title is the definition (headings, titles, code, math and links left alone)."""
        todo = {
            t.names[lang]: (t.define[lang], t.not_in.get(lang, ()))
            for t in self.terms.values()
            if t.hover
        }
        out = []
        for line, fenced in line_states(text):
            if todo and not fenced and not HEADING.match(line) and not TITLE_LINE.match(line):
                line = _outside(NO_HOVER, line, lambda piece: _mark_first_uses(piece, todo))
            out.append(line)
        return "\n".join(out) + ("\n" if text.endswith("\n") else "")

    def page_table(self, lang: str, other: str) -> str:
        """The glossary page's table in `lang`: the term, its rendering in `other`, the
        definition, and the renderings not used, with why."""
        rows = []
        for t in sorted(self.terms.values(), key=lambda t: t.names["en"].lower()):
            # Quoted: an avoided form may differ from the term by a space only.
            quoted = [QUOTE[lang].format(v) for v in t.avoid.get(lang, {})]
            avoided = ("、" if lang == "zh" else ", ").join(quoted)
            parts = (avoided and NOT_USED[lang].format(avoided), t.why.get(lang, ""))
            note = ("" if lang == "zh" else " ").join(x for x in parts if x)
            # The other language's name is marked as such (WCAG 3.1.2), for screen readers.
            rendering = f'<span lang="{other}">{t.names[other]}</span>'
            rows.append([t.names[lang], rendering, t.define[lang], note])
        return markdown_table(TABLE_HEADERS.get(lang, TABLE_HEADERS["en"]), rows)


def _replacements(variants: list | dict, rendering: str) -> dict[str, str]:
    """An `avoid:` list or mapping as {variant: what to write instead}."""
    if isinstance(variants, dict):
        return {str(k): str(v) for k, v in variants.items()}
    return {str(v): rendering for v in variants}


def _outside(skip: re.Pattern, line: str, change) -> str:
    """`line` with change() applied to the pieces between matches of `skip`."""
    out, last = [], 0
    for m in skip.finditer(line):
        out += [change(line[last : m.start()]), m[0]]
        last = m.end()
    return "".join(out) + change(line[last:])


def _mark_first_uses(piece: str, todo: dict[str, tuple[str, tuple[str, ...]]]) -> str:
    """Mark the first use of each pending term in one piece of prose (and drop it from `todo`);
    a marked term is not searched again for shorter terms, nor a phrase the term lists as
    meaning something else ("kernel method" is not a kernel)."""
    lowered = piece.lower()  # a term matches only where its lower case is in the piece
    found = [name for name in todo if name.lower() in lowered]
    if not found:  # most pieces: no term at all
        return piece
    segments = [(piece, True)]  # (text, may still be marked)
    for name in sorted(found, key=len, reverse=True):  # longer terms first
        pattern, (definition, not_in) = _term_pattern(name), todo[name]
        for i, (text, open_) in enumerate(segments):
            masked = text
            for phrase in not_in:
                masked = re.sub(re.escape(phrase), lambda m: "\0" * len(m[0]), masked, flags=re.I)
            m = pattern.search(masked) if open_ else None
            if m:
                del todo[name]
                # "|" would end a table cell even inside an attribute.
                title = html.escape(definition, quote=True).replace("|", "&#124;")
                marked = f'<abbr title="{title}">{m[0]}</abbr>'
                segments[i : i + 1] = [
                    (text[: m.start()], True),
                    (marked, False),
                    (text[m.end() :], True),
                ]
                break
    return "".join(text for text, _ in segments)


@functools.cache  # called for every term on every line: compile each once
def _term_pattern(name: str, exact: bool = False) -> re.Pattern:
    """A term as written; where it starts or ends in Latin script, not inside a longer word
    (a capital first letter allowed unless `exact`). Chinese has no spaces to check."""
    body = re.escape(name)
    if not exact and name[0].isascii() and name[0].isalpha():
        body = f"[{name[0].lower()}{name[0].upper()}]{re.escape(name[1:])}"
    before = r"(?<![A-Za-z0-9_-])" if name[0].isascii() and name[0].isalnum() else ""
    after = r"(?![A-Za-z0-9_-])" if name[-1].isascii() and name[-1].isalnum() else ""
    return re.compile(before + body + after)
