"""When sources last changed, the same in every checkout: for Anki's "is this newer?" checks.

A file's time is its last commit's time; a file with uncommitted changes, or outside any git
repository, has its modification time instead (so a local edit is newer than what is
committed). A fresh clone gives every file the clone's mtime, which is why mtimes alone will
not do: every build would look newer than the last. Git is asked twice per call, however many
files: a deck of hundreds of cards must not cost hundreds of processes per build.
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


def changed_times(paths: Iterable[Path]) -> dict[Path, float]:
    """Each file's last change (seconds since the epoch), keyed by its resolved path."""
    paths = sorted({Path(p).resolve() for p in paths})
    times = {path: path.stat().st_mtime for path in paths}  # outside git, or uncommitted
    if not paths:
        return times
    top = _git(paths[0].parent, "rev-parse", "--show-toplevel")
    if not top:
        return times
    root = Path(top.strip()).resolve()
    inside = {
        path.relative_to(root).as_posix(): path for path in paths if path.is_relative_to(root)
    }
    if not inside:
        return times
    status = _git(root, "status", "--porcelain", "-z", "--untracked-files=all", "--", *inside)
    log = _git(root, "log", "--format=%x00%ct", "--name-only", "--no-renames", "--", *inside)
    if status is None or log is None:
        return times
    # Porcelain -z: "XY name\0" per entry (a rename adds its old name as the next entry).
    dirty = {entry[3:] for entry in status.split("\0") if len(entry) > 3}
    committed: dict[str, float] = {}
    for block in log.split("\0")[1:]:  # newest commit first: "<time>\n\n<name>\n<name>..."
        lines = block.strip("\n").split("\n")
        for name in lines[1:]:
            if name and name not in committed:
                committed[name] = float(lines[0])
    for rel, path in inside.items():
        if rel in committed and rel not in dirty:
            times[path] = committed[rel]
    return times


def changed_at(paths: Iterable[Path]) -> float:
    """The newest change among `paths` (seconds since the epoch); 0.0 for none."""
    return max(changed_times(paths).values(), default=0.0)


def repository_state(root: Path) -> str:
    """The commit checked out in the repository around `root` ('' outside one): a commit moves
    the times changed_times gives."""
    return (_git(Path(root), "rev-parse", "HEAD") or "").strip()
