"""MathJax shipped from the pinned PyPI package django-static-mathjax instead of a CDN."""

from __future__ import annotations

import importlib.util
from pathlib import Path

DEST = "assets/mathjax/tex-svg-full.js"


def mathjax_file() -> Path:
    """tex-svg-full.js (SVG output: no web font, works from file://) in the installed package."""
    spec = importlib.util.find_spec("mathjax")
    path = (
        Path(spec.submodule_search_locations[0]) / "static/mathjax/es5/tex-svg-full.js"
        if spec and spec.submodule_search_locations
        else None
    )
    if path is None or not path.is_file():
        raise FileNotFoundError("MathJax not found: install django-static-mathjax (make venv)")
    return path
