"""A command whose words say its role is a recipe after one whole run, in one session.

Shapes from several ecosystems, and from programs the command table does not know: the role
is read from the command's own words (a subcommand, a task name, a one-liner's call), never
from a list of tools. What must not become a recipe: a command that failed and was replaced,
one run in another folder or repository, a run of one test file alone, a command the user
declined.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.evidence.command_picks import package_template
from squirrel_memory.extractors.rules import evidence_candidates
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/src/app"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DECLINED = "The user doesn't want to proceed with this tool use."

#: (command, exit code or None, output[, the folder the shell was in])
Run = tuple[str, int | None, str] | tuple[str, int | None, str, str]


def _recipes(runs: Sequence[Run]) -> dict[str, str]:
    """The recipes of one session that ran `runs`."""
    session = Session(ROOT, "s1", T0)
    for run in runs:
        session.run(run[0], run[1], run[2], cwd=run[3] if len(run) == 4 else ROOT)
    return {
        c.key: c.content for c in evidence_candidates(session.events) if c.key.startswith("recipe:")
    }


@pytest.mark.parametrize(
    ("command", "key", "content"),
    [
        # Task runners and manifests' scripts, by the task's name.
        ("mise run test", "recipe:test", "To run the tests: `mise run test`."),
        ("just lint", "recipe:lint", "To lint: `just lint`."),
        ("npm run typecheck", "recipe:typecheck", "To type-check: `npm run typecheck`."),
        ("make docs", "recipe:docs", "To build the documentation: `make docs`."),
        ("mise run release", "recipe:release", "To release: `mise run release`."),
        ("./scripts/deploy.sh", "recipe:deploy", "To deploy: `./scripts/deploy.sh`."),
        # Known tools run once, with a check flag.
        (
            "cargo fmt --all --check",
            "recipe:format",
            "To check the formatting: `cargo fmt --all --check`.",
        ),
        ("go test ./...", "recipe:test", "To run the tests: `go test ./...`."),
        # Programs no table names, by their own words.
        ("quux test", "recipe:test", "To run the tests: `quux test`."),
        ("quux fmt --check", "recipe:format", "To check the formatting: `quux fmt --check`."),
        (
            "terraform fmt -check -recursive",  # a check flag with one dash
            "recipe:format",
            "To check the formatting: `terraform fmt -check -recursive`.",
        ),
        ("quux run lint", "recipe:lint", "To lint: `quux run lint`."),
        (
            "R -q -e 'quuxpkg::test_dir(\"tests\")'",
            "recipe:test",
            "To run the tests: `R -q -e 'quuxpkg::test_dir(\"tests\")'`.",
        ),
        (
            "Rscript -e 'quuxpkg::document()'",
            "recipe:docs",
            "To build the documentation: `Rscript -e 'quuxpkg::document()'`.",
        ),
    ],
)
def test_one_whole_run_whose_words_say_its_role_is_a_recipe(
    command: str, key: str, content: str
) -> None:
    found = _recipes([(command, 0, "ok")])

    assert found.get(key) == content, found


@pytest.mark.parametrize(
    "command",
    ["mix precommit", "make check", "just ci", "npm run check", "./gradlew check", "mvn verify"],
)
def test_a_gate_run_for_the_tests_is_said_as_the_checks(command: str) -> None:
    found = _recipes([(command, 0, "ok")])

    # a gate runs more than the tests (format, lint, type checks …): said as what it is
    assert found.get("recipe:test") == f"To run the checks: `{command}`.", found


@pytest.mark.parametrize(
    "command", ["make test", "npm test", "mix test", "just test", "cargo test --workspace"]
)
def test_a_test_command_is_still_said_as_the_tests(command: str) -> None:
    found = _recipes([(command, 0, "ok")])

    assert found.get("recipe:test") == f"To run the tests: `{command}`.", found


def test_a_command_run_many_times_in_one_session_is_one_recipe() -> None:
    found = _recipes([("quux test", 0, "ok")] * 3)

    assert [k for k in found if k.startswith("recipe:test")] == ["recipe:test"]


def test_a_command_that_failed_and_was_replaced_is_not_the_recipe() -> None:
    found = _recipes(
        [
            ("quux test", 0, "ok"),
            ("quux test", 2, "error: no such target"),
            ("mise run test", 0, "ok"),
        ]
    )

    assert found["recipe:test"] == "To run the tests: `mise run test`."
    assert "quux test" not in " ".join(found.values())


def test_a_command_that_only_failed_is_never_a_recipe() -> None:
    assert "recipe:lint" not in _recipes([("just lint", 1, "error: recipe `lint` failed")])


def test_a_run_in_another_repository_is_not_this_projects_recipe() -> None:
    found = _recipes([("cd /home/dev/src/other-tool && mise run test", 0, "ok")])

    assert not any(k.startswith("recipe:test") for k in found)


def test_a_run_in_a_sub_folder_is_scoped_to_it() -> None:
    found = _recipes([("npm run lint", 0, "ok", f"{ROOT}/web")])

    assert found["recipe:lint:web"] == "In `web/`, to lint: `npm run lint`."
    assert "recipe:lint" not in found


@pytest.mark.parametrize(
    "command",
    ["quux test test/parse_test.qx", "pytest tests/test_parse.py::test_empty", "go test -run X"],
)
def test_one_run_of_a_single_test_is_not_the_test_recipe(command: str) -> None:
    assert not any(k.startswith("recipe:test") for k in _recipes([(command, 0, "ok")]))


@pytest.mark.parametrize(
    ("command", "key"),
    [
        ("npx tsc --noEmit -p tsconfig.json 2>&1 | head -10", "recipe:typecheck"),
        ("mypy --config-file mypy.ini", "recipe:typecheck"),
        ("vendor/bin/phpunit -c phpunit.xml", "recipe:test"),
        ("cargo test --manifest-path=Cargo.toml", "recipe:test"),
        ("quux test --config quux.toml", "recipe:test"),
    ],
)
def test_a_root_configuration_file_given_to_an_option_is_a_whole_run(
    command: str, key: str
) -> None:
    found = _recipes([(command, 0, "")])

    assert key in found, found
    assert f"`{command.split(' 2>', maxsplit=1)[0]}`" in found[key]


@pytest.mark.parametrize(
    "command",
    [
        # A file to check, or a sub-folder's configuration: some of the project, not all of it.
        "npx tsc --noEmit src/app.ts",
        "vendor/bin/phpunit -c phpunit.xml tests/Unit/ParserTest.php",
        "mypy --config-file tools/mypy.ini",
        "quux test --config=web/quux.toml",
    ],
)
def test_a_picked_file_beside_a_configuration_file_is_no_whole_run(command: str) -> None:
    found = _recipes([(command, 0, "")])

    assert not any(k in found for k in ("recipe:test", "recipe:typecheck")), found


def test_a_single_test_run_is_shown_once_the_whole_run_is_known() -> None:
    found = _recipes([("quux test test/parse_test.qx", 0, "ok"), ("quux test", 0, "ok")])

    assert found["recipe:test"].startswith("To run the tests: `quux test`")


def test_a_command_the_user_declined_is_not_a_recipe() -> None:
    assert "recipe:deploy" not in _recipes([("./scripts/deploy.sh", None, DECLINED)])


def test_a_command_whose_last_run_failed_is_not_a_recipe_from_one_success() -> None:
    found = _recipes([("just lint", 0, "ok"), ("just lint", 1, "error: 3 problems")])

    assert "recipe:lint" not in found


def test_a_look_at_the_help_is_not_the_run_shown() -> None:
    found = _recipes([("cargo run -- --help", 0, "Usage: app"), ("cargo run -- in.wav", 0, "ok")])

    assert found["recipe:run"] == "To run the app: `cargo run -- in.wav`."
    assert _recipes([("quux test --help", 0, "usage: quux test")]) == {}


@pytest.mark.parametrize(
    ("command", "key"),
    [
        ("npx tsc --noEmit -p tsconfig.json", "recipe:typecheck"),
        ("vendor/bin/phpunit -c phpunit.xml", "recipe:test"),
        ("ruff check --config=ruff.toml", "recipe:lint"),
    ],
)
def test_a_configuration_file_given_to_an_option_picks_nothing(command: str, key: str) -> None:
    assert _recipes([(command, 0, "")])[key].endswith(f"`{command}`.")


@pytest.mark.parametrize(
    "command",
    [
        "vendor/bin/phpunit -c phpunit.xml tests/Unit/ParserTest.php",
        "pytest -c pytest.ini tests/test_parse.py",
        "quux test fixtures/cases.json",
    ],
)
def test_a_configuration_file_does_not_hide_a_picked_test(command: str) -> None:
    assert not any(k.startswith("recipe:test") for k in _recipes([(command, 0, "ok")]))


def test_a_check_run_file_by_file_is_a_recipe_with_the_file_left_open() -> None:
    found = _recipes(
        [
            ("php -l src/Commands/ValidateInclude.php", 0, "No syntax errors detected"),
            ("php -l src/Commands/TestInclude.php", 0, "No syntax errors detected"),
        ]
    )
    assert found["recipe:lint"].startswith("To lint: `php -l <file>` (e.g. `php -l src/")


def test_a_check_run_on_one_file_once_is_no_recipe() -> None:
    found = _recipes([("php -l src/Commands/ValidateInclude.php", 0, "No syntax errors")])
    assert "recipe:lint" not in found


def test_a_test_command_run_file_by_file_keeps_its_whole_command() -> None:
    found = _recipes(
        [
            ("pytest tests/test_a.py", 0, "1 passed"),
            ("pytest tests/test_b.py", 0, "1 passed"),
        ]
    )
    assert "<file>" not in found["recipe:test"]


@pytest.mark.parametrize(
    ("runs", "head"),
    [
        (["cargo test -p parser-core", "cargo test -p wire-format"], "cargo test -p <package>"),
        (
            ["npm test -w packages/web", "npm test -w packages/api"],
            "npm test -w <package>",
        ),
        (
            ["dotnet-like test --package=ledger", "dotnet-like test --package=billing"],
            "dotnet-like test --package=<package>",
        ),
    ],
)
def test_a_command_run_package_by_package_leaves_the_package_open(
    runs: list[str], head: str
) -> None:
    found = _recipes([(command, 0, "ok") for command in runs])
    assert found["recipe:test"] == (f"To run the tests: `{head}` (e.g. `{runs[0]}`, `{runs[1]}`).")


@pytest.mark.parametrize(
    "runs",
    [
        # One package only: its command, not a template.
        ["cargo test -p parser-core", "cargo test -p parser-core"],
        # A count of parallel runs, not a package.
        ["go test -p 4 ./...", "go test -p 8 ./..."],
        # A plugin switch, not a package.
        ["pytest -p no:randomly", "pytest -p no:cacheprovider"],
        # A configuration file given to `-p`.
        ["npx tsc --noEmit -p tsconfig.json", "npx tsc --noEmit -p tsconfig.build.json"],
        # Different in a word that is no package option's value.
        ["cargo test -p parser-core --release", "cargo test -p parser-core --locked"],
    ],
)
def test_no_package_is_left_open_where_no_package_was_picked_in_turn(runs: list[str]) -> None:
    found = _recipes([(command, 0, "ok") for command in runs])
    assert not any("<package>" in content for content in found.values())


def test_a_package_template_needs_runs_that_differ_only_in_the_package() -> None:
    assert package_template(["cargo test -p a", "cargo test -p b --release"]) is None
    assert package_template(["cargo test -p a", "cargo test -p b"]) == "cargo test -p <package>"


def test_a_run_commands_picked_value_is_kept_as_run() -> None:
    # `-p` of a command that runs the app is as often a profile or a port as a package.
    found = _recipes([("cargo run -p server", 0, "ok"), ("cargo run -p worker", 0, "ok")])
    assert (
        found["recipe:run"] == "To run the app: `cargo run -p server` (e.g. `cargo run -p worker`)."
    )


@pytest.mark.parametrize(
    "empty",
    [
        "0 runs, 0 assertions, 0 failures, 0 errors, 0 skips",
        "Finished in 0.01 seconds (files took 0.2 seconds to load)\n0 examples, 0 failures",
        "Finished in 0.00 seconds\n0 tests, 0 failures",
        "\n  0 passing (2ms)\n",
        "No tests executed!",
    ],
)
def test_a_test_run_that_passed_with_no_test_in_it_is_not_the_recipe(empty: str) -> None:
    found = _recipes(
        [("bundle exec rspec", 0, "43 examples, 0 failures"), ("bin/rails test", 0, empty)]
    )

    assert found["recipe:test"] == "To run the tests: `bundle exec rspec`."


@pytest.mark.parametrize(
    "ran",
    [
        "12 runs, 30 assertions, 0 failures, 0 errors, 0 skips",
        "10 examples, 0 failures",
        "  10 passing (40ms)",
        "5 tests, 0 failures",
    ],
)
def test_a_test_run_that_ran_tests_stays_the_recipe(ran: str) -> None:
    found = _recipes([("bin/rails test", 0, ran)])

    assert found["recipe:test"] == "To run the tests: `bin/rails test`."


@pytest.mark.parametrize(
    "runs",
    [
        ["pnpm --filter web test", "pnpm --filter api test"],
        ["npm -w packages/web run lint", "npm -w packages/api run lint"],
    ],
)
def test_the_package_picked_before_the_script_is_left_open_too(runs: list[str]) -> None:
    # Each run its own command (the package is part of it), one recipe for them all.
    found = _recipes([(command, 0, "ok") for command in runs])
    (content,) = [c for c in found.values() if "<package>" in c]
    assert all(f"`{run}`" in content for run in runs), content


@pytest.mark.parametrize(
    ("runs", "head"),
    [
        (["cargo test -p core", "cargo test --workspace"], "cargo test --workspace"),
        (["npm test -w packages/web", "npm test"], "npm test"),
    ],
)
def test_the_whole_projects_run_is_the_recipe_before_one_packages(
    runs: list[str], head: str
) -> None:
    found = _recipes([(command, 0, "ok") for command in runs])
    assert found["recipe:test"].startswith(f"To run the tests: `{head}` (e.g. "), found


@pytest.mark.parametrize(
    "command",
    [
        "mix test --exclude external",
        "mix test --only unit",
        "uv run pytest --deselect tests/test_net.py::test_live",
        "clojure -X:test :nses '[app.grid-test]'",
        "npx jest --testPathIgnorePatterns e2e",
    ],
)
def test_one_run_that_left_tests_out_is_not_the_test_recipe(command: str) -> None:
    # The whole suite failed; a run leaving the failing tests out passed: it ran a part.
    whole = re.split(r" --| :", command, maxsplit=1)[0]
    found = _recipes([(whole, 1, "3 failures"), (command, 0, "ok")])

    assert not any(k.startswith("recipe:test") for k in found), found


@pytest.mark.parametrize(
    ("whole", "part"),
    [
        ("cabal test", "cabal test unit"),  # one suite of several
        ("rebar3 eunit", "rebar3 eunit --module=rl_bucket"),
        ("stack test", "stack test --ta '--match Parser'"),  # a selecting option passed on
        ("sbt test", 'sbt "testOnly *ParserSpec"'),  # a task that runs the tests it names
        ("quux test", "quux test -- parse_"),  # a name filter after `--`
    ],
)
def test_a_part_that_passed_after_the_whole_run_failed_is_no_test_recipe(
    whole: str, part: str
) -> None:
    found = _recipes([(whole, 1, "1 failure"), (part, 0, "ok")])

    assert not any(k.startswith("recipe:test") for k in found), found
    assert not any(part in v for v in found.values()), found


@pytest.mark.parametrize(
    ("whole", "fixed"),
    [
        ("cargo test", "cargo test --features sqlite"),  # an option set, no test selected
        ("go test", "go test ./..."),  # every package, not a part
    ],
)
def test_a_run_that_added_no_selection_after_a_failure_is_the_test_recipe(
    whole: str, fixed: str
) -> None:
    found = _recipes([(whole, 1, "1 failure"), (fixed, 0, "ok")])

    assert found.get("recipe:test") == f"To run the tests: `{fixed}`.", found
