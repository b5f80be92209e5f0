"""lockstep: keep a multilingual MkDocs site in lock-step with its code (see README.md)."""
