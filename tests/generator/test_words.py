"""Citations, glossary terms and Chinese punctuation: words checked like numbers."""

import textwrap

import pytest
import yaml

from lockstep import citations, numbers, parity, typography
from lockstep.citations import Bibliography, cited, handwritten
from lockstep.errors import BuildError
from lockstep.glossary import Glossary

WORKS = {
    "vaswani2017": dict(
        authors="Vaswani, Ashish; Shazeer, Noam; Parmar, Niki",
        title="Attention Is All You Need",
        venue="NeurIPS",
        year=2017,
        url="https://arxiv.org/abs/1706.03762",
    ),
    "shazeer2019": dict(
        authors="Shazeer, Noam",
        title="Fast Transformer Decoding",
        venue="arXiv preprint",
        year=2019,
        url="https://arxiv.org/abs/1911.02150",
        checked="Abstract",
    ),
}
TERMS = {
    "soft-capping": dict(
        en="soft-capping",
        zh="软封顶",
        avoid={"zh": ["软截断"], "en": ["soft capping"]},
        define={"en": "c·tanh(x/c).", "zh": "c·tanh(x/c)。"},
    ),
    "kernel": dict(
        en="kernel",
        zh="内核",
        avoid={"zh": ["kernel"]},
        not_in={"en": ["kernel method"]},
        define={"en": "A device function.", "zh": "设备上的函数。"},
    ),
}


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture
def bib(tmp_path):
    return Bibliography.load(_write(tmp_path, "refs.yml", WORKS))


@pytest.fixture
def glossary(tmp_path):
    return Glossary.load(_write(tmp_path, "terms.yml", TERMS), ("zh", "en"))


def test_citations_render_in_each_language_with_a_list_of_references(bib):
    page = (
        "# T\n\nAs [@vaswani2017, §3.2.1] shows, and @shazeer2019 argues.\n@shazeer2019 [§2] too.\n"
    )
    en = bib.render(page, "en")
    assert "([Vaswani et al., 2017, §3.2.1](#ref-vaswani2017){ .citation })" in en
    assert "[Shazeer (2019)](#ref-shazeer2019){ .citation }" in en
    assert "[Shazeer (2019, §2)](#ref-shazeer2019){ .citation } too." in en
    assert en.index("## References") > en.index("argues")
    assert '1. <span id="ref-vaswani2017"></span>Ashish Vaswani, Noam Shazeer' in en
    assert "— Abstract" in en  # what was checked
    zh = bib.render(page, "zh")
    assert "（[Vaswani 等，2017，§3.2.1](#ref-vaswani2017){ .citation }）" in zh
    assert "[Shazeer（2019）](#ref-shazeer2019)" in zh and "## 参考文献" in zh
    plain = bib.render(page, "en", links=False)  # for exports without a page around them
    assert "(Vaswani et al., 2017, §3.2.1)" in plain and "References" not in plain


def test_a_note_of_what_was_checked_is_shown_in_the_pages_language_or_marked_english(tmp_path):
    works = {
        "shazeer2019": {**WORKS["shazeer2019"], "checked": {"en": "Abstract", "zh": "摘要"}},
        "vaswani2017": {**WORKS["vaswani2017"], "checked": "§3.2.1"},
    }
    bib = Bibliography.load(_write(tmp_path, "refs.yml", works))
    page = "[@shazeer2019] [@vaswani2017]\n"
    zh, en = bib.render(page, "zh"), bib.render(page, "en")
    assert "— 摘要" in zh and '— <span lang="en">§3.2.1</span>' in zh
    assert "— Abstract" in en and "— §3.2.1" in en and "摘要" not in en
    for bad in ({"zh": "摘要"}, {"en": "Abstract", "zh": ""}):
        works["shazeer2019"]["checked"] = bad
        with pytest.raises(ValueError, match="a note per language"):
            Bibliography.load(_write(tmp_path, "refs.yml", works))


def test_citations_in_code_emails_and_decorators_are_left_alone(bib):
    page = "Mail a@b.com, run `@shazeer2019`.\n\n```python\n@vaswani2017\n```\n"
    assert cited(page) == []
    assert bib.render(page, "en") == page


def test_a_locator_may_hold_code_and_a_chinese_sentence_goes_on_without_a_space(bib):
    page = "见 [@shazeer2019, `multihead_attention`]；@vaswani2017 提出了它。\n"
    zh = bib.render(page, "zh", links=False)
    assert zh.startswith("见（Shazeer，2019，`multihead_attention`）；Vaswani 等（2017）提出")
    assert cited(page) == ["shazeer2019", "vaswani2017"]


def test_a_citation_split_across_lines_is_an_error(bib):
    page = "As [@vaswani2017,\n§3.2.1] shows.\n"
    assert citations.unclosed(page) == [1]
    with pytest.raises(ValueError, match="split across lines"):
        bib.render(page, "en")


def test_an_unknown_key_and_an_incomplete_entry_are_errors(bib, tmp_path):
    with pytest.raises(BuildError, match="nobody2020"):
        bib.render("See [@nobody2020].", "en", where="x.md")
    broken = {"a2020": {"authors": "A, B", "title": "T", "year": 2020}}
    with pytest.raises(ValueError, match="a2020 lacks venue, url"):
        Bibliography.load(_write(tmp_path, "bad.yml", broken))
    report = {"r2024": {**WORKS["shazeer2019"], "venue": "technical report", "checked": ""}}
    with pytest.raises(ValueError, match="what was read"):
        Bibliography.load(_write(tmp_path, "bad.yml", report))
    with pytest.raises(ValueError, match="not a link"):
        Bibliography.load(
            _write(tmp_path, "bad.yml", {"a2020": {**WORKS["shazeer2019"], "url": "x"}})
        )


def test_author_year_written_by_hand_is_found(bib):
    page = textwrap.dedent("""\
        Vaswani et al. (2017) and Xiong 等（2020） wrote; see NeurIPS 2017.
        A citation [@vaswani2017, §3] is fine, and so is the year 2017 alone.
        ```python
        print("Vaswani et al., 2017")
        ```
        """)
    assert handwritten(page) == [
        (1, "Vaswani et al. (2017"),
        (1, "Xiong 等（2020"),
        (1, "NeurIPS 2017"),
    ]


def test_the_references_page_links_each_work_to_the_pages_citing_it(bib):
    pages = {"a.md": "# Page A\n\n[@vaswani2017]\n", "sub/b.md": "# Page B\n\n@vaswani2017\n"}
    index = bib.index(pages, "en", here="references.md")
    line = next(x for x in index.splitlines() if "ref-vaswani2017" in x)
    assert line.endswith("cited on: [Page A](a.md), [Page B](sub/b.md)")
    assert "cited on" not in next(x for x in index.splitlines() if "ref-shazeer2019" in x)


def test_locators_are_not_numbers_of_the_page_and_pairs_cite_the_same_works():
    assert numbers.prose_numbers("See [@vaswani2017, §3.2.1, footnote 4].") == []
    a, b = "# T\n\n[@vaswani2017]\n", "# T\n\n[@shazeer2019]\n"
    assert any("cited works differ" in p for p in parity.page_problems(a, b, ("zh", "en"), "f"))
    assert numbers.cited_sources({"30": "@grok1: the cap", "64": "an input"}) == {"30": "grok1"}


def test_avoided_renderings_are_found_in_prose_only(glossary):
    page = textwrap.dedent("""\
        软截断会让梯度变小。`软截断` 在代码里不算。
        Triton 内核（kernel）是注释，而 kernel 不行。
        ```python
        软截断 = 1
        ```
        """)
    assert glossary.avoided(page, "zh") == [(1, "软截断", "软封顶"), (2, "kernel", "内核")]
    assert glossary.avoided("Soft capping and soft capping.", "en") == [
        (1, "soft capping", "soft-capping")
    ]


def test_first_use_of_each_term_gets_its_definition(glossary):
    page = "# Soft-capping\n\nA kernel method. The soft-capping kernel, soft-capping again.\n"
    out = glossary.with_definitions(page, "en")
    assert out.startswith("# Soft-capping\n")  # headings are left alone
    assert out.count("<abbr") == 2
    assert 'A kernel method. The <abbr title="c·tanh(x/c).">soft-capping</abbr> ' in out
    assert '<abbr title="A device function.">kernel</abbr>, soft-capping again' in out


def test_a_glossary_entry_without_a_definition_or_clashing_is_an_error(tmp_path):
    incomplete = {"x": {"en": "x", "zh": "叉", "define": {"en": "X."}}}
    with pytest.raises(ValueError, match=r"x lacks define\.zh"):
        Glossary.load(_write(tmp_path, "g.yml", incomplete), ("zh", "en"))
    clash = {
        **TERMS,
        "other": {**TERMS["kernel"], "en": "k", "zh": "核", "avoid": {"zh": ["内核"]}},
    }
    with pytest.raises(ValueError, match="other avoids '内核'"):
        Glossary.load(_write(tmp_path, "g.yml", clash), ("zh", "en"))


def test_chinese_prose_uses_chinese_punctuation():
    page = textwrap.dedent("""\
        ---
        title: "卡片"
        ---
        这是"引号"，还有逗号,以及句号.括号(注)也是。
        `"代码"` 与 $f(x)$ 不算；[链接](a.md) 也不算。
        === "标签"
        英文 (English) 旁边的括号不算，Vaswani et al. 也不算。 多一个空格
        """)
    found = [(line, text) for line, text, _ in typography.chinese_problems(page)]
    assert found == [(4, '"'), (4, '"'), (4, "号,"), (4, "号."), (4, "号("), (4, "注)"), (7, "。 ")]


def test_two_works_of_the_same_authors_and_year_get_letters(tmp_path):
    works = {**WORKS, "shazeer2019b": {**WORKS["shazeer2019"], "title": "Another"}}
    bib = Bibliography.load(_write(tmp_path, "refs.yml", works))
    text = bib.render("[@shazeer2019] and [@shazeer2019b]", "en", links=False)
    assert text.startswith("(Shazeer, 2019a) and (Shazeer, 2019b)")
    assert bib.works["vaswani2017"].when == "2017"
