"""Where the current language's files go: the i18n plugin builds once per language."""

from mkdocs.config.defaults import MkDocsConfig


def current_language(config: MkDocsConfig) -> tuple[str, str]:
    """Return (language being built, dest prefix): '' for the default language, 'en/' else."""
    i18n = config.plugins["i18n"]
    lang = i18n.current_language
    return lang, "" if lang == i18n.default_language else f"{lang}/"


def add_generated(files, config: MkDocsConfig, src_uri: str, abs_src_path) -> None:
    """Add a file made outside docs/ to the language being built, under that language's prefix."""
    from mkdocs.structure.files import File

    _, prefix = current_language(config)
    f = File.generated(config, src_uri, abs_src_path=str(abs_src_path))
    f.dest_uri = prefix + src_uri
    files.append(f)
