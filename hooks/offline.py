"""Offline edition (`make handbook`, OFFLINE=true): keep it free of third-party requests.

Material's `offline` plugin makes the site browsable from file:// and inlines the search index,
but it loads the iframe-worker shim (needed to run the search worker from file://) from a CDN
unless a polyfill named iframe-worker is already configured. This hook configures the copy
shipped in docs/assets/javascripts/ first. It does nothing in the normal build.
"""

from mkdocs.plugins import event_priority

SHIM = "assets/javascripts/iframe-worker-shim.js"


@event_priority(50)  # before the offline plugin's on_config looks at extra.polyfills
def on_config(config):
    offline = config.plugins.get("material/offline")
    if offline is not None and offline.config.enabled:
        polyfills = config.extra.setdefault("polyfills", [])
        if SHIM not in polyfills:
            polyfills.append(SHIM)
    return config
