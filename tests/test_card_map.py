"""The knowledge map and practice mode as the build writes them, checked on their data: every
card a node and a practice item, every related pair an edge with both directions kept, and
the one-sentence answer's size as the schema counts it."""

import re
from html.parser import HTMLParser

import pytest

from lockstep.cards import practice
from lockstep.cards.answer_size import answer_size, formula_symbols
from lockstep.cards.deck import Deck
from lockstep.cards.graph import graph
from lockstep.cards.map_svg import EM_PER_LINE, MAX_LINES, _em, map_svg, wrap
from tests.conftest import LANGS, SITE

DECK = Deck(SITE)


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_is_one_node_in_its_module(lang):
    g = graph(DECK, lang)
    nodes = [n for nodes in g.modules.values() for n in nodes]
    assert [n.id for n in nodes] == [c.id for c in DECK.cards(lang)]
    assert all(n.module == module for module, ns in g.modules.items() for n in ns)
    assert list(g.modules) == [m for m in DECK.vocabulary.modules if m in g.modules]


@pytest.mark.parametrize("lang", LANGS)
def test_every_related_pair_is_one_edge_with_both_directions_listed(lang):
    g = graph(DECK, lang)
    listed = {(c.id, r) for c in DECK.cards(lang) for r in c.related}
    pairs = [frozenset((e.a, e.b)) for e in g.edges]
    assert len(pairs) == len(set(pairs)), "a pair drawn twice"
    assert set(pairs) == {frozenset(p) for p in listed}
    for e in g.edges:
        assert e.a_lists_b == ((e.a, e.b) in listed)
        assert e.b_lists_a == ((e.b, e.a) in listed)
        assert e.a_lists_b or e.b_lists_a
    both = [e for e in g.edges if e.a_lists_b and e.b_lists_a]
    assert both, "no pair lists each other: the test would not see a lost direction"


class _Svg(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ends, self.starts, self.paths = {}, 0, 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a":
            self.links[a["data-card"]] = a["href"]
        if tag == "path" and a.get("class") == "map-edge":
            self.paths += 1
            self.ends += "marker-end" in a
            self.starts += "marker-start" in a


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("style", ["directory", "file"])
def test_map_links_each_card_in_the_builds_url_style_and_draws_an_arrow_per_direction(lang, style):
    url_of = (lambda i: f"{i}/") if style == "directory" else (lambda i: f"{i}.html")
    g = graph(DECK, lang)
    labels = {m: names[lang] for m, names in DECK.vocabulary.modules.items()}
    parsed = _Svg()
    parsed.feed(map_svg(g, labels, url_of, "map"))
    assert parsed.links == {c.id: url_of(c.id) for c in DECK.cards(lang)}
    assert parsed.paths == len(g.edges)
    assert parsed.ends == sum(e.a_lists_b for e in g.edges)
    assert parsed.starts == sum(e.b_lists_a for e in g.edges)


@pytest.mark.parametrize("lang", LANGS)
def test_every_title_wraps_into_its_box(lang):
    for card in DECK.cards(lang):
        lines = wrap(card.title)
        assert 1 <= len(lines) <= MAX_LINES
        assert all(_em(line.removesuffix("…")) <= EM_PER_LINE for line in lines[:-1]), lines
        assert (
            "".join(lines).replace(" ", "") in card.title.replace(" ", "") or lines[-1][-1] == "…"
        )


def test_a_title_too_long_for_the_box_ends_in_an_ellipsis():
    lines = wrap("word " * 80)
    assert len(lines) == MAX_LINES and lines[-1].endswith("…")


@pytest.mark.parametrize("lang", LANGS)
def test_practice_page_holds_every_card_with_its_steps_in_reveal_order(lang):
    html = practice.practice(DECK, lang, lambda text, lang: text)
    items = re.findall(r'<section class="practice-card" id="practice-([\w-]+)" ([^>]*)>', html)
    cards = DECK.cards(lang)
    assert [i for i, _ in items] == [c.id for c in cards]
    for (_, attrs), card in zip(items, cards, strict=True):
        assert f'data-module="{card.module}"' in attrs
        assert f'data-tags="{" ".join(card.tags)}"' in attrs
    first = html.index('id="practice-' + cards[0].id)
    steps = re.findall(r'data-step="(\d)"', html[first : html.index("</section>", first)])
    assert steps == ["1", "2", "3"]
    assert f"]({cards[0].id}.md)" in html  # the last step links the full card


@pytest.mark.parametrize("lang", LANGS)
def test_progress_summary_has_a_row_per_module_with_its_cards(lang):
    html = practice.summary(DECK, lang)
    rows = re.findall(r'<tr data-cards="([^"]+)">', html)
    by_module = {}
    for c in DECK.cards(lang):
        by_module.setdefault(c.module, []).append(c.id)
    assert [r.split() for r in rows] == list(by_module.values())


@pytest.mark.parametrize(
    "tex, symbols",
    [
        (r"\operatorname{Var}(q\cdot k)=d_k", 11),  # V a r ( q · k ) = d k
        (r"\sqrt{d_k}", 3),
        (r"1/\sqrt{d_k}", 5),
        (r"\mathrm{softmax}(QK^\top/\sqrt{d_k})V", 17),  # softmax ( Q K ⊤ / √ d k ) V
    ],
)
def test_a_formula_counts_the_symbols_it_shows(tex, symbols):
    assert formula_symbols(tex) == symbols


def test_answer_size_counts_words_or_characters_and_formulas_by_their_symbols():
    # 8 words, one formula of 11 symbols (3 words), a citation and a link's target not said
    en = (
        r"At initialisation $\operatorname{Var}(q\cdot k)=d_k$, see [the card](x.md)"
        r" [@vaswani2017, §3.2.1]."
    )
    assert answer_size(en, chinese=False) == 3 + 5
    zh = r"初始化时 $\operatorname{Var}(q\cdot k)=d_k$，softmax 不饱和。"
    assert answer_size(zh, chinese=True) == 4 + 3 + 1 + 3
