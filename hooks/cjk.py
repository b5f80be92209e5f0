"""In Chinese pages, join source lines broken between two CJK characters (see snippets/cjk.py)."""

from _i18n import current_language

from snippets.cjk import join_cjk_lines


def on_page_markdown(markdown, page, config, files):
    lang, _ = current_language(config)
    return join_cjk_lines(markdown) if lang == "zh" else markdown
