"""`session_routines` reads whether other work lies between two messages from a running count:
what it finds is what re-reading the messages between each two finds (the way it was written
before, kept here as the reference), on made-up sessions holding long stretches of steps and
"ok", alone or interleaved with another session's tasks."""

from __future__ import annotations

import dataclasses

import pytest

from bench.session_routines import digest, made_up_session, measure
from squirrel_memory.extractors import session_routines as module
from squirrel_memory.extractors.routine_requests import PREFIX, sentences, typed_requests
from squirrel_memory.extractors.session_routines import (
    MAX_ROUTINES,
    MIN_MESSAGES,
    MIN_POINTED_MESSAGES,
    SessionRoutine,
    asked_steps,
    session_routines,
)
from squirrel_memory.models import StoredEvent


def _reread(events: list[StoredEvent]) -> list[SessionRoutine]:
    """The reference: for each message of a routine, the messages since the last kept re-read."""
    typed = typed_requests(events)
    sessions_of: dict[frozenset[str], set[str]] = {}
    asked: dict[tuple[str, frozenset[str]], list[tuple[int, StoredEvent, str, bool]]] = {}
    for index, (event, text) in enumerate(typed):
        for sentence in sentences(text):
            steps, wording, plain = asked_steps(sentence)
            if steps:
                session = event.session_id or ""
                if wording == sentence:
                    sessions_of.setdefault(steps, set()).add(session)
                asked.setdefault((session, steps), []).append((index, event, wording, plain))
                break
    found: list[SessionRoutine] = []
    for (_, steps), said in asked.items():
        if len(sessions_of.get(steps, ())) > 1:
            continue
        kept = [said[0]]
        for item in said[1:]:
            between = typed[kept[-1][0] + 1 : item[0]]
            if any(module._other_work(text) for _, text in between):
                kept.append(item)
        bare = len([item for item in kept if item[3]])
        if len(kept) < MIN_MESSAGES or (bare < MIN_MESSAGES and len(kept) < MIN_POINTED_MESSAGES):
            continue
        found.append(
            SessionRoutine(
                key=PREFIX + "_".join(sorted(s.replace(" ", "_") for s in steps)),
                wording=min((w for _, _, w, _ in kept), key=len).rstrip(".!;。！；"),
                messages=len(kept),
                event_ids=tuple(dict.fromkeys(event.id for _, event, _, _ in kept)),
            )
        )
    found.sort(key=lambda r: -r.messages)
    return found[:MAX_ROUTINES]


def _with_another_session(events: list[StoredEvent]) -> list[StoredEvent]:
    """Every third message moved to a session of its own, where it is a task (a routine asked
    in two sessions is `routine_requests`', so the other session asks none)."""
    return [
        dataclasses.replace(e, session_id="s1", content={"text": f"fix the lexer for case {n}"})
        if n % 3 == 2
        else e
        for n, e in enumerate(events)
    ]


@pytest.mark.parametrize("seed", [1, 7, 23])
@pytest.mark.parametrize("interleaved", [False, True])
def test_the_running_count_finds_what_rereading_finds(seed: int, interleaved: bool) -> None:
    events = made_up_session(1500, seed=seed)
    if interleaved:
        events = _with_another_session(events)
    expected = _reread(events)
    assert expected, "the made-up session must hold routines to find"
    assert session_routines(events) == expected


def test_a_stretch_of_steps_and_ok_counts_as_no_other_work() -> None:
    def said(n: int, text: str) -> StoredEvent:
        return dataclasses.replace(made_up_session(1)[0], id=f"e{n}", content={"text": text})

    texts = ["commit and push", "ok", "commit and push", "fix the parser for empty input"]
    texts += ["commit and push", "continue", "commit", "commit and push"]
    events = [
        dataclasses.replace(said(n, t), timestamp=said(0, t).timestamp.replace(second=n))
        for n, t in enumerate(texts)
    ]
    found = session_routines(events)
    assert [(r.messages, r.event_ids) for r in found] == [(2, ("e0", "e4"))]
    assert found == _reread(events)


def test_the_bench_prints_a_row_per_size_with_the_digest_of_what_was_found() -> None:
    row = measure(300, repeat=1)
    assert row["requests"] == 300
    assert row["digest"] == digest(session_routines(made_up_session(300)))
