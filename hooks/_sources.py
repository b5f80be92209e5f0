"""What build-time outputs (figures, notebooks, computed values) are made from, and its hash."""

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "snippets"
BENCH_RESULTS = ROOT / "bench" / "results"  # committed results the benchmarks page renders
SUFFIXES = (".py", ".json")  # code, and cached results such as snippets/data/training_runs.json


def hash_files(paths: list[Path]) -> str:
    """16 hex digits over the paths (relative to the repository) and contents of `paths`."""
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.relative_to(ROOT).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def source_files() -> list[Path]:
    """Every file under snippets/ and bench/results/ that build outputs are computed from."""
    return [p for root in (SOURCES, BENCH_RESULTS) for p in root.rglob("*") if p.suffix in SUFFIXES]


def source_hash() -> str:
    """16 hex digits that change whenever code or data under snippets/ or bench/results/ does."""
    return hash_files(source_files())


def source_and_pages_hash(docs_dir: Path) -> str:
    """Like source_hash, but pages count too (computed values may read their front matter)."""
    return hash_files(source_files() + list(Path(docs_dir).rglob("*.md")))
