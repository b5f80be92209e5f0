"""What an edit under `make serve` waits for: the pages it changed, not the pages that list
every card or page.

A listing page (an index, the handbook, practice mode, the list of references: a page that
names a value marked `listing`, or a tag listing) changes with every card edit, and at a few
hundred cards it costs more than the edited page itself. So while an author serves the site,
a rebuild that has other stale pages writes those first and leaves the stale listing pages, and
the exports made from every card, as they were; the build right after it brings them up to
date. Each page is still rebuilt exactly when its key says so (lockstep.records): a page left
here keeps its old key, so the next build sees it stale. A page with no output yet is never
left, and a one-off build (`mkdocs build`, with or without --dirty) leaves nothing.
"""

from __future__ import annotations

from collections.abc import Callable


def left_for_later(
    stale: set[str], listings: set[str], may_wait: Callable[[str], bool]
) -> set[str]:
    """The stale listing pages a rebuild leaves as they are, for the next build: every one that
    `may_wait` (it has output and a record), when a page that is not a listing is stale too;
    none otherwise (the listings are then what this build is for)."""
    if not stale - listings:
        return set()
    return {page for page in stale & listings if may_wait(page)}
