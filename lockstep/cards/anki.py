"""Anki export of a deck: one note per card and language, stable ids, math kept as TeX.

Anki matches an imported note to the one already in a collection by its guid, and updates it
when the imported copy is newer. So the guid is derived from (card id, language) and never
changes, and the notes' modification time is the newest modification time of the card pages
(or SOURCE_DATE_EPOCH): editing a card makes the next import update it instead of adding a
duplicate. Math stays as TeX inside \\( \\) and \\[ \\], which Anki's built-in MathJax renders.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import genanki
import markdown

from lockstep.cards.deck import Card, Deck
from lockstep.markup import link_texts

FIELDS = ("Id", "Question", "Answer")
CSS = """.card { font-family: system-ui, "Noto Sans CJK SC", sans-serif; font-size: 18px;
  text-align: left; color: #222; background: #fff; max-width: 40em; margin: auto; }
.card ul { padding-left: 1.2em; } .card li { margin: .3em 0; }"""


def model(deck: Deck) -> genanki.Model:
    """The note type; its id is fixed forever in the vocabulary (a new id is a new note type)."""
    return genanki.Model(
        deck.vocabulary.anki["model_id"],
        deck.vocabulary.anki["model_name"],
        fields=[{"name": name} for name in FIELDS],
        templates=[
            {
                "name": "Question → answer",
                "qfmt": "{{Question}}",
                "afmt": '{{FrontSide}}<hr id="answer">{{Answer}}',
            }
        ],
        css=CSS,
        sort_field_index=1,
    )


def to_html(text: str) -> str:
    """Markdown to HTML for a note: links become plain text, math becomes \\( \\) / \\[ \\]."""
    md = markdown.Markdown(
        extensions=["pymdownx.arithmatex"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    return md.convert(link_texts(text)).strip()


def note_guid(card_id: str, lang: str) -> str:
    """The note's guid: a function of the card id and language only."""
    return genanki.guid_for(card_id, lang)


def note_fields(deck: Deck, card: Card, substitute: Callable[[str, str], str]) -> list[str]:
    """(Id, Question, Answer) for a card; the answer is the sentence plus the key points."""

    def html(key: str) -> str:
        return substitute(deck.section(card, key), card.lang)

    question = to_html(substitute(card.title, card.lang)).removeprefix("<p>").removesuffix("</p>")
    return [card.id, question, to_html(html("answer") + "\n\n" + html("key_points"))]


def source_timestamp(deck: Deck) -> float:
    """SOURCE_DATE_EPOCH if set, else the newest modification time of any card page."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return float(os.environ["SOURCE_DATE_EPOCH"])
    paths = [p for lang in deck.site.languages for p in deck.paths(lang)]
    return max((p.stat().st_mtime for p in paths), default=0.0)


def package(deck: Deck, lang: str, substitute: Callable[[str, str], str]) -> bytes:
    """The .apkg of one language's cards, as bytes."""
    anki = deck.vocabulary.anki
    note_type = model(deck)
    out = genanki.Deck(anki["deck_ids"][lang], anki["deck_names"][lang])
    for card in deck.cards(lang):
        out.add_note(
            genanki.Note(
                model=note_type,
                fields=note_fields(deck, card, substitute),
                tags=[t for t in card.tags if t in deck.vocabulary.tags]
                + [card.module, card.difficulty],
                guid=note_guid(card.id, lang),
            )
        )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"cards.{lang}.apkg"
        genanki.Package(out).write_to_file(str(path), timestamp=source_timestamp(deck))
        return path.read_bytes()
