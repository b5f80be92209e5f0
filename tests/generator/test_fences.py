"""The one fence scanner: CommonMark's closing rule, nesting by indentation, markers."""

from lockstep import fences
from lockstep.cjk import join_cjk_html, join_cjk_lines


def test_a_fence_closes_only_with_its_own_character_at_least_as_long():
    text = "````python\nx = 1\n```\n~~~~\n````\nafter\n"
    (f,) = fences.scan(text)
    assert (f.start, f.end, f.lang) == (0, 4, "python")
    assert f.body == ("x = 1", "```", "~~~~")


def test_tilde_and_indented_fences_with_attributes_and_braces():
    text = '=== "Tab"\n\n    ~~~{.python title="a.py"}\n    print(1)\n    ~~~\n'
    (f,) = fences.scan(text)
    assert f.lang == "python" and f.indent == "    " and f.code == "print(1)"


def test_an_unclosed_fence_runs_to_the_end_and_inline_backticks_are_no_fence():
    assert [f.start for f in fences.scan("a ```x``` b\n\n```text\nopen")] == [2]
    assert fences.scan("```text\nopen")[0].end == 2


def test_marker_applies_to_the_next_fence_only_across_blank_lines():
    text = "<!--pytest-codeblocks:cont-->\n\n```python\nx\n```\ntext\n```python\ny\n```\n"
    first, second = fences.scan(text)
    assert first.marker == "cont" and second.marker is None


def test_line_states_and_prose_leave_out_every_fence_line():
    text = "# Title\n```python\n# a comment, not a heading\n```\nEnd"
    assert [fenced for _, fenced in fences.line_states(text)] == [False, True, True, True, False]
    assert fences.prose(text) == "# Title\nEnd"


def test_cjk_lines_join_outside_fences_only():
    assert join_cjk_lines("本页的一切都在构建时\n渲染而成。") == "本页的一切都在构建时渲染而成。"
    assert join_cjk_lines("- 参考实现比 SDPA 慢，\n  内存按平方增长。") == (
        "- 参考实现比 SDPA 慢，内存按平方增长。"
    )
    kept = "softmax\n饱和\n\n饱和的 logit\n- 列表项\n# 标题"
    assert join_cjk_lines(kept) == kept
    code = "说明：\n````text\n第一行\n```\n第二行\n````\n之后\n"
    assert join_cjk_lines(code) == code  # a shorter run inside does not close the fence


def test_cjk_breaks_at_full_width_punctuation_render_no_space():
    assert join_cjk_lines("早期阶段——\n它们与缩放") == "早期阶段——它们与缩放"
    assert join_cjk_lines("附录 B.1，\n“Attention”") == "附录 B.1，“Attention”"
    assert join_cjk_lines("时，\n$J$ 很小") == "时，$J$ 很小"
    assert join_cjk_lines("参数 $m$\n（8 个头）") == "参数 $m$（8 个头）"
    assert join_cjk_lines("详见\n[附录](a.md)与\n**注意**") == "详见[附录](a.md)与**注意**"
    assert join_cjk_lines("详见\n[softmax](a.md)") == "详见\n[softmax](a.md)"
    assert (
        join_cjk_lines("见[附录](a.md)\n之后，**重点**\n在此") == "见[附录](a.md)之后，**重点**在此"
    )
    html = "<p>第一行\n第二行</p><pre>代码\n中文</pre>"
    assert join_cjk_html(html) == "<p>第一行第二行</p><pre>代码\n中文</pre>"
    # Between a Chinese character and Latin text the break is the space they need anyway.
    assert join_cjk_lines("再使用\nsoftmax") == "再使用\nsoftmax"
    # What starts a block after a colon is not joined into the paragraph.
    for block in ("$$\nx\n$$", "1. 第一项", "- 列表项", "| 表 |", "!!! note"):
        assert join_cjk_lines(f"如下：\n{block}") == f"如下：\n{block}"
    assert join_cjk_lines("## 标题\n正文") == "## 标题\n正文"


def test_marker_lines_leave_the_rendered_page_but_not_code():
    from lockstep.fences import without_markers

    page = (
        "Text\n\n<!--pytest-codeblocks:expected-output-->\n```text\n1\n```\n\n"
        '=== "Tab"\n\n    <!-- pytest-codeblocks:skip -->\n    ```python\n    x = 1\n    ```\n\n'
        "```markdown\n<!--pytest-codeblocks:expected-output-->\n```\n"
    )
    out = without_markers(page)
    assert out.count("pytest-codeblocks") == 1  # only the one shown inside a code block
    assert "```text\n1\n```" in out and "    x = 1" in out
