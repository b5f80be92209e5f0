"""Collect and run every fenced block of docs/**.md, on top of pytest-codeblocks' parser.

pytest-codeblocks (0.18) silently skips what this project relies on: fences with attributes
(`python title="x.py"`), `--8<--` snippet includes, `if __name__ == "__main__":` bodies, and
blank lines inside indented fences (tabs, admonitions). This module normalises the Markdown
before handing it to `extract_from_buffer`, expands includes with pymdownx.snippets itself,
runs each block as `__main__`, and audits the fences so that no python block goes unrun.
"""

import contextlib
import io
import linecache
import re
from dataclasses import dataclass
from pathlib import Path

import markdown
from mkdocs.utils import yaml_load
from pytest_codeblocks import extract_from_buffer

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<info>.*?)\s*$")
MARKER = re.compile(r"^\s*<!--\s*pytest-codeblocks:\s*(?P<kw>[a-z]+(?:-[a-z]+)*)")
# Languages a fence may declare. python runs; the others say what they are and do not run.
SHOWN_NOT_RUN = {
    "text",
    "console",
    "yaml",
    "toml",
    "json",
    "markdown",
    "html",
    "css",
    "js",
    "tex",
    "diff",
}
LANGS = {"python"} | SHOWN_NOT_RUN


@dataclass
class Fence:
    """A fenced block as written in the page."""

    lineno: int  # 1-based line of the opening fence
    lang: str
    info: str
    fence: str
    marker: str | None  # the pytest-codeblocks marker right above it, if any


def scan_fences(text: str) -> list[Fence]:
    """Every fence in `text`, found independently of pytest-codeblocks (for the audit)."""
    fences, lines, i, marker = [], text.splitlines(), 0, None
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            marker = m.group("kw")
        f = FENCE.match(lines[i])
        if f:
            info = f.group("info")
            lang = info.split()[0].lstrip("{.").rstrip("}") if info else ""
            fences.append(Fence(i + 1, lang, info, f.group("fence"), marker))
            marker, close = None, f.group("fence")
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(close):
                i += 1
        elif lines[i].strip() and not m:
            marker = None
        i += 1
    return fences


def normalise(text: str) -> str:
    """Rewrite `python title=...` to `python` and keep blank lines in indented fences."""
    out, inside, indent = [], None, ""
    for line in text.splitlines(keepends=True):
        f = FENCE.match(line)
        if inside is None and f and f.group("fence").startswith("`"):
            inside, indent = f.group("fence"), f.group("indent")
            lang = f.group("info").split()[0] if f.group("info") else ""
            out.append(f"{indent}{inside}{lang}\n")
            continue
        if inside is not None and line.strip().startswith(inside):
            inside = None
        elif inside is not None and indent and not line.strip():
            line = indent + "\n"  # pytest-codeblocks would drop this blank line
        out.append(line)
    return "".join(out)


@contextlib.contextmanager
def _cwd(path: Path):
    import os

    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def _snippets_preprocessor():
    """pymdownx.snippets configured exactly as in mkdocs.yml."""
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as fh:
        cfg = yaml_load(fh)
    for ext in cfg["markdown_extensions"]:
        if isinstance(ext, dict) and "pymdownx.snippets" in ext:
            options = ext["pymdownx.snippets"]
            break
    else:
        raise RuntimeError("mkdocs.yml does not configure pymdownx.snippets")
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options}
    )
    return md.preprocessors["snippet"]


def expand_snippets(code: str) -> str:
    """Expand `--8<--` includes the way the site build does (missing file: error)."""
    if "--8<--" not in code:
        return code
    with _cwd(ROOT):
        return "\n".join(_snippets_preprocessor().run(code.splitlines())) + "\n"


@dataclass
class DocBlock:
    """A python block ready to run, with the output the page claims it prints."""

    path: Path
    lineno: int
    code: str
    expected_output: str | None
    ignore_whitespace: bool
    marks: list[str]
    also_runs: tuple[int, ...] = ()  # later fences whose code was merged into this block


SECTION_INCLUDE = re.compile(r'^\s*--8<--\s+"([^":]+):[\w-]+"\s*$')


def _section_file(code: str) -> str | None:
    """The file a fence includes sections of, if it includes nothing but sections of one file."""
    files = {
        m.group(1) if (m := SECTION_INCLUDE.match(line)) else None
        for line in code.splitlines()
        if line.strip()
    }
    return files.pop() if len(files) == 1 and None not in files else None


def python_blocks(path: Path) -> list[DocBlock]:
    """The python blocks pytest-codeblocks finds in the normalised page, includes expanded.

    Fences that only include sections (`--8<-- "file.py:name"`) of one file are run together,
    in page order, as one module: a page can walk through a file section by section, with
    prose and demos in between, and the whole of what it shows still runs.
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
        block.code = expand_snippets(block.code)
    return blocks


def run_block(block: DocBlock) -> str:
    """Execute a block as a script and return what it printed."""
    name = f"{display(block.path)}:{block.lineno}"
    # Register the source so tracebacks show it and inspect.getsource works (triton.jit needs it).
    linecache.cache[name] = (len(block.code), None, block.code.splitlines(keepends=True), name)
    buf = io.StringIO()
    with _cwd(ROOT), contextlib.redirect_stdout(buf):
        exec(compile(block.code, name, "exec"), {"__name__": "__main__", "__file__": name})
    return buf.getvalue()


def display(path: Path) -> str:
    """A path as a person would type it from the repository root."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def audit(path: Path, run_linenos: set[int]) -> list[str]:
    """Problems with the fences of a page: unknown languages and python blocks nobody runs."""
    problems = []
    for f in scan_fences(path.read_text(encoding="utf-8")):
        where = f"{display(path)}:{f.lineno}"
        if not f.fence.startswith("`"):
            problems.append(f"{where}: use a backtick fence, not {f.fence!r}")
        if f.lang not in LANGS:
            hint = "write `python`" if f.lang.startswith(("py", "ipy")) else "name its language"
            problems.append(
                f"{where}: fence language {f.lang!r} is not one of {sorted(LANGS)}; {hint}"
            )
        if f.lang == "python" and f.marker not in ("cont", "expected-output"):
            if f.lineno not in run_linenos:
                problems.append(f"{where}: python block is not run by any test")
        if (
            f.marker in ("expected-output", "expected-output-ignore-whitespace")
            and f.lang != "text"
        ):
            problems.append(f"{where}: an expected-output block must be `text`")
    return problems


def split_page(text: str) -> tuple[list[tuple[str, str]], str]:
    """Return the fenced blocks as (language, body) and the prose with the blocks removed."""
    blocks, prose, lines, i = [], [], text.splitlines(), 0
    while i < len(lines):
        f = FENCE.match(lines[i])
        if not f:
            prose.append(lines[i])
            i += 1
            continue
        body, i = [], i + 1
        while i < len(lines) and not lines[i].strip().startswith(f.group("fence")):
            body.append(lines[i].strip())
            i += 1
        lang = f.group("info").split()[0] if f.group("info") else ""
        blocks.append((lang, "\n".join(body)))
        i += 1
    return blocks, "\n".join(prose)


# A number in prose: digits, optionally with a decimal part; not part of a word or a path.
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?![\w])")
LINK_TARGET = re.compile(r"\]\([^)]*\)")


def prose_numbers(text: str) -> list[str]:
    prose = LINK_TARGET.sub("]()", split_page(text)[1])
    return sorted(NUMBER.findall(prose))


def unchecked_numbers(body: str) -> list[str]:
    """Numbers in the prose (or math) of a page that none of its code or checked output shows.

    Years and single digits are exempt; everything else a reader sees must be computed next to
    it, or come from a {{ computed }} value (which the build inserts, so it is not in `body`).
    """
    blocks, _ = split_page(body)
    checked = " ".join(expand_snippets(code) for _, code in blocks)
    checked = re.sub(r"(?<=\d)_(?=\d)", "", checked)  # 10_000 in code is 10000 in prose
    known = set(re.findall(r"\d+(?:\.\d+)*", checked)) | set(re.findall(r"\d+", checked))
    return sorted(
        {
            n
            for n in prose_numbers(body)
            if n not in known and len(n) > 1 and not re.fullmatch(r"(19|20)\d\d", n)
        }
    )
