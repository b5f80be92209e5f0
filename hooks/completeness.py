"""Fail the build when a page or notebook exists in one language tree but not the other.

The i18n plugin silently falls back to the default language for a missing page, so
the check lives here (and in tests/test_parity.py).
"""

from pathlib import Path

from mkdocs.exceptions import PluginError

LANGS = ("zh", "en")


def pages(tree: Path) -> set[str]:
    """Markdown pages and notebooks (docs/<lang>/notebooks/*.py) of one tree, relative to it."""
    return {
        p.relative_to(tree).as_posix() for p in [*tree.rglob("*.md"), *tree.glob("notebooks/*.py")]
    }


def on_pre_build(config):
    docs = Path(config.docs_dir)
    trees = {lang: pages(docs / lang) for lang in LANGS}
    missing = [
        f"docs/{other}/{page} (translation of docs/{lang}/{page})"
        for lang in LANGS
        for other in LANGS
        if other != lang
        for page in sorted(trees[lang] - trees[other])
    ]
    if missing:
        raise PluginError("missing translation(s):\n  " + "\n  ".join(missing))
