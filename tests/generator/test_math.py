"""Build-time math: where formulas are found on a built page, how they are drawn into it
(glyphs shared once per page, ids unique), and that bad TeX or a missing MathJax fails loudly."""

import re

import pytest

from lockstep import math
from lockstep.cache import Cache
from lockstep.errors import BuildError
from tests.conftest import ROOT

PAGE = """<html><body>
<p>Scores <span class="arithmatex">\\(q\\cdot k/\\sqrt{d_k} &lt; 1\\)</span> and</p>
<div class="arithmatex">\\[\\operatorname{Var}(q\\cdot k) = d_k\\]</div>
<div class="jp-Cell"><div class="jp-RenderedMarkdown jp-MarkdownOutput">
<p>Mean $\\mathbb{E}[q\\cdot k]=0$, a price of \\$5, <code>$HOME</code>, and</p>
<div><p>$$\\sum_i q_i k_i$$</p></div></div>
<pre>$not math$</pre></div>
<p>Outside a cell, $x$ is text.</p>
</body></html>"""


@pytest.fixture(scope="module")
def mathjax():
    mj = math.MathJax(math.node_modules(ROOT))
    yield mj
    mj.close()


def test_find_reads_arithmatex_and_notebook_cells_only():
    found = [(tex, display) for _, _, tex, display in math.find(PAGE)]
    assert found == [
        ("q\\cdot k/\\sqrt{d_k} < 1", False),  # unescaped, delimiters dropped
        ("\\operatorname{Var}(q\\cdot k) = d_k", True),
        ("\\mathbb{E}[q\\cdot k]=0", False),
        ("\\sum_i q_i k_i", True),  # in a nested <div> of the cell
    ]  # not \$5, not <code>, not <pre>, not $x$ outside a notebook cell


def test_typeset_draws_every_formula_and_shares_glyphs_once(mathjax, tmp_path):
    page_math = math.PageMath(mathjax, Cache(tmp_path, "json"), ROOT)
    out = page_math.typeset(PAGE, "en/page.md")
    assert out.count("<mjx-container") == 4
    for tex in ("\\(", "\\[", "$\\mathbb", "$$"):
        assert tex not in out, f"{tex!r} left on the page"
    assert "$HOME" in out and "$not math$" in out and "$x$" in out and "\\$5" in out
    ids = re.findall(r'id="(MJX-[^"]+)"', out)
    refs = set(re.findall(r'href="#(MJX-[^"]+)"', out))
    assert len(ids) == len(set(ids)), "a glyph is defined twice on the page"
    assert refs and refs == set(ids) - {"MJX-SVG-global-cache"}, "a glyph is missing or unused"
    assert out.count("<defs>") == 1  # one definition block for the page
    assert 'aria-hidden="true"' in out and "<mjx-assistive-mml" in out  # MathML for readers
    assert "tabindex" not in out  # formulas are not tab stops
    # A second page build reads the cache instead of drawing again.
    drawn = page_math.cache.made[:]
    assert page_math.typeset(PAGE, "en/page.md") == out and page_math.cache.made == drawn


def test_a_tex_error_fails_naming_the_page_and_the_formula(mathjax, tmp_path):
    page_math = math.PageMath(mathjax, Cache(tmp_path, "json"), ROOT)
    bad = '<body><span class="arithmatex">\\(\\sqrtt{d_k}\\)</span></body>'
    with pytest.raises(BuildError, match=r"en/bad\.md: TeX error in '\\\\sqrtt\{d_k\}'"):
        page_math.typeset(bad, "en/bad.md")
    with pytest.raises(BuildError, match="Missing close brace"):
        page_math.typeset('<body><div class="arithmatex">\\[\\frac{a\\]</div></body>', "x.md")


def test_missing_mathjax_says_how_to_install_it(tmp_path):
    with pytest.raises(BuildError, match="npm install mathjax-full@3"):
        math.MathJax(tmp_path / "node_modules").version()


def test_an_inline_formula_keeps_the_punctuation_after_it_on_its_line(mathjax, tmp_path):
    page_math = math.PageMath(mathjax, Cache(tmp_path, "json"), ROOT)
    first = '<span class="arithmatex">\\(x\\)</span> 无，'  # no punctuation right after it
    second = '<span class="arithmatex">\\(d_k\\)</span>。'
    out = page_math.typeset(f"<body><p>设 {first}方差为 {second}</p></body>", "zh/p.md")
    assert out.count('<span class="math-nobr">') == 1
    kept = re.search(r'<span class="math-nobr">(.*?)。</span>', out, re.S)[1]
    assert kept.count("<mjx-container") == 1 and "无" not in kept


def test_a_formula_drawn_twice_on_a_page_is_defined_once_and_each_keeps_its_mathml(
    mathjax, tmp_path
):
    twice = '<p><span class="arithmatex">\\(q\\cdot k\\)</span></p>'
    page = (
        f'<html><body>{twice}{twice}<p><span class="arithmatex">\\(d_k\\)</span></p></body></html>'
    )
    out = math.PageMath(mathjax, Cache(tmp_path, "json"), ROOT).typeset(page, "en/twice.md")
    assert out.count('<g id="MJX-F0">') == 1 and "MJX-F1" not in out  # d_k appears once
    assert out.count('<use href="#MJX-F0"></use>') == 2
    assert out.count("<mjx-assistive-mml") == 3  # every occurrence keeps what readers hear
