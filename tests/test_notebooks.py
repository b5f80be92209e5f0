"""Lab notebooks: they run, the build executes and renders them per language, errors fail it."""

import re
import runpy
from pathlib import Path, PurePath

import matplotlib.pyplot as plt
import pytest
import torch
from mkdocs.utils import yaml_load

from tests.conftest import DOCS, LANGS, ROOT, SITE, lang_dir, mkdocs_build

NOTEBOOKS = sorted(p.relative_to(DOCS / "en").as_posix() for p in DOCS.glob("en/notebooks/*.py"))


def jupyter_config() -> dict:
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as fh:
        plugins = yaml_load(fh)["plugins"]
    return next(
        p["mkdocs-jupyter"] for p in plugins if isinstance(p, dict) and "mkdocs-jupyter" in p
    )


def page_dir(site: Path, lang: str, notebook: str) -> Path:
    return lang_dir(site, lang) / notebook.removesuffix(".py")


def test_there_are_notebooks_in_both_languages():
    assert NOTEBOOKS, "no notebooks under docs/en/notebooks/"
    assert NOTEBOOKS == sorted(
        p.relative_to(DOCS / "zh").as_posix() for p in DOCS.glob("zh/notebooks/*.py")
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_runs_as_a_script(notebook, capsys):
    # In the default language: the other language's file has the same code, comments aside
    # (its `translation` check, lockstep/parity.py), so it runs the same.
    threads = torch.get_num_threads()
    try:
        runpy.run_path(str(DOCS / SITE.languages.default / notebook), run_name="__main__")
    finally:
        torch.set_num_threads(threads)
        plt.close("all")
    assert capsys.readouterr().out, "a lab notebook should print what it measured"


def test_the_build_executes_notebooks_and_turns_only_them_into_pages():
    cfg = jupyter_config()
    assert cfg["execute"] is True and cfg["allow_errors"] is False
    assert cfg["include_source"] is True, "readers download the notebook next to its page"
    assert cfg["cache"] is False, "lockstep caches notebooks, keyed on what they import too"
    pages = {p for p in DOCS.rglob("*.py") if any(PurePath(p).match(g) for g in cfg["include"])}
    assert pages == set(DOCS.glob("*/notebooks/*.py")), "include must match the notebooks only"


@pytest.mark.build
def test_a_missing_notebook_translation_fails_the_build(project_copy):
    (project_copy / "docs" / "en" / NOTEBOOKS[0]).unlink()
    result = mkdocs_build(project_copy, project_copy / "site")
    assert result.returncode != 0
    assert f"docs/en/{NOTEBOOKS[0]} (translation of docs/zh/{NOTEBOOKS[0]})" in result.stderr


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_built_notebook_page_is_executed_rendered_and_downloadable(built_site, notebook, lang):
    folder = page_dir(built_site, lang, notebook)
    html = (folder / "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{lang}"' in html
    assert "# %%" not in html, "the notebook source was copied raw instead of rendered"
    assert "jp-Notebook" in html and "jp-OutputArea-output" in html, "no executed outputs"
    # The kernel inherits the environment: without `%matplotlib inline` an MPLBACKEND=Agg (as
    # in tests/conftest.py) would leave the figures out, and the cache would keep them out.
    assert re.search(r'<img[^>]*src="data:image/png', html), "a notebook figure is missing"
    assert "Traceback" not in html
    # include_source puts the .py next to the page; the notebook links to it.
    name = Path(notebook).name
    assert (folder / name).read_bytes() == (DOCS / lang / notebook).read_bytes()
    assert f'href="{name}"' in html
    # The language switcher lands on the counterpart notebook, not on the home page.
    (other,) = SITE.languages.others(lang)
    target = page_dir(built_site, other, notebook)
    hrefs = re.findall(rf'href="([^"]+)" hreflang="{other}"', html)
    assert hrefs and all((folder / h).resolve() == target.resolve() for h in hrefs), hrefs


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_built_notebook_headings_match_its_table_of_contents(built_site, notebook, lang):
    html = (page_dir(built_site, lang, notebook) / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'<h[1-6] id="([^"]*)"', html)
    assert ids and all(ids), f"a heading without an id: {ids}"
    toc = set(re.findall(r'<a href="#([^"]+)" class="md-nav__link"', html))
    assert toc and toc <= set(ids), f"table of contents links to missing anchors: {toc - set(ids)}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_links_in_built_notebooks_resolve(built_site, notebook, lang):
    folder = page_dir(built_site, lang, notebook)
    html = (folder / "index.html").read_text(encoding="utf-8")
    cells = "".join(re.findall(r'<div class="jp-RenderedHTMLCommon.*?</div>', html, re.S))
    links = [h for h in re.findall(r'href="([^"#]+)"', cells) if "://" not in h]
    assert links
    for href in links:
        assert not href.endswith(".md"), f"{href}: a link to a page's source was not resolved"
        target = (folder / href).resolve()
        assert (target / "index.html").is_file() or target.is_file(), f"broken link {href}"


def test_both_languages_keep_their_executed_notebooks_cached(built_site):
    # One language's build must not evict the other's entries (mkdocs-jupyter's own cache did).
    for lang in LANGS:
        for notebook in NOTEBOOKS:
            entries = list(SITE.cache("notebooks").glob(f"{notebook}.{lang}/*.json"))
            assert len(entries) == 1, (notebook, lang, entries)


@pytest.mark.build
def test_a_failing_notebook_cell_fails_the_build(project_copy):
    # A two-cell notebook: the kernel starts, the heading renders, the second cell raises.
    notebook = project_copy / "docs" / SITE.languages.default / NOTEBOOKS[0]  # built first
    notebook.write_text(
        '# %% [markdown]\n# Title\n\n# %%\nraise RuntimeError("cell error on purpose")\n',
        encoding="utf-8",
    )
    result = mkdocs_build(project_copy, project_copy / "site")
    out = result.stdout + result.stderr
    assert result.returncode != 0, f"build should have failed:\n{out[-3000:]}"
    assert f"Error reading page '{SITE.languages.default}/{NOTEBOOKS[0]}'" in out, out[-3000:]
    assert "cell error on purpose" in out
