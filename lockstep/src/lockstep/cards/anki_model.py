"""The Anki note type of each language: fields, card template and CSS.

Its id is fixed forever in the vocabulary (a new id is a new note type, and readers' notes
would not follow), and so are its fields: tests/test_anki.py holds them. Its time, which
decides whether Anki takes a new template or CSS, is when this file last changed.
"""

from __future__ import annotations

from pathlib import Path

import genanki

from lockstep import changed
from lockstep.cards.deck import Deck

FIELDS = ("Id", "Question", "Answer")
TEMPLATE = {
    "name": "Question → answer",
    "qfmt": "{{Question}}",
    "afmt": '{{FrontSide}}<hr id="answer">{{Answer}}',
}
# Anki centres .card itself; a max-width column needs side margins only, and some air on top.
CSS = """.card { font-family: system-ui, "Noto Sans CJK SC", sans-serif; font-size: 18px;
  text-align: left; color: #222; background: #fff; max-width: 40em; margin: 0 auto;
  padding: 1.5em 1em; }
.card ul { padding-left: 1.2em; } .card li { margin: .3em 0; }
.nightMode .card, .night_mode .card { color: #eee; background: #2f2f31; }"""


def model(deck: Deck, lang: str) -> genanki.Model:
    """The note type of `lang`'s deck."""
    anki = deck.vocabulary.anki
    return genanki.Model(
        anki["model_ids"][lang],
        anki["model_names"][lang],
        fields=[{"name": name} for name in FIELDS],
        templates=[TEMPLATE],
        css=CSS,
        sort_field_index=1,
    )


def changed_at() -> float:
    """When the note type's template or CSS last changed."""
    return changed.changed_at([Path(__file__)])
