"""The docs-block collector sees what pytest-codeblocks alone would silently skip."""

import textwrap

import pytest

from lockstep import blocks
from tests.conftest import SITE


def page(tmp_path, text):
    path = tmp_path / "probe.md"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path, blocks.python_blocks(path, SITE), blocks.audit(path, set(), SITE)


def test_fences_with_attributes_are_collected(tmp_path):
    _, found, _ = page(tmp_path, '```python title="x.py" linenums="1"\nprint(1)\n```\n')
    assert [b.code for b in found] == ["print(1)\n"]


def test_snippet_includes_are_expanded_and_main_runs(tmp_path):
    _, found, _ = page(tmp_path, '```python\n--8<-- "snippets/variance.py"\n```\n')
    assert "def dot_products" in found[0].code
    assert "sqrt(d_k)= 32.00" in blocks.run_block(found[0], SITE)


def test_missing_snippet_is_an_error(tmp_path):
    with pytest.raises(Exception, match=r"gone\.py"):
        page(tmp_path, '```python\n--8<-- "snippets/gone.py"\n```\n')


def test_blank_lines_inside_indented_fences_are_kept(tmp_path):
    text = (
        '=== "Tab"\n\n    ```python\n    s = """a\n\n    b"""\n    print(s.count("\\n"))\n    ```\n'
    )
    _, found, _ = page(tmp_path, text)
    assert blocks.run_block(found[0], SITE) == "2\n"


def test_audit_flags_unrun_and_unnamed_fences(tmp_path):
    text = (
        "```py\nx = 1\n```\n\n~~~python\ny = 2\n~~~\n\n```\nplain\n```\n\n```python\nz = 3\n```\n"
    )
    _, _, problems = page(tmp_path, text)
    joined = "\n".join(problems)
    assert "'py' is not one of" in joined and "write `python`" in joined
    assert "backtick fence" in joined
    assert "'' is not one of" in joined
    assert "python block is not run" in joined  # the audit was given no run blocks


def test_expected_output_must_be_text(tmp_path):
    text = (
        "```python\nprint(1)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```python\n1\n```\n"
    )
    _, found, problems = page(tmp_path, text)
    assert found[0].expected_output == "1\n"
    assert any("expected-output block must be `text`" in p for p in problems)


def test_section_includes_of_one_file_run_together_as_one_module(tmp_path):
    head = '```python\n--8<-- "snippets/kernels/online_softmax.py:header"\n```\n\n'
    demo = "```python\nprint(1)\n```\n\n"
    body = '```python\n--8<-- "snippets/kernels/online_softmax.py:online_softmax"\n```\n'
    _, found, _ = page(tmp_path, head + demo + body)
    assert [b.lineno for b in found] == [1, 5]
    assert found[0].also_runs == (9,)
    assert "from __future__" in found[0].code and "def online_softmax" in found[0].code
    blocks.run_block(found[0], SITE)  # header + section: a module that imports and defines
