"""Numbers a reader sees in prose, and which of them no code on the page shows.

A number in prose is either computed next to it (an executed block or its checked output
shows it), inserted by the build (`{{ name }}`, so not in the source), or stated on purpose:
an input or a citation (a paper's section, a model's published size) that the site lists
with its reason. Anything else is a hand-typed result that can drift from the math.
"""

from __future__ import annotations

import re

from lockstep import fences, includes
from lockstep.citations import without_citations
from lockstep.frontmatter import split_front_matter
from lockstep.markup import without_targets
from lockstep.site import Site

# Digits, optionally with a decimal part; not part of a word, a path or a longer number.
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?![\w])")
YEAR = re.compile(r"(19|20)\d\d")


def prose_numbers(text: str) -> list[str]:
    """The numbers in a page's prose (front matter, fences, link targets and citations, whose
    locators are a source's sections, left out), sorted."""
    _, body = split_front_matter(text)
    return sorted(NUMBER.findall(without_citations(without_targets(fences.prose(body)))))


def shown_by_code(text: str, site: Site) -> set[str]:
    """Every number that the page's fences (includes expanded) show."""
    _, body = split_front_matter(text)
    code = " ".join(
        includes.expand(f.code, site.root, site.snippets_options) for f in fences.scan(body)
    )
    code = re.sub(r"(?<=\d)_(?=\d)", "", code)  # 10_000 in code is 10000 in prose
    return set(re.findall(r"\d+(?:\.\d+)*", code)) | set(re.findall(r"\d+", code))


def unchecked_numbers(text: str, site: Site, stated: set[str] = frozenset()) -> list[str]:
    """Numbers in the prose that no fence of the page shows and that are not `stated`.

    Years and single digits are exempt: they are read, not computed.
    """
    shown = shown_by_code(text, site) | set(stated)
    return sorted(
        {n for n in prose_numbers(text) if n not in shown and len(n) > 1 and not YEAR.fullmatch(n)}
    )


def stated_numbers(site: Site) -> dict[str, dict[str, str]]:
    """page (relative to a language tree) -> {number: why it is not computed}, from the YAML
    file of the `stated_numbers` option. Numbers must be quoted: YAML reads 3.20 as 3.2."""
    if not site.options.stated_numbers:
        return {}
    from lockstep import yaml_data

    with open(site.options.stated_numbers, encoding="utf-8") as fh:
        data = yaml_data.load(fh) or {}
    for page, numbers in data.items():
        unquoted = [n for n in numbers if not isinstance(n, str)]
        if unquoted:
            raise ValueError(f"{site.options.stated_numbers}: {page}: quote the numbers {unquoted}")
    return data


def cited_sources(stated: dict[str, str]) -> dict[str, str]:
    """number -> bibliography key, for the stated numbers whose reason starts "@key:" (a
    number taken from a cited work; the page must cite that work)."""
    return {n: why[1:].split(":", 1)[0].strip() for n, why in stated.items() if why.startswith("@")}
