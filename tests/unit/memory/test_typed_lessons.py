"""Lessons and steps said as the commands were typed: the flag a runner was given, each setup
step that fixed a failure, the commit a gate stopped, a step's own arguments, and where each
rule must stay silent. Streams of several ecosystems."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_core.commands import typed_commands
from squirrel_memory.extractors.activity import CommandRun, commands
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.evidence.attempts import command_base
from squirrel_memory.extractors.evidence.recipes import recoveries
from squirrel_memory.extractors.evidence.routines import finishing_checks
from squirrel_memory.extractors.pitfall_wording import clip_stated
from squirrel_memory.extractors.pitfalls import first_error_line, nothing_ran
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryType, StoredEvent
from tests.unit.memory.session_builder import scripted_session

T0 = datetime(2026, 6, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"


def _session(steps: Sequence[tuple[str, Any]]) -> list[StoredEvent]:
    return scripted_session(ROOT, T0, "s1", steps)


def _pitfalls(events: list[StoredEvent]) -> list[str]:
    return [c.content for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def _recipes(events: list[StoredEvent]) -> list[str]:
    return [c.content for c in evidence_candidates(events) if c.type == MemoryType.RECIPE]


# --- a setup step is the fix only when nothing failed after it --------------------------------


def test_a_setup_step_followed_by_the_same_failure_is_not_the_fix() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "cabal build",
                    1,
                    "Error: cabal: Could not resolve dependencies:\n[__1] rejecting: base-4.19 (conflict)",
                ),
            ),
            ("run", ("cabal update", 0, "Package list of hackage.haskell.org has been updated.")),
            (
                "run",
                (
                    "cabal build",
                    1,
                    "Error: cabal: Could not resolve dependencies:\n[__0] trying: app (user goal)",
                ),
            ),
            ("run", ("cabal build --allow-newer", 0, "Building library for app-0.1.0.0..")),
        ]
    )
    found = _pitfalls(events)
    assert len(found) == 1
    assert "`--allow-newer` added" in found[0]
    assert "cabal update" not in found[0]


def test_a_setup_step_right_before_the_pass_is_still_the_fix() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "bun run build",
                    1,
                    'error: Could not resolve: "zod". Maybe you need to "bun install"?',
                ),
            ),
            ("run", ("bun install", 0, " + zod@3.23.8\n 4 packages installed")),
            ("run", ("bun run build", 0, "[12ms] bundle 6 modules")),
        ]
    )
    assert any("running `bun install` first fixed it" in p for p in _pitfalls(events))


def test_two_setup_steps_in_turn_are_both_named() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "ctest --test-dir build",
                    8,
                    "Test project /home/dev/src/app/build\nNo tests were found!!!",
                ),
            ),
            ("run", ("cmake -S . -B build -DBUILD_TESTING=ON", 0, "-- Generating done")),
            ("run", ("cmake --build build -j8", 0, "[100%] Built target app_tests")),
            ("run", ("ctest --test-dir build", 0, "100% tests passed, 0 tests failed out of 23")),
        ]
    )
    found = _pitfalls(events)
    assert len(found) == 1
    assert "`cmake -S . -B build -DBUILD_TESTING=ON`, then `cmake --build build -j8`" in found[0]


# --- the flag a runner was given is the difference --------------------------------------------


def test_a_runner_s_own_option_is_the_lesson() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "uv run pytest",
                    2,
                    "E   ModuleNotFoundError: No module named 'hypothesis'\n1 error in 0.21s",
                ),
            ),
            ("run", ("uv run --extra test pytest", 0, "31 passed in 1.92s")),
        ]
    )
    found = _pitfalls(events)
    assert len(found) == 1
    assert "with `--extra test` added" in found[0]


def test_tries_that_failed_in_turn_until_a_variant_passed_are_one_lesson() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "deno test",
                    1,
                    'error: NotCapable: Requires net access to "localhost:5432", run again with the --allow-net flag',
                ),
            ),
            (
                "run",
                (
                    "deno test --allow-net",
                    1,
                    'error: NotCapable: Requires env access to "DATABASE_URL", run again with the --allow-env flag',
                ),
            ),
            ("run", ("deno test --allow-net --allow-env", 0, "ok | 3 passed | 0 failed (48ms)")),
        ]
    )
    found = _pitfalls(events)
    assert len(found) == 1
    assert found[0].startswith("`deno test` failed with")
    assert "`--allow-net --allow-env` added" in found[0]


# --- a commit a gate stopped is what failed ----------------------------------------------------

_HOOKS = (
    "ruff.....................................................................Failed\n"
    "- hook id: ruff\n\napp/report.py:3:1: F401 `os` imported but unused\n\n"
    "mypy.....................................................................Failed\n"
    "- hook id: mypy\n\napp/report.py:9: error: Incompatible return value type\n"
)


def test_the_commit_after_staging_is_what_the_gate_stopped() -> None:
    events = _session(
        [
            ("edit", ("app/report.py", "", "import os\n")),
            ("run", ("git add -A && git commit -m 'Report'", 1, _HOOKS)),
            ("run", ("uv run ruff check --fix", 0, "Found 1 error (1 fixed, 0 remaining).")),
            ("run", ("uv run pytest", 0, "12 passed in 0.4s")),
            ("edit", ("app/report.py", "import os\n", "")),
            ("run", ("git add -A && git commit -m 'Report'", 0, "[main 8c9d0e1] Report")),
        ]
    )
    found = _pitfalls(events)
    assert len(found) == 1
    assert found[0].startswith("Commits run checks that must pass first (ruff, mypy)")
    assert "`git add -A`" not in found[0]
    # the hook's check passed apart is what gets past the gate; a check it does not run is not
    assert "running `uv run ruff check --fix` before committing gets past it" in found[0]
    assert "pytest" not in found[0]


def test_a_staging_command_that_failed_by_itself_stays_the_failure() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "git add docs/ && git commit -m 'Docs'",
                    128,
                    "fatal: pathspec 'docs/' did not match any files",
                ),
            ),
            ("run", ("git add doc/ && git commit -m 'Docs'", 0, "[main 1a2b3c4] Docs")),
        ]
    )
    assert not any(p.startswith("Commits run checks") for p in _pitfalls(events))


# --- the error line states the error -----------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "line"),
    [
        (
            "Failure/Error: ActiveRecord::Migration.maintain_test_schema!\n\n"
            "ActiveRecord::PendingMigrationError:\n\n"
            "  Migrations are pending. To resolve this issue, run:\n",
            "ActiveRecord::PendingMigrationError: Migrations are pending. To resolve this issue, run:",
        ),
        (
            "health returns ok ... FAILED (4ms)\n\n"
            'error: NotCapable: Requires net access to "localhost:5432"\n',
            'error: NotCapable: Requires net access to "localhost:5432"',
        ),
    ],
)
def test_the_line_stating_the_error_is_chosen(output: str, line: str) -> None:
    assert first_error_line(output) == line


def test_a_plain_exception_heading_still_reads_its_message() -> None:
    assert first_error_line("NoMethodError:\n  undefined method `x' for nil\n") == (
        "NoMethodError: undefined method `x' for nil"
    )


def test_no_tests_were_found_says_nothing_ran() -> None:
    assert (
        nothing_ran("Test project /app/build\nNo tests were found!!!\n") == "No tests were found!!!"
    )
    assert nothing_ran("100% tests passed, 0 tests failed out of 23\n") == ""


def test_every_package_without_a_test_file_says_nothing_ran() -> None:
    # Go: the test files sit behind a build tag the run did not set
    untested = (
        "?   \texample.com/app/cmd\t[no test files]\n?   \texample.com/app/store\t[no test files]\n"
    )
    assert nothing_ran(untested) == "?   \texample.com/app/cmd\t[no test files]"
    # one package tested beside others without tests: the run ran tests
    some = "?   \texample.com/app/cmd\t[no test files]\nok  \texample.com/app/store\t0.21s\n"
    assert nothing_ran(some) == ""


def test_every_test_binary_running_none_says_nothing_ran() -> None:
    # libtest: `cargo test --lib` of a crate whose tests are all integration tests
    lib = (
        "running 0 tests\n\n"
        "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    )
    assert nothing_ran(lib).startswith("test result: ok. 0 passed; 0 failed")
    # an empty unit-test binary beside an integration binary that ran tests
    whole = (
        lib + "running 9 tests\n.........\n"
        "test result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n"
    )
    assert nothing_ran(whole) == ""


def test_a_suite_count_of_zero_tests_says_nothing_ran() -> None:
    # XCTest: a filter that matched no test class passes with the outermost count at zero
    empty = (
        "Test Suite 'Selected tests' started at 2026-12-04 10:02:11.480.\n"
        "\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001) seconds\n"
    )
    assert (
        nothing_ran(empty)
        == "Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001) seconds"
    )
    # an empty inner suite beside the outermost count of the run that ran tests
    ran = (
        "\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.000) seconds\n"
        "Test Suite 'All tests' passed at 2026-12-04 10:02:41.733.\n"
        "\t Executed 57 tests, with 0 failures (0 unexpected) in 0.214 (0.220) seconds\n"
    )
    assert nothing_ran(ran) == ""


# --- recipes for one package, and builds that skip the tests -----------------------------------


def test_a_test_run_of_one_package_is_said_as_such() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "mvn -pl router -am test",
                    0,
                    "[INFO] Tests run: 14, Failures: 0\n[INFO] BUILD SUCCESS",
                ),
            ),
            (
                "run",
                (
                    "mvn -pl router -am test",
                    0,
                    "[INFO] Tests run: 14, Failures: 0\n[INFO] BUILD SUCCESS",
                ),
            ),
        ]
    )
    found = _recipes(events)
    assert "To run the tests, for one package: `mvn -pl router -am test`." in found
    assert not any(r.startswith("To run the tests:") for r in found)


def test_a_whole_project_test_run_is_not_said_to_be_one_package_s() -> None:
    events = _session(
        [
            ("run", ("pytest -p no:cacheprovider", 0, "12 passed in 0.4s")),
            ("run", ("pytest -p no:cacheprovider", 0, "12 passed in 0.4s")),
        ]
    )
    assert "To run the tests: `pytest -p no:cacheprovider`." in _recipes(events)


def test_a_build_that_skips_the_tests_says_so() -> None:
    events = _session([("run", ("mvn -q package -DskipTests", 0, ""))])
    assert "To build without running the tests: `mvn -q package -DskipTests`." in _recipes(events)


def test_a_whole_build_is_just_the_build() -> None:
    events = _session([("run", ("mvn -q package", 0, "[INFO] BUILD SUCCESS"))])
    assert "To build: `mvn -q package`." in _recipes(events)


# --- steps as typed ----------------------------------------------------------------------------


def _finishing(commands: list[str]) -> str:
    runs = [
        CommandRun(f"e{n}", T0 + timedelta(seconds=30 * n), command, True, "ok", session_id="s1")
        for n, command in enumerate(commands)
    ]
    found = finishing_checks(attempts(runs, ROOT))
    return found.content if found is not None else ""


def test_a_step_keeps_the_flag_it_needs() -> None:
    assert _finishing(["hlint src", "cabal test --allow-newer"]) == (
        "Before finishing a change: `hlint src` → `cabal test --allow-newer`."
    )


def test_a_step_drops_flags_that_only_change_the_output() -> None:
    assert _finishing(["ruff check .", "pytest -q --tb=short"]) == (
        "Before finishing a change: `ruff check .` → `pytest`."
    )


def test_a_formatter_given_patterns_keeps_them() -> None:
    assert _finishing(["clang-format -i src/*.cpp", "ctest --test-dir build"]) == (
        "Before finishing a change: `clang-format -i src/*.cpp` → `ctest --test-dir build`."
    )


def test_a_command_substitution_is_kept_as_typed() -> None:
    [typed] = typed_commands("ormolu --mode inplace $(git ls-files '*.hs')")
    assert typed.text == "ormolu --mode inplace $(git ls-files '*.hs')"
    [first, second] = typed_commands("pytest $(cat tests.txt) -q && ruff check .")
    assert first.text == "pytest $(cat tests.txt) -q"
    assert second.text == "ruff check ."


@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("uv run --extra test pytest -x", "uv run --extra test pytest"),
        ("uv run nox -s lint", "uv run nox -s lint"),
        ("nox --session=typecheck", "nox --session=typecheck"),
        ("uv run pytest tests/x.py -v", "uv run pytest"),
        ("pytest -q", "pytest"),
    ],
)
def test_a_runner_s_options_and_a_named_session_are_part_of_the_head(text: str, base: str) -> None:
    assert command_base(text) == base


# --- a selection that matched nothing, written another way --------------------------------------


def test_a_selection_written_another_way_is_the_fix() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "swift test --filter ParserTests",
                    1,
                    "error: no tests found; create a target in the 'Tests' directory",
                ),
            ),
            (
                "run",
                (
                    "swift test --filter AppTests.ParserTests",
                    0,
                    "Executed 9 tests, with 0 failures",
                ),
            ),
            ("run", ("swift test", 0, "Executed 31 tests, with 0 failures")),
        ]
    )
    [found] = _pitfalls(events)
    assert "with `AppTests.ParserTests` instead of `ParserTests` worked" in found
    assert "without" not in found


def test_another_selection_after_a_real_failure_is_no_fix() -> None:
    events = _session(
        [
            ("run", ("pytest tests/test_a.py", 1, "E   assert 1 == 2\n1 failed in 0.1s")),
            ("run", ("pytest tests/test_b.py", 0, "3 passed in 0.1s")),
        ]
    )
    assert not any("instead of" in p for p in _pitfalls(events))


# --- an error line cut where its statement ends --------------------------------------------------


def test_a_long_error_line_is_cut_at_a_word_s_end() -> None:
    line = (
        "internal/resolver/resolver.go:2:8: missing go.sum entry for module providing package "
        "github.com/acme-corp/resolver-helpers (imported by example.com/resolvd/internal/resolver); "
        "to add:"
    )
    said = clip_stated(line, 160)
    assert said == (
        "internal/resolver/resolver.go:2:8: missing go.sum entry for module providing package "
        "github.com/acme-corp/resolver-helpers (imported by…"
    )
    assert len(said) <= 160


def test_a_long_line_is_cut_at_a_word() -> None:
    said = clip_stated("word " * 50, 160)
    assert said.endswith("word…") and len(said) <= 160
    assert clip_stated("short error", 160) == "short error"


@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("bin/rails db:migrate RAILS_ENV=test", "bin/rails db:migrate"),
        ("make test V=1", "make test"),
    ],
)
def test_a_variable_given_after_the_task_is_an_argument(text: str, base: str) -> None:
    assert command_base(text) == base


def test_the_rails_test_database_migration_is_an_example_of_the_migrate_recipe() -> None:
    events = _session(
        [
            ("run", ("bin/rails db:migrate", 0, "== AddStatus: migrated (0.0042s)")),
            ("run", ("bin/rails db:migrate RAILS_ENV=test", 0, "== AddStatus: migrated (0.0039s)")),
        ]
    )
    found = [r for r in _recipes(events) if r.startswith("To migrate")]
    assert found == [
        "To migrate the database: `bin/rails db:migrate` (e.g. `bin/rails db:migrate RAILS_ENV=test`)."
    ]


def test_listing_the_markers_after_an_empty_selection_is_no_fix() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "uv run pytest -m unit -v",
                    5,
                    "collected 205 items / 205 deselected / 0 selected",
                ),
            ),
            ("run", ("uv run pytest --markers", 0, "@pytest.mark.tui: terminal UI tests")),
        ]
    )
    assert not any("--markers" in p and "worked" in p for p in _pitfalls(events))


def test_a_heading_reads_the_line_that_says_why() -> None:
    output = (
        "Error: cabal: Could not resolve dependencies:\n"
        "[__0] trying: app-0.1.0.0 (user goal)\n"
        "[__1] next goal: base (dependency of app)\n"
        "[__1] rejecting: base-4.19.1.0 (conflict: app => base>=4.14 && <4.19)\n"
    )
    assert first_error_line(output) == (
        "Error: cabal: Could not resolve dependencies: "
        "[__1] rejecting: base-4.19.1.0 (conflict: app => base>=4.14 && <4.19)"
    )


def test_a_heading_without_a_reason_reads_its_next_line() -> None:
    assert first_error_line("[ERROR] COMPILATION ERROR :\n/src/A.java:[3,8] cannot find symbol\n")


def test_a_commit_gate_s_memory_is_a_standing_condition() -> None:
    events = _session(
        [
            ("edit", ("app/report.py", "", "import os\n")),
            ("run", ("git commit -am 'Report'", 1, _HOOKS)),
            ("edit", ("app/report.py", "import os\n", "")),
            ("run", ("git commit -am 'Report'", 0, "[main 8c9d0e1] Report")),
        ]
    )
    [gate] = [c for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]
    assert "commit-gate" in gate.tags


def test_a_lint_failure_alone_is_no_commit_gate() -> None:
    events = _session(
        [
            ("run", ("ruff check .", 1, "app/a.py:1:1: F401 `os` imported but unused")),
            ("edit", ("app/a.py", "import os\n", "")),
            ("run", ("ruff check .", 0, "All checks passed!")),
        ]
    )
    assert not any(
        "commit-gate" in c.tags for c in evidence_candidates(events) if c.type == MemoryType.PITFALL
    )


def test_an_option_s_value_that_turned_a_feature_on_is_the_lesson() -> None:
    events = _session(
        [
            (
                "run",
                ("cargo test", 101, "error[E0432]: unresolved import `crate::backend::sqlite`"),
            ),
            ("run", ("cargo test --features sqlite", 0, "test result: ok. 23 passed; 0 failed")),
        ]
    )
    [found] = _pitfalls(events)
    assert "with `--features sqlite` added worked" in found


def test_other_tests_picked_by_name_are_no_fix() -> None:
    events = _session(
        [
            ("run", ("pytest -k parse", 1, "E   assert 1 == 2\n1 failed, 3 deselected in 0.1s")),
            ("run", ("pytest -k render", 0, "2 passed, 2 deselected in 0.1s")),
        ]
    )
    assert not any("worked" in p for p in _pitfalls(events))


def test_a_whole_test_run_with_its_own_options_is_the_test_recipe() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "go test -tags integration ./store/... -run TestRoundTrip -v",
                    0,
                    "--- PASS: TestRoundTrip (0.41s)\nok  \tx/store\t0.4s",
                ),
            ),
            (
                "run",
                ("go test -tags integration ./...", 0, "ok  \tx/store\t0.6s\nok  \tx/api\t0.1s"),
            ),
        ]
    )
    assert any(
        r.startswith("To run the tests: `go test -tags integration ./...`")
        for r in _recipes(events)
    )


def test_a_run_of_one_file_beside_a_quiet_run_keeps_the_head() -> None:
    events = _session(
        [
            ("run", ("pytest tests/test_a.py", 0, "3 passed in 0.1s")),
            ("run", ("pytest tests/test_a.py", 0, "3 passed in 0.1s")),
            ("run", ("pytest -q", 0, "12 passed in 0.4s")),
        ]
    )
    assert not any(r.startswith("To run the tests: `pytest -q`") for r in _recipes(events))


_REWRITING_HOOKS = (
    "black....................................................................Failed\n"
    "- hook id: black\n- files were modified by this hook\n\nreformatted app/cli.py\n\n"
    "isort....................................................................Failed\n"
    "- hook id: isort\n- files were modified by this hook\n\nFixing /home/dev/src/app/app/cli.py\n"
)


def test_hooks_that_rewrote_the_files_then_passed_are_a_lesson() -> None:
    events = _session(
        [
            ("run", ("pre-commit run --all-files", 1, _REWRITING_HOOKS)),
            ("run", ("pre-commit run --all-files", 0, "black....Passed\nisort....Passed")),
        ]
    )
    [found] = _pitfalls(events)
    assert found.startswith("Its hooks run checks (black, isort): `pre-commit run --all-files`")
    assert "it rewrote the files itself, and running it again passed" in found


def test_a_check_run_again_without_rewriting_anything_is_no_lesson() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "ruff format --check .",
                    1,
                    "Would reformat: app/cli.py\n1 file would be reformatted",
                ),
            ),
            ("run", ("ruff format --check .", 0, "12 files already formatted")),
        ]
    )
    assert not any("rewrote" in p for p in _pitfalls(events))


def test_an_option_before_the_subcommand_is_the_lesson() -> None:
    events = _session(
        [
            (
                "run",
                ("nix flake check", 1, "error: experimental Nix feature 'nix-command' is disabled"),
            ),
            (
                "run",
                (
                    "nix --extra-experimental-features 'nix-command flakes' flake check",
                    0,
                    "checking flake output 'packages'...",
                ),
            ),
        ]
    )
    [found] = _pitfalls(events)
    assert "with `--extra-experimental-features 'nix-command flakes'` added worked" in found


# --- a repair run after a failure is the failure's fix, not the project's recipe -------------


def _two_sessions(
    first: Sequence[tuple[str, Any]], second: Sequence[tuple[str, Any]]
) -> list[StoredEvent]:
    return [
        *scripted_session(ROOT, T0, "s1", first),
        *scripted_session(ROOT, T0, "s2", second, start=3600),
    ]


_STALE = "ERROR: Build directory has been generated with Meson version 1.2.3, which is incompatible"


def test_a_wipe_that_fixed_a_stale_build_folder_is_not_how_to_build() -> None:
    events = _two_sessions(
        [
            ("run", ("meson setup build", 0, "Build targets in project: 4")),
            ("run", ("meson compile -C build", 0, "[6/6] Linking target app")),
        ],
        [
            ("run", ("meson test -C build", 1, _STALE)),
            ("run", ("meson setup --reconfigure build", 1, _STALE)),
            ("run", ("meson setup --wipe build", 0, "Build targets in project: 4")),
            ("run", ("meson test -C build", 0, "Ok: 3\nFail: 0")),
        ],
    )
    found = _recipes(events)
    assert not any("--wipe" in r for r in found)
    assert any(r.startswith("To build: `meson") for r in found)


def test_a_forced_update_after_a_failure_is_not_the_build_nor_its_example() -> None:
    missing = "[ERROR] Could not resolve dependencies: com.mj:core:jar:0.9-SNAPSHOT was cached"
    events = _two_sessions(
        [("run", ("mvn install", 0, "[INFO] BUILD SUCCESS"))],
        [
            ("run", ("mvn install", 1, missing)),
            ("run", ("mvn -U clean install", 0, "[INFO] BUILD SUCCESS")),
        ],
    )
    found = _recipes(events)
    assert "To build: `mvn install`." in found
    assert not any("-U" in r for r in found)


def test_a_flag_run_in_ordinary_work_stays_the_recipe() -> None:
    run = ("run", ("pod install --repo-update", 0, "Pod installation complete!"))
    events = _two_sessions([run], [run])
    assert "To install dependencies: `pod install --repo-update` (worked in 2 sessions)." in (
        _recipes(events)
    )


def test_the_failed_command_run_again_is_no_repair() -> None:
    failed = "[+] Building 4.0s\nfailed to solve: exit code: 1"
    events = _two_sessions(
        [("run", ("docker compose up --build -d", 0, "Container api Started"))],
        [
            ("run", ("docker compose up --build -d", 1, failed)),
            ("edit", ("main.go", "routes", "app.Routes")),
            ("run", ("docker compose up --build -d", 0, "Container api Started")),
        ],
    )
    assert "To run the app: `docker compose up --build -d` (worked in 2 sessions)." in (
        _recipes(events)
    )


def test_recoveries_skip_checks_and_runs_after_an_edit() -> None:
    events = [
        *scripted_session(
            ROOT,
            T0,
            "s1",
            [
                (
                    "run",
                    ("cargo test", 101, "error[E0433]: failed to resolve: use of undeclared crate"),
                ),
                ("run", ("cargo test --features sqlite", 0, "test result: ok. 9 passed")),
                ("run", ("cargo build", 101, "error: linking with `cc` failed")),
                ("run", ("cargo build --release", 0, "Finished `release` profile")),
            ],
        )
    ]
    found = attempts(commands(sorted(events, key=lambda e: e.timestamp)), ROOT)
    texts = [found[n].text for n in recoveries(found)]
    assert texts == ["cargo build --release"]
    edited = [T0 + timedelta(seconds=100)]  # a change between the failed build and the next
    assert recoveries(found, edited) == set()


def test_an_option_the_later_runs_keep_is_a_standing_need_not_a_repair() -> None:
    conflict = (
        "Error: cabal: Could not resolve dependencies:\n[__1] rejecting: base-4.19 (conflict)"
    )
    events = _session(
        [
            ("run", ("cabal build", 1, conflict)),
            ("run", ("cabal build --allow-newer", 0, "[2 of 2] Compiling Hex.Grid")),
            ("run", ("cabal test --allow-newer", 0, "14 examples, 0 failures")),
        ]
    )
    assert "To build: `cabal build --allow-newer`." in _recipes(events)
    found = attempts(commands(sorted(events, key=lambda e: e.timestamp)), ROOT)
    assert recoveries(found) == set()


# --- what changed between the failure and the pass is the fix, however it was given ----------


def test_a_variable_set_before_the_same_command_is_the_fix() -> None:
    # One machine's path is left out of the typed command; the run as typed says the fix.
    events = _session(
        [
            (
                "run",
                (
                    "cargo build -p crawler",
                    101,
                    "error: failed to run custom build command for `openssl-sys v0.9.101`",
                ),
            ),
            ("run", ("OPENSSL_DIR=/opt/openssl@3 cargo build -p crawler", 0, "Finished `dev`")),
        ]
    )
    found = _pitfalls(events)
    assert len(found) == 1
    assert "`OPENSSL_DIR=/opt/openssl@3 cargo build -p crawler` worked" in found[0]


def test_the_same_variable_set_both_times_is_no_fix() -> None:
    events = _session(
        [
            ("run", ("OPENSSL_DIR=/opt/ssl cargo build", 101, "error: failed to download `x`")),
            ("run", ("OPENSSL_DIR=/opt/ssl cargo build", 0, "Finished `dev`")),
        ]
    )
    assert not any("worked" in p or "fixed" in p for p in _pitfalls(events))


def test_a_flag_before_the_goal_keeps_the_run_the_same_command() -> None:
    # `-am` reads as taking `package` for its value: the run is still the failed one, retried.
    events = _session(
        [
            (
                "run",
                (
                    "mvn -pl api package",
                    1,
                    "[ERROR] Failed to execute goal on project api: Could not resolve "
                    "dependencies for project com.acme:api:jar:1.0: Could not find artifact "
                    "com.acme:core:jar:1.0",
                ),
            ),
            ("run", ("mvn -pl api -am package", 0, "[INFO] BUILD SUCCESS")),
        ]
    )
    found = _pitfalls(events)
    assert len(found) == 1
    assert "with `-am` added" in found[0]


def test_another_goal_after_a_flag_is_another_command() -> None:
    events = _session(
        [
            ("run", ("mvn -pl api package", 1, "[ERROR] Could not find artifact com.acme:core")),
            ("run", ("mvn -q deploy", 0, "[INFO] BUILD SUCCESS")),
        ]
    )
    assert not any("fixed" in p or "worked" in p for p in _pitfalls(events))


def test_a_tools_configuration_outside_the_project_is_the_fix() -> None:
    events = _session(
        [
            (
                "run",
                (
                    "nix build .#default",
                    1,
                    "error: experimental Nix feature 'nix-command' is disabled; add "
                    "'--extra-experimental-features nix-command' to enable it",
                ),
            ),
            (
                "edit",
                (
                    "/home/dev/.config/nix/nix.conf",
                    "max-jobs = 4\n",
                    "max-jobs = 4\nexperimental-features = nix-command flakes\n",
                ),
            ),
            ("run", ("nix build .#default", 0, "")),
        ]
    )
    found = _pitfalls(events)
    assert len(found) == 1
    assert "adding `experimental-features = nix-command flakes`" in found[0]


def test_a_note_written_outside_the_project_is_no_fix() -> None:
    events = _session(
        [
            ("run", ("nix build .#default", 1, "error: cannot connect to socket")),
            ("edit", ("/tmp/notes.md", "", "retry the build\n")),
            ("run", ("nix build .#default", 0, "")),
        ]
    )
    assert not any("fixed" in p or "worked" in p for p in _pitfalls(events))


_MESON_ERROR = (
    "../src/tls.c:3:10: fatal error: openssl/ssl.h: No such file or directory\n"
    "compilation terminated.\nninja: build stopped: subcommand failed."
)


def _build_file_fix(declared: str) -> str:
    """The pitfall of a compile that failed on a missing header, passing after `meson.build`
    declared `declared` in a change too large to quote whole."""
    events = _session(
        [
            ("run", ("meson compile -C build", 1, _MESON_ERROR)),
            (
                "edit",
                (
                    "meson.build",
                    "executable('srv', 'src/main.c', dependencies : [threads])\n",
                    f"{declared} = dependency('{declared}')\n"
                    f"executable('srv', 'src/main.c', dependencies : [threads, {declared}])\n",
                ),
            ),
            ("run", ("meson compile -C build", 0, "[4/4] Linking target srv")),
        ]
    )
    (found,) = _pitfalls(events)
    return found


def test_a_build_file_too_changed_to_quote_is_told_by_the_line_naming_the_error() -> None:
    assert "adding `openssl = dependency('openssl')` in meson.build" in _build_file_fix("openssl")


def test_a_build_file_change_naming_nothing_of_the_error_is_told_by_its_file() -> None:
    assert "adding `" not in _build_file_fix("zlib")
