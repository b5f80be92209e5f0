"""The suite's scheduling: tests marked with one xdist_group run on one worker under the options
`make test` gives pytest (with tests/xdist_loadgroup.py, a library bug's workaround)."""

import subprocess
import sys

from tests.conftest import ROOT

GROUPED = """
import os
import pytest

pytestmark = pytest.mark.xdist_group("together")


@pytest.mark.parametrize("i", range(8))
def test_records_its_worker(i, tmp_path_factory):
    (tmp_path_factory.getbasetemp().parent / f"{i}.worker").write_text(
        os.environ["PYTEST_XDIST_WORKER"]
    )
"""


def test_a_group_runs_on_one_worker(tmp_path):
    (tmp_path / "test_grouped.py").write_text(GROUPED, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # not this project's
    base = tmp_path / "base"
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2"]
    cmd += ["--dist", "loadgroup", "-p", "tests.xdist_loadgroup", "--basetemp", str(base)]
    cmd.append(str(tmp_path))
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    workers = {p.read_text() for p in base.glob("*.worker")}
    assert len(list(base.glob("*.worker"))) == 8 and len(workers) == 1, workers
