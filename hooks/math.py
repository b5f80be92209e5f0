"""Ship MathJax from the pinned PyPI package (django-static-mathjax) instead of a CDN."""

import importlib.util
from pathlib import Path

from _i18n import add_generated, current_language
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

_spec = importlib.util.find_spec("mathjax")
MATHJAX = (
    Path(_spec.submodule_search_locations[0]) / "static" / "mathjax" / "es5" / "tex-svg-full.js"
)


@event_priority(-200)  # after the i18n plugin has laid out this language's files
def on_files(files: Files, config) -> Files:
    if not MATHJAX.is_file():
        raise FileNotFoundError(f"MathJax not found at {MATHJAX}: run `make venv`")
    _, prefix = current_language(config)
    # Every language's pages load extra_javascript from the site root, so one copy suffices.
    if prefix == "":
        add_generated(files, config, "assets/mathjax/tex-svg-full.js", MATHJAX)
    return files
