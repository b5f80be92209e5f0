"""The slips readers of 2026-12-01 had to catch by eye, each now a check that fails the build
(or the page's tests) with the place and a fix: shown firing here, and passing on good text."""

import pytest
import yaml

from lockstep import rendered, typography
from lockstep.citations import Bibliography, cited
from lockstep.glossary import Glossary

WORKS = {
    "_translations": {"authors": {"zh": "作者"}, "technical report": {"zh": "技术报告"}},
    "v2": dict(authors="DeepSeek-AI", title="V2", venue="technical report, arXiv:2405.04434",
               year=2024, url="https://arxiv.org/abs/2405.04434", checked="§3"),
    "v3": dict(authors="DeepSeek-AI", title="V3", venue="technical report", year=2024,
               url="https://arxiv.org/abs/2412.19437", checked="§4"),
    "sdpa": dict(authors="PyTorch authors", title="SDPA", venue="PyTorch documentation",
                 year=2026, url="https://pytorch.org/docs", checked="docstring"),
}  # fmt: skip
TERMS = {
    "temperature": dict(
        en="temperature", zh="温度",
        avoid={"zh": {"温度 $g$": "逆温度 $g$", "参考内核": "参考实现"}},
        define={"en": "The divisor T.", "zh": "除数 T。"},
    ),
    "cap": dict(en="cap", zh="上限", hover=False, avoid={"zh": ["cap"]},
                define={"en": "The cap c.", "zh": "上限 c。"}),
}  # fmt: skip


def load(tmp_path, name, data, cls, *args):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return cls.load(path, *args)


def test_several_works_in_one_bracket_are_each_cited_and_joined_in_the_page_s_language(tmp_path):
    bib = load(tmp_path, "refs.yml", WORKS, Bibliography)
    text = "见[@v2, §3.1.2; @v3, §4.2]。\n"
    assert cited(text) == ["v2", "v3"]
    zh = bib.render(text, "zh", links=False)
    assert "（DeepSeek-AI，2024a，§3.1.2；DeepSeek-AI，2024b，§4.2）" in zh
    assert rendered.problems(f"<body><p>{zh}</p></body>", "zh") == []
    en = bib.render(text.replace("见", "See ").replace("。", "."), "en", links=False)
    assert "(DeepSeek-AI, 2024a, §3.1.2; DeepSeek-AI, 2024b, §4.2)" in en


def test_group_authors_and_kinds_of_venue_read_in_the_page_s_language(tmp_path):
    bib = load(tmp_path, "refs.yml", WORKS, Bibliography)
    assert bib.cite("sdpa", None, "zh", narrative=False) == "PyTorch 作者，2026"
    assert bib.cite("sdpa", None, "en", narrative=False) == "PyTorch authors, 2026"
    entry = bib.works["v2"].full("zh")
    assert '技术报告，<span lang="en">arXiv:2405.04434</span>' in entry
    assert '<span lang="en">*V2*</span>' in entry  # titles as published, marked as English
    assert bib.works["v2"].full("en").startswith("DeepSeek-AI (2024a). *V2*. technical report, ")


def test_a_note_in_a_venue_fails_the_bibliography_naming_the_work_and_where_it_goes(tmp_path):
    # Only a venue's kind has renderings: a note after it reads in English on every page.
    for venue, prose in [
        ("ICLR; sections as numbered in arXiv:1", "sections as numbered in"),
        ("arXiv preprint (later TPAMI, 2024)", "later"),
    ]:
        works = {**WORKS, "v3": {**WORKS["v3"], "venue": venue}}
        with pytest.raises(ValueError) as error:
            load(tmp_path, "refs.yml", works, Bibliography)
        assert f"v3: the venue is a kind and identifiers; {prose!r}" in str(error.value)
        assert "checked:" in str(error.value)


def test_a_built_chinese_page_with_a_raw_key_an_ascii_join_or_english_chrome_fails():
    page = (
        "<body><p>见（DeepSeek-AI，2024b，§3.1.2; @deepseek2024v3, §4.2）。</p>"
        "<p>Vaswani 等, 2017</p>"
        '<a class="headerlink" title="Permanent link">¶</a>'
        '<p><span lang="en">PyTorch authors, technical report</span><code>a, 中</code></p></body>'
    )
    found = rendered.problems(page, "zh")
    assert any("@deepseek2024v3" in p and "citation left raw" in p for p in found)
    assert any("等, 2017" in p and "ASCII , or ;" in p for p in found)
    assert any("'Permanent link'" in p for p in found)
    assert len(found) == 3  # English marked as English, and code, are not the reader's text


def test_bei_after_a_verb_of_decrease_is_found_with_what_to_write():
    text = "显存减少了 4 倍。缓存缩小几倍。速度提高了 3 倍，至少 2 倍。\n"
    found = typography.chinese_problems(text)
    bei = [(line, text) for line, text, advice in found if "倍 after a verb of decrease" in advice]
    assert bei == [(1, "减少了 4 倍"), (1, "缩小几倍")]
    assert "降到原来的 1/X" in next(a for _, _, a in found if "倍" in a)


def test_thousands_counted_in_qian_past_ten_are_found():
    text = "一本 65 千 token 的书，最大值约 65.5 千，约 4 千个特征，6.5 万个 token。\n"
    found = [t for _, t, advice in typography.chinese_problems(text) if "万" in advice]
    assert found == ["65 千", "65.5 千"]


def test_ascii_joins_inside_a_chinese_citations_locator_are_found():
    # Between two code spans the page's rule sees no Chinese character: the locator's own.
    text = (
        "见代码[@a, `model.py`, `forward`]与[@a, `model.py` 中的 `forward`]；[@b, §3; @c, §1]；"
        "[@a, `f(x, y)`]。\n"
    )
    found = [t for _, t, advice in typography.chinese_problems(text) if "locator" in advice]
    assert found == ["`model.py`, `forward`"]


def test_an_avoided_variant_may_hold_a_formula_and_name_its_own_replacement(tmp_path):
    glossary = load(tmp_path, "terms.yml", TERMS, Glossary, ("zh", "en"))
    text = "可学习的温度 $g$ 放大 logit。这里用参考内核。温度 $T$ 是除数。cap 取 50。\n"
    assert sorted(glossary.avoided(text, "zh")) == [
        (1, "cap", "上限"),
        (1, "参考内核", "参考实现"),
        (1, "温度 $g$", "逆温度 $g$"),
    ]


def test_no_hover_inside_a_dropdown_option_or_an_svg_title_nor_for_a_term_without_one(tmp_path):
    glossary = load(tmp_path, "terms.yml", TERMS, Glossary, ("zh", "en"))
    text = '<select><option value="t">温度</option></select><svg><title>温度</title></svg>\n'
    assert "<abbr" not in glossary.with_definitions(text, "zh")
    assert "<abbr" in glossary.with_definitions("温度决定分布的尖锐程度。\n", "zh")
    assert "<abbr" not in glossary.with_definitions("上限是 50。\n", "zh")  # hover: false
