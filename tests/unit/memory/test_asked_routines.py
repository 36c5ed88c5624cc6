"""A routine the user asks for by name ("lint the package") is a recipe of the commands that
carried it out, in order, even when their own words do not say the role.

Shapes from several ecosystems, with made-up programs. What must not become a routine: a
request for one file run on files, a turn whose commands all failed, commands in another
folder or repository or run by a subagent, a request the user then corrected (the correction's
commands are the routine), a question, a plan, a request naming several roles whose commands
do not split by their own roles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.asked_routines import _asked, asked_routines
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/src/app"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

#: (command, exit code[, the folder the shell was in])
Run = tuple[str, int] | tuple[str, int, str]


def _session(request: str, runs: Sequence[Run], *then: tuple[str, Sequence[Run]]) -> Session:
    session = Session(ROOT, "s1", T0)
    for text, commands in ((request, runs), *then):
        session.user(text)
        for run in commands:
            session.run(run[0], run[1], "", cwd=run[2] if len(run) == 3 else ROOT)
        session.say("Done.")
    return session


def _routines(
    request: str, runs: Sequence[Run], *then: tuple[str, Sequence[Run]]
) -> dict[str, str]:
    return {c.key: c.content for c in asked_routines(_session(request, runs, *then).events)}


@pytest.mark.parametrize(
    ("request_text", "runs", "key", "content"),
    [
        # Python: a one-liner calling the package's own function, then a made-up formatter.
        (
            "lint the package please",
            [
                ("ls", 0),
                ("pip install prettyq", 0),
                ("python -c 'import quuxtool; quuxtool.tidy()'", 0),
                ("prettyq src/quuxtool/core.py", 0),
                ("prettyq --all", 0),
                ("git status", 0),
                ("git commit -am 'Tidy'", 0),
            ],
            "recipe:asked:lint",
            "To lint (as asked): `python -c 'import quuxtool; quuxtool.tidy()'`, then "
            "`prettyq --all`.",
        ),
        # JavaScript: a chain of made-up tools, the first one failing then passing.
        (
            "Can you run the checks?",
            [("zork verify", 1), ("zork verify", 0), ("node scripts/audit.mjs", 0)],
            "recipe:asked:check",
            "To run the checks (as asked): `zork verify`, then `node scripts/audit.mjs`.",
        ),
        # Go, in a sub-folder: the routine is scoped to where it ran.
        (
            "ok, regenerate the docs",
            [("gendocz -out site", 0, f"{ROOT}/api"), ("blorp sync", 0, f"{ROOT}/api")],
            "recipe:asked:docs:api",
            "In `api/`, to build the documentation (as asked): `gendocz -out site`, then "
            "`blorp sync`.",
        ),
        # Rust: a release by tag and push.
        (
            "release it",
            [("crankit bump minor", 0), ("git tag v0.4.0", 0), ("git push --tags", 0)],
            "recipe:asked:release",
            "To release (as asked): `crankit bump minor`, then `git tag v0.4.0`, then "
            "`git push --tags`.",
        ),
        # Elixir-like: an unusual formatter name asked for by its role.
        (
            "format everything",
            [("mixy beautify", 0)],
            "recipe:asked:format",
            "To format (as asked): `mixy beautify`.",
        ),
        # R-like: one-liners naming no file, asked in a request that names one.
        (
            "make sure the tests pass (the rules are in NOTES.md)",
            [("Rscript -e 'quuxr::check(x.rds)'", 0), ("Rscript -e 'quuxr::cover()'", 0)],
            "recipe:asked:test",
            "To run the tests (as asked): `Rscript -e 'quuxr::check(x.rds)'`, then "
            "`Rscript -e 'quuxr::cover()'`.",
        ),
        (
            "publish it to the registry; see how to write the notes in NOTES.md",
            [("crankit publish", 0)],
            "recipe:asked:release",
            "To release (as asked): `crankit publish`.",
        ),
        # Any ecosystem: a deploy script with a made-up name.
        (
            "deploy to staging",
            [
                ("npm install", 0),
                ("mkdir -p dist", 0),
                ("./ops/pushit --list", 0),
                ("./ops/pushit staging", 0),
                ("curlish health staging", 0),
            ],
            "recipe:asked:deploy",
            "To deploy (as asked): `./ops/pushit staging`, then `curlish health staging`.",
        ),
    ],
)
def test_commands_run_for_a_named_routine_become_its_recipe(
    request_text: str, runs: Sequence[Run], key: str, content: str
) -> None:
    assert _routines(request_text, runs) == {key: content}


def test_a_request_for_one_file_carried_out_by_general_commands_is_the_routine() -> None:
    found = _routines("lint foo.py", [("flakeq foo.py", 1), ("tidyq --all", 0)])
    assert found == {"recipe:asked:lint": "To lint (as asked): `tidyq --all`."}


def test_a_go_ahead_or_an_answer_does_not_end_the_turn() -> None:
    session = _session("lint the package, no file changes without asking me", [("flakeq .", 0)])
    session.user("yes, go ahead")
    session.run("tidyq --write", 0, "", cwd=ROOT)
    session.add("user_message", {"text": "The second option"}, origin="answer")
    session.run("flakeq --strict", 0, "", cwd=ROOT)
    assert {c.key: c.content for c in asked_routines(session.events)} == {
        "recipe:asked:lint": "To lint (as asked): `flakeq .`, then `tidyq --write`, then "
        "`flakeq --strict`."
    }


def test_a_correction_makes_the_commands_after_it_the_routine() -> None:
    found = _routines(
        "lint the package",
        [("flakeq .", 0)],
        ("no, use tidyq instead", [("tidyq --strict", 0)]),
    )
    assert found == {"recipe:asked:lint": "To lint (as asked): `tidyq --strict`."}


def test_several_roles_split_by_the_commands_own_roles() -> None:
    found = _routines("lint and test it", [("ruff check .", 0), ("pytest -q", 0)])
    assert found == {
        "recipe:asked:lint": "To lint (as asked): `ruff check .`.",
        "recipe:asked:test": "To run the tests (as asked): `pytest -q`.",
    }


@pytest.mark.parametrize(
    ("request_text", "runs"),
    [
        # One file asked for, files linted.
        ("lint foo.py", [("flakeq foo.py", 0)]),
        ("lint foo.py", [("flakeq foo.py", 0), ("tidyq --all", 0)]),
        # Every command failed.
        ("lint the package", [("flakeq .", 1), ("tidyq .", 2)]),
        # Another repository, by the shell's folder or a path.
        ("lint the package", [("flakeq .", 0, "/home/dev/src/other")]),
        ("lint the package", [("flakeq /home/dev/src/other", 0)]),
        ("lint the package", [("flakeq .", 0, "/home/dev/src/app-old")]),
        ("lint the package", [("flakeq /home/dev/src/app-old/lib", 0)]),
        # A question answered without running; a plan.
        ("how do I lint?", [("ls", 0)]),
        ("how do I lint this project", [("flakeq .", 0)]),
        ("how do I deploy? deploy to staging and show me", [("./ops/pushit staging", 0)]),
        ("make a plan, then deploy to staging", [("./ops/pushit staging", 0)]),
        # A request to make something that does the role; leave to the user how to check it.
        ("add a workflow to run the tests", [("zork ci", 0)]),
        ("write a new script that checks it, then run the checks", [("./check.sh", 0)]),
        ("You can test it with zork once the job is in", [("zork ci", 0)]),
        # Two roles whose commands do not split by their own words.
        ("lint and test it", [("zork all", 0)]),
        # Only looking around.
        ("lint the package", [("cat setup.cfg", 0), ("git status", 0)]),
    ],
)
def test_no_routine_without_a_clear_request_and_passing_commands_in_the_project(
    request_text: str, runs: Sequence[Run]
) -> None:
    assert _routines(request_text, runs) == {}


def test_a_request_corrected_leaves_its_own_commands_out() -> None:
    found = _routines(
        "lint the package", [("flakeq .", 0)], ("no, that is wrong, stop", [("ls", 0)])
    )
    assert found == {}


def test_a_subagents_commands_are_not_the_routine() -> None:
    session = _session("lint the package", [("flakeq .", 0)])
    events = [
        e if e.event_type == "user_message" else replace(e, sidechain=True) for e in session.events
    ]
    assert asked_routines(events) == []


def test_a_one_command_routine_a_recipe_already_shows_is_not_repeated() -> None:
    session = _session("run the tests", [("quux test", 0)])
    found = {c.key: c.content for c in session.extracted()}
    assert found.get("recipe:test") == "To run the tests: `quux test`."
    assert "recipe:asked:test" not in found


def test_a_huge_message_of_blank_lines_is_read_in_one_pass() -> None:
    assert _asked("\n" * 1_000_000) is None
    assert _asked(" \n" * 500_000 + "please run the tests") == (("test",), False)


@pytest.mark.parametrize(
    ("runs", "content"),
    [
        # Elixir: the gate failed on formatting, the formatter fixed it, the gate passed.
        (
            [("mix precommit", 1), ("mix format", 0), ("mix precommit", 0)],
            "To run the checks (as asked): `mix precommit`.",
        ),
        # JavaScript: the same shape with other tools.
        (
            [("npm run check", 1), ("npx prettier --write .", 0), ("npm run check", 0)],
            "To run the checks (as asked): `npm run check`.",
        ),
    ],
)
def test_a_fix_between_a_failing_check_and_its_passing_rerun_is_no_step(
    runs: Sequence[Run], content: str
) -> None:
    assert _routines("run the checks", runs) == {"recipe:asked:check": content}


@pytest.mark.parametrize(
    ("runs", "content"),
    [
        # the formatter ran after the gate passed: a step of its own
        (
            [("make check", 0), ("zork fmt --all", 0)],
            "To run the checks (as asked): `make check`, then `zork fmt --all`.",
        ),
        # between two passing runs nothing was fixed: both are steps
        (
            [("zork verify", 0), ("node scripts/audit.mjs", 0), ("zork verify", 0)],
            "To run the checks (as asked): `zork verify`, then `node scripts/audit.mjs`.",
        ),
    ],
)
def test_a_step_that_fixed_nothing_stays_in_the_routine(runs: Sequence[Run], content: str) -> None:
    assert _routines("run the checks", runs) == {"recipe:asked:check": content}


def test_a_test_run_that_ran_no_test_is_no_step_of_the_routine() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Run the tests before I push, please.")
    session.run(
        "bin/rails test", 0, "0 runs, 0 assertions, 0 failures, 0 errors, 0 skips", cwd=ROOT
    )
    session.run("ls test spec", 0, "spec:\nmodels\n\ntest:\ntest_helper.rb", cwd=ROOT)
    session.run("bundle exec rspec", 0, "43 examples, 0 failures", cwd=ROOT)
    session.say("43 examples, 0 failures.")

    found = {c.key: c.content for c in asked_routines(session.events)}

    assert not any("bin/rails test" in text for text in found.values())


_NO_TEST_FILES = "?   \texample.com/app/cmd\t[no test files]\n"
_SEEDED = "`node scripts/seed_check.mjs`"


@pytest.mark.parametrize(
    ("runs", "first"),
    [
        # Go: every test file behind a build tag; the plain run lists packages without tests
        (
            [
                ("go test ./...", _NO_TEST_FILES * 2),
                ("go test -tags integration ./...", "ok  \texample.com/app/export\t0.031s\n"),
            ],
            "`go test -tags integration ./...`",
        ),
        # R: a package install given inline (exit 0, though the install failed) before the tests
        (
            [
                (
                    'Rscript -e \'install.packages("quuxtools", repos = "https://cran.r-project.org")\'',
                    "installation of package ‘quuxtools’ had non-zero exit status\n",
                ),
                ("Rscript -e 'testthat::test_local()'", "[ FAIL 0 | WARN 0 | SKIP 0 | PASS 31 ]"),
            ],
            "`Rscript -e 'testthat::test_local()'`",
        ),
        # Go: one package without tests beside one that ran: the run is a step
        (
            [("go test ./...", _NO_TEST_FILES + "ok  \texample.com/app/export\t0.031s\n")],
            "`go test ./...`",
        ),
    ],
)
def test_a_run_of_no_test_file_or_an_inline_install_is_no_step(
    runs: list[tuple[str, str]], first: str
) -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Fix the exporter and run the tests.")
    for command, output in runs:
        session.run(command, 0, output, cwd=ROOT)
    session.run("node scripts/seed_check.mjs", 0, "seeded")
    session.say("Passes.")

    found = {c.key: c.content for c in asked_routines(session.events)}

    assert found == {"recipe:asked:test": f"To run the tests (as asked): {first}, then {_SEEDED}."}


def test_a_check_before_a_later_edit_and_a_failure_a_pipe_hid_are_no_steps() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("release 1.2.0 please")
    session.run("hlint src", 0, "No hints", cwd=ROOT)
    session.edit_lines(
        "src/Throttle.hs", "wait d = threadDelay d", "wait d = threadDelay (max 0 d)"
    )
    session.run("cabal build", 0, "Up to date", cwd=ROOT)
    session.run("shipq dist", 0, "packed", cwd=ROOT)
    session.run(
        "cabal test 2>&1 | tail -4",
        0,
        "Test suite spec: FAIL\n1 of 1 test suites (1 of 1 test cases) failed.\n",
        cwd=ROOT,
    )
    session.say("Done.")

    found = {c.key: c.content for c in asked_routines(session.events)}
    assert found == {
        "recipe:asked:release": "To release (as asked): `cabal build`, then `shipq dist`."
    }


def test_a_narrower_run_the_turn_later_ran_whole_is_no_step() -> None:
    found = _routines(
        "Fix the rounding, run the tests",
        [
            ("quuxtest run --filter Totals", 0),
            ("quuxtest run", 0),
            ("node scripts/seed_check.mjs", 0),
        ],
    )

    assert found == {
        "recipe:asked:test": f"To run the tests (as asked): `quuxtest run`, then {_SEEDED}."
    }


def test_a_narrower_run_after_the_whole_run_stays_a_step() -> None:
    found = _routines(
        "run the tests",
        [("quuxtest run", 0), ("quuxtest run --filter Totals", 0)],
    )

    assert found == {
        "recipe:asked:test": (
            "To run the tests (as asked): `quuxtest run`, then `quuxtest run --filter Totals`."
        )
    }


def test_a_narrower_run_that_passed_where_the_whole_run_failed_is_no_step() -> None:
    # The whole suite failed (a service was down); a run of part of it passed: it ran less
    # than was asked and fixed nothing.
    found = _routines(
        "Run the tests.",
        [("quuxtest run", 1), ("quuxtest run --only unit", 0)],
    )

    assert found == {}


def test_a_narrower_run_stays_when_the_whole_run_failed_then_passed() -> None:
    found = _routines(
        "Run the tests.",
        [("quuxtest run", 1), ("quuxtest run --only unit", 0), ("quuxtest run", 0)],
    )

    assert found == {"recipe:asked:test": "To run the tests (as asked): `quuxtest run`."}


def test_another_command_that_passed_after_a_failure_stays_a_step() -> None:
    found = _routines(
        "Run the tests.",
        [("quuxtest run --only unit", 1), ("quuxtest run", 0)],
    )

    assert found == {"recipe:asked:test": "To run the tests (as asked): `quuxtest run`."}


def test_a_command_whose_output_went_into_a_project_file_is_no_step() -> None:
    found = _routines(
        "Update the tables and make sure the tests pass.",
        [("python3 tools/gen_tables.py --unicode 15 > src/tables.zz", 0), ("quuxtest run", 0)],
    )

    assert found == {"recipe:asked:test": "To run the tests (as asked): `quuxtest run`."}


def test_a_command_whose_errors_alone_went_to_a_file_stays_a_step() -> None:
    found = _routines(
        "run the tests",
        [("node scripts/seed_check.mjs 2> seed.err", 0), ("quuxtest run > /dev/null", 0)],
    )

    assert found == {
        "recipe:asked:test": f"To run the tests (as asked): {_SEEDED}, then `quuxtest run`."
    }


def test_a_task_that_picked_some_tests_after_the_whole_run_failed_is_no_step() -> None:
    found = _routines(
        "run the tests please",
        [("sbt test", 1), ('sbt "testOnly *ParserSpec"', 0)],
    )

    assert found == {}
