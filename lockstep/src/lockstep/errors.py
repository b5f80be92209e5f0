"""The one kind of error lockstep's rules raise: problems in a site's sources, one line each.

The engine's adapter reports them as the engine's own build error; the pytest plugin as a
failed check. Every line names where the problem is and what to do about it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class BuildError(ValueError):
    """Problems a person can act on, one line each (file:line, the bad name, a fix)."""

    def __init__(self, problems: str | Iterable[str]):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))

    def __str__(self) -> str:
        if len(self.problems) == 1:
            return self.problems[0]
        return f"{len(self.problems)} problems:\n  " + "\n  ".join(self.problems)


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """' — did you mean `x`?' for the closest known name, or '' when none is close."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" — did you mean `{close[0]}`?" if close else ""
