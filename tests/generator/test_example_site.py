"""The generator is not a one-off: a second site (examples/minimal) builds with it and its
pages pass the same checks, and those checks fail on that site too when it drifts."""

import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT, mkdocs_build

pytestmark = pytest.mark.build
EXAMPLE = ROOT / "examples" / "minimal"


@pytest.fixture
def example(tmp_path):
    return shutil.copytree(EXAMPLE, tmp_path / "minimal", ignore=shutil.ignore_patterns(".cache"))


def pytest_in(folder) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_example_builds_strict_with_its_value_and_figure_in_both_languages(example):
    result = mkdocs_build(example, example / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    for prefix, lang in (("", "en"), ("zh/", "zh")):
        html = (example / "site" / prefix / "index.html").read_text(encoding="utf-8")
        assert "35/3" in html and "{{" not in html  # the computed variance table
        assert (example / "site" / prefix / f"assets/figures/sums.{lang}.svg").stat().st_size > 1000
    zh = (example / "site/zh/index.html").read_text(encoding="utf-8")
    assert "独立骰子之和的方差，等于各自方差之和。" in zh  # Chinese lines joined


def test_the_examples_pages_pass_the_checks_and_a_drifted_translation_fails_them(example):
    passed = pytest_in(example)
    assert passed.returncode == 0, passed.stdout
    # per page: block, fence audit, numbers, words, translation; once: the site's checks
    assert "11 passed" in passed.stdout
    page = example / "docs/zh/index.md"
    page.write_text(page.read_text(encoding="utf-8").replace("sampled: 11.46", "sampled: 11.5"))
    failed = pytest_in(example)
    assert failed.returncode != 0
    assert "printed output differs from the page" in failed.stdout
    assert "code block 2 differs (en line 10, zh line 11" in failed.stdout
