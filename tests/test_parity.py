"""The zh and en trees say the same thing: same pages, code, outputs, figures, numbers, headings."""

import io
import re
import tokenize
from collections import Counter
from pathlib import Path

import jupytext
import pytest

from tests.docs_blocks import DOCS, prose_numbers, scan_fences, split_page

LANGS = ("zh", "en")


def pages(lang: str) -> set[str]:
    root = DOCS / lang
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


PAIRS = sorted(pages("zh") & pages("en"))
MD_PAIRS = [p for p in PAIRS if p.endswith(".md")]
# Lab notebooks (jupytext percent format) that mkdocs-jupyter renders as pages.
NOTEBOOK_PAIRS = [p for p in PAIRS if p.startswith("notebooks/") and p.endswith(".py")]


def test_every_page_exists_in_both_languages():
    zh, en = pages("zh"), pages("en")
    assert not zh - en, f"pages with no English translation in docs/en/: {sorted(zh - en)}"
    assert not en - zh, f"pages with no Chinese translation in docs/zh/: {sorted(en - zh)}"


def strip_comments(code: str) -> str:
    """Python source without comments or blank lines: translations may reword comments only."""
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(code + "\n").readline)
        if t.type != tokenize.COMMENT
    ]
    return "\n".join(
        line.rstrip() for line in tokenize.untokenize(tokens).splitlines() if line.strip()
    )


def read_pair(page: str) -> tuple[str, str]:
    return tuple((DOCS / lang / page).read_text(encoding="utf-8") for lang in LANGS)


@pytest.mark.parametrize("page", MD_PAIRS)
def test_code_and_outputs_are_identical_modulo_comments(page):
    def normalise(blocks):
        return [(lang, strip_comments(b) if lang == "python" else b) for lang, b in blocks]

    zh, en = (normalise(split_page(t)[0]) for t in read_pair(page))
    assert zh == en, f"code blocks of docs/zh/{page} and docs/en/{page} differ"


@pytest.mark.parametrize("page", MD_PAIRS)
def test_heading_structure_matches(page):
    def levels(text):
        return [len(m.group(1)) for m in re.finditer(r"^(#{1,6}) ", split_page(text)[1], re.M)]

    zh, en = (levels(t) for t in read_pair(page))
    assert zh == en, f"heading levels differ: zh {zh} vs en {en}"


FIGURE = re.compile(r"assets/figures/([\w-]+)\.(\w+)\.svg")


@pytest.mark.parametrize("page", MD_PAIRS)
def test_same_figures_each_in_its_own_language(page):
    for lang, text in zip(LANGS, read_pair(page), strict=True):
        wrong = [m.group(0) for m in FIGURE.finditer(text) if m.group(2) != lang]
        assert not wrong, f"docs/{lang}/{page} shows another language's figure: {wrong}"
    zh, en = ([m.group(1) for m in FIGURE.finditer(t)] for t in read_pair(page))
    assert zh == en, f"figures differ: zh {zh} vs en {en}"


PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


@pytest.mark.parametrize("page", MD_PAIRS)
def test_same_computed_values(page):
    zh, en = (PLACEHOLDER.findall(t) for t in read_pair(page))
    assert zh == en, f"computed placeholders differ: zh {zh} vs en {en}"


@pytest.mark.parametrize("page", MD_PAIRS)
def test_numbers_in_prose_match(page):
    zh, en = (Counter(prose_numbers(t)) for t in read_pair(page))
    assert zh == en, (
        f"numbers in prose differ: zh has extra {dict(zh - en)}, en has extra {dict(en - zh)}"
    )


def test_parity_helpers_see_blocks_and_numbers():
    text = "# T\n\nσ is 8.00 at d_k = 64, see [x](a/2.md).\n\n```python\nx = 1  # one\n```\n"
    blocks, _ = split_page(text)
    assert blocks == [("python", "x = 1  # one")]
    assert strip_comments(blocks[0][1]) == "x = 1"
    assert prose_numbers(text) == ["64", "8.00"]
    assert scan_fences(text)[0].lang == "python"


def test_docs_tree_has_only_the_two_languages():
    assert sorted(p.name for p in DOCS.iterdir() if p.is_dir()) == ["assets", "en", "zh"]
    assert not list(DOCS.glob("*.md")), "pages belong in docs/zh/ and docs/en/, not docs/"


def test_shared_assets_are_not_generated():
    generated = [
        p for p in Path(DOCS / "assets").rglob("*") if "figures" in p.parts or p.suffix == ".svg"
    ]
    assert not generated, (
        f"figures are built into .cache/, not committed under docs/assets: {generated}"
    )


def notebook_cells(text: str, cell_type: str) -> list[str]:
    """The sources of a percent-format notebook's cells of one type, in order."""
    return [
        c.source for c in jupytext.reads(text, fmt="py:percent").cells if c.cell_type == cell_type
    ]


def test_there_are_notebooks_to_compare():
    assert NOTEBOOK_PAIRS, (
        "no docs/<lang>/notebooks/*.py found: the notebook parity tests ran on nothing"
    )


@pytest.mark.parametrize("notebook", NOTEBOOK_PAIRS)
def test_notebook_code_cells_are_identical_modulo_comments(notebook):
    zh, en = ([strip_comments(c) for c in notebook_cells(t, "code")] for t in read_pair(notebook))
    assert zh == en, f"code cells of docs/zh/{notebook} and docs/en/{notebook} differ"


@pytest.mark.parametrize("notebook", NOTEBOOK_PAIRS)
def test_notebook_markdown_has_the_same_headings_and_numbers(notebook):
    zh, en = ("\n\n".join(notebook_cells(t, "markdown")) for t in read_pair(notebook))
    heading = re.compile(r"^(#{1,6}) ", re.M)
    assert [len(m[1]) for m in heading.finditer(zh)] == [len(m[1]) for m in heading.finditer(en)]
    assert Counter(prose_numbers(zh)) == Counter(prose_numbers(en)), "numbers in markdown differ"
