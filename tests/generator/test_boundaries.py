"""Dependencies point one way. snippets/ holds only code that pages show or that makes what
they show, and imports neither the build nor the benchmarks; lockstep never imports this
site's content; and lockstep's rules import no engine: MkDocs, Material and the MkDocs plugins
are imported only by its adapter, lockstep.mkdocs."""

import ast
import subprocess
import sys
from pathlib import Path

from lockstep import blocks, deps, fences, includes
from lockstep.figures import figure_names
from tests.conftest import ROOT, SITE

BUILD = {"lockstep", "attention_site", "mkdocs", "pytest", "tests", "bench"}
LOCKSTEP = ROOT / "lockstep" / "src"
ENGINE = {"mkdocs", "material", "mkdocs_static_i18n", "mkdocs_jupyter"}
ADAPTER = "lockstep.mkdocs"
# Entry points find the site through the adapter's reader of mkdocs.yml (which imports no
# engine itself).
ENTRY_POINTS = {"lockstep.pytest_plugin", "lockstep.cli"}
READER = "lockstep.mkdocs.config_file"


def modules_under(folder: Path, base: Path = ROOT) -> dict[str, Path]:
    """dotted name -> path for every module in a folder, named relative to `base`."""
    out = {}
    for path in folder.rglob("*.py"):
        rel = path.relative_to(base).with_suffix("")
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


def engine_imports(name: str, path: Path) -> list[str]:
    """What a module of lockstep's rules imports that belongs to the engine or its adapter."""
    if name == ADAPTER or name.startswith(ADAPTER + "."):
        return []
    found = deps.imported_names(path, name)
    bad = sorted(n for n in found if n.split(".")[0] in ENGINE)
    allowed = {READER} if name in ENTRY_POINTS else set()
    adapter = {n for n in found if n == ADAPTER or n.startswith(ADAPTER + ".")}
    bad += sorted(n for n in adapter if not any(n.startswith(a) for a in allowed))
    return bad


def test_nothing_in_snippets_imports_the_build_or_the_benchmarks():
    for name, path in modules_under(ROOT / "snippets").items():
        top = {n.split(".")[0] for n in deps.imported_names(path, name)}
        assert not top & BUILD, f"{path.relative_to(ROOT)} imports {sorted(top & BUILD)}"


def test_the_generator_imports_no_site_content():
    for name, path in modules_under(LOCKSTEP / "lockstep", LOCKSTEP).items():
        top = {n.split(".")[0] for n in deps.imported_names(path, name)}
        assert not top & {"snippets", "attention_site", "bench"}, path.relative_to(ROOT)


def test_lockstep_s_rules_import_no_engine_only_its_adapter_does():
    modules = modules_under(LOCKSTEP / "lockstep", LOCKSTEP)
    assert any(n.startswith(ADAPTER + ".") for n in modules)  # the adapter is where it should be
    bad = {name: found for name, path in modules.items() if (found := engine_imports(name, path))}
    assert bad == {}


def test_the_boundary_check_fails_on_a_planted_engine_import(tmp_path):
    planted = tmp_path / "fences.py"
    source = (LOCKSTEP / "lockstep/fences.py").read_text(encoding="utf-8")
    planted.write_text(source + "\n\ndef _x():\n    import mkdocs.utils\n", encoding="utf-8")
    assert engine_imports("lockstep.fences", planted) == ["mkdocs.utils"]
    planted.write_text(source + "\nfrom lockstep.mkdocs import plugin\n", encoding="utf-8")
    assert engine_imports("lockstep.fences", planted) == [
        "lockstep.mkdocs",
        "lockstep.mkdocs.plugin",
    ]


def test_every_rule_imports_with_no_engine_installed():
    """Each module outside the adapter imports in a Python where MkDocs and its plugins cannot
    be imported at all."""
    modules = sorted(
        n for n in modules_under(LOCKSTEP / "lockstep", LOCKSTEP) if not n.startswith(ADAPTER)
    )
    script = f"""
import importlib, importlib.abc, sys
class NoEngine(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {sorted(ENGINE)!r}:
            raise ImportError("no engine here: " + name)
sys.meta_path.insert(0, NoEngine())
for name in {modules!r}:
    if name != "lockstep.__main__":
        importlib.import_module(name)
print("imported", len({modules!r}))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "imported" in done.stdout


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
    roots |= set(modules_under(ROOT / "attention_site"))  # the values pages show come from here
    reached = set(deps.module_closure(roots, ROOT))
    idle = sorted(set(modules_under(ROOT / "snippets")) - reached)
    assert not idle, f"snippets no page shows and nothing a page shows needs: {idle}"
