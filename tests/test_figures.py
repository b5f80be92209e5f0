"""Figures: the data they plot is right, and the SVGs are deterministic and text-free."""

import math
import re

import numpy as np
import pytest

from lockstep.figures import figure_module, figure_names, render_svg
from snippets.figures import qk_distribution
from tests.conftest import LANGS, SITE

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


@pytest.mark.parametrize("name", NAMES)
def test_svg_is_byte_identical_across_renders_and_has_text_as_paths(name):
    a, b = render_svg(PACKAGE, name, "zh"), render_svg(PACKAGE, name, "zh")
    assert a == b
    svg = a.decode()
    assert "<text" not in svg, "text must be saved as paths so readers need no font"
    assert not re.search(r"<dc:date>", svg), "a date makes builds differ"


def test_languages_give_different_svgs():
    zh, en = (render_svg(PACKAGE, "qk_distribution", lang) for lang in LANGS)
    assert zh != en


def test_unknown_language_or_figure_is_rejected():
    with pytest.raises(ValueError, match="fr"):
        render_svg(PACKAGE, "qk_distribution", "fr")
    with pytest.raises(KeyError, match="qk_distribution"):
        render_svg(PACKAGE, "nope", "en")
