"""Test-wide setup that must happen before any test module is imported, and shared fixtures."""

import os

# Must be set before any module that defines Triton kernels is imported.
os.environ.setdefault("TRITON_INTERPRET", "1")
os.environ.setdefault("MPLBACKEND", "Agg")
# One thread for torch's and numpy's math in each process (the workers, the shared builds and
# every build or notebook they start): two workers and two builds share two cores, and threads
# beyond the cores spin while they wait. The kernel tests on two workers took 51 s with two
# threads each and 28 s with one (2026-12-03).
os.environ.setdefault("OMP_NUM_THREADS", "1")

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lockstep.mkdocs.config_file import load_site

ROOT = Path(__file__).resolve().parent.parent
SITE = load_site(ROOT / "mkdocs.yml")
DOCS = SITE.docs_dir
LANGS = SITE.languages.codes
# What a build reads.
PROJECT = (
    *("docs", "snippets", "attention_site", "bench", "lockstep", "overrides"),
    *("mkdocs.yml", "package-lock.json"),  # the lock: MathJax's version, which pages are keyed on
)
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
def project_copy(tmp_path, built_site) -> Path:
    """A scratch copy of the project to break on purpose (build cache shared). It asks for
    `built_site` so that these builds run with the tests that read the shared builds, on the
    cache those leave warm, not cold beside them computing the same figures and values."""
    return copy_project(tmp_path)


# --- The builds the suite shares -------------------------------------------------------
# Made once per session by tests/site_builds.py, in a folder every xdist worker sees, started
# as soon as a worker has collected a test that needs them (both builds run while the other
# tests do), and waited for by the first test that reads them.
SITE_FIXTURES = {"built_site", "base_url", "page", "offline_archive", "offline_site"}


def shared_dir(factory: pytest.TempPathFactory) -> Path:
    """A folder all workers of this test session share."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def start_builds(factory: pytest.TempPathFactory) -> Path:
    """Start the shared builds unless a worker did; their folder."""
    from filelock import FileLock

    folder = shared_dir(factory) / "builds"
    folder.mkdir(exist_ok=True)
    with FileLock(folder.parent / "builds.lock"):
        if not (folder / "started").exists():
            (folder / "started").touch()
            log = open(folder / "builder.log", "w", encoding="utf-8")
            cmd = [sys.executable, "-m", "tests.site_builds", str(folder)]
            subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    return folder


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items):
    """A test is marked `build` or `browser` by the fixtures it uses (`make check` leaves
    them out)."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & SITE_FIXTURES:
            item.add_marker(pytest.mark.build)
        if used & {"browser", "page"}:
            item.add_marker(pytest.mark.browser)


class SharedBuildsLast:
    """Tests that read the shared builds run last, and the builds start as soon as one of
    them is collected (after deselection by marker: only what will run counts)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session, config, items):
        needs = [i for i in items if SITE_FIXTURES & set(getattr(i, "fixturenames", ()))]
        if needs and not config.option.collectonly:
            start_builds(config._tmp_path_factory)
        others = [item for item in items if item not in set(needs)]
        items[:] = others + needs


def pytest_configure(config):
    config.pluginmanager.register(SharedBuildsLast(), "shared-builds-last")
    from tests import xdist_loadgroup  # a library bug's workaround, in a file of its own

    config.pluginmanager.register(xdist_loadgroup, "xdist-loadgroup-fix")


@pytest.fixture(scope="session")
def builds(tmp_path_factory) -> Path:
    """The shared builds' folder once they are done; a failed build fails with its output."""
    folder = start_builds(tmp_path_factory)
    status_file = folder / "status.json"
    for _ in range(1200):  # ten minutes
        if status_file.is_file():
            break
        time.sleep(0.5)
    else:
        pytest.fail(f"the shared builds did not finish:\n{(folder / 'builder.log').read_text()}")
    status = json.loads(status_file.read_text(encoding="utf-8"))
    for name, code in status.items():
        if code != 0:
            log = folder / f"{name}.log"
            text = log.read_text(encoding="utf-8") if log.is_file() else ""
            pytest.fail(f"{name} failed (exit status {code}):\n{text[-6000:]}", pytrace=False)
    return folder


@pytest.fixture(scope="session")
def built_site(builds) -> Path:
    """The site built with --strict as if published under a sub-path, with what `make
    downloads` adds (the single-file handbook and its PDF, the offline zip)."""
    return builds / "site"


@pytest.fixture(scope="session")
def offline_archive(builds) -> Path:
    """The offline edition zipped as `make offline` and `make downloads` do."""
    return builds / OFFLINE_ZIP


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
