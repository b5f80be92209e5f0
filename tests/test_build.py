"""`mkdocs build --strict` passes, and fails with an actionable message on each kind of breakage."""

import pytest

from tests.conftest import PUBLISHED, mkdocs_build

PAGE = "why-dot-product-grows"


def test_strict_build_produces_both_languages(built_site):
    for lang_dir in (built_site, built_site / "en"):
        assert (lang_dir / "index.html").is_file()
        assert (lang_dir / PAGE / "index.html").is_file()
    zh = (built_site / PAGE / "index.html").read_text(encoding="utf-8")
    en = (built_site / "en" / PAGE / "index.html").read_text(encoding="utf-8")
    assert 'lang="zh"' in zh and 'lang="en"' in en


def test_build_ships_figures_and_draws_every_formula(built_site):
    import re

    assert (built_site / "assets/figures/qk_distribution.zh.svg").stat().st_size > 1000
    assert (built_site / "en/assets/figures/qk_distribution.en.svg").stat().st_size > 1000
    assert "mjx-assistive-mml" in (built_site / "assets/stylesheets/math.css").read_text()
    drawn = 0
    for page in built_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "mathjax" not in " ".join(re.findall(r"<script[^>]*>", html)).lower(), page
        for m in re.finditer(r'<(span|div) class="arithmatex">(.{0,15})', html):
            assert m[2].startswith("<mjx-container"), f"{page}: formula left as TeX: {m[0]}"
        ids = set(re.findall(r'id="(MJX-[^"]+)"', html))
        assert set(re.findall(r'href="#(MJX-[^"]+)"', html)) <= ids, f"{page}: glyph missing"
        drawn += html.count("<mjx-container")
    assert drawn > 1000


def test_build_fills_in_computed_values(built_site):
    html = (built_site / "en" / PAGE / "index.html").read_text(encoding="utf-8")
    assert "{{" not in html, "a computed placeholder was left in the page"
    assert "<table>" in html


def test_built_pages_reference_no_other_host(built_site):
    import re

    offenders = set()
    for page in built_site.rglob("*.html"):
        for url in re.findall(r'(?:src|href)="(https?://[^"]+)"', page.read_text(encoding="utf-8")):
            if not url.startswith(PUBLISHED):
                offenders.add(url)
    # Links a reader clicks (e.g. to a paper) are fine; nothing may be *loaded* from elsewhere.
    loaded = {
        u
        for u in offenders
        if u.endswith((".js", ".css", ".woff", ".woff2", ".ttf", ".svg", ".png"))
    }
    assert not loaded, f"assets loaded from another host: {sorted(loaded)}"


def _break(project, path, old, new):
    target = project / path
    text = target.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}: update this test"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")


def _break_and_build(project, path, old, new):
    _break(project, path, old, new)
    return mkdocs_build(project, project / "site")


def _failed_with(result, *needles):
    out = result.stdout + result.stderr
    assert result.returncode != 0, f"build should have failed:\n{out}"
    for needle in needles:
        assert needle in out, f"{needle!r} not in the build's message:\n{out}"


@pytest.mark.build
def test_missing_translation_fails_the_build(project_copy):
    (project_copy / f"docs/en/{PAGE}.md").unlink()
    result = mkdocs_build(project_copy, project_copy / "site")
    _failed_with(result, "missing translation", f"docs/en/{PAGE}.md")


# A broken link and a missing figure: tests/generator/test_incremental.py, on a dirty rebuild
# of a copy that test builds anyway (a full build of its own cost 30 s).


@pytest.mark.build
def test_missing_snippet_fails_the_build(project_copy):
    # The build stops at the page (the default language's is read first).
    result = _break_and_build(
        project_copy,
        f"docs/zh/{PAGE}.md",
        '--8<-- "snippets/variance.py"',
        '--8<-- "snippets/gone.py"',
    )
    _failed_with(result, "snippets/gone.py", f"zh/{PAGE}.md")


@pytest.mark.build
def test_unknown_computed_value_fails_the_build(project_copy):
    result = _break_and_build(
        project_copy, f"docs/zh/{PAGE}.md", "{{ sigma_table }}", "{{ sigma_tabel }}"
    )
    _failed_with(result, "sigma_tabel")
