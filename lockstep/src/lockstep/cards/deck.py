"""A deck of cards: one page per card and language, <tree>/<folder>/<id>.md, made of YAML
front matter (REQUIRED_KEYS, identical in every language), a `# question` title, and the
vocabulary's sections as `##` headings in order. Loading, checks, and the new-card template.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from lockstep import includes, yaml_data
from lockstep.cache import stamp
from lockstep.cards import spoken
from lockstep.cards.answer_size import answer_size
from lockstep.cards.vocabulary import Vocabulary
from lockstep.fences import line_states
from lockstep.frontmatter import split_front_matter
from lockstep.markup import DETAILS, headings, targets
from lockstep.site import Site

REQUIRED_KEYS = ("id", "module", "category", "difficulty", "tags", "related")
ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_BODY_PROBLEMS: dict[tuple, list[str]] = {}  # Deck._check_body's, by what they are made from
CARD_TARGET = re.compile(r"^(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)\.md(?:#.*)?$")  # a sibling card


def linked_card(target: str) -> str | None:
    """The id of the card a link target points to, if it points to a sibling card page."""
    m = CARD_TARGET.match(target)
    return m["id"] if m else None


def is_follow_up(line: str) -> bool:
    """Whether a line opens a follow-up: a `??? question "..."` block."""
    m = DETAILS.match(line)
    return bool(m and m["kind"] == "question" and m["title"] and not m["indent"])


@dataclass(frozen=True)
class Card:
    """One card in one language, as written in its page."""

    id: str
    module: str
    category: str
    difficulty: str
    tags: tuple[str, ...]
    related: tuple[str, ...]
    lang: str
    path: Path
    meta: dict
    title: str  # the `#` heading: the question
    body: str  # everything after the front matter
    sections: dict[str, str] = field(default_factory=dict)  # `##` heading -> its text

    def metadata(self) -> dict:
        """The language-independent part: what must be identical in every language."""
        return {k: self.meta.get(k) for k in REQUIRED_KEYS}


def read_card(path: Path, lang: str) -> Card:
    """Parse a card page; missing or malformed values are kept as they are for the checks."""
    return _read_card(path, lang, stamp(path))  # `mkdocs serve` reads the deck per build


@functools.cache  # under the file's stamp: parsed again only once edited
def _read_card(path: Path, lang: str, file_stamp: tuple[str, int, int]) -> Card:
    meta, body = split_front_matter(path.read_text(encoding="utf-8"))
    lines = body.splitlines()
    marks = [(i, level, text) for i, level, text in headings(body) if level <= 2]
    titles = [text for _, level, text in marks if level == 1]
    sections = {}
    for k, (i, level, text) in enumerate(marks):
        if level == 2:
            end = marks[k + 1][0] if k + 1 < len(marks) else len(lines)
            sections[text] = "".join(line + "\n" for line in lines[i + 1 : end])
    return Card(
        id=str(meta.get("id", "")),
        module=str(meta.get("module", "")),
        category=str(meta.get("category", "")),
        difficulty=str(meta.get("difficulty", "")),
        tags=tuple(meta.get("tags") or ()),
        related=tuple(meta.get("related") or ()),
        lang=lang,
        path=path,
        meta=meta,
        title=titles[0] if titles else "",
        body=body,
        sections=sections,
    )


class Deck:
    """The cards of a site, in every language, with the vocabulary they are written in."""

    def __init__(self, site: Site):
        if not site.options.cards.vocabulary:
            raise ValueError("the site has no `cards` option in its lockstep plugin settings")
        self.site, self.options = site, site.options.cards
        codes = site.languages.codes
        self.vocabulary = yaml_data.made_from(
            self.options.vocabulary, lambda p: Vocabulary.load(p, codes), codes
        )
        self._cards: dict[str, list[Card]] = {}  # read once: a Deck lives for one build

    def folder(self, lang: str) -> Path:
        """Where the cards of `lang` live."""
        return self.site.tree(lang) / self.options.folder

    def paths(self, lang: str) -> list[Path]:
        """The card pages of one language, sorted by file name."""
        not_cards = set(self.options.not_cards)
        return sorted(p for p in self.folder(lang).glob("*.md") if p.name not in not_cards)

    def is_card(self, path: Path) -> bool:
        """Whether `path` is a card page of some language."""
        path = Path(path).resolve()
        return any(path in self.paths(lang) for lang in self.site.languages)

    def cards(self, lang: str) -> list[Card]:
        """Every card of one language, in deck order: module, then difficulty, then id."""
        if lang not in self._cards:
            self._cards[lang] = self._read(lang)
        return self._cards[lang]

    def _read(self, lang: str) -> list[Card]:
        v = self.vocabulary
        order = {k: i for i, k in enumerate([*v.modules, *v.difficulties])}
        cards = [read_card(p, lang) for p in self.paths(lang)]
        return sorted(
            cards, key=lambda c: (order.get(c.module, 99), order.get(c.difficulty, 99), c.id)
        )

    def section(self, card: Card, key: str) -> str:
        """The text of a card's section by its key in the vocabulary ('answer', ...)."""
        return card.sections.get(self.vocabulary.section_title(key, card.lang), "")

    # --- checks --------------------------------------------------------------------------
    def check_card(self, card: Card, known_ids: set[str], check_id: bool = True) -> list[str]:
        """Problems with one card's front matter and body; [] when it follows the format."""
        v, where, p = self.vocabulary, str(card.path), []
        p += [f"{where}: front matter lacks {k!r}" for k in REQUIRED_KEYS if k not in card.meta]
        p += [
            f"{where}: unknown front matter key {k!r} (allowed: {REQUIRED_KEYS})"
            for k in card.meta
            if k not in REQUIRED_KEYS
        ]
        if check_id and card.id != card.path.stem:
            p.append(f"{where}: id {card.id!r} must equal the file name {card.path.stem!r}")
        if not ID.match(card.id):
            p.append(f"{where}: id {card.id!r} must be lowercase words joined by '-'")
        for key, allowed in (
            ("module", v.modules),
            ("category", v.categories),
            ("difficulty", v.difficulties),
        ):
            if getattr(card, key) not in allowed:
                p.append(f"{where}: {key} {getattr(card, key)!r} is not one of {sorted(allowed)}")
        for key, allowed in (("tags", v.tags), ("related", known_ids)):
            values = card.meta.get(key)
            if not isinstance(values, list) or not values:
                p.append(f"{where}: {key} must be a non-empty list")
                continue
            p += [f"{where}: {key} lists {x!r} twice" for x in set(values) if values.count(x) > 1]
            what = "tag" if key == "tags" else "card"
            p += [f"{where}: unknown {what} {x!r}" for x in values if x not in allowed]
        if card.id in card.related:
            p.append(f"{where}: a card cannot be related to itself")
        return p + self._check_body(card)

    def _check_body(self, card: Card) -> list[str]:
        """The problems of a card's body, made again only when what they are made from changes:
        a build checks every card, and `make serve` builds again after each edit."""
        site = self.site
        included = includes.included_files(card.body, site.root, site.snippets_options)
        key = (
            yaml_data.version(self.options.vocabulary),
            tuple(site.options.chinese),
            repr(site.snippets_options),
            card.lang,
            str(card.path),
            card.body,
            tuple(yaml_data.version(path) for path in included),
        )
        if key not in _BODY_PROBLEMS:
            if len(_BODY_PROBLEMS) > 8192:  # a long session's old versions of each card
                _BODY_PROBLEMS.clear()
            _BODY_PROBLEMS[key] = self._body_problems(card)
        return list(_BODY_PROBLEMS[key])

    def _body_problems(self, card: Card) -> list[str]:
        where, p = str(card.path), []
        first = next((ln for ln, fenced in line_states(card.body) if ln.strip()), "")
        marks = list(headings(card.body))
        if not first.startswith("# "):
            p.append(f"{where}: the page must start with a `# question` heading")
        if sum(level == 1 for _, level, _ in marks) > 1:
            p.append(f"{where}: only one `#` heading (the question) is allowed")
        want = [self.vocabulary.section_title(k, card.lang) for k in self.vocabulary.sections]
        got = [text for _, level, text in marks if level == 2]
        if got != want:
            p.append(f"{where}: `##` sections must be exactly {want} in this order, got {got}")
            return p
        p += self._check_answer(card)
        p += spoken.problems(self, card)
        if sum(ln.startswith("- ") for ln in self.section(card, "key_points").splitlines()) < 2:
            p.append(f"{where}: key points need at least two `- ` bullets")
        p += self._check_how_to_answer(card)
        if "```python" not in self.section(card, "derivation"):
            p.append(f"{where}: the derivation needs an executed ```python check")
        if not any(is_follow_up(ln) for ln in self.section(card, "follow_ups").splitlines()):
            p.append(f'{where}: follow-ups need at least one `??? question "..."` block')
        links = self.vocabulary.section_title("links", card.lang)
        linked = {linked_card(t) for t in targets(self.section(card, "links"))} - {None}
        p += [
            f"{where}: section {links!r} does not link related card {r}.md"
            for r in card.related
            if r not in linked
        ]
        p += [
            f"{where}: section {links!r} links {x}.md, which is not in `related`"
            for x in sorted(linked - set(card.related))
        ]
        return p

    def _check_answer(self, card: Card) -> list[str]:
        where, answer = str(card.path), self.section(card, "answer").strip()
        if not answer or "\n\n" in answer:
            return [f"{where}: the one-sentence answer must be a single paragraph"]
        p = []
        limit = self.vocabulary.limits.get("answer", {}).get(card.lang)
        chinese = card.lang in self.site.options.chinese
        size = answer_size(answer, chinese)
        if limit and size > limit:
            unit = "characters" if chinese else "words"
            p.append(
                f"{where}: the one-sentence answer takes {size} {unit} said aloud, more than "
                f"{limit} (a formula counts one per four symbols it shows)"
            )
        return p

    def _check_how_to_answer(self, card: Card) -> list[str]:
        """The order to say it in (a numbered list) and what earns extra credit (a label line,
        then bullets)."""
        where, text = str(card.path), self.section(card, "how_to_answer")
        label = self.vocabulary.labels["extra_credit"][card.lang]
        lines = text.splitlines()
        p = []
        if sum(bool(re.match(r"\d+\. ", ln)) for ln in lines) < 2:
            p.append(f"{where}: how to answer needs at least two numbered steps (`1. `)")
        opens = [i for i, ln in enumerate(lines) if ln.startswith(f"**{label}**")]
        if not opens or not any(ln.startswith("- ") for ln in lines[opens[0] + 1 :]):
            p.append(f"{where}: how to answer needs a `**{label}**` line followed by `- ` bullets")
        return p

    def check(self) -> list[str]:
        """Problems across the deck: every card checked, the same cards and metadata in every
        language as in the default one."""
        langs = self.site.languages
        decks = {lang: self.cards(lang) for lang in langs}
        ids = {lang: {c.id for c in cards} for lang, cards in decks.items()}
        p = [
            f"card {i!r} exists in {lang} but not in {other}"
            for lang in langs
            for other in langs.others(lang)
            for i in sorted(ids[lang] - ids[other])
        ]
        for lang, cards in decks.items():
            for card in cards:
                p += self.check_card(card, ids[lang])
        default = {c.id: c for c in decks[langs.default]}
        for lang in langs.others(langs.default):
            for card in decks[lang]:
                ref = default.get(card.id)
                if ref is not None and card.metadata() != ref.metadata():
                    p.append(
                        f"card {card.id!r}: front matter differs between {langs.default} and "
                        f"{lang}: {ref.metadata()} vs {card.metadata()}"
                    )
        return p

    # --- authoring -----------------------------------------------------------------------
    def template(self, card_id: str, lang: str, related: str) -> str:
        """A new card page that passes every check except content: fill in the TODOs."""
        v, todo = self.vocabulary, "TODO"
        first = {k: next(iter(getattr(v, k))) for k in ("modules", "categories", "difficulties")}
        parts = [
            f"---\nid: {card_id}\nmodule: {first['modules']}\n"
            f"category: {first['categories']}\ndifficulty: {first['difficulties']}\n"
            f"tags: [{next(iter(v.tags))}]\nrelated: [{related}]\n---\n\n# {todo}: the question\n"
        ]
        credit = v.labels["extra_credit"][lang]
        bodies = {
            "tested": f"{todo}: the skill this question probes, in one sentence.",
            "answer": f"{todo}：先用一句话说出结论，公式放在后面，如 $q\\cdot k$。"
            if lang in self.site.options.chinese  # the opening is counted in characters there
            else f"{todo}: the conclusion in words, then $q\\cdot k$ if it helps.",
            "key_points": f"- {todo}\n- {todo}",
            "numbers": f"- {todo}: 42, a number to remember, as the derivation's check prints it",
            "how_to_answer": f"1. {todo}\n2. {todo}\n\n**{credit}**\n\n- {todo}",
            "derivation": f'{todo}.\n\n```python\nprint("{todo}", 6 * 7)\n```\n\n'
            f"<!--pytest-codeblocks:expected-output-->\n```text\n{todo} 42\n```",
            "trade_offs": f"- {todo}",
            "pitfalls": f"- {todo}",
            "follow_ups": f'??? question "{todo}"\n\n    {todo}.',
            "links": f"- [{todo}]({related}.md)",
        }
        for key in v.sections:
            parts.append(f"\n## {v.section_title(key, lang)}\n\n{bodies.get(key, todo)}\n")
        return "".join(parts)
