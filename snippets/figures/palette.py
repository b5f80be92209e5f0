"""How the site tells series apart: a colour and a line style each. No side effects (no
matplotlib backend is chosen here), so notebooks can import it next to their own pyplot."""

# Series differ in line style as well as colour, so no figure relies on colour alone, and
# every colour has at least 3:1 contrast on the white figure background (tests/test_figures.py).
COLORS = ("#1f5fb4", "#c0392b", "#1e7b4f", "#7b3fa0", "#8a5a00", "#000000")
LINESTYLES = ("-", "--", "-.", ":", (0, (6, 2, 1, 2, 1, 2)), (0, (1, 1)))
SERIES = [{"color": c, "linestyle": ls} for c, ls in zip(COLORS, LINESTYLES, strict=True)]
REFERENCE = "#666666"  # reference lines (a bound, y = x): grey, still 5.7:1 on white
