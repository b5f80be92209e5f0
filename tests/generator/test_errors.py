"""Errors a person can act on: each names the file and line, the bad name and a fix, on one
line; a build reports every page's problems at once; what the build rejects, `pytest` alone
rejects too; the checks come with the plugin, so a second site inherits them. Shown on a site
`lockstep new` writes, broken on purpose."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from lockstep import figures, scaffold
from lockstep.errors import BuildError
from lockstep.mkdocs.config_file import load_site
from lockstep.mkdocs.plugin import LockstepPlugin

pytestmark = pytest.mark.build
BIN = Path(sys.executable).parent  # the commands a user types: `mkdocs`, `pytest`


@pytest.fixture
def site(tmp_path) -> Path:
    folder = tmp_path / "flips"
    scaffold.write(folder, ["en", "zh"])
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(path: Path, text: str) -> int:
    """The line number of the first line of `path` that holds `text`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if text in line)


def build(site: Path) -> subprocess.CompletedProcess:
    cmd = [str(BIN / "mkdocs"), "build", "--strict"]
    return subprocess.run(cmd, cwd=site, capture_output=True, text=True, timeout=300)


def run_pytest(site: Path) -> subprocess.CompletedProcess:
    cmd = [str(BIN / "pytest"), "-q", "-p", "no:cacheprovider"]
    return subprocess.run(cmd, cwd=site, capture_output=True, text=True, timeout=300)


def test_unknown_values_on_every_page_are_reported_at_once_by_the_build_and_by_pytest(site):
    edit(site / "docs/en/index.md", "{{ variance_table }}", "{{ varaince_table }}")
    edit(site / "docs/zh/index.md", "{{ variance_table }}", "{{ variance_table }} {{ nope }}")
    en, zh = (line_of(site / f"docs/{lang}/index.md", "{{ v") for lang in ("en", "zh"))
    lines = [
        f"`{{{{ varaince_table }}}}` on en/index.md:{en} is not a computed value — did you mean "
        "`variance_table`?",
        f"`{{{{ nope }}}}` on zh/index.md:{zh} is not a computed value; known: variance_table",
    ]
    built = build(site)
    assert built.returncode != 0
    for line in lines:
        assert line in built.stderr
    assert "Traceback" not in built.stderr
    tested = run_pytest(site)
    assert tested.returncode != 0
    assert lines[0].replace("en/index.md", "docs/en/index.md") in tested.stdout


def test_a_raising_block_shows_its_own_frames_only(site):
    edit(site / "flips/flips.py", "    counts = simulated_heads(10)", "    counts = 1 / 0")
    tested = run_pytest(site)
    assert tested.returncode != 0
    failure = tested.stdout.split("= FAILURES =", 1)[1].split("short test summary")[0]
    assert "docs/en/index.md:5: the block raised" in failure
    assert "ZeroDivisionError: division by zero" in failure
    assert "counts = 1 / 0" in failure  # the block's own line
    assert not re.search(r"_pytest|pluggy|lockstep/", failure)  # no frames of the machinery
    assert len(failure.splitlines()) < 30


def test_an_unknown_option_names_the_closest_one(site):
    edit(site / "mkdocs.yml", "      figures: flips.figures", "      figure: flips.figures")
    built = build(site)
    assert built.returncode != 0
    assert "mkdocs.yml: lockstep: unknown option `figure` — did you mean `figures`?" in built.stderr


def test_citations_without_attr_list_fail_instead_of_showing_raw_attributes(site):
    (site / "refs.yml").write_text(
        "knuth1984:\n  authors: Donald E. Knuth\n  title: Literate programming\n"
        "  venue: The Computer Journal\n  year: 1984\n  url: https://doi.org/10.1093/comjnl/27.2.97\n",
        encoding="utf-8",
    )
    edit(
        site / "mkdocs.yml",
        "      mathjax: false",
        "      mathjax: false\n      bibliography: refs.yml",
    )
    edit(site / "mkdocs.yml", "  - attr_list\n", "")
    built = build(site)
    assert built.returncode != 0
    assert "citations need the Markdown extension `attr_list`" in built.stderr


def test_a_work_no_page_cites_fails_the_build_and_pytest_alike(site):
    (site / "refs.yml").write_text(
        "knuth1984:\n  authors: Donald E. Knuth\n  title: Literate programming\n"
        "  venue: The Computer Journal\n  year: 1984\n  url: https://doi.org/10.1093/comjnl/27.2.97\n",
        encoding="utf-8",
    )
    edit(
        site / "mkdocs.yml",
        "      mathjax: false",
        "      mathjax: false\n      bibliography: refs.yml",
    )
    line = "knuth1984 is cited by no en page: cite it or remove it"
    built = build(site)
    assert built.returncode != 0 and line in built.stderr
    tested = run_pytest(site)
    assert tested.returncode != 0 and line in tested.stdout
    assert "docs/en/index.md::site" in tested.stdout


def test_chinese_labels_without_a_cjk_font_fail_instead_of_drawing_boxes(monkeypatch, site):
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(figures, "cjk_font_family", lambda: None)
    with pytest.raises(BuildError, match=r"'heads' in zh: its labels need a CJK font"):
        figures.render_svg("flips.figures", "heads", "zh", cjk_needed=True)


def test_the_plugin_watches_the_code_and_data_the_site_is_made_from(site):
    plugin = LockstepPlugin()
    plugin.site = load_site(site / "mkdocs.yml")
    assert site / "flips" in plugin._watched()  # the values and figures package
