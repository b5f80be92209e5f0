"""What a reader's first visit costs: bytes transferred and time until the formulas are drawn.

    python -m bench.pages site/            # every page of a built site -> bench/results/pages.json
    python -m bench.pages site/ --quick    # three pages, to a file given with --out

Each page is opened in a fresh Chromium context (an empty cache), served from 127.0.0.1.
Bytes: every response body, and the same gzip-compressed (level 6) for text types, as a
static host such as GitHub Pages sends them; images and archives count as they are. Times
from the start of navigation, on this machine without throttling: `paint_ms`, the first
contentful paint; `parsed_ms`, the end of the DOMContentLoaded event (the whole page parsed
and the theme's scripts run, which lay out what is on screen); `math_ms`, time to math:
where the build drew the formulas (they arrive as SVG inside the HTML, so the first paint
shows them with their text), the first contentful paint; where MathJax typesets in the
browser, the end of its first typesetting (its `startup.pageReady` promise). Needs Chromium
(CHROMIUM, as the tests use it).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gzip
import json
import os
import platform
import re
import statistics
import sys
from pathlib import Path

from lockstep.browser import built_pages, chromium, served

RESULTS = Path(__file__).resolve().parent / "results" / "pages.json"
TEXT = ("text/", "application/javascript", "application/json", "image/svg+xml", "application/xml")
# Runs before the page's own scripts: if the page configures MathJax, ask MathJax to note the
# time its first typesetting is done.
MATH_TIMER = """
Object.defineProperty(window, "MathJax", {
  configurable: true,
  set(config) {
    window.__typesetting = true;
    delete window.MathJax;
    config.startup = Object.assign({}, config.startup, {
      pageReady: () => MathJax.startup.defaultPageReady().then(() => {
        window.__mathDone = performance.now();
      }),
    });
    window.MathJax = config;
  },
});
"""
TIMES = """() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0].startTime;
  const parsed = performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd;
  return {paint, parsed, math: window.__mathDone ?? paint};
}"""
QUICK = ("", "en/cards/handbook/", "cards/practice/")
# First-visit budgets, gzip bytes: 150 KB a page (about the global P75 budget of HTML, CSS and
# fonts); the pages that carry the whole deck so that they work offline and from file://
# (the printable handbook, practice mode) 400 KB.
BUDGET = 150_000
DECK_PAGES = {"cards/handbook/": 400_000, "cards/practice/": 400_000}
LOADED = re.compile(  # what a page fetches as it loads: scripts, stylesheets, icon, images
    r'<script[^>]*\ssrc="([^"]+)"'
    r'|<link[^>]*rel="(?:stylesheet|icon)"[^>]*href="([^"]+)"'
    r'|<img[^>]*\ssrc="([^"]+)"'
)


def budget(page: str) -> int:
    """The first-visit budget of a page (its path in the site, either language)."""
    return DECK_PAGES.get(page.removeprefix("en/"), BUDGET)


def estimate(site: Path, page: str) -> int:
    """A first visit's gzip bytes without a browser: the page and the scripts, stylesheets, icon
    and images it names, each as `visit` counts it (what the page fetches later, such as the search
    index when the reader opens search, is not counted there either)."""
    html = site / page / "index.html" if page.endswith("/") or not page else site / page
    paths = {html}
    for match in LOADED.finditer(html.read_text(encoding="utf-8")):
        url = next(g for g in match.groups() if g)
        if "://" in url or url.startswith("data:"):
            continue
        target = (html.parent / url.split("?", 1)[0].split("#", 1)[0]).resolve()
        if target.is_file():
            paths.add(target)
    return sum(_sent_bytes(path) for path in paths)


@functools.cache  # the theme's scripts and styles are on every page: compressed once
def _sent_bytes(path: Path) -> int:
    """A file's bytes as a static host sends them: text gzip-compressed, the rest as it is."""
    data = path.read_bytes()
    return (
        len(gzip.compress(data, 6))
        if path.suffix in (".html", ".js", ".css", ".svg")
        else len(data)
    )


def visit(browser, url: str) -> dict:
    """One cold visit: requests, bytes raw and gzip-compressed, time to math, formulas drawn."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(MATH_TIMER)
    sizes = []

    def record(response):
        try:
            body = response.body()
        except Exception:  # a redirect or an aborted request has no body
            return
        kind = response.headers.get("content-type", "")
        packed = len(gzip.compress(body, 6)) if kind.startswith(TEXT) else len(body)
        sizes.append((len(body), packed))

    page.on("response", record)
    page.goto(url, wait_until="load")
    if page.evaluate("window.__typesetting === true"):
        page.wait_for_function("window.__mathDone !== undefined", timeout=120_000)
    page.wait_for_load_state("networkidle")
    times = page.evaluate(TIMES)
    formulas = page.locator("mjx-container").count()
    context.close()
    return {
        "requests": len(sizes),
        "bytes": sum(raw for raw, _ in sizes),
        "bytes_gzip": sum(packed for _, packed in sizes),
        "paint_ms": round(times["paint"]),
        "parsed_ms": round(times["parsed"]),
        "math_ms": round(times["math"]),
        "formulas": formulas,
    }


def machine() -> dict:
    """Where the numbers were measured."""
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(terse=True),
        "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> int:
    """Visit every page (or three with --quick) and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--quick", action="store_true", help="three pages only")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        raise SystemExit(f"{args.site} holds no built site: run `make build` first")
    targets = list(QUICK) if args.quick else built_pages(args.site)
    rows = []
    with served(args.site) as root, chromium() as browser:
        for path in targets:
            row = {"page": path, **visit(browser, root + path)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    gz = [r["bytes_gzip"] for r in rows]
    math = [r["math_ms"] for r in rows]
    parsed = [r["parsed_ms"] for r in rows]
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "method": __doc__.split("\n\n", 2)[2].strip(),
        "summary": {
            "pages": len(rows),
            "bytes_gzip_median": round(statistics.median(gz)),
            "bytes_gzip_max": max(gz),
            "math_ms_median": round(statistics.median(math)),
            "math_ms_max": max(math),
            "parsed_ms_median": round(statistics.median(parsed)),
            "parsed_ms_max": max(parsed),
        },
        "results": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(report["summary"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
