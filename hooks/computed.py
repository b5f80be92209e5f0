"""Replace `{{ name }}` in a page with the value snippets.computed produces for its language.

Values are cached in .cache/computed/<hash>.json, keyed on the code, data and pages they can
depend on, so a warm build does not recompute tables that sample millions of numbers.
"""

import json
import re

from _i18n import current_language
from _sources import ROOT, source_and_pages_hash

from snippets.computed import render

PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
CACHE = ROOT / ".cache" / "computed"
_cache: dict[str, str] = {}
_cache_path = None


def on_pre_build(config):
    global _cache, _cache_path
    _cache_path = CACHE / f"{source_and_pages_hash(config.docs_dir)}.json"
    _cache = json.loads(_cache_path.read_text(encoding="utf-8")) if _cache_path.exists() else {}


def _value(name: str, lang: str) -> str:
    key = f"{name}:{lang}"
    if key not in _cache:
        _cache[key] = render(name, lang)
    return _cache[key]


def on_page_markdown(markdown, page, config, files):
    lang, _ = current_language(config)
    return PLACEHOLDER.sub(lambda m: _value(m.group(1), lang), markdown)


def on_post_build(config):
    if _cache_path is not None and _cache:
        _cache_path.parent.mkdir(parents=True, exist_ok=True)
        _cache_path.write_text(json.dumps(_cache, ensure_ascii=False), encoding="utf-8")
        for stale in CACHE.glob("*.json"):  # only the current sources' values are worth keeping
            if stale != _cache_path:
                stale.unlink()
