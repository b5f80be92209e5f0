"""Workaround for squidfunk/mkdocs-material#6582: a 404 for `<page>/sitemap.xml` on every view.

Material's JavaScript reads each `<link rel="alternate" hreflang=…>` in a page's head as the
root of another language's site and fetches `sitemap.xml` below it. mkdocs-static-i18n points
those links at the counterpart *page*, so every page view asked for `<page>/sitemap.xml` and
got a 404. The links are dropped: search engines get the same hreflang pairs from the
sitemap, which the i18n plugin writes with `xhtml:link` alternates, and readers switch
language through the header's language menu, whose links the i18n plugin also points at the
counterpart page. (RSS alternates have a `type` and are left alone.)
"""

from __future__ import annotations

import re

HREFLANG_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def drop_hreflang_links(html: str) -> str:
    """The page without the `<link rel="alternate" hreflang>` tags in its head."""
    head, sep, body = html.partition("</head>")
    return HREFLANG_LINK.sub("", head) + sep + body


LANGUAGE_LINK = re.compile(r'(<a href=")[^"]*(" hreflang="([^"]+)" class="md-select__link"[^>]*>)')


def language_menu_to_homes(html: str, homes: dict[str, str]) -> str:
    """The header's language menu pointing at each language's home page (`homes`: code -> URL).

    For 404.html, which has no counterpart page: the i18n plugin leaves the menu pointing at
    whichever page was built last."""
    return LANGUAGE_LINK.sub(lambda m: m[1] + homes[m[3]] + m[2], html)
