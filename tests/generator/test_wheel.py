"""lockstep as another site gets it: its own wheel, installed into a fresh virtual environment
with only what a site asks for, then the commands that site's author types — plain `mkdocs
build --strict` and `pytest` — in a copy of examples/minimal and in a site `lockstep new`
writes. One environment for the module: installing it is most of the cost."""

import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

# One worker runs this module (make test: --dist loadgroup), so its module fixture (the wheel and
# its environment) is made once, not once per worker.
pytestmark = [pytest.mark.build, pytest.mark.slow, pytest.mark.xdist_group("wheel")]
EXAMPLE = ROOT / "examples" / "minimal"


def run(cmd: list, cwd: Path, env_bin: Path) -> subprocess.CompletedProcess:
    """A command as a user types it, with the fresh environment first on PATH."""
    env = {"PATH": f"{env_bin}:/usr/bin:/bin", "HOME": str(Path.home()), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """lockstep's wheel, built from lockstep/ as `pip wheel` builds it."""
    out = tmp_path_factory.mktemp("wheel")
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    done = subprocess.run([*cmd, "-w", str(out), str(ROOT / "lockstep")], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    (built,) = out.glob("mkdocs_lockstep-*.whl")
    return built


@pytest.fixture(scope="module")
def env_bin(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel and the example's own requirements."""
    folder = tmp_path_factory.mktemp("venv")
    # This pip installs into it (`--python`): the environment needs no pip of its own, and no
    # bytecode is written ahead (Python writes it on first import). Half the time of the two.
    venv.create(folder, with_pip=False)
    pip = [sys.executable, "-m", "pip", "--python", str(folder / "bin/python"), "install", "-q"]
    pip += ["--disable-pip-version-check", "--no-compile"]
    # The example's requirements as they are; mkdocs-lockstep is found as the wheel just built.
    found = ["--find-links", str(wheel.parent), "-r", str(EXAMPLE / "requirements.txt")]
    done = subprocess.run([*pip, *found], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return folder / "bin"


def test_the_wheel_holds_lockstep_alone_with_its_script_and_entry_point(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        declared = zf.read(entry_points).decode()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"lockstep"}  # not this site's attention_site, snippets or bench
    assert "lockstep/tex2svg.cjs" in names
    assert "lockstep = lockstep.mkdocs.plugin:LockstepPlugin" in declared
    assert "lockstep = lockstep.cli:main" in declared


def test_the_example_builds_and_tests_green_with_the_commands_a_user_types(env_bin, tmp_path):
    site = shutil.copytree(EXAMPLE, tmp_path / "minimal", ignore=shutil.ignore_patterns(".cache"))
    built = run(["mkdocs", "build", "--strict"], site, env_bin)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "35/3" in (site / "site/index.html").read_text(encoding="utf-8")
    tested = run(["pytest", "-q", "-p", "no:cacheprovider"], site, env_bin)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert " passed" in tested.stdout


def test_a_new_site_builds_and_tests_green_from_its_first_command(env_bin, tmp_path):
    made = run(["lockstep", "new", "birthday"], tmp_path, env_bin)
    assert made.returncode == 0, made.stderr
    site = tmp_path / "birthday"
    assert (site / "birthday/values.py").is_file() and (site / "docs/zh/index.md").is_file()
    built = run(["mkdocs", "build", "--strict"], site, env_bin)
    assert built.returncode == 0, built.stdout + built.stderr
    for prefix, lang in (("", "en"), ("zh/", "zh")):
        html = (site / "site" / prefix / "index.html").read_text(encoding="utf-8")
        assert "{{" not in html and "<table>" in html  # the computed table
        assert (site / "site" / prefix / f"assets/figures/heads.{lang}.svg").is_file()
    tested = run(["pytest", "-q", "-p", "no:cacheprovider"], site, env_bin)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "11 passed" in tested.stdout  # per page: block, audit, numbers, words, parity; site
