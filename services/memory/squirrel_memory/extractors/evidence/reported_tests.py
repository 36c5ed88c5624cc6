"""The test command of a session whose tests never all passed.

A recipe waits for a run that passed; a short session often ends with tests still failing.
A test runner that ran and printed its summary (`3 failed, 9 passed`, `5 examples, 1
failure`, `Tests run: 8, Failures: 2`) is still how the project runs its tests, whatever its
ecosystem: it started, found the tests and reported them (a runner that prints no counts
reports its failed tests: `--- FAIL: TestPost`, `Failed!  - Failed: 1, Passed: 9`). A
command that failed to start (not found, no such file, a usage error) reports no tests and
says nothing; nor does a run in a sub-folder, outside the project, of another ecosystem than
the project's main one, or one naming a path of one machine. Where a run passed, the recipe
says it better (`recipes.py`), and a command a whole run of which passed is never said to have
failed. The memory says its evidence: it ran and its tests failed.

Beside a test command that passed, another one that ran and reported its own tests (the
integration suite of `mise run test:integration` beside the unit tests of `mise run test`, an
end-to-end suite beside the unit tests) is a second way to run tests, said the same way
("Tests also run with …"): the passing command does not run those tests.

A failing run is neither when the same command, as typed, passed later (`zig test
src/lexer.zig` failed, then passed after the fix: nothing failed in the end), nor when a
passing test command echoed it as the command it ran (`make test` printing `LUA_PATH=… busted
spec`, `> vitest run` under `npm test`): the runner run bare is the same suite without the
wrapper's set-up, not a second way to run tests.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.evidence.attempts import NEUTRAL_ECOSYSTEMS, Attempt, Finding
from squirrel_memory.extractors.evidence.command_picks import whole_run
from squirrel_memory.extractors.evidence.test_reports import SUMMARY_LINES, reports_tests

#: Below a passing test command's fact (0.5 and up): the command is right, its runs failed.
IMPORTANCE = 0.45
KEY = "test_command"
#: What the memory says of its evidence, so that whoever reads it (a session's opening among
#: them) can tell it from a command that passed.
EVIDENCE = "it ran; its tests failed"
#: Failure summaries of runners that print no counts: `--- FAIL: TestPost (0.00s)` and
#: `FAIL\tpkg\t0.01s`, `Failed!  - Failed: 1, Passed: 9`, `Tests: 8, Assertions: 20,
#: Failures: 1.`, `+8 -1: Some tests failed.`
_FAILED_TESTS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"^--- FAIL: \S+ \(\d",
        r"^FAIL\s+\S+\s+\d+(?:\.\d+)?s$",
        r"\bfailed!\s+-\s+failed:\s*\d+",
        r"^tests:\s*\d+,\s*assertions:\s*\d+",
        r"\+\d+(?:\s+~\d+)?\s+-\d+:\s+some tests failed",
    )
)


def _reported(attempt: Attempt, ecosystems: tuple[str, ...]) -> bool:
    use = attempt.use
    if use is None or use.purpose != "test" or attempt.scope or attempt.run.ok:
        return False
    if ecosystems and use.ecosystem not in NEUTRAL_ECOSYSTEMS and use.ecosystem not in ecosystems:
        return False
    local = any(word.startswith(("/", "~")) for word in attempt.text.split()[1:])
    return not local and (reports_tests(attempt.run.output) or failed_tests(attempt.run.output))


#: An echoed command line: its program after a prompt mark (`> `, `$ `, `+ `) and variables.
_ECHOED = re.compile(
    r"""^(?:[>$+]\s*)?(?:[A-Za-z_]\w*=(?:"[^"]*"|'[^']*'|\S*)\s+)*(?P<program>[\w./-]+)(?:\s|$)"""
)


def _echoed_programs(found: list[Attempt]) -> set[str]:
    """The programs the passing test runs of `found` echoed as the commands they ran (not
    their own program: `npm test` echoing `npm run build && …` says nothing of `npm`'s
    other scripts)."""
    programs: set[str] = set()
    for attempt in found:
        use = attempt.use
        if not attempt.run.ok or use is None or use.purpose != "test":
            continue
        for line in attempt.run.output.splitlines():
            if match := _ECHOED.match(line.strip()):
                programs.add(match["program"].rsplit("/", 1)[-1])
        programs.discard(attempt.program)
    return programs


def _fixed_later(found: list[Attempt], index: int) -> bool:
    """Whether the command of `found[index]`, as typed, passed on a later run."""
    text = found[index].text
    return any(a.text == text and a.run.ok for a in found[index + 1 :])


def failed_tests(output: str) -> bool:
    """Whether the end of `output` is a runner's report of failed tests without counts."""
    lines = [line.strip() for line in output.splitlines()[-SUMMARY_LINES:]]
    return any(pattern.search(line) for line in lines for pattern in _FAILED_TESTS)


def reported_test_command(
    found: list[Attempt], ecosystems: tuple[str, ...], besides: str = ""
) -> Finding | None:
    """The root test command that ran and reported its tests without passing (module
    docstring); the one run most often (then most recently) when several did. `besides` is
    what the memories of the test command that passed say: a command they name is theirs,
    another one is a second way to run tests."""
    # A command whole runs of which passed is not one whose tests failed: its failing runs
    # came before a fix (the recipe, or the gate holding the test slot, says the rest).
    passed = {a.base for a in found if a.run.ok and a.use is not None and whole_run(a)}
    echoed = _echoed_programs(found)
    runs: dict[str, list[Attempt]] = {}
    for index, attempt in enumerate(found):
        if attempt.base and attempt.base not in passed and _reported(attempt, ecosystems):
            if besides and re.search(rf"`{re.escape(attempt.base)}[` ]", besides):
                continue  # the passing command itself, failing on another run
            if _fixed_later(found, index) or attempt.program in echoed:
                continue  # fixed since, or the passing command's own runner run bare
            runs.setdefault(attempt.base, []).append(attempt)
    if not runs:
        return None
    base, chosen = max(runs.items(), key=lambda kv: (len(kv[1]), kv[1][-1].run.timestamp))
    said = "Tests also run with" if besides else "Tests run with"
    return Finding(
        "fact",
        f"{KEY}:also" if besides else KEY,
        f"{said} `{base}` ({EVIDENCE}).",
        ("testing", "command"),
        IMPORTANCE,
        tuple(a.run.event_id for a in chosen[-20:]),
    )
