"""Practice mode, as the build writes it: every card as a practice item (question, then in the
order they are revealed: what it tests and the one-sentence answer, the key points and the
numbers to remember, how to answer and a link to the card), the controls with their words in
the page's language, and the progress summary of the cards index. The behaviour (filters,
reveal, marks in localStorage, keys) is `docs/assets/javascripts/practice.js`; without a
script the page is a plain list of cards.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape

from lockstep.cards.deck import Card, Deck
from lockstep.cards.graph import graph
from lockstep.cards.render import words
from lockstep.markup import math_safe_in_html_block

MARKS = ("known", "shaky", "missed")  # the keys 1, 2, 3
# Revealed one after the other: what the question tests and the answer; the key points and
# the numbers to remember; how to answer.
STEPS = (("tested", "answer"), ("key_points", "numbers"), ("how_to_answer",))


def storage_key(deck: Deck) -> str:
    """Where the marks live in localStorage: one key per site, shared by its languages."""
    return f"{deck.vocabulary.anki['tag_root']}.practice"


def _label(deck: Deck, key: str, lang: str) -> str:
    return escape(deck.vocabulary.practice[key][lang])


def _select(name: str, label: str, any_label: str, options: list[tuple[str, str]]) -> str:
    items = "".join(f'<option value="{escape(v)}">{escape(t)}</option>' for v, t in options)
    return (
        f'<label>{escape(label)} <select data-filter="{name}">'
        f'<option value="">{escape(any_label)}</option>{items}</select></label>'
    )


def controls(deck: Deck, lang: str) -> str:
    """The filters, the status line and the buttons (hidden until the script takes over)."""
    v, w, t = deck.vocabulary, words(deck, lang), lambda key: _label(deck, key, lang)
    cards = deck.cards(lang)
    used_tags = [tag for tag in v.tags if any(tag in c.tags for c in cards)]
    filters = [
        _select("module", w["module"], t("any"), [(k, v.modules[k][lang]) for k in v.modules]),
        _select("tag", w["tags"], t("any"), [(k, v.tags[k][lang]) for k in used_tags]),
        _select(
            "difficulty",
            w["difficulty"],
            t("any"),
            [(k, v.difficulties[k][lang]) for k in v.difficulties],
        ),
        f'<label><input type="checkbox" data-filter="unsure"> {t("unsure_only")}</label>',
        f'<button type="button" class="md-button" data-action="shuffle">{t("shuffle")}</button>',
        f'<button type="button" class="md-button" data-action="reset" '
        f'data-confirm="{t("reset_confirm")}">{t("reset")}</button>',
    ]
    buttons = [
        f'<button type="button" class="md-button md-button--primary" data-action="reveal" '
        f'aria-keyshortcuts="Space">{t("reveal")} <kbd>␣</kbd></button>',
        *(
            f'<button type="button" class="md-button" data-mark="{m}" aria-pressed="false" '
            f'aria-keyshortcuts="{i}">{t(m)} <kbd>{i}</kbd></button>'
            for i, m in enumerate(MARKS, 1)
        ),
        f'<button type="button" class="md-button" data-action="next" '
        f'aria-keyshortcuts="ArrowRight">{t("next")} <kbd>→</kbd></button>',
    ]
    return (
        f'<div class="practice" data-storage-key="{escape(storage_key(deck))}" '
        f'data-position="{t("position")}" data-empty="{t("empty")}" data-done="{t("done")}" '
        f"hidden>\n"
        f'<div class="practice-filters">{"".join(filters)}</div>\n'
        f'<p class="practice-status" aria-live="polite"></p>\n'
        f'<div class="practice-buttons">{"".join(buttons)}</div>\n</div>\n'
    )


def item(deck: Deck, card: Card, substitute: Callable[[str, str], str]) -> str:
    """One card as a practice item: the question, then each step in its own block."""
    lang = card.lang
    attrs = (
        f'data-card="{card.id}" data-module="{card.module}" '
        f'data-difficulty="{card.difficulty}" data-tags="{" ".join(card.tags)}"'
    )
    parts = [
        f'<section class="practice-card" id="practice-{card.id}" {attrs} markdown>\n',
        f'<p class="practice-question">{escape(card.title)}</p>\n',
    ]
    for step, keys in enumerate(STEPS, 1):
        blocks = []
        for key in keys:
            title = escape(deck.vocabulary.section_title(key, lang))
            body = math_safe_in_html_block(substitute(deck.section(card, key).strip(), lang))
            blocks.append(f'<p class="practice-label">{title}</p>\n\n{body}')
        if step == len(STEPS):  # the last step leads on to the whole card
            blocks.append(f"[{_label(deck, 'open_card', lang)}]({card.id}.md)")
        body = "\n\n".join(blocks)
        parts.append(
            f'<div class="practice-step" data-step="{step}" markdown>\n\n{body}\n\n</div>\n'
        )
    parts.append("</section>\n")
    return "".join(parts)


def practice(deck: Deck, lang: str, substitute: Callable[[str, str], str]) -> str:
    """The practice page's body: the controls, then every card of `lang` in deck order."""
    items = "\n".join(item(deck, c, substitute) for c in deck.cards(lang))
    return f'{controls(deck, lang)}\n<div class="practice-deck" markdown>\n\n{items}\n</div>\n'


def summary(deck: Deck, lang: str) -> str:
    """The progress table of the cards index: a row per module, counted by the script from
    the marks in localStorage (hidden without a script: there is nothing to count)."""
    v, w, t = deck.vocabulary, words(deck, lang), lambda key: _label(deck, key, lang)
    columns = [*MARKS, "new"]
    head = "".join(f"<th>{t(c)}</th>" for c in columns)
    cells = "".join(f'<td data-count="{c}"></td>' for c in columns)
    rows = [
        f'<tr data-cards="{" ".join(n.id for n in nodes)}">'
        f"<th>{escape(v.modules[module][lang])}</th>{cells}</tr>"
        for module, nodes in graph(deck, lang).modules.items()  # the map's columns
    ]
    labels = json.dumps({m: v.practice[m][lang] for m in columns}, ensure_ascii=False)
    return (
        f'<div class="practice-summary" data-storage-key="{escape(storage_key(deck))}" '
        f'data-labels="{escape(labels)}" hidden>\n<table>\n'
        f"<thead><tr><th>{escape(w['module'])}</th>{head}</tr></thead>\n"
        f"<tbody>{''.join(rows)}</tbody>\n</table>\n</div>\n"
    )
