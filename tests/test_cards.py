"""Interview cards: the format is enforced, the deck hangs together, the tables are right.

Every number on a card is checked like any page's (lockstep's numbers item, docs/**)."""

import dataclasses
import re

import pytest
from mkdocs.utils import yaml_load

from lockstep.cards import render
from lockstep.cards.answer_size import answer_size
from lockstep.cards.deck import Deck, linked_card, read_card
from lockstep.markup import DETAILS, targets
from lockstep.values import Values
from tests.conftest import LANGS, ROOT, SITE, mkdocs_build

DECK = Deck(SITE)
CARDS = {lang: DECK.cards(lang) for lang in LANGS}
VALUES = Values.from_module(SITE.options.values, ROOT, cache=None)


def test_deck_follows_the_format():
    problems = DECK.check()
    assert not problems, "\n".join(problems)


def test_deck_has_the_same_cards_in_both_languages_and_at_least_sixty():
    zh, en = ([c.id for c in CARDS[lang]] for lang in LANGS)
    assert zh == en
    assert len(zh) >= 60


@pytest.mark.parametrize("lang", LANGS)
def test_new_card_template_passes_every_check(tmp_path, lang):
    path = tmp_path / lang / "cards" / "my-card.md"
    path.parent.mkdir(parents=True)
    path.write_text(DECK.template("my-card", lang, related="why-scale"), encoding="utf-8")
    assert DECK.check_card(read_card(path, lang), {"why-scale"}) == []


def _broken(tmp_path, old: str, new: str, lang: str = "en") -> list[str]:
    """The deck's checks on a copy where one card has every `old` replaced by `new`."""
    for lg in LANGS:
        folder = tmp_path / lg / "cards"
        folder.mkdir(parents=True, exist_ok=True)
        for c in CARDS[lg]:
            text = c.path.read_text(encoding="utf-8")
            if lg == lang and c.id == "why-scale":
                assert old in text, f"{old!r} not in {c.path}: update this test"
                text = text.replace(old, new)
            (folder / c.path.name).write_text(text, encoding="utf-8")
    return Deck(dataclasses.replace(SITE, docs_dir=tmp_path)).check()


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


def _answer(lang: str) -> str:
    card = next(c for c in CARDS[lang] if c.id == "why-scale")
    return DECK.section(card, "answer").strip()


@pytest.mark.parametrize("lang", LANGS)
def test_an_answer_over_the_limit_fails_naming_its_size(tmp_path, lang):
    answer = _answer(lang)
    longer = answer + (" and so on" if lang == "en" else "，以此类推") * 12
    problems = _broken(tmp_path, answer, longer, lang=lang)
    unit = "characters" if lang in SITE.options.chinese else "words"
    limit = DECK.vocabulary.limits["answer"][lang]
    assert any(f"{unit} said aloud, more than {limit}" in p for p in problems), problems


@pytest.mark.parametrize("lang", LANGS)
def test_how_to_answer_needs_ordered_steps_and_extra_credit(tmp_path, lang):
    card = next(c for c in CARDS[lang] if c.id == "why-scale")
    text = DECK.section(card, "how_to_answer")
    unordered = re.sub(r"^\d+\. ", "- ", text, flags=re.M)
    problems = _broken(tmp_path, text, unordered, lang=lang)
    assert any("at least two numbered steps" in p for p in problems), problems
    label = DECK.vocabulary.labels["extra_credit"][lang]
    problems = _broken(tmp_path, f"**{label}**", label, lang=lang)
    assert any(f"needs a `**{label}**` line" in p for p in problems), problems


def test_every_answer_fits_its_limit_and_opens_in_words():
    for lang in LANGS:
        limit = DECK.vocabulary.limits["answer"][lang]
        for card in CARDS[lang]:
            answer = DECK.section(card, "answer").strip()
            assert answer_size(answer, lang in SITE.options.chinese) <= limit, card.path
            assert not answer.startswith("$"), card.path


def test_check_catches_metadata_that_differs_between_languages(tmp_path):
    problems = _broken(tmp_path, "difficulty: easy", "difficulty: hard", lang="zh")
    assert any("front matter differs between zh and en" in p for p in problems), problems


def test_nav_lists_the_cards_in_deck_order_one_section_per_module():
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as fh:
        nav = yaml_load(fh)["nav"]
    section = next(v for item in nav for k, v in item.items() if k == "面试卡片")
    default = SITE.languages.default
    modules = DECK.vocabulary.modules
    groups = {}
    for card in CARDS[default]:
        groups.setdefault(modules[card.module][default], []).append(f"cards/{card.id}.md")
    expected = [{title: paths} for title, paths in groups.items()]
    assert section == ["cards/index.md", "cards/practice.md", *expected, "cards/handbook.md"]


@pytest.mark.parametrize("lang", LANGS)
def test_relations_list_both_directions_one_row_per_card(lang):
    rel = render.relations(DECK, lang)
    for cid, (to, _) in rel.items():
        for other in to:
            assert cid in rel[other][1], f"{cid} -> {other} missing from {other}'s back links"
    rows = render.relations_table(DECK, lang).splitlines()[2:]
    assert [linked_card(targets(row)[0]) for row in rows] == list(rel)


@pytest.mark.parametrize("lang", LANGS)
def test_deck_table_lists_every_card_with_labels_in_its_language(lang):
    table, v = render.deck_table(DECK, lang), DECK.vocabulary
    for c in CARDS[lang]:
        slot = render.mark_slot(c)  # the reader's practice mark, filled in by the script
        assert f"]({c.id}.md) {slot} | {v.modules[c.module][lang]} |" in table
        assert all(v.tags[t][lang] in table for t in c.tags)


@pytest.mark.parametrize("lang", LANGS)
def test_handbook_holds_every_card_once_said_aloud_with_answers_open_and_links_in_page(lang):
    text = render.handbook(DECK, lang, VALUES.substitute)
    depth = DECK.vocabulary.labels["depth"][lang]
    for c in CARDS[lang]:
        assert text.count(f"{{ #card-{c.id} .card-title }}") == 1
        # one link to the card's own page, for its derivation; every other link stays in-page
        assert text.count(f"]({c.id}.md") == 1 and f"{depth}[{c.title}]({c.id}.md)" in text
    for key in render.DEPTH_ON_THE_CARD:  # the derivations and trade-offs stay on the cards
        assert f"### {DECK.vocabulary.section_title(key, lang)}\n" not in text
    closed = [ln for ln in text.splitlines() if (m := DETAILS.match(ln)) and not m["open"]]
    assert not closed, f"follow-up answers must print open: {closed}"
    assert "{{" not in text


@pytest.mark.build
def test_an_invalid_card_fails_the_build_naming_it(project_copy):
    page = project_copy / "docs/en/cards/why-scale.md"
    page.write_text(page.read_text(encoding="utf-8").replace("difficulty: easy", "difficulty: x"))
    result = mkdocs_build(project_copy, project_copy / "site")
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert "interview cards do not follow the format" in out and "why-scale.md" in out, out
