"""Interview cards at build time: check the deck, show each card's metadata, ship the Anki decks.

The logic lives in snippets/cards*.py; this hook only wires it in. The .apkg files are written
to .cache/cards/<hash of the cards and snippets/>/ (outside docs/, so `mkdocs serve` does not
loop) and added to the site as assets/downloads/cards.<lang>.apkg.
"""

from pathlib import Path

from _i18n import add_generated, current_language
from _sources import ROOT, hash_files, source_files
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

from snippets import cards
from snippets.cards_anki import build_package
from snippets.cards_render import meta_line, tag_labels
from snippets.computed import render

CACHE = ROOT / ".cache" / "cards"


def _inputs_hash(docs: Path) -> str:
    """The cards of both languages and the code that renders them."""
    return hash_files(
        [p for lang in cards.LANGS for p in cards.card_paths(lang, docs)] + source_files()
    )


def apkg_path(lang: str, docs: Path) -> Path:
    """The Anki package of `lang`, built unless the cache has it for these inputs."""
    path = CACHE / _inputs_hash(docs) / f"cards.{lang}.apkg"
    return path if path.exists() else build_package(lang, path, render)


def on_pre_build(config):
    problems = cards.check_deck(Path(config.docs_dir))
    if problems:
        raise PluginError("interview cards do not follow the format:\n  " + "\n  ".join(problems))


@event_priority(-200)  # after the i18n plugin has laid out this language's files
def on_files(files: Files, config) -> Files:
    lang, _ = current_language(config)
    apkg = apkg_path(lang, Path(config.docs_dir))
    add_generated(files, config, f"assets/downloads/cards.{lang}.apkg", apkg)
    return files


@event_priority(10)  # before the tags plugin (-50) reads page.meta["tags"]
def on_page_markdown(markdown, page, config, files):
    path = Path(page.file.abs_src_path)
    if not cards.is_card(path, Path(config.docs_dir)):
        return markdown
    lang, _ = current_language(config)
    card = cards.read_card(path, lang)
    page.meta["tags"] = tag_labels(card)  # front matter has tag ids; readers see labels
    head, sep, rest = markdown.partition(f"# {card.title}\n")
    return f"{head}{sep}\n{meta_line(card)}\n{rest}" if sep else markdown
