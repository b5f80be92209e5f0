"""Code the example site's page shows: the sum of n fair dice."""
