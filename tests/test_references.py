"""The site's bibliography and glossary as a whole: nothing listed that no page uses."""

from lockstep.citations import cited
from tests.conftest import SITE


def _pages(lang: str) -> dict[str, str]:
    tree = SITE.tree(lang)
    return {p: (tree / p).read_text(encoding="utf-8") for p in SITE.pages(lang)}


def test_every_work_in_the_bibliography_is_cited_by_a_page_in_every_language():
    works = set(SITE.bibliography().works)
    for lang in SITE.languages.codes:
        used = {key for text in _pages(lang).values() for key in cited(text)}
        assert works - used == set(), f"{lang}: listed but cited by no page"


def test_every_glossary_term_is_used_on_some_page_in_every_language():
    glossary = SITE.glossary()
    for lang in SITE.languages.codes:
        prose = "\n".join(_pages(lang).values())
        unused = [t.key for t in glossary.terms.values() if t.names[lang] not in prose]
        assert unused == [], f"{lang}: terms no page uses"
