"""The bibliography speaks both languages: a note of what was read is written in each."""

from tests.conftest import LANGS, SITE


def test_every_note_of_what_was_checked_is_written_in_every_language():
    untranslated = []
    for key, work in SITE.bibliography().works.items():
        if work.checked and set(LANGS) - set(work.notes):
            untranslated.append(f"{key}: no note in {sorted(set(LANGS) - set(work.notes))}")
    assert untranslated == [], "write checked: {en: ..., zh: ...}:\n" + "\n".join(untranslated)
