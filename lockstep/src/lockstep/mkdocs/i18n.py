"""Glue to mkdocs-static-i18n (folder layout), which runs one whole build per language."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from lockstep.languages import Languages


def current_language(config: MkDocsConfig) -> str:
    """The language being built."""
    return config.plugins["i18n"].current_language


def add_generated(
    files: Files,
    config: MkDocsConfig,
    languages: Languages,
    src_uri: str,
    *,
    path: Path | None = None,
    content: bytes | None = None,
) -> None:
    """Add a file made outside docs/ (from `path`, or `content`) to the language being built.

    Pages of a language link to it as if it sat in their own tree (`../assets/x.en.svg`), so
    it gets the page's src_uri and that language's destination prefix ('' or 'en/').
    """
    prefix = languages.prefix(current_language(config))
    if path is not None:
        f = File.generated(config, src_uri, abs_src_path=str(path))
    else:
        f = File.generated(config, src_uri, content=content)
    f.dest_uri = prefix + src_uri
    files.append(f)
