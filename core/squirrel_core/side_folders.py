"""Folders of a repository that are not the project itself: its tests' data and its samples.

A test fixture (`tests/fixtures/rails_app/`, `testdata/`) is input for the project's tests, and
a sample (`examples/playground/`, `demo/`) shows the project in use; either may carry its own
manifest, commands, commit log or instruction file. What holds there holds in that folder, never
for the project: a command run in a fixture app is not how the project is tested, a sample's
framework is not the project's. The extraction rules read their evidence with these sets
(`extractors.stack_evidence`), and the session start leaves out what is said only of such a
folder (`views.start_scope`, `session_commands.everyday_commands`).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Final

__all__ = [
    "SHOWCASE_DIRS",
    "TEST_DATA_DIRS",
    "in_side_folder",
    "scoped_folder",
]

#: Folders of test data: files there are the tests' input, evidence of nothing.
TEST_DATA_DIRS: Final = frozenset(
    {"fixtures", "fixture", "__fixtures__", "testdata", "test-data", "test_data", "__mocks__"}
    | {"__snapshots__", "cassettes"}
)
#: Folders of code that shows the project in use without being it.
SHOWCASE_DIRS: Final = frozenset(
    {"examples", "example", "samples", "sample", "demo", "demos", "playground"}
)
_SIDE: Final = TEST_DATA_DIRS | SHOWCASE_DIRS
#: The folder a recipe is said of ("In `tests/fixtures/app/`, to run the tests: …").
_SCOPED: Final = re.compile(r"^In `(?P<folder>[^`\n]+)`,")


def in_side_folder(path: str) -> bool:
    """Whether `path` (a folder, or a file) lies in a folder of test data or of samples
    (`tests/fixtures/app/Gemfile`, `examples/playground/`): not the project's own."""
    parts = PurePosixPath(path.strip().rstrip("/")).parts
    return any(part.lower() in _SIDE for part in parts)


def scoped_folder(text: str) -> str:
    """The folder a recipe's text says it holds in ("In `examples/web/`, to build: …"), "" when
    it says none."""
    match = _SCOPED.match(text.strip())
    return match.group("folder") if match else ""
