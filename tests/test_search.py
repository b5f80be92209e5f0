"""Search in the reader's language: each language's pages search that language's index."""

import json

import pytest

from tests.browser_support import guarded_page, require_chromium, search
from tests.conftest import LANGS, SITE, lang_dir

require_chromium()

pytestmark = pytest.mark.browser

SHARED_TERMS = ("softmax", "RoPE", "FlashAttention", "QK-Norm", "Triton")
OTHER = {lang: SITE.languages.others(lang)[0] for lang in LANGS}


def in_language(href: str, root: str, lang: str) -> bool:
    """Whether a result link leads to a page of `lang` (the default lives at the root)."""
    path = href.removeprefix(root)
    others = [SITE.languages.prefix(o) for o in SITE.languages.others(SITE.languages.default)]
    if lang == SITE.languages.default:
        return not path.startswith(tuple(others))
    return path.startswith(SITE.languages.prefix(lang))


@pytest.mark.parametrize("lang", LANGS)
def test_a_shared_term_finds_pages_of_the_readers_language_only(page, base_url, lang):
    page.goto(base_url + SITE.languages.prefix(lang))
    found = {term: search(page, term) for term in SHARED_TERMS}  # one page: one index load
    wrong = {
        t: [h for h in hrefs if not in_language(h, base_url, lang)] for t, hrefs in found.items()
    }
    assert all(found.values()), [term for term, hrefs in found.items() if not hrefs]
    assert not any(wrong.values()), f"from {lang} pages: {wrong}"
    assert page.foreign == []


@pytest.mark.parametrize("lang", LANGS)
def test_each_language_ships_an_index_of_its_own_pages_only(built_site, lang):
    index = json.loads((lang_dir(built_site, lang) / "search/search_index.json").read_text())
    locations = [d["location"] for d in index["docs"]]
    assert "why-dot-product-grows/" in locations
    other = SITE.languages.prefix(OTHER[lang])
    assert not any(loc.startswith(other) for loc in locations if other)
    assert {d["title"] for d in index["docs"]} != set()


@pytest.mark.parametrize("lang", LANGS)
def test_offline_edition_searches_the_readers_language_from_file(browser, offline_site, lang):
    root = offline_site.as_uri() + "/"
    pg = guarded_page(browser, ("file://", "data:", "blob:", "about:"))
    pg.goto(root + SITE.languages.prefix(lang) + "index.html")
    hrefs = search(pg, "softmax")
    wrong = [h for h in hrefs if not in_language(h, root, lang)]
    assert hrefs and not wrong, wrong
    assert pg.foreign == []
    pg.close()


@pytest.mark.parametrize("lang", LANGS)
def test_search_loads_nothing_until_the_reader_opens_it_then_finds_pages(page, base_url, lang):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(base_url + SITE.languages.prefix(lang) + "why-dot-product-grows/")
    page.wait_for_load_state("networkidle")
    searching = [u for u in requested if "search_index" in u or "/workers/search." in u]
    assert searching == [], f"requested before the reader searched: {searching}"
    assert "lunr" not in " ".join(requested)  # the worker's language support comes with it
    hrefs = search(page, "softmax")
    assert hrefs and all(in_language(h, base_url, lang) for h in hrefs)
    assert any("search_index.json" in u for u in requested)
    assert page.foreign == []
