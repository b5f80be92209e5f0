"""The MkDocs plugin: lockstep's wiring into the build, and nothing else.

Registered as `lockstep` (entry point in pyproject.toml), configured in mkdocs.yml:

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
rebuilds only the pages whose inputs changed (lockstep/incremental.py).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files

from lockstep import (
    alternates,
    cjk,
    deps,
    fences,
    incremental,
    math,
    notebooks,
    offline,
    page_inputs,
    search,
    templates,
    vault,
)
from lockstep.cache import Cache
from lockstep.cards import anki, practice, render
from lockstep.cards.deck import Deck, read_card
from lockstep.cards.graph import graph
from lockstep.cards.map_svg import map_svg
from lockstep.config import LockstepOptions, Site
from lockstep.figures import Figures
from lockstep.i18n import add_generated, current_language
from lockstep.values import Values, browser_only, uncached

PACKAGE_DIR = Path(__file__).resolve().parent


class LockstepPlugin(BasePlugin[LockstepOptions]):
    """Keeps a bilingual MkDocs site in lock-step with the code it shows."""

    @event_priority(50)  # before Material's offline plugin reads extra.polyfills
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if getattr(self, "_config", None) is config:
            return config  # i18n's build of the next language: already set up
        self._config = config
        incremental.quiet_dirty_warning()
        site = Site.load(config.config_file_path)
        # `mkdocs serve` rebuilds in one process: re-import the site's code as it is now.
        deps.forget_project_modules(site.root, keep=PACKAGE_DIR)
        self.site, self.languages = site, site.languages
        if not config.repo_url:  # a relative edit_uri needs a repository (REPO_URL unset)
            config.edit_uri = None
        offline.use_local_shim(config)
        if "mkdocs-jupyter" in config.plugins:
            notebooks.keep_notebooks_as_pages()
        self.deck = Deck(site) if site.options.cards.vocabulary else None
        self.bibliography, self.glossary = site.bibliography(), site.glossary()
        self.values = Values({}, site.root, Cache(site.cache("values"), "md"))
        if site.options.values:
            self.values = Values.from_module(site.options.values, site.root, self.values.cache)
        if self.deck:
            self.values.add(self._deck_values(config))
        if self.bibliography:
            self.values.add({"bibliography": uncached(self._bibliography_listing)})
        if self.glossary:
            self.values.add({"glossary": uncached(self._glossary_table)})
        self.figures = (
            Figures(site.options.figures, site.root, Cache(site.cache("figures"), "svg"))
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

    def _deck_values(self, config: MkDocsConfig) -> dict:
        deck, substitute = self.deck, self.values.substitute

        def url_of(card_id: str) -> str:
            # The map's links are raw HTML, which MkDocs does not rewrite: written as the cards
            # index (a sibling of the cards) links to a card in this build's URL style, read
            # when the map is drawn (the offline plugin turns directory URLs off after us).
            return f"{card_id}/" if config.use_directory_urls else f"{card_id}.html"

        labels = deck.vocabulary.modules
        return {
            "cards_map": browser_only(
                lambda lang: map_svg(
                    graph(deck, lang),
                    {m: names[lang] for m, names in labels.items()},
                    url_of,
                    deck.vocabulary.labels["map"][lang],
                )
            ),
            "cards_practice": browser_only(lambda lang: practice.practice(deck, lang, substitute)),
            "cards_progress": browser_only(lambda lang: practice.summary(deck, lang)),
            "cards_table": uncached(lambda lang: render.deck_table(deck, lang)),
            "cards_relations": uncached(lambda lang: render.relations_table(deck, lang)),
            "cards_handbook": uncached(
                lambda lang: render.handbook(deck, lang, self.values.substitute)
            ),
        }

    def _bibliography_listing(self, lang: str) -> str:
        tree = self.site.tree(lang)
        pages = {
            page: (tree / page).read_text(encoding="utf-8")
            for page in self.site.pages(lang)
            if page.endswith(".md")
        }
        return self.bibliography.index(pages, lang)

    def _glossary_table(self, lang: str) -> str:
        return self.glossary.page_table(lang, self.languages.others(lang)[0])

    def _exported(self, text: str, lang: str) -> str:
        """Text for an export that has no page around it (the Anki decks): computed values in,
        citations written out without links."""
        text = self.values.substitute(text, lang, export=True)
        return self.bibliography.render(text, lang, links=False) if self.bibliography else text

    def on_pre_build(self, config: MkDocsConfig) -> None:
        if current_language(config) != self.languages.default:
            return  # once per `mkdocs build`: i18n runs a nested build per other language
        self._check_translations()
        if self.deck:
            problems = self.deck.check()
            if problems:
                raise PluginError(
                    "interview cards do not follow the format:\n  " + "\n  ".join(problems)
                )
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
            raise PluginError("missing translation(s):\n  " + "\n  ".join(missing))

    @event_priority(-200)  # after the i18n plugin has laid out this language's files
    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        lang = current_language(config)
        # What each page is made from: decides what a --dirty build rebuilds, and lets the
        # exports below reuse a page's note while its key stays the same.
        self.page_keys = page_inputs.keys(self.site, self.values, config, files, lang)
        self.records = incremental.PageRecords(self.site.cache("pages"), config.site_dir, lang)
        incremental.mark_modified(files.documentation_pages(), self.page_keys, self.records)
        by_path = {
            Path(f.abs_src_path).resolve(): self.page_keys[f.src_uri]
            for f in files.documentation_pages()
        }
        tree = self.site.tree(lang)
        if self.figures:
            for name in self.figures.names:
                src = f"{self.site.options.figures_dest}/{name}.{lang}.svg"
                add_generated(files, config, self.languages, src, path=self.figures.svg(name, lang))
        if self.math and lang == self.languages.default:
            # Every language's pages load extra_css from the site root: one copy.
            add_generated(files, config, self.languages, math.CSS_DEST, content=self.math.css())
        if self.deck:
            dest = f"{self.deck.options.anki_dest}/cards.{lang}.apkg"
            key_of = lambda card: by_path.get(card.path.resolve())  # noqa: E731
            content = anki.package(self.deck, lang, self._exported, key_of=key_of)
            add_generated(files, config, self.languages, dest, content=content)
        if self.site.options.vault_dest:
            dest = f"{self.site.options.vault_dest}/vault.{lang}.zip"
            content = vault.build(
                self.site,
                self.deck,
                lang,
                self._exported,
                self._figure(lang),
                key_of=lambda page: by_path.get((tree / page).resolve()),
            )
            add_generated(files, config, self.languages, dest, content=content)
        return files

    @event_priority(110)  # before the tags plugin (100) fills its listings from every page
    def on_env(self, env, config: MkDocsConfig, files: Files):
        templates.reuse_compiled(env)
        pages = [f.page for f in files.documentation_pages() if f.page is not None]
        skipped = incremental.skipped(pages)
        for page in skipped:
            incremental.restore(page, self.records.pages[page.file.src_uri], files)
        if skipped:
            incremental.recollect_tags(config.plugins.get("material/tags"), pages)
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
    def on_page_markdown(self, markdown: str, page, config: MkDocsConfig, files) -> str:
        lang = current_language(config)
        path = Path(page.file.abs_src_path).resolve() if page.file.abs_src_path else None
        if self.deck and path in self.card_paths:
            markdown = self._card_markdown(markdown, page, path, lang)
        markdown = fences.without_markers(self.values.substitute(markdown, lang))
        # Citations first (in Chinese they become full-width brackets, which line joining
        # needs to see), hover definitions last (their <abbr> tags would hide the words).
        if self.bibliography:
            markdown = self.bibliography.render(markdown, lang, where=page.file.src_uri)
        if lang in self.site.options.chinese:
            markdown = cjk.join_cjk_lines(markdown)
        if self.glossary:
            markdown = self.glossary.with_definitions(markdown, lang)
        return markdown

    def _card_markdown(self, markdown: str, page, path: Path, lang: str) -> str:
        card = read_card(path, lang)
        page.meta["tags"] = render.tag_labels(self.deck, card)  # ids in front matter, labels shown
        head, sep, rest = markdown.partition(f"# {card.title}\n")
        return f"{head}{sep}\n{render.meta_line(self.deck, card)}\n{rest}" if sep else markdown

    @event_priority(-10)  # after mkdocs-jupyter has given the notebook its render
    def on_pre_page(self, page, config: MkDocsConfig, files):
        if isinstance(page.file, notebooks.NotebookPage):
            lang = current_language(config)
            path = Path(page.file.abs_src_path)
            name = notebooks.cache_name(path, self.site.tree(lang), lang)
            options = config.plugins["mkdocs-jupyter"].config
            notebooks.cache_rendering(page, name, options, self.site.root, self.notebook_cache)
        return page

    def on_page_content(self, html: str, page, config: MkDocsConfig, files) -> str:
        if isinstance(page.file, notebooks.NotebookPage):
            html = notebooks.fix_html(html, page, files)
            if current_language(config) in self.site.options.chinese:
                html = cjk.join_cjk_html(html)
        return html

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        if template_name != "404.html":
            return output
        # Served for any missing address, at any depth: absolute links to each language's home.
        root = urlsplit(config.site_url or "/").path
        homes = {lang: root + self.languages.prefix(lang) for lang in self.languages}
        return alternates.language_menu_to_homes(alternates.drop_hreflang_links(output), homes)

    def on_post_page(self, output: str, page, config: MkDocsConfig) -> str:
        output = alternates.drop_hreflang_links(output)  # mkdocs-material#6582
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
        fresh = incremental.by_page(index.entries) if index else {}
        entries, records = [], {}
        for page in self.doc_pages:
            src_uri = page.file.src_uri
            if src_uri in self.skipped:
                records[src_uri] = self.records.pages[src_uri]
            else:
                key = self.page_keys[src_uri]
                records[src_uri] = incremental.record(page, key, fresh.get(page.url, []))
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
        offline_plugin = config.plugins.get("material/offline")
        offline_on = bool(offline_plugin and offline_plugin.config.enabled)
        search.split_index(Path(config.site_dir), self.languages, offline=offline_on)

    on_post_build = CombinedEvent(_record_pages, _split_search)
