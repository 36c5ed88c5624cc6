"""How a command the user typed into the assistant (`!uv run pytest`) fared, when its output says.

The assistant's host records such a command as a `<bash-input>` message and what it printed as
the next message, `<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>`, without an exit
code. The output is the command's own; whether it passed is known only when the output ends
with a test runner's summary that counts passes and no failure (`12 passed in 0.4s`,
`[ FAIL 0 | WARN 0 | SKIP 1 | PASS 30 ]`). Any other output leaves the outcome unknown: a
typed command that printed text may still have failed.
"""

from __future__ import annotations

import dataclasses
import re

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.activity import CommandRun, event_text
from squirrel_memory.extractors.evidence.test_reports import report_line
from squirrel_memory.models import StoredEvent

_STREAMS = re.compile(r"<bash-(stdout|stderr)>(.*?)(?:</bash-\1>|$)", re.DOTALL)
#: A count of failing tests above zero, in the wordings of `test_reports` (`1 failed`,
#: `2 failures`, `3 errors`, `FAIL 1 |`, `# fail 2`, `Failures: 1`).
_FAILED = re.compile(
    r"\b[1-9]\d*\s+(?:failed|failing|failures?|errors?)\b|\bFAIL\s+[1-9]|^#\s*fail\s+[1-9]"
    r"|\b(?:failures?|errors?):\s*[1-9]"
    r"|\b[1-9]\d*\s+of\s+\d+\s+test\s+(?:suites?|cases?)\b[^\n]*\bfailed\b",
    re.IGNORECASE,
)
#: A count of passing tests above zero.
_PASSED = re.compile(
    r"\b[1-9]\d*\s+(?:passed|passing|successes?|examples?|tests?|runs?|specs?)\b"
    r"|\bPASS\s+[1-9]|^#\s*pass\s+[1-9]|\bOK\s+\(|\btests?\s+run:\s*[1-9]"
    r"|\b[1-9]\d*\s+of\s+\d+\s+test\s+(?:suites?|cases?)\b[^\n]*\bpassed\b",
    re.IGNORECASE,
)


def typed_output(event: StoredEvent) -> str | None:
    """What a typed command printed, when `event` is the host's message carrying it."""
    if event.event_type != EventType.USER_MESSAGE or event.origin != str(Origin.HARNESS):
        return None
    text = event_text(event).lstrip()
    if not text.startswith(("<bash-stdout>", "<bash-stderr>")):
        return None
    return "\n".join(m.group(2).strip("\n") for m in _STREAMS.finditer(text) if m.group(2).strip())


def passed(output: str) -> bool:
    """Whether the output ends with a test summary that counts passes and no failure."""
    line = report_line(output)
    return bool(line) and bool(_PASSED.search(line)) and not _FAILED.search(line)


def failed(output: str) -> bool:
    """Whether the output ends with a test summary that counts a failure."""
    line = report_line(output)
    return bool(line) and bool(_FAILED.search(line))


def with_typed_outcomes(runs: list[CommandRun], events: list[StoredEvent]) -> list[CommandRun]:
    """`runs` with each typed command's output (the host's next message in its session) and,
    when that output is a passing test summary, its success."""
    typed = {run.event_id: n for n, run in enumerate(runs) if run.by_user and run.ok is None}
    if not typed:
        return runs
    out = list(runs)
    for index, event in enumerate(events):
        n = typed.get(event.id)
        if n is None:
            continue
        following = next((e for e in events[index + 1 :] if e.session_id == event.session_id), None)
        output = typed_output(following) if following is not None else None
        if output is None:
            continue
        out[n] = dataclasses.replace(runs[n], output=output, ok=True if passed(output) else None)
    return out
