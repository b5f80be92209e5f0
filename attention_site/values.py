"""Every `{{ name }}` this site's pages use, by name: the `values` option of lockstep.

Each module below computes the values of one page or topic from snippets/; lockstep caches
each value under a digest of the module that defines it (and what that module imports), and
adds the cards' own values (cards_table, cards_relations, cards_handbook).
"""

from collections.abc import Callable

from attention_site import (
    bench_tables,
    compile_tables,
    derivation_tables,
    lockstep_options,
    pages_bench_tables,
    site_bench_tables,
    training_tables,
    variance_tables,
)

VALUES: dict[str, Callable[[str], str]] = {
    **variance_tables.VALUES,
    **derivation_tables.VALUES,
    **training_tables.VALUES,
    **bench_tables.VALUES,
    **compile_tables.VALUES,
    **site_bench_tables.VALUES,
    **pages_bench_tables.VALUES,
    **lockstep_options.VALUES,
}
