"""Interview cards at build time: check the deck, show each card's metadata, ship the Anki decks.

The logic lives in snippets/cards*.py; this hook only wires it in. The .apkg files are written
to .cache/cards/<hash of the cards and snippets/>/ (outside docs/, so `mkdocs serve` does not
loop) and added to the site as assets/downloads/cards.<lang>.apkg.
"""

import hashlib
from pathlib import Path

from _i18n import current_language
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from snippets import cards
from snippets.cards_anki import build_package
from snippets.cards_render import meta_line, tag_labels
from snippets.computed import render

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "cards"


def _inputs_hash(docs: Path) -> str:
    h = hashlib.sha256()
    sources = [p for lang in cards.LANGS for p in cards.card_paths(lang, docs)]
    for path in sources + sorted((ROOT / "snippets").rglob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


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
    lang, prefix = current_language(config)
    src_uri = f"assets/downloads/cards.{lang}.apkg"
    f = File.generated(config, src_uri, abs_src_path=str(apkg_path(lang, Path(config.docs_dir))))
    f.dest_uri = prefix + src_uri
    files.append(f)
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
