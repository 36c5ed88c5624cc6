"""The checks the assistant's report says its work passed, when the session never ran them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.verified_commands import verified, verified_commands
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/app"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _tail(reply: str, *, ran: str = "", after: str = "") -> Session:
    """A session kept as its first prompt and its closing report (and maybe one run)."""
    session = Session(ROOT, "s1", T0)
    session.user("Add rate limiting to the API.")
    if ran:
        session.run(ran, 0, "ok")
    session.say(reply)
    if after:
        session.user(after)
    return session


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (
            "Verified with `mix test` (212 tests, 0 failures) and `mix credo --strict` (no "
            "issues).",
            "The assistant reported passing: to run the tests, `mix test`; to lint, "
            "`mix credo --strict`.",
        ),
        (
            "Added `GET /health` to `src/Api.hs`.\n\nVerified with `stack test` (all 48 "
            "examples pass) and `stack build --pedantic` (no warnings).",
            "The assistant reported passing: to run the tests, `stack test`; to build, "
            "`stack build --pedantic`.",
        ),
        (
            "Done. `cargo clippy -- -D warnings` is clean and `cargo test` passes.",
            "The assistant reported passing: to lint, `cargo clippy -- -D warnings`; to run "
            "the tests, `cargo test`.",
        ),
    ],
)
def test_a_closing_report_says_how_the_work_was_checked(reply: str, said: str) -> None:
    session = _tail(reply)

    found = verified_commands(session.events)

    assert found is not None
    assert found.content == said
    assert found.event_ids == (session.events[-1].id,)


@pytest.mark.parametrize(
    "reply",
    [
        "`mix test` fails with 2 failures in `RateLimitTest`.",  # a failure
        "Next I'll run `mix test` to check that it passes.",  # a plan
        "Should I verify it with `mix test`?",  # a question
        "You could verify with `mix test` once the database is up.",  # advice
        "Verified with `mix test` in /home/dev/other-app, all green.",  # another place
        "I haven't verified with `mix test` yet.",  # not done
        "The 23 integration tests under `tests/` pass.",  # a folder, not a command
        "The specs in `spec/models/` are green.",
    ],
)
def test_what_is_no_reported_check(reply: str) -> None:
    assert verified_commands(_tail(reply).events) is None


def test_a_command_the_session_ran_has_its_own_recipe() -> None:
    reply = "Verified with `mix test` (42 tests, 0 failures)."
    assert verified_commands(_tail(reply, ran="mix test").events) is None
    # another run of the same program for the same role (a file linted, another reported)
    linted = "Linted the file to confirm syntax is clean (`php -l src/B.php`)."
    assert (
        verified_commands(_tail(linted, ran="cd /home/dev/app && php -l src/A.php").events) is None
    )
    # the same command run with its output redirected
    assert verified_commands(_tail(reply, ran="mix test 2>&1").events) is None


def test_a_report_the_user_takes_back_is_not_kept() -> None:
    reply = "Verified with `mix test` (42 tests, 0 failures)."
    assert verified_commands(_tail(reply, after="no, the tests still fail for me").events) is None


def test_a_paragraph_naming_another_place_is_left_but_not_the_others() -> None:
    text = (
        "Copied the fixture from /home/dev/other-app and `mix test` passes there.\n\n"
        "Verified with `mix format --check-formatted` (clean)."
    )
    assert verified(text, ROOT) == [("format", "mix format --check-formatted")]


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (
            "`go build ./...` succeeds and `go test ./...` passes.",
            "The assistant reported passing: to build, `go build ./...`; to run the tests,"
            " `go test ./...`.",
        ),
        (
            "`cargo test --workspace` passes: 214 tests across the 4 crates, none failing.",
            "The assistant reported passing: to run the tests, `cargo test --workspace`.",
        ),
        (
            "The branch is green: `python -m pytest -q` ran 402 tests with no test failures,"
            " and `mypy src` found no type errors.",
            "The assistant reported passing: to run the tests, `python -m pytest -q`; to"
            " type-check, `mypy src`.",
        ),
        (
            "Lint: `bundle exec rubocop` reports 0 offenses.",
            "The assistant reported passing: to lint, `bundle exec rubocop`.",
        ),
    ],
)
def test_a_package_pattern_a_negated_failure_and_a_clean_checker_are_reported_passes(
    reply: str, said: str
) -> None:
    found = verified_commands(_tail(reply).events)

    assert found is not None
    assert found.content == said


@pytest.mark.parametrize(
    "reply",
    [
        "`npm test`: none failing in `src/`, but `e2e/checkout.spec.ts` fails on the payment step.",
        "`cargo test` compiles without errors, but 3 tests fail.",
        "Run `bundle exec rubocop` and make sure it reports no offenses before pushing.",
        "Run `go vet ./...` and `go test -race ./...` before a PR; both must pass.",
        "`eslint .` must report no problems before a release.",
        "- **CI Pipeline**: `npm run ci` → license check + lint + build + tests (max 0 warnings)",
        "`npm run lint` runs ESLint with 0 warnings allowed.",
    ],
)
def test_a_failure_left_after_a_negated_one_or_a_thing_to_do_is_no_reported_pass(
    reply: str,
) -> None:
    assert verified_commands(_tail(reply).events) is None
