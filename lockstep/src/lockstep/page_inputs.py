"""What each page's output is made from, as one digest per page (read by lockstep/records.py).

A page's HTML is made from its source; the files it includes (`--8<--`); the computed values
it names (a cached one through the digest of the code it is computed from, one computed in
every build through its text); for a notebook, the project modules it imports; for a page that
lists every card or page (PageKeys), every other page's key and every page's text. And, the
same for every page of a language: what the engine's adapter names (its configuration as
built, theme overrides and file list), the generator's own code and the data files it is
configured with, MathJax's version, the version of every installed distribution, and every
page's title lines (the nav and the previous/next links show the titles)."""

from __future__ import annotations

import functools
import importlib.metadata
import json
import re
from pathlib import Path

from lockstep import includes, notebooks, placeholders
from lockstep.cache import digest, text_digest
from lockstep.frontmatter import front_matter_block
from lockstep.site import Site
from lockstep.values import Values

PACKAGE_DIR = Path(__file__).resolve().parent
TAGS_LISTING = "<!-- material/tags"  # Material's tags plugin: a page listing pages by tag
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


def is_listing(text: str, values: Values) -> bool:
    """Whether a page with this source lists every card or page of its language: it names a
    value marked `listing` or holds a tag listing."""
    if TAGS_LISTING in text:
        return True
    return any(values.is_listing(n) for n in set(placeholders.names(text)) & set(values.functions))


class PageKeys:
    """What each page of one language is made from (`keys`: src_uri -> digest; None: rebuild
    it always), and for a listing page, what it shows (`rendered`).

    A listing page (is_listing) reads every page of its language and the data files, so its
    key takes every other page's key and every page's text: cheap, and it changes with any
    page. Whether its output would really change is told by `rendered`, which renders the
    listing values it names: a build asks for that only when the key has changed."""

    def __init__(
        self, site: Site, values: Values, pages: dict[str, Path], lang: str, engine: tuple
    ):
        """`pages`: src_uri -> source file of every page of `lang`; `engine`: (made_from,
        settings, listing) as shared_key takes them."""
        self.site, self.values, self.pages, self.lang = site, values, pages, lang
        self.texts = {uri: path.read_text(encoding="utf-8") for uri, path in pages.items()}
        self.shared = shared_key(site, *engine, self.texts)
        self.keys: dict[str, str | None] = {}
        self._rendered: dict[str, str] = {}
        self.listings = {
            uri
            for uri, text in self.texts.items()
            if uri.endswith(".md") and is_listing(text, values)
        }
        for uri, path in pages.items():
            if not uri.endswith(".md"):
                self.keys[uri] = notebooks.page_key(path, site.root, salt=self._where(uri))
            elif uri not in self.listings:
                self.keys[uri] = self._key(uri, self._where(uri), listed=False)
        every = [[uri, self.keys.get(uri), text_digest(self.texts[uri])] for uri in sorted(pages)]
        every_page = text_digest(every)
        for uri in self.listings:
            self.keys[uri] = self._key(uri, self._where(uri) + every_page, listed=False)

    def rendered(self, uri: str) -> str:
        """A listing page's digest by what it shows: its listing values' text, and for a tag
        listing every page's front matter (where the tags are). Worked out once: a build asks
        when deciding and again when recording."""
        if uri not in self._rendered:
            self._rendered[uri] = self._render_key(uri)
        return self._rendered[uri]

    def _render_key(self, uri: str) -> str:
        tags = [front_matter_block(self.texts[u]) for u in sorted(self.texts)]
        salt = self._where(uri) + (text_digest(tags) if TAGS_LISTING in self.texts[uri] else "")
        return self._key(uri, salt, listed=True)

    def _where(self, uri: str) -> str:
        return f"{self.shared}:{self.lang}:{uri}:"

    def _key(self, uri: str, salt: str, listed: bool) -> str:
        """A Markdown page's digest: its source, what it includes, the values it names (a
        cached one by its key, an uncached one by its text; a listing one by its text only
        when `listed`)."""
        text, values = self.texts[uri], self.values
        shown = [
            self.pages[uri],
            *includes.included_files(text, self.site.root, self.site.snippets_options),
        ]
        computed = []
        for name in sorted(set(placeholders.names(text)) & set(values.functions)):
            if values.is_listing(name) and not listed:
                continue
            if values.is_uncached(name):
                computed.append([name, text_digest(values.render(name, self.lang))])
            else:
                computed.append([name, values.key(name, self.lang)])
        return digest(shown, self.site.root, salt=salt + json.dumps(computed))
