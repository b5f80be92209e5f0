"""`--8<--` includes expanded exactly as the site build expands them (pymdownx.snippets)."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import markdown
from pymdownx.snippets import SnippetMissingError

from lockstep.errors import BuildError

INCLUDE = "--8<--"
# The module an include line names: `--8<-- "snippets/x.py"` or `"snippets/x.py:section"`.
INCLUDE_FILE = re.compile(r'--8<--\s+"([\w/]+)\.py[:"]')


@contextlib.contextmanager
def working_directory(path: Path):
    """Run a block with `path` as the current directory (snippet base paths are relative)."""
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def _preprocessor(options: dict):
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options}
    )
    return md.preprocessors["snippet"]


def expand(code: str, root: Path, options: dict, where: str = "a page") -> str:
    """`code` with its includes expanded; a missing file is a BuildError naming `where` the
    include is (check_paths)."""
    if INCLUDE not in code:
        return code
    with working_directory(root):
        try:
            return "\n".join(_preprocessor(options).run(code.splitlines())) + "\n"
        except SnippetMissingError as error:
            bases = ", ".join(options.get("base_path", ["."]))
            raise BuildError(
                f"{where}: {error} (looked in {bases}) — fix the include's path or add the file"
            ) from None


# A quoted include target, inline or in a block: `--8<-- "path"`, `"path:section"`, `"path:3:9"`.
QUOTED = re.compile(r'"([^"\n]+)"')


def included_files(text: str, root: Path, options: dict) -> list[Path]:
    """The files `text` includes, and the files they include, as the build would find them:
    each target is looked up in the base paths (relative to `root`) in order."""
    bases = [root / b for b in options.get("base_path", ["."])]
    found: list[Path] = []
    todo = [text]
    while todo:
        chunk = todo.pop()
        if INCLUDE not in chunk:
            continue
        block = False
        for line in chunk.splitlines():
            stripped = line.strip()
            if stripped == INCLUDE:  # block form: the lines up to the closing marker name files
                block = not block
                continue
            targets = QUOTED.findall(stripped) if stripped.startswith(INCLUDE) else []
            if block and stripped and not stripped.startswith(";"):
                targets = [stripped.strip('"')]
            for target in targets:
                name = re.sub(r"(:[\w-]+)+$", "", target)  # a section or line range
                path = next((b / name for b in bases if (b / name).is_file()), None)
                if path is not None and path.resolve() not in found:
                    found.append(path.resolve())
                    todo.append(path.read_text(encoding="utf-8"))
    return found
