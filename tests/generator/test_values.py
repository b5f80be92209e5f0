"""Computed values: unknown names fail loudly, values are cached, page-reading ones are not."""

import pytest

from lockstep.cache import Cache
from lockstep.languages import Languages
from lockstep.values import Values, uncached
from tests.conftest import ROOT

calls = []


def counted(lang: str) -> str:
    calls.append(lang)
    return f"value in {lang}"


def test_unknown_name_names_the_known_ones():
    values = Values({"sigma_table": counted}, ROOT, None)
    with pytest.raises(KeyError, match=r"sigma_tabel.*known: sigma_table"):
        values.render("sigma_tabel", "en")


def test_a_value_is_computed_once_per_language_and_a_page_reading_one_once_per_build(tmp_path):
    calls.clear()
    values = Values({"v": counted, "u": uncached(counted)}, ROOT, Cache(tmp_path, "md"))
    assert [values.render("v", lang) for lang in ("en", "en", "zh")] == [
        "value in en",
        "value in en",
        "value in zh",
    ]
    assert calls == ["en", "zh"]
    values.render("u", "en"), values.render("u", "en")
    assert calls == ["en", "zh", "en"]
    next_build = Values({"u": uncached(counted)}, ROOT, Cache(tmp_path, "md"))
    next_build.render("u", "en")
    assert calls == ["en", "zh", "en", "en"]


def test_a_name_may_be_defined_once():
    values = Values({"v": counted}, ROOT, None)
    with pytest.raises(ValueError, match="twice"):
        values.add({"v": counted})


def test_languages_know_the_default_prefix_and_reject_unknown_codes():
    langs = Languages.from_i18n([{"locale": "zh", "default": True}, {"locale": "en"}])
    assert (langs.prefix("zh"), langs.prefix("en"), langs.others("zh")) == ("", "en/", ("en",))
    with pytest.raises(ValueError, match="fr"):
        langs.prefix("fr")
    with pytest.raises(ValueError, match="default"):
        Languages.from_i18n([{"locale": "zh"}, {"locale": "en"}])
