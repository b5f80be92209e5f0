"""The Anki decks as Anki itself sees them: imported with the `anki` library (the importer Anki
desktop runs) into fresh collections, reviewed, re-imported after edits."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from anki.collection import Collection
from anki.import_export_pb2 import (
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
    ImportAnkiPackageUpdateCondition,
)

from lockstep import changed
from lockstep.cards import anki as export
from lockstep.cards import anki_model
from lockstep.cards.deck import Deck
from lockstep.mkdocs.config_file import load_site
from tests.conftest import LANGS, SITE, copy_project, lang_dir

DECK = Deck(SITE)
IF_NEWER = ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER
# A note type's fields may never change under the same id: readers' notes would not follow.
FROZEN = {1733000011: ("Id", "Question", "Answer"), 1733000012: ("Id", "Question", "Answer")}


def import_package(col: Collection, path: Path) -> dict[str, int]:
    """Import as Anki's defaults do (update notes and note types if newer); the log's counts."""
    options = ImportAnkiPackageOptions(
        update_notes=IF_NEWER, update_notetypes=IF_NEWER, merge_notetypes=False
    )
    log = col.import_anki_package(
        ImportAnkiPackageRequest(package_path=str(path), options=options)
    ).log
    return {k: len(getattr(log, k)) for k in ("new", "updated", "duplicate", "conflicting")}


@pytest.fixture
def col(tmp_path):
    collection = Collection(str(tmp_path / "collection.anki2"))
    yield collection
    collection.close()


def test_the_note_types_are_frozen_by_their_ids():
    ids = DECK.vocabulary.anki["model_ids"]
    assert set(ids.values()) == set(FROZEN)
    for lang in LANGS:
        model = anki_model.model(DECK, lang)
        assert tuple(f["name"] for f in model.fields) == FROZEN[ids[lang]]


def test_both_built_decks_import_render_and_flag_no_duplicates(built_site, col):
    for lang in LANGS:
        path = lang_dir(built_site, lang) / DECK.options.anki_dest / f"cards.{lang}.apkg"
        counts = import_package(col, path)
        assert counts["new"] == len(DECK.cards(lang)) and counts["duplicate"] == 0, counts
    notes = [col.get_note(nid) for nid in col.find_notes("")]
    assert len(notes) == sum(len(DECK.cards(lang)) for lang in LANGS)
    assert all(note.fields_check() == 0 for note in notes)  # 0: neither empty nor duplicate
    root = DECK.vocabulary.anki["tag_root"]
    assert all(note.tags and all(t.startswith(f"{root}::") for t in note.tags) for note in notes)
    with_math = 0
    for cid in col.find_cards(""):
        card = col.get_card(cid)
        shown = card.answer() + card.question()
        assert card.question().strip() and not re.search(r"\$[^$\s][^$]*\$", shown), shown[:200]
        with_math += "\\(" in shown  # MathJax's inline delimiters, which Anki draws
    assert with_math > len(notes) // 2  # most cards carry a formula; none left as raw $...$


def package(project: Path, lang: str) -> Path:
    """The deck of `lang` packaged from a project copy (values left as written)."""
    deck = Deck(load_site(project / "mkdocs.yml"))
    path = project / f"cards.{lang}.apkg"
    path.write_bytes(export.package(deck, lang, lambda text, _lang, _where: text))
    return path


def test_reimport_after_editing_one_card_updates_that_note_only_and_keeps_history(tmp_path, col):
    project = copy_project(tmp_path / "project")
    lang = "en"
    assert import_package(col, package(project, lang))["new"] == len(DECK.cards(lang))
    edited = DECK.cards(lang)[-1]
    reviewed = {}  # one card that stays as it is, and the one about to be edited
    for cid in (col.find_cards("")[0], col.find_cards(f'"Id:{edited.id}"')[0]):
        card = col.get_card(cid)
        card.start_timer()
        col.sched.answerCard(card, 3)  # "Good"
        reviewed[cid] = col.get_card(cid)
    before = {nid: col.get_note(nid).mod for nid in col.find_notes("")}

    page = project / edited.path.relative_to(SITE.root)
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(edited.title, edited.title + " (edited)", 1), encoding="utf-8")
    os.utime(page, (page.stat().st_atime, max(before.values()) + 60))  # edited later

    counts = import_package(col, package(project, lang))
    assert counts["updated"] == 1 and counts["new"] == 0, counts
    changed_notes = [nid for nid in before if col.get_note(nid).mod != before[nid]]
    assert len(changed_notes) == 1
    assert "(edited)" in col.get_note(changed_notes[0])["Question"]
    for cid, then in reviewed.items():  # history kept, on the updated note's card too
        assert col.db.scalar("select count() from revlog where cid = ?", cid) == 1
        now = col.get_card(cid)
        assert (now.ivl, now.due, now.reps) == (then.ivl, then.due, then.reps)


def test_a_template_only_change_reaches_the_collection(tmp_path, monkeypatch):
    project = copy_project(tmp_path / "project")
    lang, path = "zh", str(tmp_path / "collection.anki2")
    mid = DECK.vocabulary.anki["model_ids"][lang]
    col = Collection(path)
    import_package(col, package(project, lang))
    later = col.models.get(mid)["mod"] + 60
    monkeypatch.setattr(anki_model, "CSS", anki_model.CSS + "\n.card b { color: teal; }")
    monkeypatch.setattr(anki_model, "changed_at", lambda: later)
    counts = import_package(col, package(project, lang))
    col.close()  # the Python side caches note types: read them afresh
    assert counts["updated"] == 0 and counts["new"] == 0, counts  # no note touched
    col = Collection(path)
    try:
        assert "color: teal" in col.models.get(mid)["css"]
    finally:
        col.close()


def test_changed_at_is_the_commit_time_unless_the_file_has_local_changes(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    card = repo / "card.md"
    card.write_text("first\n", encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_DATE": "@1700000000 +0000"}
    env |= {"GIT_COMMITTER_DATE": "@1700000000 +0000"}

    def git(*args):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)

    git("init", "-q")
    git("add", "card.md")
    git("-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "card")
    os.utime(card, (2_000_000_000, 2_000_000_000))  # a fresh clone's mtime: ignored
    assert changed.changed_at([card]) == 1_700_000_000
    other = repo / "other.md"  # a later commit: each file gets its own last commit's time
    other.write_text("other\n", encoding="utf-8")
    env = {**env, "GIT_AUTHOR_DATE": "@1800000000 +0000", "GIT_COMMITTER_DATE": "@1800000000 +0000"}
    git("add", "other.md")
    git("-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "other")
    assert changed.changed_times([card, other]) == {card: 1_700_000_000, other: 1_800_000_000}
    card.write_text("edited\n", encoding="utf-8")  # uncommitted: its mtime counts
    assert changed.changed_at([card]) == card.stat().st_mtime
    outside = tmp_path / "loose.md"
    outside.write_text("x", encoding="utf-8")
    assert changed.changed_at([outside]) == outside.stat().st_mtime
