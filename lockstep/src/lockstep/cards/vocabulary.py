"""The words of a deck: its fixed sections, and the modules, categories, difficulties and tags
a card may name, each with a label in every language. A site writes it once, in YAML."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lockstep import yaml_data

KINDS = ("sections", "labels", "modules", "categories", "difficulties", "tags", "practice")
# Sections the checks and exports read by key; a deck may add more.
REQUIRED_SECTIONS = ("tested", "answer", "key_points", "numbers", "how_to_answer", "derivation")
REQUIRED_SECTIONS += ("follow_ups", "links")
LABELS = ("module", "category", "difficulty", "tags", "card", "links_to", "linked_from")
LABELS += ("field_separator", "list_separator")  # "：" and "、" in Chinese
LABELS += ("extra_credit", "map")  # "how to answer"'s extra credit; the map's name
LABELS += ("expand",)  # the summary of a depth section that starts collapsed; {n}: its size
LABELS += ("depth",)  # the handbook's link to a card's derivation and trade-offs
# Sizes per language (words, characters in Chinese; lockstep/cards/spoken.py): the answer, the
# three parts said aloud, a depth section before it starts collapsed, a whole card's prose.
LIMITS = ("answer", "spoken", "depth", "page")
PRACTICE = ("known", "shaky", "missed", "new", "reveal", "next", "shuffle", "reset")
PRACTICE += ("reset_confirm", "unsure_only", "any", "position", "empty", "done", "open_card")
ANKI_PER_LANGUAGE = ("model_ids", "model_names", "deck_ids", "deck_names")  # {lang: ...} each
# What each key of the vocabulary file holds, and the entries lockstep reads by name (the
# options' reference page is generated from this).
SCHEMA = {
    "sections": ("the `##` headings every card has, in this order", REQUIRED_SECTIONS),
    "labels": ("names of the fields and separators in generated lines and tables", LABELS),
    "modules": ("a card's module (front matter `module:`); the map has a column per module", ()),
    "categories": ("a card's category (front matter `category:`)", ()),
    "difficulties": ("a card's difficulty, easiest first (front matter `difficulty:`)", ()),
    "tags": ("the tags readers filter by (front matter `tags:`)", ()),
    "practice": ("the words of practice mode's controls and messages", PRACTICE),
    "anki": ("the Anki note types and decks: fixed ids, names per language, the tag root",
             (*ANKI_PER_LANGUAGE, "tag_root")),
    "limits": ("sizes per language, in words (characters in Chinese) as said aloud: the "
               "one-sentence answer, the three parts said aloud together, a depth section before "
               "it starts collapsed, a card's whole prose (each optional)", LIMITS),
}  # fmt: skip


@dataclass(frozen=True)
class Vocabulary:
    """id -> {lang: label} for each kind, in the order the YAML file gives them."""

    sections: dict[str, dict[str, str]]  # `##` headings every card has, in this order
    labels: dict[str, dict[str, str]]  # names of the metadata fields (module, tags ...)
    modules: dict[str, dict[str, str]]
    categories: dict[str, dict[str, str]]
    difficulties: dict[str, dict[str, str]]
    tags: dict[str, dict[str, str]]
    practice: dict[str, dict[str, str]]  # the practice mode's buttons and messages
    anki: dict  # model_ids, model_names, deck_ids, deck_names {lang: ...}; tag_root: fixed
    # limit -> lang -> the most words (characters in Chinese) it may take; each optional
    limits: dict[str, dict[str, int]]

    @classmethod
    def load(cls, path: str | Path, languages: tuple[str, ...]) -> Vocabulary:
        """Read and check the YAML file: every id has a label in every language."""
        with open(path, encoding="utf-8") as fh:
            data = yaml_data.load(fh) or {}
        problems = [f"{path}: missing `{kind}`" for kind in (*KINDS, "anki") if kind not in data]
        for kind in KINDS:
            for key, labels in (data.get(kind) or {}).items():
                missing = [lang for lang in languages if lang not in (labels or {})]
                if missing:
                    problems.append(f"{path}: {kind}.{key} has no label for {missing}")
        anki = data.get("anki") or {}
        for key in ANKI_PER_LANGUAGE:
            missing = [lang for lang in languages if lang not in (anki.get(key) or {})]
            if missing:
                problems.append(f"{path}: anki.{key} has nothing for {missing}")
        if "anki" in data and not anki.get("tag_root"):
            problems.append(f"{path}: anki.tag_root is missing")
        limits = data.get("limits") or {}
        problems += [
            f"{path}: limits.{k} is not a limit: use {LIMITS}" for k in limits.keys() - set(LIMITS)
        ]
        for name, per_lang in limits.items():
            missing = [
                lang for lang in languages if not isinstance((per_lang or {}).get(lang), int)
            ]
            if missing:
                problems.append(f"{path}: limits.{name} has no whole number for {missing}")
        needs = (("sections", REQUIRED_SECTIONS), ("labels", LABELS), ("practice", PRACTICE))
        for kind, needed in needs:
            missing = [k for k in needed if k not in (data.get(kind) or {})]
            if missing:
                problems.append(f"{path}: `{kind}` lacks {missing}")
        if problems:
            raise ValueError("\n".join(problems))
        return cls(**{kind: data[kind] for kind in (*KINDS, "anki")}, limits=limits)

    def section_title(self, key: str, lang: str) -> str:
        """The heading of section `key` in `lang`."""
        return self.sections[key][lang]
