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


def localise_permalinks(config: MkDocsConfig) -> None:
    """The title of every heading's permalink in the language being built, from that
    language's `extra.permalink_title`. Workaround: mkdocs-static-i18n overrides no Markdown
    extension options per language, and the toc extension's `permalink_title` (default
    "Permanent link") is one string for the whole site. MkDocs reads the options anew for
    every page, so setting them before each language's pages are rendered is enough."""
    title = config.extra.get("permalink_title")
    if title:
        config.mdx_configs.setdefault("toc", {})["permalink_title"] = title


def theme_words(config: MkDocsConfig, keys: tuple[str, ...]) -> dict[str, str]:
    """Material's own translations of `keys` ("clipboard.copy") in the language being built."""
    template = '{% import "partials/language.html" as lang with context %}'
    template += "\x1f".join(f'{{{{ lang.t("{key}") }}}}' for key in keys)
    words = config.theme.get_env().from_string(template).render(config=config)
    return dict(zip(keys, words.split("\x1f"), strict=True))
