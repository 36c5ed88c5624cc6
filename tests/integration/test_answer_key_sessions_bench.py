"""The one-session answer-key replay end to end on a one-session project kept in the
repository: the real memory service, rules extraction and the session-start text."""

from __future__ import annotations

from bench import answer_key_sessions, fixture_pipeline

PROJECT = "openfang"


def test_each_session_is_replayed_alone_and_scored_on_what_it_supports() -> None:
    run, grouped = answer_key_sessions.measure(
        fixture_pipeline.PROJECT_TRANSCRIPTS, "tuning", [PROJECT], hook_text=True
    )

    ((key, sessions),) = grouped
    (session,) = sessions
    result = run.scores[session.name]
    assert key.project == PROJECT and session.name == f"{PROJECT}@s1"
    assert run.events[session.name] > 0
    assert result.memories == len(result.verdicts) > 0
    assert 0 < result.all_total <= len(key.items)
    assert result.hook is not None and set(result.hook.needed) <= set(key.session_start)
    assert result.questions == 0
