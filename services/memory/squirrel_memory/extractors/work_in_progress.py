"""Failures that are the work itself, not a lesson for the next session.

A test whose expectation is not met yet while the code it tests is being written, then passes
once the work is done, teaches nothing the next session can use: the memory would be a log line
("`pytest tests/x` failed with `assert 1 == 2`; it passed after editing tests/x"). Such a
failure is left out when it is an assertion (an expectation that did not hold, not an import,
a crash or a refused connection; or a message a test printed at its own line, `cache_test.go:14:
expired item still returned`) or only the runner's count of failed tests, nothing says
why it failed, it happened in one session only,
and editing code (not a configuration file) is what got it to pass. A failure the session
itself calls expected is left out too, whatever fixed it: a test written first and seen
failing ("the RED step fails because …", "fails as expected", "… doesn't know about it yet,
as expected for the first step"), or a test that had to follow an
intended change ("the test needs updating for the new message").

A failure seen in several sessions, one with a setup step or other arguments as its fix, or
one with a stated cause that is not "expected" stays a pitfall.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from squirrel_memory.extractors.evidence.test_reports import report_line
from squirrel_memory.extractors.pitfall_record import Pitfall
from squirrel_memory.extractors.pitfalls import normalise_line

#: The session saying the failure was intended or expected.
_EXPECTED = re.compile(
    r"\b(?:red (?:step|phase|check|test)|the red\b|(?:fails?|failed|failing) as (?:expected|"
    r"intended)|[,;(] ?as (?:expected|intended)\b|expected to fail|(?:is|was) expected"
    r"(?: to fail)?|should fail|(?:confirms?|proves?|shows?) (?:that )?the (?:new )?tests? "
    r"(?:fails?|is failing)|tests? (?:needs?|needed|"
    r"has to be|have to be|must be) (?:to be )?updat\w*|(?:update|adjust) the tests? to (?:match|"
    r"reflect))",
    re.IGNORECASE,
)


def expected_failure(pitfall: Pitfall) -> bool:
    """Whether the session called this failure expected (see the module)."""
    return any(_EXPECTED.search(cause) for cause in pitfall.causes)


#: An expectation that did not hold, as test runners of many ecosystems print it.
_ASSERTION = re.compile(
    r"\bassert\w*|\bexpect\w*|\bFAIL(?:ED|URE)?\b|\bFailure\b|MatchError|mismatch|"
    r"\bgot\b.+\bwant\b|\bto (?:eq|equal|be)\b",
    re.IGNORECASE,
)
#: A message a test printed at its own line (`cache_test.go:14: expired item returned`): the
#: test's expectation in its own words.
_AT_A_TEST = re.compile(
    r"^(?:[\w.-]*/)*[\w.-]*(?:_test|test_|tests?\b|_spec|spec\b)[\w.-]*\.\w+:\d+:\s", re.I
)


def _said_by_a_test(pitfall: Pitfall) -> bool:
    """Whether the failure's signature is a line a test printed at its own place."""
    return any(
        _AT_A_TEST.match(line.strip()) and normalise_line(line) == pitfall.fingerprint
        for line in pitfall.failed.run.output.splitlines()
    )


#: Files whose edit is a setting, not the work: such a fix is a lesson.
_CONFIG_FILE = re.compile(
    r"(?:\.(?:toml|ya?ml|json|ini|cfg|conf|env|properties|lock)|(?:^|/)\.[\w.-]+rc|"
    r"(?:^|/)(?:Makefile|Dockerfile|\.env[\w.-]*))$"
)


#: A name the code does not define, in compilers' words: a crash, never an expectation
#: (Elixir's "expected Ledger.Books to define such a function" is not an assertion).
_MISSING_NAME = re.compile(
    r"\bundefined\b|\bnot in scope\b|\bcannot find\b|\bunresolved\b|\bunbound\b|"
    r"\bnot declared\b|\bundeclared\b|\bnot defined\b|\bnot found\b",
    re.IGNORECASE,
)


def _test_edited_to_pass(pitfall: Pitfall) -> bool:
    use = pitfall.failed.use
    return (
        pitfall.fix == "edit"
        and not pitfall.causes
        and use is not None
        and use.purpose == "test"
        and (
            bool(_ASSERTION.search(pitfall.fingerprint))
            or _said_by_a_test(pitfall)
            # no error line, only the runner's count of failed tests
            or pitfall.fingerprint == normalise_line(report_line(pitfall.failed.run.output))
        )
        and not _MISSING_NAME.search(pitfall.fingerprint)
        and not any(_CONFIG_FILE.search(f) for f in pitfall.files)
    )


def work_in_progress(group: Sequence[Pitfall]) -> bool:
    """Whether a group of failures with one root cause is the work itself (see the module)."""
    if any(expected_failure(p) for p in group):
        return True
    sessions = {p.failed.run.session_id or "" for p in group}
    return len(sessions) == 1 and all(_test_edited_to_pass(p) for p in group)
