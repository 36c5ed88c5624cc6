"""`session_requests` looks only at sentences that could pair and counts other work between two
messages from a running count: what it finds is what comparing every pair of sentences finds
(the way it was written before, kept here as the reference), on made-up sessions of both
ecosystems the bench builds, one session or several interleaved."""

from __future__ import annotations

import dataclasses

import pytest

from bench.session_requests import digest, made_up_session, measure
from squirrel_memory.extractors import session_requests as module
from squirrel_memory.extractors.routine_requests import typed_requests
from squirrel_memory.extractors.session_requests import (
    MIN_MESSAGES,
    PREFIX,
    SessionRequest,
    request_sentences,
    same_request,
    session_requests,
)
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent


def _every_pair(events: list[StoredEvent]) -> list[SessionRequest]:
    """The reference: every later sentence against the group, the messages between re-read."""
    typed = typed_requests(events)
    said = [
        (index, event, sentence, module.instruction_words(sentence))
        for index, (event, text) in enumerate(typed)
        for sentence in request_sentences(text)
    ]
    found: list[SessionRequest] = []
    used: set[int] = set()
    for i, first in enumerate(said):
        if i in used:
            continue
        group = [first]
        for j in range(i + 1, len(said)):
            other = said[j]
            if j in used or other[1].session_id != first[1].session_id:
                continue
            if other[0] == group[-1][0] or not any(
                same_request(m[3], other[3])
                and not module._one_form(module._Said(*m), module._Said(*other))
                for m in group
            ):
                continue
            between = typed[group[-1][0] + 1 : other[0]]
            if any(module._other_work(text) for _, text in between):
                group.append(other)
                used.add(j)
        if len(group) < MIN_MESSAGES:
            continue
        used.add(i)
        central = max(group, key=lambda s: sum(len(s[3] & o[3]) for o in group if o is not s))
        shared = set.intersection(*(set(s[3]) for s in group)) or set(central[3])
        found.append(
            SessionRequest(
                key=PREFIX + key_slug(" ".join(sorted(shared))),
                wording=module._quote(central[2], frozenset(shared)).rstrip(".!;"),
                messages=len(group),
                event_ids=tuple(dict.fromkeys(s[1].id for s in group)),
            )
        )
    found.sort(key=lambda r: -r.messages)
    return found[: module.MAX_REQUESTS]


@pytest.mark.parametrize("seed", [1, 7, 23])
@pytest.mark.parametrize("sessions", [1, 3])
def test_the_candidates_find_what_every_pair_finds(seed: int, sessions: int) -> None:
    events = [
        dataclasses.replace(e, session_id=f"s{n % sessions}")
        for n, e in enumerate(made_up_session(400, seed=seed))
    ]
    expected = _every_pair(events)
    assert expected, "the made-up session must hold requests to find"
    assert session_requests(events) == expected


def test_the_bench_prints_a_row_per_size_with_the_digest_of_what_was_found() -> None:
    row = measure(200, repeat=1)
    assert row["requests"] == 200
    assert row["digest"] == digest(session_requests(made_up_session(200)))
