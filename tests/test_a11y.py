"""Accessibility of the built site: axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules in both
colour schemes, a keyboard walk through a card, and the Nu HTML checker.

axe samples one page of each kind (KINDS: home, cards, the central page, derivation, kernel,
benchmark, notebook, glossary, references), cycling through the four pairs of language and
colour scheme, and the 404 page in both schemes. The cards index and practice mode are checked
whole and in each of their states by tests/test_practice_browser.py, in both languages and
both schemes. A11Y_ALL=1 (`make a11y`) checks every page of both languages
and the 404 page in both schemes instead (13 min 16 s on 2 cores, 2026-12-02). The formulas
are drawn at build time, so nothing waits for them.

The Nu checker reads every page but the single cards, of which it reads the sampled ones: each
card's content is also in the practice page and the handbooks, which it reads (A11Y_ALL: every
page).
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lockstep.browser import built_pages
from lockstep.cards.deck import Deck
from tests.browser_support import missing_tool, require_chromium
from tests.conftest import LANGS, ROOT, SITE

require_chromium()

pytestmark = pytest.mark.browser

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]  # 2.2 AA: targets ≥ 24×24 px
KINDS = [
    "",
    "cards/why-scale/",
    "cards/mqa-gqa/",
    "why-dot-product-grows/",
    "derivation/variants/",
    "kernels/triton/",
    "kernels/benchmarks/",
    "notebooks/training/",
    "glossary/",
    "references/",
]
SCHEMES = ("light", "dark")
# The handbook lays out a card only as it nears the screen (content-visibility: auto, in
# cards.css); axe measures the links of cards not laid out as smaller than they are drawn, so
# every part is laid out first, as a reader scrolling to it sees it.
LAID_OUT = "* { content-visibility: visible !important; }"


def _sample() -> list[tuple[str, str]]:
    """(page, scheme) pairs: every kind once, cycling through the four pairs of language and
    colour scheme (zh light, zh dark, en light, en dark); the 404 page in both schemes."""
    pairs = []
    for i, kind in enumerate(KINDS):
        prefix = "en/" if (i // 2) % 2 else ""
        pairs.append((prefix + kind, SCHEMES[i % 2]))
    return pairs + [("404.html", scheme) for scheme in SCHEMES]


def _targets(built_site) -> list[tuple[str, str]]:
    if os.environ.get("A11Y_ALL"):
        pages = [*built_pages(built_site), "404.html"]
        return [(page, scheme) for page in pages for scheme in SCHEMES]
    return _sample()


@pytest.fixture(scope="module")
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def test_axe_finds_no_wcag_violation(browser, base_url, built_site, axe):
    failures = []
    for path, scheme in _targets(built_site):
        context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(base_url + path, wait_until="load")
        page.add_style_tag(content=LAID_OUT)
        options = {"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]}
        result = axe.run(page, options=options)
        for violation in result.response["violations"]:
            nodes = [" ".join(n["target"]) for n in violation["nodes"][:3]]
            failures.append(f"{path or '/'} ({scheme}): {violation['id']} at {nodes}")
        context.close()
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize("lang_prefix, other", [("", "en"), ("en/", "zh")])
def test_keyboard_reaches_a_follow_up_answer_and_the_other_language(
    browser, base_url, lang_prefix, other
):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    url = base_url + lang_prefix + "cards/why-scale/"
    page.goto(url, wait_until="load")
    page.keyboard.press("Tab")  # the skip link comes first ...
    assert "md-skip" in page.evaluate("document.activeElement.className")
    page.keyboard.press("Enter")  # ... and jumps past the header and navigation
    focused = None
    for _ in range(40):  # formulas are no tab stops: about 25 stops on this card
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "[document.activeElement.tagName, !!document.activeElement.closest('article details')]"
        )
        if focused == ["SUMMARY", True]:
            break
    assert focused == ["SUMMARY", True], "no follow-up question within 40 tab stops"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.parentElement.open"), "Enter did not open it"
    # Back to the top; the language menu is reached and followed with the keyboard alone.
    page.goto(url, wait_until="load")
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.getAttribute('hreflang') === '{other}'"):
            break
    assert page.evaluate("document.activeElement.getAttribute('lang')") == other
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("cards/why-scale/") and page.url != url
    page.close()


# Errors the Nu checker reports in HTML that the project does not write: (message, where it
# may occur: part of the page's path, or of the offending HTML). Listed (and in the README),
# not silenced: a new kind, or a known kind elsewhere, fails the test, and so does an entry
# that no longer occurs (an upgrade fixed it: drop it from the list).
UPSTREAM = [
    # Material: partials/nav-item.html gives navigation section labels tabindex="".
    ("Bad value “” for attribute “tabindex” on element “label”", 'class="md-nav__link"'),
    # Material: base.html's hidden checkbox toggles carry autocomplete="off".
    ("Attribute “autocomplete” is only allowed when the input type is", 'class="md-toggle"'),
    # mkdocs-jupyter: <style> elements in the body, an aria-label on its copy button.
    ("A “style” element in “body” must be the first child", "notebooks/"),
    ("on any “clipboard-copy” element unless", "notebooks/"),
    # Material's style sheet as Chromium writes it out in the single-file handbooks: the
    # checker's CSS parser rejects parts of it. (The notebooks' inlined JupyterLab sheet, now
    # cut to the rules each page uses, no longer trips it.)
    ("CSS: ", "assets/downloads/"),
]


# A short run in a JVM: the quick compiler only and one garbage collector thread. The HTML
# check took 12.5 s and 24 s of CPU on 2 cores with Java's defaults, 11 s and 12 s with these
# (2026-12-03). With the quick compiler alone, reading the schema overflows the default stack.
JVM = ["-Xss4m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]


def _nu_errors(jar, *paths, css: bool = False) -> list[dict]:
    cmd = ["java", *JVM, "-jar", str(jar), "--format", "json", "--errors-only"]
    cmd += ["--css"] if css else ["--skip-non-html"]
    done = subprocess.run([*cmd, *map(str, paths)], capture_output=True, text=True, timeout=300)
    return [m for m in json.loads(done.stderr)["messages"] if m["type"] == "error"]


def _nu_jar():
    if not shutil.which("java"):
        missing_tool("the Nu HTML checker needs Java (apt-get install default-jre-headless)")
    jar = ROOT / "node_modules/vnu-jar/build/dist/vnu.jar"
    assert jar.is_file(), "vnu.jar missing: run `npm ci` (make venv)"
    return jar


def _nu_targets(site: Path) -> list[Path]:
    """What the Nu checker reads: the site, or all of it but the cards the sample leaves out."""
    if os.environ.get("A11Y_ALL"):
        return [site]
    deck, folder = Deck(SITE), SITE.options.cards.folder
    cards = {
        f"{SITE.languages.prefix(lang)}{folder}/{card.id}/"
        for lang in LANGS
        for card in deck.cards(lang)
        if f"{folder}/{card.id}/" not in KINDS
    }
    skipped = {site / path / "index.html" for path in cards}
    return [page for page in sorted(site.rglob("*.html")) if page not in skipped]


def test_nu_checker_finds_no_error_in_the_projects_html(built_site, tmp_path):
    control = tmp_path / "control.html"  # one known error: the checker is really checking
    control.write_text('<!doctype html><html lang="en"><title>x</title><p>a</div>')
    targets = _nu_targets(built_site)
    assert any("handbook" in str(t) for t in targets) or targets == [built_site]
    errors = _nu_errors(_nu_jar(), *targets, control)
    assert any(m["url"].endswith("control.html") for m in errors), errors[-3:]
    site = built_site.resolve().as_uri() + "/"
    used, ours = set(), []
    for m in errors:
        if m["url"].endswith("control.html"):
            continue
        path = m["url"].removeprefix(site)
        known = [
            i
            for i, (message, where) in enumerate(UPSTREAM)
            if message in m["message"] and (where in path or where in m.get("extract", ""))
        ]
        used.update(known)
        if not known:
            ours.append(f"{path}:{m.get('lastLine')}: {m['message']}")
    assert ours == [], "\n".join(ours)
    gone = [UPSTREAM[i] for i in range(len(UPSTREAM)) if i not in used]
    assert gone == [], f"upstream errors no longer reported, drop them from UPSTREAM: {gone}"


def test_nu_checker_finds_no_error_in_the_projects_css(tmp_path):
    control = tmp_path / "control.css"
    control.write_text("p { colour: red; }\n")
    sheets = sorted((ROOT / "docs/assets/stylesheets").glob("*.css"))
    errors = _nu_errors(_nu_jar(), *sheets, control, css=True)
    assert any(m["url"].endswith("control.css") for m in errors), errors
    ours = [f"{m['url']}: {m['message']}" for m in errors if not m["url"].endswith("control.css")]
    assert ours == [], "\n".join(ours)
