"""Anki export of the cards: one note per card and language, stable ids, math kept as TeX.

Anki matches an imported note to the one already in a collection by its guid, and updates it
when the imported copy is newer. So the guid is derived from (card id, language) and never
changes, and the notes' modification time is the newest modification time of the card pages
(or SOURCE_DATE_EPOCH): editing a card makes the next import update it instead of adding a
duplicate. Math stays as TeX inside \\( \\) and \\[ \\], which Anki's built-in MathJax renders.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import genanki
import markdown

from snippets.cards import DOCS, TAGS, Card, card_paths, load_cards

# Fixed forever: a new model or deck id makes Anki treat the notes as a different kind.
MODEL_ID = 1_733_000_001
DECK_IDS = {"zh": 1_733_000_101, "en": 1_733_000_102}
DECK_NAMES = {"zh": "可验证的注意力::面试卡片", "en": "Attention, Verified::Interview cards"}
FIELDS = ("Id", "Question", "Answer")

_CSS = """.card { font-family: system-ui, "Noto Sans CJK SC", sans-serif; font-size: 18px;
  text-align: left; color: #222; background: #fff; max-width: 40em; margin: auto; }
.card ul { padding-left: 1.2em; } .card li { margin: .3em 0; }"""

MODEL = genanki.Model(
    MODEL_ID,
    "Attention, Verified · card",
    fields=[{"name": name} for name in FIELDS],
    templates=[
        {
            "name": "Question → answer",
            "qfmt": "{{Question}}",
            "afmt": '{{FrontSide}}<hr id="answer">{{Answer}}',
        }
    ],
    css=_CSS,
    sort_field_index=1,
)

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


def to_html(text: str) -> str:
    """Markdown to HTML for a note: links become plain text, math becomes \\( \\) / \\[ \\]."""
    md = markdown.Markdown(
        extensions=["pymdownx.arithmatex"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    return md.convert(_LINK.sub(r"\1", text)).strip()


def note_guid(card_id: str, lang: str) -> str:
    """The note's guid: a function of the card id and language only."""
    return genanki.guid_for(card_id, lang)


def note_fields(card: Card, render: Callable[[str, str], str]) -> list[str]:
    """(Id, Question, Answer) for a card; the answer is the sentence plus the key points."""

    def expand(text: str) -> str:
        return _PLACEHOLDER.sub(lambda m: render(m.group(1), card.lang), text)

    question = to_html(expand(card.title)).removeprefix("<p>").removesuffix("</p>")
    answer = to_html(expand(card.section("answer")) + "\n\n" + expand(card.section("key_points")))
    return [card.id, question, answer]


def source_timestamp(docs: Path = DOCS) -> float:
    """SOURCE_DATE_EPOCH if set, else the newest modification time of any card page."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return float(os.environ["SOURCE_DATE_EPOCH"])
    paths = [p for lang in ("zh", "en") for p in card_paths(lang, docs)]
    return max((p.stat().st_mtime for p in paths), default=0.0)


def build_package(lang: str, path: Path, render: Callable[[str, str], str]) -> Path:
    """Write the Anki package of one language's cards to `path`."""
    deck = genanki.Deck(DECK_IDS[lang], DECK_NAMES[lang])
    for card in load_cards(lang):
        tags = [t for t in card.tags if t in TAGS] + [card.module, card.difficulty]
        deck.add_note(
            genanki.Note(
                model=MODEL,
                fields=note_fields(card, render),
                tags=tags,
                guid=note_guid(card.id, lang),
            )
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    genanki.Package(deck).write_to_file(str(tmp), timestamp=source_timestamp())
    tmp.replace(path)
    return path
