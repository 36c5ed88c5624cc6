"""Episode segmentation: sessions, idle gaps, merging of short segments, summaries, importance."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from squirrel_memory.episodes import (
    MAX_SUMMARY_CHARS,
    episode_id,
    score_importance,
    segment_episodes,
    summarize_events,
)
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 3, 3, tzinfo=UTC)


def ev(
    n: int,
    minute: float,
    *,
    session: str | None = "s1",
    kind: str = "assistant_response",
    content: dict[str, Any] | None = None,
    project: str = "/repo",
    user: str = "dev",
    paths: tuple[str, ...] = (),
) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n:04d}",
        project_id=project,
        user_id=user,
        source_tool="claude_code",
        session_id=session,
        timestamp=T0 + timedelta(minutes=minute),
        event_type=kind,
        content=content if content is not None else {"text": f"step {n}"},
        file_paths=paths,
        hash=f"h{n}",
    )


def ids(episode_events: tuple[str, ...]) -> list[int]:
    return [int(e.removeprefix("evt_")) for e in episode_events]


def test_events_split_into_a_new_episode_after_more_than_twenty_idle_minutes() -> None:
    events = [ev(1, 0), ev(2, 5), ev(3, 10), ev(4, 30.5), ev(5, 31), ev(6, 32)]

    episodes = segment_episodes(events, now=NOW)

    assert [ids(e.event_ids) for e in episodes] == [[1, 2, 3], [4, 5, 6]]
    assert episodes[0].start_ts == T0
    assert episodes[0].end_ts == T0 + timedelta(minutes=10)
    assert all(e.created_at == NOW for e in episodes)


def test_a_gap_of_exactly_twenty_minutes_does_not_split() -> None:
    events = [ev(1, 0), ev(2, 1), ev(3, 21)]

    (episode,) = segment_episodes(events, now=NOW)

    assert episode.event_count == 3


def test_sessions_are_segmented_separately_even_when_interleaved() -> None:
    events = [ev(i, i, session="a" if i % 2 else "b") for i in range(1, 9)]

    episodes = segment_episodes(events, now=NOW)

    assert sorted(e.session_id or "" for e in episodes) == ["a", "b"]
    assert {e.session_id: ids(e.event_ids) for e in episodes} == {
        "a": [1, 3, 5, 7],
        "b": [2, 4, 6, 8],
    }


def test_short_segment_merges_into_the_nearer_neighbour_of_its_session() -> None:
    # 1-3 | gap 25 | 4 | gap 22 | 5-7  → 4 is nearer to 5-7.
    events = [ev(1, 0), ev(2, 1), ev(3, 2), ev(4, 27), ev(5, 49), ev(6, 50), ev(7, 51)]

    episodes = segment_episodes(events, now=NOW)

    assert [ids(e.event_ids) for e in episodes] == [[1, 2, 3], [4, 5, 6, 7]]


def test_short_segment_at_the_end_merges_into_the_previous_one() -> None:
    events = [ev(1, 0), ev(2, 1), ev(3, 2), ev(4, 60), ev(5, 61)]

    episodes = segment_episodes(events, now=NOW)

    assert [ids(e.event_ids) for e in episodes] == [[1, 2, 3, 4, 5]]


def test_short_session_joins_a_nearby_episode_of_another_session() -> None:
    commit = ev(9, 6, session=None, kind="commit", content={"message": "fix", "sha": "abc"})
    events = [ev(1, 0), ev(2, 5), ev(3, 10), commit]

    (episode,) = segment_episodes(events, now=NOW)

    assert episode.session_id == "s1"
    assert ids(episode.event_ids) == [1, 2, 9, 3]


def test_short_session_far_from_everything_is_kept_on_its_own() -> None:
    events = [ev(1, 0), ev(2, 1), ev(3, 2), ev(4, 300, session="lonely")]

    episodes = segment_episodes(events, now=NOW)

    assert [ids(e.event_ids) for e in episodes] == [[1, 2, 3], [4]]
    assert episodes[1].session_id == "lonely"


def test_projects_and_users_are_never_mixed() -> None:
    events = [
        *(ev(i, i, project="/a") for i in range(1, 4)),
        *(ev(i, i, project="/b") for i in range(4, 7)),
        ev(7, 3, user="other"),
    ]

    episodes = segment_episodes(events, now=NOW)

    owners = {(e.project_id, e.user_id): ids(e.event_ids) for e in episodes}
    assert owners == {("/a", "dev"): [1, 2, 3], ("/b", "dev"): [4, 5, 6], ("/repo", "other"): [7]}


def test_episode_ids_depend_only_on_their_events() -> None:
    events = [ev(i, i * 3) for i in range(1, 10)]
    shuffled = list(events)
    random.Random(4).shuffle(shuffled)

    first = segment_episodes(events, now=NOW)
    again = segment_episodes(shuffled, now=NOW + timedelta(days=1))

    assert [e.id for e in first] == [e.id for e in again]
    assert first[0].id == episode_id(first[0].event_ids)
    assert episode_id(["evt_1", "evt_2"]) != episode_id(["evt_1", "evt_3"])


def test_no_events_give_no_episodes() -> None:
    assert segment_episodes([], now=NOW) == []


@pytest.mark.parametrize(("gap", "min_events"), [(timedelta(0), 3), (timedelta(minutes=5), 0)])
def test_nonsense_settings_are_rejected(gap: timedelta, min_events: int) -> None:
    with pytest.raises(ValueError):
        segment_episodes([ev(1, 0)], gap=gap, min_events=min_events, now=NOW)


def _work_session() -> list[StoredEvent]:
    return [
        ev(1, 0, kind="user_message", content={"text": "Fix the failing login test, please."}),
        ev(
            2,
            1,
            kind="test_run",
            content={
                "command": "uv run pytest tests/test_login.py",
                "exit_code": 1,
                "is_error": True,
                "output": "E   KeyError: 'token'",
            },
        ),
        ev(
            3,
            2,
            kind="code_change",
            content={"path": "src/auth/login.py"},
            paths=("src/auth/login.py",),
        ),
        ev(
            4,
            3,
            kind="test_run",
            content={"command": "uv run pytest tests/test_login.py", "exit_code": 0, "output": ""},
        ),
        ev(5, 4, kind="commit", content={"sha": "abc1234", "message": "Fix login token\n\nbody"}),
        ev(
            6,
            5,
            kind="user_message",
            content={"text": "Always run the whole suite before committing."},
        ),
    ]


def test_summary_names_the_request_commands_files_commit_and_outcome() -> None:
    summary = summarize_events(_work_session())

    assert 'Asked: "Fix the failing login test, please."' in summary
    assert "uv run pytest tests/test_login.py ×2" in summary
    assert "1 failed" in summary
    assert "login.py" in summary
    assert 'Committed 1×: "Fix login token"' in summary
    assert "a failing command was fixed" in summary


def test_summary_stays_within_its_cap_for_huge_input() -> None:
    events = [
        ev(1, 0, kind="user_message", content={"text": "word " * 200_000}),
        *(
            ev(i, i / 100, kind="command_run", content={"command": f"echo {'x' * 500} {i}"})
            for i in range(2, 300)
        ),
        *(
            ev(i, i / 100, kind="code_change", content={"path": f"src/m{i}/{'y' * 200}.py"})
            for i in range(300, 400)
        ),
    ]

    summary = summarize_events(events)

    assert len(summary) <= MAX_SUMMARY_CHARS
    assert summary.startswith('Asked: "word word')


def test_summary_skips_harness_text_and_hostile_content_types() -> None:
    events = [
        ev(1, 0, kind="user_message", content={"text": "<command-name>/clear</command-name>"}),
        ev(2, 1, kind="user_message", content={"text": None}),
        ev(3, 2, kind="command_run", content={"command": 42}),
        ev(4, 3, kind="commit", content={"message": ["not", "text"]}),
    ]

    summary = summarize_events(events)

    assert "clear" not in summary
    assert summary == "Committed 1×."


def test_chit_chat_has_low_importance_and_real_work_high() -> None:
    chat = [ev(i, i, kind="user_message", content={"text": "thanks, nice"}) for i in range(3)]

    assert score_importance(chat) == pytest.approx(0.1)
    assert score_importance(_work_session()) >= 0.8
    assert score_importance(_work_session() * 5) <= 1.0


def test_a_stated_preference_raises_importance() -> None:
    plain = [ev(1, 0, kind="user_message", content={"text": "Rename the helper."})]
    stated = [ev(1, 0, kind="user_message", content={"text": "Never use print for logging."})]

    assert score_importance(stated) > score_importance(plain)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=600),
            st.sampled_from(["a", "b", None]),
            st.sampled_from(["/p", "/q"]),
        ),
        max_size=40,
    )
)
def test_every_event_lands_in_exactly_one_episode(
    rows: list[tuple[int, str | None, str]],
) -> None:
    events = [ev(i, minute, session=s, project=p) for i, (minute, s, p) in enumerate(rows)]

    episodes = segment_episodes(events, now=NOW)

    placed = [e for episode in episodes for e in episode.event_ids]
    assert sorted(placed) == sorted(e.id for e in events)
    by_id = {e.id: e for e in events}
    for episode in episodes:
        assert episode.event_count == len(episode.event_ids)
        assert {by_id[e].project_id for e in episode.event_ids} == {episode.project_id}
        assert episode.start_ts <= episode.end_ts
        assert 0.0 <= episode.importance <= 1.0


def test_a_subagents_transcript_alone_is_summarised_by_the_task_its_parent_delegated() -> None:
    prompt = "Find where the HTTP routes are registered and report the files."
    events = [
        replace(e, sidechain=True, agent_id="a1")
        for e in (
            replace(ev(1, 0, kind="user_message", content={"text": prompt}), origin="parent_agent"),
            ev(2, 1, kind="command_run", content={"command": "grep -rn route src", "exit_code": 0}),
            ev(3, 2),
        )
    ]
    typed = [replace(events[0], origin="typed", sidechain=False), *events[1:]]

    assert summarize_events(events).startswith(f'Delegated: "{prompt}".')
    assert summarize_events(typed).startswith(f'Asked: "{prompt}".')
    assert "Delegated" not in summarize_events([*typed, events[0]])
