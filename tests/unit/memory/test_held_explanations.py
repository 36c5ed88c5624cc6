"""An explanation of a failure is kept only when it held: a guess ("this might be because …")
is never a diagnosis, one a later reply takes back ("The cache was not the problem.", "the
real cause is …") gives way to what took it back, and a lesson or a finding stated before the
same command failed again in the turn did not hold. Streams of several ecosystems, and where each rule must
still fire."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.extractors.diagnosed import diagnosed
from squirrel_memory.extractors.learned import learned
from squirrel_memory.extractors.lessons import Reply, diagnosis, takes_back
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent
from tests.unit.memory.session_builder import scripted_session
from tests.unit.memory.test_rules_extractor import PROJECT, Stream

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"


def _pitfalls(steps: Sequence[tuple[str, Any]]) -> list[MemoryCandidate]:
    events = scripted_session(ROOT, T0, "s", steps, 0)
    return [c for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def _said(text: str) -> str:
    return diagnosis([Reply("r", T0, "s", text)], "s", T0, None)[0]


# --- a guess is no diagnosis ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "This might be because the test cache is stale after the upgrade.",
        "It's probably failing because the port is taken by another run.",
        "The build likely fails due to an old lock file.",
        "It seems the job is failing on the format check.",
        "I suspect the fixture is missing from the checkout.",
        "The cause could be a stale generated file.",
    ],
)
def test_a_guess_is_no_diagnosis(text: str) -> None:
    assert _said(text) == ""


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (
            "The client could not connect because the server listens on another port.",
            "The client could not connect because the server listens on another port",
        ),
        (
            "The error comes from `Queue.jobs` never being initialised.",
            "The error comes from `Queue.jobs` never being initialised",
        ),
        (
            "The real cause is that `.env.test` points at port 6380.",
            "The real cause is that `.env.test` points at port 6380",
        ),
    ],
)
def test_a_plain_statement_is_still_a_diagnosis(text: str, cause: str) -> None:
    assert _said(text) == cause


def test_where_a_value_comes_from_is_no_diagnosis() -> None:
    assert _said("The port value comes from the settings file.") == ""


# --- what takes an explanation back ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The cache was not the problem.",
        "It is running. The actual problem is the database number.",
        "The real cause is that the test config points at another port.",
        "That wasn't it either.",
        "I was wrong about the lock file.",
    ],
)
def test_a_reply_takes_an_explanation_back(text: str) -> None:
    assert takes_back(text)


@pytest.mark.parametrize(
    "text",
    [
        "All 12 tests pass now.",
        "The cache is rebuilt on every run.",
        "Initialised `jobs`; the suite passes.",
        "The problem is that the fixture is shared.",
        "Actually, the cleanest fix is a rewrite rule.",  # a change of plan, not of cause
    ],
)
def test_a_plain_reply_takes_nothing_back(text: str) -> None:
    assert not takes_back(text)


def test_the_real_cause_said_again_takes_nothing_back() -> None:
    claim = "`index.html` files under `public/` are not served by the dev server"
    again = "Actually, wait - the real issue is that `public/` does not serve `index.html` files."
    other = "The real cause is that `.env.test` points at another port."
    assert not takes_back(again, claim)
    assert takes_back(other, claim)
    assert takes_back(again, "the server is not running")  # a claim naming nothing


# --- the pitfall's cause --------------------------------------------------------------------

_TYPE_ERROR = (
    "TypeError: Cannot read properties of undefined (reading 'push')\n at src/queue.ts:14:17"
)


def test_a_guess_then_the_real_cause_keeps_only_the_real_cause() -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", ("npm test", 1, _TYPE_ERROR)),
            ("say", "This might be because the test cache is stale after the upgrade."),
            ("run", ("npm test", 1, _TYPE_ERROR)),
            ("say", "The cache was not the problem. The error comes from `jobs` never being set."),
            ("edit", ("src/queue.ts", "jobs!: Job[];", "jobs: Job[] = [];")),
            ("run", ("npm test", 0, "Tests  12 passed (12)")),
        ]
    )
    assert "stale" not in pitfall.content
    assert "the error comes from `jobs` never being set" in pitfall.content


def test_a_cause_taken_back_gives_way_to_the_one_that_took_it_back() -> None:
    error = "Redis::CannotConnectError: Error connecting to Redis on localhost:6379"
    (pitfall,) = _pitfalls(
        [
            ("run", ("bundle exec rspec spec/jobs", 1, error)),
            ("say", "The failure is caused by the Redis server not running on this machine."),
            ("run", ("svc-cli ping", 0, "PONG")),
            ("say", "It is running. The real cause is that `.env.test` uses port 6380."),
            (
                "edit",
                (
                    ".env.test",
                    "REDIS_URL=redis://localhost:6380/0",
                    "REDIS_URL=redis://localhost:6379/0",
                ),
            ),
            ("run", ("bundle exec rspec spec/jobs", 0, "1 example, 0 failures")),
        ]
    )
    assert "not running" not in pitfall.content
    assert "the real cause is that `.env.test` uses port 6380" in pitfall.content
    assert "ping" not in pitfall.content  # a look at a service fixed nothing


def test_a_diagnosis_the_pass_follows_is_the_cause() -> None:
    error = "--- FAIL: TestAccept\n    listen_test.go:31: bind: address already in use\nFAIL"
    (pitfall,) = _pitfalls(
        [
            ("run", ("go test ./internal/listen/...", 1, error)),
            ("say", "The test failed because the fixture reuses the same port for every test."),
            ("edit", ("internal/listen/listen_test.go", '"127.0.0.1:7070"', '"127.0.0.1:0"')),
            ("run", ("go test ./internal/listen/...", 0, "ok  \texample.com/x/internal/listen")),
        ]
    )
    assert "the fixture reuses the same port for every test" in pitfall.content


# --- a lesson stated in a turn ----------------------------------------------------------------


def _turn(after: Sequence[tuple[str, int, str]]) -> Stream:
    stream = Stream()
    stream.user("make test fails, fix it")
    stream.run("make test", 1, "FAIL: test_total (tests/test_cart.py)\n")
    stream.say("The total is wrong because `total` ignores the discount rows.")
    edit = {"file_path": f"{PROJECT}/cart.py", "old_string": "rows", "new_string": "all_rows"}
    stream.add("tool_call", {"tool": "Edit", "tool_use_id": "t9", "input": edit}, ("cart.py",))
    stream.add("code_change", {"tool": "Edit", "tool_use_id": "t9", "path": f"{PROJECT}/cart.py"})
    for command, code, output in after:
        stream.run(command, code, output)
    return stream


def test_a_lesson_whose_command_failed_again_is_not_kept() -> None:
    stream = _turn([("make test", 1, "FAIL: test_total (tests/test_cart.py)\n")])
    assert diagnosed(stream.events) == []


def test_a_lesson_kept_when_another_command_fails_after_it() -> None:
    stream = _turn([("make test", 0, "ok"), ("make lint", 1, "cart.py:3: unused import\n")])
    (found,) = diagnosed(stream.events)
    assert "`total` ignores the discount rows" in found.content


# --- a finding stated after trouble ---------------------------------------------------------


def _events(*steps: tuple[str, dict[str, object]]) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{n}",
            project_id="/p",
            user_id="u",
            source_tool="claude_code",
            session_id="s",
            timestamp=T0 + timedelta(seconds=n),
            event_type=kind,
            content=dict(content),
            file_paths=(),
            hash=f"h{n}",
            origin="typed" if kind == "user_message" else "",
        )
        for n, (kind, content) in enumerate(steps, 1)
    ]


_CAUSE = "The runner does not load `.env` on its own."


@pytest.mark.parametrize(
    "later",
    [
        ("assistant_response", {"text": "That wasn't it: the file is loaded."}),
        ("command_run", {"command": "make test", "exit_code": 2, "output": "FAIL again"}),
    ],
)
def test_a_finding_that_did_not_hold_is_not_kept(later: tuple[str, dict[str, object]]) -> None:
    events = _events(
        ("user_message", {"text": "ship it"}),
        ("command_run", {"command": "make test", "exit_code": 2, "output": "FAIL"}),
        ("assistant_response", {"text": _CAUSE}),
        later,
    )
    assert learned(events) == []


def test_a_finding_holds_when_another_command_fails_after_it() -> None:
    events = _events(
        ("user_message", {"text": "ship it"}),
        ("command_run", {"command": "make test", "exit_code": 2, "output": "FAIL"}),
        ("assistant_response", {"text": _CAUSE}),
        ("command_run", {"command": "make lint", "exit_code": 1, "output": "E501"}),
    )
    (found,) = learned(events)
    assert "does not load `.env` on its own" in found.content


# --- the output's explanation and the assistant's diagnosis together --------------------------

_REFUSED = (
    "InvoiceRepositoryTest > savesInvoice() FAILED\n"
    "    Caused by: org.postgresql.util.PSQLException: Connection to localhost:5432 refused.\n"
    "3 tests completed, 1 failed"
)


def _refused_then(reply: str) -> list[MemoryCandidate]:
    return _pitfalls(
        [
            ("run", ("./gradlew test", 1, _REFUSED)),
            ("say", reply),
            ("edit", ("src/test/resources/application-test.yml", "localhost:5432", "tc:16")),
            ("run", ("./gradlew test", 0, "BUILD SUCCESSFUL in 21s")),
        ]
    )


def test_the_diagnosis_follows_the_outputs_own_explanation() -> None:
    (pitfall,) = _refused_then(
        "The test fails because `application-test.yml` hard-codes `localhost:5432`."
    )
    assert "the output explains `Caused by: org.postgresql.util.PSQLException" in pitfall.content
    assert "; the assistant found: the test fails because `application-test.yml`" in (
        pitfall.content
    )


@pytest.mark.parametrize(
    "reply",
    [
        "This might be because the database container starts late.",  # a guess
        "Let me look at the test configuration.",  # a plan
    ],
)
def test_without_a_diagnosis_the_output_explains_alone(reply: str) -> None:
    (pitfall,) = _refused_then(reply)
    assert "the output explains `Caused by:" in pitfall.content
    assert "the assistant found" not in pitfall.content


# --- a cause tied to the failure by what the fix changed ---------------------------------------

_SLUG_FAILED = (
    'Failure:\nBookTest#test_slug [test/models/book_test.rb:12]:\nExpected: "the-hobbit"\n'
    '  Actual: "The-Hobbit"\n1 runs, 1 assertions, 1 failures'
)


def _slug_session(reply: str, *, after_edit: bool = False) -> list[MemoryCandidate]:
    say = ("say", reply)
    edit = (
        "edit",
        ("app/models/book.rb", "def slug = title.tr(' ', '-')", "def slug = title.parameterize"),
    )
    middle = [edit, say] if after_edit else [say, edit]
    return _pitfalls(
        [
            ("run", ("bin/rails test test/models/book_test.rb", 1, _SLUG_FAILED)),
            *middle,
            ("run", ("bin/rails test test/models/book_test.rb", 0, "1 runs, 0 failures")),
        ]
    )


def test_a_state_naming_what_the_fix_changed_is_the_cause() -> None:
    reply = "`Book#slug` keeps the title's case; `parameterize` lowercases and strips punctuation."
    (pitfall,) = _slug_session(reply)
    assert "the assistant found: `Book#slug` keeps the title's case" in pitfall.content


@pytest.mark.parametrize(
    ("reply", "after_edit"),
    [
        # names nothing the fix changed
        ("`Book#title` keeps its case when it is saved from the admin form.", False),
        # a guess
        ("`parameterize` probably lowercases the title as well.", False),
        # said after the edit: what the change does, not why it failed
        ("`parameterize` lowercases and strips punctuation.", True),
    ],
)
def test_no_cause_from_a_sentence_not_tied_to_the_fix(reply: str, after_edit: bool) -> None:
    assert all(
        "the assistant found" not in p.content for p in _slug_session(reply, after_edit=after_edit)
    )
