"""Test-wide setup that must happen before any test module is imported, and shared fixtures."""

import os

# Must be set before any module that defines Triton kernels is imported.
os.environ.setdefault("TRITON_INTERPRET", "1")
os.environ.setdefault("MPLBACKEND", "Agg")

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lockstep.mkdocs.config_file import load_site

ROOT = Path(__file__).resolve().parent.parent
SITE = load_site(ROOT / "mkdocs.yml")
DOCS = SITE.docs_dir
LANGS = SITE.languages.codes
# What a build reads.
PROJECT = ("docs", "snippets", "attention_site", "bench", "lockstep", "overrides", "mkdocs.yml")
# The suite's site is built as if published under a sub-path, with a repository (the deploy
# workflow sets both), and served under that sub-path: what works here works when published.
PUBLISHED = "https://example.org/attention-verified/"
REPOSITORY = "https://github.com/example/attention-verified"
SUB_PATH = "/attention-verified/"
OFFLINE_ZIP = "attention-verified-offline.zip"  # as the Makefile names it


def mkdocs_build(
    cwd: Path, site_dir: Path, env: dict | None = None, extra: list[str] = ()
) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` (and `extra` options) in `cwd`, output captured."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", *extra, "--site-dir", str(site_dir)]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def lang_dir(site: Path, lang: str) -> Path:
    """Where a built language lives: the default at the root, the others below it."""
    return site / SITE.languages.prefix(lang)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, offline_build, request) -> Path:
    """The site built once per test session with --strict, with what `make downloads` adds;
    fails with mkdocs' own output. The offline edition builds meanwhile on the other core."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site, env={"SITE_URL": PUBLISHED, "REPO_URL": REPOSITORY})
    if result.returncode != 0:
        pytest.fail(
            f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}", pytrace=False
        )
    from lockstep.browser import available

    if available():  # `make downloads`: the single-file handbook and its PDF
        # A relative path, as `make downloads` passes `site`.
        cmd = [sys.executable, "-m", "lockstep", "handbook", os.path.relpath(site, ROOT)]
        env = {**os.environ, "SITE_URL": PUBLISHED}
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            pytest.fail(f"single-file export failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
    archive = request.getfixturevalue("offline_archive")
    shutil.copy(archive, site / SITE.options.cards.anki_dest / OFFLINE_ZIP)
    return site


def copy_project(dest: Path, share_cache: bool = True) -> Path:
    """A scratch copy of what the build reads; the build cache is shared unless told not to."""
    for name in PROJECT:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, dest / name)
    if share_cache:
        (ROOT / ".cache").mkdir(exist_ok=True)
        (dest / ".cache").symlink_to(ROOT / ".cache")
    (dest / "node_modules").symlink_to(ROOT / "node_modules")  # MathJax for the build (npm ci)
    return dest


@pytest.fixture
def project_copy(tmp_path) -> Path:
    """A scratch copy of the project to break on purpose (build cache shared)."""
    return copy_project(tmp_path)


@pytest.fixture(scope="session")
def offline_build(tmp_path_factory):
    """The offline edition's build as `make offline` runs it, started in the background so that
    it runs beside the main build (the two share the build cache, whose files are written
    atomically and keyed the same in both)."""
    work = tmp_path_factory.mktemp("offline")
    site = work / "attention-verified"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "OFFLINE": "true"}
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    log = work / "build.log"  # a file, not a pipe: nobody reads it until the build is done
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    yield work, site, proc
    if proc.poll() is None:
        proc.kill()


@pytest.fixture(scope="session")
def offline_archive(offline_build) -> Path:
    """The offline edition zipped as `make offline` and `make downloads` do."""
    work, site, proc = offline_build
    if proc.wait(timeout=600) != 0:
        log = (work / "build.log").read_text(encoding="utf-8")
        pytest.fail(f"offline build failed:\n{log}", pytrace=False)
    archive = work / OFFLINE_ZIP
    subprocess.run([sys.executable, "-m", "zipfile", "-c", str(archive), str(site)], check=True)
    return archive


@pytest.fixture(scope="session")
def offline_site(offline_archive, tmp_path_factory) -> Path:
    """The offline edition as a reader has it: the download unzipped elsewhere."""
    import zipfile

    unpacked = tmp_path_factory.mktemp("unzipped")
    with zipfile.ZipFile(offline_archive) as zf:
        zf.extractall(unpacked)
    return unpacked / "attention-verified"


@pytest.fixture(scope="session")
def base_url(built_site):
    """The built site served under SUB_PATH as a static host serves it, for the session."""
    from lockstep.browser import served

    with served(built_site, SUB_PATH) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Chromium driven by Playwright, one for the whole session."""
    from lockstep.browser import chromium

    with chromium() as b:
        yield b


@pytest.fixture
def page(browser, base_url):
    """A fresh page on the served site that refuses every request to another host."""
    from tests.browser_support import guarded_page

    pg = guarded_page(browser, (base_url,))
    yield pg
    pg.close()
