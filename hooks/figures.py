"""Draw the figures of snippets/figures/ at build time into .cache/figures and add them to the site.

The cache sits outside docs/ so `mkdocs serve` does not rebuild in a loop; file names carry a
hash of every source under snippets/ (code and cached data), so an edit redraws and an
unchanged tree reuses them.
"""

from pathlib import Path

from _i18n import add_generated, current_language
from _sources import BENCH_RESULTS, ROOT, SOURCES, source_hash
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files

from snippets.figures import FIGURES, render_svg

CACHE = ROOT / ".cache" / "figures"


def figure_path(name: str, lang: str) -> Path:
    """Draw figure `name` in `lang` unless the cache already has it for these sources."""
    path = CACHE / source_hash() / f"{name}.{lang}.svg"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(render_svg(name, lang))
        tmp.replace(path)
    return path


@event_priority(-200)  # after the i18n plugin has laid out this language's files
def on_files(files: Files, config) -> Files:
    lang, _ = current_language(config)
    for name in FIGURES:
        add_generated(files, config, f"assets/figures/{name}.{lang}.svg", figure_path(name, lang))
    return files


def on_serve(server, config, builder):
    server.watch(str(SOURCES))
    server.watch(str(BENCH_RESULTS))
    return server
