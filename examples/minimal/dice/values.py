"""The example site's computed values."""

from collections.abc import Callable

from dice.rolls import variance_of_sum
from lockstep.tables import markdown_table

HEADERS = {"en": ("dice", "variance of the sum"), "zh": ("骰子数", "和的方差")}


def variance_table(lang: str) -> str:
    """Exact variance of the sum for 1 to 4 dice."""
    return markdown_table(HEADERS[lang], [(n, variance_of_sum(n)) for n in range(1, 5)], "rr")


VALUES: dict[str, Callable[[str], str]] = {"variance_table": variance_table}
