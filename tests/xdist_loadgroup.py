"""Workaround for pytest-xdist issue #1386: with pytest 9.2, `--dist loadgroup` no longer keeps
an `xdist_group` on one worker. xdist 3.8 writes the group into the test's `_nodeid`, which
pytest 9.2 no longer reads (a node's id is its structured `_id`), so every grouped test is
scheduled on its own. This writes the same suffix where pytest reads it, as xdist's open fix
(pull request #1388) does. tests/test_xdist_loadgroup.py checks that a group stays on one
worker (it fails without this file on pytest 9.2 and xdist 3.8); once xdist ships the fix,
drop this file and the test's `-p tests.xdist_loadgroup`."""

from __future__ import annotations

import pytest


def group_suffix(item: pytest.Item) -> str:
    """`@name` (names joined by `_`, sorted, as xdist joins them) for a test with xdist_group
    marks; empty without."""
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    }
    return f"@{'_'.join(sorted(names))}" if names else ""


@pytest.hookimpl(trylast=True)  # after xdist's own hook
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker under --dist loadgroup, give each grouped test the suffixed id xdist's
    scheduler reads."""
    if not getattr(config.option, "loadgroup", False):  # set on workers by xdist
        return
    for item in items:
        suffix = group_suffix(item)
        if suffix and not item.nodeid.endswith(suffix):
            item._id = type(item.id).parse(item.nodeid + suffix)
