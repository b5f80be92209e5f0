"""A card a person can say: each rule of lockstep/cards/spoken.py fails a card that breaks it,
naming what to do, and a card that keeps them passes. Shown on a card written here, in both
languages, so the rules are tested whatever the deck's own cards say."""

import dataclasses

import pytest

from lockstep.cards import render, spoken
from lockstep.cards.deck import Deck, read_card
from tests.conftest import SITE

DECK = Deck(SITE)
GOOD = {
    "en": """---
id: good-card
module: foundations
category: scaling
difficulty: easy
tags: [variance]
related: [why-scale]
---

# Why does the dot product grow?

## What is being tested

Whether you can derive the growth of the logits from the assumptions.

## One-sentence answer

Because variances of uncorrelated terms add, the dot product of $d_k$ unit terms has variance $d_k$.

## Key points

- Each product $q_ik_i$ has variance $1$ at initialisation [@vaswani2017].
- The $d_k$ terms add up to a variance of 64 at $d_k=64$.

## Key numbers to remember

- At $d_k=64$ the variance is about 64, as the check below prints.

## How to answer

1. State the assumptions.
2. Add the variances.

**Extra credit**

- Say where it breaks.

## Derivation

A check:

```python
print(64)
```

<!--pytest-codeblocks:expected-output-->
```text
64
```

## Engineering trade-offs

- None here.

## Pitfalls

- None here.

## Follow-up questions

??? question "Is it normal?"

    Only approximately.

## Related

- [Why scale](why-scale.md)
""",
    "zh": """---
id: good-card
module: foundations
category: scaling
difficulty: easy
tags: [variance]
related: [why-scale]
---

# 点积为什么会变大？

## 考察点

能否从假设推出 logit 随维度增长。

## 一句话回答

因为互不相关的项方差相加，$d_k$ 个单位方差项之和的方差就是 $d_k$。

## 要点

- 初始化时每个乘积 $q_ik_i$ 的方差为 $1$[@vaswani2017]。
- $d_k=64$ 时 $d_k$ 项相加，方差为 64。

## 要记住的数字

- $d_k=64$ 时方差约为 64，下面的检查打印了它。

## 答题思路

1. 先讲假设。
2. 再把方差相加。

**加分点**

- 说出假设不成立时的情形。

## 推导

一个检查：

```python
print(64)
```

<!--pytest-codeblocks:expected-output-->
```text
64
```

## 工程权衡

- 这里没有。

## 常见误区

- 这里没有。

## 追问

??? question "它是正态的吗？"

    只是近似。

## 延伸阅读

- [为什么要缩放](why-scale.md)
""",
}


def check(tmp_path, lang: str, old: str = "", new: str = "") -> list[str]:
    """The deck's checks on the good card with `old` replaced by `new`."""
    text = GOOD[lang]
    assert old in text, old
    path = tmp_path / lang / "cards" / "good-card.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return DECK.check_card(read_card(path, lang), {"why-scale"})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_that_keeps_every_rule_passes(tmp_path, lang):
    assert check(tmp_path, lang) == []


BROKEN = {
    "en": [
        ("Because variances of uncorrelated terms add, the", "$d_k$: because variances add, the",
         "the one-sentence answer opens with a formula"),
        ("from the assumptions.", "from the assumptions. And more.",
         "what is being tested is one sentence"),
        ("[@vaswani2017]", "[@vaswani2017, §3.2.1]", "has a locator: cite [@vaswani2017] here"),
        ("at initialisation", "at commit dc6ee3ed", "commit id 'dc6ee3ed'"),
        ("a variance of 64", "a variance of 63.85", "63.85 has more than three significant"),
        ("a variance of 64", "a variance of 70", "70 is not one of the card's key numbers"),
        ("about 64, as", "about 65, as", "65 is neither computed on the card nor cited"),
        ("about 64, as", "about 64.00, as", "64.00 has more than three significant figures"),
        ("- At $d_k=64$", "- A: 1\n- B: 2\n- C: 3\n- At $d_k=64$", "one to 3 `- ` bullets, got 4"),
        ("2. Add the variances.", "2. Add the variances." + " And so on." * 80,
         "take 2"),
    ],
    "zh": [
        ("因为互不相关的项方差相加，", "$d_k$：因为方差相加，", "opens with a formula"),
        ("随维度增长。", "随维度增长。还有别的。", "what is being tested is one sentence"),
        ("[@vaswani2017]", "[@vaswani2017, §3.2.1]", "has a locator"),
        ("方差为 64。", "方差为 63.85。", "63.85 has more than three significant"),
        ("方差为 64。", "方差为 70。", "70 is not one of the card's key numbers"),
        ("2. 再把方差相加。", "2. 再把方差相加。" + "以此类推。" * 120, "characters said aloud"),
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    "lang, old, new, message", [(lang, *case) for lang, cases in BROKEN.items() for case in cases]
)
def test_each_rule_fails_a_card_that_breaks_it(tmp_path, lang, old, new, message):
    problems = check(tmp_path, lang, old, new)
    assert any(message in p for p in problems), problems


def test_a_page_over_its_length_must_be_split(tmp_path):
    long = "- None here." + " More depth that nobody says aloud." * 300
    problems = check(tmp_path, "en", "- None here.", long)
    assert any("of prose, more than 1600: split it" in p for p in problems), problems


def test_significant_figures_are_counted_as_written():
    assert [spoken.significant_figures(n) for n in ("4096", "4000", "0.0123", "1.50", "64")] == [
        4, 1, 3, 3, 2,
    ]  # fmt: skip


def test_a_long_depth_section_starts_collapsed_and_a_short_one_does_not(tmp_path):
    path = tmp_path / "en/cards/good-card.md"
    path.parent.mkdir(parents=True)
    deep = "A check:" + " Much more about it." * 200
    path.write_text(GOOD["en"].replace("A check:", deep), encoding="utf-8")
    card = read_card(path, "en")
    page = render.collapse_depth(DECK, card, card.body)
    assert '## Derivation\n\n??? abstract "Show it all (about ' in page
    assert "    ```python\n    print(64)\n    ```" in page  # the code runs as written, indented
    assert "## Engineering trade-offs\n\n- None here." in page  # short: open
    short = read_card(_written(tmp_path / "short", GOOD["en"]), "en")
    assert "??? abstract" not in render.collapse_depth(DECK, short, short.body)


def _written(folder, text):
    path = folder / "en/cards/good-card.md"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_citations_in_the_parts_said_aloud_are_numbered_markers_and_full_elsewhere():
    bib = SITE.bibliography()
    text = "## Key points\n\n- Grows [@vaswani2017].\n\n## Derivation\n\nSee [@vaswani2017, §3].\n"
    titles = {DECK.vocabulary.section_title(k, "en") for k in spoken.REVEALED}
    out = bib.render(text, "en", compact=lambda heading: heading in titles)
    assert "- Grows [[1](#ref-vaswani2017){ .citation }]." in out
    assert "See ([Vaswani et al., 2017, §3](#ref-vaswani2017){ .citation })." in out


def test_the_deck_keeps_the_rules_in_a_copy_of_the_site():
    """The rules read the vocabulary's limits: a site without them checks no budget."""
    deck = Deck(dataclasses.replace(SITE))
    assert deck.vocabulary.limits["spoken"] == {"zh": 450, "en": 250}
