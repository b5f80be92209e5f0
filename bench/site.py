"""What an author waits for: build times and edit-to-preview latency as the deck grows.

    python -m bench.site                      # decks of 60, 130 and 500 cards per language
    python -m bench.site --sizes 60 --out F   # one size, to another file
    python -m bench.site --serve-only         # only the edit latencies (no builds, no tests)

For each size the project is copied (the files git tracks or would track) into a scratch
folder and the deck is grown to that many cards per language by copying the existing cards
under new ids, listed in the nav after the others. Then, in that copy: a cold `mkdocs build
--strict` (no cache, no site), a warm one (caches full), the cards' docs tests (every code
block, numbers, words and parity check of the cards' pages), and `mkdocs serve` timed from
saving an edit until the served output shows it, for (a) a prose edit to one card (and until
the handbook shows it too), (b) an edit to one figure's module, (c) a comment added to a
snippet that two pages include. Each edit is made three times, the nine in a shuffled order,
each saved once the server is idle, and reverted, the revert waited for, before the next; the
median of the three is reported. Times are wall-clock seconds on this machine; the builds and
tests are one run each.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import yaml

from bench.pages import machine
from lockstep.cards.deck import Deck
from lockstep.mkdocs.config_file import load_site

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "site.json"
# 60: about the deck's own size (61 cards per language on 2026-12-03; a deck is only grown,
# never cut, so the first size measures the deck as it is). The 2026-12-01 results, before the
# listing pages left the edit's path, were at 13 (the deck then), 130 and 500:
# bench/results/site-2026-12-01.json.
SIZES = (60, 130, 500)
BEFORE = "site-2026-12-01"
# The three edits: name -> (file, old text, new text, the served paths that must show it, the
# served paths that show it after them). The prose edit is to a part said aloud (the
# one-sentence answer), so the handbook, practice mode and the exports carry it too: under
# `make serve` the build after the edit's own writes them (lockstep/deferred.py).
EDITS = {
    "prose": (
        "docs/en/cards/why-scale.md",
        "stops the softmax from starting saturated",
        "stops the softmax from ever starting saturated",
        ["en/cards/why-scale/"],
        ["en/cards/handbook/"],
    ),
    "figure": (
        "snippets/figures/qk_distribution.py",
        '"x": "value"',
        '"x": "values"',
        ["en/assets/figures/qk_distribution.en.svg"],
        [],
    ),
    "snippet": (
        "snippets/variance.py",
        "\nimport math\n",
        "\n# (an added comment)\nimport math\n",
        ["why-dot-product-grows/", "en/why-dot-product-grows/"],
        [],
    ),
}
REPEATS = 3  # each edit, the edits in a shuffled order; the median is reported
EDIT_TIMEOUT_S = 900
# The server counts as idle once every build it started has ended and none has started for
# this long (more than its 0.5 s polling of the files): an edit is saved only then, so that it
# does not wait for the build the last one asked for.
QUIET_S = 1.5
# What an author should wait at most (seconds): a prose edit and a snippet edit at about
# today's deck size, a prose edit at 500 cards per language. A target at n cards is checked
# against the smallest size measured from n up to (not including) 2n.
TARGETS = {"prose_edit_s": {60: 2.0, 500: 5.0}, "snippet_edit_s": {60: 2.0}}
# The warm build should grow no faster than linearly: what one more card costs between the
# two largest sizes may exceed its cost between the two smallest by this factor at most (one
# run each: the allowance for noise).
GROWTH_ALLOWANCE = 1.25
SERVE_FLAGS = ("--livereload", "--dirty")  # as `make serve` runs it


def checked_row(rows: list[dict], n: int) -> dict | None:
    """The measurement a target at `n` cards per language is checked against: the smallest
    size measured from n up to (not including) 2n, or None."""
    near = [r for r in rows if n <= r["cards_per_language"] < 2 * n]
    return min(near, key=lambda r: r["cards_per_language"]) if near else None


def project_files(root: Path) -> list[str]:
    """The files git tracks, or would track, under root (what a fresh clone plus edits holds)."""
    out = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [f for f in out.split("\0") if f and (root / f).is_file()]


def copy_project(root: Path, dest: Path) -> None:
    """A scratch copy of the project; node_modules (MathJax) linked, not copied."""
    for name in project_files(root):
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target)
    (dest / "node_modules").symlink_to(root / "node_modules")


def letters(k: int) -> str:
    """0 -> 'a', 25 -> 'z', 26 -> 'ba': ids made of letters (card ids allow no capitals)."""
    out = ""
    while True:
        k, r = divmod(k, 26)
        out = chr(97 + r) + out
        if not k:
            return out


def grow_deck(project: Path, size: int) -> int:
    """Copy the cards until each language has `size`; the new ids go into the nav. Returns how
    many cards each language has (the original count if it is already larger)."""
    site = load_site(project / "mkdocs.yml")
    deck = Deck(site)
    originals = [card.id for card in deck.cards(site.languages.default)]
    extra = range(max(0, size - len(originals)))
    new_ids = [f"{originals[k % len(originals)]}-copy-{letters(k)}" for k in extra]
    for new_id in new_ids:
        card = new_id.rsplit("-copy-", 1)[0]
        for lang in site.languages:
            text = (deck.folder(lang) / f"{card}.md").read_text(encoding="utf-8")
            (deck.folder(lang) / f"{new_id}.md").write_text(
                text.replace(f"id: {card}\n", f"id: {new_id}\n", 1), encoding="utf-8"
            )
    folder = deck.options.folder
    stated = project / site.options.stated_numbers
    numbers = yaml.safe_load(stated.read_text(encoding="utf-8")) or {}
    for new_id in new_ids:  # a copy states the numbers its card states, for the same reasons
        card = new_id.rsplit("-copy-", 1)[0]
        if f"{folder}/{card}.md" in numbers:
            numbers[f"{folder}/{new_id}.md"] = numbers[f"{folder}/{card}.md"]
    stated.write_text(yaml.safe_dump(numbers, allow_unicode=True), encoding="utf-8")
    if new_ids:
        config = project / "mkdocs.yml"
        text = config.read_text(encoding="utf-8")
        anchor = re.search(rf"^( +)- {folder}/handbook\.md\n", text, re.M)
        listed = "".join(f"{anchor.group(1)}- {folder}/{i}.md\n" for i in new_ids)
        config.write_text(text[: anchor.start()] + listed + text[anchor.start() :], "utf-8")
    return len(originals) + len(new_ids)


def timed(cmd: list[str], cwd: Path, env: dict) -> float:
    """Seconds a command takes; its failure stops the benchmark with its output."""
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return round(took, 2)


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> bytes | None:
    """The served bytes at url, or None while the server is not answering."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read()
    except OSError:
        return None


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll `check` every 50 ms until it holds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


# `mkdocs serve` adds a script with a fresh number to every HTML response: not the page's.
LIVERELOAD = re.compile(rb"<script>[^<]*livereload\(\d+, \d+\);\s*</script>")


def digest_of(url: str) -> str | None:
    """sha256 of what is served at url, the live-reload script left out (None when nothing is)."""
    body = fetch(url)
    return hashlib.sha256(LIVERELOAD.sub(b"", body)).hexdigest() if body is not None else None


def edit_latency(
    project: Path, base: str, path: str, old: str, new: str, urls: list[str], later: list[str]
) -> tuple[float, float | None]:
    """Seconds from saving `old` -> `new` in `path` until every url serves different bytes, and
    until every url in `later` does too (None without any); then the edit is undone and the
    undo waited for (not timed)."""
    target = project / path
    text = target.read_text(encoding="utf-8")
    if text.count(old) != 1:
        raise SystemExit(f"{path}: the edit needs {old!r} exactly once")
    before = {u: digest_of(base + u) for u in [*urls, *later]}
    missing = [u for u, d in before.items() if d is None]
    if missing:
        raise SystemExit(f"nothing is served at {missing}")

    def shown(group: list[str]) -> bool:
        return all(digest_of(base + u) not in (before[u], None) for u in group)

    start = time.perf_counter()
    target.write_text(text.replace(old, new), encoding="utf-8")
    wait_until(lambda: shown(urls), EDIT_TIMEOUT_S, f"the edit to {path} to show")
    took = round(time.perf_counter() - start, 2)
    then = None
    if later:
        wait_until(lambda: shown(later), EDIT_TIMEOUT_S, f"the edit to {path} to show in {later}")
        then = round(time.perf_counter() - start, 2)
    target.write_text(text, encoding="utf-8")
    wait_until(
        lambda: all(digest_of(base + u) == before[u] for u in before),
        EDIT_TIMEOUT_S,
        f"the undo of {path} to show",
    )
    return took, then


def builds(log: Path) -> tuple[int, int]:
    """How many builds the server's log shows started, and how many ended."""
    text = log.read_text(encoding="utf-8", errors="replace")
    ended = text.count("Reloading browsers") + text.count("An error happened during the rebuild")
    return text.count("Building documentation"), ended + 1  # the first build logs no end


def wait_idle(log: Path) -> None:
    """Until the server has ended every build it started and started none for QUIET_S."""
    deadline, last, since = time.monotonic() + EDIT_TIMEOUT_S, None, time.monotonic()
    while True:
        now = builds(log)
        if now != last:
            last, since = now, time.monotonic()
        elif now[0] == now[1] and time.monotonic() - since >= QUIET_S:
            return
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for the server to be idle ({log})")
        time.sleep(0.1)


def serve_latencies(project: Path, env: dict) -> dict:
    """Edit-to-preview seconds under `mkdocs serve`: each edit REPEATS times, in a shuffled
    order, each saved with the server idle; the median of each, and every run."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    log_path = project / "serve.log"
    log = log_path.open("w")
    env = {**env, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "mkdocs", "serve", *SERVE_FLAGS, "--dev-addr", base[7:-1]]
    server = subprocess.Popen(cmd, cwd=project, env=env, stdout=log, stderr=subprocess.STDOUT)
    order = [name for name in EDITS for _ in range(REPEATS)]
    random.Random(size_seed(project)).shuffle(order)
    runs: dict[str, list[float]] = {name: [] for name in EDITS}
    follow: dict[str, list[float]] = {name: [] for name in EDITS}
    try:
        start = time.perf_counter()
        wait_until(lambda: fetch(base) is not None, EDIT_TIMEOUT_S, "mkdocs serve to start")
        out = {"serve_start_s": round(time.perf_counter() - start, 2)}
        for name in order:
            wait_idle(log_path)
            took, then = edit_latency(project, base, *EDITS[name])
            runs[name].append(took)
            if then is not None:
                follow[name].append(then)
            print(f"    {name} edit: {took} s" + (f", then {then} s" if then else ""), flush=True)
        for name in EDITS:
            out[f"{name}_edit_s"] = statistics.median(runs[name])
            out[f"{name}_edit_runs"] = runs[name]
            if follow[name]:
                out[f"{name}_listings_s"] = statistics.median(follow[name])
        out["edit_order"] = order
        return out
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()


def size_seed(project: Path) -> int:
    """The shuffle's seed: the copy's name (deck-<size>), so a rerun shuffles the same way."""
    return int(hashlib.sha256(project.name.encode()).hexdigest()[:8], 16)


def measure(size: int, scratch: Path, serve_only: bool = False) -> dict:
    """Every measurement for one deck size, in a fresh copy of the project."""
    project = scratch / f"deck-{size}"
    copy_project(ROOT, project)
    cards = grow_deck(project, size)
    # The copy's own packages first: an edit there must be what the build imports.
    env = {**os.environ, "PYTHONPATH": str(project), "NO_MKDOCS_2_WARNING": "1"}
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"]
    row = {"cards_per_language": cards}
    print(f"{cards} cards per language", flush=True)
    if serve_only:
        row.update(serve_latencies(project, env))
        return row
    row["cold_build_s"] = timed(build, project, env)
    row["warm_build_s"] = timed(build, project, env)
    print(f"    builds: cold {row['cold_build_s']} s, warm {row['warm_build_s']} s", flush=True)
    tests = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    site = load_site(project / "mkdocs.yml")
    decks = [str(Deck(site).folder(lang).relative_to(site.root)) for lang in site.languages]
    row["cards_tests_s"] = timed([*tests, *decks], project, env)
    print(f"    cards' docs tests: {row['cards_tests_s']} s", flush=True)
    row.update(serve_latencies(project, env))
    shutil.rmtree(project, ignore_errors=True)
    return row


def main(argv: list[str] | None = None) -> int:
    """Measure each size and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--serve-only", action="store_true", help="only the edit latencies")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-site-") as scratch:
        rows = [measure(size, Path(scratch), args.serve_only) for size in args.sizes]
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "method": __doc__.split("\n\n", 2)[2].strip(),
        "results": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
