"""The MkDocs plugin: lockstep's wiring into the build, and nothing else.

Registered as `lockstep` (entry point in lockstep's pyproject.toml), configured in mkdocs.yml:

    plugins:
      - i18n: ...            # folder layout; lockstep reads the languages from it
      - lockstep:
          values: attention_site.values
          figures: snippets.figures
          cards: {vocabulary: attention_site/cards.yml}
          bibliography: attention_site/references.yml
          glossary: attention_site/glossary.yml
          chinese: [zh]

Per build: every page must exist in every language, the cards must follow their schema,
`{{ name }}` becomes a computed value, figures are drawn into the cache and added to the site,
notebooks are executed through the cache, citations are written out from the bibliography
with a list of references per page, the first use of each glossary term gets its definition
as hover text, formulas are drawn as SVG at build time (no script for readers), the Anki decks
and the Obsidian vaults are added as files, and pages lose the hreflang links that made
Material request a sitemap below each (mkdocs-material#6582). A `--dirty` build (`make serve`)
rebuilds only the pages whose inputs changed (lockstep/mkdocs/dirty.py).
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files

from lockstep import (
    changed,
    cjk,
    deferred,
    deps,
    fences,
    math,
    notebooks,
    page_inputs,
    placeholders,
    rendered,
    vault,
    yaml_data,
)
from lockstep.cache import Cache, text_digest
from lockstep.cards import render, spoken
from lockstep.cards.deck import Deck, read_card
from lockstep.errors import BuildError
from lockstep.figures import Figures
from lockstep.mkdocs import alternates, dirty, jupyter, offline, search, templates
from lockstep.mkdocs.config_file import load_site
from lockstep.mkdocs.i18n import (
    add_generated,
    current_language,
    localise_permalinks,
    theme_words,
)
from lockstep.records import PageRecords, by_page
from lockstep.site_values import card_url, site_values

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # lockstep itself


def reported(event):
    """A plugin event whose BuildError MkDocs reports as its own error: the problems, one line
    each, and no traceback."""

    @functools.wraps(event)
    def wrapper(*args, **kwargs):
        try:
            return event(*args, **kwargs)
        except BuildError as error:
            raise PluginError(str(error)) from None

    return wrapper


class LockstepPlugin(BasePlugin):
    """Keeps a bilingual MkDocs site in lock-step with the code it shows."""

    serve_dirty = False  # `mkdocs serve --dirty` (on_startup)
    serving = False  # and its server reloads: a rebuild may leave pages for the next (on_serve)
    exports: dict[str, tuple[str, bytes]] | None = None  # serving: dest -> (inputs, bytes)
    later = False  # whether the build in progress left anything for the next
    next_build: Path | None = None  # while serving: written to start the next build
    next_timer: threading.Timer | None = None  # the write, a second after a build

    def load_config(self, options: dict, config_file_path: str | None = None):
        """Take the options as they are: lockstep.site checks them (in on_config), so that an
        unknown one gets a close match and every problem is reported at once."""
        self.raw_options = dict(options)
        return [], []

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Whether this process serves the site with --dirty (on_serve then starts serving)."""
        self.serve_dirty = command == "serve" and dirty
        if self.serve_dirty:  # from the first build on, so the first edit reuses its exports
            self.exports = {}

    @event_priority(50)  # before Material's offline plugin reads extra.polyfills
    @reported
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if getattr(self, "_config", None) is config:
            return config  # i18n's build of the next language: already set up
        self._config = config
        dirty.quiet_dirty_warning()
        site = load_site(config.config_file_path)
        missing = site.missing_extensions()
        if missing:
            raise BuildError([f"{Path(config.config_file_path).name}: {m}" for m in missing])
        # Modules named in the options are found beside mkdocs.yml, as MkDocs finds `hooks:`.
        if str(site.root) not in sys.path:
            sys.path.insert(0, str(site.root))
        # `mkdocs serve` rebuilds in one process: re-import the site's code as it is now.
        deps.forget_project_modules(site.root, keep=PACKAGE_DIR)
        self.site, self.languages = site, site.languages
        self.rendered_problems = []
        if not config.repo_url:  # a relative edit_uri needs a repository (REPO_URL unset)
            config.edit_uri = None
        offline.use_local_shim(config)
        if "mkdocs-jupyter" in config.plugins:
            jupyter.keep_notebooks_as_pages()
        self.deck = Deck(site) if site.options.cards.vocabulary else None
        self.bibliography, self.glossary = site.bibliography(), site.glossary()

        def url_of(card_id: str) -> str:
            # Read when the map is drawn: the offline plugin turns directory URLs off after us.
            return card_url(card_id) if config.use_directory_urls else f"{card_id}.html"

        self.values = site_values(site, self.deck, url_of)
        self.figures = (
            Figures(
                site.options.figures,
                site.root,
                Cache(site.cache("figures"), "svg"),
                cjk=tuple(site.options.chinese),
            )
            if site.options.figures
            else None
        )
        self.notebook_cache = Cache(site.cache("notebooks"), "json")
        self.math = None
        if site.options.mathjax:
            mathjax = math.MathJax(math.node_modules(site.root))
            self.math = math.PageMath(mathjax, Cache(site.cache("math"), "json"), site.root)
            if math.CSS_DEST not in config.extra_css:
                config.extra_css.append(math.CSS_DEST)
        return config

    def _exported(self, text: str, lang: str, where: str) -> str:
        """Text of `where` for an export that has no page around it (the Anki decks, the
        vault): computed values in, citations written out without links."""
        text = self.values.substitute(text, lang, export=True)
        if not self.bibliography:
            return text
        return self.bibliography.render(text, lang, where=where, links=False)

    def on_serve(self, server, config: MkDocsConfig, builder):
        """Watch what the build imports and reads besides docs/: the site's values and figures
        packages and the data files the options name."""
        for path in self._watched():
            server.watch(str(path))
        if self.serve_dirty:  # only a server that reloads can start the next build
            self.next_build = self.site.cache("serve") / "next-build"
            self.next_build.parent.mkdir(parents=True, exist_ok=True)
            self.next_build.touch()
            server.watch(str(self.next_build))  # written when a build left pages for the next
            self.serving = True
        return server

    def _watched(self) -> list[Path]:
        opts, root = self.site.options, self.site.root
        modules = [m for m in (opts.values, opts.figures) if m]
        folders = {root / m.split(".")[0] for m in modules}
        folders |= {root / f"{m.split('.')[0]}.py" for m in modules}
        named = (opts.cards.vocabulary, opts.stated_numbers, opts.bibliography, opts.glossary)
        return sorted(p for p in [*folders, *(Path(n) for n in named if n)] if p.exists())

    @reported
    def on_pre_build(self, config: MkDocsConfig) -> None:
        localise_permalinks(config)  # before this language's pages are rendered
        if current_language(config) != self.languages.default:
            return  # once per `mkdocs build`: i18n runs a nested build per other language
        self.rendered_problems: list[str] = []
        self.later = False
        if self.next_timer:  # a build asked for by the last one: this build is it
            self.next_timer.cancel()
        self._check_translations()
        self._check_placeholders()
        unused = self.site.unused_entries()
        if unused:
            raise BuildError(unused)
        if self.deck:
            problems = self.deck.check()
            if problems:
                raise BuildError(["interview cards do not follow the format:", *problems])
            self.card_paths = {p for lang in self.languages for p in self.deck.paths(lang)}
        self.values.cache.prune(self.values.live_names(self.languages))
        if self.figures:
            self.figures.cache.prune(self.figures.live_names(self.languages))
        self.notebook_cache.prune(
            notebooks.cache_name(self.site.tree(lang) / page, self.site.tree(lang), lang)
            for lang in self.languages
            for page in self.site.pages(lang)
        )
        if self.math:
            pages = [(lang, page) for lang in self.languages for page in self.site.pages(lang)]
            self.math.prune([math.cache_name(lang, page) for lang, page in pages])

    def _check_translations(self) -> None:
        pages = {lang: set(self.site.pages(lang)) for lang in self.languages}
        missing = [
            f"docs/{other}/{page} (translation of docs/{lang}/{page})"
            for lang in self.languages
            for other in self.languages.others(lang)
            for page in sorted(pages[lang] - pages[other])
        ]
        if missing:
            raise BuildError(["missing translation(s):", *missing])

    def _check_placeholders(self) -> None:
        """Every `{{ name }}` on every page names a computed value: all unknown ones at once."""
        known = set(self.values.functions)
        problems = [
            problem
            for lang in self.languages
            for page in self.site.pages(lang)
            if page.endswith(".md")
            for problem in placeholders.unknown(
                (self.site.tree(lang) / page).read_text(encoding="utf-8"), known, f"{lang}/{page}"
            )
        ]
        if problems:
            raise BuildError(problems)

    @event_priority(-200)  # after the i18n plugin has laid out this language's files
    @reported
    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        lang = current_language(config)
        # What each page is made from: decides what a --dirty build rebuilds, and lets the
        # exports below reuse a page's note while its key stays the same.
        doc_files = files.documentation_pages()
        pages = {f.src_uri: Path(f.abs_src_path) for f in doc_files}
        engine = self._engine_inputs(config, files)
        self.keys = page_inputs.PageKeys(self.site, self.values, pages, lang, engine)
        self.page_keys, listings = self.keys.keys, self.keys.listings
        self.records = PageRecords(self.site.cache("pages"), config.site_dir, lang)
        stale = dirty.stale(doc_files, self.page_keys, self.records)
        by_uri = {f.src_uri: f for f in doc_files}
        kept = lambda uri: dirty.is_written(by_uri[uri]) and uri in self.records.pages  # noqa: E731
        # While serving, a rebuild shows the edited pages first (lockstep.deferred).
        later = deferred.left_for_later(stale, listings, kept) if self.serving else set()
        for uri in sorted((stale & listings) - later):
            if kept(uri) and self.records.pages[uri].get("rendered") == self.keys.rendered(uri):
                self.records.renew(uri, self.page_keys[uri])  # it would show the same
                stale.discard(uri)
        self.later = self.later or bool(later)
        exports_later = self.serving and bool(stale - listings)
        dirty.mark_modified(doc_files, stale - later)
        by_path = {Path(f.abs_src_path).resolve(): self.page_keys.get(f.src_uri) for f in doc_files}
        tree = self.site.tree(lang)
        figures = self.figures.names if self.figures else []
        drawn = {name: self.figures.svg(name, lang) for name in figures}
        for name, svg in drawn.items():
            src = f"{self.site.options.figures_dest}/{name}.{lang}.svg"
            add_generated(files, config, self.languages, src, path=svg)
        if self.math and lang == self.languages.default:
            # Every language's pages load extra_css from the site root: one copy.
            add_generated(files, config, self.languages, math.CSS_DEST, content=self.math.css())
        # The exports are made from every page (by its key; its file's time or last commit
        # dates a note) and every figure (by the file drawn for its inputs).
        made_from = functools.cache(  # worked out only while serving (_export)
            lambda: text_digest(
                sorted(self.page_keys.items()),
                [yaml_data.version(path) for path in pages.values()],
                changed.repository_state(self.site.root),
                sorted(str(svg) for svg in drawn.values()),
            )
        )
        if self.deck:
            dest = f"{self.deck.options.anki_dest}/cards.{lang}.apkg"
            key_of = lambda card: by_path.get(card.path.resolve())  # noqa: E731
            from lockstep.cards import anki  # genanki: needed only by a site with cards

            content = self._export(
                dest,
                made_from,
                exports_later,
                lambda: anki.package(self.deck, lang, self._exported, key_of),
            )
            add_generated(files, config, self.languages, dest, content=content)
        if self.site.options.vault_dest:
            dest = f"{self.site.options.vault_dest}/vault.{lang}.zip"
            content = self._export(
                dest,
                made_from,
                exports_later,
                lambda: vault.build(
                    self.site,
                    self.deck,
                    lang,
                    self._exported,
                    self._figure(lang),
                    key_of=lambda page: by_path.get((tree / page).resolve()),
                ),
            )
            add_generated(files, config, self.languages, dest, content=content)
        return files

    def _export(self, dest: str, made_from: Callable[[], str], later: bool, make) -> bytes:
        """An export made from every card or page: while serving, the one made before when
        what it is `made_from` is the same, or when this build may leave it for the next
        (`later`); otherwise made now."""
        if self.exports is None:  # not serving with --dirty: nothing is kept between builds
            return make()
        before = self.exports.get(dest)
        if before and (before[0] == made_from() or later):
            self.later = self.later or before[0] != made_from()
            return before[1]
        self.exports[dest] = (made_from(), make())
        return self.exports[dest][1]

    @staticmethod
    def _engine_inputs(config: MkDocsConfig, files: Files) -> tuple:
        """What every page's output is made from on MkDocs' side: (files, settings, listing)."""
        made_from = [Path(config.config_file_path)]
        if config.theme.custom_dir:
            custom = Path(config.theme.custom_dir)
            made_from += [p for p in custom.rglob("*") if p.is_file()]
        offline_plugin = config.plugins.get("material/offline")
        settings = [
            config.site_url,
            config.repo_url,
            config.edit_uri,
            config.use_directory_urls,
            bool(offline_plugin and offline_plugin.config.enabled),
        ]
        return made_from, settings, [(f.src_uri, f.dest_uri) for f in files]

    @event_priority(110)  # before the tags plugin (100) fills its listings from every page
    def on_env(self, env, config: MkDocsConfig, files: Files):
        templates.reuse_compiled(env)
        pages = [f.page for f in files.documentation_pages() if f.page is not None]
        skipped = dirty.skipped(pages)
        for page in skipped:
            dirty.restore(page, self.records.pages[page.file.src_uri], files)
        if skipped:
            dirty.recollect_tags(config.plugins.get("material/tags"), pages, skipped)
        self.skipped = {page.file.src_uri for page in skipped}
        self.doc_pages = pages
        return env

    def _figure(self, lang: str):
        """name -> the SVG of that figure in `lang`, or None if the site does not draw it (the
        page's own image link then fails the build, naming the page)."""

        def svg(name: str) -> Path | None:
            drawn = self.figures and name in self.figures.names
            return self.figures.svg(name, lang) if drawn else None

        return svg

    @event_priority(10)  # before the tags plugin (-50) reads page.meta["tags"]
    @reported
    def on_page_markdown(self, markdown: str, page, config: MkDocsConfig, files) -> str:
        lang = current_language(config)
        path = Path(page.file.abs_src_path).resolve() if page.file.abs_src_path else None
        card = read_card(path, lang) if self.deck and path in self.card_paths else None
        compact = self._compact(markdown, card, lang)
        if card:
            markdown = self._card_markdown(markdown, page, card)
        markdown = fences.without_markers(self.values.substitute(markdown, lang))
        if card:
            markdown = render.collapse_depth(self.deck, card, markdown)
        # Citations first (in Chinese they become full-width brackets, which line joining
        # needs to see), hover definitions last (their <abbr> tags would hide the words).
        if self.bibliography:
            markdown = self.bibliography.render(
                markdown, lang, where=page.file.src_uri, compact=compact
            )
        if lang in self.site.options.chinese:
            markdown = cjk.join_cjk_lines(markdown)
        if self.glossary:
            markdown = self.glossary.with_definitions(markdown, lang)
        return markdown

    def _compact(self, source: str, card, lang: str):
        """Where citations show as numbered markers: the parts of a card said aloud, under
        their headings on a card page and in the handbook, and the whole practice page."""
        names = set(placeholders.names(source)) if self.deck else set()
        if "cards_practice" in names:
            return lambda heading: True
        if card or "cards_handbook" in names:
            titles = {self.deck.vocabulary.section_title(k, lang) for k in spoken.REVEALED}
            return lambda heading: heading in titles
        return None

    def _card_markdown(self, markdown: str, page, card) -> str:
        page.meta["tags"] = render.tag_labels(self.deck, card)  # ids in front matter, labels shown
        head, sep, rest = markdown.partition(f"# {card.title}\n")
        return f"{head}{sep}\n{render.meta_line(self.deck, card)}\n{rest}" if sep else markdown

    @event_priority(-10)  # after mkdocs-jupyter has given the notebook its render
    def on_pre_page(self, page, config: MkDocsConfig, files):
        if isinstance(page.file, jupyter.NotebookPage):
            lang = current_language(config)
            path = Path(page.file.abs_src_path)
            name = notebooks.cache_name(path, self.site.tree(lang), lang)
            options = config.plugins["mkdocs-jupyter"].config
            jupyter.cache_rendering(
                page,
                name,
                options,
                self.site.root,
                self.notebook_cache,
                math.node_modules(self.site.root),
            )
        return page

    @reported
    def on_page_content(self, html: str, page, config: MkDocsConfig, files) -> str:
        if isinstance(page.file, jupyter.NotebookPage):
            words = theme_words(config, jupyter.COPY_WORDS)
            html = jupyter.fix_html(html, page, files, words)
            if current_language(config) in self.site.options.chinese:
                html = cjk.join_cjk_html(html)
        return html

    def _check_rendered(self, html: str, lang: str, where: str) -> None:
        """Collect what a Chinese reader would see wrong on a built page (lockstep.rendered)."""
        if lang in self.site.options.chinese:
            self.rendered_problems += [f"{where}: {p}" for p in rendered.problems(html, lang)]

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        if template_name != "404.html":
            return output
        lang = current_language(config)
        self._check_rendered(output, lang, f"{self.languages.prefix(lang)}{template_name}")
        # Served for any missing address, at any depth: absolute links to each language's home.
        root = urlsplit(config.site_url or "/").path
        homes = {lang: root + self.languages.prefix(lang) for lang in self.languages}
        return alternates.language_menu_to_homes(alternates.drop_hreflang_links(output), homes)

    @reported
    def on_post_page(self, output: str, page, config: MkDocsConfig) -> str:
        output = alternates.drop_hreflang_links(output)  # mkdocs-material#6582
        self._check_rendered(output, current_language(config), page.file.src_uri)
        if self.math:
            lang = current_language(config)
            page_path = Path(page.file.abs_src_path).relative_to(self.site.tree(lang)).as_posix()
            output = self.math.typeset(output, math.cache_name(lang, page_path))
        # Each language searches its own index (split in on_post_build).
        return search.with_language_base(output, self.languages.prefix(current_language(config)))

    def on_build_error(self, error: Exception) -> None:
        if getattr(self, "math", None):
            self.math.mathjax.close()  # a failed build leaves no Node process behind

    @event_priority(50)  # before the search plugin (0) writes this language's index
    def _record_pages(self, config: MkDocsConfig) -> None:
        """Record every page this build wrote and drop the output of pages that are gone; give
        the search index every page's entries, in the order a clean build gives them (a --dirty
        build indexed only the pages it wrote)."""
        search_plugin = config.plugins.get("material/search")
        index = search_plugin.search_index if search_plugin else None
        fresh = by_page(index.entries) if index else {}
        entries, records = [], {}
        for page in self.doc_pages:
            src_uri = page.file.src_uri
            if src_uri in self.skipped:
                records[src_uri] = self.records.pages[src_uri]
            else:
                key = self.page_keys[src_uri]
                shown = self.keys.rendered(src_uri) if src_uri in self.keys.listings else None
                records[src_uri] = dirty.record(page, key, fresh.get(page.url, []), shown)
            entries += records[src_uri]["search"]
        self.records.replace(records)
        if index:
            index.entries = entries
            search_plugin.search_index_prev = None  # its own --dirty merge: entries are whole

    @event_priority(-100)  # after i18n has merged the languages' indexes (it is listed first)
    def _split_search(self, config: MkDocsConfig) -> None:
        if config.plugins["i18n"].building:
            return  # the build of another language, nested in the default one's
        if self.math:
            self.math.mathjax.close()
        if self.rendered_problems:  # every language's pages are built: all of them at once
            raise PluginError(str(BuildError(self.rendered_problems)))
        if self.later and self.next_build:
            # The server watches the file and starts the next build once it changes; a second
            # from now, so that the browsers it reloads now fetch the edited page and what it
            # loads before that build starts (the server holds every request while it builds).
            path = self.next_build
            self.next_timer = threading.Timer(1.0, path.write_text, [str(time.time_ns())])
            self.next_timer.daemon = True
            self.next_timer.start()
        offline_plugin = config.plugins.get("material/offline")
        offline_on = bool(offline_plugin and offline_plugin.config.enabled)
        search.split_index(Path(config.site_dir), self.languages, offline=offline_on)

    on_post_build = CombinedEvent(_record_pages, _split_search)
