"""The offline edition (Material's `offline` plugin) kept free of third-party requests.

The offline plugin makes the site browsable from file:// and inlines the search index, but it
loads the iframe-worker shim (which runs the search worker from file://) from a CDN unless a
polyfill named iframe-worker is configured. The site ships a copy (MIT) and names it here.
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig

SHIM = "assets/javascripts/iframe-worker-shim.js"


def use_local_shim(config: MkDocsConfig) -> None:
    """Configure the shipped shim first, when the offline plugin is on."""
    offline = config.plugins.get("material/offline")
    if offline is not None and offline.config.enabled:
        polyfills = config.extra.setdefault("polyfills", [])
        if SHIM not in polyfills:
            polyfills.append(SHIM)
