"""Practice mode, as the build writes it: every card as a practice item (question, then in the
order they are revealed: what it tests and the one-sentence answer, the key points and the
numbers to remember, how to answer and a link to the card), each revealed step with the works
it cites first; the controls with their words in the page's language (today's practice, the
mock interview, settings and the reader's progress as a file); and the progress table of the
cards index. The behaviour is `docs/assets/javascripts/practice.js`, the schedule
`scheduler.js` (FSRS); without a script the page is a plain list of cards with their answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape

from lockstep.cards.deck import Card, Deck
from lockstep.cards.graph import graph
from lockstep.cards.render import words
from lockstep.citations import Bibliography, cited, heading, target
from lockstep.markup import math_safe_in_html_block

GRADES = ("again", "hard", "good", "easy")  # FSRS's ratings 1 to 4, and their keys
# Revealed one after the other: what the question tests and the answer; the key points and
# the numbers to remember; how to answer.
STEPS = (("tested", "answer"), ("key_points", "numbers"), ("how_to_answer",))
# Seconds a mock interview gives each part: the one-sentence answer, then the whole answer
# said aloud (the cards' limits: about three minutes for the parts said aloud).
BUDGETS = {"answer": 15, "full": 180}
COLUMNS = ("due", "later", "new")  # the cards index: due today, due after today, never seen


def storage_key(deck: Deck) -> str:
    """Where the progress lives in localStorage: one key per site, shared by its languages."""
    return f"{deck.vocabulary.anki['tag_root']}.practice"


def _label(deck: Deck, key: str, lang: str) -> str:
    return escape(deck.vocabulary.practice[key][lang])


def _words(deck: Deck, lang: str) -> str:
    """Every word of practice mode in `lang`, as the script reads them (an attribute)."""
    practice = {k: labels[lang] for k, labels in deck.vocabulary.practice.items()}
    return escape(json.dumps(practice, ensure_ascii=False))


def _select(name: str, label: str, any_label: str, options: list[tuple[str, str]]) -> str:
    items = "".join(f'<option value="{escape(v)}">{escape(t)}</option>' for v, t in options)
    return (
        f'<label>{escape(label)} <select data-filter="{name}">'
        f'<option value="">{escape(any_label)}</option>{items}</select></label>'
    )


def _button(text: str, attrs: str, key: str | None = None, primary: bool = False) -> str:
    """A button; with `key`, its keyboard shortcut (`kbd` shown, aria-keyshortcuts set)."""
    kind = "md-button md-button--primary" if primary else "md-button"
    shortcut = {"Space": "␣", "ArrowRight": "→"}.get(key, key) if key else ""
    keys = f' aria-keyshortcuts="{key}"' if key else ""
    kbd = f" <kbd>{shortcut}</kbd>" if key else ""
    return f'<button type="button" class="{kind}" {attrs}{keys}>{text}{kbd}</button>'


def controls(deck: Deck, lang: str) -> str:
    """The controls (hidden until the script takes over): the mode, the filters, today's
    practice, the mock interview, and the settings with the progress file."""
    v, w, t = deck.vocabulary, words(deck, lang), lambda key: _label(deck, key, lang)
    cards = deck.cards(lang)
    used_tags = [tag for tag in v.tags if any(tag in c.tags for c in cards)]
    modes = "".join(
        _button(t(f"mode_{m}"), f'data-mode="{m}" aria-pressed="false"') for m in ("review", "mock")
    )
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
    ]
    grades = "".join(
        _button(f'{t(g)} <span class="practice-interval"></span>', f'data-grade="{i}"', str(i))
        for i, g in enumerate(GRADES, 1)
    )
    review = (
        '<div class="practice-review" data-panel="review">\n'
        '<p class="practice-status" aria-live="polite" tabindex="-1"></p>\n'
        '<div class="practice-buttons">'
        + _button(t("reveal"), 'data-action="reveal"', "Space", primary=True)
        + _button(t("skip"), 'data-action="skip"', "ArrowRight")
        + f'</div>\n<div class="practice-buttons practice-grades">{grades}</div>\n</div>\n'
    )
    mock = (
        '<div class="practice-mock" data-panel="mock" hidden>\n'
        '<div class="mock-setup">'
        f'<label>{t("mock_count")} <input type="number" data-mock="count" min="1" '
        f'max="{len(cards)}" value="{min(5, len(cards))}" inputmode="numeric"></label>'
        f'<label><input type="checkbox" data-mock="shuffle" checked> {t("shuffle")}</label>'
        + _button(t("mock_start"), 'data-action="mock-start"', primary=True)
        + "</div>\n"
        '<div class="mock-round" hidden>'
        '<p class="mock-phase" aria-live="polite"><span class="mock-position"></span> '
        '<span class="mock-what"></span></p>'
        '<p class="mock-timer" role="timer"></p>'
        '<div class="practice-buttons">'
        + _button(t("mock_show"), 'data-action="mock-reveal"', "Space", primary=True)
        + _button(t("next"), 'data-action="mock-next"', "ArrowRight")
        + "</div></div>\n"
        '<form class="mock-grades" hidden novalidate></form>\n'
        '<div class="mock-summary" hidden></div>\n'
        "</div>\n"
    )
    settings = (
        '<details class="practice-settings">'
        f"<summary>{t('settings')}</summary>"
        '<p><label for="practice-retention">' + t("retention") + "</label> "
        '<input type="number" id="practice-retention" data-setting="retention" step="0.01" '
        'inputmode="decimal" aria-describedby="practice-retention-hint"></p>'
        '<p class="practice-hint" id="practice-retention-hint"></p>'
        '<p><label for="practice-new">' + t("new_per_day") + "</label> "
        '<input type="number" id="practice-new" data-setting="new_per_day" step="1" '
        'inputmode="numeric"></p>'
        '<div class="practice-buttons">'
        + _button(t("export"), 'data-action="export"')
        + f'<label class="practice-file">{t("import")} '
        '<input type="file" accept="application/json,.json" data-action="import"></label>'
        + _button(t("reset"), 'data-action="reset"')
        + "</div></details>\n"
    )
    dialog = (
        '<dialog class="practice-dialog" aria-labelledby="practice-reset-text">'
        f'<p id="practice-reset-text">{t("reset_confirm")}</p>'
        '<div class="practice-buttons">'
        + _button(t("export_first"), 'data-action="export"')
        + _button(t("reset_now"), 'data-action="reset-now"')
        + _button(t("cancel"), 'data-action="cancel"', primary=True)
        + "</div></dialog>\n"
    )
    budgets = escape(json.dumps(BUDGETS))
    return (
        f'<div class="practice" data-storage-key="{escape(storage_key(deck))}" '
        f'data-words="{_words(deck, lang)}" data-budgets="{budgets}" hidden>\n'
        '<p class="practice-message" role="status"></p>\n'
        f'<div class="practice-modes">{modes}</div>\n'
        f'<div class="practice-filters">{"".join(filters)}</div>\n'
        f"{review}{mock}{settings}{dialog}</div>\n"
    )


def references(bibliography: Bibliography, keys: list[str], first: int, card: Card) -> str:
    """The works a step cites first, numbered on from `first` as the card's markers are, in a
    block that starts collapsed."""
    items = "".join(
        f'<li id="{target(k, f"ref-{card.id}")}" markdown>'
        f"{bibliography.works[k].full(card.lang)}</li>\n"
        for k in keys
    )
    return (
        f'<details class="practice-references" markdown>\n<summary>{heading(card.lang)}</summary>'
        f'\n<ol start="{first}" markdown>\n{items}</ol>\n</details>'
    )


def item(
    deck: Deck,
    card: Card,
    substitute: Callable[[str, str], str],
    bibliography: Bibliography | None = None,
) -> str:
    """One card as a practice item: the question, then each step in its own block. Its
    citations are numbered markers, [1], in the card's own order; each step lists the works it
    is the first to cite, so a marker always leads to a step already revealed."""
    lang = card.lang
    bodies = []
    for keys in STEPS:
        blocks = []
        for key in keys:
            title = escape(deck.vocabulary.section_title(key, lang))
            body = math_safe_in_html_block(substitute(deck.section(card, key).strip(), lang))
            blocks.append(f'<p class="practice-label">{title}</p>\n\n{body}')
        bodies.append("\n\n".join(blocks))
    order = cited("\n\n".join(bodies)) if bibliography else []
    listed: list[str] = []
    for i, body in enumerate(bodies if order else []):
        first = [k for k in cited(body) if k not in listed]
        bodies[i] = bibliography.render(
            body, lang, str(card.path), compact=lambda _: True, anchor=f"ref-{card.id}", order=order
        )
        if first:
            bodies[i] += "\n\n" + references(bibliography, first, len(listed) + 1, card)
        listed += first
    bodies[-1] += f"\n\n[{_label(deck, 'open_card', lang)}]({card.id}.md)"  # on to the card
    attrs = (
        f'data-card="{card.id}" data-module="{card.module}" '
        f'data-difficulty="{card.difficulty}" data-tags="{" ".join(card.tags)}"'
    )
    parts = [
        f'<section class="practice-card" id="practice-{card.id}" {attrs} markdown>\n',
        f'<p class="practice-question">{escape(card.title)}</p>\n',
        *(
            f'<div class="practice-step" data-step="{step}" markdown>\n\n{body}\n\n</div>\n'
            for step, body in enumerate(bodies, 1)
        ),
        "</section>\n",
    ]
    return "".join(parts)


def practice(deck: Deck, lang: str, substitute: Callable[[str, str], str]) -> str:
    """The practice page's body: the controls, then every card of `lang` in deck order. The
    cards carry their own references: the page needs no list of its own."""
    bibliography = deck.site.bibliography()
    items = "\n".join(item(deck, c, substitute, bibliography) for c in deck.cards(lang))
    return f'{controls(deck, lang)}\n<div class="practice-deck" markdown>\n\n{items}\n</div>\n'


def summary(deck: Deck, lang: str) -> str:
    """The progress table of the cards index: a row per module, counted by the script from
    the schedule in localStorage (hidden without a script: there is nothing to count)."""
    v, w, t = deck.vocabulary, words(deck, lang), lambda key: _label(deck, key, lang)
    head = "".join(f'<th scope="col">{t(c)}</th>' for c in COLUMNS)
    cells = "".join(f'<td data-count="{c}"></td>' for c in COLUMNS)
    rows = [
        f'<tr data-cards="{" ".join(n.id for n in nodes)}">'
        f'<th scope="row">{escape(v.modules[module][lang])}</th>{cells}</tr>'
        for module, nodes in graph(deck, lang).modules.items()  # the map's columns
    ]
    return (
        f'<div class="practice-summary" data-storage-key="{escape(storage_key(deck))}" '
        f'data-words="{_words(deck, lang)}" hidden>\n'
        '<p class="practice-message" role="status"></p>\n<table>\n'
        f'<thead><tr><th scope="col">{escape(w["module"])}</th>{head}</tr></thead>\n'
        f"<tbody>{''.join(rows)}</tbody>\n</table>\n</div>\n"
    )
