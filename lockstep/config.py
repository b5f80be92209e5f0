"""The `lockstep` plugin's options in mkdocs.yml, and the site they describe."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.utils import yaml_load

from lockstep.citations import Bibliography
from lockstep.glossary import Glossary
from lockstep.languages import Languages


class CardsOptions(base.Config):
    """Interview cards: which folder of each language tree holds them, and their vocabulary.
    A site without a vocabulary has no cards."""

    folder = c.Type(str, default="cards")
    vocabulary = c.Optional(
        c.File(exists=True)
    )  # YAML: sections, modules, tags ...; no cards without
    not_cards = c.ListOfItems(c.Type(str), default=["index.md", "handbook.md"])
    anki_dest = c.Type(str, default="assets/downloads")  # cards.<lang>.apkg go here


class LockstepOptions(base.Config):
    """Options of the plugin; every path is relative to mkdocs.yml."""

    values = c.Optional(c.Type(str))  # module whose VALUES maps a {{ name }} to f(lang) -> str
    figures = c.Optional(c.Type(str))  # package: every module with draw(lang) is a figure
    figures_dest = c.Type(str, default="assets/figures")
    cards = c.SubConfig(CardsOptions)
    stated_numbers = c.Optional(c.File(exists=True))  # YAML: page -> {number: why not computed}
    bibliography = c.Optional(c.File(exists=True))  # YAML: key -> work; pages cite [@key, §x]
    glossary = c.Optional(c.File(exists=True))  # YAML: term -> renderings, variants, definitions
    # Languages written in Chinese script: wrapped lines joined, Chinese punctuation checked.
    chinese = c.ListOfItems(c.Type(str), default=[])
    mathjax = c.Type(bool, default=True)  # draw formulas as SVG at build time (lockstep/math.py)
    vault_dest = c.Optional(c.Type(str))  # an Obsidian vault.<lang>.zip of the pages goes here
    cache_dir = c.Type(str, default=".cache")


@dataclass(frozen=True)
class Site:
    """A site as mkdocs.yml describes it: where things are, its languages, the plugin options."""

    root: Path
    docs_dir: Path
    languages: Languages
    options: LockstepOptions
    snippets_options: dict  # pymdownx.snippets' options, to expand includes as the build does

    @classmethod
    def load(cls, config_file: str | Path) -> Site:
        """Read mkdocs.yml (without loading MkDocs' plugins) and validate the plugin options."""
        config_file = Path(config_file).resolve()
        with open(config_file, encoding="utf-8") as fh:
            raw = yaml_load(fh)
        plugins = _named(raw.get("plugins", []))
        if "i18n" not in plugins:
            raise ValueError(f"{config_file}: lockstep needs the i18n plugin (folder layout)")
        options = LockstepOptions(config_file_path=str(config_file))
        options.load_dict(plugins.get("lockstep") or {})
        errors, _ = options.validate()
        if errors:
            raise ValueError(f"{config_file}: lockstep options: {errors}")
        root = config_file.parent
        return cls(
            root=root,
            docs_dir=(root / raw.get("docs_dir", "docs")).resolve(),
            languages=Languages.from_i18n(plugins["i18n"]["languages"]),
            options=options,
            snippets_options=_named(raw.get("markdown_extensions", [])).get("pymdownx.snippets", {})
            or {},
        )

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
        return Bibliography.load(path) if path else None

    def glossary(self) -> Glossary | None:
        """The site's terms (the `glossary` option), or None."""
        path = self.options.glossary
        return Glossary.load(path, self.languages.codes) if path else None

    def cache(self, kind: str) -> Path:
        """The cache folder for one kind of build output."""
        return (self.root / self.options.cache_dir / kind).resolve()


def _named(items: list) -> dict:
    """mkdocs.yml lists items as `name` or `{name: options}`: as one dict."""
    out = {}
    for item in items:
        out.update(item if isinstance(item, dict) else {item: None})
    return out
