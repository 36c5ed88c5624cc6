"""A trailer the user declined with a commit and the next commit made went without becomes a
style note; a failed commit, a kept trailer, a commit never made again, another repository's
commit and trailers never declined say nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.declined_trailers import declined_trailers, trailers
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import Episode, MemoryType, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PROJECT = "/home/dev/infra"
DECLINED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)
WITH_FEEDBACK = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). To tell you how to proceed, "
    "the user said:\nCo-Authored-By: Claude <noreply@anthropic.com>"
)
TRAILER = "Co-Authored-By: Claude <noreply@anthropic.com>"


def _heredoc(message: str) -> str:
    return f"git add README.md && git commit -m \"$(cat <<'EOF'\n{message}\nEOF\n)\""


def _events(runs: list[tuple[str, str, bool | None]]) -> list[StoredEvent]:
    """One command call and its result per (command, output, ok); ok None is a decline."""
    events: list[StoredEvent] = []
    for n, (command, output, ok) in enumerate(runs):
        use_id = f"t{n}"
        result: dict[str, object] = {"tool": "Bash", "tool_use_id": use_id, "output": output}
        if ok is None:
            result["is_error"] = True
        else:
            result["is_error"] = not ok
            result["exit_code"] = 0 if ok else 1
        for kind, content in (
            ("command_run", {"command": command, "tool_use_id": use_id, "cwd": PROJECT}),
            ("tool_result", result),
        ):
            events.append(
                StoredEvent(
                    id=f"evt_{len(events):04d}",
                    project_id=PROJECT,
                    user_id="dev",
                    source_tool="claude_code",
                    session_id="s1",
                    timestamp=T0 + timedelta(minutes=len(events)),
                    event_type=kind,
                    content=content,
                    file_paths=(),
                    hash=f"h{len(events)}",
                    origin="assistant",
                )
            )
    return events


MADE = "[main 8ce84ff] Add overview\n 1 file changed, 9 insertions(+)"


def test_a_declined_trailer_the_next_commit_left_out_is_noted() -> None:
    events = _events(
        [
            (_heredoc(f"Add overview\n\nA longer body.\n\n{TRAILER}"), DECLINED, None),
            (_heredoc(f"Add overview\n\n{TRAILER}"), WITH_FEEDBACK, None),
            ('git add README.md && git commit -m "Add overview"', MADE, True),
        ]
    )

    found = declined_trailers(events)

    assert [f.key for f in found] == ["commit:no-trailer:co-authored-by"]
    assert found[0].content == (
        "Commits here carry no `Co-Authored-By` trailer: the user declined the commit whose "
        "message had one, and it was made without it."
    )
    assert found[0].event_ids == ("evt_0000", "evt_0002", "evt_0004")


def test_the_rules_extractor_makes_it_a_style_note() -> None:
    events = _events(
        [
            (_heredoc(f"Add overview\n\n{TRAILER}"), DECLINED, None),
            ('git commit -m "Add overview"', MADE, True),
        ]
    )
    episode = Episode(
        id="ep1",
        project_id=PROJECT,
        user_id="dev",
        session_id="s1",
        start_ts=T0,
        end_ts=T0 + timedelta(minutes=5),
        event_count=len(events),
        summary="",
        importance=0.5,
        created_at=T0,
        event_ids=tuple(e.id for e in events),
    )

    found = [
        c
        for c in RulesExtractor().extract_sync(episode, events)
        if c.key == "commit:no-trailer:co-authored-by"
    ]

    assert len(found) == 1
    assert found[0].type == MemoryType.USER_STYLE


@pytest.mark.parametrize(
    "runs",
    [
        # a failed commit (a hook, an empty index) is no decline by the user
        [
            (_heredoc(f"Add overview\n\n{TRAILER}"), "error: pre-commit hook failed", False),
            ('git commit -m "Add overview"', MADE, True),
        ],
        # the decline was about something else: the commit made keeps the trailer
        [
            (_heredoc(f"Add overview\n\n{TRAILER}"), DECLINED, None),
            (_heredoc(f"Add the overview\n\n{TRAILER}"), MADE, True),
        ],
        # declined and never made again
        [(_heredoc(f"Add overview\n\n{TRAILER}"), DECLINED, None)],
        # no trailer was ever declined
        [
            ('git commit -m "Add overview"', DECLINED, None),
            ('git commit -m "docs: add overview"', MADE, True),
        ],
        # the commit made is another repository's
        [
            (_heredoc(f"Add overview\n\n{TRAILER}"), DECLINED, None),
            ('git -C /home/dev/other commit -m "Add overview"', MADE, True),
        ],
        # a commit made without a trailer, with no decline before it
        [('git commit -m "Add overview"', MADE, True)],
    ],
)
def test_nothing_is_noted_without_a_declined_trailer_left_out(
    runs: list[tuple[str, str, bool | None]],
) -> None:
    assert declined_trailers(_events(runs)) == []


def test_only_the_trailers_every_decline_carried_count() -> None:
    signed = "Signed-off-by: Dev <dev@example.org>"
    events = _events(
        [
            (_heredoc(f"Add overview\n\n{TRAILER}\n{signed}"), DECLINED, None),
            (_heredoc(f"Add overview\n\n{signed}"), DECLINED, None),
            ('git commit -m "Add overview"', MADE, True),
        ]
    )

    assert [f.key for f in declined_trailers(events)] == ["commit:no-trailer:signed-off-by"]


@pytest.mark.parametrize(
    ("message", "keys"),
    [
        (f"Fix it\n\n{TRAILER}", {"co-authored-by": "Co-Authored-By"}),
        ("Fix it\n\nRefs: #12\nNote: a body line", {}),
        ("feat(api): add it", {}),
        ("Fix it\n\nSee http://example.org/a-b: the spec", {}),
    ],
)
def test_trailers_are_hyphenated_keys_with_a_value(message: str, keys: dict[str, str]) -> None:
    assert trailers(message) == keys


@pytest.mark.parametrize(
    ("message", "keys"),
    [
        (
            f"Fix it\n\nBody.\n\nSigned-off-by: Dev <dev@example.org>\n{TRAILER}",
            {"signed-off-by": "Signed-off-by", "co-authored-by": "Co-Authored-By"},
        ),
        (
            f"Fix it\n\n{TRAILER}\n  continued on the next line\nReviewed-by: Ann",
            {"co-authored-by": "Co-Authored-By", "reviewed-by": "Reviewed-by"},
        ),
        (f"Fix it\n\n{TRAILER}\n\n", {"co-authored-by": "Co-Authored-By"}),
    ],
)
def test_the_last_paragraph_of_trailer_lines_is_the_trailer_block(
    message: str, keys: dict[str, str]
) -> None:
    assert trailers(message) == keys


@pytest.mark.parametrize(
    "message",
    [
        # In the body, followed by more prose: no trailer.
        "Fix it\n\nFollow-up: the cache is cleared in the next change.\n\nMore words here.",
        # In the last paragraph beside prose: not a trailer block.
        "Fix it\n\nFollow-up: the cache is cleared next.\nThe rest is prose.",
        f"Fix it\n\nThe body says why.\n{TRAILER}",
        # The subject is never a trailer.
        "Follow-up: clear the cache",
        TRAILER,
    ],
)
def test_trailer_like_lines_outside_a_trailer_block_are_no_trailers(message: str) -> None:
    assert trailers(message) == {}


def test_a_declined_body_line_that_looks_like_a_trailer_is_no_note() -> None:
    events = _events(
        [
            (_heredoc("Add overview\n\nFollow-up: docs next.\n\nMore."), DECLINED, None),
            ('git add README.md && git commit -m "Add overview"', MADE, True),
        ]
    )

    assert declined_trailers(events) == []
