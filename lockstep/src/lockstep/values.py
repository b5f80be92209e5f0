"""Computed values: `{{ name }}` in a page becomes what `VALUES[name](lang)` returns.

A site lists its values in one module (the plugin's `values` option) as
`VALUES: dict[str, Callable[[str], str]]`. Each value is cached per language under a digest
of the module that defines its function and everything that module is made from
(lockstep.deps), so a page edit or an edit to an unrelated snippet recomputes nothing. A
function marked `@uncached` (cheap, and reading pages rather than code) runs once in every build.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from pathlib import Path

from lockstep import deps, placeholders
from lockstep.cache import Cache, digest, text_digest

ValueFunction = Callable[[str], str]


def uncached(fn: ValueFunction) -> ValueFunction:
    """A value that must be computed in every build (it reads pages, not only code)."""

    @functools.wraps(fn)
    def value(lang: str) -> str:
        return fn(lang)

    value.uncached = True
    return value


def browser_only(fn: ValueFunction) -> ValueFunction:
    """An uncached value that only a browser can use (inline SVG, a scripted widget): exports
    without a browser (the Obsidian vault, the Anki decks) leave it out."""
    value = uncached(fn)
    value.browser_only = True
    return value


def listing(fn: ValueFunction) -> ValueFunction:
    """An uncached value that lists every card or every page (an index, the handbook): under
    `make serve` a page naming it is brought up to date by the build after an edit's own
    pages are shown (lockstep.deferred)."""
    value = fn if getattr(fn, "uncached", False) else uncached(fn)
    value.listing = True
    return value


class Values:
    """A site's computed values, rendered through the build cache."""

    def __init__(self, functions: dict[str, ValueFunction], root: Path, cache: Cache | None):
        self.functions, self.root, self.cache = functions, root.resolve(), cache
        self._computed: dict[tuple[str, str], str] = {}  # uncached values, once per build
        self._code: dict[str, str] = {}  # module -> digest of its code, once per build

    @classmethod
    def from_module(cls, module: str, root: Path, cache: Cache | None) -> Values:
        """The VALUES dictionary of `module`, with site-independent values added by the caller."""
        functions = getattr(importlib.import_module(module), "VALUES", None)
        if not isinstance(functions, dict):
            raise TypeError(f"{module} must define VALUES: dict[str, Callable[[str], str]]")
        return cls(dict(functions), root, cache)

    def add(self, functions: dict[str, ValueFunction]) -> None:
        """Register more values; a name may be defined once only."""
        twice = sorted(set(functions) & set(self.functions))
        if twice:
            raise ValueError(f"computed values defined twice: {twice}")
        self.functions.update(functions)

    def render(self, name: str, lang: str) -> str:
        """The value `name` in `lang`; an unknown name is an error that lists the known ones."""
        if name not in self.functions:
            known = ", ".join(sorted(self.functions))
            raise KeyError(f"unknown computed value {{{{ {name} }}}}; known: {known}")
        fn = self.functions[name]
        if self.is_uncached(name):
            if (name, lang) not in self._computed:
                self._computed[name, lang] = fn(lang)
            return self._computed[name, lang]
        if self.cache is None:
            return fn(lang)
        key = self.key(name, lang)
        path = self.cache.fetch(f"{name}.{lang}", key, lambda: fn(lang).encode())
        return path.read_text(encoding="utf-8")

    def is_uncached(self, name: str) -> bool:
        """Whether value `name` is computed on every build rather than cached."""
        return getattr(self.functions[name], "uncached", False)

    def is_listing(self, name: str) -> bool:
        """Whether value `name` lists every card or page (see `listing`)."""
        return getattr(self.functions[name], "listing", False)

    def key(self, name: str, lang: str) -> str:
        """The digest of what value `name` in `lang` is computed from (by what its code does)."""
        module = self.functions[name].__module__
        if module not in self._code:  # most values share a module: its files digested once
            self._code[module] = digest(self.inputs(name), self.root, code=True)
        return text_digest(self._code[module], name, lang)

    def inputs(self, name: str) -> list[Path]:
        """The project files value `name` is computed from."""
        return deps.inputs([self.functions[name].__module__], self.root)

    def live_names(self, languages) -> list[str]:
        """Cache names of every value in every language: the rest is stale."""
        return [f"{name}.{lang}" for name in self.functions for lang in languages]

    def substitute(self, text: str, lang: str, export: bool = False) -> str:
        """`text` with every placeholder rendered in `lang`; for an export, browser-only
        values are left out."""

        def render(name: str) -> str:
            if export and getattr(self.functions.get(name), "browser_only", False):
                return ""
            return self.render(name, lang)

        return placeholders.substitute(text, render)
