"""What the build makes of a deck for readers: the metadata line under each question, the
deck table, the relations in both directions, and the handbook (every card on one page)."""

from __future__ import annotations

from collections.abc import Callable

from lockstep.cards import spoken
from lockstep.cards.deck import Card, Deck, linked_card
from lockstep.fences import line_states
from lockstep.markup import DETAILS, HEADING, math_safe_in_html_block, retarget
from lockstep.tables import markdown_table

NONE = "—"


def words(deck: Deck, lang: str) -> dict[str, str]:
    """The vocabulary's labels (field names, separators) in `lang`."""
    return {key: labels[lang] for key, labels in deck.vocabulary.labels.items()}


def tag_labels(deck: Deck, card: Card) -> list[str]:
    """The card's tags in its own language (what the tags plugin shows and indexes)."""
    return [deck.vocabulary.tags[t][card.lang] for t in card.tags if t in deck.vocabulary.tags]


def meta_line(deck: Deck, card: Card) -> str:
    """One line under the question: module, category and difficulty in the card's language."""
    v, lang, w = deck.vocabulary, card.lang, words(deck, card.lang)
    parts = []
    for key, names in (
        ("module", v.modules),
        ("category", v.categories),
        ("difficulty", v.difficulties),
    ):
        value = getattr(card, key)
        parts.append(f"{w[key]}{w['field_separator']}{names.get(value, {}).get(lang, value)}")
    return " · ".join(parts) + "\n{: .card-meta }"


def mark_slot(card: Card) -> str:
    """Where the cards table shows the reader's practice mark of a card (practice.js)."""
    return f'<span class="card-mark" data-card="{card.id}"></span>'


def deck_table(deck: Deck, lang: str) -> str:
    """The deck as a Markdown table: linked question, module, difficulty, tags."""
    v, w = deck.vocabulary, words(deck, lang)
    head = [w["card"], w["module"], w["difficulty"], w["tags"]]
    rows = [
        (
            f"[{c.title}]({c.id}.md) {mark_slot(c)}",
            v.modules[c.module][lang],
            v.difficulties[c.difficulty][lang],
            w["list_separator"].join(tag_labels(deck, c)),
        )
        for c in deck.cards(lang)
    ]
    return markdown_table(head, rows)


def relations(deck: Deck, lang: str) -> dict[str, tuple[list[str], list[str]]]:
    """card id -> (ids it lists in `related`, ids of the cards that list it)."""
    cards = deck.cards(lang)
    back: dict[str, list[str]] = {c.id: [] for c in cards}
    for c in cards:
        for r in c.related:
            back.setdefault(r, []).append(c.id)
    return {c.id: (list(c.related), back[c.id]) for c in cards}


def relations_table(deck: Deck, lang: str) -> str:
    """The `related` links in both directions, as a Markdown table."""
    cards, w = {c.id: c for c in deck.cards(lang)}, words(deck, lang)

    def links(ids: list[str]) -> str:
        # One title per line: titles end in "?" and some hold two questions, so a separator
        # between them ("?, ", "？、") reads badly.
        return "<br>".join(f"[{cards[i].title}]({i}.md)" for i in ids if i in cards) or NONE

    rows = [
        (f"[{cards[cid].title}]({cid}.md)", links(to), links(frm))
        for cid, (to, frm) in relations(deck, lang).items()
    ]
    return markdown_table([w["card"], w["links_to"], w["linked_from"]], rows)


DEPTH_ON_THE_CARD = ("derivation", "trade_offs")  # the handbook links to them instead


def handbook(deck: Deck, lang: str, substitute: Callable[[str, str], str]) -> str:
    """Every card of `lang` on one page, as an interview handbook: what is said aloud, the
    pitfalls and the follow-ups (answers open), headings one level down, links in-page; the
    derivation and the trade-offs stay on each card's page, which it links to (with them the
    page would be several megabytes)."""
    out = []
    skipped = {deck.vocabulary.section_title(key, lang) for key in DEPTH_ON_THE_CARD}
    label = deck.vocabulary.labels["depth"][lang]
    for card in deck.cards(lang):
        lines, skipping, linked = [], False, False
        for line, fenced in line_states(substitute(card.body, lang)):
            heading = None if fenced else HEADING.match(line)
            if heading and len(heading["level"]) <= 2:
                skipping = heading["level"] == "##" and heading["text"] in skipped
                if skipping:
                    if not linked:  # once, where the depth began
                        lines += ["", f"{label}[{card.title}]({card.id}.md)", ""]
                        linked = True
                    continue
            if skipping:
                continue
            if heading and heading["level"] == "#":  # the question: a section of the handbook
                line = f"## {heading['text']} {{ #card-{card.id} .card-title }}\n\n"
                line += meta_line(deck, card)
            elif heading:
                line = f"#{heading['level']} {heading['text']}"
            elif not fenced:
                details = DETAILS.match(line)
                if details and not details["open"]:  # print the follow-up answers open
                    line = line.replace("???", "???+", 1)
                line = retarget(line, lambda t: f"#card-{c}" if (c := linked_card(t)) else None)
            lines.append(line)
        card_md = math_safe_in_html_block("\n".join(lines).strip())
        out.append(f'<section class="handbook-card" markdown>\n\n{card_md}\n\n</section>')
    return "\n\n".join(out) + "\n"


def collapse_depth(deck: Deck, card: Card, markdown: str) -> str:
    """A card page's markdown with each depth section longer than the vocabulary's `depth`
    limit collapsed: its body in a closed details block whose summary says how long it is."""
    limit = deck.vocabulary.limits.get("depth", {}).get(card.lang)
    if not limit:
        return markdown
    label = deck.vocabulary.labels["expand"][card.lang]
    long = {
        deck.vocabulary.section_title(key, card.lang): size
        for key in spoken.DEPTH
        if (size := spoken.depth_size(deck, card, key)) > limit
    }
    out, inside = [], False
    for line, fenced in line_states(markdown):
        heading = None if fenced else HEADING.match(line)
        if heading and len(heading["level"]) <= 2:
            inside = heading["level"] == "##" and heading["text"] in long
            out.append(line)
            if inside:
                summary = label.replace("{n}", str(long[heading["text"]])).replace('"', "'")
                out += ["", f'??? abstract "{summary}"']
            continue
        out.append(f"    {line}" if inside and line.strip() else line)
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")
