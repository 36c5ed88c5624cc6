"""What the assistant's replies report of a fix the transcript does not show (for
`fixes.find_pitfalls`): the change it says it made ("I added `x` to build.rs") when no edit was
seen before the rerun passed (made by a subagent, or lost), and a rerun it says passed ("The
build passes now") when the run's own result never reached the transcript.

Only a claim in the past tense that names a file or a flag counts as a change; only a plain
statement of a pass counts as one (never a plan, a hedge, a condition or "still fails").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.evidence import Attempt
from squirrel_memory.extractors.lessons import Reply, stated_sentences
from squirrel_memory.extractors.pitfall_record import FIX_WINDOW, Pitfall
from squirrel_memory.extractors.retries import dropped_wrapper, same_intent
from squirrel_memory.models import StoredEvent

#: "I added …", "I've set …": a change the assistant says it made, in the past tense.
CLAIMED_CHANGE = re.compile(
    r"\bI(?:'ve| have)? (added|set|changed|updated|removed|replaced|bumped|pinned|lowered|"
    r"raised|declared|enabled|disabled|put|moved|listed|switched) (?=\S)",
)
_GERUNDS = {
    "added": "adding",
    "set": "setting",
    "changed": "changing",
    "updated": "updating",
    "removed": "removing",
    "replaced": "replacing",
    "bumped": "bumping",
    "pinned": "pinning",
    "lowered": "lowering",
    "raised": "raising",
    "declared": "declaring",
    "enabled": "enabling",
    "disabled": "disabling",
    "put": "putting",
    "moved": "moving",
    "listed": "listing",
    "switched": "switching",
}
#: A file a claim names as where the change went (`to tests/app.csproj`, `in pyproject.toml`).
_NAMED_FILE = re.compile(
    r"\b(?:to|in|into|under|from|of) `?((?:[\w.-]+/)*[\w-]*\.[A-Za-z][\w]{0,9})`?(?![\w/])"
)
#: A flag or a variable a claim names in a code span (`--locked`, `-j1`, `CGO_ENABLED=1`).
_NAMED_FLAG = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|\b[A-Z][A-Z0-9_]{2,}=")
_SPAN = re.compile(r"`([^`\n]*)`")
#: Words that make a claim or a report a plan, a hedge, a condition or a failure.
_HEDGED = re.compile(
    r"\b(?:will|would|should|could|might|may|maybe|probably|hopefully|expect\w*|try\w*|"
    r"if|once|unless|still|not|never|no longer|yet)\b|n't\b",
    re.IGNORECASE,
)
#: A statement that a run passed: "passes now", "the build passes", "all 6 tests pass",
#: "(6 passed)", "builds now".
_PASSED = re.compile(
    r"\b(?:pass(?:es)?|build(?:s)?|succeeds|compiles|works) now\b"
    r"|\bnow (?:pass(?:es)?|builds?|succeeds|compiles|works)\b"
    r"|\b\d+ passed\b"
    r"|\b(?:tests?|specs?|checks?|builds?|targets?) (?:all )?(?:pass(?:es|ed)?|succeed(?:s|ed)?)\b",
    re.IGNORECASE,
)
MAX_CLAIM_CHARS = 200
#: Where a clause ends for good (a comma does not end "If that fails, I added …").
_STRONG_BREAK = re.compile(r"[;:.]")
_TO_IT = re.compile(r" (?:to|in|into) it$")
_CODE_BLOCK = re.compile(r"```[^`]*(?:`(?!``)[^`]*)*(?:```|$)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
#: How much of a reply is read for its first sentence.
_REPORT_SCAN_CHARS = 4_000
_CLAUSES = re.compile(r"[:;,(]|\bbut\b|\bthough\b")


def call_command(event: StoredEvent) -> str:
    """The shell command a tool call asked to run (`command`, or Codex's `cmd`), or ""."""
    data = event.content.get("input")
    if not isinstance(data, dict):
        return ""
    command = data.get("command", data.get("cmd"))
    return command.strip() if isinstance(command, str) else ""


def lost_runs(events: Sequence[StoredEvent]) -> list[CommandRun]:
    """The shell commands of `events` whose result never came (no run, no tool result answers
    their call): outcome unknown, output empty."""
    answered = {
        e.content.get("tool_use_id")
        for e in events
        if e.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN, EventType.TOOL_RESULT)
    }
    return [
        CommandRun(e.id, e.timestamp, command, None, "", session_id=e.session_id)
        for e in events
        if e.event_type == EventType.TOOL_CALL
        and isinstance(e.content.get("tool_use_id"), str)
        and e.content.get("tool_use_id") not in answered
        and (command := call_command(e))
    ]


def claimed_change(
    said: Sequence[Reply], session: str | None, start: datetime, end: datetime
) -> tuple[str, str]:
    """(the change a reply between `start` and `end` says the assistant made, as a step —
    "adding `x` to build.rs" —, that reply's event id), when it names a file or a flag;
    ("", "")."""
    for reply in said:
        if reply.session_id != session or reply.timestamp <= start:
            continue
        if reply.timestamp >= end:
            break
        for sentence in stated_sentences(reply.text):
            step = _claimed_step(sentence)
            if step:
                return step, reply.event_id
    return "", ""


def _claimed_step(sentence: str) -> str:
    match = CLAIMED_CHANGE.search(sentence)
    if match is None:
        return ""
    # "If that fails, I added …" is no claim; "… does not list it in a.toml; I added …" is.
    before = _STRONG_BREAK.split(_SPAN.sub("", sentence[: match.start()]))[-1]
    if _HEDGED.search(before):
        return ""
    rest = sentence[match.end() :].rstrip(" .")
    if len(rest) > MAX_CLAIM_CHARS or _HEDGED.search(_SPAN.sub("", rest)):
        return ""
    flagged = any(_NAMED_FLAG.search(span) for span in _SPAN.findall(rest))
    named = _NAMED_FILE.search(rest)
    earlier = _NAMED_FILE.search(sentence[: match.start()])
    if not (flagged or named or earlier):
        return ""
    if not named and earlier:
        # "… in Package.swift; I added `x` to it": the file the sentence named.
        rest = _TO_IT.sub(f" {earlier.group(0).split()[0]} {earlier.group(1)}", rest)
    return f"{_GERUNDS[match.group(1)]} {rest}"


def _first_sentence(text: str) -> str:
    """The first sentence of a reply's prose (code blocks left out)."""
    prose = _CODE_BLOCK.sub(" ", text[:_REPORT_SCAN_CHARS])
    line = next((flat for raw in prose.splitlines() if (flat := " ".join(raw.split()))), "")
    return _SENTENCE_END.split(line, maxsplit=1)[0]


def reported_pass(
    said: Sequence[Reply], session: str | None, start: datetime, end: datetime | None
) -> Reply | None:
    """The first reply after `start` (and before `end`, when given) that states plainly that
    the run passed ("The build passes now: …"), when that is what the first reply to speak of
    the run says; None when it hedges or says it still fails."""
    for reply in said:
        if reply.session_id != session or reply.timestamp <= start:
            continue
        if end is not None and reply.timestamp >= end:
            break
        first = _first_sentence(reply.text)
        if not first:
            continue
        # The clause that says it passed, not what the sentence goes on to explain ("…
        # pass now: x was never declared").
        clause = next((c for c in _CLAUSES.split(first) if _PASSED.search(c)), "")
        if clause and not _HEDGED.search(_SPAN.sub("", clause)):
            return reply
        return None  # the first reply after the run says something else: no report of a pass
    return None


def reported_rerun(
    found: list[Attempt],
    i: int,
    tries: list[tuple[Attempt, datetime | None]],
    said: Sequence[Reply],
    lost: Sequence[Attempt] = (),
) -> tuple[list[Attempt], int] | None:
    """(the attempts with the rerun the assistant reported passing put in, its index) when the
    first reply after the last try of `found[i]` says plainly that it passed and no later run
    of the same intent came before that reply; None otherwise. The rerun is the run of the
    same intent whose result was lost before that reply (`lost`: `bun run test` after `rtk bun
    run test` failed), else the last try again, at the reply."""
    failed = found[i]
    last = tries[-1][0]
    session = failed.run.session_id
    rerun = next(
        (
            a
            for a in lost
            if a.run.session_id == session
            and a.run.timestamp > last.run.timestamp
            and a.run.timestamp - failed.run.timestamp <= FIX_WINDOW
            and (same_intent(failed, a) or dropped_wrapper(failed, a))
        ),
        None,
    )
    start = rerun.run.timestamp if rerun is not None else last.run.timestamp
    # A run of the same intent whose result came after that: the reply speaks of it, not of
    # the lost one.
    later = [
        a.run.timestamp
        for a in found[i + 1 :]
        if a.run.session_id == session and a.run.timestamp > start and same_intent(failed, a)
    ]
    reply = reported_pass(said, session, start, min(later, default=None))
    if reply is None or reply.timestamp - failed.run.timestamp > FIX_WINDOW:
        return None
    if rerun is not None:
        run = replace(rerun.run, ok=True)
        again = replace(rerun, run=run)
    else:
        run = replace(
            last.run, event_id=reply.event_id, timestamp=reply.timestamp, ok=True, output=""
        )
        again = replace(last, run=run)
    k = next(
        (j for j in range(i + 1, len(found)) if found[j].run.timestamp > run.timestamp),
        len(found),
    )
    return [*found[:k], again, *found[k:]], k


def claimed_fix(
    pitfall: Pitfall, passed: Attempt, said: Sequence[Reply], last_try: datetime
) -> Pitfall:
    """`pitfall` fixed by the change a reply between its last try and the passing rerun says
    the assistant made (`claimed`), when nothing seen changed and the reply names a file or a
    flag; else `pitfall` as it is."""
    if not said:
        return pitfall
    step, event_id = claimed_change(
        said, pitfall.failed.run.session_id, last_try, passed.run.timestamp
    )
    if not step:
        return pitfall
    ids = (*pitfall.event_ids, event_id, passed.run.event_id)
    return replace(pitfall, passed=passed, fix="claimed", fix_command=step, event_ids=ids)
