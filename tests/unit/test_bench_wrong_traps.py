"""The wrong-fact traps' sessions are read by the real ingest parsers in every host's format,
and a trap's `wrong` patterns judge memories and session-start lines."""

from __future__ import annotations

from pathlib import Path

from bench import fixture_pipeline
from bench.trap_transcripts import HOSTS, Ask, Delegate, Run, Session, write_sessions
from bench.wrong_traps import TRAPS, Outcome


def test_at_least_24_traps_in_six_ecosystems_and_every_host() -> None:
    assert len(TRAPS) >= 24
    assert len({t.ecosystem.split("/")[0].split()[0] for t in TRAPS}) >= 6
    assert {s.host for t in TRAPS for s in t.sessions} == set(HOSTS)
    assert all(t.wrong for t in TRAPS)


def test_every_trap_parses_into_reads_commands_and_prompts(tmp_path: Path) -> None:
    for trap in TRAPS:
        paths = write_sessions(tmp_path, trap.name, trap.sessions)
        events = fixture_pipeline.parse(paths, f"/tmp/projects/{trap.name}")
        kinds = {str(e.event_type) for e in events}
        assert "user_message" in kinds, trap.name
        assert {"command_run", "test_run"} & kinds, trap.name
        # The hook host: an older Codex rollout is Codex's.
        assert fixture_pipeline.transcript_host(paths) == trap.sessions[0].host.split("-")[0]


def test_a_wrong_pattern_judges_memories_and_start_lines() -> None:
    trap = next(t for t in TRAPS if t.name == "flask-to-fastapi")
    wrong = Outcome(trap, [("project_fact", "Built with Flask, FastAPI.")], "- Built with Flask.")
    assert len(wrong.wrong_memories()) == 1 and len(wrong.wrong_lines()) == 1
    right = Outcome(trap, [("project_fact", "Built with FastAPI.")], "- Built with FastAPI.")
    assert not right.wrong_memories() and not right.wrong_lines()
    assert right.right_stated() == "1/2"


def test_a_delegate_step_is_written_as_claude_code_writes_a_subagent(tmp_path: Path) -> None:
    steps = (Run("ls ..", "other\nshop\n"),)
    session = Session(
        "claude",
        "/home/ann/shop",
        (Ask("Look around."), Delegate("Look around.", "- `a.py` calls `b()`.", steps)),
    )
    paths = write_sessions(tmp_path, "delegated", (session,))
    assert [p.name.startswith("agent-") for p in paths] == [True, False]
    assert paths[0].parent.name == "subagents"
    events = fixture_pipeline.parse(paths, "/tmp/projects/delegated")
    (result,) = [e for e in events if str(e.event_type) == "tool_result" and not e.sidechain]
    assert result.content["tool"] == "Task"
    assert "`a.py` calls `b()`." in result.content["output"]
    side = [e for e in events if e.sidechain]
    assert {e.agent_id for e in side} == {paths[0].stem.removeprefix("agent-")}
    assert {"command_run", "assistant_response"} <= {str(e.event_type) for e in side}


def test_an_unsure_pattern_judges_start_lines_only() -> None:
    trap = next(t for t in TRAPS if t.unsure)
    pattern = trap.unsure[0][0].split("|")[0]
    said = Outcome(trap, [("project_fact", f"Subagent report: {pattern}")], f"- {pattern}")
    assert not said.wrong_memories() and len(said.wrong_lines()) == 1
