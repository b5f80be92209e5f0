"""The builds `mkdocs serve --dirty` makes, one at a time, in this process: run in a site's
folder as `python serve_rebuilds.py SITE_DIR PAGE OLD NEW`. It builds the site, replaces OLD
with NEW in PAGE, rebuilds, and rebuilds again, as the server does when the first rebuild asks
for the next; after each build it prints one JSON line: the pages written (by their source),
and whether the build asked for another.

The server itself is not started: it would start the next build as soon as it is asked to,
and the state between the two rebuilds could not be looked at."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from lockstep.mkdocs import dirty

URL = "http://127.0.0.1:8000/"  # what serve builds for; no server listens


class _Server:
    """What the plugin's on_serve is given: a server that watches files (here, none)."""

    def watch(self, path: str) -> None:
        """Watch nothing."""


def main() -> None:
    """The three builds."""
    site_dir, page, old, new = sys.argv[1:5]
    # mkdocs-static-i18n builds the other languages itself, --dirty only if the command line
    # says so (mkdocs_static_i18n/plugin.py, on_post_build).
    sys.argv[1:] = ["serve", "--dirty"]
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    written: list[str] = []
    mark = dirty.mark_modified

    def marked(pages, rebuild):  # what MkDocs is told to write
        written.extend(sorted(rebuild))
        return mark(pages, rebuild)

    dirty.mark_modified = marked
    path = Path(page)
    config = None
    for step in ("start", "edit", "next"):
        if step == "edit":
            text = path.read_text(encoding="utf-8")
            assert text.count(old) == 1, f"{page}: {old!r} must occur once"
            path.write_text(text.replace(old, new), encoding="utf-8")
        config = load_config("mkdocs.yml", site_dir=site_dir)
        if step == "start":
            config.plugins.on_startup(command="serve", dirty=True)
        config.site_url = URL
        plugin = config.plugins["lockstep"]
        written.clear()
        build(config, serve_url=URL, dirty=True)
        asked = plugin.later  # what makes it write the file the server watches
        print(json.dumps({"step": step, "written": written, "asked_for_next": asked}), flush=True)
        if step == "start":  # as `mkdocs serve` does after its first build
            plugin.on_serve(_Server(), config, None)


if __name__ == "__main__":
    main()
