"""What a build remembers of each page it wrote, so that a later build that skips the page
(an incremental rebuild) can give the rest of the site what that page contributed.

A page counts as modified exactly when the digest of what its output is made from
(lockstep.page_inputs) differs from the digest recorded when that output was written, or the
output is gone. Records live in the build cache, one file per site folder and language; a
record holds the page's key and what the build gathers from every page (title, metadata,
anchors, links to anchors, search entries). The engine's adapter decides which pages it
skips and restores them from here (lockstep/mkdocs/dirty.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from lockstep.cache import text_digest, write_atomic

VERSION = 3  # of the record format: a change makes every record stale


class PageRecords:
    """What the last build that wrote a page into one site folder recorded about it."""

    def __init__(self, folder: Path, site_dir: str, lang: str):
        site = str(Path(site_dir).resolve())
        self.folder, self.name = Path(folder), text_digest(site)
        self.path = self.folder / f"{self.name}.{lang}.json"
        self.pages: dict[str, dict] = {}
        self.renewed = False
        if self.path.is_file():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError):
                data = {}  # unreadable: every page counts as stale and is rebuilt
            if data.get("version") == VERSION and data.get("site_dir") == site:
                self.pages = data["pages"]
        self.site = site

    def renew(self, src_uri: str, key: str) -> None:
        """Record a new key for a page whose output it would not change (it is not rewritten)."""
        self.pages[src_uri] = {**self.pages[src_uri], "key": key}
        self.renewed = True

    def replace(self, pages: dict[str, dict]) -> None:
        """Make `pages` the records, remove the output of each page that is no longer built
        (a --dirty build leaves it; a clean build has none), and write the records (atomically:
        after a crash the old ones are stale, which rebuilds their pages)."""
        for src_uri in self.pages.keys() - pages.keys():
            (Path(self.site) / self.pages[src_uri]["dest"]).unlink(missing_ok=True)
        # A rebuild that wrote nothing and renewed no key leaves the file as it is.
        unchanged = not self.renewed and pages == self.pages and self.path.is_file()
        self.pages = pages
        if not unchanged:
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


def by_page(entries: list[dict]) -> dict[str, list[dict]]:
    """Search entries grouped by the page they belong to (their location without the anchor)."""
    grouped: dict[str, list[dict]] = {}
    for entry in entries:
        grouped.setdefault(entry["location"].split("#", 1)[0], []).append(entry)
    return grouped
