"""YAML data files as lockstep reads them.

With libyaml's parser where PyYAML was built with it (about ten times faster than the
pure-Python one), the pure-Python parser otherwise. And what is made from a data file (the
bibliography, the glossary, the card vocabulary) is made once per version of the file: a
build reads each of them several times, and `make serve` rebuilds in one process.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import IO, TypeVar

import yaml

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
T = TypeVar("T")
_MADE: dict[tuple, object] = {}


def load(stream: str | IO[str]) -> object:
    """One YAML document as data, reading only plain data (no tags that build objects)."""
    return yaml.load(stream, Loader=SafeLoader)


def version(path: str | Path) -> tuple:
    """What tells one version of a file from the next: its path, size and modification time."""
    path = Path(path).resolve()
    st = path.stat()
    return (str(path), st.st_size, st.st_mtime_ns)


def made_from(path: str | Path, make: Callable[[Path], T], *salt: object) -> T:
    """make(path), remembered until the file changes; `make` and `salt` tell apart two things
    made from the same file. A file that fails to load is read again next time."""
    key = (version(path), getattr(make, "__qualname__", repr(make)), salt)
    if key not in _MADE:
        _MADE[key] = make(Path(path))
    return _MADE[key]  # type: ignore[return-value]
