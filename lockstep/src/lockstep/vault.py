"""An Obsidian vault of one language: a note per page and per card, zipped.

What Obsidian needs that a MkDocs page does not have: YAML front matter it can query (a card's
id, module, difficulty and tags), links as `[[wikilinks]]` between notes, figures as files in
the vault with `![[embeds]]`, no `{{ name }}` or `--8<--` left (computed values and snippets
are written in, citations written out), and a map-of-content note per module. Pages keep
their own Markdown otherwise: math is `$…$` / `$$…$$` already, which Obsidian renders.
Notebooks (`.py` pages) are not notes; links to them, and to other files, become their text.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import yaml

from lockstep import includes
from lockstep.blocks import display
from lockstep.cache import remembered
from lockstep.cards.deck import Deck
from lockstep.fences import line_states
from lockstep.frontmatter import split_front_matter
from lockstep.markup import LINK, headings

IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<target>[^)\s]+)\)")


class Vault:
    """The notes and files of one language's vault, keyed by their path in the vault."""

    def __init__(self, site, deck: Deck | None, lang: str, figure: Callable[[str], Path | None]):
        self.site, self.deck, self.lang, self.figure = site, deck, lang, figure
        self.tree = site.tree(lang)
        self.files: dict[str, bytes] = {}

    def note_path(self, page: str) -> str:
        """A page's note: its path without `.md` (`derivation/history`)."""
        return page.removesuffix(".md")

    def _link(self, page: str, m: re.Match) -> str:
        target, text = m["target"], m["text"]
        if re.match(r"[a-z]+:", target) or not target:
            return m[0]  # a URL stays a Markdown link
        path = target.partition("#")[0]  # Obsidian anchors by heading text, not by id
        if not path:
            return text  # a link within the page
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
        if resolved.endswith("/"):
            resolved += "index.md"
        if resolved.endswith(".md") and (self.tree / resolved).is_file():
            return f"[[{self.note_path(resolved)}|{text}]]"
        return text  # a notebook or a download: not in the vault

    def _image(self, m: re.Match, embedded: list[str]) -> str:
        name = posixpath.basename(m["target"])
        figure = re.fullmatch(rf"(?P<name>[\w-]+)\.{self.lang}\.svg", name)
        if not figure or self.figure(figure["name"]) is None:
            return m[0]  # not a drawn figure: left as the page wrote it
        embedded.append(figure["name"])
        return f"![[figures/{name}]]"

    def convert(self, page: str, text: str) -> tuple[str, list[str]]:
        """A page's Markdown as a note body (images embedded, links as wikilinks, in prose
        only), and the names of the figures it embeds."""
        out, embedded = [], []
        for line, fenced in line_states(text):
            if not fenced:
                line = IMAGE.sub(lambda m: self._image(m, embedded), line)
                line = LINK.sub(lambda m: self._link(page, m), line)
            out.append(line)
        return "\n".join(out), embedded

    def note(self, page: str, text: str, meta: dict) -> tuple[bytes, list[str]]:
        """One note from a page's Markdown (values and citations already written in), and the
        figures it embeds."""
        where = display(self.site.tree(self.lang) / page, self.site)
        expanded = includes.expand(text, self.site.root, self.site.snippets_options, where)
        body, embedded = self.convert(page, expanded)
        head = f"---\n{yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)}---\n\n"
        return (head + body.strip() + "\n").encode(), embedded

    def add_note(self, page: str, note: bytes, embedded: list[str]) -> None:
        """Put a note, and the figures it embeds, into the vault."""
        self.files[self.note_path(page) + ".md"] = note
        for name in embedded:
            self.files[f"figures/{name}.{self.lang}.svg"] = self.figure(name).read_bytes()

    def add_maps(self, titles: dict[str, str]) -> None:
        """A map-of-content note per module, listing its cards (`titles`: module -> label)."""
        for module, label in titles.items():
            cards = [c for c in self.deck.cards(self.lang) if c.module == module]
            if not cards:
                continue
            folder = self.deck.options.folder
            lines = [f"- [[{folder}/{c.id}|{c.title}]]" for c in cards]
            meta = yaml.safe_dump({"module": module, "tags": ["map"]}, allow_unicode=True)
            body = f"---\n{meta}---\n\n# {label}\n\n" + "\n".join(lines) + "\n"
            self.files[f"maps/{module}.md"] = body.encode()

    def zip(self) -> bytes:
        """The vault as a .zip, files in a stable order with a fixed date."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for name in sorted(self.files):
                info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                zf.writestr(info, self.files[name], compress_type=zipfile.ZIP_DEFLATED)
        return buffer.getvalue()


def build(site, deck: Deck | None, lang: str, exported, figure, key_of=lambda page: None) -> bytes:
    """The vault of `lang` as a .zip: every Markdown page and card a note, with module maps.

    `exported(text, lang, where)` writes computed values and citations in (`where` names the
    page in errors); `figure(name)` gives the path of figure `name` in `lang`, or None if the
    site does not draw it; `key_of(page)`, a digest of what the page is made from, under which
    its note is remembered between builds."""
    vault = Vault(site, deck, lang, figure)
    cards = {c.path.resolve(): c for c in deck.cards(lang)} if deck else {}
    for page in site.pages(lang):
        if not page.endswith(".md"):
            continue
        path = (site.tree(lang) / page).resolve()

        def note(path=path, page=page) -> tuple[bytes, list[str]]:
            _, body = split_front_matter(path.read_text(encoding="utf-8"))
            card = cards.get(path)
            if card:
                meta = {
                    "id": card.id,
                    "module": card.module,
                    "difficulty": card.difficulty,
                    "tags": list(card.tags),
                    "related": [f"[[{deck.options.folder}/{r}]]" for r in card.related],
                }
            else:
                title = next((t for _, level, t in headings(body) if level == 1), page)
                meta = {"title": exported(title, lang, f"{lang}/{page}")}
            return vault.note(page, exported(body, lang, f"{lang}/{page}"), meta)

        vault.add_note(page, *remembered(("vault", lang, page), key_of(page), note))
    if deck:
        vault.add_maps({m: labels[lang] for m, labels in deck.vocabulary.modules.items()})
    return vault.zip()
