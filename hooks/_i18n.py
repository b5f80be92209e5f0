"""Where the current language's files go: the i18n plugin builds once per language."""

from mkdocs.config.defaults import MkDocsConfig


def current_language(config: MkDocsConfig) -> tuple[str, str]:
    """Return (language being built, dest prefix): '' for the default language, 'en/' else."""
    i18n = config.plugins["i18n"]
    lang = i18n.current_language
    return lang, "" if lang == i18n.default_language else f"{lang}/"
