"""The single-file handbook and its PDF, as readers open them: the HTML from file:// with every
other request refused, the PDF through a text extractor."""

from __future__ import annotations

import re
import unicodedata

import pytest
from pypdf import PdfReader

from lockstep.cards.deck import Deck
from tests.browser_support import require_chromium
from tests.conftest import LANGS, SITE, lang_dir

require_chromium()
DECK = Deck(SITE)


def download(site, lang: str, suffix: str):
    return lang_dir(site, lang) / DECK.options.anki_dest / f"handbook.{lang}.{suffix}"


# Chromium writes each glyph's text as the first code point the font maps to it, and Noto CJK
# maps some ideographs' glyphs from radical code points too: extracted text then has 长 as ⻓
# (U+2ED3), 目 as ⽬ (U+2F6C). NFKC undoes the Kangxi radicals (U+2F00–U+2FDF); the supplement
# (U+2E80–U+2EFF) has no mapping, so those characters match any character here. A known defect
# of the PDF: copying or searching such characters in a viewer gives the radical.
RADICALS = re.compile("[\u2e80-\u2eff]")


def plain(text: str) -> str:
    """Text for comparing: NFKC and no spaces or line breaks (the PDF wraps lines anywhere)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def found(title: str, text: str) -> bool:
    """Whether `title` is in the extracted `text`, where a supplement radical may stand for any
    ideograph of the title."""
    radical = RADICALS.pattern
    pattern = "".join(
        f"(?:{re.escape(c)}|{radical})" if "\u4e00" <= c <= "\u9fff" else re.escape(c)
        for c in plain(title)
    )
    return re.search(pattern, text) is not None


@pytest.mark.parametrize("lang", LANGS)
def test_the_handbook_file_opens_offline_with_every_card_and_no_raw_tex(built_site, browser, lang):
    path = download(built_site, lang, "html")
    page = browser.new_page()
    requests = []

    def refuse_all_but_the_file(route):
        requests.append(route.request.url)
        if route.request.url == path.as_uri():
            route.continue_()
        else:
            route.abort()

    page.route("**/*", refuse_all_but_the_file)
    try:
        page.goto(path.as_uri(), wait_until="load")
        assert requests == [path.as_uri()], requests  # images and styles are inside
        assert page.evaluate("document.scripts.length") == 0
        for card in DECK.cards(lang):
            assert page.locator(f"#card-{card.id}").count() == 1, card.id
        text = page.inner_text("body")
        assert not re.search(r"\\\(|\\\[|\$\$|\\frac|\\sqrt", text), "raw TeX left"
        assert page.locator("mjx-container svg").count() > 100  # formulas drawn as SVG
        ids = "as => as.map(a => decodeURIComponent(a.getAttribute('href').slice(1)))"
        toc = page.eval_on_selector_all(".single-file-toc a", ids)
        assert len(toc) >= len(DECK.cards(lang))
        internal = page.eval_on_selector_all("article a[href^='#']", ids)
        exists = "ids => ids.filter(i => i && !document.getElementById(i))"
        assert not page.evaluate(exists, toc + internal), "a link within the file goes nowhere"
    finally:
        page.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_pdf_holds_every_card_as_text_one_per_page_with_an_outline(built_site, lang):
    reader = PdfReader(download(built_site, lang, "pdf"))
    cards = DECK.cards(lang)
    assert len(reader.pages) >= len(cards)
    # The outline leads to each card; the text is extracted from the page it leads to (and the
    # next, should the title wrap across), not from the whole PDF: pypdf is slow per page.
    marks = {
        plain(item.title): reader.get_destination_page_number(item)
        for item in _flat(reader.outline)
    }
    starts = []
    for card in cards:
        page = marks.get(plain(card.title))
        assert page is not None, f"no bookmark for {card.title}"
        text = plain(reader.pages[page].extract_text())
        if not found(card.title, text) and page + 1 < len(reader.pages):  # a title across pages
            text += plain(reader.pages[page + 1].extract_text())
        assert found(card.title, text), card.title
        if lang == "en":
            assert not RADICALS.search(text)
        starts.append(page)
    assert starts == sorted(set(starts)), "two cards start on one page"


def _flat(outline: list) -> list:
    """The PDF's bookmarks, nested ones included, in order."""
    return [x for item in outline for x in (_flat(item) if isinstance(item, list) else [item])]
