"""Incremental rebuilds under MkDocs: `mkdocs serve --dirty` redoes only what changed and
leaves the site a clean build leaves.

MkDocs' `--dirty` rebuilds a page when its source is newer than its output. That alone misses
pages whose included snippet, computed value, nav or templates changed, and a page it skips
takes no part in what a build gathers from every page: the titles in the nav, the anchors
other pages link to, the search index, the tag listings. Here a page is rebuilt exactly when
its record (lockstep/records.py) says it is stale, and what the build gathers from a page it
skips is restored from that record. A clean build rebuilds every page and writes every record.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from lockstep.page_inputs import TAGS_LISTING
from lockstep.records import PageRecords


def stale(pages: Iterable[File], keys: dict[str, str | None], records: PageRecords) -> set[str]:
    """The pages to rebuild: those without a key, those whose key is not the recorded one,
    those whose output is missing."""
    out = set()
    for file in pages:
        record, key = records.pages.get(file.src_uri), keys[file.src_uri]
        if not (record is not None and key is not None and record["key"] == key):
            out.add(file.src_uri)
        elif not is_written(file):
            out.add(file.src_uri)
    return out


def is_written(file: File) -> bool:
    """Whether the page's output is in the site folder."""
    return Path(file.abs_dest_path).is_file()


def mark_modified(pages: Iterable[File], rebuild: set[str]) -> None:
    """Tell a --dirty build which pages to rebuild."""
    for file in pages:
        # MkDocs reads this only in a --dirty build; a clean build rebuilds every page anyway.
        file.is_modified = (lambda: True) if file.src_uri in rebuild else (lambda: False)


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


def record(page: Page, key: str | None, entries: list[dict], rendered: str | None = None) -> dict:
    """What to remember of a page just written: its key, for a listing page what it shows
    (lockstep.page_inputs.PageKeys.rendered), and what the build gathered from it."""
    links = page.links_to_anchors or {}
    return {
        "key": key,
        "rendered": rendered,
        "dest": page.file.dest_uri,
        "title": page.title,
        "meta": page.meta,
        "anchors": sorted(page.present_anchor_ids or ()),
        "links": {file.src_uri: anchors for file, anchors in links.items()},
        "search": entries,
    }


def recollect_tags(tags_plugin, pages: list[Page], skipped: list[Page]) -> None:
    """Give Material's tags plugin every page's tags, in the order of `pages`, and the tag
    listings of the skipped pages: it collects both while it reads a page (on_page_markdown),
    and a --dirty build did not read the pages it skipped. The listings tell it where every
    page's tags link to. Nothing to do without the plugin."""
    if not (tags_plugin and tags_plugin.config.enabled):
        return
    tags_plugin.mappings.data.clear()  # its listings list pages in the order they were added
    for page in pages:
        tags_plugin.mappings.add(page, "")  # reads page.meta; the Markdown is not looked at
    for page in skipped:
        source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
        if TAGS_LISTING in source:
            tags_plugin.listings.add(page, source)  # reads only its listing directives
            page.content = ""  # what the plugin fills in; a skipped page is not written


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
