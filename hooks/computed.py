"""Replace `{{ name }}` in a page with the value snippets.computed produces for its language."""

import re

from _i18n import current_language

from snippets.computed import render

PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


def on_page_markdown(markdown, page, config, files):
    lang, _ = current_language(config)
    return PLACEHOLDER.sub(lambda m: render(m.group(1), lang), markdown)
