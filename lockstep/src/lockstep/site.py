"""A site as lockstep sees it: its folders, its languages and lockstep's options, as plain data.

The engine's adapter (lockstep.mkdocs) reads these from the engine's configuration; every rule
of lockstep takes them from here. The options are declared once, below: their types, defaults
and descriptions are what the options' reference page is generated from, and what a site's
configuration is checked against (an unknown option names the closest known one).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from pathlib import Path
from types import UnionType

from lockstep import yaml_data
from lockstep.citations import Bibliography
from lockstep.errors import BuildError, did_you_mean
from lockstep.glossary import Glossary
from lockstep.languages import Languages


def doc(text: str, kind: str = "") -> dict:
    """An option's metadata: the sentence the reference page shows; `kind` "file": a path
    relative to the configuration file, which must exist."""
    return {"doc": text, "kind": kind}


@dataclass(frozen=True)
class CardsOptions:
    """Interview cards: a folder of each language tree, checked against a vocabulary."""

    folder: str = field(
        default="cards",
        metadata=doc("Folder of each language tree that holds the cards."),
    )
    vocabulary: Path | None = field(
        default=None,
        metadata=doc(
            "YAML file of the cards' sections, modules, categories, tags and labels in every "
            "language (its keys are listed below). A site without one has no cards.",
            "file",
        ),
    )
    not_cards: list[str] = field(
        default_factory=lambda: ["index.md", "handbook.md"],
        metadata=doc(
            "Pages of the cards folder that are made from the cards rather than being one."
        ),
    )
    anki_dest: str = field(
        default="assets/downloads",
        metadata=doc("Where the Anki decks `cards.<lang>.apkg` are written in the site."),
    )


@dataclass(frozen=True)
class Options:
    """lockstep's options (under `- lockstep:` in mkdocs.yml); paths are relative to that file."""

    values: str | None = field(
        default=None,
        metadata=doc(
            "Module (dotted name, importable from the configuration file's folder) whose `VALUES` "
            "maps each `{{ name }}` to a function of the language that returns its text."
        ),
    )
    figures: str | None = field(
        default=None,
        metadata=doc(
            "Package (dotted name, as for `values`): each of its modules with `draw(lang)` is a "
            "figure, drawn as SVG at build time."
        ),
    )
    figures_dest: str = field(
        default="assets/figures",
        metadata=doc("Where figures are added to the site, as `<name>.<lang>.svg`."),
    )
    cards: CardsOptions = field(
        default_factory=CardsOptions,
        metadata=doc("Interview cards (the keys below)."),
    )
    stated_numbers: Path | None = field(
        default=None,
        metadata=doc(
            "YAML file: page -> {number: why it is not computed}, for numbers in prose that are "
            "inputs rather than results.",
            "file",
        ),
    )
    bibliography: Path | None = field(
        default=None,
        metadata=doc(
            "YAML file of every cited work, once; pages cite `[@key, locator]`. Needs the "
            "`attr_list` Markdown extension.",
            "file",
        ),
    )
    glossary: Path | None = field(
        default=None,
        metadata=doc(
            "YAML file of terms: one rendering per language, the variants to avoid, a definition "
            "shown when a page first uses the term.",
            "file",
        ),
    )
    chinese: list[str] = field(
        default_factory=lambda: [],
        metadata=doc(
            "Languages written in Chinese script: wrapped lines are joined, Chinese punctuation "
            "is checked, figures need a CJK font."
        ),
    )
    mathjax: bool = field(
        default=True,
        metadata=doc(
            "Draw formulas as SVG at build time with MathJax (npm `mathjax-full` 3 in "
            "`node_modules/` beside the configuration file or above it)."
        ),
    )
    vault_dest: str | None = field(
        default=None,
        metadata=doc(
            "Where an Obsidian vault `vault.<lang>.zip` of the pages is written in the site."
        ),
    )
    cache_dir: str = field(
        default=".cache",
        metadata=doc(
            "Build cache: figures, values, notebooks and formulas, keyed on their inputs."
        ),
    )

    @classmethod
    def from_mapping(cls, raw: dict | None, base: Path, where: str = "lockstep") -> Options:
        """Options from the configuration's mapping; a BuildError lists every problem at once."""
        problems: list[str] = []
        options = _build(cls, raw or {}, base, where, problems)
        if problems:
            raise BuildError(problems)
        return options


def _build(cls: type, raw: object, base: Path, where: str, problems: list[str]):
    """An instance of the options dataclass `cls` from `raw`, appending what is wrong."""
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a mapping of options, got {raw!r}")
        return cls()
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    for name in sorted(raw.keys() - fields.keys()):
        hint = did_you_mean(name, fields) or f"; known: {', '.join(fields)}"
        problems.append(f"{where}: unknown option `{name}`{hint}")
    values = {}
    for name, f in fields.items():
        if name not in raw:
            continue
        value, here = raw[name], f"{where}.{name}"
        if dataclasses.is_dataclass(hints[name]):
            values[name] = _build(hints[name], value, base, here, problems)
        elif _fits(value, hints[name]):
            if f.metadata.get("kind") == "file" and value is not None:
                value = (base / value).resolve()
                if not value.is_file():
                    problems.append(f"{here}: no file {raw[name]!r} (relative to {base})")
            values[name] = value
        else:
            problems.append(f"{here}: expected {type_name(hints[name])}, got {value!r}")
    return cls(**values)


def _fits(value: object, hint: object) -> bool:
    """Whether a value read from YAML fits a field's type."""
    if isinstance(hint, UnionType):
        return any(_fits(value, arm) for arm in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is Path:
        return isinstance(value, str)
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if hint is bool:
        return isinstance(value, bool)
    return isinstance(value, hint) and not isinstance(value, bool)


def type_name(hint: object) -> str:
    """How the reference page names a field's type: `text`, `list of text`, `file` ..."""
    if isinstance(hint, UnionType):
        arms = [a for a in typing.get_args(hint) if a is not type(None)]
        return " or ".join(type_name(a) for a in arms) + " (optional)"
    if typing.get_origin(hint) is list:
        return f"list of {type_name(typing.get_args(hint)[0])}"
    names = {str: "text", bool: "true or false", Path: "file", int: "whole number"}
    return names.get(hint, "mapping")


def reference(cls: type = Options, prefix: str = "") -> list[tuple[str, str, str, str]]:
    """(option, type, default, description) of every option, nested ones as `cards.folder`."""
    rows = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        name, hint = prefix + f.name, hints[f.name]
        if dataclasses.is_dataclass(hint):
            rows.append((name, "mapping", "", f.metadata["doc"]))
            rows += reference(hint, f"{name}.")
            continue
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        kind = "file" if f.metadata.get("kind") == "file" else type_name(hint)
        if kind == "file" and isinstance(hint, UnionType):
            kind = "file (optional)"
        rows.append((name, kind, _shown(default), f.metadata["doc"]))
    return rows


def _shown(default: object) -> str:
    """A default as the configuration would write it."""
    if default is None:
        return ""
    if isinstance(default, bool):
        return str(default).lower()
    if isinstance(default, list):
        return "[" + ", ".join(default) + "]"
    return str(default)


@dataclass(frozen=True, eq=False)  # one object per site: hashed by identity
class Site:
    """A site: where things are, its languages, lockstep's options, and the Markdown extensions
    its engine renders pages with (name -> options)."""

    root: Path
    docs_dir: Path
    languages: Languages
    options: Options
    extensions: dict[str, dict] = field(default_factory=dict)

    @property
    def snippets_options(self) -> dict:
        """pymdownx.snippets' options, to expand includes as the build does."""
        return self.extensions.get("pymdownx.snippets") or {}

    def tree(self, lang: str) -> Path:
        """The folder of one language's pages."""
        return self.docs_dir / lang

    def pages(self, lang: str) -> list[str]:
        """Pages (Markdown and notebooks) of one language, relative to its tree."""
        tree = self.tree(lang)
        found = [*tree.rglob("*.md"), *tree.rglob("*.py")]
        return sorted(p.relative_to(tree).as_posix() for p in found)

    def bibliography(self) -> Bibliography | None:
        """The works the site cites (the `bibliography` option), or None."""
        path = self.options.bibliography
        return yaml_data.made_from(path, Bibliography.load) if path else None

    def glossary(self) -> Glossary | None:
        """The site's terms (the `glossary` option), or None."""
        path = self.options.glossary
        if not path:
            return None
        codes = self.languages.codes
        return yaml_data.made_from(path, lambda p: Glossary.load(p, codes), codes)

    def missing_extensions(self) -> list[str]:
        """What the options need from the Markdown extensions and the site lacks, one line each."""
        needs = []
        if self.options.bibliography:  # a citation is a link with a class: [..](..){ .citation }
            needs.append(("attr_list", {}, "citations"))
        if self.options.cards.vocabulary:  # the practice page and the handbook: HTML blocks
            needs.append(("md_in_html", {}, "the cards' practice page and handbook"))
        if self.options.mathjax:  # the formulas it draws are the ones arithmatex marks
            needs.append(("pymdownx.arithmatex", {"generic": True}, "formulas (`mathjax`)"))
        problems = []
        for name, settings, why in needs:
            have = self.extensions.get(name)
            wrong = have is not None and any((have or {}).get(k) != v for k, v in settings.items())
            if name not in self.extensions or wrong:
                with_settings = f" with {settings}" if settings else ""
                problems.append(
                    f"{why} need the Markdown extension `{name}`{with_settings}: add it under "
                    "`markdown_extensions` in the configuration"
                )
        return problems

    def texts(self) -> dict[str, dict[str, str]]:
        """lang -> page -> text of every page (Markdown and notebooks)."""
        return {
            lang: {p: (self.tree(lang) / p).read_text(encoding="utf-8") for p in self.pages(lang)}
            for lang in self.languages
        }

    def unused_entries(self) -> list[str]:
        """Works no page cites and terms no page uses, in some language: one line each."""
        bibliography, glossary = self.bibliography(), self.glossary()
        if not (bibliography or glossary):
            return []
        texts = self.texts()
        return [
            *(bibliography.uncited(texts) if bibliography else []),
            *(glossary.unused(texts) if glossary else []),
        ]

    def cache(self, kind: str) -> Path:
        """The cache folder for one kind of build output."""
        return (self.root / self.options.cache_dir / kind).resolve()
