"""Interview cards in headless Chromium: math renders, tags filter, the offline edition searches."""

from urllib.parse import unquote

import pytest

from lockstep.cards.deck import Deck
from tests.browser_support import (
    assert_no_math_script,
    guarded_page,
    require_chromium,
    screenshot,
    search,
)
from tests.conftest import SITE

require_chromium()


pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_card_and_index_render_math_without_raw_tex(page, base_url, lang_prefix):
    lang = lang_prefix.rstrip("/") or "zh"
    for path, shot, formulas in (
        ("cards/why-scale/", "card-why-scale", 10),
        ("cards/", "cards-index", 0),
    ):
        page.goto(base_url + lang_prefix + path)
        assert_no_math_script(page)
        text = page.locator("article").inner_text()
        for raw in ("\\frac", "\\sqrt", "\\operatorname", "$$", "{{"):
            assert raw not in text, f"{raw!r} visible on {path}"
        assert page.locator("article mjx-container").count() >= formulas
        screenshot(page, f"{lang}-{shot}", full_page=(shot == "cards-index"))
    assert page.foreign == []


def test_follow_up_answers_are_collapsed_and_open_on_click(page, base_url):
    page.goto(base_url + "en/cards/why-scale/")
    first = page.locator("details.question").first
    assert first.get_attribute("open") is None
    first.locator("summary").click()
    assert first.get_attribute("open") is not None


@pytest.mark.parametrize("lang_prefix, lang", [("", "zh"), ("en/", "en")])
def test_a_tag_on_a_card_leads_to_the_cards_with_that_tag(page, base_url, lang_prefix, lang):
    page.goto(base_url + lang_prefix + "cards/soft-capping/")
    label = Deck(SITE).vocabulary.tags["soft-capping"][lang]
    page.locator(".md-tag", has_text=label).first.click()
    page.wait_for_load_state()
    assert "/cards/#tag:" in page.url, page.url
    anchor = unquote(page.url.split("#", 1)[1])
    section = page.locator(f"[id='{anchor}']").locator("xpath=following-sibling::*[1]")
    linked = section.locator("a").evaluate_all("links => links.map(a => a.href)")
    assert any("cards/soft-capping/" in h for h in linked), linked


@pytest.mark.parametrize(
    "start, query, target",
    [
        ("index.html", "软封顶", "cards/soft-capping.html"),
        ("en/index.html", "soft-capping", "en/cards/soft-capping.html"),
    ],
)
def test_offline_edition_finds_a_card_by_search_from_file(
    browser, offline_site, start, query, target
):
    root = offline_site.as_uri() + "/"
    pg = guarded_page(browser, ("file://", "data:", "blob:", "about:"))
    pg.goto(root + start)
    hrefs = search(pg, query)
    assert any(h.startswith(root + target) for h in hrefs), hrefs
    pg.goto(root + target)
    assert_no_math_script(pg)
    assert pg.locator("article mjx-container").count() > 3
    assert pg.foreign == [], f"the offline edition requested {pg.foreign}"
    pg.close()
