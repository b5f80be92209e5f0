"""Pytest plugin (`-p lockstep.pytest_plugin`): every page of the site becomes tests.

Per Markdown page: one item per python block (run as `__main__`, printed output compared
with the page; a translation's block that parity proves identical to the default language's
is not run again), a fence audit (no python block goes unrun, every fence names its
language), a numbers check (no hand-typed result in prose), a words check (computed values
that exist, citations, glossary terms, Chinese punctuation) and, against each translation, a
parity check. Per notebook: parity with its translations. Once per site, on the default
language's home page: every listed work is cited and every glossary term used. What the
build rejects, these reject too. The site is the mkdocs.yml named by the `lockstep_site` ini
option (default: mkdocs.yml in the rootdir).

Conftest hooks only see files below their own folder; the pages live in docs/, so this is a
plugin, loaded by the `-p` option in the site's pytest configuration.
"""

from __future__ import annotations

import difflib
import functools
import sys
from pathlib import Path

import pytest

from lockstep import blocks, citations, numbers, parity, placeholders, typography
from lockstep.errors import BuildError
from lockstep.mkdocs.config_file import load_site
from lockstep.site import Site

_SITE = pytest.StashKey[Site]()


def pytest_addoption(parser):
    parser.addini(
        "lockstep_site", "mkdocs.yml of the site whose pages are tested", default="mkdocs.yml"
    )


def pytest_configure(config):
    try:
        site = load_site(config.rootpath / config.getini("lockstep_site"))
    except BuildError as error:
        raise pytest.UsageError(str(error)) from None
    config.stash[_SITE] = site
    if str(site.root) not in sys.path:  # blocks import the site's own packages
        sys.path.insert(0, str(site.root))


@functools.cache
def _value_names(site: Site) -> frozenset[str]:
    """Every computed value the site's pages may name (as the build registers them)."""
    from lockstep.cards.deck import Deck
    from lockstep.site_values import site_values

    deck = Deck(site) if site.options.cards.vocabulary else None
    return frozenset(site_values(site, deck, cached=False).functions)


@functools.cache
def _blocks_of(path: Path, site: Site) -> tuple[blocks.DocBlock, ...]:
    """A page's python blocks, read once per session."""
    return tuple(blocks.python_blocks(path, site))


def _language_of(path: Path, site: Site) -> tuple[str, str] | None:
    """(language, path within its tree) of a page, or None for a file that is not a page."""
    if not path.is_relative_to(site.docs_dir):
        return None
    parts = path.relative_to(site.docs_dir).parts
    if len(parts) < 2 or parts[0] not in site.languages.codes:
        return None
    return parts[0], "/".join(parts[1:])


def pytest_collect_file(file_path: Path, parent):
    site = parent.config.stash[_SITE]
    where = _language_of(file_path, site)
    if where and file_path.suffix == ".md":
        return MarkdownPage.from_parent(parent, path=file_path, site=site, where=where)
    if where and file_path.suffix == ".py":
        return NotebookPage.from_parent(parent, path=file_path, site=site, where=where)
    return None


class _Page(pytest.File):
    def __init__(self, *, site: Site, where: tuple[str, str], **kwargs):
        super().__init__(**kwargs)
        self.site, (self.lang, self.rel) = site, where

    def translations(self):
        """An item per other language: the default language's page checks against each
        translation; a translation checks only that the default page exists."""
        others = self.site.languages.others(self.lang)
        if self.lang != self.site.languages.default:
            others = (self.site.languages.default,)
        for other in others:
            yield ParityItem.from_parent(self, name=f"translation {other}", other=other)


class MarkdownPage(_Page):
    """One page: an item per python block, the fence audit, numbers, and parity."""

    def collect(self):
        found = _blocks_of(self.path, self.site)
        for index, block in enumerate(found):
            yield BlockItem.from_parent(self, name=f"line {block.lineno}", block=block, index=index)
        run = {n for b in found for n in (b.lineno, *b.also_runs)}
        yield FenceAuditItem.from_parent(self, name="fence audit", run_linenos=run)
        yield NumbersItem.from_parent(self, name="numbers")
        yield WordsItem.from_parent(self, name="words")
        yield from self.translations()
        if self.lang == self.site.languages.default and self.rel == "index.md":
            yield SiteItem.from_parent(self, name="site")


class NotebookPage(_Page):
    """A lab notebook: parity with its translations (the build executes it)."""

    def collect(self):
        yield from self.translations()


class _Item(pytest.Item):
    def fail(self, problems: list[str]) -> None:
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)


class BlockItem(_Item):
    def __init__(self, *, block: blocks.DocBlock, index: int, **kwargs):
        super().__init__(**kwargs)
        self.block, self.index = block, index

    def runtest(self):
        page, site = self.parent, self.parent.site
        where = f"{blocks.display(self.path, site)}:{self.block.lineno}"
        if self.block.marks:
            self.fail([f"{where}: docs blocks may not be skipped or marked: {self.block.marks}"])
        same = self._same_as_default()
        if same is not None:  # identical code and output: it ran there
            self.user_properties.append(("identical to", same))
            return
        try:
            printed = blocks.run_block(self.block, site)
        except blocks.BlockError as error:
            self.fail([str(error)])
        expected = self.block.expected_output
        if expected is None:
            return
        got = printed
        if self.block.ignore_whitespace:
            expected, got = ("".join(s.split()) for s in (expected, got))
        if got != expected:
            diff = difflib.unified_diff(
                self.block.expected_output.splitlines(keepends=True),
                printed.splitlines(keepends=True),
                "what the page shows",
                "what the code printed",
            )
            self.fail(
                [f"{where} ({page.lang}): printed output differs from the page", "".join(diff)]
            )

    def _same_as_default(self) -> str | None:
        """Where the default language runs this very block (same code, comments aside, and
        same output), or None: a translation's block runs only when it differs."""
        page, site = self.parent, self.parent.site
        if page.lang == site.languages.default:
            return None
        counterpart = site.tree(site.languages.default) / page.rel
        if not counterpart.is_file():
            return None
        theirs = _blocks_of(counterpart, site)
        if self.index >= len(theirs) or len(theirs) != len(_blocks_of(self.path, site)):
            return None
        other = theirs[self.index]
        code = (parity.strip_comments(b.code) for b in (self.block, other))
        output = (self.block.expected_output, self.block.ignore_whitespace)
        if next(code) == next(code) and output == (other.expected_output, other.ignore_whitespace):
            return f"{blocks.display(counterpart, site)}:{other.lineno}"
        return None

    def reportinfo(self):
        return self.path, self.block.lineno - 1, f"{self.path.name}:{self.block.lineno}"


class FenceAuditItem(_Item):
    def __init__(self, *, run_linenos: set[int], **kwargs):
        super().__init__(**kwargs)
        self.run_linenos = run_linenos

    def runtest(self):
        self.fail(blocks.audit(self.path, self.run_linenos, self.parent.site))


class NumbersItem(_Item):
    def runtest(self):
        page, site = self.parent, self.parent.site
        text = self.path.read_text(encoding="utf-8")
        stated = numbers.stated_numbers(site).get(page.rel, {})
        where = blocks.display(self.path, site)
        problems = [
            f"{where}: {n} appears in the prose but in no code block or checked output of the "
            "page: compute it, use a {{ computed }} value, or list it as a stated number"
            for n in numbers.unchecked_numbers(text, site, set(stated))
        ]
        prose = numbers.prose_numbers(text)
        problems += [
            f"{where}: stated number {n} no longer occurs in the prose; remove it"
            for n in stated
            if n not in prose
        ]
        keys = citations.cited(text)
        problems += [
            f"{where}: stated number {n} is cited from {key}, which the page does not cite"
            for n, key in numbers.cited_sources(stated).items()
            if key not in keys
        ]
        self.fail(problems)


class WordsItem(_Item):
    """Citations resolve and none is written by hand; glossary terms are used as listed;
    Chinese prose uses Chinese punctuation."""

    def runtest(self):
        page, site = self.parent, self.parent.site
        text = self.path.read_text(encoding="utf-8")
        where = blocks.display(self.path, site)
        problems = []
        bibliography, glossary = site.bibliography(), site.glossary()
        if bibliography:
            problems += [
                f"{where}: cites {key}, which {site.options.bibliography} does not have"
                for key in bibliography.unknown(text)
            ]
            problems += [
                f"{where}:{line}: a citation opens here and closes on another line"
                for line in citations.unclosed(text)
            ]
            problems += [
                f"{where}:{line}: {phrase!r} is written by hand: cite the work as [@key, locator]"
                for line, phrase in citations.handwritten(text)
            ]
        if glossary:
            problems += [
                f"{where}:{line}: {used!r} is not the glossary's rendering; use {preferred!r}"
                for line, used, preferred in glossary.avoided(text, page.lang)
            ]
        if page.lang in site.options.chinese:
            problems += [
                f"{where}:{line}: {found!r}: {advice}"
                for line, found, advice in typography.chinese_problems(text)
            ]
        problems += placeholders.unknown(text, _value_names(site), where)
        self.fail(problems)


class SiteItem(_Item):
    """Once per site, what the build checks before it renders a page: the Markdown extensions
    the options need, every work in the bibliography cited and every glossary term used in
    every language, and the interview cards' format."""

    def runtest(self):
        site = self.parent.site
        problems = site.missing_extensions() + site.unused_entries()
        if site.options.cards.vocabulary:
            from lockstep.cards.deck import Deck

            problems += Deck(site).check()
        self.fail(problems)


class ParityItem(_Item):
    def __init__(self, *, other: str, **kwargs):
        super().__init__(**kwargs)
        self.other = other

    def runtest(self):
        page, site = self.parent, self.parent.site
        counterpart = site.tree(self.other) / page.rel
        if not counterpart.is_file():
            pytest.fail(
                f"{blocks.display(counterpart, site)} is missing: translate "
                f"{blocks.display(self.path, site)}",
                pytrace=False,
            )
        if page.lang != site.languages.default:
            return  # the default language's page compares the two
        a, b = (p.read_text(encoding="utf-8") for p in (self.path, counterpart))
        if self.path.suffix == ".py":
            problems = parity.notebook_problems(a, b)
        else:
            problems = parity.page_problems(
                a, b, (page.lang, self.other), site.options.figures_dest
            )
        where = f"{blocks.display(self.path, site)} ({page.lang} vs {self.other})"
        self.fail([f"{where}: {p}" for p in problems])
