"""What each session already has from the hooks: by id or by text, restarted, bounded."""

from __future__ import annotations

from squirrel_gateway import session_served
from squirrel_gateway.hook_context import Injection, Served
from squirrel_gateway.session_served import SessionServed

FACT = Served("project_fact", "", "", "Language: Go (go.mod).")
RECIPE = Served("recipe", "recipe:test", "mem_7", "To run the tests: `go test ./...`.")


def answer(*items: Served) -> Injection:
    return Injection("text", 10, len(items), items)


def test_an_item_is_known_by_its_id_or_by_its_text_within_a_line_served() -> None:
    served = SessionServed()
    served.started("s", answer(FACT, RECIPE))
    assert served.has("s", Served("recipe", "recipe:test", "mem_7", "reworded"))
    assert served.has("s", Served("project_fact", "language", "mem_9", "Go  (go.mod)."))
    assert not served.has("s", Served("recipe", "recipe:lint", "mem_8", "To lint: `golint`."))
    assert not served.has("other", RECIPE)
    assert not served.has("", RECIPE)


def test_a_restart_keeps_only_what_it_served_and_prompts_add_to_it() -> None:
    served = SessionServed()
    served.started("s", answer(FACT))
    served.add("s", answer(RECIPE))
    assert served.has("s", RECIPE)
    served.started("s", answer())  # /clear: the context starts again
    assert not served.has("s", RECIPE) and not served.has("s", FACT)


def test_only_the_most_recent_sessions_are_kept() -> None:
    served = SessionServed()
    for n in range(session_served.MAX_SESSIONS + 1):
        served.add(f"s{n}", answer(RECIPE))
    assert not served.has("s0", RECIPE)
    assert served.has(f"s{session_served.MAX_SESSIONS}", RECIPE) and served.has("s1", RECIPE)


def test_the_test_framework_is_known_from_a_command_served_that_runs_it() -> None:
    served = SessionServed()
    # a Python project's and a TypeScript project's test commands
    served.started(
        "s",
        answer(
            Served("recipe", "recipe:test", "mem_1", "To run the tests: `uv run pytest -q`."),
            Served("recipe", "recipe:check", "mem_2", "Before finishing: `npx vitest run`."),
        ),
    )
    for framework in ("pytest", "Vitest"):
        fact = Served("project_fact", "testing", "mem_f", f"Tests are written with {framework}.")
        assert served.has("s", fact)
    # Traps: a framework no command served runs, a fact that is no test framework fact, and
    # a session that was served no command.
    assert not served.has(
        "s", Served("project_fact", "testing", "m", "Tests are written with Jest.")
    )
    assert not served.has("s", Served("project_fact", "x", "m", "Uses pytest fixtures heavily."))
    served.started("t", answer(FACT))
    assert not served.has("t", Served("project_fact", "testing", "m", "Tests are written with Go."))
