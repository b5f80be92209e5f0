"""Interview cards: a schema for question-and-answer pages, what the build makes of them
(metadata line, deck table, relations, handbook) and the Anki export."""
