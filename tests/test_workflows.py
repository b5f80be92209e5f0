"""The GitHub workflow, checked here because it cannot run here: its schema, a security linter
(zizmor, every audit), and the rules it promises in its header."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
BIN = Path(sys.executable).parent


def test_there_is_a_workflow():
    assert [w.name for w in WORKFLOWS] == ["site.yml"]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda w: w.name)
def test_workflow_matches_the_github_workflow_schema(workflow):
    cmd = [BIN / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", workflow]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda w: w.name)
def test_zizmor_finds_nothing_even_pedantic(workflow):
    cmd = [BIN / "zizmor", "--offline", "--persona=pedantic", "--no-progress", workflow]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout, result.stdout


def steps(workflow: dict):
    """Every step of every job."""
    for job in workflow["jobs"].values():
        yield from job.get("steps", [])


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda w: w.name)
def test_least_privilege_pinned_actions_and_no_expressions_in_run_lines(workflow):
    text = workflow.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert data["permissions"] == {}  # nothing unless a job asks
    for name, job in data["jobs"].items():
        assert "permissions" in job, name
        assert "write-all" not in str(job["permissions"]), name
    for step in steps(data):
        if "uses" in step:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
            if step["uses"].startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False
        if "run" in step:
            assert "${{" not in step["run"], step["run"]


def test_the_workflow_runs_the_readme_test_command_and_deploys_only_main():
    data = yaml.safe_load(WORKFLOWS[0].read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in readme
    assert any(s.get("run") == "make test" for s in data["jobs"]["test"]["steps"])
    assert data["jobs"]["build"]["if"] == (
        "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    )
    assert data["jobs"]["deploy"]["needs"] == "build"
    assert set(data["jobs"]["deploy"]["permissions"]) == {"pages", "id-token"}
