"""A variable given before a command's task (`make CC=clang test`) is part of the command, as the
task after it is: two checks with their own targets stay two steps. One given after the task
(`make test V=1`, `rails db:migrate RAILS_ENV=test`) is an argument of a stable head."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.extractors.evidence.attempts import command_base
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/sprite"


@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("make CC=clang test", "make CC=clang test"),
        ("make CC=clang CFLAGS=-O2 lint", "make CC=clang CFLAGS=-O2 lint"),
        ("make CC=clang test V=1", "make CC=clang test"),
    ],
)
def test_a_variable_before_the_task_is_part_of_the_head(text: str, base: str) -> None:
    assert command_base(text) == base


@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("make test CC=clang", "make test"),
        ("bin/rails db:migrate RAILS_ENV=test", "bin/rails db:migrate"),
        ("make CC=clang", "make"),
        ("make CC=clang build/sprite", "make"),
        ("make CC=clang -j8 test", "make"),
    ],
)
def test_no_task_after_the_variable_keeps_the_head_as_it_was(text: str, base: str) -> None:
    assert command_base(text) == base


def _event(session: str, n: int, day: int, kind: str, content: dict[str, Any]) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{session}_{n:04d}",
        project_id=ROOT,
        user_id="dev",
        source_tool="claude_code",
        session_id=session,
        timestamp=T0 + timedelta(days=day, seconds=30 * (n + 1)),
        event_type=kind,
        content=content,
        file_paths=(f"{ROOT}/src/blit.c",) if kind == "file_edit" else (),
        hash=f"h-{session}-{n}",
    )


def _ran(command: str, output: str) -> dict[str, Any]:
    return {"command": command, "exit_code": 0, "is_error": False, "output": output}


def test_two_checks_given_one_variable_stay_two_steps_before_commits() -> None:
    events: list[StoredEvent] = []
    for day, session in enumerate(["s1", "s2", "s3"]):
        events += [
            _event(session, 0, day, "file_edit", {"path": f"{ROOT}/src/blit.c"}),
            _event(session, 1, day, "test_run", _ran("make CC=clang test", "58 tests, 0 failures")),
            _event(session, 2, day, "command_run", _ran("make CC=clang lint", "0 warnings")),
            _event(session, 3, day, "command_run", _ran("git commit -am 'x'", "[main 1a2b] x")),
        ]
    (gate,) = [c.content for c in evidence_candidates(events) if c.key == "recipe:verify"]
    assert gate.startswith("Before committing, run: `make CC=clang test` → `make CC=clang lint`")
