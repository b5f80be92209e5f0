"""Accessibility of the built site: axe-core's WCAG 2.0/2.1 A and AA rules in both colour
schemes, a keyboard walk through a card, and the Nu HTML checker on every page.

axe samples one page of each kind (home, cards index, cards, the central page, derivation,
kernel, benchmark, notebook, glossary, references, 404) in both colour schemes, alternating the
language from kind to kind so that both languages meet both schemes: 24 page loads, about
50 s on 2 cores. A11Y_ALL=1 (`make a11y`) checks every page of both languages and the 404 page
in both schemes instead (about 4 minutes). The formulas are drawn at build time, so nothing
waits for them.
"""

import json
import os
import re
import shutil
import subprocess

import pytest

from lockstep.browser import built_pages
from tests.browser_support import require_chromium
from tests.conftest import ROOT

require_chromium()

pytestmark = pytest.mark.browser

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
KINDS = [
    "",
    "cards/",
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


def _sample() -> list[tuple[str, str]]:
    """(page, scheme) pairs: every kind in both schemes, one language per pair."""
    pairs = []
    for i, kind in enumerate(KINDS):
        for j, scheme in enumerate(SCHEMES):
            prefix = "en/" if (i + j) % 2 else ""
            pairs.append((prefix + kind, scheme))
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


# Errors the Nu checker reports in HTML that the project does not write, with their cause.
# Listed (and in the README), not silenced: a new kind of error fails the test.
UPSTREAM = {
    "Bad value “” for attribute “tabindex” on element “label”": "Material: nav-item.html",
    "Attribute “autocomplete” is only allowed when the input type is": "Material: toggles",
    "A “style” element in “body” must be the first child": "mkdocs-jupyter: inline styles",
    "on any “clipboard-copy” element unless": "mkdocs-jupyter: copy button's aria-label",
}
# Style sheets inlined whole: JupyterLab's in notebook pages (mkdocs-jupyter), and Material's
# as Chromium writes it out in the single-file handbooks. The checker's CSS parser rejects
# parts of both; CSS errors are accepted there only.
INLINED_CSS = ("/notebooks/", "/assets/downloads/")


def test_nu_checker_finds_no_error_in_the_projects_html(built_site, tmp_path):
    if not shutil.which("java"):
        reason = "the Nu HTML checker needs Java (apt-get install default-jre-headless)"
        if os.environ.get("CI"):
            pytest.fail(reason + " — it may not be skipped in CI", pytrace=False)
        pytest.skip(reason)
    jar = ROOT / "node_modules/vnu-jar/build/dist/vnu.jar"
    assert jar.is_file(), "vnu.jar missing: run `npm ci` (make venv)"
    control = tmp_path / "control.html"  # one known error: the checker is really checking
    control.write_text('<!doctype html><html lang="en"><title>x</title><p>a</div>')
    cmd = ["java", "-jar", str(jar), "--format", "json", "--errors-only", "--skip-non-html"]
    done = subprocess.run(
        [*cmd, str(built_site), str(control)], capture_output=True, text=True, timeout=300
    )
    errors = [m for m in json.loads(done.stderr)["messages"] if m["type"] == "error"]
    assert any(m["url"].endswith("control.html") for m in errors), done.stderr[-2000:]
    ours = [
        f"{re.sub(r'^.*?/site[^/]*/', '', m['url'])}:{m.get('lastLine')}: {m['message']}"
        for m in errors
        if not m["url"].endswith("control.html")
        and not any(known in m["message"] for known in UPSTREAM)
        and not (m["message"].startswith("CSS: ") and any(p in m["url"] for p in INLINED_CSS))
    ]
    assert ours == [], "\n".join(ours)
