"""A failure the assistant explained: kept as a finding when its cause names what the session saw
(a linter's check in a fetched log, a setting the session wrote), with the sentence after it that
says how the tool behaves or what the change does; never a guess, a plan, a question, a cause
nobody saw evidence of, or a fix that was only proposed. The same rule in every ecosystem."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.explained_failures import explained
from squirrel_memory.extractors.learned import learned
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
GO_LOG = (
    "internal/store/store_test.go:41:9: SA5011: possible nil pointer dereference (staticcheck)\n"
    "1 issues:\n* staticcheck: 1"
)
PY_LOG = (
    'src/shop/orders.py:12: error: Item "None" of "Optional[Order]" has no attribute '
    '"total"  [union-attr]\nFound 1 error in 1 file (checked 8 source files)'
)


def _go_session(diagnosis: str, following: str = "") -> Session:
    session = Session("/home/dev/shop", "s1", T0)
    session.user("why is lint failing on CI?")
    session.run("gh run view 42 --log-failed", 0, GO_LOG)
    session.say(f"{diagnosis} {following}".strip())
    return session


@pytest.mark.parametrize(
    ("diagnosis", "following", "said"),
    [
        (  # Go: the linter's check, and how the linter behaves
            "The lint failure is due to `staticcheck` SA5011 errors in `store_test.go`.",
            "The linter doesn't understand that `t.Fatal()` stops the test, so it thinks the "
            "pointer can still be nil.",
            "Found in a session: The lint failure is due to `staticcheck` SA5011 errors in "
            "`store_test.go`; the linter doesn't understand that `t.Fatal()` stops the test.",
        ),
        (  # the cause alone when the next sentence is a plan
            "The lint failure is caused by `staticcheck` SA5011 in `store_test.go`.",
            "Let me fix the test.",
            "Found in a session: The lint failure is caused by `staticcheck` SA5011 in "
            "`store_test.go`.",
        ),
    ],
)
def test_an_explained_failure_is_a_finding(diagnosis: str, following: str, said: str) -> None:
    found = learned(_go_session(diagnosis, following).events)
    assert [f.content for f in found] == [said]
    assert found[0].key.startswith("pitfall:learned:")


def test_an_explained_failure_in_another_ecosystem_is_a_finding() -> None:
    session = Session("/home/dev/shop", "s1", T0)
    session.run("mypy src", 1, PY_LOG)
    session.say(
        "The type-check error is due to `union-attr` in `orders.py`: `find_order` returns "
        "`Optional[Order]`. Mypy only narrows an optional after an explicit `is None` check."
    )
    assert [f.content for f in learned(session.events)] == [
        "Found in a session: The type-check error is due to `union-attr` in `orders.py`: "
        "`find_order` returns `Optional[Order]`; mypy only narrows an optional after an explicit "
        "`is None` check."
    ]


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (  # a database's replicas: the cause, and what the change the session made does
            "SELECT name FROM journal ORDER BY name SETTINGS select_sequential_consistency = 1",
            "Found in a session: On the cloud service (`SharedMergeTree`), a new connection's "
            "`SELECT` may not see rows another replica wrote; adding `SETTINGS "
            "select_sequential_consistency = 1` to the journal read forces the `SELECT` to wait "
            "for earlier writes.",
        ),
        ("SELECT name FROM journal ORDER BY name", ""),  # the change is only proposed: a guess
    ],
)
def test_a_root_cause_that_may_happen_counts_only_with_the_change_made(
    edit: str, said: str
) -> None:
    session = Session("/home/dev/migrator", "s1", T0)
    session.user("Fix the failing CI actions.")
    session.edit_lines("src/journal.ts", "SELECT name FROM journal ORDER BY name", edit)
    session.say(
        "Pushed the fix. The root cause of all 3 failures is the same: on the cloud service "
        "(`SharedMergeTree`), a new connection's `SELECT` may not see rows another replica "
        "wrote. Adding `SETTINGS select_sequential_consistency = 1` to the journal read forces "
        "the `SELECT` to wait for earlier writes."
    )
    assert [f.content for f in learned(session.events)] == ([said] if said else [])


@pytest.mark.parametrize(
    ("tool", "sentence"),
    [
        ("wrangler 4.65.0", "Updating wrangler from 4.23.0 to 4.65.0 fixed the internal error."),
        ("cargo 1.79.0", "Pinning `tokio` to 1.38 resolved the linker error on the CI runner."),
    ],
)
def test_a_fix_said_with_hindsight_is_a_finding(tool: str, sentence: str) -> None:
    evidence = f"$ deploy\n{tool}\ntokio v1.38.0\n".lower()
    assert explained(sentence, "", evidence, after_trouble=False) == sentence


@pytest.mark.parametrize(
    ("sentence", "following", "after_trouble"),
    [
        # a guess
        ("The lint failure is probably due to `staticcheck` SA5011 in `store_test.go`.", "", True),
        # a plan, a question
        ("Let me look at the lint failure, which is due to `staticcheck` SA5011.", "", True),
        ("Is the lint failure due to `staticcheck` SA5011 in `store_test.go`?", "", True),
        # nothing of it in what the session saw: a hypothesis
        ("The build failure is due to a missing `SHOP_API_TOKEN` in the CI settings.", "", True),
        # no trouble before it
        ("The lint failure is due to `staticcheck` SA5011 errors in `store_test.go`.", "", False),
        # the session's own steps, the subject only a pronoun
        (
            "The lint failure is due to the `staticcheck` SA5011 I added to `store_test.go`.",
            "",
            True,
        ),
        ("This happens because `staticcheck` SA5011 runs on `store_test.go` too.", "", True),
        # a fix only proposed or hoped for
        ("Updating wrangler should fix the internal error.", "", False),
        ("If updating wrangler to 4.65.0 fixed the internal error, we are done.", "", False),
        # a root cause that may be, with no change made for it
        ("The root cause is: the cache may be stale for `SELECT` on new connections.", "", True),
    ],
)
def test_guesses_plans_and_unseen_causes_are_no_finding(
    sentence: str, following: str, after_trouble: bool
) -> None:
    evidence = (GO_LOG + "\nselect settings wrangler 4.65.0").lower()
    assert explained(sentence, following, evidence, after_trouble=after_trouble) == ""


def test_the_next_sentence_joins_only_when_it_says_how_something_behaves() -> None:
    evidence = GO_LOG.lower()
    cause = "The lint failure is due to `staticcheck` SA5011 errors in `store_test.go`."
    for following in (
        "It doesn't understand `t.Fatal()`.",  # a pronoun names nothing
        "The linter might not understand `t.Fatal()`.",  # a guess
        "You should add a `return` after `t.Fatal()`.",  # an instruction
    ):
        said = explained(cause, following, evidence, after_trouble=True)
        assert said == cause
