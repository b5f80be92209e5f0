"""`--8<--` includes expanded exactly as the site build expands them (pymdownx.snippets)."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import markdown

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


def expand(code: str, root: Path, options: dict) -> str:
    """`code` with its includes expanded; a missing file is an error (check_paths)."""
    if INCLUDE not in code:
        return code
    with working_directory(root):
        return "\n".join(_preprocessor(options).run(code.splitlines())) + "\n"
