"""The site's languages, read once from the i18n plugin's configuration."""

from __future__ import annotations

from dataclasses import dataclass

from lockstep.errors import BuildError


@dataclass(frozen=True)
class Languages:
    """Language codes in build order; the default one is served at the site root."""

    codes: tuple[str, ...]
    default: str

    @classmethod
    def from_i18n(cls, languages: list[dict]) -> Languages:
        """From mkdocs-static-i18n's `languages:` list (locale, default, build ...)."""
        codes = tuple(lang["locale"] for lang in languages if lang.get("build", True))
        defaults = [lang["locale"] for lang in languages if lang.get("default")]
        if len(defaults) != 1 or defaults[0] not in codes:
            raise BuildError(f"exactly one built language must be the default, got {defaults}")
        return cls(codes, defaults[0])

    def __iter__(self):
        return iter(self.codes)

    def others(self, lang: str) -> tuple[str, ...]:
        """Every language but `lang`: the translations a page of `lang` must have."""
        if lang not in self.codes:
            raise ValueError(f"unknown language {lang!r}; the site has {self.codes}")
        return tuple(code for code in self.codes if code != lang)

    def prefix(self, lang: str) -> str:
        """Where `lang` is served below the site root: '' for the default, 'en/' for en."""
        self.others(lang)  # validates
        return "" if lang == self.default else f"{lang}/"
