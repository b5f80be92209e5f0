"""A built site in Chromium: its pages, served as a static host serves them, and the browser.

One home for what the exports after the build (`single_file`), the page benchmark and the
browser tests all need.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Debian's Chromium (.ci/run installs it). CHROMIUM=playwright takes the one that
# `playwright install chromium` downloads instead: the GitHub workflow runs on Ubuntu, whose
# chromium package is a snap.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
BUNDLED = "playwright"
# Without the background-networking flags Chromium keeps calling home.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def available() -> bool:
    """Whether there is a Chromium to drive."""
    return CHROMIUM == BUNDLED or Path(CHROMIUM).exists()


@contextmanager
def chromium() -> Iterator:
    """Chromium driven by Playwright (CHROMIUM says which)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        path = None if CHROMIUM == BUNDLED else CHROMIUM
        browser = p.chromium.launch(executable_path=path, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def built_pages(site: Path) -> list[str]:
    """Every page of a built site, as its path below the root (`""`, `en/cards/why-scale/`)."""
    found = []
    for index in sorted(site.rglob("index.html")):
        rel = index.parent.relative_to(site).as_posix()
        path = "" if rel == "." else rel + "/"
        if not path.startswith(("assets/", "search/")):
            found.append(path)
    return found


@contextmanager
def served(site: Path, sub_path: str = "/") -> Iterator[str]:
    """`site` served on 127.0.0.1 under `sub_path` by a quiet thread, as a static host serves
    it: nothing outside `sub_path`, no folder listings, and 404.html (if there is one) for a
    missing page. Yields the site's URL."""

    class StaticHost(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path: str) -> str:
            if not path.startswith(sub_path):
                return str(site / "no such file")
            return super().translate_path("/" + path.removeprefix(sub_path))

        def send_error(self, code, message=None, explain=None):
            page = site / "404.html"
            if code != 404 or not page.is_file():
                return super().send_error(code, message, explain)
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def list_directory(self, path):
            self.send_error(404)

        def log_message(self, *args):
            pass

    handler = functools.partial(StaticHost, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{sub_path}"
    finally:
        server.shutdown()
