"""Every fenced block of a page, ready to run: pytest-codeblocks' parser, made to miss nothing.

pytest-codeblocks (0.18) silently skips what pages rely on: fences with attributes
(`python title="x.py"`), `--8<--` includes, `if __name__ == "__main__":` bodies, and blank
lines inside indented fences (tabs, admonitions). So a page is normalised before
`extract_from_buffer` sees it, includes are expanded as the build expands them, each block
runs as `__main__`, and an audit fails any python block that nothing runs.
"""

from __future__ import annotations

import contextlib
import io
import linecache
import re
import traceback
from dataclasses import dataclass
from pathlib import Path

from pytest_codeblocks import extract_from_buffer

from lockstep import fences, includes
from lockstep.site import Site

# Languages a fence may declare: python runs; the others say what they are and do not run.
SHOWN_NOT_RUN = {"text", "console", "yaml", "toml", "json", "markdown", "html", "css", "js"}
SHOWN_NOT_RUN |= {"tex", "diff"}
LANGUAGES = {"python"} | SHOWN_NOT_RUN
EXPECTED_OUTPUT = ("expected-output", "expected-output-ignore-whitespace")
SECTION_INCLUDE = re.compile(r'^\s*--8<--\s+"([^":]+):[\w-]+"\s*$')


@dataclass
class DocBlock:
    """A python block ready to run, with the output the page says it prints."""

    path: Path
    lineno: int
    code: str
    expected_output: str | None
    ignore_whitespace: bool
    marks: list[str]
    also_runs: tuple[int, ...] = ()  # later fences whose code was merged into this block


def normalise(text: str) -> str:
    """Backtick fences reduced to their language (`python title=...` -> `python`), and blank
    lines inside indented fences kept (pytest-codeblocks drops them)."""
    lines = text.splitlines(keepends=True)
    for f in fences.scan(text):
        if f.fence[0] != "`":
            continue
        lines[f.start] = f"{f.indent}{f.fence}{f.info.split()[0] if f.info else ''}\n"
        if f.indent:
            for k in range(f.start + 1, min(f.end, len(lines))):
                if not lines[k].strip():
                    lines[k] = f.indent + "\n"
    return "".join(lines)


def _section_file(code: str) -> str | None:
    """The file a fence includes sections of, if it includes nothing but sections of one file."""
    files = {
        m.group(1) if (m := SECTION_INCLUDE.match(line)) else None
        for line in code.splitlines()
        if line.strip()
    }
    return files.pop() if len(files) == 1 and None not in files else None


def python_blocks(path: Path, site: Site) -> list[DocBlock]:
    """The python blocks of a page, includes expanded.

    Fences that only include sections (`--8<-- "file.py:name"`) of one file run together, in
    page order, as one module: a page can walk through a file section by section, with prose
    and demos in between, and the whole of what it shows still runs.
    """
    text = normalise(path.read_text(encoding="utf-8"))
    blocks: list[DocBlock] = []
    first_of: dict[str, DocBlock] = {}
    for b in extract_from_buffer(io.StringIO(text)):
        if b.syntax != "python":
            continue
        marks = list(b.marks) + ([f"importorskip({b.importorskip})"] if b.importorskip else [])
        block = DocBlock(
            path, b.lineno, b.code, b.expected_output, b.expected_output_ignore_whitespace, marks
        )
        section_file = _section_file(b.code)
        if section_file in first_of:
            head = first_of[section_file]
            head.code += b.code
            head.also_runs += (b.lineno,)
            continue
        if section_file:
            first_of[section_file] = block
        blocks.append(block)
    for block in blocks:
        where = f"{display(path, site)}:{block.lineno}"
        block.code = includes.expand(block.code, site.root, site.snippets_options, where)
    return blocks


PACKAGE_DIR = Path(__file__).resolve().parent


class BlockError(Exception):
    """A page's block raised: its message is the traceback of the block's own frames."""


def _own_frame(filename: str, block_name: str, site: Site) -> bool:
    """Whether a traceback frame is the block's or the site's code (not lockstep's, not an
    installed library's)."""
    if filename == block_name:
        return True
    path = Path(filename)
    return (
        path.is_absolute()
        and path.is_relative_to(site.root)
        and not path.is_relative_to(PACKAGE_DIR)
        and "site-packages" not in path.parts
    )


def run_block(block: DocBlock, site: Site) -> str:
    """Execute a block as a script from the site's root; return what it printed. A block
    that raises raises BlockError with only its own frames and the site's."""
    name = f"{display(block.path, site)}:{block.lineno}"
    # Register the source so tracebacks show it and inspect.getsource works (triton.jit needs it).
    linecache.cache[name] = (len(block.code), None, block.code.splitlines(keepends=True), name)
    buf = io.StringIO()
    try:
        with includes.working_directory(site.root), contextlib.redirect_stdout(buf):
            exec(compile(block.code, name, "exec"), {"__name__": "__main__", "__file__": name})
    except Exception as error:
        frames = [
            f
            for f in traceback.extract_tb(error.__traceback__)
            if _own_frame(f.filename, name, site)
        ]
        shown = "".join(traceback.format_list(frames))
        raised = "".join(traceback.format_exception_only(error))
        printed = f"it printed, before:\n{buf.getvalue()}" if buf.getvalue() else ""
        raise BlockError(f"{name}: the block raised\n{shown}{raised}{printed}") from None
    return buf.getvalue()


def display(path: Path, site: Site) -> str:
    """A path as a person would type it from the site's root."""
    return str(path.relative_to(site.root)) if path.is_relative_to(site.root) else str(path)


def audit(path: Path, run_linenos: set[int], site: Site) -> list[str]:
    """Problems with a page's fences: unknown languages and python blocks nobody runs."""
    problems = []
    for f in fences.scan(path.read_text(encoding="utf-8")):
        where = f"{display(path, site)}:{f.lineno}"
        if f.fence[0] != "`":
            problems.append(f"{where}: use a backtick fence, not {f.fence!r}")
        if f.lang not in LANGUAGES:
            hint = "write `python`" if f.lang.startswith(("py", "ipy")) else "name its language"
            problems.append(
                f"{where}: fence language {f.lang!r} is not one of {sorted(LANGUAGES)}; {hint}"
            )
        if f.lang == "python" and f.marker not in ("cont", "expected-output"):
            if f.lineno not in run_linenos:
                problems.append(f"{where}: python block is not run by any test")
        if f.marker in EXPECTED_OUTPUT and f.lang != "text":
            problems.append(f"{where}: an expected-output block must be `text`")
    return problems
