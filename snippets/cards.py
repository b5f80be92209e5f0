"""Interview cards: the format, defined once — front matter schema, fixed sections, loader, checks.

A card is one page per language, docs/<lang>/cards/<id>.md, made of YAML front matter with
REQUIRED_KEYS (identical in both languages), a `# question` title, and the SECTIONS as `##`
headings in this order. `python -m snippets.cards new <id>` writes both pages from the
template below; `python -m snippets.cards check` runs the same checks as the tests and the build.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LANGS = ("zh", "en")
CARDS_DIR = "cards"
NOT_CARDS = ("index.md", "handbook.md")  # pages in cards/ that are about the deck, not cards

REQUIRED_KEYS = ("id", "module", "category", "difficulty", "tags", "related")
DIFFICULTIES = {
    "easy": {"zh": "基础", "en": "easy"},
    "medium": {"zh": "进阶", "en": "medium"},
    "hard": {"zh": "深入", "en": "hard"},
}
MODULES = {
    "foundations": {"zh": "原理", "en": "Foundations"},
    "numerics": {"zh": "数值", "en": "Numerics"},
    "kernels": {"zh": "算子", "en": "Kernels"},
    "architecture": {"zh": "架构", "en": "Architecture"},
}
CATEGORIES = {
    "scaling": {"zh": "缩放因子", "en": "Scaling factor"},
    "softmax": {"zh": "softmax", "en": "Softmax"},
    "memory": {"zh": "显存与带宽", "en": "Memory and bandwidth"},
    "stability": {"zh": "训练稳定性", "en": "Training stability"},
    "long-context": {"zh": "长上下文", "en": "Long context"},
    "block-design": {"zh": "模块设计", "en": "Block design"},
}
# Tags are written once as ids in the front matter and shown in the page's language.
TAGS = {
    "variance": {"zh": "方差", "en": "variance"},
    "scaling": {"zh": "缩放", "en": "scaling"},
    "softmax": {"zh": "softmax", "en": "softmax"},
    "gradients": {"zh": "梯度", "en": "gradients"},
    "initialization": {"zh": "初始化", "en": "initialisation"},
    "mup": {"zh": "μP", "en": "μP"},
    "rope": {"zh": "RoPE", "en": "RoPE"},
    "numerics": {"zh": "数值稳定", "en": "numerical stability"},
    "dtype": {"zh": "浮点类型", "en": "dtypes"},
    "online-softmax": {"zh": "在线 softmax", "en": "online softmax"},
    "tiling": {"zh": "分块", "en": "tiling"},
    "flashattention": {"zh": "FlashAttention", "en": "FlashAttention"},
    "memory": {"zh": "显存", "en": "memory"},
    "normalization": {"zh": "归一化", "en": "normalisation"},
    "soft-capping": {"zh": "软截断", "en": "soft-capping"},
    "long-context": {"zh": "长上下文", "en": "long context"},
    "entropy": {"zh": "熵", "en": "entropy"},
    "attention-sinks": {"zh": "注意力汇聚点", "en": "attention sinks"},
    "layernorm": {"zh": "LayerNorm", "en": "LayerNorm"},
    "multi-head": {"zh": "多头注意力", "en": "multi-head attention"},
    "kv-cache": {"zh": "KV 缓存", "en": "KV cache"},
}
# (key, zh heading, en heading): every card has exactly these `##` sections, in this order.
SECTIONS = (
    ("answer", "一句话回答", "One-sentence answer"),
    ("key_points", "要点", "Key points"),
    ("derivation", "推导", "Derivation"),
    ("trade_offs", "工程权衡", "Engineering trade-offs"),
    ("pitfalls", "常见误区", "Pitfalls"),
    ("follow_ups", "追问", "Follow-up questions"),
    ("links", "延伸阅读", "Related"),
)
LABELS = {
    "zh": {"module": "模块", "category": "分类", "difficulty": "难度", "tags": "标签"},
    "en": {"module": "Module", "category": "Category", "difficulty": "Difficulty", "tags": "Tags"},
}

ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
FOLLOW_UP = re.compile(r'^\?\?\?\+? question "[^"]+"\s*$')
CARD_LINK = re.compile(r"\]\(([a-z0-9-]+)\.md(?:#[^)]*)?\)")


@dataclass(frozen=True)
class Card:
    """One card in one language, as written in docs/<lang>/cards/<id>.md."""

    id: str
    module: str
    category: str
    difficulty: str
    tags: tuple[str, ...]
    related: tuple[str, ...]
    lang: str
    path: Path
    meta: dict
    title: str  # the `#` heading: the question
    body: str  # everything after the front matter

    def sections(self) -> dict[str, str]:
        """The text under each `##` heading, keyed by heading."""
        out, current = {}, None
        for line, fenced in lines_outside_fences(self.body):
            if not fenced and line.startswith("## "):
                current = line[3:].strip()
                out[current] = ""
            elif current is not None:
                out[current] += line + "\n"
        return out

    def section(self, key: str) -> str:
        """The text of a section by its key in SECTIONS ('answer', 'key_points', ...)."""
        return self.sections().get(section_title(key, self.lang), "")

    def metadata(self) -> dict:
        """The language-independent part: what must be identical in zh and en."""
        return {k: self.meta.get(k) for k in REQUIRED_KEYS}


def section_title(key: str, lang: str) -> str:
    """The heading of section `key` in `lang`."""
    return {k: dict(zip(LANGS, titles, strict=True)) for k, *titles in SECTIONS}[key][lang]


def lines_outside_fences(text: str):
    """Yield (line, inside_a_fence) so headings in code (`# comment`) are never mistaken."""
    close = None
    for line in text.splitlines():
        m = FENCE.match(line)
        if close is None and m:
            close = m.group(1)
            yield line, True
        elif close is not None:
            if line.strip().startswith(close) and not line.strip().strip(close[0]):
                close = None
            yield line, True
        else:
            yield line, False


def split_front_matter(text: str) -> tuple[dict, str]:
    """(front matter as a dict, the rest); a page without front matter gives ({}, text)."""
    m = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    if not m:
        return {}, text
    meta = yaml.safe_load(m.group(1)) or {}
    return (meta if isinstance(meta, dict) else {}), text[m.end() :]


def read_card(path: Path, lang: str) -> Card:
    """Parse a card page; missing or malformed values are kept as they are for check_card."""
    meta, body = split_front_matter(path.read_text(encoding="utf-8"))
    titles = [ln[2:].strip() for ln, fenced in lines_outside_fences(body) if ln.startswith("# ")]
    return Card(
        id=str(meta.get("id", "")),
        module=str(meta.get("module", "")),
        category=str(meta.get("category", "")),
        difficulty=str(meta.get("difficulty", "")),
        tags=tuple(meta.get("tags") or ()),
        related=tuple(meta.get("related") or ()),
        lang=lang,
        path=path,
        meta=meta,
        title=titles[0] if titles else "",
        body=body,
    )


def card_paths(lang: str, docs: Path = DOCS) -> list[Path]:
    """The card pages of one language, sorted by file name."""
    folder = docs / lang / CARDS_DIR
    return sorted(p for p in folder.glob("*.md") if p.name not in NOT_CARDS)


def load_cards(lang: str, docs: Path = DOCS) -> list[Card]:
    """Every card of one language, in deck order: module, then difficulty, then id."""
    cards = [read_card(p, lang) for p in card_paths(lang, docs)]
    order = {k: i for i, k in enumerate([*MODULES, *DIFFICULTIES])}
    return sorted(cards, key=lambda c: (order.get(c.module, 99), order.get(c.difficulty, 99), c.id))


def is_card(path: Path, docs: Path = DOCS) -> bool:
    """Whether `path` is a card page (docs/<lang>/cards/<id>.md, not the index or handbook)."""
    rel = path.resolve().relative_to(docs.resolve()).parts
    return len(rel) == 3 and rel[0] in LANGS and rel[1] == CARDS_DIR and rel[2] not in NOT_CARDS


def check_card(card: Card, known_ids: set[str], check_id: bool = True) -> list[str]:
    """Problems with one card's front matter and body; [] when it follows the format."""
    where, p = str(card.path), []
    missing = [k for k in REQUIRED_KEYS if k not in card.meta]
    unknown = [k for k in card.meta if k not in REQUIRED_KEYS]
    p += [f"{where}: front matter lacks {k!r}" for k in missing]
    p += [f"{where}: unknown front matter key {k!r} (allowed: {REQUIRED_KEYS})" for k in unknown]
    if check_id and card.id != card.path.stem:
        p.append(f"{where}: id {card.id!r} must equal the file name {card.path.stem!r}")
    if not ID.match(card.id):
        p.append(f"{where}: id {card.id!r} must be lowercase words joined by '-'")
    for key, allowed in (
        ("module", MODULES),
        ("category", CATEGORIES),
        ("difficulty", DIFFICULTIES),
    ):
        if getattr(card, key) not in allowed:
            p.append(f"{where}: {key} {getattr(card, key)!r} is not one of {sorted(allowed)}")
    for key, allowed in (("tags", TAGS), ("related", known_ids)):
        values = card.meta.get(key)
        if not isinstance(values, list) or not values:
            p.append(f"{where}: {key} must be a non-empty list")
            continue
        p += [f"{where}: {key} lists {v!r} twice" for v in set(values) if values.count(v) > 1]
        what = "tag" if key == "tags" else "card"
        p += [f"{where}: unknown {what} {v!r}" for v in values if v not in allowed]
    if card.id in card.related:
        p.append(f"{where}: a card cannot be related to itself")
    return p + _check_body(card)


def _check_body(card: Card) -> list[str]:
    where, p = str(card.path), []
    top = [ln for ln, fenced in lines_outside_fences(card.body) if not fenced and ln.strip()]
    if not top or not top[0].startswith("# "):
        p.append(f"{where}: the page must start with a `# question` heading")
    if sum(ln.startswith("# ") for ln in top) > 1:
        p.append(f"{where}: only one `#` heading (the question) is allowed")
    want = [section_title(k, card.lang) for k, *_ in SECTIONS]
    got = [ln[3:].strip() for ln in top if ln.startswith("## ")]
    if got != want:
        p.append(f"{where}: `##` sections must be exactly {want} in this order, got {got}")
        return p
    answer = card.section("answer").strip()
    if not answer or "\n\n" in answer:
        p.append(f"{where}: the one-sentence answer must be a single paragraph")
    if sum(ln.startswith("- ") for ln in card.section("key_points").splitlines()) < 2:
        p.append(f"{where}: key points need at least two `- ` bullets")
    if "```python" not in card.section("derivation"):
        p.append(f"{where}: the derivation needs an executed ```python check")
    if not any(FOLLOW_UP.match(ln) for ln in card.section("follow_ups").splitlines()):
        p.append(f'{where}: follow-ups need at least one `??? question "..."` block')
    links = section_title("links", card.lang)
    linked = set(CARD_LINK.findall(card.section("links")))
    missing = [r for r in card.related if r not in linked]
    p += [f"{where}: section {links!r} does not link related card {r}.md" for r in missing]
    extra = sorted(linked - set(card.related))
    p += [f"{where}: section {links!r} links {x}.md, which is not in `related`" for x in extra]
    return p


def check_deck(docs: Path = DOCS) -> list[str]:
    """Problems across the deck: every card checked, same cards and metadata in zh and en."""
    decks = {lang: load_cards(lang, docs) for lang in LANGS}
    ids = {lang: {c.id for c in cards} for lang, cards in decks.items()}
    p = [
        f"card {i!r} exists in {lang} only" for lang in LANGS for i in ids[lang] - ids[_other(lang)]
    ]
    for lang, cards in decks.items():
        for card in cards:
            p += check_card(card, ids[lang])
    en = {c.id: c for c in decks["en"]}
    for card in decks["zh"]:
        if card.id in en and card.metadata() != en[card.id].metadata():
            zh_meta, en_meta = card.metadata(), en[card.id].metadata()
            p.append(
                f"card {card.id!r}: front matter differs between zh and en: {zh_meta} vs {en_meta}"
            )
    return p


def _other(lang: str) -> str:
    return LANGS[1 - LANGS.index(lang)]


def template(card_id: str, lang: str) -> str:
    """A new card page that passes every check except content: fill in the TODOs."""
    todo = {"zh": "待写", "en": "TODO"}[lang]
    parts = [
        f"---\nid: {card_id}\nmodule: foundations\ncategory: scaling\ndifficulty: easy\n"
        "tags: [scaling]\nrelated: [why-scale]\n---\n\n"
        f"# {todo}: {'问题' if lang == 'zh' else 'the question'}\n"
    ]
    bodies = {
        "answer": f"{todo}.",
        "key_points": f"- {todo}\n- {todo}",
        "derivation": f'{todo}.\n\n```python\nprint("{todo}")\n```\n\n'
        f"<!--pytest-codeblocks:expected-output-->\n```text\n{todo}\n```",
        "trade_offs": f"- {todo}",
        "pitfalls": f"- {todo}",
        "follow_ups": f'??? question "{todo}"\n\n    {todo}.',
        "links": f"- [{todo}](why-scale.md)",
    }
    for key, *_ in SECTIONS:
        parts.append(f"\n## {section_title(key, lang)}\n\n{bodies[key]}\n")
    return "".join(parts)


def _main(argv: list[str]) -> int:
    if argv[:1] == ["check"]:
        problems = check_deck()
        print("\n".join(problems) or "all cards follow the format")
        return 1 if problems else 0
    if len(argv) == 2 and argv[0] == "new" and ID.match(argv[1]):
        paths = [DOCS / lang / CARDS_DIR / f"{argv[1]}.md" for lang in LANGS]
        if any(p.exists() for p in paths):
            print(f"refusing to overwrite {[str(p) for p in paths if p.exists()]}")
            return 1
        for lang, path in zip(LANGS, paths, strict=True):
            path.write_text(template(argv[1], lang), encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
        print(f"now add `- {CARDS_DIR}/{argv[1]}.md` to the cards section of `nav:` in mkdocs.yml")
        return 0
    print("usage: python -m snippets.cards new <id>  |  python -m snippets.cards check")
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
