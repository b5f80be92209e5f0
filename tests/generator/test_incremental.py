"""Rebuilds: an edit remakes exactly the outputs made from the edited file (nothing for a
comment or a page's prose), a dirty rebuild writes exactly the pages made from what changed and
leaves the bytes a clean build leaves, and still fails on a broken link or a missing figure;
and the pieces (included files, keys by what code does, remembered exports) one by one. What
`make serve` adds (the edited page first, the listings next) is in test_serve.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from attention_site import derivation_tables
from lockstep import cache, includes
from lockstep.cache import digest
from lockstep.records import PageRecords, by_page
from tests.conftest import (
    DOCS,
    LANGS,
    OFFLINE_ZIP,
    PUBLISHED,
    REPOSITORY,
    ROOT,
    SITE,
    copy_project,
    mkdocs_build,
)
from tests.test_build import _break, _failed_with
from tests.test_exports import notes

SNIPPET = "snippets/variance.py"  # included by why-dot-product-grows in both languages
CODE = "snippets/softcap.py"  # draws the softcap figure; the derivation tables import it
CARD = "docs/en/cards/why-scale.md"
BROKEN = "why-dot-product-grows"  # the page given a broken link (zh) and a missing figure (en)
# In CARD's derivation, a depth section: only the card's own page shows it.
PHRASE, EDITED = "looks at almost a single key", "looks at nearly a single key"
COMMENT = "# a comment added while writing\n"
EXAMPLE = ROOT / "examples" / "minimal"
EXAMPLE_SNIPPET = "dice/rolls.py"  # included by the example's page in both languages


def test_included_files_follow_inline_block_and_nested_includes(tmp_path):
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "b.md").write_text('--8<-- "c.txt"\n')
    (tmp_path / "c.txt").write_text("c\n")
    text = '```python\n--8<-- "a.py:section"\n```\n\n--8<--\nb.md\n--8<--\n--8<-- "gone.py"\n'
    found = includes.included_files(text, tmp_path, {"base_path": ["."]})
    assert found == [tmp_path / "a.py", tmp_path / "b.md", tmp_path / "c.txt"]


def test_a_comment_changes_what_code_is_keyed_on_only_where_the_text_is_shown(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("X = 1\n")
    as_code, as_text = digest([module], tmp_path, code=True), digest([module], tmp_path)
    module.write_text(f"{COMMENT}X = 1\n")
    assert digest([module], tmp_path, code=True) == as_code
    assert digest([module], tmp_path) != as_text
    module.write_text("X = 2\n")
    assert digest([module], tmp_path, code=True) != as_code


def test_remembered_reuses_a_value_only_under_the_same_key():
    made = []

    def make(value):
        return lambda: made.append(value) or value

    slot = ("test", "remembered")
    assert cache.remembered(slot, "k1", make("one")) == "one"
    assert cache.remembered(slot, "k1", make("two")) == "one"
    assert cache.remembered(slot, "k2", make("three")) == "three"
    assert cache.remembered(slot, None, make("four")) == "four"
    assert made == ["one", "three", "four"]


def test_records_drop_the_output_of_a_page_that_is_gone(tmp_path):
    site = tmp_path / "site"
    (site / "gone").mkdir(parents=True)
    (site / "gone/index.html").write_text("old")
    records = PageRecords(tmp_path / "records", str(site), "en")
    records.replace({"gone.md": {"key": "k", "dest": "gone/index.html"}})
    assert PageRecords(tmp_path / "records", str(site), "en").pages == records.pages
    records.replace({})
    assert not (site / "gone/index.html").exists()
    other = tmp_path / "served"  # a folder `mkdocs serve` built into, and then removed
    other.mkdir()
    PageRecords(tmp_path / "records", str(other), "en").replace({})
    other.rmdir()
    records.replace({})
    assert sorted(p.suffix for p in (tmp_path / "records").iterdir()) == [".json", ".site"]


def test_search_entries_are_grouped_by_their_page():
    entries = [{"location": "a/"}, {"location": "a/#x"}, {"location": "a/b/"}]
    assert by_page(entries) == {"a/": entries[:2], "a/b/": entries[2:]}


def _edit(project: Path) -> dict[Path, str]:
    """A comment in a snippet, a line of a card's depth, and a one-line change to the code of a
    figure and of the derivation tables (the module those import); what the files held."""
    before = {path: (project / path).read_text(encoding="utf-8") for path in (SNIPPET, CARD, CODE)}
    assert PHRASE in before[CARD], f"update this test: the phrase left {CARD}"
    (project / SNIPPET).write_text(COMMENT + before[SNIPPET], encoding="utf-8")
    (project / CARD).write_text(before[CARD].replace(PHRASE, EDITED), encoding="utf-8")
    edited_code = before[CODE] + "EDITED = True  # a one-line edit to the code\n"
    (project / CODE).write_text(edited_code, encoding="utf-8")
    return before


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def _outputs(cache: Path) -> dict[str, str]:
    """kind/name -> digest of every output in a build cache (not the records of built pages)."""
    return {
        p.parent.relative_to(cache).as_posix(): p.stem
        for p in cache.rglob("*")
        if p.is_file() and not p.name.startswith(".") and p.parts[len(cache.parts)] != "pages"
    }


def _pages_showing(values) -> set[str]:
    """The built pages (both languages) whose source shows one of `values`."""
    pages = set()
    for lang in LANGS:
        for md in (DOCS / lang).rglob("*.md"):
            if any(f"{{{{ {name}" in md.read_text(encoding="utf-8") for name in values):
                page = md.relative_to(DOCS / lang).with_suffix("").as_posix()
                pages.add(SITE.languages.prefix(lang) + page.removesuffix("index") + "/index.html")
    return {page.replace("//", "/").lstrip("/") for page in pages}


def _downloads() -> set[str]:
    """What `make downloads` adds to a build: the handbook file and PDF per language, the
    offline zip (tests/site_builds.py)."""
    dest = SITE.options.cards.anki_dest
    handbooks = {
        f"{SITE.languages.prefix(lang)}{dest}/handbook.{lang}.{ext}"
        for lang in LANGS
        for ext in ("html", "pdf")
    }
    return handbooks | {f"{dest}/{OFFLINE_ZIP}"}


@pytest.fixture(scope="module")
def edited_copy(built_site, tmp_path_factory) -> tuple[Path, Path, dict, dict[Path, str]]:
    """A copy of the project and of the shared clean build, the edit in, rebuilt dirty on the
    cache and the page records that build left: (project, site, env, what the edited files
    held). The two tests below use it in turn, on one worker (xdist_group; `make test` runs
    pytest with --dist loadgroup)."""
    tmp_path = tmp_path_factory.mktemp("edited")
    project = copy_project(tmp_path / "project", share_cache=False)
    shutil.copytree(ROOT / ".cache", project / ".cache")
    dirty = shutil.copytree(built_site, tmp_path / "dirty")
    for name in _downloads():  # added after the build (tests/site_builds.py), not by it
        (dirty / name).unlink()
    records = project / SITE.options.cache_dir / "pages"
    for lang in LANGS:  # the clean build's records, as if it had been built into the copy
        clean = PageRecords(records, str(built_site), lang)
        assert clean.pages, f"the shared build left no {lang} page records"
        PageRecords(records, str(dirty), lang).replace(clean.pages)
    env = {  # the copy's snippets are what its build imports; published as the shared build
        "PYTHONPATH": str(project),
        "SITE_URL": PUBLISHED,
        "REPO_URL": REPOSITORY,
    }
    original = _edit(project)
    result = mkdocs_build(project, dirty, env=env, extra=["--dirty"])
    assert result.returncode == 0, result.stderr[-3000:]
    return project, dirty, env, original


@pytest.mark.slow
@pytest.mark.xdist_group("edited_copy")
def test_an_edit_remakes_only_its_outputs_and_pages_and_leaves_a_clean_builds_bytes(
    built_site, edited_copy, tmp_path
):
    # The clean build to compare with is the shared one: the project as it is, built as
    # published. The copy was built dirty with an edit in; the edit is now taken back and the
    # copy rebuilt dirty: it must remake what the edited files feed and nothing else, and leave
    # the clean build's bytes.
    project, dirty, env, original = edited_copy
    assert COMMENT.strip() in (dirty / "en/why-dot-product-grows/index.html").read_text("utf-8")
    assert EDITED in (dirty / "en/cards/why-scale/index.html").read_text("utf-8")
    before = {p: p.stat().st_mtime_ns for p in dirty.rglob("*.html")}
    outputs = _outputs(project / ".cache")
    for path, text in original.items():  # the edit, taken back
        (project / path).write_text(text, encoding="utf-8")
    result = mkdocs_build(project, dirty, env=env, extra=["--dirty"])
    assert result.returncode == 0, result.stderr[-3000:]
    remade = _outputs(project / ".cache")
    assert remade.keys() == outputs.keys()
    # CODE feeds its figure and the derivation tables' module (which imports it); a comment and
    # a page's prose remake nothing.
    expected = {f"figures/softcap.{lang}" for lang in LANGS}
    expected |= {f"values/{name}.{lang}" for name in derivation_tables.VALUES for lang in LANGS}
    assert {name for name in remade if remade[name] != outputs[name]} == expected
    rewritten = {
        p.relative_to(dirty).as_posix() for p in before if p.stat().st_mtime_ns != before[p]
    }
    assert rewritten == {
        "404.html",  # every build writes the theme's own templates
        "why-dot-product-grows/index.html",  # both languages include the snippet
        "en/why-dot-product-grows/index.html",
        "en/cards/why-scale/index.html",  # the edited card (a line of its depth: the handbook,
        # practice mode and the cards index show only other parts, so they keep their bytes)
    } | _pages_showing(derivation_tables.VALUES)
    dirty_files, clean_files = _files(dirty), _files(built_site)
    assert clean_files.keys() - dirty_files.keys() == _downloads()
    assert dirty_files.keys() <= clean_files.keys()
    differ = [name for name in dirty_files if dirty_files[name] != clean_files[name]]
    # A deck carries its cards' last change and counts its note ids up from its own time: the
    # commit's time in the repository, the file's in the copy (lockstep/changed.py). The rest
    # of each note is the same.
    decks = [name for name in differ if name.endswith(".apkg")]
    assert [name for name in differ if name not in decks] == []
    for name in decks:
        (ours, our_decks), (theirs, their_decks) = (
            notes(site / name, tmp_path) for site in (dirty, built_site)
        )
        assert [n[1:] for n in ours] == [n[1:] for n in theirs] and our_decks == their_decks, name


@pytest.mark.xdist_group("edited_copy")
def test_a_broken_link_and_a_missing_figure_fail_a_dirty_rebuild_naming_them(edited_copy):
    # The link checks of the strict build, reported together at its end. A dirty rebuild
    # renders only the pages that changed, and still checks them as a clean build does.
    project, dirty, env, _ = edited_copy
    zh, en = f"docs/zh/{BROKEN}.md", f"docs/en/{BROKEN}.md"
    _break(project, zh, "## 假设", "## 假设\n\n[坏链接](no-such-page.md)")
    _break(project, en, "qk_distribution.en.svg", "no_such_figure.en.svg")
    try:
        result = mkdocs_build(project, dirty, env=env, extra=["--dirty"])
    finally:  # the copy's pages are the project's
        for path in (zh, en):
            shutil.copy(ROOT / path, project / path)
    _failed_with(result, "no-such-page.md", "no_such_figure.en.svg", f"{BROKEN}.md")


def test_every_file_a_page_includes_is_watched_by_serve():
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    watched = [Path(config.docs_dir), *(Path(w) for w in config.watch)]
    pages = [DOCS / lang / page for lang in LANGS for page in SITE.pages(lang)]
    included = {
        path
        for page in pages
        for path in includes.included_files(page.read_text("utf-8"), ROOT, SITE.snippets_options)
    }
    assert len(included) > 10  # the pages' snippets and kernels
    unwatched = sorted(str(p) for p in included if not any(p.is_relative_to(w) for w in watched))
    assert unwatched == [], "add their folders to `watch:` in mkdocs.yml"
