"""Every number a reader sees in a page's prose is computed on that page, or is a stated input.

Cards have the same check in tests/test_cards.py. A number here may be listed as an input or
a citation (a section, an equation, an arXiv id, a title) — never a result: a result belongs in
an executed block's checked output or in a {{ computed }} value.
"""

import pytest

from tests.docs_blocks import DOCS, unchecked_numbers

# Page -> numbers that are inputs or citations, not results, and why.
NOT_RESULTS = {
    "why-dot-product-grows.md": {"3.2.1"},  # section of the Transformer paper
    "derivation/saturation.md": {"1024", "22", "3.2.1"},  # sweep range; ViT-22B title; section
    "derivation/history.md": {"3.1", "3.2.1", "4.1", "2203.03466"},  # sections, Definition, arXiv
    "derivation/long-context.md": {"3.2", "2507.20534"},  # section, arXiv
    "derivation/recap.md": {"22", "3.1", "3.2", "3.2.1", "4.1", "2203.03466", "2507.20534"},
    "derivation/implementation.md": {"14", "3.2.1", "3.2.2", "2104.09864"},  # equation, sections
    # Gemma 2's final-logit cap and Grok-1's attention cap (both cited), the Transformer's
    # d_model = 512, sections, a Definition and arXiv ids.
    "derivation/variants.md": {
        "30",
        "30.0",
        "512",
        "3.2",
        "3.2.2",
        "4.1",
        "2203.03466",
        "2408.00118",
    },
    "derivation/worked-example.md": {"1024"},  # the range of d_k on the saturation page
    "kernels/online-softmax.md": {"10"},  # the logits ±10^4 of the demo (1e4 in its code)
    "kernels/benchmarks.md": {"64", "128", "1024", "4096", "16384"},  # configurations measured
}

PAGES = sorted(
    p.relative_to(DOCS / "en").as_posix()
    for p in (DOCS / "en").rglob("*.md")
    if p.relative_to(DOCS / "en").parts[0] != "cards"
)


@pytest.mark.parametrize("page", PAGES)
def test_numbers_in_prose_are_computed_on_the_page(page):
    # Parity guarantees zh has the same numbers; checking en covers both.
    text = (DOCS / "en" / page).read_text(encoding="utf-8")
    missing = sorted(set(unchecked_numbers(text)) - NOT_RESULTS.get(page, set()))
    assert not missing, (
        f"docs/en/{page}: {missing} appear in the prose but in no code block or checked output "
        "of the page: compute them, use a {{ computed }} value, or list an input in NOT_RESULTS"
    )


def test_listed_exemptions_still_occur():
    for page, numbers in NOT_RESULTS.items():
        text = (DOCS / "en" / page).read_text(encoding="utf-8")
        stale = {n for n in numbers if n not in text}
        assert not stale, f"{page}: exemptions {stale} no longer occur; remove them"
