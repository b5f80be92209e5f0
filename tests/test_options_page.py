"""The generator's options page is generated from lockstep's own declaration of its options,
so it follows the code: an option added to lockstep appears on the page, and the Chinese page
fails until the option has a Chinese description."""

import dataclasses

import pytest

from attention_site.lockstep_options import options_table, vocabulary_table
from lockstep.cards.vocabulary import SCHEMA
from lockstep.errors import BuildError
from lockstep.site import Options, doc, reference


def test_every_option_and_vocabulary_key_is_on_the_page_in_both_languages():
    for lang in ("en", "zh"):
        table = options_table(lang)
        assert all(f"`{name}`" in table for name, *_ in reference())
        assert all(f"`{key}`" in vocabulary_table(lang) for key in SCHEMA)


def test_an_option_added_to_lockstep_appears_and_needs_its_chinese_description():
    @dataclasses.dataclass(frozen=True)
    class Grown(Options):
        watermark: str = dataclasses.field(default="", metadata=doc("A line under every page."))

    assert "| `watermark` | text |  | A line under every page. |" in options_table("en", Grown)
    assert "`watermark`" not in options_table("en")
    with pytest.raises(BuildError, match="`watermark` has no Chinese description"):
        options_table("zh", Grown)
