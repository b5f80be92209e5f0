"""snippets/ holds only code that pages show or that makes what they show, and never imports
the build; the generator never imports this site's content."""

import ast

from lockstep import blocks, deps, fences, includes
from lockstep.figures import figure_names
from tests.conftest import ROOT, SITE

BUILD = {"lockstep", "attention_site", "mkdocs", "pytest", "tests"}


def modules_under(folder: str) -> dict[str, str]:
    """dotted name -> path for every module in a folder of the repository."""
    out = {}
    for path in (ROOT / folder).rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out[".".join(parts)] = path
    return out


def imports_in(code: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_nothing_in_snippets_imports_the_build():
    for name, path in modules_under("snippets").items():
        top = {n.split(".")[0] for n in deps.imported_names(path, name)}
        assert not top & BUILD, f"{path.relative_to(ROOT)} imports {sorted(top & BUILD)}"


def test_the_generator_imports_no_site_content():
    for name, path in modules_under("lockstep").items():
        top = {n.split(".")[0] for n in deps.imported_names(path, name)}
        assert not top & {"snippets", "attention_site", "bench"}, path.relative_to(ROOT)


def test_every_snippet_is_shown_by_a_page_or_makes_what_a_page_shows():
    roots = set()
    for lang in SITE.languages:
        for page in SITE.pages(lang):
            text = (SITE.tree(lang) / page).read_text(encoding="utf-8")
            if page.endswith(".py"):  # a notebook
                roots |= imports_in(text)
                continue
            for f in fences.scan(text):
                roots |= {m.replace("/", ".") for m in includes.INCLUDE_FILE.findall(f.code)}
            for block in blocks.python_blocks(SITE.tree(lang) / page, SITE):
                roots |= imports_in(block.code)
    roots |= {f"{SITE.options.figures}.{n}" for n in figure_names(SITE.options.figures)}
    roots |= set(modules_under("attention_site"))  # the values pages show are made from these
    reached = set(deps.module_closure(roots, ROOT))
    idle = sorted(set(modules_under("snippets")) - reached)
    assert not idle, f"snippets no page shows and nothing a page shows needs: {idle}"
