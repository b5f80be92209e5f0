"""The example site's figures."""
