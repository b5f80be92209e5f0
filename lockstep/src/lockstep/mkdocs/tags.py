"""Sort keys for Material's tags plugin that order Chinese tags and titles by reading.

Material sorts tags and the pages listed under them by code point, which puts Chinese words
in no order a reader knows; its `tags_sort_by`, `listings_tags_sort_by` and
`listings_sort_by` options take a function, and these order by pinyin (lockstep.cjk.reading)."""

from __future__ import annotations

from lockstep.cjk import reading


def tag_by_reading(tag, *args) -> str:
    """A tag's sort key."""
    return reading(tag.name)


def item_by_reading(mapping) -> str:
    """A listed page's sort key: its title."""
    return reading(str(mapping.item.title))
