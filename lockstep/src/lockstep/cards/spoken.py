"""A card a person can say: the rules for the parts said aloud in an interview.

The revealed parts (the one-sentence answer, the key points, how to answer: what practice
mode shows and what a candidate says in three minutes) fit a spoken budget and carry no
inline locators, commit ids or numbers with more than three significant figures; their only
numbers (beyond small counts) are the card's key numbers, at most three, each computed by the
card's code or cited. The answer opens with a conclusion in words; a formula may follow. The
line "what is being tested" is one sentence. Depth sections may run long, and start collapsed
past a length; a whole card page stays under a limit. Sizes are measured as answer_size
measures them: English words, Chinese characters, a formula one per four symbols it shows.
"""

from __future__ import annotations

import re

from lockstep.cards.answer_size import answer_size, formulas
from lockstep.citations import citations, group, without_citations
from lockstep.fences import prose
from lockstep.markup import MATH, without_targets
from lockstep.numbers import NUMBER, shown_by_code

REVEALED = ("answer", "key_points", "how_to_answer")  # said aloud, revealed in practice
DEPTH = ("derivation", "trade_offs", "pitfalls")  # may run long; collapsed past a length
COMMIT = re.compile(r"(?<![\w/])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w])")
SMALL = 12  # counts up to a dozen ("two matmuls", "step 3") are words, not figures
OPENING = {"en": 5, "zh": 8}  # words (characters) of prose before the answer's first formula
TESTED_LIMIT = {"en": 40, "zh": 60}
MAX_KEY_NUMBERS = 3


def significant_figures(number: str) -> int:
    """Significant figures of a number as written: 4096 has four, 0.0123 three, 1.50 three."""
    digits = number.replace(".", "").lstrip("0") or "0"
    if "." not in number:
        digits = digits.rstrip("0") or "0"  # 4000 is one figure, as read aloud
    return len(digits)


def spoken_numbers(text: str) -> list[str]:
    """The numbers of a spoken part: in its words, not in formulas, code, links or citations."""
    words = MATH.sub(" ", without_citations(without_targets(prose(text))))
    words = re.sub(r"`[^`]*`", " ", words)
    words = re.sub(r"(?m)^\s*\d+\.\s", " ", words)  # a numbered step's own number
    return NUMBER.findall(words)


def key_numbers(text: str) -> list[list[str]]:
    """The numbers of each bullet of the key numbers section."""
    return [spoken_numbers(line) for line in text.splitlines() if line.startswith("- ")]


def problems(deck, card) -> list[str]:
    """What keeps a card from being said: one line per rule it breaks."""
    lang, where = card.lang, str(card.path)
    chinese = lang in deck.site.options.chinese
    unit = "characters" if chinese else "words"
    limits = deck.vocabulary.limits
    p = []
    answer = deck.section(card, "answer").strip()
    first = MATH.search(answer)
    opening = answer_size(answer[: first.start()] if first else answer, chinese)
    need = OPENING["zh" if chinese else "en"]
    if formulas(answer) and opening < need:
        p.append(
            f"{where}: the one-sentence answer opens with a formula: say the conclusion in "
            f"words first (at least {need} {unit} before the first $...$)"
        )
    tested = deck.section(card, "tested").strip()
    ends = len(re.findall(r"[。！？]|[.!?](?=\s|$)", tested))
    size = answer_size(tested, chinese)
    if not tested or "\n\n" in tested or ends != 1 or tested.startswith("- "):
        p.append(f"{where}: what is being tested is one sentence")
    elif size > TESTED_LIMIT["zh" if chinese else "en"]:
        p.append(f"{where}: what is being tested takes {size} {unit}; say it in one short sentence")
    p += _key_number_problems(deck, card, where)
    allowed = {n for bullet in key_numbers(deck.section(card, "numbers")) for n in bullet}
    spoken = 0
    for key in REVEALED:
        text = deck.section(card, key)
        title = deck.vocabulary.section_title(key, lang)
        spoken += answer_size(text, chinese)
        for m in citations(text):
            for cited, locator in group(m):
                if locator:
                    p.append(
                        f"{where}: {title}: [@{cited}, {locator.strip()}] has a locator: "
                        f"cite [@{cited}] here (it shows as a marker) and keep the locator in "
                        "the depth sections"
                    )
        p += [
            f"{where}: {title}: commit id {c!r}: leave it to the depth sections"
            for c in COMMIT.findall(MATH.sub(" ", without_targets(prose(text))))
        ]
        for n in spoken_numbers(text):
            if significant_figures(n) > 3:
                p.append(
                    f"{where}: {title}: {n} has more than three significant figures: round "
                    "it as you would say it, or leave it to the depth sections"
                )
            elif n not in allowed and not (n.isdigit() and int(n) <= SMALL):
                p.append(
                    f"{where}: {title}: {n} is not one of the card's key numbers: mark it as "
                    "one (at most three) or leave it to the depth sections"
                )
    budget = limits.get("spoken", {}).get(lang)
    if budget and spoken > budget:
        parts = ", ".join(deck.vocabulary.section_title(k, lang) for k in REVEALED)
        p.append(f"{where}: {parts} take {spoken} {unit} said aloud, more than {budget}")
    page_limit = limits.get("page", {}).get(lang)
    page = answer_size(prose(card.body), chinese)
    if page_limit and page > page_limit:
        p.append(f"{where}: the page has {page} {unit} of prose, more than {page_limit}: split it")
    return p


def _key_number_problems(deck, card, where: str) -> list[str]:
    """At most three key numbers, one bullet each, each computed on the card or cited."""
    text = deck.section(card, "numbers")
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    title = deck.vocabulary.section_title("numbers", card.lang)
    if not 1 <= len(bullets) <= MAX_KEY_NUMBERS:
        return [f"{where}: {title}: one to {MAX_KEY_NUMBERS} `- ` bullets, got {len(bullets)}"]
    shown = shown_by_code(card.body, deck.site)
    p = []
    for bullet in bullets:
        found = spoken_numbers(bullet)
        if not found and "{{" not in bullet:
            p.append(f"{where}: {title}: {bullet[:40]!r} names no number")
        p += [
            f"{where}: {title}: {n} has more than three significant figures: a number to "
            "remember is one you can say"
            for n in found
            if significant_figures(n) > 3
        ]
        cited = any(True for _ in citations(bullet))
        unshown = [n for n in found if n not in shown]
        if unshown and not cited and "{{" not in bullet:
            p.append(
                f"{where}: {title}: {', '.join(unshown)} is neither computed on the card nor "
                "cited: show it in the derivation's checked output, or cite its source"
            )
    return p


def depth_size(deck, card, key: str) -> int:
    """How long a depth section is, as the collapse rule measures it."""
    return answer_size(deck.section(card, key), card.lang in deck.site.options.chinese)
