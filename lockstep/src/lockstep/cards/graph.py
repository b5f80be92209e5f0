"""The knowledge map's data: every card a node in its module, every `related` pair an edge.

An edge joins two cards once, whichever lists the other; it records the directions in which it
was listed, so the map can draw an arrow for each and the tests can check both are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from lockstep.cards.deck import Deck


@dataclass(frozen=True)
class Node:
    """A card on the map: its id, question and module."""

    id: str
    title: str
    module: str


@dataclass(frozen=True)
class Edge:
    """Two related cards, `a` before `b` in deck order; which of them lists the other."""

    a: str
    b: str
    a_lists_b: bool
    b_lists_a: bool


@dataclass(frozen=True)
class Graph:
    """Modules in the vocabulary's order, each with its cards in deck order, and the edges."""

    modules: dict[str, list[Node]]
    edges: list[Edge]


def graph(deck: Deck, lang: str) -> Graph:
    """The knowledge map of `lang`'s cards."""
    cards = deck.cards(lang)
    order = {c.id: i for i, c in enumerate(cards)}
    modules: dict[str, list[Node]] = {m: [] for m in deck.vocabulary.modules}
    for c in cards:
        modules.setdefault(c.module, []).append(Node(c.id, c.title, c.module))
    listed = {(c.id, r) for c in cards for r in c.related if r in order}
    pairs = sorted(
        {tuple(sorted(p, key=order.__getitem__)) for p in listed},
        key=lambda p: (order[p[0]], order[p[1]]),
    )
    edges = [Edge(a, b, (a, b) in listed, (b, a) in listed) for a, b in pairs]
    return Graph({m: nodes for m, nodes in modules.items() if nodes}, edges)
