"""The reference page of lockstep's options, generated from lockstep's own declaration of them
(lockstep.site) and of the cards' vocabulary (lockstep.cards.vocabulary), so it cannot drift.
English descriptions are lockstep's; their Chinese translations live here, and an option
without one fails the build."""

from collections.abc import Callable
from pathlib import Path

import yaml

from lockstep.cards.vocabulary import SCHEMA
from lockstep.errors import BuildError
from lockstep.site import Options, reference
from lockstep.tables import markdown_table

TRANSLATIONS = Path(__file__).with_name("lockstep_options.yml")  # option -> Chinese description
HEADERS = {
    "en": ("option", "type", "default", "what it does"),
    "zh": ("选项", "类型", "默认值", "作用"),
}
VOCABULARY_HEADERS = {
    "en": ("key", "what it holds", "entries lockstep reads by name"),
    "zh": ("键", "内容", "lockstep 按名读取的条目"),
}
TYPES = {  # lockstep's type names, in Chinese
    "text": "文本", "text (optional)": "文本（可选）", "mapping": "映射",
    "file (optional)": "文件（可选）", "list of text": "文本列表", "true or false": "true 或 false",
}  # fmt: skip


def _chinese(key: str) -> str:
    """The Chinese description of an option or vocabulary key; a missing one is an error."""
    translated = yaml.safe_load(TRANSLATIONS.read_text(encoding="utf-8")) or {}
    if not translated.get(key):
        raise BuildError(f"{TRANSLATIONS.name}: `{key}` has no Chinese description: add one")
    return translated[key]


def options_table(lang: str, options: type = Options) -> str:
    """Every option of lockstep: name, type, default, description."""
    rows = []
    for name, kind, default, doc in reference(options):
        if lang == "zh":
            kind, doc = TYPES.get(kind, kind), _chinese(name)
        rows.append((f"`{name}`", kind, f"`{default}`" if default else "", doc))
    return markdown_table(HEADERS[lang], rows)


def vocabulary_table(lang: str) -> str:
    """Every key of the cards' vocabulary file and the entries lockstep requires in it."""
    rows = []
    for key, (doc, required) in SCHEMA.items():
        text = _chinese(f"vocabulary.{key}") if lang == "zh" else doc
        rows.append((f"`{key}`", text, ", ".join(f"`{r}`" for r in required)))
    return markdown_table(VOCABULARY_HEADERS[lang], rows)


VALUES: dict[str, Callable[[str], str]] = {
    "lockstep_options": options_table,
    "lockstep_vocabulary": vocabulary_table,
}
