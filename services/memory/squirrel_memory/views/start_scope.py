"""The facts a session starts with are the project's, not a test fixture's or a sample's.

The session start is injected before the user says anything, as what holds in this repository,
so a line there needs more than search asks for: a fact said only of a folder of test data
(`tests/fixtures/rails_app/`, `testdata/`) or of samples (`examples/playground/`) holds in that
folder, and at the top of a session it reads as the project's own layout, stack or commands.
A fact every path of which (its files, and the paths its text quotes) lies in such a folder is
left out of the brief a session starts with (`squirrel_core.side_folders`); a fact that names no
path, or names one of the project's own beside them, stays. It is never dropped from the brief
view asked for otherwise, from search or from the per-prompt context: a prompt about the fixture
still gets it. The session start's commands follow the same rule
(`session_commands.side_scoped`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from squirrel_core.side_folders import in_side_folder
from squirrel_memory.models import MemoryItem

__all__ = ["of_the_project", "side_only"]

#: A quoted path: a code span holding a `/` and no space (`tests/fixtures/app/Gemfile`).
_QUOTED_PATH = re.compile(r"`([^`\s]*/[^`\s]*)`")


def side_only(fact: MemoryItem) -> bool:
    """Whether every path `fact` names (its files and the paths its text quotes) lies in a
    folder of test data or of samples, and it names at least one."""
    paths = [*fact.file_paths, *_QUOTED_PATH.findall(fact.content)]
    # A web address is no path of the repository; an absolute path's folders may be the
    # user's own above the project (`/home/ann/examples/shop/`): neither tells.
    paths = [p for p in paths if not p.startswith(("http://", "https://", "/", "~"))]
    return bool(paths) and all(in_side_folder(p) for p in paths)


def of_the_project(facts: Sequence[MemoryItem]) -> list[MemoryItem]:
    """`facts` in their order, without those said only of a test fixture's or a sample's
    folder (`side_only`)."""
    return [fact for fact in facts if not side_only(fact)]
