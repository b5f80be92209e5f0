"""Interview cards: the format is enforced, every number is computed, the deck hangs together."""

import re
from pathlib import Path

import pytest
from mkdocs.utils import yaml_load

from snippets import cards, cards_render
from snippets.computed import render
from tests import docs_blocks

ROOT = Path(__file__).resolve().parent.parent
DECK = {lang: cards.load_cards(lang) for lang in cards.LANGS}
CARD_PAGES = [c.path for lang in cards.LANGS for c in DECK[lang]]


def test_deck_follows_the_format():
    problems = cards.check_deck()
    assert not problems, "\n".join(problems)


def test_deck_has_the_same_cards_in_both_languages_and_at_least_twelve():
    zh, en = ([c.id for c in DECK[lang]] for lang in cards.LANGS)
    assert zh == en
    assert len(zh) >= 12


@pytest.mark.parametrize("lang", cards.LANGS)
def test_new_card_template_passes_every_check(tmp_path, lang):
    path = tmp_path / lang / cards.CARDS_DIR / "my-card.md"
    path.parent.mkdir(parents=True)
    path.write_text(cards.template("my-card", lang), encoding="utf-8")
    assert cards.check_card(cards.read_card(path, lang), {"why-scale"}) == []


def _broken(tmp_path, old: str, new: str, lang: str = "en") -> list[str]:
    """check_deck on a copy of the deck where one card has every `old` replaced by `new`."""
    for lg in cards.LANGS:
        folder = tmp_path / lg / cards.CARDS_DIR
        folder.mkdir(parents=True, exist_ok=True)
        for c in DECK[lg]:
            text = c.path.read_text(encoding="utf-8")
            if lg == lang and c.id == "why-scale":
                assert old in text, f"{old!r} not in {c.path}: update this test"
                text = text.replace(old, new)
            (folder / c.path.name).write_text(text, encoding="utf-8")
    return cards.check_deck(tmp_path)


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("difficulty: easy", "difficulty: trivial", "difficulty 'trivial' is not one of"),
        ("difficulty: easy\n", "", "front matter lacks 'difficulty'"),
        (
            "related: [dot-product-variance,",
            "related: [no-such-card,",
            "unknown card 'no-such-card'",
        ),
        ("tags: [scaling,", "tags: [no-such-tag,", "unknown tag 'no-such-tag'"),
        ("## Pitfalls", "## Traps", "`##` sections must be exactly"),
        ("- [QK-Norm and √d_k](qk-norm.md)\n", "", "does not link related card qk-norm.md"),
        ('??? question "', '!!! note "', "follow-ups need at least one"),
        ("id: why-scale", "id: why-scale-2", "must equal the file name"),
    ],
)
def test_checks_name_what_is_wrong(tmp_path, old, new, message):
    problems = _broken(tmp_path, old, new)
    assert any(message in p for p in problems), problems


def test_check_catches_metadata_that_differs_between_languages(tmp_path):
    problems = _broken(tmp_path, "difficulty: easy", "difficulty: hard", lang="zh")
    assert any("front matter differs between zh and en" in p for p in problems), problems


def unchecked_numbers(path: Path) -> list[str]:
    """Numbers on a card that its own code or checked output does not show (front matter aside)."""
    _, body = cards.split_front_matter(path.read_text(encoding="utf-8"))
    return docs_blocks.unchecked_numbers(body)


@pytest.mark.parametrize("path", CARD_PAGES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_number_on_a_card_is_computed_by_its_code(path):
    missing = unchecked_numbers(path)
    assert not missing, (
        f"{path.relative_to(ROOT)}: {missing} appear in the prose but in no code block or checked "
        "output of the card: compute them, or use a {{ computed }} value"
    )


def test_number_audit_flags_a_typed_number(tmp_path):
    page = tmp_path / "card.md"
    page.write_text("# Q\n\nThe std is 8.08.\n\n```python\nprint(1)\n```\n", encoding="utf-8")
    assert unchecked_numbers(page) == ["8.08"]
    page.write_text("# Q\n\nThe std is 8.08.\n\n```text\nstd 8.08\n```\n", encoding="utf-8")
    assert unchecked_numbers(page) == []


def test_nav_lists_the_cards_in_deck_order():
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as fh:
        nav = yaml_load(fh)["nav"]
    section = next(v for item in nav for k, v in item.items() if k == "面试卡片")
    expected = [f"{cards.CARDS_DIR}/{c.id}.md" for c in DECK["zh"]]
    assert section == ["cards/index.md", *expected, "cards/handbook.md"]


@pytest.mark.parametrize("lang", cards.LANGS)
def test_relations_list_both_directions(lang):
    rel = cards_render.relations(lang)
    for cid, (to, _) in rel.items():
        for other in to:
            assert cid in rel[other][1], f"{cid} -> {other} missing from {other}'s back links"
    table = cards_render.cards_relations(lang)
    assert table.count("\n") == len(DECK[lang]) + 1


@pytest.mark.parametrize("lang", cards.LANGS)
def test_deck_table_lists_every_card_with_labels_in_its_language(lang):
    table = cards_render.cards_table(lang)
    for c in DECK[lang]:
        assert f"]({c.id}.md) | {cards.MODULES[c.module][lang]} |" in table
        assert all(cards.TAGS[t][lang] in table for t in c.tags)


@pytest.mark.parametrize("lang", cards.LANGS)
def test_handbook_holds_every_card_once_with_answers_open_and_links_in_page(lang):
    text = cards_render.handbook(lang, render)
    for c in DECK[lang]:
        assert text.count(f"{{ #card-{c.id} .card-title }}") == 1
        assert f"]({c.id}.md" not in text, "a link to a card page should point into the handbook"
    assert not re.search(r"^\s*\?\?\? ", text, re.M), "follow-up answers must print open"
    assert "{{" not in text


@pytest.mark.build
def test_an_invalid_card_fails_the_build_naming_it(project_copy):
    from tests.conftest import mkdocs_build

    page = project_copy / "docs/en/cards/why-scale.md"
    page.write_text(page.read_text(encoding="utf-8").replace("difficulty: easy", "difficulty: x"))
    result = mkdocs_build(project_copy, project_copy / "site")
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert "interview cards do not follow the format" in out and "why-scale.md" in out, out
