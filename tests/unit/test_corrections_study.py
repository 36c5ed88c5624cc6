"""The corrections study (bench/corrections_study.py): every made-up case has a unique name, a
known kind and sessions in one project; a trap wants nothing and lists what must not become the
user's style; the table counts a preference found when one memory states all of it, in start
when one line of the start text does (for those that must reach it), and wrong when a memory
states it wrong or states what the case rules out. A command the user refused is written as
each host writes it, and read as a call that never ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import fixture_pipeline
from bench.corrections_study import Outcome, report
from bench.corrections_study_cases import CASES, KINDS, Case, Want
from bench.trap_transcripts import HOSTS, Ask, Refused, Session, write_sessions


def test_every_case_is_named_once_with_a_known_kind_host_and_one_project() -> None:
    assert len({c.name for c in CASES}) == len(CASES)
    for case in CASES:
        assert case.kind in KINDS, case.name
        assert len({s.cwd for s in case.sessions}) == 1, case.name
        assert all(s.host in HOSTS for s in case.sessions), case.name
        if case.kind == "trap":
            assert case.must_not and not case.wants, case.name
        else:
            assert case.wants, case.name


def test_found_in_start_and_wrong_are_counted_from_the_memories() -> None:
    case = Case(
        "c",
        "corrected",
        "Go",
        (Session("claude", "/p", (Ask("no globals"),)),),
        wants=(Want("no globals", (r"global",), wrong=(r"use a global",)),),
        must_not=(r"8081",),
    )
    outcome = Outcome(
        case,
        styles=[(0.7, "No globals."), (0.3, "Use port 8081."), (0.2, "Use a global config.")],
        start_text="# Style\n- No globals.",
    )
    (want,) = case.wants
    assert outcome.found(want) == 0.7 and outcome.in_start(want)
    assert outcome.wrong() == ["Use port 8081.", "Use a global config."]
    table = report([outcome])
    assert "| c | corrected | Go | claude | 1 | 1 | 1/1 | 0.70 | 2 |" in table
    assert "total: cases 1; wants 1: found 1, in start 1/1; wrong 2" in table


@pytest.mark.parametrize("host", ["claude", "codex", "codex-shell", "gemini"])
def test_a_refused_command_is_read_as_a_call_that_never_ran_then_the_users_words(
    tmp_path: Path, host: str
) -> None:
    steps = (Ask("Install it."), Refused("sudo pip install -e .", "never sudo pip"))
    if host != "claude":
        steps = (*steps[:1], Refused("sudo pip install -e ."), Ask("never sudo pip"))
    paths = write_sessions(tmp_path, "r", (Session(host, "/tmp/projects/r", steps),))
    events = fixture_pipeline.parse(paths, "/tmp/projects/r")
    ran = [e for e in events if str(e.event_type) in ("command_run", "test_run")]
    assert [e.content.get("exit_code") for e in ran] == [None]
    said = " ".join(
        str(e.content.get("text") or e.content.get("output") or "")
        for e in events
        if str(e.event_type) in ("user_message", "command_run")
    )
    assert "never sudo pip" in said
