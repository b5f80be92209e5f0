"""What each page's output is made from, as one digest per page (read by lockstep/records.py).

A page's HTML is made from its source; the files it includes (`--8<--`); the computed values
it names (a cached one through the digest of the code it is computed from, one computed in
every build through its text); for a notebook, the project modules it imports. A page with a
tag listing has no key: it is read in every build, because the tags plugin learns where its
listings are (and so where every page's tags link to) only by reading it. And, the same for
every page of a language: what the engine's adapter names (its configuration as built, theme
overrides and file list), the generator's own code and the data files it is configured with,
MathJax's version, the version of every installed distribution, and every page's title lines
(the nav and the previous/next links show the titles)."""

from __future__ import annotations

import functools
import importlib.metadata
import json
import re
from pathlib import Path

from lockstep import includes, notebooks, placeholders
from lockstep.cache import digest, text_digest
from lockstep.site import Site
from lockstep.values import Values

PACKAGE_DIR = Path(__file__).resolve().parent
TAGS_LISTING = "<!-- material/tags"
MARKDOWN_TITLE = re.compile(r"^(?:# .*|title:.*)$", re.M)
NOTEBOOK_TITLE = re.compile(r"^# # .*$", re.M)  # jupytext's percent format: a Markdown cell


@functools.cache
def installed() -> tuple[str, ...]:
    """name==version of every installed distribution (themes, plugins, extensions, Pygments)."""
    found = importlib.metadata.distributions()
    return tuple(sorted(f"{d.metadata['Name']}=={d.version}" for d in found))


def _files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts]


def shared_key(
    site: Site, made_from: list[Path], settings: list, listing: list, texts: dict[str, str]
) -> str:
    """The digest of what every page of the language being built is made from: the engine's
    files (`made_from`: its configuration, theme overrides) and `settings`, the file `listing`,
    every page's title lines; and lockstep's own code and the data files it is configured with."""
    root = site.root
    made_from = [*made_from, *_files_under(PACKAGE_DIR)]
    opts = site.options
    named = (opts.cards.vocabulary, opts.stated_numbers, opts.bibliography, opts.glossary)
    made_from += [root / name for name in named if name]
    made_from += [p for p in (root / "package-lock.json",) if p.is_file()]  # MathJax's version
    titles = [(uri, title_lines(uri, text)) for uri, text in sorted(texts.items())]
    salt = json.dumps([installed(), settings, sorted(listing), titles], ensure_ascii=False)
    return digest(made_from, root, salt=salt)


def title_lines(src_uri: str, text: str) -> list[str]:
    """The lines a page's title is read from: its first two title-like lines (the H1 comes
    first; a code comment caught here costs a rebuild, never a stale page)."""
    pattern = MARKDOWN_TITLE if src_uri.endswith(".md") else NOTEBOOK_TITLE
    return pattern.findall(text)[:2]


def keys(site: Site, values: Values, pages: dict[str, Path], lang: str, engine: tuple) -> dict:
    """src_uri -> the digest of what that page's output is made from (None: rebuild it always).
    `pages`: src_uri -> source file of every page of `lang`; `engine`: (made_from, settings,
    listing) as shared_key takes them."""
    root = site.root
    texts = {uri: path.read_text(encoding="utf-8") for uri, path in pages.items()}
    shared = shared_key(site, *engine, texts)
    out: dict[str, str | None] = {}
    for uri, path in pages.items():
        text = texts[uri]
        where = f"{shared}:{lang}:{uri}"
        if not uri.endswith(".md"):
            out[uri] = notebooks.page_key(path, root, salt=where)
            continue
        if TAGS_LISTING in text:
            out[uri] = None
            continue
        shown = [path, *includes.included_files(text, root, site.snippets_options)]
        computed = []  # the values the page names: by their key, or their text
        for name in sorted(set(placeholders.names(text)) & set(values.functions)):
            if values.is_uncached(name):
                computed.append([name, text_digest(values.render(name, lang))])
            else:
                computed.append([name, values.key(name, lang)])
        out[uri] = digest(shown, root, salt=where + json.dumps(computed))
    return out
