"""Dirty rebuilds that redo only what changed and leave the site a clean build leaves.

MkDocs' `--dirty` (which `make serve` uses) rebuilds a page when its source is newer than its
output. That alone misses pages whose included snippet, computed value, nav or templates
changed, and a page it skips takes no part in what a build gathers from every page: the titles
in the nav, the anchors other pages link to, the search index, the tag listings.

Here a page counts as modified exactly when the digest of what its output is made from differs
from the digest recorded when that output was written (or the output is gone), and what the
build gathers from a page it skips is restored from that record. A clean build (no `--dirty`)
rebuilds every page and writes every record. Records live in the build cache, one file per
site folder and language.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from lockstep.cache import write_atomic

VERSION = 2  # of the record format: a change makes every record stale
T = TypeVar("T")


def text_digest(*parts: object) -> str:
    """16 hex digits over the JSON of `parts`."""
    data = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


class PageRecords:
    """What the last build that wrote a page into one site folder recorded about it."""

    def __init__(self, folder: Path, site_dir: str, lang: str):
        site = str(Path(site_dir).resolve())
        self.folder, self.name = Path(folder), text_digest(site)
        self.path = self.folder / f"{self.name}.{lang}.json"
        self.pages: dict[str, dict] = {}
        if self.path.is_file():
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("version") == VERSION and data.get("site_dir") == site:
                self.pages = data["pages"]
        self.site = site

    def replace(self, pages: dict[str, dict]) -> None:
        """Make `pages` the records, remove the output of each page that is no longer built
        (a --dirty build leaves it; a clean build has none), and write the records (atomically:
        after a crash the old ones are stale, which rebuilds their pages)."""
        for src_uri in self.pages.keys() - pages.keys():
            (Path(self.site) / self.pages[src_uri]["dest"]).unlink(missing_ok=True)
        self.pages = pages
        data = {"version": VERSION, "site_dir": self.site, "pages": pages}
        write_atomic(self.path, json.dumps(data, ensure_ascii=False, default=str).encode())
        write_atomic(self.folder / f"{self.name}.site", self.site.encode())
        self._prune()

    def _prune(self) -> None:
        """Drop the records of site folders that are gone: `mkdocs serve` builds into a new
        temporary folder each time it starts."""
        for marker in self.folder.glob("*.site"):
            try:
                site = marker.read_text(encoding="utf-8")
            except FileNotFoundError:  # pruned meanwhile by another build sharing the cache
                continue
            if not Path(site).is_dir():
                for stale in self.folder.glob(f"{marker.stem}.*"):
                    stale.unlink(missing_ok=True)


def mark_modified(pages: Iterable[File], keys: dict[str, str | None], records: PageRecords) -> None:
    """Tell a --dirty build which pages to rebuild: those without a key, those whose key is not
    the recorded one, those whose output is missing."""
    for file in pages:
        record = records.pages.get(file.src_uri)
        same = (
            record is not None
            and keys[file.src_uri] is not None
            and record["key"] == keys[file.src_uri]
            and Path(file.abs_dest_path).is_file()
        )
        # MkDocs reads this only in a --dirty build; a clean build rebuilds every page anyway.
        file.is_modified = (lambda: False) if same else (lambda: True)


def skipped(pages: Iterable[Page]) -> list[Page]:
    """The pages this build did not read (a --dirty build skipped them)."""
    return [page for page in pages if page.markdown is None]


def restore(page: Page, record: dict, files: Files) -> None:
    """Give a skipped page what the build reads from every page, as it was when written."""
    page.title = record["title"]
    page.meta = record["meta"]
    page.present_anchor_ids = set(record["anchors"])
    links = {}
    for src_uri, anchors in record["links"].items():
        target = files.get_file_from_path(src_uri)
        if target is not None:  # a page that is gone: the key (which lists the files) changed
            links[target] = anchors
    page.links_to_anchors = links


def record(page: Page, key: str | None, entries: list[dict]) -> dict:
    """What to remember of a page just written: its key and what the build gathered from it."""
    links = page.links_to_anchors or {}
    return {
        "key": key,
        "dest": page.file.dest_uri,
        "title": page.title,
        "meta": page.meta,
        "anchors": sorted(page.present_anchor_ids or ()),
        "links": {file.src_uri: anchors for file, anchors in links.items()},
        "search": entries,
    }


def recollect_tags(tags_plugin, pages: list[Page]) -> None:
    """Give Material's tags plugin every page's tags, in the order of `pages`: it collects them
    while it reads a page (on_page_markdown), and a --dirty build did not read the pages it
    skipped. Nothing to do without the plugin."""
    if not (tags_plugin and tags_plugin.config.enabled):
        return
    tags_plugin.mappings.data.clear()  # its listings list pages in the order they were added
    for page in pages:
        tags_plugin.mappings.add(page, "")  # reads page.meta; the Markdown is not looked at


def by_page(entries: list[dict]) -> dict[str, list[dict]]:
    """Search entries grouped by the page they belong to (their location without the anchor)."""
    grouped: dict[str, list[dict]] = {}
    for entry in entries:
        grouped.setdefault(entry["location"].split("#", 1)[0], []).append(entry)
    return grouped


DIRTY_WARNING = "A 'dirty' build is being performed"


class _DirtyWarningFilter:
    """Drops MkDocs' warning that a --dirty build may leave navigation and links inaccurate:
    with the records above it does not, and under `strict` the warning would fail the build."""

    def filter(self, record) -> bool:
        return not str(record.msg).startswith(DIRTY_WARNING)


def quiet_dirty_warning() -> None:
    """Install the filter once on MkDocs' build logger."""
    logger = logging.getLogger("mkdocs.commands.build")
    if not any(isinstance(f, _DirtyWarningFilter) for f in logger.filters):
        logger.addFilter(_DirtyWarningFilter())


_REMEMBERED: dict[tuple, tuple[str, object]] = {}


def remembered(slot: tuple, key: str | None, make: Callable[[], T]) -> T:
    """What make() returns, remembered in this process (`mkdocs serve` rebuilds in one) for
    `slot` while its key stays the same; a None key is never remembered."""
    if key is not None:
        hit = _REMEMBERED.get(slot)
        if hit is not None and hit[0] == key:
            return hit[1]
    value = make()
    if key is not None:
        _REMEMBERED[slot] = (key, value)
    return value
