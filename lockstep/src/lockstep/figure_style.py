"""Figures readable without colour: what a drawn matplotlib figure must satisfy (WCAG 1.4.1
use of colour, 1.4.11 non-text contrast), checked on the figure's own artists."""

from __future__ import annotations

from matplotlib.colors import to_rgb, to_rgba
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

MIN_CONTRAST = 3.0  # graphical objects against their background (WCAG 1.4.11)


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG contrast ratio of two sRGB colours (components in 0..1)."""

    def luminance(rgb: tuple[float, float, float]) -> float:
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _labelled(label: str | None) -> bool:
    return bool(label) and not label.startswith("_")


def _series(ax) -> list[tuple[object, str]]:
    """(artist, label) for what an axes' legend tells apart: labelled lines and patches, and
    each labelled bar series (labelled on its container), represented by its first bar."""
    pairs = [(a, a.get_label()) for a in [*ax.lines, *ax.patches] if _labelled(a.get_label())]
    for container in ax.containers:
        if isinstance(container, BarContainer) and container.patches:
            if _labelled(container.get_label()):
                pairs.append((container.patches[0], container.get_label()))
    return pairs


def _edge_drawn(patch) -> bool:
    return patch.get_linewidth() > 0 and to_rgba(patch.get_edgecolor())[3] > 0


def _look(artist) -> tuple[str, ...]:
    """How a series looks apart from its colour: its kind, dashes, marker or hatch. A patch's
    dashes count only where its outline is drawn."""
    if isinstance(artist, Line2D):
        return ("line", str(artist._unscaled_dash_pattern), str(artist.get_marker()))
    dashes = str(artist._unscaled_dash_pattern) if _edge_drawn(artist) else "no outline"
    return ("patch", dashes, str(artist.get_hatch()))


def _colour(artist, background: tuple[float, float, float]) -> tuple[float, float, float]:
    """The colour that shows a series: a line's; a patch's fill, else its drawn outline (a
    step histogram), else its hatch; the background itself where nothing is drawn."""
    if isinstance(artist, Line2D):
        return to_rgb(artist.get_color())
    fill = to_rgba(artist.get_facecolor())
    if artist.get_fill() and fill[3] > 0 and fill[:3] != background:
        return fill[:3]
    if _edge_drawn(artist):
        return to_rgb(artist.get_edgecolor())
    return to_rgb(artist.get_hatchcolor()) if artist.get_hatch() else background


def style_problems(fig: Figure) -> list[str]:
    """Series that share a look apart from colour, or whose colour is below 3:1 on the axes."""
    problems = []
    for ax in fig.axes:
        background = to_rgb(ax.get_facecolor())
        seen: dict[tuple, str] = {}
        for artist, label in _series(ax):
            look = _look(artist)
            if look in seen and seen[look] != label:
                problems.append(
                    f"{ax.get_title()!r}: {label!r} and {seen[look]!r} differ by colour only"
                )
            seen.setdefault(look, label)
            ratio = contrast(_colour(artist, background), background)
            if ratio < MIN_CONTRAST:
                problems.append(f"{ax.get_title()!r}: {label!r} has contrast {ratio:.2f}:1")
    return problems
