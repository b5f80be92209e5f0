"""`lockstep new FOLDER`: a new site that builds with `mkdocs build --strict` and passes
`pytest` from its first command.

One page per language with a checked code block, a computed table and a figure drawn at build
time; the site's own package (named after the folder) holds the code they are made from.
Languages other than English and Chinese get the English text, to be translated.
"""

from __future__ import annotations

import re
from pathlib import Path

from lockstep.errors import BuildError

NAMES = {"en": "English", "zh": "中文"}
TITLE = {"en": "Coin flips", "zh": "抛硬币"}
PROSE = {
    "en": "How many heads a run of fair flips gives varies less than one might guess: the "
    "variance is a quarter of the number of flips. The code below computes it and checks it "
    "by simulation; the table and the figure are computed when the site is built.",
    "zh": "一串公平硬币里正面朝上的次数，波动比想象的小：方差是抛掷次数的四分之一。下面的代码"
    "算出它，并用模拟验证；表格和图在构建时计算。",
}
ALT = {"en": "Histogram of the number of heads in 10 flips", "zh": "10 次抛掷中正面次数的直方图"}
HEADERS = {"en": ("flips", "variance of the heads"), "zh": ("抛掷次数", "正面次数的方差")}
AXES = {"en": ("heads in 10 flips", "runs"), "zh": ("10 次中的正面次数", "次数")}
CHINESE = {"zh", "zh-hans", "zh-hant", "ja"}  # languages that the CJK rules apply to

FLIPS = '''"""Fair coin flips: the number of heads, exactly and by simulation."""

import random


def heads_variance(n: int) -> float:
    """Var(heads in n fair flips) = n/4: each flip adds p(1 - p) = 1/4."""
    return n / 4


def simulated_heads(n: int, trials: int = 10_000, seed: int = 0) -> list[int]:
    """The number of heads in each of `trials` seeded runs of n flips."""
    rng = random.Random(seed)
    return [sum(rng.random() < 0.5 for _ in range(n)) for _ in range(trials)]


if __name__ == "__main__":
    counts = simulated_heads(10)
    mean = sum(counts) / len(counts)
    variance = sum((c - mean) ** 2 for c in counts) / (len(counts) - 1)
    print(f"exact variance for 10 flips: {heads_variance(10)}")
    print(f"simulated: {variance:.2f}")
'''
OUTPUT = "exact variance for 10 flips: 2.5\nsimulated: 2.52\n"  # what FLIPS prints (tested)

VALUES = '''"""The site's computed values: each `{{{{ name }}}}` on a page is VALUES[name](lang)."""

from collections.abc import Callable

from lockstep.tables import markdown_table
from {package}.flips import heads_variance

HEADERS = {headers!r}


def variance_table(lang: str) -> str:
    """The exact variance of the number of heads, for a few numbers of flips."""
    rows = [(n, heads_variance(n)) for n in (1, 2, 10, 100)]
    return markdown_table(HEADERS[lang], rows, "rr")


VALUES: dict[str, Callable[[str], str]] = {{"variance_table": variance_table}}
'''

FIGURE = '''"""Figure: how often each number of heads came up in the simulated runs of 10 flips."""

from collections import Counter

from matplotlib.figure import Figure

from {package}.flips import simulated_heads

LABELS = {labels!r}


def data() -> dict[int, int]:
    """heads -> in how many runs."""
    return dict(sorted(Counter(simulated_heads(10)).items()))


def draw(lang: str) -> Figure:
    """The histogram, labelled in `lang`."""
    counts = data()
    fig = Figure(figsize=(6, 3.2))
    ax = fig.add_subplot()
    ax.bar(list(counts), list(counts.values()))
    ax.set_xlabel(LABELS[lang]["x"])
    ax.set_ylabel(LABELS[lang]["y"])
    fig.tight_layout()
    return fig
'''

PAGE = """# {title}

{prose}

```python title="{package}/flips.py"
--8<-- "{package}/flips.py"
```

<!--pytest-codeblocks:expected-output-->
```text
{output}```

{{{{ variance_table }}}}

![{alt}](assets/figures/heads.{lang}.svg)
"""

CONFIG = """# A site built with lockstep: every code block runs in the tests, printed output is
# compared with the page, tables and figures are computed at build time, and the languages
# are kept in step.
site_name: {title}
docs_dir: docs
strict: true

theme:
  name: material
  font: false   # no Google Fonts: the site makes no third-party request

extra:
  generator: false   # Material's "Made with" footer credit is English in every language

markdown_extensions:
  - attr_list
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: ["."]
      check_paths: true   # a missing include fails the build

plugins:
  - i18n:
      docs_structure: folder
      languages:
{languages}
  - lockstep:
      values: {package}.values
      figures: {package}.figures
      # true draws formulas at build time: needs Node.js and `npm install mathjax-full@3`
      mathjax: false
      chinese: [{chinese}]

nav:
  - index.md
"""

PYTEST = """[pytest]
# lockstep's pytest plugin turns every page of the site into tests.
addopts = -p lockstep.pytest_plugin
testpaths = docs
lockstep_site = mkdocs.yml
"""

REQUIREMENTS = "mkdocs-lockstep[figures,cjk]>=0.1\n"
GITIGNORE = "site/\n.cache/\n__pycache__/\n"


def package_name(folder: Path) -> str:
    """The site's own package: the folder's name as a Python identifier."""
    name = re.sub(r"\W+", "_", folder.resolve().name).strip("_").lower()
    return name if name.isidentifier() else f"site_{name}"


def files(folder: Path, languages: list[str]) -> dict[str, str]:
    """path (relative to the folder) -> text of every file of the new site."""
    if not languages or len(set(languages)) != len(languages):
        raise BuildError(f"languages must be distinct codes, the default first: {languages}")
    package = package_name(folder)
    text = lambda table, lang: table.get(lang, table["en"])  # noqa: E731
    listed = []
    for i, lang in enumerate(languages):
        listed.append(f"        - locale: {lang}")
        listed += ["          default: true"] if i == 0 else []
        listed.append(f"          name: {NAMES.get(lang, lang)}")
    chinese = [lang for lang in languages if lang in CHINESE]
    out = {
        "mkdocs.yml": CONFIG.format(
            title=text(TITLE, languages[0]),
            languages="\n".join(listed),
            package=package,
            chinese=", ".join(chinese),
        ),
        "pytest.ini": PYTEST,
        "requirements.txt": REQUIREMENTS,
        ".gitignore": GITIGNORE,
        f"{package}/__init__.py": '"""The code the pages show and what they are made from."""\n',
        f"{package}/flips.py": FLIPS,
        f"{package}/values.py": VALUES.format(
            package=package, headers={lang: text(HEADERS, lang) for lang in languages}
        ),
        f"{package}/figures/__init__.py": '"""Figures: each module with draw(lang)."""\n',
        f"{package}/figures/heads.py": FIGURE.format(
            package=package,
            labels={lang: dict(zip("xy", text(AXES, lang), strict=True)) for lang in languages},
        ),
    }
    for lang in languages:
        out[f"docs/{lang}/index.md"] = PAGE.format(
            title=text(TITLE, lang),
            prose=text(PROSE, lang),
            package=package,
            output=OUTPUT,
            alt=text(ALT, lang),
            lang=lang,
        )
    return out


def write(folder: Path, languages: list[str]) -> list[Path]:
    """Write the new site into `folder` (which must be empty or missing); the paths written."""
    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise BuildError(f"{folder} is not empty: lockstep new writes into a new folder")
    written = []
    for rel, text in files(folder, languages).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
