"""A project's own test command recognised by what it does, whatever its ecosystem.

The command table knows many test runners by name; a project may drive its tests with a
command no table names (a task runner's alias, a script, a runner of a small ecosystem) or
one whose name says only that it runs something (`./run.sh`). Such
a command shows what it is in the session: its output reports how many tests passed or failed,
and it reports them again after files changed. A command that does both is the
project's test command, as a named runner would be. Output that only shows text (a file
printed, a log searched, a CI job's log fetched) is someone else's report, never this one's.
A project with one session may run its tests once: a run that passed and reported tests after
a file changed checked that change, as a rerun would, and is enough.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_left
from datetime import datetime

from squirrel_core.commands import CommandUse
from squirrel_memory.extractors.evidence.attempts import Attempt

#: Runs of the command whose output reported tests, with a file changed between two of them.
MIN_REPORTS = 2
#: Output lines read from the end, where runners print their summary.
SUMMARY_LINES = 60

#: Programs that show, search or move text, and shell builtins: their output is not theirs.
_NOT_RUNNERS = frozenset(
    {"cat", "head", "tail", "less", "more", "bat", "grep", "rg", "ag", "ack", "sed", "awk"}
    | {"jq", "yq", "echo", "printf", "ls", "find", "tee", "wc", "sort", "uniq", "diff", "cut"}
    | {"git", "gh", "glab", "curl", "wget", "ssh", "scp", "xargs", "cd", "pushd", "popd"}
    | {"export", "source", ".", "set", "env", "time", "timeout", "watch", "sleep", "open"}
)
_NOUN = r"(?:tests?|examples?|specs?|scenarios?|cases?|runs?|assertions?|expectations?|checks?)"
#: Summary lines test runners of many ecosystems print: counts of tests with their outcome.
_REPORTS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        # `12 passed in 0.3s`, `3 failed, 9 passed`, `5 passing (10ms)`, `4 passed; 0 failed`
        # (not `Argument 1 passed to f()`: a count ends the phrase)
        r"\b\d+\s+(?:passed|passing|failed|failing)(?=\s*(?:[,;(]|in\b|$))",
        # `5 examples, 0 failures`, `3 tests, 0 failures`, `3 runs, 5 assertions, 0 failures`,
        # `4 tests, no failures`, `7 tests passed`
        rf"\b\d+\s+{_NOUN},\s+(?:\d+\s+{_NOUN},\s+)?(?:\d+|no)\s+(?:failures?|errors?)\b",
        rf"\b\d+\s+{_NOUN}\s+(?:passed|failed)\b",
        # `Ran 12 tests in 0.3s`, `Executed 4 tests, with 0 failures`, `Tests run: 8, Failures: 0`
        r"\b(?:ran|executed)\s+\d+\s+tests?\b",
        # `1 of 1 test suites (3 of 3 test cases) passed.` (Cabal)
        r"\b\d+\s+of\s+\d+\s+test\s+(?:suites?|cases?)\b.*\b(?:passed|failed)\b",
        r"\btests?\s+run:\s*\d+",
        # `OK (12 tests, 30 assertions)`, `[ FAIL 0 | WARN 1 | SKIP 0 | PASS 12 ]`
        r"\bOK\s+\(\d+\s+tests?",
        r"\[\s*FAIL\s+\d+\s*\|.*\bPASS\s+\d+\s*\]",
        # `Files=3, Tests=12`, `12 successes / 0 failures`, `Test Summary: | Pass  Total`
        r"\bfiles=\d+,\s*tests=\d+",
        r"\b\d+\s+successes?\s*/\s*\d+\s+failures?\b",
        r"^test summary:",
        # `# pass 3` / `# fail 0` (TAP)
        r"^#\s*(?:pass|fail)\s+\d+\s*$",
    )
)


def reports_tests(output: str) -> bool:
    """Whether a command's output ends with a test runner's summary: counts of tests and how
    they fared (any ecosystem's wording)."""
    return bool(report_line(output))


def report_line(output: str) -> str:
    """The last line of a test runner's summary near the end of `output` (`5 examples,
    1 failure`), stripped; "" when there is none."""
    for line in reversed(output.splitlines()[-SUMMARY_LINES:]):
        if any(pattern.search(line) for pattern in _REPORTS):
            return line.strip()
    return ""


def _runner(attempt: Attempt) -> bool:
    """A command whose purpose nothing names: no table knows it, or it runs a project's own
    script or task whose name says only that it runs (`./run.sh`, `python run.py`)."""
    use = attempt.use
    unnamed = use is None or (use.task is not None and use.purpose == "run")
    return unnamed and bool(attempt.base) and attempt.program not in _NOT_RUNNERS


def _portable(text: str) -> bool:
    """A command as anyone could type it: no path of one machine (`/home/…`, `~/…`)."""
    return not any(word.startswith(("/", "~")) for word in text.split()[1:])


def discovered_tests(found: list[Attempt], edit_times: list[datetime]) -> list[Attempt]:
    """`found` with each command no table names marked as the test command when the session
    used it as one: typed the same way, it reported tests, then again after a file changed (or
    it passed reporting tests once, after a file changed).
    Its whole text is the command (the head of `julia --project=. test/runtests.jl` runs
    anything).

    A run's output is the command's own only when no other command of the run could have
    printed it (the others are named by the table, or change folders and the like) and none of
    them is a test command the table names (`docker compose up -d db && mix test`: `mix test`
    printed the report)."""
    unnamed: dict[str, list[Attempt]] = {}
    # A run whose named test command (`docker compose up -d db && mix test`) printed the report.
    tested = {a.run.event_id for a in found if a.use is not None and a.use.purpose == "test"}
    for attempt in found:
        if _runner(attempt) and attempt.run.event_id not in tested:
            unnamed.setdefault(attempt.run.event_id, []).append(attempt)
    own = {event_id: runs[0] for event_id, runs in unnamed.items() if len(runs) == 1}
    groups: dict[tuple[str, str], list[Attempt]] = {}
    for attempt in own.values():
        if _portable(attempt.text):
            groups.setdefault((attempt.scope, attempt.text), []).append(attempt)
    marked: set[tuple[str, str]] = set()
    for key, runs in groups.items():
        times = sorted(a.run.timestamp for a in runs if reports_tests(a.run.output))
        rerun = len(times) >= MIN_REPORTS and _edited_between(edit_times, times[0], times[-1])
        once = any(
            a.run.ok and reports_tests(a.run.output) and _edited_before(edit_times, a.run.timestamp)
            for a in runs
        )
        if rerun or once:
            marked.add(key)
    if not marked:
        return found
    return [
        dataclasses.replace(a, use=CommandUse(a.text, "test", "any"), base=a.text)
        if own.get(a.run.event_id) is a and (a.scope, a.text) in marked
        else a
        for a in found
    ]


def _edited_before(edit_times: list[datetime], when: datetime) -> bool:
    return bool(edit_times) and edit_times[0] < when


def _edited_between(edit_times: list[datetime], start: datetime, end: datetime) -> bool:
    index = bisect_left(edit_times, start)
    return index < len(edit_times) and edit_times[index] < end
