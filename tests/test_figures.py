"""Figures: the data they plot is right, and the SVGs are deterministic (a render here is the
build's, byte for byte) and text-free."""

import math
import re

import numpy as np
import pytest

from lockstep.figures import figure_module, figure_names, render_svg
from snippets.figures import qk_distribution
from tests.conftest import LANGS, SITE, lang_dir

PACKAGE = SITE.options.figures
NAMES = figure_names(PACKAGE)


def test_qk_distribution_data_has_std_sqrt_d_k_unscaled_and_one_scaled():
    data = qk_distribution.data()
    assert sorted(data) == sorted(qk_distribution.D_KS)
    for d_k, samples in data.items():
        assert np.std(samples["raw"]) == pytest.approx(math.sqrt(d_k), rel=0.03)
        assert np.std(samples["scaled"]) == pytest.approx(1.0, rel=0.03)


def test_every_figure_module_is_found():
    assert "qk_distribution" in NAMES and "style" not in NAMES  # style draws nothing


@pytest.mark.parametrize("name", NAMES)
def test_every_figure_has_labels_in_every_language(name):
    labels = figure_module(PACKAGE, name).LABELS
    assert set(labels) == set(LANGS)
    assert len({frozenset(v) for v in labels.values()}) == 1, "label keys differ between languages"


def _built(site, name: str, lang: str) -> bytes:
    """The figure as the shared build drew it, in another process."""
    return (lang_dir(site, lang) / SITE.options.figures_dest / f"{name}.{lang}.svg").read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_svg_is_byte_identical_across_renders_and_has_text_as_paths(name, built_site):
    # A render here and the build's, in another process (another hash seed: a set's order
    # that reached the file would differ).
    svg = render_svg(PACKAGE, name, "zh")
    assert svg == _built(built_site, name, "zh")
    assert "<text" not in svg.decode(), "text must be saved as paths so readers need no font"
    assert not re.search(r"<dc:date>", svg.decode()), "a date makes builds differ"


def test_languages_give_different_svgs(built_site):
    zh, en = (_built(built_site, "qk_distribution", lang) for lang in LANGS)
    assert zh != en


def test_unknown_language_or_figure_is_rejected():
    with pytest.raises(ValueError, match="fr"):
        render_svg(PACKAGE, "qk_distribution", "fr")
    with pytest.raises(KeyError, match="qk_distribution"):
        render_svg(PACKAGE, "nope", "en")


@pytest.mark.parametrize("name", NAMES)
def test_series_differ_by_more_than_colour_and_have_contrast(name):
    from lockstep.figure_style import style_problems

    for lang in LANGS:
        fig = figure_module(PACKAGE, name).draw(lang)
        assert style_problems(fig) == []


def test_the_style_check_catches_colour_only_series_and_pale_colours():
    from matplotlib.figure import Figure

    from lockstep.figure_style import style_problems

    ax = Figure().subplots()
    ax.plot([0, 1], color="#1f5fb4", linestyle="-", label="a")
    ax.plot([1, 0], color="#c0392b", linestyle="-", label="b")  # same look, other colour
    ax.plot([1, 1], color="#ffcc00", linestyle="--", label="c")  # yellow on white: 1.6:1
    problems = style_problems(ax.figure)
    assert any("colour only" in p for p in problems) and any("'c'" in p for p in problems)
    bars = Figure().subplots()
    bars.bar([0, 1], [1, 2], color="#1f5fb4", linestyle="-", label="reference")
    bars.bar([0, 1], [2, 1], color="#c0392b", linestyle="--", label="tiled")  # outline not drawn
    bars.bar([0, 1], [1, 1], color="white", label="ghost")  # white on white, no outline
    bars.plot([0, 1], [1, 1], color="#000000", label="line")  # a line is not a bar
    problems = style_problems(bars.figure)
    assert any("'tiled' and 'reference' differ by colour only" in p for p in problems)
    assert any("'ghost' has contrast 1.00:1" in p for p in problems)
    assert not any("'line'" in p for p in problems)
    bars.errorbar([0, 1], [1, 2], yerr=0.1, label="errors")  # containers without bars
    style_problems(bars.figure)
