"""A command that failed, then the same words with another program of its kind that worked
(`npm install`, then `pnpm install`): the program is the lesson, never a setup step before a
re-run nobody saw. Where the words, the folder or the kind differ, it says nothing of the kind."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import scripted_session

ROOT = "/home/dev/ledger-ui"
T0 = datetime(2026, 6, 1, tzinfo=UTC)
PROTOCOL = (
    'npm error code EUNSUPPORTEDPROTOCOL\nnpm error Unsupported URL Type "workspace:": workspace:*'
)


def _pitfalls(steps: Sequence[tuple[str, Any]]) -> list[str]:
    events = scripted_session(ROOT, T0, "s", steps)
    return [c.content for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


@pytest.mark.parametrize(
    ("failed", "error", "worked", "program"),
    [
        ("npm install", PROTOCOL, "pnpm install", "pnpm"),
        (
            "yarn add zod",
            'error This project\'s package.json defines "packageManager": "pnpm@9"',
            "pnpm add zod",
            "pnpm",
        ),
        (
            "pip install -r requirements.txt",
            "pip: command not found",
            "pip3 install -r requirements.txt",
            "pip3",
        ),
    ],
)
def test_the_same_words_with_another_program_of_its_kind_is_the_lesson(
    failed: str, error: str, worked: str, program: str
) -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", (failed, 1, error)),
            ("run", (worked, 0, "Done in 6.1s")),
            ("say", "Installed; the tests pass."),
        ]
    )

    assert f"running it with `{program}` instead worked (`{worked}`)" in pitfall
    assert "first fixed it" not in pitfall


@pytest.mark.parametrize(
    "worked",
    [
        "pnpm install --frozen-lockfile",  # other words: not the same command
        "cargo install ledger",  # not a program of its kind
    ],
)
def test_other_words_or_another_kind_of_program_is_no_swap(worked: str) -> None:
    pitfalls = _pitfalls([("run", ("npm install", 1, PROTOCOL)), ("run", (worked, 0, "done"))])

    assert not any("instead worked" in p for p in pitfalls)
