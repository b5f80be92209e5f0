"""Citations: every work written once, in a bibliography; pages cite it by key, with a locator.

A page writes `[@vaswani2017, §3.2.1 footnote 4]` for a parenthetical citation (several works
in one bracket: `[@a, §1; @b, §2]`), or `@vaswani2017` (or `@vaswani2017 [§3.2.1]`) where the
authors are part of the sentence. The
build renders author and year from the bibliography, in the page's language, links them to
the page's list of references and appends that list. So a year, a venue or a spelling lives
in one place. The bibliography is YAML, one entry per key:

    vaswani2017:
      authors: Vaswani, Ashish; Shazeer, Noam; ...   # "Family, Given; ..." in order
      title: Attention Is All You Need
      venue: NeurIPS
      year: 2017
      url: https://arxiv.org/abs/1706.03762
      checked: §3.2.1 and its footnote 4              # what was read, for reports and code

`checked` is in the bibliography's language (English), or one note per language
(`checked: {en: ..., zh: ...}`); a page of a language without its own note shows the English
one, marked as English.

Titles are listed as published. Words of the bibliography's own, a group author's ("PyTorch
authors") or a kind of venue ("technical report"), get their renderings in the file's
`_translations` mapping (phrase -> {lang: rendering}), applied wherever a page of that
language names the authors or lists the venue.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from lockstep import yaml_data
from lockstep.cjk import IDEOGRAPH
from lockstep.errors import BuildError
from lockstep.fences import line_states
from lockstep.markup import HEADING, NOT_PROSE, prose_spans

KEY = r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*"
# [@key] or [@key, locator]: a parenthetical citation; @key in running text: the authors
# are part of the sentence.
# A locator may hold inline code or math; a citation must open and close on one line.
CITATION = re.compile(
    rf"(?P<lead> ?)\[@(?P<key>{KEY})(?:,\s*(?P<locator>[^\]@]+?))?"
    rf"(?P<more>(?:;\s*@{KEY}(?:,\s*[^\]@]+?)?)*)\]"
    rf"|(?<![\w@\[/.-])@(?P<narrative>{KEY})(?![\w-])"
    rf"(?: \[(?P<nlocator>[^\]@]+)\](?!\())?(?P<space> (?=[{IDEOGRAPH}]))?"
)
UNCLOSED = re.compile(rf"\[@{KEY}(?:,[^\]]*)?$")
REQUIRED = ("authors", "title", "venue", "year", "url")
MORE = re.compile(rf";\s*@(?P<key>{KEY})(?:,\s*(?P<locator>[^\]@;]+(?:;(?!\s*@)[^\]@;]*)*))?")
WORDS = {  # how a citation reads in each language
    "zh": {"et_al": " 等", "and": " 与 ", "sep": "，", "open": "（", "close": "）", "next": "；",
           "list": "、"},
    "en": {"et_al": " et al.", "and": " and ", "sep": ", ", "open": "(", "close": ")",
           "next": "; ", "list": ", "},
}  # fmt: skip
TRANSLATIONS = "_translations"  # the bibliography's own words, per language (not a work)
HEADINGS = {"zh": "参考文献", "en": "References"}
CITED_ON = {"zh": "——引用于：", "en": " — cited on: "}


@functools.lru_cache(maxsize=4096)  # every citation of a work names its authors again
def _translated(translations: tuple, text: str, lang: str) -> str:
    """`text` with `translations`' phrases in `lang` (whole words only)."""
    for phrase, renderings in translations:
        rendering = dict(renderings).get(lang)
        if rendering is not None:
            text = re.sub(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", rendering, text)
    return text


ENTRY_LANGUAGE = "en"  # references are listed as published: English titles and venues


@dataclass(frozen=True)
class Work:
    """One entry of the bibliography."""

    key: str
    authors: tuple[str, ...]  # "Family, Given"; "others" for the ones not listed
    title: str
    venue: str
    year: int
    url: str
    checked: str | dict[str, str] = ""  # one note, or {lang: note}
    suffix: str = ""  # "a", "b" when the same authors have two works in one year
    translations: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()  # phrase, {lang: ..}

    def translated(self, text: str, lang: str) -> str:
        """`text` with the bibliography's phrases in `lang` (whole words only)."""
        return _translated(self.translations, text, lang)

    @property
    def when(self) -> str:
        """The year as citations print it: 2024a, 2024b where it would be ambiguous."""
        return f"{self.year}{self.suffix}"

    def names(self, lang: str) -> str:
        """The authors as a sentence names them: one, two, or the first "et al."."""
        w = words(lang)
        family = [self.translated(a.split(",")[0].strip(), lang) for a in self.authors]
        if len(family) == 1:
            return family[0]
        if len(family) == 2 and family[1] != "others":
            return f"{family[0]}{w['and']}{family[1]}"
        return family[0] + w["et_al"]

    def full(self, lang: str = "en") -> str:
        """The reference as listed, in Markdown: authors, year, title, venue, link, and what
        was checked. In another language than the bibliography's, what stays in English (the
        title, a venue without a rendering, the note) is marked as English (WCAG 3.1.2)."""
        names = [
            "et al." if a == "others" else " ".join(reversed([p.strip() for p in a.split(",", 1)]))
            for a in self.authors
        ]
        authors = self.translated(", ".join(names), lang)
        english = (lambda t: t) if lang == ENTRY_LANGUAGE else _english
        kind, *note = re.split(r"[,;] ", self.venue, maxsplit=1)  # "technical report, arXiv:…"
        translated = self.translated(kind, lang)
        if translated == kind:  # nothing in this language: the venue as published
            venue = english(self.venue)
        else:
            venue = words(lang)["sep"].join([translated, *(english(n) for n in note)])
        text = f"{authors} ({self.when}). {english(f'*{self.title}*')}. {venue}. <{self.url}>"
        return text + (f" — {self.note(lang)}" if self.checked else "")

    @property
    def notes(self) -> dict[str, str]:
        """What was checked, by language (a single note is in the bibliography's language)."""
        return self.checked if isinstance(self.checked, dict) else {ENTRY_LANGUAGE: self.checked}

    def note(self, lang: str) -> str:
        """What was checked, in `lang` if the entry has it, else marked as English."""
        if lang in self.notes:
            return self.notes[lang]
        return _english(self.notes[ENTRY_LANGUAGE])


def _venue_note(venue: str) -> str | None:
    """A word of prose after a venue's kind or in its brackets ("; sections as numbered in",
    "(later …)"): only the kind has renderings, so a note there is English on every page."""
    _, *note = re.split(r"[,;] ", venue, maxsplit=1)
    rest = " ".join(note + re.findall(r"\(([^)]*)", venue))
    m = re.search(r"(?<![\w/:.#-])[a-z]{2,}(?:\s+[a-z]{2,})*(?![\w/:.#-])", rest)
    return m[0] if m else None


def _valid_note(checked: object) -> bool:
    """A note is text, or non-empty text per language with the bibliography's among them."""
    if isinstance(checked, dict):
        notes = checked.values()
        return ENTRY_LANGUAGE in checked and all(isinstance(n, str) and n for n in notes)
    return isinstance(checked, str)


def _english(text: str) -> str:
    """Text marked as English inside a page of another language."""
    return f'<span lang="{ENTRY_LANGUAGE}">{text}</span>'


def target(key: str, anchor: str = "ref") -> str:
    """The id of a work's entry in a list of references whose ids start with `anchor`."""
    return f"{anchor}-{key}"


def heading(lang: str) -> str:
    """The title of a list of references in `lang`."""
    return HEADINGS.get(lang, HEADINGS["en"])


def words(lang: str) -> dict[str, str]:
    """The words citations use in `lang` (English for a language without its own)."""
    return WORDS.get(lang, WORDS["en"])


def _disambiguated(works: dict[str, Work]) -> dict[str, Work]:
    """Works whose citations would read the same (authors and year) get a, b, ... by key."""
    same: dict[tuple[str, int], list[str]] = {}
    for key, work in sorted(works.items()):
        same.setdefault((work.names("en"), work.year), []).append(key)
    out = dict(works)
    for keys in same.values():
        if len(keys) > 1:
            for letter, key in zip("abcdefghij", keys, strict=False):
                out[key] = replace(works[key], suffix=letter)
    return out


class Bibliography:
    """The works a site cites, by key."""

    def __init__(self, works: dict[str, Work], path: Path | None = None):
        self.works, self.path = works, path

    @classmethod
    def load(cls, path: str | Path) -> Bibliography:
        """Read the YAML file; an entry without authors, title, venue, year or link is an error."""
        with open(path, encoding="utf-8") as fh:
            data = yaml_data.load(fh) or {}
        translations = tuple(
            (phrase, tuple(sorted(renderings.items())))
            for phrase, renderings in (data.pop(TRANSLATIONS, None) or {}).items()
        )
        problems, works = [], {}
        for key, entry in data.items():
            entry = entry or {}
            missing = [f for f in REQUIRED if not entry.get(f)]
            if not re.fullmatch(KEY, str(key)):
                problems.append(f"{key}: a key is lower-case letters, digits, - and _")
            elif missing:
                problems.append(f"{key} lacks {', '.join(missing)}")
            elif not re.fullmatch(r"https?://\S+", entry["url"]):
                problems.append(f"{key}: url is not a link: {entry['url']!r}")
            elif re.search(r"report|repository", entry["venue"]) and not entry.get("checked"):
                problems.append(f"{key}: a report or repository says what was read (checked:)")
            elif prose := _venue_note(entry["venue"]):
                problems.append(
                    f"{key}: the venue is a kind and identifiers; {prose!r} stays English on "
                    "every page: say it in checked:, which has a note per language"
                )
            elif not _valid_note(entry.get("checked", "")):
                problems.append(
                    f"{key}: checked: is one note, or a note per language with "
                    f"{ENTRY_LANGUAGE!r} among them: {entry['checked']!r}"
                )
            else:
                works[key] = Work(
                    key=key,
                    authors=tuple(a.strip() for a in entry["authors"].split(";")),
                    title=entry["title"],
                    venue=entry["venue"],
                    year=int(entry["year"]),
                    url=entry["url"],
                    checked=entry.get("checked", ""),
                    translations=translations,
                )
        if problems:
            raise ValueError(f"{path}: incomplete entries:\n  " + "\n  ".join(problems))
        return cls(_disambiguated(works), Path(path))

    def uncited(self, pages: dict[str, dict[str, str]]) -> list[str]:
        """One line per work that no page of a language cites (`pages`: lang -> page -> text)."""
        problems = []
        for lang, texts in pages.items():
            used = {key for text in texts.values() for key in cited(text)}
            problems += [
                f"{self.path}: {key} is cited by no {lang} page: cite it or remove it"
                for key in sorted(self.works.keys() - used)
            ]
        return problems

    def unknown(self, text: str) -> list[str]:
        """Keys a page cites that the bibliography does not have."""
        return [k for k in cited(text) if k not in self.works]

    def cite(self, key: str, locator: str | None, lang: str, narrative: bool) -> str:
        """One citation as text: "Vaswani et al. (2017, §3)" or "(Vaswani et al., 2017, §3)"."""
        work, w = self.works[key], words(lang)
        if narrative:
            inside = work.when + (f"{w['sep']}{locator.strip()}" if locator else "")
            space = " " if w["open"] == "(" else ""
            return f"{work.names(lang)}{space}{w['open']}{inside}{w['close']}"
        label = f"{work.names(lang)}{w['sep']}{work.when}"
        return label + (f"{w['sep']}{locator.strip()}" if locator else "")

    def render(
        self,
        text: str,
        lang: str,
        where: str = "a page",
        links: bool = True,
        compact=None,
        anchor: str = "ref",
        order: list[str] | None = None,
    ) -> str:
        """The page with its citations written out; with `links`, each links to the page's
        list of references, which is appended. Under a heading for which `compact(heading)`
        is true, a parenthetical citation is a numbered marker, [3], linked to its entry.

        A part of a page that lists its own references (a practice card) passes `anchor`, the
        prefix of its entries' ids, and `order`, the keys as it numbers them: its citations
        link there and nothing is appended."""
        missing, split = self.unknown(text), unclosed(text)
        if split:
            raise BuildError(f"{where}: a citation is split across lines at line(s) {split}")
        if missing:
            raise BuildError(
                f"{where} cites {missing}, which {self.path or 'the bibliography'} lacks: add "
                "the work there, or fix the key"
            )
        keys = cited(text)
        if not keys:
            return text
        numbered = order or keys
        w = words(lang)

        def linked(label: str, key: str) -> str:
            return f"[{label}](#{target(key, anchor)}){{ .citation }}" if links else label

        def write(m: re.Match, short: bool) -> str:
            if short and not m["narrative"]:
                numbers = [linked(f"{numbered.index(key) + 1}", key) for key, _ in group(m)]
                return f"{m['lead']}[{', '.join(numbers)}]"
            if m["narrative"]:
                key = m["narrative"]
                # "Xiao 等（2024）观察到": no space after a full-width bracket.
                space = (m["space"] or "") if w["close"] == ")" else ""
                return linked(self.cite(key, m["nlocator"], lang, narrative=True), key) + space
            lead = m["lead"] if w["open"] == "(" else ""  # "见（…）": no space before "（"
            labels = [
                linked(self.cite(key, locator, lang, narrative=False), key)
                for key, locator in group(m)
            ]
            return f"{lead}{w['open']}{w['next'].join(labels)}{w['close']}"

        lines, heading = [], None
        for line, fenced in line_states(text):
            title = None if fenced else HEADING.match(line)
            if title:
                heading = title["text"]
            short = bool(compact and compact(heading))
            for m in reversed(list(in_prose(line)) if not fenced else []):
                line = line[: m.start()] + write(m, short) + line[m.end() :]
            lines.append(line)
        out = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
        if not links or order is not None:
            return out
        return out + "\n" + self.listing(keys, lang)

    def listing(self, keys: list[str], lang: str) -> str:
        """The "References" section of a page: the works `keys` names, in that order."""
        items = "\n".join(f'1. <span id="{target(k)}"></span>{self._entry(k, lang)}' for k in keys)
        return f"## {heading(lang)}\n\n{items}\n"

    def _entry(self, key: str, lang: str) -> str:
        """A work as listed in a page of `lang`."""
        return self.works[key].full(lang)

    def index(self, pages: dict[str, str], lang: str, here: str = "references.md") -> str:
        """Every work, by first author and year, with links to the pages (path -> text, paths
        relative to the language's tree) that cite it; `here` is the page it goes on."""
        citing: dict[str, list[str]] = {key: [] for key in self.works}
        for page, text in sorted(pages.items()):
            for key in cited(text):
                if key in citing:
                    citing[key].append(page)
        label = CITED_ON.get(lang, CITED_ON["en"])
        base = posixpath.dirname(here)
        items = []
        for work in sorted(self.works.values(), key=lambda w: (w.authors[0].lower(), w.year)):
            links = words(lang)["list"].join(
                f"[{_title_of(pages[page], page)}]({posixpath.relpath(page, base or '.')})"
                for page in citing[work.key]
            )
            where = f"{label}{links}" if links else ""
            entry = self._entry(work.key, lang)
            items.append(f'- <span id="{target(work.key)}"></span>{entry}{where}')
        return "\n".join(items) + "\n"


def _title_of(text: str, page: str) -> str:
    """A page's first heading, else its path."""
    m = re.search(r"^# (.+)$", text, re.M)
    return m[1].strip() if m else page


def in_prose(line: str) -> Iterator[re.Match]:
    """The citations of one line that start in prose (not in inline code, math, a link
    target or an HTML tag); a locator may itself hold code or math."""
    if "@" not in line:
        return
    not_prose = [m.span() for m in NOT_PROSE.finditer(line)]
    for m in CITATION.finditer(line):
        if not any(start <= m.start() < end for start, end in not_prose):
            yield m


def citations(text: str) -> Iterator[re.Match]:
    """Every citation in a page's prose (fences, inline code and link targets left out)."""
    for line, fenced in line_states(text):
        if not fenced:
            yield from in_prose(line)


def unclosed(text: str) -> list[int]:
    """Line numbers where a citation opens and does not close (split across lines)."""
    return [
        number
        for number, (line, fenced) in enumerate(line_states(text), start=1)
        if not fenced and UNCLOSED.search(line)
    ]


def group(m: re.Match) -> list[tuple[str, str | None]]:
    """(key, locator) of every work a citation names, in order."""
    if m["narrative"]:
        return [(m["narrative"], m["nlocator"])]
    return [(m["key"], m["locator"])] + [(g["key"], g["locator"]) for g in MORE.finditer(m["more"])]


def cited(text: str) -> list[str]:
    """Keys cited in a page's prose, in order of first citation, each once."""
    return list(_cited(text))


@functools.lru_cache(maxsize=4096)  # every page, in every build
def _cited(text: str) -> tuple[str, ...]:
    keys: list[str] = []
    for m in citations(text):
        for key, _ in group(m):
            if key not in keys:
                keys.append(key)
    return tuple(keys)


def without_citations(text: str) -> str:
    """`text` with every citation removed (its locator is not a number the page computes)."""
    return CITATION.sub(" ", text)


# Author-year or venue-year written by hand: the year belongs in the bibliography.
HANDWRITTEN = re.compile(
    r"\b[A-Z][\w'’-]+(?: et al\.?| and [A-Z][\w'’-]+| & [A-Z][\w'’-]+)?,? \(?(?:19|20)\d\d\b"
    r"|\b[A-Z][\w'’-]+ ?等[（(，,]\s*(?:19|20)\d\d"
    r"|\b(?:NeurIPS|NIPS|ICML|ICLR|EMNLP|ACL|NAACL|CVPR|ICCV|ECCV|COLING|MAPL) ?(?:19|20)\d\d\b"
)


def handwritten(text: str) -> list[tuple[int, str]]:
    """(line number, phrase) for each author-year or venue-year in a page's prose that is not
    a citation."""
    found = []
    for number, (line, fenced) in enumerate(line_states(text), start=1):
        if not fenced:
            prose = " ".join(p for p, is_prose in prose_spans(without_citations(line)) if is_prose)
            found += [(number, m[0]) for m in HANDWRITTEN.finditer(prose)]
    return found
