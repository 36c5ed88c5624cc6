"""A shell script the session wrote around one known command becomes a project fact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.wrapper_scripts import wrapped_command
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/shop"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=2)


async def _said(session: Session) -> list[str]:
    found: list[MemoryCandidate] = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(await RulesExtractor().extract(episode, session.events))
    return [c.content for c in found if c.key.startswith("wrapper_script:")]


def _session() -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("Write a script that runs the tests, with the test to run as its argument.")
    return session


@pytest.mark.parametrize(
    ("path", "text", "command"),
    [
        ("t.sh", '#!/usr/bin/env bash\nnpx mocha "$@"\n', 'npx mocha "$@"'),
        ("scripts/test", '#!/bin/sh\nset -eu\n# all or one\nexec pytest "$@"\n', 'pytest "$@"'),
        (
            "lint.sh",
            'cd "$(dirname "$0")"\ncargo clippy --all-targets\n',
            "cargo clippy --all-targets",
        ),
        ("check.sh", "#!/bin/bash\ngo test ./...\n", "go test ./..."),
    ],
)
def test_one_known_command_in_a_shell_script_is_what_it_wraps(
    path: str, text: str, command: str
) -> None:
    assert wrapped_command(path, text) == command


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("deploy.sh", "#!/bin/bash\nnpm run build\nrsync -a dist/ host:/srv\n"),  # two commands
        ("clean.sh", "#!/bin/bash\nrm -rf build\n"),  # a line the command table does not know
        ("t.sh", "#!/bin/bash\npytest | tee out.txt\n"),  # a pipeline
        ("test.py", "#!/usr/bin/env python3\nimport pytest\n"),  # not a shell script
        ("notes.md", "pytest\n"),  # no `#!` line and not a `.sh` file
    ],
)
def test_anything_else_wraps_nothing(path: str, text: str) -> None:
    assert wrapped_command(path, text) is None


async def test_a_written_test_script_is_remembered_with_where_it_sits() -> None:
    session = _session()
    session.write("test.sh", '#!/usr/bin/env bash\npytest "$@"\n')
    session.run(f"chmod +x {ROOT}/test.sh")

    assert await _said(session) == [
        "`test.sh` (at the project root, made executable with `chmod +x`) runs the tests "
        'with `pytest "$@"`, passing its arguments on.'
    ]


async def test_only_the_final_text_counts() -> None:
    session = _session()
    session.write("scripts/test.sh", "#!/bin/sh\nrake test\n")
    session.edit_lines("scripts/test.sh", "rake test", "bundle exec rspec")

    assert await _said(session) == ["`scripts/test.sh` runs the tests with `bundle exec rspec`."]


async def test_a_write_with_no_recorded_change_says_nothing() -> None:
    session = _session()
    use = "declined"
    full = f"{ROOT}/test.sh"
    session.add(
        "tool_call",
        {"tool": "Write", "tool_use_id": use, "input": {"file_path": full, "content": "pytest\n"}},
        (full,),
    )

    assert await _said(session) == []
