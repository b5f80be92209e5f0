"""Placeholders, tables, front matter, numbers in prose and parity: one home each."""

import pytest

from lockstep import numbers, parity, placeholders
from lockstep.frontmatter import split_front_matter
from lockstep.tables import markdown_table
from tests.conftest import SITE


def test_placeholders_are_found_and_substituted_in_order():
    text = "a {{ x }} b {{y_2}} {{ x }} {{ Not }}"
    assert placeholders.names(text) == ["x", "y_2", "x"]
    assert placeholders.substitute(text, str.upper) == "a X b Y_2 X {{ Not }}"


def test_table_aligns_escapes_pipes_and_rejects_ragged_rows():
    table = markdown_table(["a", "b"], [(1, "x|y")], align="rl")
    assert table.splitlines() == ["| a | b |", "|---:|---|", r"| 1 | x\|y |"]
    with pytest.raises(ValueError, match="cells"):
        markdown_table(["a", "b"], [(1,)])
    with pytest.raises(ValueError, match="align"):
        markdown_table(["a"], [], align="x")


def test_front_matter_is_split_from_the_body():
    assert split_front_matter("---\nid: a\n---\n# T\n") == ({"id": "a"}, "# T\n")
    assert split_front_matter("# T\n") == ({}, "# T\n")


def test_a_typed_number_is_flagged_unless_code_shows_it_or_it_is_stated():
    typed = "# Q\n\nThe std is 8.08 in 2017.\n\n```python\nprint(1)\n```\n"
    assert numbers.unchecked_numbers(typed, SITE) == ["8.08"]
    assert numbers.unchecked_numbers(typed, SITE, {"8.08"}) == []
    shown = "# Q\n\nThe std is 8.08.\n\n```text\nstd 8.08\n```\n"
    assert numbers.unchecked_numbers(shown, SITE) == []


def test_numbers_in_link_targets_and_front_matter_are_not_prose():
    text = "---\nid: 42\n---\nσ is 8.00 at d_k = 64, see [x](a/2.md).\n"
    assert numbers.prose_numbers(text) == ["64", "8.00"]


def test_parity_names_each_difference():
    code = "```python\nx = 1  # {}\n```\n"
    zh = "# 标题\n\n见 {{ a }}，8.0。\n\n![](assets/figures/f.zh.svg)\n\n" + code.format("一")
    en = "# Title\n\nSee {{ a }}, 8.0.\n\n![](assets/figures/f.en.svg)\n\n" + code.format("one")
    assert parity.page_problems(zh, en, ("zh", "en"), "assets/figures") == []
    broken = en.replace("x = 1", "x = 2").replace("8.0", "8.1").replace("f.en", "f.zh")
    problems = "\n".join(parity.page_problems(zh, "## " + broken, ("zh", "en"), "assets/figures"))
    for what in (
        "code block 1 differs",
        "heading levels",
        "another language's figure",
        "numbers in prose",
    ):
        assert what in problems


def test_a_less_than_sign_in_a_formula_does_not_end_an_html_block():
    import markdown

    from lockstep.markup import math_safe_in_html_block

    cards = [
        "With $L_q<L_k$ it is aligned.",
        "```python\nassert 1<2\n```\n\nLater, $M<d^2$ and $$a<b$$.",
    ]
    safe = [math_safe_in_html_block(text) for text in cards]
    assert "$L_q\\lt L_k$" in safe[0] and "$M\\lt d^2$" in safe[1] and "$$a\\lt b$$" in safe[1]
    assert "assert 1<2" in safe[1]  # code is left as written
    for texts, whole in ((cards, False), (safe, True)):  # the bug, then the workaround
        page = "\n\n".join(f'<section class="card" markdown>\n\n{t}\n\n</section>' for t in texts)
        html = markdown.markdown(page, extensions=["md_in_html", "pymdownx.superfences"])
        assert (html.count('class="card"') == 2) is whole
