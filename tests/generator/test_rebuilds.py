"""An edit rebuilds exactly the outputs made from the edited file: not every figure, notebook
or value, nothing at all for an edit to a page's prose, and nothing for a comment in code."""

import shutil

import pytest

from attention_site import derivation_tables
from tests.conftest import LANGS, ROOT, copy_project, mkdocs_build

pytestmark = pytest.mark.build


def entries(cache) -> dict[str, str]:
    """kind/name -> digest of every output in a build cache (not the records of built pages)."""
    return {
        p.parent.relative_to(cache).as_posix(): p.stem
        for p in cache.rglob("*")
        if p.is_file() and not p.name.startswith(".") and p.parts[len(cache.parts)] != "pages"
    }


def test_an_edit_rebuilds_only_what_is_made_from_the_edited_file(built_site, tmp_path):
    project = copy_project(tmp_path, share_cache=False)
    shutil.copytree(ROOT / ".cache", project / ".cache")  # warm, as after any build
    before = entries(project / ".cache")
    with open(project / "snippets/softcap.py", "a", encoding="utf-8") as fh:
        fh.write("EDITED = True  # a one-line edit to the code\n")
    with open(project / "snippets/variance.py", "a", encoding="utf-8") as fh:
        fh.write("# a comment: what the code does is the same\n")
    card = project / "docs/en/cards/why-scale.md"
    card.write_text(
        card.read_text(encoding="utf-8").replace("## Pitfalls", "Edited.\n\n## Pitfalls")
    )
    result = mkdocs_build(project, project / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    after = entries(project / ".cache")
    assert after.keys() == before.keys()
    rebuilt = {name for name in after if after[name] != before[name]}
    # softcap.py feeds the softcap figure and the derivation tables' module (which imports it).
    expected = {f"figures/softcap.{lang}" for lang in LANGS}
    expected |= {f"values/{name}.{lang}" for name in derivation_tables.VALUES for lang in LANGS}
    assert rebuilt == expected
    assert "Edited." in (project / "site/en/cards/why-scale/index.html").read_text("utf-8")
