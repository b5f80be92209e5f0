"""What a build output is made from: the project files a module's code and data come from.

A figure, a computed value or a notebook depends on the module that makes it, on every
project module that module imports (transitively, read from the source, never guessed from
folders), on their packages' `__init__` files, and on the data files those modules name in
module-level `Path` constants (`RESULTS = Path(__file__).parent / "data" / "runs.json"`).
Modules outside the project (torch, matplotlib) are not inputs: the lock pins them. lockstep's
own modules count as inputs wherever it is installed from (a site's figures use its style
helpers), so that an edit to an editable lockstep redraws what its code made.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterable
from pathlib import Path

from lockstep.cache import LOCKSTEP_SRC, stamp

SKIP_DIRS = {"__pycache__", ".git", ".venv", "node_modules"}


def module_file(name: str, root: Path) -> Path | None:
    """The source of project module `name` under `root` (or of one of lockstep's own), or None
    if it is neither."""
    roots = (LOCKSTEP_SRC,) if name.split(".")[0] == "lockstep" else (root,)
    for base in (r.joinpath(*name.split(".")) for r in roots):
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imported_names(path: Path, name: str) -> set[str]:
    """Absolute names of the modules a source file imports, anywhere in it."""
    return set(_imported_names(stamp(path), name))


@functools.cache  # under the file's stamp: an edit reads it again
def _imported_names(stamp: tuple[str, int, int], name: str) -> frozenset[str]:
    path = Path(stamp[0])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                package = _package_of(name, path).split(".")
                parent = ".".join(package[: len(package) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # may be submodules
    return frozenset(found)


def module_closure(names: Iterable[str], root: Path) -> dict[str, Path]:
    """Project modules reached from `names` by imports, with their parent packages: name -> file."""
    seen: dict[str, Path] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b first
            prefix = ".".join(parts[:k])
            path = module_file(prefix, root)
            if prefix in seen or path is None:
                continue
            seen[prefix] = path
            todo.extend(imported_names(path, prefix))
    return seen


def _files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and not SKIP_DIRS.intersection(p.parts)]


def _path_value(node: ast.expr, env: dict[str, object]) -> object:
    """Evaluate the few expressions that build a path from __file__, without running code:
    names already known, Path(...), .parent, .parents[i], .resolve(), / "part", "text"."""
    match node:
        case ast.Constant(value=str() as text):
            return text
        case ast.Name(id=name):
            return env.get(name)
        case ast.Call(func=ast.Name(id="Path"), args=[arg], keywords=[]):
            value = _path_value(arg, env)
            return Path(value) if isinstance(value, str | Path) else None
        case ast.Call(func=ast.Attribute(value=inner, attr="resolve" | "absolute"), args=[]):
            value = _path_value(inner, env)
            return value.resolve() if isinstance(value, Path) else None
        case ast.Attribute(value=inner, attr="parent"):
            value = _path_value(inner, env)
            return value.parent if isinstance(value, Path) else None
        case ast.Subscript(
            value=ast.Attribute(value=inner, attr="parents"), slice=ast.Constant(value=int() as i)
        ):
            value = _path_value(inner, env)
            return value.parents[i] if isinstance(value, Path) else None
        case ast.BinOp(left=left, op=ast.Div(), right=right):
            a, b = _path_value(left, env), _path_value(right, env)
            return a / b if isinstance(a, Path) and isinstance(b, str | Path) else None
    return None


def named_paths(path: Path) -> list[Path]:
    """The paths a module's top-level assignments build from __file__ (read, not run)."""
    return list(_named_paths(stamp(path)))


@functools.cache
def _named_paths(stamp: tuple[str, int, int]) -> tuple[Path, ...]:
    path = Path(stamp[0])
    env: dict[str, object] = {"__file__": str(path)}
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = _path_value(node.value, env)
            for target in targets:
                if isinstance(target, ast.Name) and isinstance(value, Path):
                    env[target.id] = value
                    found.append(value)
    return tuple(found)


def named_data(module_path: Path, root: Path) -> set[Path]:
    """Files a module names in module-level Path constants: a file, or every file in a folder
    that does not contain the module itself (so `ROOT = ...` does not make everything an input)."""
    found: set[Path] = set()
    for value in named_paths(module_path):
        path = value.resolve()
        if not path.is_relative_to(root):
            continue
        if path.is_file():
            found.add(path)
        elif path.is_dir() and not module_path.resolve().is_relative_to(path):
            found.update(_files_under(path))
    return found


def inputs(names: Iterable[str], root: Path, extra: Iterable[Path] = ()) -> list[Path]:
    """Every project file the modules `names` are made from: code, then named data.

    Remembered until forget_project_modules (the start of the next build)."""
    return list(_inputs(tuple(sorted(names)), root.resolve(), tuple(sorted(extra))))


@functools.cache
def _inputs(names: tuple[str, ...], root: Path, extra: tuple[Path, ...]) -> tuple[Path, ...]:
    closure = module_closure(names, root)
    files = set(closure.values()) | set(extra)
    for path in closure.values():
        files |= named_data(path, root)
    return tuple(sorted(p.resolve() for p in files))


@functools.cache  # a module's file, resolved once per process (thousands per rebuild)
def _is_project_file(path: str, root: str, exclude: str) -> bool:
    p = Path(path).resolve()
    return p.is_relative_to(root) and not p.is_relative_to(exclude) and ".venv" not in p.parts


def forget_project_modules(root: Path, keep: Path) -> list[str]:
    """Drop the project's modules from sys.modules (except those under `keep`), so the next
    import reads the files as they are now. `mkdocs serve` rebuilds in one process: without
    this an edited snippet would be drawn by the code it had when the server started."""
    root_s, keep_s = str(root.resolve()), str(keep.resolve())
    dropped = [
        name
        for name, module in list(sys.modules.items())
        if getattr(module, "__file__", None) and _is_project_file(module.__file__, root_s, keep_s)
    ]
    for name in dropped:
        del sys.modules[name]
    _inputs.cache_clear()  # the files may have changed too
    return dropped
