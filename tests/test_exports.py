"""What the build makes from the cards: Anki decks, the cards index with tags, the handbook."""

import re
import sqlite3
import zipfile
from pathlib import Path

import genanki
import pytest

from lockstep.cards.anki import note_guid
from lockstep.cards.anki_model import FIELDS
from lockstep.cards.deck import Deck
from tests.conftest import LANGS, SITE, lang_dir

DECK = Deck(SITE)
ANKI, VOCABULARY = DECK.vocabulary.anki, DECK.vocabulary


def apkg(site: Path, lang: str) -> Path:
    return lang_dir(site, lang) / DECK.options.anki_dest / f"cards.{lang}.apkg"


def notes(package: Path, tmp_path: Path) -> list[tuple]:
    """(id, guid, mid, fields, tags) of every note in an .apkg (a zip holding collection.anki2),
    and the decks its cards are in."""
    with zipfile.ZipFile(package) as zf:
        assert "collection.anki2" in zf.namelist()
        db = tmp_path / f"{package.stem}-{len(list(tmp_path.iterdir()))}.anki2"
        db.write_bytes(zf.read("collection.anki2"))
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, guid, mid, flds, tags FROM notes ORDER BY id").fetchall()
        decks = {did for (did,) in conn.execute("SELECT DISTINCT did FROM cards")}
    return [(i, g, m, f.split("\x1f"), t) for i, g, m, f, t in rows], decks


@pytest.mark.parametrize("lang", LANGS)
def test_anki_deck_has_one_complete_note_per_card(built_site, tmp_path, lang):
    rows, decks = notes(apkg(built_site, lang), tmp_path)
    deck = DECK.cards(lang)
    assert len(rows) == len(deck)
    assert decks == {ANKI["deck_ids"][lang]}
    by_id = {fields[0]: (guid, mid, fields) for _, guid, mid, fields, _ in rows}
    assert set(by_id) == {c.id for c in deck}
    for card in deck:
        guid, mid, fields = by_id[card.id]
        assert mid == ANKI["model_ids"][lang] and len(fields) == len(FIELDS)
        assert all(f.strip() for f in fields), f"{card.id}: an empty field"
        assert guid == note_guid(card.id, lang) == genanki.guid_for(card.id, lang)
        assert "$" not in fields[2], "math must be \\( \\) or \\[ \\] for Anki's MathJax"
        assert "<li>" in fields[2], "the back shows the key points"
    assert any("\\(" in fields[2] for _, _, _, fields, _ in rows)


@pytest.mark.parametrize("lang", LANGS)
def test_anki_ids_are_the_same_in_two_builds(built_site, offline_site, tmp_path, lang):
    first, _ = notes(apkg(built_site, lang), tmp_path)
    second, _ = notes(apkg(offline_site, lang), tmp_path)
    assert [(i, g) for i, g, *_ in first] == [(i, g) for i, g, *_ in second]


@pytest.mark.parametrize("lang", LANGS)
def test_cards_index_links_the_deck_and_lists_tags_in_its_language(built_site, lang):
    html = (lang_dir(built_site, lang) / "cards" / "index.html").read_text(encoding="utf-8")
    assert f'href="../assets/downloads/cards.{lang}.apkg"' in html
    (other,) = SITE.languages.others(lang)
    for tag, labels in VOCABULARY.tags.items():
        used = any(tag in c.tags for c in DECK.cards(lang))
        if used:
            assert f'id="tag:{labels[lang].lower().replace(" ", "-")}"' in html, labels[lang]
        if used and labels[other] != labels[lang]:
            assert f'id="tag:{labels[other].lower().replace(" ", "-")}"' not in html
    assert "{{" not in html


@pytest.mark.parametrize("lang", LANGS)
def test_card_pages_show_metadata_and_tags(built_site, lang):
    card = DECK.cards(lang)[0]
    html = (lang_dir(built_site, lang) / "cards" / card.id / "index.html").read_text("utf-8")
    assert 'class="card-meta"' in html
    assert VOCABULARY.difficulties[card.difficulty][lang] in html
    assert all(VOCABULARY.tags[t][lang] in html for t in card.tags)


@pytest.mark.parametrize("lang", LANGS)
def test_handbook_holds_every_card_with_answers_open(built_site, lang):
    html = (lang_dir(built_site, lang) / "cards" / "handbook" / "index.html").read_text("utf-8")
    for card in DECK.cards(lang):
        assert f'id="card-{card.id}"' in html
    assert len(re.findall(r"<details[^>]*\bopen\b", html)) >= len(DECK.cards(lang))
    assert '<details class="question">' not in html, "a follow-up answer is closed"
