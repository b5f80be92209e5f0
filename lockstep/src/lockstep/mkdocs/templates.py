"""Theme templates compiled once per process.

`mkdocs serve` makes a new Jinja environment for every rebuild, and Jinja compiles a template
the first time an environment loads it: Material's eighty-odd templates were compiled again on
every edit. Jinja's bytecode cache keys each template by name and checks its source's checksum,
so an edited template is compiled afresh.
"""

from __future__ import annotations

import jinja2


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the life of the process."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Fill the bucket if this template was compiled before (Jinja checks the checksum)."""
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Keep a template just compiled."""
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED = MemoryBytecodeCache()


def reuse_compiled(env: jinja2.Environment) -> None:
    """Let `env` load templates compiled by an earlier environment of this process."""
    env.bytecode_cache = COMPILED
