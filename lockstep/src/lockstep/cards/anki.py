"""Anki export of a deck: one note per card and language, stable ids, math kept as TeX.

Anki matches an imported note to the one in a collection by its guid, and replaces it only
when the imported copy is newer; a note type likewise. So:

* the guid is derived from (card id, language) and never changes;
* each note's time is when its own card page, or the conversion to HTML (this file), last
  changed (`lockstep.changed`): editing one card updates one note and leaves a reader's own
  edits to the others alone;
* the note type's time is when its template or CSS (`anki_model.py`) last changed, so a new
  look reaches readers without touching any note;
* each language has its own note type, so a reader who imports both decks gets no
  "duplicate" flags (Anki compares first fields within a note type), and tags are
  hierarchical under the deck's root (`attention-verified::module::numerics`) so they do not
  merge with a reader's own.

Math stays as TeX inside \\( \\) and \\[ \\], which Anki's built-in MathJax renders.
"""

from __future__ import annotations

import io
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import genanki
import markdown

from lockstep import changed, markup
from lockstep.cache import remembered
from lockstep.cards import anki_model
from lockstep.cards.deck import Card, Deck
from lockstep.markup import link_texts

CONVERSION = (Path(__file__), Path(markup.__file__))  # what turns a card into note fields
ZIP_EPOCH = 315532800  # 1980-01-01, the earliest time a zip entry can carry


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


def note_fields(deck: Deck, card: Card, substitute: Callable[[str, str, str], str]) -> list[str]:
    """(Id, Question, Answer) for a card; the answer is the sentence plus the key points."""

    def html(key: str) -> str:
        return substitute(deck.section(card, key), card.lang, str(card.path))

    question = (
        to_html(substitute(card.title, card.lang, str(card.path)))
        .removeprefix("<p>")
        .removesuffix("</p>")
    )
    return [card.id, question, to_html(html("answer") + "\n\n" + html("key_points"))]


def note_tags(deck: Deck, card: Card) -> list[str]:
    """Hierarchical tags under the deck's root: its module, difficulty and topic tags."""
    root = deck.vocabulary.anki["tag_root"]
    topics = [f"{root}::tag::{t}" for t in card.tags if t in deck.vocabulary.tags]
    return [f"{root}::module::{card.module}", f"{root}::difficulty::{card.difficulty}", *topics]


class TimedNote(genanki.Note):
    """A note with its own modification time (genanki gives every note the package's)."""

    def __init__(self, *args, mod: float, **kwargs):
        super().__init__(*args, **kwargs)
        self.mod = mod

    def write_to_db(self, cursor, timestamp: float, deck_id, id_gen):
        """As genanki writes a note, with this note's time instead of the package's."""
        super().write_to_db(cursor, self.mod, deck_id, id_gen)


def package(
    deck: Deck,
    lang: str,
    substitute: Callable[[str, str, str], str],
    key_of: Callable[[Card], str | None] = lambda card: None,
) -> bytes:
    """The .apkg of one language's cards, as bytes. `key_of(card)`: a digest of what the card's
    page is made from, under which its note's fields are remembered between builds."""
    anki = deck.vocabulary.anki
    note_type = anki_model.model(deck, lang)
    cards = deck.cards(lang)
    times = changed.changed_times([*CONVERSION, *(card.path for card in cards)])
    conversion = max(times[path.resolve()] for path in CONVERSION)
    out = genanki.Deck(anki["deck_ids"][lang], anki["deck_names"][lang])
    for card in cards:
        fields = remembered(
            ("anki", lang, card.id),
            key_of(card),
            lambda card=card: note_fields(deck, card, substitute),
        )
        out.add_note(
            TimedNote(
                model=note_type,
                fields=list(fields),
                tags=note_tags(deck, card),
                guid=note_guid(card.id, lang),
                mod=max(conversion, times[card.path.resolve()]),
            )
        )
    # The package's time is the note type's (and the deck's): when the look last changed.
    timestamp = anki_model.changed_at()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"cards.{lang}.apkg"
        genanki.Package(out).write_to_file(str(path), timestamp=timestamp)
        return _with_entry_times(path.read_bytes(), timestamp)


def _with_entry_times(apkg: bytes, timestamp: float) -> bytes:
    """The package with every zip entry dated `timestamp`: genanki dates them when it writes
    (Package.write_to_file), so two builds of the same deck would differ in those bytes."""
    date_time = time.gmtime(max(timestamp, ZIP_EPOCH))[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(apkg)) as source, zipfile.ZipFile(out, "w") as dest:
        for entry in source.infolist():
            fixed = zipfile.ZipInfo(entry.filename, date_time=date_time)
            fixed.compress_type, fixed.external_attr = entry.compress_type, entry.external_attr
            dest.writestr(fixed, source.read(entry))
    return out.getvalue()
