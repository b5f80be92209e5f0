"""A site described by its mkdocs.yml, read without MkDocs: what the pytest plugin and the
command line use to find the site, and what the plugin checks its own options with.

Only the parts lockstep needs are read: `docs_dir`, the i18n plugin's languages (folder
layout), lockstep's options and the Markdown extensions. MkDocs' own YAML tags are understood
as MkDocs understands them (`!ENV`, `!relative`); Python object tags (`!!python/name:...`,
used to name a slug function) are read as plain data, since nothing here calls them.
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from lockstep import yaml_data
from lockstep.errors import BuildError
from lockstep.languages import Languages
from lockstep.site import Options, Site


class _Loader(yaml_data.SafeLoader):
    """YAML as MkDocs writes it, without importing anything it names."""


def _env(loader: _Loader, node: yaml.Node) -> object:
    """`!ENV NAME` or `!ENV [NAME, OTHER, default]`: the first variable that is set."""
    if isinstance(node, yaml.ScalarNode):
        names, default = [loader.construct_scalar(node)], None
    else:
        items = loader.construct_sequence(node)
        names, default = (items[:-1], items[-1]) if len(items) > 1 else (items, None)
    for name in names:
        if name in os.environ:
            return yaml.safe_load(os.environ[name])
    return default


def _plain(loader: _Loader, suffix: str, node: yaml.Node) -> object:
    """Any other tag: the node's own data."""
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


_Loader.add_constructor("!ENV", _env)
_Loader.add_multi_constructor("!", _plain)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", _plain)


def named(items: list | None) -> dict:
    """mkdocs.yml lists plugins and extensions as `name` or `{name: options}`: as one dict."""
    out: dict = {}
    for item in items or []:
        out.update(item if isinstance(item, dict) else {item: None})
    return out


def read(config_file: str | Path) -> dict:
    """The configuration file as data."""
    with open(config_file, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_Loader) or {}


def load_site(config_file: str | Path) -> Site:
    """The site that mkdocs.yml describes; a BuildError names what is missing or wrong."""
    config_file = Path(config_file).resolve()
    raw = read(config_file)
    plugins = named(raw.get("plugins"))
    if "i18n" not in plugins:
        raise BuildError(
            f"{config_file.name}: lockstep needs the i18n plugin (mkdocs-static-i18n) with "
            "`docs_structure: folder`, one folder of pages per language"
        )
    root = config_file.parent
    options = Options.from_mapping(plugins.get("lockstep"), root, f"{config_file.name}: lockstep")
    languages = Languages.from_i18n((plugins["i18n"] or {}).get("languages") or [])
    extensions = {k: v or {} for k, v in named(raw.get("markdown_extensions")).items()}
    docs_dir = (root / raw.get("docs_dir", "docs")).resolve()
    return Site(root, docs_dir, languages, options, extensions)
