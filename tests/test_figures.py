"""Figures: the data they plot is right, and the SVGs are deterministic, text-free and cached."""

import math
import re
from pathlib import Path

import numpy as np
import pytest

from snippets.figures import FIGURES, LANGS, qk_distribution, render_svg


def test_qk_distribution_data_has_std_sqrt_d_k_unscaled_and_one_scaled():
    data = qk_distribution.data()
    assert sorted(data) == sorted(qk_distribution.D_KS)
    for d_k, samples in data.items():
        assert np.std(samples["raw"]) == pytest.approx(math.sqrt(d_k), rel=0.03)
        assert np.std(samples["scaled"]) == pytest.approx(1.0, rel=0.03)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_figure_has_labels_in_every_language(name):
    from snippets.figures import figure_module

    labels = figure_module(name).LABELS
    assert set(labels) == set(LANGS)
    assert len({frozenset(v) for v in labels.values()}) == 1, "label keys differ between languages"


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_svg_is_byte_identical_across_renders_and_has_text_as_paths(name):
    a, b = render_svg(name, "zh"), render_svg(name, "zh")
    assert a == b
    svg = a.decode()
    assert "<text" not in svg, "text must be saved as paths so readers need no font"
    assert not re.search(r"<dc:date>", svg), "a date makes builds differ"


def test_languages_give_different_svgs():
    assert render_svg("qk_distribution", "zh") != render_svg("qk_distribution", "en")


def test_unknown_language_or_figure_is_rejected():
    with pytest.raises(ValueError, match="lang"):
        render_svg("qk_distribution", "fr")
    with pytest.raises(KeyError, match="qk_distribution"):
        render_svg("nope", "en")


def test_figure_cache_reuses_files_for_unchanged_sources(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "hooks"))
    import figures as hook

    monkeypatch.setattr(hook, "CACHE", tmp_path)
    first = hook.figure_path("qk_distribution", "en")
    mtime = first.stat().st_mtime_ns
    again = hook.figure_path("qk_distribution", "en")
    assert again == first and again.stat().st_mtime_ns == mtime
    assert first.parent.parent == tmp_path
