"""lockstep's adapter to MkDocs, Material for MkDocs and mkdocs-static-i18n: the only part of
lockstep that imports them (tests/generator/test_boundaries.py holds it to that).

It turns the engine's configuration and events into the plain data lockstep's rules take
(lockstep.site.Site, page texts, file lists) and hooks their results back in: plugin.py (the
events), config_file.py (mkdocs.yml as a Site), i18n.py (one build per language), dirty.py
(incremental rebuilds), jupyter.py (notebook pages), search.py (an index per language),
alternates.py and offline.py (workarounds for the theme), templates.py (compiled templates
kept across rebuilds). Another engine needs the same set of functions, written against it.
"""
