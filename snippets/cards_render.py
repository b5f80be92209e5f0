"""What the build makes from the cards' front matter: deck table, relations, handbook."""

from __future__ import annotations

import re
from collections.abc import Callable

from snippets.cards import (
    CATEGORIES,
    DIFFICULTIES,
    LABELS,
    MODULES,
    TAGS,
    Card,
    lines_outside_fences,
    load_cards,
)

_HEADERS = {
    "zh": {"card": "卡片", "links_to": "它指向", "linked_from": "指向它的卡片", "none": "—"},
    "en": {"card": "Card", "links_to": "Links to", "linked_from": "Linked from", "none": "—"},
}
_ADMONITION = re.compile(r"^(\s*)\?\?\?(?!\+)")
_CARD_LINK = re.compile(r"\]\(([a-z0-9-]+)\.md(?:#[^)]*)?\)")


def tag_labels(card: Card) -> list[str]:
    """The card's tags in its own language (what the tags plugin shows and indexes)."""
    return [TAGS[t][card.lang] for t in card.tags if t in TAGS]


def meta_line(card: Card) -> str:
    """One line under the question: module, category and difficulty in the card's language."""
    lab, lang = LABELS[card.lang], card.lang
    sep = "：" if lang == "zh" else ": "
    fields = (("module", MODULES), ("category", CATEGORIES), ("difficulty", DIFFICULTIES))
    parts = []
    for key, names in fields:
        value = getattr(card, key)
        parts.append(f"{lab[key]}{sep}{names.get(value, {}).get(lang, value)}")
    return " · ".join(parts) + "\n{: .card-meta }"


def _cell(text: str) -> str:
    return text.replace("|", r"\|")


def cards_table(lang: str) -> str:
    """The deck as a Markdown table: linked question, module, difficulty, tags."""
    lab = LABELS[lang]
    head = [_HEADERS[lang]["card"], lab["module"], lab["difficulty"], lab["tags"]]
    rows = ["| " + " | ".join(head) + " |", "|---|---|---|---|"]
    sep = "、" if lang == "zh" else ", "
    for c in load_cards(lang):
        module, level = MODULES[c.module][lang], DIFFICULTIES[c.difficulty][lang]
        rows.append(
            f"| [{_cell(c.title)}]({c.id}.md) | {module} | {level} | {sep.join(tag_labels(c))} |"
        )
    return "\n".join(rows)


def relations(lang: str) -> dict[str, tuple[list[str], list[str]]]:
    """card id -> (ids it lists in `related`, ids of the cards that list it)."""
    cards = load_cards(lang)
    back: dict[str, list[str]] = {c.id: [] for c in cards}
    for c in cards:
        for r in c.related:
            back.setdefault(r, []).append(c.id)
    return {c.id: (list(c.related), back[c.id]) for c in cards}


def cards_relations(lang: str) -> str:
    """The `related` links in both directions, as a Markdown table built from the front matter."""
    cards = {c.id: c for c in load_cards(lang)}
    h = _HEADERS[lang]

    def links(ids: list[str]) -> str:
        sep = "、" if lang == "zh" else ", "
        return (
            sep.join(f"[{_cell(cards[i].title)}]({i}.md)" for i in ids if i in cards) or h["none"]
        )

    rows = [f"| {h['card']} | {h['links_to']} | {h['linked_from']} |", "|---|---|---|"]
    for cid, (to, frm) in relations(lang).items():
        rows.append(f"| [{_cell(cards[cid].title)}]({cid}.md) | {links(to)} | {links(frm)} |")
    return "\n".join(rows)


def handbook(lang: str, render: Callable[[str, str], str]) -> str:
    """Every card of `lang` on one page: headings one level down, answers open, links in-page."""
    placeholder = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
    out = []
    for card in load_cards(lang):
        body = placeholder.sub(lambda m: render(m.group(1), lang), card.body)
        lines = []
        for line, fenced in lines_outside_fences(body):
            if not fenced and line.startswith("#"):
                level, text = re.match(r"^(#+)\s+(.*)$", line).groups()
                if level == "#":
                    line = f"## {text} {{ #card-{card.id} .card-title }}\n\n{meta_line(card)}"
                else:
                    line = f"#{level} {text}"
            elif not fenced:
                line = _ADMONITION.sub(r"\1???+", line)  # print the follow-up answers open
                line = _CARD_LINK.sub(lambda m: f"](#card-{m.group(1)})", line)
            lines.append(line)
        out.append("\n".join(lines).strip())
    return "\n\n".join(out) + "\n"
