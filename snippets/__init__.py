"""Code shown on the site: every block a page includes lives here and is tested."""
