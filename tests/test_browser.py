"""The built site in headless Chromium: languages, math, figures, switcher, search, offline."""

import pytest

from tests.browser_support import assert_no_math_script, require_chromium, screenshot, search

require_chromium()

from playwright.sync_api import Page  # noqa: E402

pytestmark = pytest.mark.browser

PAGE = "why-dot-product-grows/"


def open_with_math_drawn(page: Page, url: str) -> None:
    page.goto(url)
    assert_no_math_script(page)


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_page_renders_math_and_figures_without_other_hosts(page, base_url, lang_prefix):
    open_with_math_drawn(page, base_url + lang_prefix + PAGE)
    assert page.locator("mjx-container").count() > 10, "too few formulas drawn"
    text = page.locator("article").inner_text()
    for raw in ("\\frac", "\\sqrt", "\\mathbb", "$$", "\\("):
        assert raw not in text, f"raw TeX {raw!r} visible on the page"
    images = page.locator("article img")
    assert images.count() >= 1
    widths = page.eval_on_selector_all(
        "article img", "imgs => imgs.map(i => i.complete && i.naturalWidth)"
    )
    assert all(w and w > 0 for w in widths), f"a figure failed to load: naturalWidth {widths}"
    assert "{{" not in text
    screenshot(page, f"{(lang_prefix or 'zh/').rstrip('/')}-{PAGE.rstrip('/')}")
    assert page.foreign == [], f"requests to other hosts: {page.foreign}"


@pytest.mark.parametrize("start, target, hreflang", [("", "en/", "en"), ("en/", "", "zh")])
def test_language_switch_lands_on_the_counterpart_page(page, base_url, start, target, hreflang):
    page.goto(base_url + start + PAGE)
    page.hover(".md-header__option .md-select")
    page.click(f"a.md-select__link[hreflang={hreflang}]")
    page.wait_for_load_state()
    assert page.url == base_url + target + PAGE
    assert page.foreign == []


@pytest.mark.parametrize("lang_prefix, query", [("", "方差"), ("en/", "variance")])
def test_search_finds_the_page(page, base_url, lang_prefix, query):
    page.goto(base_url + lang_prefix)
    hrefs = search(page, query)
    assert any(PAGE in h for h in hrefs), f"{query!r} did not find {PAGE}: {hrefs}"
    assert page.foreign == []


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_notebook_page_renders_its_raw_tex_and_outputs(page, base_url, lang_prefix):
    # nbconvert leaves markdown cells' math as $…$; the build must draw it too.
    open_with_math_drawn(page, base_url + lang_prefix + "notebooks/qk_distribution/")
    cells = page.locator(".jp-RenderedMarkdown")
    assert cells.locator("mjx-container").count() > 5, "notebook math was not rendered"
    text = " ".join(cells.all_inner_texts())
    for raw in ("$", "\\mathbb", "\\sqrt", "\\cdot"):
        assert raw not in text, f"raw TeX {raw!r} visible in a notebook cell"
    widths = page.eval_on_selector_all(
        ".jp-OutputArea img", "imgs => imgs.map(i => i.complete && i.naturalWidth)"
    )
    assert widths and all(w and w > 0 for w in widths), f"an output image failed: {widths}"
    screenshot(page, f"{(lang_prefix or 'zh/').rstrip('/')}-notebook-qk_distribution")
    assert page.foreign == [], f"requests to other hosts: {page.foreign}"
