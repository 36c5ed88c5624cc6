"""A line the user quotes back and calls untrue, which the assistant then removes, is kept as
untrue (never as the claim); a verdict without a quote, a quote the assistant keeps, a quote with
more said about it and a correction taken back are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.candidates import candidate as made
from squirrel_memory.extractors.rejected_lines import (
    quoted_claim,
    rejected_lines,
    without_rejected,
)
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 7, 10, 0, tzinfo=UTC)

# An Elixir app whose notes the assistant extends, and a Go service's contributor guide.
ELIXIR = (
    "/home/dev/ledger",
    "NOTES.md",
    "Integration tests share one Postgres sandbox. Run `mix test --max-cases 1` to avoid deadlocks.",
)
GO = (
    "/srv/src/relay",
    "docs/CONTRIBUTING.md",
    "The race detector needs CGO disabled: run `CGO_ENABLED=0 go test -race ./...`.",
)


def candidate(kind: MemoryType, key: str, content: str) -> MemoryCandidate:
    return made(kind, key, content, tags=(), importance=0.5, event_ids=())


def _session(
    project: tuple[str, str, str], message: str, *, removed: bool = True, origin: str = "typed"
) -> Session:
    root, path, line = project
    session = Session(root, "s1", T0)
    session.add("user_message", {"text": "Improve the testing notes."}, origin="typed")
    session.edit_lines(path, "## Tests\n", f"## Tests\n\n**IMPORTANT**: {line}\n")
    session.say(f"Added a warning to {path}.")
    session.add("user_message", {"text": message}, origin=origin)
    if removed:
        session.edit_lines(path, f"**IMPORTANT**: {line}\n", "")
    else:
        session.edit_lines(path, "## Tests\n", "## Testing\n")
    session.say("Removed it.")
    return session


@pytest.mark.parametrize("project", [ELIXIR, GO])
def test_a_quoted_line_called_untrue_and_removed_is_kept_as_untrue(
    project: tuple[str, str, str],
) -> None:
    _root, path, line = project
    session = _session(project, f"  41 +**IMPORTANT**: {line}\nthis is not true")

    (found,) = rejected_lines(session.events)

    claim = line.rstrip(".")
    assert found.content == f'"{claim}" is not true, the user says; it was removed from {path}.'
    assert found.files == (path,)
    kept = [c for c in session.extracted() if "untrue" in c.tags]
    assert [c.type for c in kept] == [MemoryType.PITFALL]
    assert kept[0].content.startswith(f'"{claim}" is not true')


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "> Use the staging bucket for releases.\nthat's wrong",
            "Use the staging bucket for releases.",
        ),
        ("This isn't true.\n12 - Retries are capped at 3.", "Retries are capped at 3."),
        ("it is incorrect\nThe cache is per project", "The cache is per project"),
        (
            "3 retries are allowed before the job fails\nthat's wrong",
            "3 retries are allowed before the job fails",
        ),
    ],
)
def test_a_quote_and_a_verdict_give_the_claim(text: str, claim: str) -> None:
    assert quoted_claim(text) == claim


@pytest.mark.parametrize(
    "text",
    [
        "this is not true",  # a verdict with nothing quoted
        "The cache is per project.\nIs this true?",  # a question
        "The cache is per project.\nthis is not true because the key has the user id",  # more said
        "The cache is per project.\nThe key is per user.\nIt has the id.\nthis is not true",
        "```\nThe cache is per project.\n```\nthis is wrong",  # a pasted block
        "The cache is per project.\nthis is not true\nthat's wrong",  # two verdicts
        "The cache is per project.\nthis is true",
    ],
)
def test_no_quote_and_verdict_no_claim(text: str) -> None:
    assert quoted_claim(text) == ""


@pytest.mark.parametrize("project", [ELIXIR, GO])
def test_a_quote_the_assistant_keeps_is_not_kept(project: tuple[str, str, str]) -> None:
    session = _session(project, f"{project[2]}\nthis is not true", removed=False)
    assert rejected_lines(session.events) == []


def test_a_correction_taken_back_is_not_kept() -> None:
    session = _session(ELIXIR, f"{ELIXIR[2]}\nthis is not true")
    session.add("user_message", {"text": "never mind, you were right"}, origin="typed")
    assert rejected_lines(session.events) == []


def test_a_message_not_typed_or_opening_the_session_is_not_a_correction() -> None:
    harness = _session(ELIXIR, f"{ELIXIR[2]}\nthis is not true", origin="harness")
    opening = Session(ELIXIR[0], "s1", T0)
    opening.add("user_message", {"text": f"{ELIXIR[2]}\nthis is not true"}, origin="typed")
    opening.edit_lines(ELIXIR[1], ELIXIR[2], "")

    assert rejected_lines(harness.events) == []
    assert rejected_lines(opening.events) == []


def test_a_removal_outside_the_project_is_not_the_correction_taken() -> None:
    root, _path, line = GO
    session = Session(root, "s1", T0)
    session.say("The notes say the race detector needs CGO disabled.")
    session.add("user_message", {"text": f"{line}\nthat's wrong"}, origin="typed")
    session.edit_lines("/home/dev/other/NOTES.md", line, "")

    assert rejected_lines(session.events) == []


@pytest.mark.parametrize("project", [ELIXIR, GO])
def test_no_other_memory_of_the_episode_states_the_untrue_claim(
    project: tuple[str, str, str],
) -> None:
    _root, path, line = project
    session = _session(project, f"{line}\nthis is not true")
    (untrue,) = rejected_lines(session.events)
    first = line.split(": ")[0] if ": " in line else line.split(". ")[0]
    stating = candidate(MemoryType.PROJECT_FACT, "project:notes", f"{path} says: **{first}**.")
    other = candidate(MemoryType.PROJECT_FACT, "project:tests", "Tests live in `test/`.")
    kept = candidate(MemoryType.PITFALL, untrue.key, untrue.content)

    assert without_rejected([stating, other, kept], session.events) == [other, kept]


def test_without_a_correction_every_memory_stays() -> None:
    session = _session(ELIXIR, f"{ELIXIR[2]}\nthis is not true", removed=False)
    stating = candidate(MemoryType.PROJECT_FACT, "project:notes", ELIXIR[2])

    assert without_rejected([stating], session.events) == [stating]
