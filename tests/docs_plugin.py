"""Pytest plugin (loaded with `-p tests.docs_plugin`): collect docs/**.md as tests.

Loaded as a plugin rather than from tests/conftest.py because conftest hooks only see files
below their own folder, and the pages live in docs/.
"""

from pathlib import Path

import pytest

from tests import docs_blocks


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".md" and docs_blocks.DOCS in file_path.parents:
        return DocsPage.from_parent(parent, path=file_path)
    return None


class DocsPage(pytest.File):
    """One page: an item per python block, plus the fence audit."""

    def collect(self):
        blocks = docs_blocks.python_blocks(self.path)
        for block in blocks:
            yield DocsBlockItem.from_parent(self, name=f"line {block.lineno}", block=block)
        run = {n for b in blocks for n in (b.lineno, *b.also_runs)}
        yield FenceAuditItem.from_parent(self, name="fence audit", run_linenos=run)


class DocsBlockItem(pytest.Item):
    def __init__(self, *, block: docs_blocks.DocBlock, **kwargs):
        super().__init__(**kwargs)
        self.block = block

    def runtest(self):
        if self.block.marks:
            pytest.fail(
                f"docs blocks may not be skipped or marked: {self.block.marks}", pytrace=False
            )
        printed = docs_blocks.run_block(self.block)
        expected = self.block.expected_output
        if expected is None:
            return
        got = printed
        if self.block.ignore_whitespace:
            expected, got = ("".join(s.split()) for s in (expected, got))
        if got != expected:
            pytest.fail(
                "printed output differs from the page\n"
                f"--- page shows\n{self.block.expected_output}--- code printed\n{printed}",
                pytrace=False,
            )

    def reportinfo(self):
        return self.path, self.block.lineno - 1, f"{self.path.name}:{self.block.lineno}"


class FenceAuditItem(pytest.Item):
    def __init__(self, *, run_linenos: set[int], **kwargs):
        super().__init__(**kwargs)
        self.run_linenos = run_linenos

    def runtest(self):
        problems = docs_blocks.audit(self.path, self.run_linenos)
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)
