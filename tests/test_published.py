"""The site as published: built for a URL with a sub-path, served under it, every page read.

Every page of both languages loads with no request answered 4xx/5xx and none to another host
(what its HTML names, read from the file; what its scripts request, in the browser);
its language menu lands on the counterpart page; every same-site link and asset it names
exists; canonical links and the sitemap carry the published URL; a missing address gets the
404 page in both languages; the page's edit and report links point into the repository; and
no table scrolls sideways at 1280 px (a keyboard could not reach its hidden columns).
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from html import unescape
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest

from lockstep.browser import built_pages
from lockstep.cards.deck import Deck
from tests.browser_support import guarded_page, require_chromium
from tests.conftest import DOCS, LANGS, OFFLINE_ZIP, PUBLISHED, REPOSITORY, SITE

# One worker runs this module (make test: --dist loadgroup), so its module fixture (every page's
# visit) is made once, not once per worker.
pytestmark = pytest.mark.xdist_group("published")

require_chromium()
DECK_DIR = Deck(SITE).options.anki_dest  # where the build writes the Anki decks
DECK_FOLDER = Deck(SITE).options.folder  # where the card pages live
# What the home and cards pages offer, each in the page's language (all in one folder).
DOWNLOADS = (("cards", "apkg"), ("vault", "zip"), ("handbook", "html"), ("handbook", "pdf"))


# Every address an element points to, resolved: an SVG link's `href` is an object (the
# knowledge map's boxes), so its attribute is resolved against the page instead.
ADDRESSES = """es => es.map(e => typeof e.href === "string" ? e.href
    : e.hasAttribute("href") ? new URL(e.getAttribute("href"), document.baseURI).href : e.src)"""

# The tables wider than the box that scrolls them (Material's wrapper when scripts run, the
# table itself when not), named by their first header cell.
SCROLLING_TABLES = """() => [...document.querySelectorAll(".md-typeset table")]
    .filter(t => { const box = t.closest(".md-typeset__scrollwrap") || t;
                   return box.scrollWidth > box.clientWidth; })
    .map(t => t.querySelector("th")?.textContent ?? "")"""


def pages(site) -> dict[str, str]:
    """Every built page as {path below the site root: its language}."""
    prefixed = [c for c in LANGS if c != SITE.languages.default]
    return {
        path: next(
            (c for c in prefixed if path.startswith(SITE.languages.prefix(c))),
            SITE.languages.default,
        )
        for path in built_pages(site)
    }


def counterpart(path: str, lang: str, other: str) -> str:
    """The same page in `other`."""
    return SITE.languages.prefix(other) + path.removeprefix(SITE.languages.prefix(lang))


SCRIPT_SRC = re.compile(r'<script[^>]*\ssrc="([^"]+)"')


def scripts_of(site, path: str) -> tuple[str, ...]:
    """The scripts a built page loads, as paths below the site root, in order."""
    folder = path if path.endswith("/") or not path else posixpath.dirname(path)
    html = site / path / "index.html" if folder == path else site / path
    return tuple(
        src if "//" in src else posixpath.normpath(posixpath.join(folder, src))
        for src in SCRIPT_SRC.findall(html.read_text(encoding="utf-8"))
    )


# What a page's HTML names: every address in an attribute, the language menu's entries, and
# what it loads (scripts, images, and the style sheets, icons and preloads a <link> names).
ADDRESS = re.compile(r'\s(?:href|src)="([^"]*)"')
MENU_ENTRY = re.compile(r'<a [^>]*class="md-select__link"[^>]*>')
LOADED = re.compile(
    r'<(?:script|img|source|iframe|embed)\b[^>]*\ssrc="([^"]+)"'
    r'|<link\b(?=[^>]*\srel="(?:stylesheet|icon|preload|modulepreload|manifest)")[^>]*\shref="([^"]+)"'
)


def named_in_html(built_site, base_url: str, path: str) -> dict:
    """What one built page names, resolved against its address as a browser resolves it."""
    html = (built_site / path / "index.html").read_text(encoding="utf-8")
    here = base_url + path
    resolve = lambda href: urljoin(here, unescape(href))  # noqa: E731
    menu = []
    for tag in MENU_ENTRY.findall(html):
        attrs = dict(re.findall(r'\s(hreflang|href)="([^"]*)"', tag))
        if "hreflang" in attrs:
            menu.append([attrs["hreflang"], resolve(attrs["href"])])
    return {
        "addresses": {resolve(a) for a in ADDRESS.findall(html) if not a.startswith("#")},
        "loaded": {resolve(a or b) for a, b in LOADED.findall(html)},
        "menu": menu,
        "tables": "<table" in html,
    }


@pytest.fixture(scope="module")
def visits(browser, base_url, built_site):
    """Every page read as the browser would read its HTML, and the pages whose requests or
    layout only a browser can tell visited in it.

    A page without scripts requests what its HTML names (and what the shared style sheets
    name in turn): read from the file, every page. What scripts request (the search worker and
    index when asked for, the practice deck) depends on which scripts a page has, not on its
    text: the first page of each language with a given set of scripts is visited with scripts
    on, waiting until the network is idle. Tables need layout: every page with one is visited,
    with scripts off (its table's own box then scrolls, if anything does)."""
    allowed = (base_url,)
    with_js, without_js = guarded_page(browser, allowed), guarded_page(browser, allowed, js=False)
    failed: list[tuple[str, int, str]] = []
    current = {"page": ""}
    for pg in (with_js, without_js):
        pg.on(
            "response",
            lambda r: r.status >= 400 and failed.append((current["page"], r.status, r.url)),
        )
    menus, links, seen, scrolling, foreign = {}, set(), set(), {}, []
    for path, lang in pages(built_site).items():
        named = named_in_html(built_site, base_url, path)
        menus[path] = named["menu"]
        links |= {a.split("#")[0] for a in named["addresses"] if a.startswith(base_url)}
        foreign += [  # an inline data: image is no request
            (path, url) for url in named["loaded"] if not url.startswith((base_url, "data:"))
        ]
        kind = (lang, scripts_of(built_site, path))
        first = kind not in seen
        seen.add(kind)
        if not (first or named["tables"]):
            continue
        current["page"] = path
        pg = with_js if first else without_js
        pg.goto(base_url + path, wait_until="networkidle" if first else "load")
        if tables := pg.evaluate(SCROLLING_TABLES):
            scrolling[path] = tables
        if first:  # what scripts add to the page links too (the practice deck's cards)
            for href in pg.eval_on_selector_all("[href], [src]", ADDRESSES):
                if href.startswith(base_url):
                    links.add(href.split("#")[0])
    foreign += with_js.foreign + without_js.foreign
    yield {
        "failed": failed,
        "foreign": foreign,
        "menus": menus,
        "links": links,
        "scrolling": scrolling,
    }
    with_js.close()
    without_js.context.close()


def test_what_a_page_names_is_read_as_a_browser_resolves_it(tmp_path):
    (tmp_path / "en/a").mkdir(parents=True)
    (tmp_path / "en/a/index.html").write_text(
        '<link rel="stylesheet" href="../../assets/x.css"><link rel="canonical" href="b/">'
        '<script src="https://cdn.example.com/x.js"></script><img src="data:image/png;base64,AA">'
        '<a href="../b/#part">b</a><a href="#top">top</a><svg><a href="c/"></a></svg>'
        '<a class="md-select__link" href="../../a/" hreflang="zh" lang="zh">中文</a>'
        "<table></table>",
        encoding="utf-8",
    )
    named = named_in_html(tmp_path, "http://h/s/", "en/a/")
    assert named["addresses"] == {
        "http://h/s/assets/x.css", "http://h/s/en/a/b/", "http://h/s/en/b/#part",
        "https://cdn.example.com/x.js", "data:image/png;base64,AA", "http://h/s/en/a/c/",
        "http://h/s/a/",
    }  # fmt: skip
    assert named["loaded"] == {
        "http://h/s/assets/x.css",
        "https://cdn.example.com/x.js",
        "data:image/png;base64,AA",
    }  # the canonical link and the anchors are not loaded
    assert named["menu"] == [["zh", "http://h/s/a/"]] and named["tables"]


def test_the_site_has_every_page_of_both_languages(built_site):
    found = pages(built_site)
    for lang in LANGS:
        sources = list((DOCS / lang).rglob("*.md")) + list((DOCS / lang).rglob("notebooks/*.py"))
        assert sum(1 for code in found.values() if code == lang) == len(sources), lang


def test_no_request_on_any_page_fails_or_leaves_the_site(visits):
    assert not visits["failed"], visits["failed"][:10]
    assert not visits["foreign"], visits["foreign"][:10]


def test_no_table_scrolls_sideways_at_the_width_axe_checks(visits):
    assert not visits["scrolling"], visits["scrolling"]


def test_the_language_menu_lands_on_the_counterpart_page(visits, base_url):
    for path, menu in visits["menus"].items():
        lang = next(code for code, url in menu if url == base_url + path)  # itself, listed
        for code, url in menu:
            assert url == base_url + counterpart(path, lang, code), (path, code, url)


def test_every_same_site_link_and_asset_exists(visits, browser, base_url, built_site):
    context = browser.new_context()
    try:
        missing = [
            (url, r.status)
            for url in sorted(visits["links"])
            if (r := context.request.get(url)).status >= 400
        ]
    finally:
        context.close()
    assert {base_url + p for p in pages(built_site)} <= visits["links"]  # the nav links them all
    assert not missing, missing[:10]


def test_canonical_links_and_the_sitemap_carry_the_published_url(built_site):
    found = pages(built_site)
    for path in found:
        html = (built_site / path / "index.html").read_text(encoding="utf-8")
        assert f'<link rel="canonical" href="{PUBLISHED}{path}">' in html, path
        # mkdocs-material#6582: Material fetches <href>/sitemap.xml for each of these
        assert not re.search(r'<link rel="alternate" href="[^"]*" hreflang=', html), path
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = ET.parse(built_site / "sitemap.xml").getroot().findall("s:url", ns)
    locs = {u.find("s:loc", ns).text for u in urls}
    assert locs == {PUBLISHED + p for p in found}
    for u in urls:  # the hreflang pairs the pages no longer carry
        alternates = {a.get("hreflang"): a.get("href") for a in u.findall("x:link", ns)}
        path = u.find("s:loc", ns).text.removeprefix(PUBLISHED)
        assert alternates == {
            code: PUBLISHED + counterpart(path, found[path], code) for code in LANGS
        }, path


def test_a_missing_address_gets_the_404_page_in_both_languages(page, base_url):
    response = page.goto(base_url + "no/such/page/", wait_until="networkidle")
    assert response.status == 404
    heading = page.locator("h1").inner_text()
    assert "页面不存在" in heading and "Page not found" in heading
    homes = page.eval_on_selector_all("article a", "as => as.map(a => a.href)")
    assert homes == [base_url, base_url + "en/"]
    menu = page.eval_on_selector_all("a.md-select__link", "as => as.map(a => a.href)")
    assert menu == [base_url, base_url + "en/"]
    assert page.evaluate("getComputedStyle(document.body).fontFamily")  # the theme's CSS loaded
    assert not page.foreign


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_can_be_edited_and_reported_in_the_repository(built_site, lang):
    for path, code in pages(built_site).items():
        if code != lang:
            continue
        html = (built_site / path / "index.html").read_text(encoding="utf-8")
        edit = re.search(r'href="([^"]+)"[^>]*rel="edit"', html)[1]
        assert edit.startswith(f"{REPOSITORY}/edit/main/docs/{lang}/"), (path, edit)
        source = DOCS.parent / edit.removeprefix(f"{REPOSITORY}/edit/main/")
        assert source.is_file(), edit
        report = re.search(r'href="([^"]+)"[^>]*data-action="report"', html)[1]
        url = urlsplit(report.replace("&amp;", "&"))
        assert f"{url.scheme}://{url.netloc}{url.path}" == f"{REPOSITORY}/issues/new"
        query = parse_qs(url.query)
        assert query["title"][0].startswith(f"[{lang}] ")
        body = query["body"][0].splitlines()  # labelled in the page's language
        assert body[0].endswith(PUBLISHED + path)
        assert body[1].endswith(source.relative_to(DOCS.parent).as_posix())


def test_every_page_has_its_counterpart_built(built_site):
    found = pages(built_site)
    for path, lang in found.items():
        for other in LANGS:
            assert counterpart(path, lang, other) in found, (path, other)


@pytest.mark.parametrize("lang", LANGS)
def test_each_home_page_links_every_section_page_the_cards_and_the_downloads(built_site, lang):
    home = SITE.languages.prefix(lang)
    html = (built_site / home / "index.html").read_text(encoding="utf-8")
    article = html[html.index("<article") : html.index("</article>")]  # not the navigation
    linked = {
        urlsplit(urljoin(PUBLISHED + home, href)).path
        for href in re.findall(r'<a href="([^"#]+)', article)
    }
    cards = home + DECK_FOLDER + "/"
    want = {  # every page but the cards one by one: the cards index lists those
        urlsplit(PUBLISHED + p).path
        for p, code in pages(built_site).items()
        if code == lang and p != home and (p in (cards, cards + "handbook/") or cards not in p)
    }
    assert want <= linked, sorted(want - linked)
    downloads = [f"{DECK_DIR}/{name}.{lang}.{ext}" for name, ext in DOWNLOADS]
    for download in downloads:
        assert urlsplit(PUBLISHED + home + download).path in linked, download
    cards_index = (built_site / cards / "index.html").read_text(encoding="utf-8")
    offered = {
        urlsplit(urljoin(PUBLISHED + cards, href)).path
        for tag in re.findall(r"<a [^>]*md-button[^>]*>", cards_index)
        for href in re.findall(r'href="([^"#]+)"', tag)
    }
    assert {urlsplit(PUBLISHED + home + d).path for d in downloads} <= offered
    offline = urlsplit(PUBLISHED + f"{DECK_DIR}/{OFFLINE_ZIP}").path  # one, for both languages
    assert offline in linked and offline in offered
