"""When sources last changed, the same in every checkout: for Anki's "is this newer?" checks.

A file's time is its last commit's time; a file with uncommitted changes, or outside any git
repository, has its modification time instead (so a local edit is newer than what is
committed). A fresh clone gives every file the clone's mtime, which is why mtimes alone will
not do: every build would look newer than the last.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def changed_at(paths: Iterable[Path]) -> float:
    """The newest change among `paths` (seconds since the epoch); 0.0 for none."""
    newest = 0.0
    for path in (Path(p).resolve() for p in paths):
        committed = _git(path.parent, "log", "-1", "--format=%ct", "--", path.name)
        dirty = _git(path.parent, "status", "--porcelain", "--", path.name)
        if committed and committed.strip() and dirty == "":
            newest = max(newest, float(committed.strip()))
        else:
            newest = max(newest, path.stat().st_mtime)
    return newest
