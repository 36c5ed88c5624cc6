"""What the assistant learned: findings about how tools behave, told apart from notes on the
work at hand, guesses and restated test failures."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.learned import finding, learned
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "Ah! The issue is that Ecto doesn't cast virtual fields unless they are in the cast list.",
            "Found in a session: Ecto doesn't cast virtual fields unless they are in the cast list.",
        ),
        (
            "This is because `go test` only runs packages that match the pattern given.",
            "Found in a session: `go test` only runs packages that match the pattern given.",
        ),
        (
            "It turns out the bundler requires an explicit `exports` entry for deep imports.",
            "Found in a session: the bundler requires an explicit `exports` entry for deep imports.",
        ),
    ],
)
def test_a_finding_about_how_a_tool_behaves_is_kept(text: str, said: str) -> None:
    assert finding(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "The issue is that I'm calling the cached method instead of the plain one.",  # the work
        "The problem is that we never reset the counter between runs, so it only grows.",
        "The issue is that Rails might not load the initializer in test mode only.",  # a guess
        "The issue is that the HTML doesn't contain the expected link.",  # a test restated
        "The issue is that the paths are still resolving to the root.",  # no rule of behaviour
        "The reason is simple.",  # too short
        "Let me check why the build doesn't pick up the config.",  # no explanation
    ],
)
def test_notes_on_the_work_guesses_and_restated_failures_are_not_findings(text: str) -> None:
    assert finding(text) == ""


def _reply(n: int, text: str) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n}",
        project_id="/home/dev/app",
        user_id="dev",
        source_tool="claude_code",
        session_id="s",
        timestamp=T0 + timedelta(seconds=n),
        event_type="assistant_response",
        content={"text": text},
        file_paths=(),
        hash=f"h{n}",
    )


def test_the_same_finding_in_other_words_is_kept_once() -> None:
    events = [
        _reply(1, "The issue is that the server doesn't serve `index.html` from sub-folders."),
        _reply(
            2, "OK. The problem is that the server doesn't serve `index.html` from sub-folders."
        ),
        _reply(3, "```\nThe issue is that code blocks are never read as prose.\n```"),
    ]
    found = learned(events)
    assert [f.content for f in found] == [
        "Found in a session: the server doesn't serve `index.html` from sub-folders."
    ]
    assert found[0].key == "pitfall:learned:server_doesn_serve_index" and found[0].event_ids == (
        "evt_1",
    )


def test_different_findings_keep_their_own_keys() -> None:
    events = [
        _reply(1, "The issue is that the server doesn't serve `index.html` from sub-folders."),
        _reply(2, "This is because the bundler requires an explicit `exports` entry."),
    ]
    assert len({f.key for f in learned(events)}) == 2
