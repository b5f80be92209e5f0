"""The one build cache: an output is stored under a digest of exactly what it is made from.

Layout: <folder>/<name>/<digest>.<suffix>, one folder per output (a figure in one language,
a computed value, an executed notebook). An output computed by Python code is keyed on what
that code does, not on how it is written: a `.py` input counts by its syntax tree, so a comment
or a reformat recomputes nothing (a page that shows a file's text keys on its bytes). Writing
a new digest for a name removes the old ones, and `prune` removes names the site no longer
produces, so the cache holds only what the current sources would build. Writes are atomic:
a crash never leaves half a file. Builds that share a cache (the site and its offline edition,
side by side) make each output once: the first to need it makes it, the others wait for it.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

T = TypeVar("T")
LOCKSTEP_SRC = Path(__file__).resolve().parent.parent  # the folder lockstep is imported from
_hashes: dict[tuple[tuple[str, int, int], bool], str] = {}


def stamp(path: Path) -> tuple[str, int, int]:
    """A file's path, modification time and size: what is read from the file is remembered
    under it, so an edit reads the file again."""
    st = path.stat()
    return str(path), st.st_mtime_ns, st.st_size


def file_hash(path: Path, code: bool = False) -> str:
    """sha256 of a file's bytes or, with `code` and a `.py` file, of its syntax tree (comments
    and layout left out); remembered under the file's stamp."""
    code = code and path.suffix == ".py"
    key = (stamp(path), code)
    if key not in _hashes:
        data = path.read_bytes()
        if code:
            data = ast.dump(ast.parse(data, str(path))).encode()
        _hashes[key] = hashlib.sha256(data).hexdigest()
    return _hashes[key]


def digest(inputs: Iterable[Path], root: Path, salt: str = "", code: bool = False) -> str:
    """16 hex digits over the inputs' paths (relative to root where inside) and contents: with
    `code`, Python files by what they do (file_hash)."""
    h = hashlib.sha256(salt.encode())
    named = sorted((_name(path, root), path) for path in (Path(p).resolve() for p in inputs))
    for name, path in named:  # in the order of their names: the same in every copy
        h.update(name.encode() + b"\0")
        h.update(file_hash(path, code).encode())
    return h.hexdigest()[:16]


def text_digest(*parts: object) -> str:
    """16 hex digits over the JSON of `parts`."""
    data = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def _name(path: Path, root: Path) -> str:
    """How a digest names an input: lockstep's own files relative to the folder it is imported
    from, the site's relative to its root (the same key in every copy of a site), others in
    full."""
    if path.is_relative_to(LOCKSTEP_SRC):
        return "<lockstep>/" + path.relative_to(LOCKSTEP_SRC).as_posix()
    if path.is_relative_to(root):
        return path.relative_to(root).as_posix()
    return path.as_posix()


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _only_one_maker(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder` itself (no lock file is left behind) while an output
    in it is made: another process that needs the same output waits, then finds it made.
    Without `fcntl` (Windows) outputs are made unlocked, as before: correct, only slower."""
    folder.mkdir(parents=True, exist_ok=True)
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # released when fd closes, also if this process dies
        yield
    finally:
        os.close(fd)


class Cache:
    """Outputs of one kind (figures, values, notebooks) under one folder."""

    def __init__(self, folder: Path, suffix: str):
        self.folder, self.suffix = Path(folder), suffix
        self.made: list[str] = []  # names (re)made by this object: what a rebuild cost

    def path(self, name: str, key: str) -> Path:
        """Where the output `name` made from inputs with digest `key` lives."""
        return self.folder / name / f"{key}.{self.suffix}"

    def fetch(self, name: str, key: str, make: Callable[[], bytes]) -> Path:
        """The stored output for (name, key); made, stored and older keys removed on a miss."""
        path = self.path(name, key)
        if path.is_file():
            return path
        with _only_one_maker(path.parent):
            if path.is_file():  # made by another build while this one waited
                return path
            write_atomic(path, make())
            for old in path.parent.glob(f"*.{self.suffix}"):
                if old != path:
                    old.unlink(missing_ok=True)
        self.made.append(name)
        return path

    def prune(self, live: Iterable[str]) -> list[str]:
        """Remove the outputs whose names are not in `live`; return their names."""
        if not self.folder.is_dir():
            return []
        live = set(live)
        gone = [
            p.relative_to(self.folder).as_posix()
            for p in self.folder.rglob(f"*.{self.suffix}")
            if p.parent.relative_to(self.folder).as_posix() not in live
        ]
        for name in {g.rsplit("/", 1)[0] for g in gone}:
            shutil.rmtree(self.folder / name, ignore_errors=True)
        return sorted({g.rsplit("/", 1)[0] for g in gone})


_REMEMBERED: dict[tuple, tuple[str, object]] = {}


def remembered(slot: tuple, key: str | None, make: Callable[[], T]) -> T:
    """What make() returns, remembered in this process (`mkdocs serve` rebuilds in one) for
    `slot` while its key stays the same; a None key is never remembered."""
    if key is not None:
        hit = _REMEMBERED.get(slot)
        if hit is not None and hit[0] == key:
            return hit[1]
    value = make()
    if key is not None:
        _REMEMBERED[slot] = (key, value)
    return value
