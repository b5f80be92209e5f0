"""Search in the reader's language: one index per language, loaded by that language's pages.

mkdocs-static-i18n merges every language into one index at the site root, so an English
reader searching "softmax" gets Chinese pages first (the terms the languages share rank
alike), and every first visit downloads both languages. After the build, this splits the
index by language (a translation's pages live under its prefix, `en/`), and gives each
page a search base at its language's root: Material fetches `<base>/search/search_index.json`
and resolves result locations against that base, so nothing else changes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from lockstep.languages import Languages

CONFIG_SCRIPT = re.compile(
    r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S
)
INDEX = "search/search_index.json"


def with_language_base(html: str, prefix: str) -> str:
    """A page whose Material config points search at its language's root (`../en/` for en)."""
    if not prefix:
        return html

    def rebase(m: re.Match) -> str:
        config = json.loads(m[2])
        config["base"] = f"{config['base'].rstrip('/')}/{prefix}"  # a folder: ends in /
        text = json.dumps(config, ensure_ascii=False)
        for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
            text = text.replace(char, escaped)  # as Jinja's tojson: safe inside <script>
        return m[1] + text + m[3]

    return CONFIG_SCRIPT.sub(rebase, html, count=1)


def split_index(site_dir: Path, languages: Languages, offline: bool) -> dict[str, int]:
    """Write one search index per language (and its file:// script when offline); return
    each index's size in bytes."""
    path = Path(site_dir) / INDEX
    if not path.is_file():
        return {}
    merged = json.loads(path.read_text(encoding="utf-8"))
    docs: dict[str, list[dict]] = {lang: [] for lang in languages}
    for doc in merged["docs"]:
        lang = next(
            (lg for lg in languages.others(languages.default)
             if doc["location"].startswith(languages.prefix(lg))),
            languages.default,
        )  # fmt: skip
        docs[lang].append({**doc, "location": doc["location"].removeprefix(languages.prefix(lang))})
    sizes = {}
    for lang, entries in docs.items():
        target = Path(site_dir) / languages.prefix(lang) / INDEX
        target.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({**merged, "docs": entries}, ensure_ascii=False, separators=(",", ":"))
        target.write_text(text, encoding="utf-8")
        if offline:  # Material's offline plugin does this for the root index only
            target.with_suffix(".js").write_text(f"var __index = {text}", encoding="utf-8")
        sizes[lang] = len(text.encode())
    return sizes
