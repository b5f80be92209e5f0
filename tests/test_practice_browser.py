"""Practice mode and the knowledge map in headless Chromium, in both languages: filters, the
reveal order, marks kept across a reload and shown on the cards index, reset, the keyboard
alone, the offline edition from file://, and the map's boxes leading to their cards."""

import re

import pytest

from lockstep.cards.deck import Deck
from lockstep.cards.practice import storage_key
from tests.browser_support import guarded_page, require_chromium, screenshot
from tests.conftest import LANGS, SITE

require_chromium()

pytestmark = pytest.mark.browser

DECK = Deck(SITE)
KEY = storage_key(DECK)
PREFIX = {lang: SITE.languages.prefix(lang) for lang in LANGS}  # "" or "en/"


def _fresh(page, url: str) -> None:
    """Open `url` in a page of its own: a new browser context, so no marks and no session."""
    page.goto(url)
    assert page.evaluate(f"JSON.parse(localStorage.getItem('{KEY}')).marks") == {}


def _status(page) -> str:
    return page.locator(".practice-status").inner_text()


def _visible(page) -> tuple[list[str], list[str]]:
    """Ids of the cards shown, and the steps shown of the card shown."""
    cards = page.locator(".practice-card:visible")
    ids = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
    steps = page.locator(".practice-card:visible .practice-step:visible")
    return ids, [steps.nth(i).get_attribute("data-step") for i in range(steps.count())]


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def _label(key: str, lang: str) -> str:
    return DECK.vocabulary.practice[key][lang]


@pytest.mark.parametrize("lang", LANGS)
def test_reveal_order_marks_reload_filters_and_reset(page, base_url, lang):
    cards = DECK.cards(lang)
    _fresh(page, base_url + PREFIX[lang] + "cards/practice/")
    assert _visible(page) == ([cards[0].id], []), "the question alone comes first"
    assert _numbers(_status(page)) == [1, len(cards)]
    reveal = page.locator('[data-action="reveal"]')
    for shown in (["1"], ["1", "2"], ["1", "2", "3"]):  # answer, key points, how to answer
        reveal.click()
        assert _visible(page) == ([cards[0].id], shown)
    assert reveal.is_disabled()
    link = page.locator(
        ".practice-card:visible .practice-step a", has_text=_label("open_card", lang)
    )
    assert link.get_attribute("href").rstrip("/").endswith(cards[0].id)
    page.locator('[data-mark="shaky"]').click()
    assert page.locator('[data-mark="shaky"]').get_attribute("aria-pressed") == "true"
    page.locator('[data-action="next"]').click()
    assert _visible(page) == ([cards[1].id], [])
    page.locator('[data-mark="known"]').click()

    page.reload()  # the session and the marks survive
    assert _visible(page) == ([cards[1].id], [])
    assert page.locator('[data-mark="known"]').get_attribute("aria-pressed") == "true"

    page.locator('[data-filter="unsure"]').check()  # only the shaky and unknown ones
    assert _visible(page)[0] == [cards[0].id] and _numbers(_status(page)) == [1, 1]
    page.locator('[data-filter="unsure"]').uncheck()
    module = min(DECK.vocabulary.modules, key=lambda m: sum(c.module == m for c in cards) or 99)
    page.locator('[data-filter="module"]').select_option(module)
    in_module = [c.id for c in cards if c.module == module]
    assert _numbers(_status(page)) == [1, len(in_module)]
    seen = []
    for _ in in_module:
        seen += _visible(page)[0]
        page.locator('[data-action="next"]').click()
    assert seen == in_module
    assert _status(page) == _label("done", lang)

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator('[data-action="reset"]').click()
    assert page.evaluate(f"JSON.parse(localStorage.getItem('{KEY}')).marks") == {}
    page.locator('[data-filter="module"]').select_option("")
    assert _numbers(_status(page)) == [1, len(cards)]
    assert page.foreign == []


@pytest.mark.parametrize("lang", LANGS)
def test_practice_by_keyboard_alone_and_the_marks_on_the_cards_index(browser, base_url, lang):
    page = guarded_page(browser, (base_url,), height=900)
    cards = DECK.cards(lang)
    _fresh(page, base_url + PREFIX[lang] + "cards/practice/")
    for shown in (["1"], ["1", "2"], ["1", "2", "3"]):
        page.keyboard.press("Space")
        assert _visible(page) == ([cards[0].id], shown)
    assert page.evaluate("window.scrollY") == 0, "Space scrolled the page"
    for i, (key, mark) in enumerate((("1", "known"), ("2", "shaky"), ("3", "missed"))):
        assert _visible(page)[0] == [cards[i].id]
        page.keyboard.press(key)
        assert page.locator(f'[data-mark="{mark}"]').get_attribute("aria-pressed") == "true"
        page.keyboard.press("ArrowRight")
    assert _visible(page) == ([cards[3].id], [])
    # The filters and buttons are reached with Tab (past the skip link and the navigation),
    # and a filter is changed with the arrows.
    page.evaluate("window.scrollTo(0, 0)")
    page.keyboard.press("Tab")  # the skip link ...
    page.keyboard.press("Enter")  # ... to the content
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.filter") == "difficulty":
            break
    assert page.evaluate("document.activeElement.dataset.filter") == "difficulty"
    page.keyboard.press("ArrowDown")  # the first difficulty after "all"
    first = next(iter(DECK.vocabulary.difficulties))
    assert _numbers(_status(page))[1] == sum(c.difficulty == first for c in cards)
    screenshot(page, f"{lang}-practice", full_page=False)
    # The cards index shows each mark on its card, and counts them per module.
    page.goto(base_url + PREFIX[lang] + "cards/")
    for card, mark in zip(cards, ("known", "shaky", "missed"), strict=False):
        assert page.locator(f'.card-mark[data-card="{card.id}"]').inner_text() == _label(mark, lang)
    assert page.locator(f'.card-mark[data-card="{cards[3].id}"]').inner_text() == ""
    summary = page.locator(".practice-summary")
    assert summary.is_visible()
    counts = {}
    for mark in ("known", "shaky", "missed", "new"):
        cells = summary.locator(f'[data-count="{mark}"]')
        counts[mark] = sum(int(cells.nth(i).inner_text()) for i in range(cells.count()))
    assert counts == {"known": 1, "shaky": 1, "missed": 1, "new": len(cards) - 3}
    screenshot(summary, f"{lang}-cards-progress", full_page=False)
    assert page.foreign == []
    page.close()


@pytest.mark.parametrize("lang", LANGS)
def test_map_boxes_lead_to_their_cards(page, base_url, built_site, lang):
    page.goto(base_url + PREFIX[lang] + "cards/")
    nodes = page.locator(".card-map a.map-node")
    assert nodes.count() == len(DECK.cards(lang))
    for i in range(nodes.count()):
        href = nodes.nth(i).get_attribute("href")
        card = nodes.nth(i).get_attribute("data-card")
        assert href == f"{card}/"
        assert (built_site / PREFIX[lang] / "cards" / card / "index.html").is_file()
    screenshot(page.locator(".card-map"), f"{lang}-cards-map", full_page=False)
    target = DECK.cards(lang)[-1]
    page.locator(f'.card-map a[data-card="{target.id}"]').click()
    page.wait_for_url(f"**/cards/{target.id}/")
    assert page.locator("h1").inner_text().strip().removesuffix("¶") == target.title
    assert page.foreign == []


@pytest.mark.parametrize("lang", LANGS)
def test_offline_edition_practises_and_maps_from_file(browser, offline_site, lang):
    pg = guarded_page(browser, ("file://", "data:", "blob:", "about:"))
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    root = offline_site.as_uri() + "/" + PREFIX[lang]
    _fresh(pg, root + "cards/practice.html")
    pg.keyboard.press("Space")
    pg.keyboard.press("2")
    pg.reload()
    assert _visible(pg) == ([DECK.cards(lang)[0].id], ["1"]), "progress lost on reload"
    pg.goto(root + "cards/index.html")
    assert pg.locator(".card-mark:not(:empty)").count() == 1
    href = pg.locator(".card-map a.map-node").first.get_attribute("href")
    assert href.endswith(".html") and (offline_site / PREFIX[lang] / "cards" / href).is_file()
    assert pg.foreign == [] and errors == []
    pg.close()


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_script_the_practice_page_lists_every_card_with_its_answers(
    browser, base_url, lang
):
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(base_url + PREFIX[lang] + "cards/practice/")
    assert pg.locator(".practice").is_hidden(), "controls that nothing would drive"
    assert pg.locator(".practice-card:visible").count() == len(DECK.cards(lang))
    assert pg.locator(".practice-step:visible").count() == 3 * len(DECK.cards(lang))
    context.close()
