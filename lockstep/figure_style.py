"""Figures readable without colour: what a drawn matplotlib figure must satisfy (WCAG 1.4.1
use of colour, 1.4.11 non-text contrast), checked on the figure's own artists."""

from __future__ import annotations

from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

MIN_CONTRAST = 3.0  # graphical objects against their background (WCAG 1.4.11)


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG contrast ratio of two sRGB colours (components in 0..1)."""

    def luminance(rgb: tuple[float, float, float]) -> float:
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _series(ax) -> list:
    """The labelled artists of an axes: what its legend tells apart. A bar series is labelled
    on its container, not its bars: its first bar stands for it."""
    artists = [*ax.lines, *ax.patches]
    labelled = [a for a in artists if a.get_label() and not a.get_label().startswith("_")]
    for container in ax.containers:
        if container.patches and not container.get_label().startswith("_"):
            bar = container.patches[0]
            bar.set_label(container.get_label())  # so that problems name the series
            labelled.append(bar)
    return labelled


def _look(artist) -> tuple:
    """How a series looks apart from its colour: dashes, marker, hatch."""
    dashes = getattr(artist, "_unscaled_dash_pattern", None)
    marker = artist.get_marker() if hasattr(artist, "get_marker") else None
    hatch = artist.get_hatch() if hasattr(artist, "get_hatch") else None
    return (str(dashes), str(marker), str(hatch))


def _colour(artist, background: tuple[float, float, float]) -> tuple[float, float, float]:
    """The colour that shows a series: a line's; a patch's fill, or its edge where the fill is
    the background or absent (a step histogram, a hatched bar)."""
    if hasattr(artist, "get_marker"):
        return to_rgb(artist.get_color())
    fill = artist.get_facecolor()
    if artist.get_fill() and fill[3] > 0 and to_rgb(fill) != background:
        return to_rgb(fill)
    return to_rgb(artist.get_edgecolor())


def style_problems(fig: Figure) -> list[str]:
    """Series that share a look apart from colour, or whose colour is below 3:1 on the axes."""
    problems = []
    for ax in fig.axes:
        background = to_rgb(ax.get_facecolor())
        seen: dict[tuple, str] = {}
        for artist in _series(ax):
            label = artist.get_label()
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
