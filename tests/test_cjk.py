"""Line breaks between Chinese characters disappear; everything else is left alone."""

from snippets.cjk import join_cjk_lines


def test_break_between_chinese_characters_is_removed():
    assert join_cjk_lines("本页的一切都在构建时\n渲染而成。") == "本页的一切都在构建时渲染而成。"


def test_indented_continuation_of_a_list_item_is_joined_without_its_indent():
    assert (
        join_cjk_lines("- 参考实现比 SDPA 慢，\n  内存按平方增长。")
        == "- 参考实现比 SDPA 慢，内存按平方增长。"
    )


def test_latin_on_either_side_and_new_blocks_are_kept():
    text = "softmax\n饱和\n\n饱和的 logit\n- 列表项\n# 标题"
    assert join_cjk_lines(text) == "softmax\n饱和\n\n饱和的 logit\n- 列表项\n# 标题"


def test_fenced_code_is_untouched():
    text = "说明：\n```text\n第一行\n第二行\n```\n之后"
    assert join_cjk_lines(text) == text
