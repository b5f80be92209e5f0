"""The single-file handbook and its PDF, as readers open them: the HTML from file:// with every
other request refused, the PDF through a text extractor."""

from __future__ import annotations

import re
import unicodedata

import pypdfium2 as pdfium
import pytest

from lockstep.cards.deck import Deck
from tests.browser_support import require_chromium
from tests.conftest import LANGS, SITE, lang_dir

require_chromium()
DECK = Deck(SITE)


def download(site, lang: str, suffix: str):
    return lang_dir(site, lang) / DECK.options.anki_dest / f"handbook.{lang}.{suffix}"


# Chromium writes some ideographs' text as the radical code points Noto CJK also maps to their
# glyphs (a text extractor that reads the file's character maps, such as pypdf, gives ⻓ for 长).
# PDFium reads them as the ideographs, so the text is compared exactly and no radical may remain.
RADICALS = re.compile("[\u2e80-\u2fdf]")


def plain(text: str) -> str:
    """Text for comparing: NFC and no spaces or line breaks (the PDF wraps lines anywhere)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFC", text))


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
    # Read by PDFium (Chromium's PDF engine, through pypdfium2): the outline's bookmarks and
    # each card's first page (and the next, should the title wrap across).
    pdf = pdfium.PdfDocument(download(built_site, lang, "pdf"))
    cards = DECK.cards(lang)
    assert len(pdf) >= len(cards)
    marks = {
        plain(mark.get_title()): mark.get_dest().get_index()
        for mark in pdf.get_toc()
        if mark.get_dest() is not None
    }

    def text_of(page: int) -> str:
        return plain(pdf[page].get_textpage().get_text_range())

    starts = []
    for card in cards:
        page = marks.get(plain(card.title))
        assert page is not None, f"no bookmark for {card.title}"
        text = text_of(page)
        if plain(card.title) not in text and page + 1 < len(pdf):  # a title across pages
            text += text_of(page + 1)
        assert plain(card.title) in text, card.title
        assert not RADICALS.search(text), card.title
        starts.append(page)
    assert starts == sorted(set(starts)), "two cards start on one page"
