"""Site-level parity rules. Page by page, lockstep's pytest plugin compares every page and
notebook with its translation (the `docs/zh/...::translation en` items)."""

from tests.conftest import DOCS, LANGS, SITE


def test_docs_tree_has_only_the_languages_and_shared_assets():
    assert sorted(p.name for p in DOCS.iterdir() if p.is_dir()) == sorted([*LANGS, "assets"])
    assert not list(DOCS.glob("*.md")), "pages belong in a language's tree, not in docs/"


def test_shared_assets_are_not_generated():
    generated = [
        p for p in (DOCS / "assets").rglob("*") if "figures" in p.parts or p.suffix == ".svg"
    ]
    assert not generated, f"figures are built into .cache/, not committed: {generated}"


def test_every_language_has_the_same_pages_and_notebooks():
    pages = {lang: SITE.pages(lang) for lang in LANGS}
    assert all(pages[lang] == pages[SITE.languages.default] for lang in LANGS), pages
    assert any(p.startswith("notebooks/") and p.endswith(".py") for p in pages["en"])
