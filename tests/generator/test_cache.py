"""The build cache: hits reuse, misses make and drop the stale entry, pruning, and what an
output is keyed on (its own module, what that imports, the data those name, nothing else)."""

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from lockstep import deps
from lockstep.cache import Cache, digest
from tests.conftest import ROOT


def test_a_hit_reuses_and_a_new_key_replaces_the_old_entry(tmp_path):
    cache, calls = Cache(tmp_path, "txt"), []

    def make(text):
        return lambda: calls.append(text) or text.encode()

    first = cache.fetch("fig.en", "k1", make("one"))
    assert cache.fetch("fig.en", "k1", make("other")) == first and calls == ["one"]
    second = cache.fetch("fig.en", "k2", make("two"))
    assert second.read_text() == "two" and not first.exists()
    assert cache.made == ["fig.en", "fig.en"]


def _fetch_slowly(folder: str) -> str:
    """Fetch one output whose making takes a while and logs each time it runs."""

    def make():
        with open(Path(folder) / "made.log", "a") as log:
            log.write("made\n")
        time.sleep(0.5)
        return b"figure"

    return str(Cache(Path(folder) / "cache", "svg").fetch("fig.en", "k", make))


def test_builds_sharing_a_cache_make_an_output_once(tmp_path):
    # Two processes (the site and its offline edition, built side by side) miss at once.
    with ProcessPoolExecutor(2) as pool:
        paths = set(pool.map(_fetch_slowly, [str(tmp_path)] * 2))
    assert (tmp_path / "made.log").read_text() == "made\n"
    assert len(paths) == 1 and Path(paths.pop()).read_bytes() == b"figure"


def test_a_failing_make_leaves_no_entry(tmp_path):
    cache = Cache(tmp_path, "txt")

    def boom():
        raise RuntimeError("drawing failed")

    with pytest.raises(RuntimeError):
        cache.fetch("fig.en", "k", boom)
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_prune_removes_what_the_site_no_longer_makes(tmp_path):
    cache = Cache(tmp_path, "svg")
    for name in ("a.en", "b.en", "nb/c.py.en"):
        cache.fetch(name, "k", lambda: b"x")
    assert cache.prune(["a.en", "nb/c.py.en"]) == ["b.en"]
    assert sorted(p.parent.name for p in tmp_path.rglob("*.svg")) == ["a.en", "c.py.en"]


def test_digest_changes_with_content_path_and_salt(tmp_path):
    a = tmp_path / "a.py"
    a.write_text("x = 1\n")
    before = digest([a], tmp_path)
    assert digest([a], tmp_path, salt="zh") != before
    a.write_text("x = 2\n")
    assert digest([a], tmp_path) != before


def test_a_figure_depends_on_its_module_its_imports_and_their_named_data():
    found = deps.inputs(["snippets.figures.training_curves"], ROOT)
    inputs = {p.relative_to(ROOT).as_posix() for p in found}
    assert {
        "snippets/figures/training_curves.py",
        "snippets/figures/style.py",
        "snippets/figures/__init__.py",
        "snippets/training.py",
        "snippets/__init__.py",
        "snippets/data/training_runs.json",  # named by training.RESULTS
    } <= inputs
    assert "snippets/variance.py" not in inputs and "snippets/figures/softcap.py" not in inputs


def test_a_folder_a_module_sits_in_is_not_its_data():
    inputs = {p.relative_to(ROOT).as_posix() for p in deps.inputs(["bench.cpu"], ROOT)}
    assert "bench/cpu.py" in inputs and "snippets/kernels/online_softmax.py" in inputs
    assert "README.md" not in inputs  # bench.cpu names ROOT, the folder it sits in


def test_relative_imports_resolve_against_the_package(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from . import b\nfrom ..c import d\n")
    (pkg / "sub" / "b.py").write_text("")
    (pkg / "c.py").write_text("d = 1\n")
    found = deps.module_closure(["pkg.sub"], tmp_path)
    assert sorted(found) == ["pkg", "pkg.c", "pkg.sub", "pkg.sub.b"]
