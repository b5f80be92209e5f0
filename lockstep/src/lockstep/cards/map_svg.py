"""The knowledge map drawn as inline SVG at build time: a column per module, a box per card
that links to it, a curve per related pair with an arrow for each direction it was listed in.

Inline, not an <img>, so the boxes are links and take the page's colours (light and dark) from
Material's CSS variables; hovering or focusing a box brings out its curves. No script.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

from lockstep.cards.graph import Graph

NODE_W, COL_GAP, PAD = 176, 44, 8
FONT, LINE, NODE_PAD, ROW_GAP, HEAD = 12.5, 16, 8, 12, 34
MAX_LINES = 4
EM_PER_LINE = (NODE_W - 2 * NODE_PAD) / FONT  # how many em of text fit on one line
# What a line may not be broken inside: a run of Latin text, or one Han character; either
# keeps the Chinese punctuation and the spaces after it (no line starts with "？" or "、").
PIECE = re.compile(r"(?:[^\s\u2e80-\uffff]+|[\u2e80-\uffff])[，。？！、：；）」]*\s*")


def _em(text: str) -> float:
    """Rough width in em: a Chinese character is square, Latin glyphs are about half as wide."""
    return sum(1.0 if ord(ch) > 0x2E80 else 0.55 for ch in text)


def wrap(title: str, max_em: float = EM_PER_LINE, max_lines: int = MAX_LINES) -> list[str]:
    """A title in lines that fit a box: breaks at spaces, or next to Chinese characters."""
    pieces = PIECE.findall(title)  # a Latin word or a Han character, with what follows it
    lines, line = [], ""
    for piece in pieces:
        if line and _em((line + piece).rstrip()) > max_em:
            lines.append(line.rstrip())
            line = ""
        line += piece
    lines.append(line.rstrip())
    if len(lines) > max_lines:  # the box's <title> still holds the whole question
        lines = [*lines[: max_lines - 1], lines[max_lines - 1].rstrip() + "…"]
    return lines


def map_svg(
    graph: Graph, module_labels: dict[str, str], url_of: Callable[[str], str], label: str
) -> str:
    """The SVG element of the map; `label` names it for assistive technology."""
    boxes: dict[str, tuple[float, float, float, list[str]]] = {}  # id -> x, y, height, lines
    column: dict[str, int] = {}
    heights = []
    for col, nodes in enumerate(graph.modules.values()):
        x, y = PAD + col * (NODE_W + COL_GAP), HEAD
        for node in nodes:
            lines = wrap(node.title)
            h = 2 * NODE_PAD + len(lines) * LINE
            boxes[node.id], column[node.id] = (x, y, h, lines), col
            y += h + ROW_GAP
        heights.append(y)
    n_cols = len(graph.modules)
    width = 2 * PAD + n_cols * (NODE_W + COL_GAP)  # a gap after the last column too: its loops
    height = max(heights, default=HEAD) + PAD
    out = [
        '<div class="card-map-frame">',
        f'<svg class="card-map" viewBox="0 0 {width} {height}" width="{width}" '
        f'role="group" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        '<defs><marker id="map-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L8,4 L0,8 z"/></marker></defs>',
    ]
    for col, module in enumerate(graph.modules):
        x = PAD + col * (NODE_W + COL_GAP) + NODE_W / 2
        name = escape(module_labels[module])
        out.append(f'<text class="map-module" x="{x:g}" y="{HEAD - 14}">{name}</text>')
    for e in graph.edges:
        arrows = ' marker-end="url(#map-arrow)"' * e.a_lists_b
        arrows += ' marker-start="url(#map-arrow)"' * e.b_lists_a
        d = _curve(boxes[e.a], boxes[e.b], column[e.a], column[e.b])
        out.append(f'<path class="map-edge" data-a="{e.a}" data-b="{e.b}" d="{d}"{arrows}/>')
    for nodes in graph.modules.values():
        for node in nodes:
            x, y, h, lines = boxes[node.id]
            first = NODE_PAD + FONT - 1  # the first baseline, below the box's top
            spans = "".join(
                f'<tspan x="{x + NODE_PAD:g}" dy="{LINE if i else first:g}">{escape(t)}</tspan>'
                for i, t in enumerate(lines)
            )
            out.append(
                f'<a class="map-node" data-card="{node.id}" href="{escape(url_of(node.id))}">'
                f"<title>{escape(node.title)}</title>"
                f'<rect x="{x:g}" y="{y:g}" width="{NODE_W}" height="{h:g}" rx="6"/>'
                f'<text y="{y:g}">{spans}</text></a>'
            )
    # Hovering or focusing a box brings out its own curves (one rule per card; no script).
    rules = [
        f'.card-map:has([data-card="{i}"]:is(:hover,:focus-visible)) '
        f':is([data-a="{i}"],[data-b="{i}"])'
        for i in boxes
    ]
    if rules:
        out.append(
            f"<style>{','.join(rules)}{{stroke:var(--md-accent-fg-color);stroke-opacity:1;stroke-width:2}}</style>"
        )
    out.append("</svg></div>")
    return "".join(out)


def _curve(a: tuple, b: tuple, col_a: int, col_b: int) -> str:
    """A cubic Bézier between two boxes: side to facing side across columns, or a loop out to
    the right of a column between two boxes in it."""
    (xa, ya, ha, _), (xb, yb, hb, _) = a, b
    ya, yb = ya + ha / 2, yb + hb / 2
    if col_a == col_b:
        x = xa + NODE_W
        bulge = min(COL_GAP - 6, 14 + abs(yb - ya) / 12)
        return f"M{x:g},{ya:g} C{x + bulge:g},{ya:g} {x + bulge:g},{yb:g} {x:g},{yb:g}"
    right = col_a < col_b  # b's column lies to the right of a's
    x0, x1 = (xa + NODE_W, xb) if right else (xa, xb + NODE_W)
    y0, y1 = ya, yb
    mid = (x0 + x1) / 2
    return f"M{x0:g},{y0:g} C{mid:g},{y0:g} {mid:g},{y1:g} {x1:g},{y1:g}"
