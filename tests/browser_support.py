"""What the browser tests share: Debian's Chromium, and pages that refuse every other host."""

import os
from pathlib import Path

import pytest

from lockstep.browser import CHROMIUM, available

SHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"


def missing_tool(reason: str) -> None:
    """Skip what needs a missing tool, visibly; in CI that is a failure instead."""
    if os.environ.get("CI"):
        pytest.fail(reason + " — it may not be skipped in CI", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_chromium() -> None:
    """Skip the calling test module without Chromium (a failure in CI)."""
    if not available():
        missing_tool(f"{CHROMIUM} not found: install Debian's chromium and fonts-noto-cjk")


def assert_no_math_script(page) -> None:
    """The page's formulas came drawn with the HTML: nothing typesets them in the browser."""
    assert page.evaluate("window.MathJax === undefined"), "a page loaded MathJax"


def guarded_page(browser, allowed: tuple[str, ...], height: int = 1400, js: bool = True):
    """A page that refuses and records every request whose URL starts with none of `allowed`
    (with `js` False, in a context of its own that runs no scripts)."""
    viewport = {"width": 1280, "height": height}
    if js:
        pg = browser.new_page(viewport=viewport)
    else:
        pg = browser.new_context(viewport=viewport, java_script_enabled=False).new_page()
    pg.foreign = []
    refuse_foreign(pg, pg, allowed)
    return pg


def refuse_foreign(target, pg, allowed: tuple[str, ...]) -> None:
    """Route every request of `target` (a page or a context): those whose URL starts with none
    of `allowed` are refused and recorded in `pg.foreign`."""

    def guard(route):
        if route.request.url.startswith(allowed):
            route.continue_()
        else:
            pg.foreign.append(route.request.url)
            route.abort()

    target.route("**/*", guard)


def screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot of a page (or of one element, given a locator) for a person to look
    at, and check it shows something rendered: a blank or half-loaded page has a handful of
    colours, a page with text and figures has hundreds."""
    from PIL import Image

    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    whole = {"full_page": full_page} if hasattr(page, "goto") else {}  # a locator: its box
    page.screenshot(path=str(path), **whole)
    with Image.open(path) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50, f"{path} looks blank ({len(colours)} colours)"
    return path


def search(page, query: str) -> list[str]:
    """Type `query` into Material's search box and return the result links' hrefs (the box
    is emptied first, so that a page searches one query after another without reloading its
    index, and no result of the query before is read as one of this query's)."""
    box = page.locator("input.md-search__input")
    hits = page.locator(".md-search-result__item a")
    box.click()
    if box.input_value():
        box.fill("")
        box.press("End")  # fill() alone does not fire the keyup that triggers search
        hits.first.wait_for(state="detached", timeout=15_000)
    box.fill(query)
    box.press("End")
    hits.first.wait_for(timeout=15_000)
    return [hits.nth(i).get_attribute("href") for i in range(hits.count())]
