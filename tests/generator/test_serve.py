"""`mkdocs serve --dirty` shows an edit before the pages that list every page: the rebuild
after an edit writes the edited page and leaves the listing as it was, asks for the next build,
and that build brings the listing up to date and leaves a clean build's bytes; a real server
starts that build itself. Shown on a copy of the example site given a second page and a list
of every page's opening line (a `listing` value) on its first."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.site import LIVERELOAD, SERVE_FLAGS, fetch, free_port, wait_until
from tests.conftest import ROOT, mkdocs_build

pytestmark = pytest.mark.build
EXAMPLE = ROOT / "examples" / "minimal"
STEPS = Path(__file__).with_name("serve_rebuilds.py")
SNIPPET = "dice/rolls.py"  # included by the example's first page in both languages
COMMENT = "# a comment added while writing\n"
PAGES = {
    "en": "# Two dice\n\nTwo dice sum to seven most often.\n",
    "zh": "# 两颗骰子\n\n两颗骰子之和最常见的是七。\n",
}
OLD, NEW = "seven most often", "seven more often than any other sum"
LISTING = '''

from pathlib import Path

from lockstep.values import listing


@listing  # it reads every page
def openings(lang: str) -> str:
    """Each other page's opening line."""
    docs = Path(__file__).resolve().parent.parent / "docs" / lang
    pages = sorted(p for p in docs.glob("*.md") if p.name != "index.md")
    return "\\n".join(f"- {p.read_text(encoding='utf-8').splitlines()[2]}" for p in pages)


VALUES["openings"] = openings
'''
# What `mkdocs serve` builds for (serve_rebuilds.URL): a clean build compares byte for byte.
SITE_URL = "site_url: http://127.0.0.1:8000/\n"


@pytest.fixture
def listed(tmp_path) -> Path:
    """The example, with a second page in each language and a listing on the first."""
    site = shutil.copytree(EXAMPLE, tmp_path / "minimal", ignore=shutil.ignore_patterns(".cache"))
    for lang, text in PAGES.items():
        (site / f"docs/{lang}/two.md").write_text(text, encoding="utf-8")
        index = site / f"docs/{lang}/index.md"
        index.write_text(index.read_text(encoding="utf-8") + "\n{{ openings }}\n", "utf-8")
    values = site / "dice/values.py"
    values.write_text(values.read_text(encoding="utf-8") + LISTING, encoding="utf-8")
    config = site / "mkdocs.yml"
    config.write_text(SITE_URL + config.read_text(encoding="utf-8") + "  - two.md\n", "utf-8")
    return site


def _served(site: Path) -> dict[str, bytes]:
    """Every file of a site folder; pages without the script `mkdocs serve` adds."""
    return {
        p.relative_to(site).as_posix(): LIVERELOAD.sub(b"", p.read_bytes())
        for p in site.rglob("*")
        if p.is_file()
    }


def test_an_edit_is_written_before_the_listing_and_the_next_build_ends_clean(listed):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    served = listed / "served"
    result = subprocess.run(
        [sys.executable, str(STEPS), str(served), "docs/en/two.md", OLD, NEW],
        cwd=listed,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    start, edit, after = (json.loads(line) for line in result.stdout.splitlines()[-3:])
    assert {"en/index.md", "en/two.md", "zh/index.md", "zh/two.md"} <= set(start["written"])
    assert not start["asked_for_next"]
    # The edit: its page alone, and the listing left for the build it asks for.
    assert edit["written"] == ["en/two.md"] and edit["asked_for_next"]
    assert after["written"] == ["en/index.md"] and not after["asked_for_next"]
    clean = listed / "clean"
    result = mkdocs_build(listed, clean)
    assert result.returncode == 0, result.stdout + result.stderr
    ours, theirs = _served(served), _served(clean)
    assert NEW in ours["index.html"].decode() and NEW in ours["two/index.html"].decode()
    assert ours.keys() == theirs.keys()
    assert [name for name in ours if ours[name] != theirs[name]] == []


def test_the_server_shows_an_edit_to_an_included_snippet_and_then_the_listing(listed):
    # The whole loop in a real server: a snippet edit shows in both languages' pages; a page
    # edit shows on that page, and then in the listing, which the server rebuilds by itself.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    base = f"http://127.0.0.1:{free_port()}/"
    cmd = [sys.executable, "-m", "mkdocs", "serve", *SERVE_FLAGS, "--dev-addr", base[7:-1]]
    server = subprocess.Popen(
        cmd, cwd=listed, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )

    def shows(text: str, *pages: str) -> bool:
        return all(text in (fetch(base + page) or b"").decode() for page in pages)

    try:
        wait_until(lambda: fetch(base) is not None, 120, "mkdocs serve to start")
        assert not shows(COMMENT.strip(), "", "zh/")
        snippet = listed / SNIPPET
        snippet.write_text(COMMENT + snippet.read_text(encoding="utf-8"), encoding="utf-8")
        wait_until(lambda: shows(COMMENT.strip(), "", "zh/"), 120, "the snippet edit to show")
        page = listed / "docs/en/two.md"
        page.write_text(page.read_text(encoding="utf-8").replace(OLD, NEW), encoding="utf-8")
        wait_until(lambda: shows(NEW, "two/", ""), 120, "the page edit to show in the listing")
    finally:
        server.terminate()
        server.wait(timeout=60)
