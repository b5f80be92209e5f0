"""The Obsidian vaults the build writes, opened as Obsidian would: unzipped, every link and
embed followed, every note's front matter parsed."""

from __future__ import annotations

import re
import zipfile

import pytest
import yaml

from lockstep.cards.deck import Deck
from lockstep.fences import prose
from tests.conftest import LANGS, SITE, lang_dir

DECK = Deck(SITE)
WIKILINK = re.compile(r"(?<!!)\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]")
EMBED = re.compile(r"!\[\[([^\]|]+)\]\]")


@pytest.fixture(scope="module", params=LANGS)
def vault(request, built_site, tmp_path_factory):
    lang = request.param
    archive = lang_dir(built_site, lang) / SITE.options.vault_dest / f"vault.{lang}.zip"
    folder = tmp_path_factory.mktemp(f"vault-{lang}")
    with zipfile.ZipFile(archive) as zf:
        zf.extractall(folder)
    return lang, folder


def notes(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in folder.rglob("*.md")
    }


def front_matter(text: str) -> dict:
    """A note's YAML front matter, which must be there and parse to a non-empty mapping."""
    assert text.startswith("---\n"), "a note without front matter"
    meta = yaml.safe_load(text.split("---\n", 2)[1])
    assert isinstance(meta, dict) and meta
    return meta


def test_every_markdown_page_and_card_is_a_note_with_front_matter(vault):
    lang, folder = vault
    found = notes(folder)
    pages = {p for p in SITE.pages(lang) if p.endswith(".md")}
    assert pages <= set(found)
    for text in found.values():
        front_matter(text)
    for card in DECK.cards(lang):
        meta = front_matter(found[f"{DECK.options.folder}/{card.id}.md"])
        assert (meta["id"], meta["module"], meta["difficulty"]) == (
            card.id,
            card.module,
            card.difficulty,
        )
        assert meta["tags"] == list(card.tags)


def test_every_wikilink_and_embed_resolves_and_nothing_is_left_unexpanded(vault):
    _, folder = vault
    links = embeds = 0
    for name, text in notes(folder).items():
        for target in WIKILINK.findall(text):
            links += 1
            assert (folder / f"{target}.md").is_file(), (name, target)
        for target in EMBED.findall(text):
            embeds += 1
            assert (folder / target).is_file(), (name, target)
            assert (folder / target).read_bytes().lstrip().startswith((b"<?xml", b"<svg"))
        words = re.sub(r"`[^`\n]*`", "", prose(text))  # code may show them
        assert "{{" not in words and "--8<--" not in words, name
        assert not re.search(r"\]\((?!https?:)[^)]*\.md", text), f"{name}: a Markdown link left"
    assert links > 50 and embeds >= 5  # the related cards, the page links, the figures


def test_each_module_has_a_map_listing_its_cards(vault):
    lang, folder = vault
    for module in DECK.vocabulary.modules:
        cards = [c for c in DECK.cards(lang) if c.module == module]
        if not cards:
            continue
        text = (folder / "maps" / f"{module}.md").read_text(encoding="utf-8")
        assert set(WIKILINK.findall(text)) == {f"{DECK.options.folder}/{c.id}" for c in cards}
