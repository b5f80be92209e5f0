"""Every value a site's pages may name: the site's own (the `values` option) and those lockstep
makes from its cards, bibliography and glossary. The build and the pytest plugin both take
them from here, so a name the build would reject is rejected by the tests too."""

from __future__ import annotations

from collections.abc import Callable

from lockstep.cache import Cache
from lockstep.cards import practice, render
from lockstep.cards.deck import Deck
from lockstep.cards.graph import graph
from lockstep.cards.map_svg import map_svg
from lockstep.site import Site
from lockstep.values import Values, browser_only, listing, uncached


def card_url(card_id: str) -> str:
    """A card's address from the cards index, with directory URLs (MkDocs' default)."""
    return f"{card_id}/"


def site_values(
    site: Site, deck: Deck | None, url_of: Callable[[str], str] = card_url, cached: bool = True
) -> Values:
    """The site's values with lockstep's own added; `url_of` gives a card's address from the
    cards index (the map's links are raw HTML, which no engine rewrites)."""
    cache = Cache(site.cache("values"), "md") if cached else None
    values = Values({}, site.root, cache)
    if site.options.values:
        values = Values.from_module(site.options.values, site.root, cache)
    if deck:
        values.add(_deck_values(deck, values.substitute, url_of))
    bibliography, glossary = site.bibliography(), site.glossary()
    if bibliography:
        pages = lambda lang: {p: t for p, t in site.texts()[lang].items() if p.endswith(".md")}  # noqa: E731
        values.add({"bibliography": listing(lambda lang: bibliography.index(pages(lang), lang))})
    if glossary:
        other = lambda lang: site.languages.others(lang)[0]  # noqa: E731
        values.add({"glossary": uncached(lambda lang: glossary.page_table(lang, other(lang)))})
    return values


def _deck_values(deck: Deck, substitute, url_of: Callable[[str], str]) -> dict:
    labels = deck.vocabulary.modules
    return {
        "cards_map": listing(
            browser_only(
                lambda lang: map_svg(
                    graph(deck, lang),
                    {m: names[lang] for m, names in labels.items()},
                    url_of,
                    deck.vocabulary.labels["map"][lang],
                )
            )
        ),
        "cards_practice": listing(
            browser_only(lambda lang: practice.practice(deck, lang, substitute))
        ),
        "cards_progress": listing(browser_only(lambda lang: practice.summary(deck, lang))),
        "cards_table": listing(lambda lang: render.deck_table(deck, lang)),
        "cards_relations": listing(lambda lang: render.relations_table(deck, lang)),
        "cards_handbook": listing(lambda lang: render.handbook(deck, lang, substitute)),
    }
