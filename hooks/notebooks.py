"""mkdocs-jupyter under mkdocs-static-i18n's folder layout: the glue, and nothing else.

Upstream: ultrabug/mkdocs-static-i18n#198 ("Incompatible with mkdocs-jupyter plugin"), open.
Remove fixes 1 and 2 (and this hook's line in mkdocs.yml) once a release fixes that issue.

1. i18n re-creates every File in its on_files (priority -100), after mkdocs-jupyter has marked
   the notebooks as pages (priority 0). A new File decides by its suffix that a `.py` is not a
   page, so i18n treats the notebook as an asset: the source is copied raw to the page's URL,
   unexecuted and with no language alternates, and the strict build does not notice.
   Fix: a file that was a page stays a page while i18n re-creates it, so notebooks get the same
   per-language destination, fallback and language switcher as Markdown pages.
2. i18n runs one build per language, and mkdocs-jupyter evicts at the end of each build the
   cached notebooks that build did not use: the other language's. Fix: one cache folder per
   language, under a hash of snippets/ (mkdocs-jupyter's key covers only the notebook file, and
   the notebooks import snippets/ and read its cached data); older hashes are removed.
3. Not i18n, but only Chinese pages meet it: mkdocs-jupyter's heading ids keep ASCII only, so a
   Chinese heading gets id="" while the page's table of contents links to #_1, #_2, ...
   Fix: the headings take the table of contents' ids, in order.
4. nbconvert leaves links as written. A notebook links to a page as Markdown does, by its
   source file (`../derivation/training.md`, which also works in Jupyter); the link is resolved
   to that language's page URL here, and a link to a missing page fails the build.
"""

import posixpath
import re
import shutil

from _i18n import current_language
from _sources import ROOT, source_hash
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs_static_i18n import folder

CACHE = ROOT / ".cache" / "notebooks"
HEADING = re.compile(r'<h([1-6]) id="[^"]*">(.*?)<a class="anchor-link" href="#[^"]*">', re.S)
PAGE_LINK = re.compile(r'href="([^":#]+\.md)(#[^"]*)?"')


class NotebookPage(File):
    """A file mkdocs-jupyter renders: a documentation page whatever its suffix."""

    def is_documentation_page(self) -> bool:
        return True


def _keep_page_type(create_i18n_file):
    def create(file: File, *args, **kwargs) -> File:
        new = create_i18n_file(file, *args, **kwargs)
        if file.is_documentation_page() and not new.is_documentation_page():
            new.__class__ = NotebookPage
        return new

    create.keeps_page_type = True
    return create


if not getattr(folder.create_i18n_file, "keeps_page_type", False):
    folder.create_i18n_file = _keep_page_type(folder.create_i18n_file)


def on_pre_build(config):
    lang, _ = current_language(config)
    digest = source_hash()
    for old in CACHE.glob("*"):
        if old.name != digest:
            shutil.rmtree(old, ignore_errors=True)
    config.plugins["mkdocs-jupyter"].config["cache_dir"] = str(CACHE / digest / lang)


def _toc_ids(items) -> list[str]:
    return [i for item in items for i in (item.id, *_toc_ids(item.children))]


def on_page_content(html, page, config, files):
    if not isinstance(page.file, NotebookPage):
        return html
    ids = _toc_ids(page.toc)
    if len(ids) != len(HEADING.findall(html)):
        raise PluginError(f"{page.file.src_uri}: headings and table of contents do not match")
    slugs = iter(ids)

    def relabel(m: re.Match) -> str:
        slug = next(slugs)
        return f'<h{m[1]} id="{slug}">{m[2]}<a class="anchor-link" href="#{slug}">'

    def resolve(m: re.Match) -> str:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), m[1]))
        target = files.get_file_from_path(path)
        if target is None:
            raise PluginError(f"{page.file.src_uri}: link to a missing page {m[1]!r}")
        return f'href="{target.url_relative_to(page.file)}{m[2] or ""}"'

    return PAGE_LINK.sub(resolve, HEADING.sub(relabel, html))
