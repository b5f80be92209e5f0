"""bench.site grows a deck the site accepts, and its committed results are the ones the
benchmarks page shows. A benchmark, not a timed test: nothing here judges the numbers."""

from __future__ import annotations

import json

import yaml

from bench.site import BEFORE, EDITS, RESULTS, SERVE_FLAGS, SIZES, TARGETS, checked_row, grow_deck
from lockstep.cards.deck import Deck
from lockstep.mkdocs.config_file import load_site
from tests.conftest import LANGS, copy_project, lang_dir


def test_a_grown_deck_passes_the_card_checks_and_is_in_the_nav(tmp_path):
    project = copy_project(tmp_path)
    site = load_site(project / "mkdocs.yml")
    size = len(Deck(site).cards(site.languages.default)) + 3  # three copies past today's deck
    assert grow_deck(project, size) == size
    deck = Deck(load_site(project / "mkdocs.yml"))
    assert deck.check() == []
    ids = {lang: sorted(card.id for card in deck.cards(lang)) for lang in LANGS}
    assert all(len(ids[lang]) == size for lang in LANGS) and len(set(map(tuple, ids.values()))) == 1
    nav = yaml.load((project / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    listed = [entry for entry in _leaves(nav["nav"]) if entry.startswith("cards/")]
    assert {f"cards/{i}.md" for i in ids[LANGS[0]]} <= set(listed)


def test_committed_results_cover_every_size_and_target(built_site):
    report = json.loads(RESULTS.read_text(encoding="utf-8"))
    rows = report["results"]
    sizes = sorted(r["cards_per_language"] for r in rows)
    # A size below the deck's own measures the deck as it is.
    assert len(sizes) == len(SIZES)
    assert all(n >= s for n, s in zip(sizes, sorted(SIZES), strict=True))
    assert report["date"] and report["machine"]["cpus"]
    for column, targets in TARGETS.items():
        assert all(column in (checked_row(rows, n) or {}) for n in targets), column
    before = json.loads((RESULTS.parent / f"{BEFORE}.json").read_text(encoding="utf-8"))
    for lang in LANGS:  # the page shows each measured time, after and before, as measured
        page = (lang_dir(built_site, lang) / "kernels/benchmarks/index.html").read_text("utf-8")
        for row in rows + before["results"]:
            assert f"{row['cold_build_s']:.1f}" in page and f"{row['prose_edit_s']:.1f}" in page


def test_each_timed_edit_still_applies_and_shows_on_a_built_page(built_site):
    # An edit whose text left its file stops the benchmark at that edit: it happened once.
    from tests.conftest import ROOT

    for name, (path, old, new, urls, later) in EDITS.items():
        assert (ROOT / path).read_text(encoding="utf-8").count(old) == 1, f"{name}: {path}"
        assert old != new
        for url in [*urls, *later]:
            built = built_site / url
            assert (built / "index.html" if url.endswith("/") else built).is_file(), url


def test_the_benchmark_serves_the_site_as_make_serve_does():
    from tests.conftest import ROOT

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    serve = next(line for line in makefile.splitlines() if "mkdocs serve" in line)
    assert all(flag in serve.split() for flag in SERVE_FLAGS)


def test_readme_states_the_committed_build_times():
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Builds and tests", 1)[1].split("\n#", 1)[0]
    rows = {r.split("|")[1].strip(): r for r in section.splitlines() if r.startswith("| `make")}
    results = json.loads(RESULTS.read_text("utf-8"))["results"]
    today = min(results, key=lambda r: r["cards_per_language"])  # the deck as it is
    cold = next(row for name, row in rows.items() if name.startswith("`make build`, cold"))
    warm = next(row for name, row in rows.items() if name.startswith("`make build`, warm"))
    assert (
        f"| {today['cold_build_s']:.1f} s |" in cold
        and f"| {today['warm_build_s']:.1f} s |" in warm
    )


def test_readme_states_the_committed_edit_times_before_and_after():
    # The README's table of edit-to-preview times under `make serve`: every cell is the
    # committed result (before: bench/results/site-2026-12-01.json; after: site.json).
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Editing under `make serve`", 1)[1].split("\n#", 1)[0]
    table = {
        r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:-1]]
        for r in section.splitlines()
        if r.startswith("| ") and r.split("|")[1].strip().isdigit()
    }
    before = json.loads((RESULTS.parent / f"{BEFORE}.json").read_text("utf-8"))["results"]
    after = json.loads(RESULTS.read_text("utf-8"))["results"]
    columns = [(before, "prose_edit_s"), (after, "prose_edit_s"), (after, "prose_listings_s")]
    columns += [(before, "snippet_edit_s"), (after, "snippet_edit_s")]
    sizes = {r["cards_per_language"] for r in before + after}
    assert set(table) == {str(n) for n in sizes}
    for n in sizes:
        for (rows, column), cell in zip(columns, table[str(n)], strict=True):
            row = next((r for r in rows if r["cards_per_language"] == n), None)
            assert cell == (f"{row[column]:.2f} s" if row else "–"), (n, column)


def _leaves(nav) -> list[str]:
    """Every page path of a nav, however deep its sections nest."""
    if isinstance(nav, str):
        return [nav]
    items = nav.values() if isinstance(nav, dict) else nav
    return [leaf for item in items for leaf in _leaves(item)]


def test_the_deck_sizes_the_benchmarks_page_states_are_the_ones_measured():
    # The page names the sizes in prose (stated numbers, not computed): those said to be
    # bench/site.py's SIZES are SIZES, and the one said to be the earlier run's is its size.
    from tests.conftest import ROOT

    stated = yaml.safe_load((ROOT / "attention_site/stated_numbers.yml").read_text("utf-8"))
    why = stated["kernels/benchmarks.md"]
    now = {int(n) for n, reason in why.items() if "bench/site.py SIZES" in reason}
    earlier = {int(n) for n, reason in why.items() if f"{BEFORE}.json" in reason}
    assert now == set(SIZES)
    before = json.loads((RESULTS.parent / f"{BEFORE}.json").read_text(encoding="utf-8"))
    assert earlier == {min(r["cards_per_language"] for r in before["results"])}
