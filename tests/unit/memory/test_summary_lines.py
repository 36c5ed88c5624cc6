"""A failed run's error line states the error, never a summary that only says a run, build,
step or test failed (naming its target, its exit code, or pointing above) when the same output
states the error itself; with nothing better, the summary stays. Shapes of several ecosystems,
and where the choice must not change."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.output_explanations import explanation
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.extractors.summary_lines import is_summary

_GO = (
    "internal/cache/cache.go:2:8: missing go.sum entry for module providing package "
    "example.org/lib (imported by example.org/app/internal/cache); to add:\n"
    "\tgo get example.org/app/internal/cache\n"
    "FAIL\texample.org/app/internal/cache [setup failed]\n"
)
_CARGO_TEST = (
    "   Compiling app v0.1.0 (/src/app)\n"
    "running 1 test\n"
    "test parse::tests::reads ... FAILED\n\n"
    "failures:\n\n"
    "---- parse::tests::reads stdout ----\n"
    "thread 'parse::tests::reads' panicked at src/parse.rs:10:9:\n"
    "missing env var DATA_URL\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n"
    "test result: FAILED. 0 passed; 1 failed; 0 ignored\n\n"
    "error: test failed, to rerun pass `--lib`\n"
)
_GRADLE = (
    "> Task :app:compileKotlin FAILED\n\n"
    "FAILURE: Build failed with an exception.\n\n"
    "* What went wrong:\n"
    "Could not resolve all files for configuration ':app:compileClasspath'.\n"
    "> Could not find org.example:lib:1.2.0.\n\n"
    "* Try:\n> Run with --stacktrace option to get the stack trace.\n\n"
    "BUILD FAILED in 3s\n"
)
_JEST = (
    "> app@1.0.0 test\n> jest\n\n"
    "FAIL src/sum.test.ts\n"
    "  ● sum › adds\n\n"
    "    expect(received).toBe(expected) // Object.is equality\n\n"
    "    Expected: 3\n    Received: 4\n\n"
    "Tests:       1 failed, 3 passed, 4 total\n"
    "npm ERR! Test failed.  See above for more details.\n"
)
_MAKE = (
    "cc -Wall -o build/test_parse tests/test_parse.c src/parse.c\n"
    "./build/test_parse\n"
    "test_parse: tests/test_parse.c:42: main: Assertion `n == 3' failed.\n"
    "make: *** [Makefile:20: test] Error 134\n"
)
_MAVEN = (
    "[INFO] Scanning for projects...\n"
    "[ERROR] /src/main/java/App.java:[2,17] cannot find symbol\n"
    "[ERROR]   symbol:   class Api\n"
    "[INFO] BUILD FAILURE\n"
    "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:"
    "compile (default-compile) on project app: Compilation failure\n"
    "[ERROR] -> [Help 1]\n"
)
_GO_TEST = (
    "--- FAIL: TestAdd (0.00s)\n"
    "    add_test.go:12: got 3, want 4\n"
    "FAIL\n"
    "FAIL\texample.org/app\t0.004s\n"
)
_RAKE = "rake aborted!\nDon't know how to build task 'db:seed_all'\n(See full trace by running task with --trace)\n"
_YARN = (
    "src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"
    "error Command failed with exit code 2.\n"
    "info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.\n"
)
_PYTEST = (
    "tests/test_x.py F\n"
    "FAILED tests/test_x.py::test_y\n"
    "tests/test_x.py:4: in test_y\n"
    "    assert add(1, 2) == 4\n"
    "AssertionError: assert 3 == 4\n"
)


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (
            _GO,
            "internal/cache/cache.go:2:8: missing go.sum entry for module providing package "
            "example.org/lib (imported by example.org/app/internal/cache); to add:",
        ),
        (
            _CARGO_TEST,
            "thread 'parse::tests::reads' panicked at src/parse.rs:10:9: missing env var DATA_URL",
        ),
        # (the innermost of the causes nested under the announcer)
        (_GRADLE, "Could not find org.example:lib:1.2.0."),
        (
            # Under the announcer, past the line that only names the failed task, the `> `
            # line is the error, not a build step's banner.
            "> Task :app:test FAILED\n\nFAILURE: Build failed with an exception.\n\n"
            "* What went wrong:\nExecution failed for task ':app:test'.\n"
            "> Unable to make field private java.io.File.path accessible: module java.base "
            'does not "opens java.io" to unnamed module\n\nBUILD FAILED in 41s\n',
            "Unable to make field private java.io.File.path accessible: module java.base "
            'does not "opens java.io" to unnamed module',
        ),
        (_JEST, "● sum › adds"),
        (_MAKE, "test_parse: tests/test_parse.c:42: main: Assertion `n == 3' failed."),
        (_MAVEN, "[ERROR] /src/main/java/App.java:[2,17] cannot find symbol"),
        (_GO_TEST, "add_test.go:12: got 3, want 4"),
        (_RAKE, "Don't know how to build task 'db:seed_all'"),
        (_YARN, "src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'."),
        (_PYTEST, "AssertionError: assert 3 == 4"),
        (
            # A test environment's status after the refusal it states in words.
            "lint: commands[0]> ruff check src\n"
            "lint: failed with ruff is not allowed, use allowlist_externals to allow it\n"
            "  lint: FAIL code 1 (2.31 seconds)\n  evaluation failed :( (2.44 seconds)\n",
            "lint: failed with ruff is not allowed, use allowlist_externals to allow it",
        ),
        (
            # .NET's exception, a blank before its colon, under the test runner's lines.
            "  Failed App.Tests.RepoTests.Saves [12 ms]\n  Error Message:\n"
            "   Microsoft.Data.Sqlite.SqliteException : SQLite Error 1: 'no such table: A'.\n"
            "Failed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12\n",
            "Microsoft.Data.Sqlite.SqliteException : SQLite Error 1: 'no such table: A'.",
        ),
        (
            # A diagnostic drawn in a frame: the frame is not part of the line.
            "╷\n│ Error: Inconsistent dependency lock file\n│ \n│ The following dependency "
            "selections recorded in the lock file are\n╵\n",
            "Error: Inconsistent dependency lock file",
        ),
        (
            # A POSIX shell's own error under a hook's count of what failed.
            "> vendor/bin/phpunit\nsh: 1: vendor/bin/phpunit: not found\n"
            "pre-commit: 1 checks failed, commit aborted\n",
            "sh: 1: vendor/bin/phpunit: not found",
        ),
        (
            "error: externally-managed-environment\n"
            "subprocess.CalledProcessError: Command '['pip', 'install', '.']' returned non-zero "
            "exit status 1.\n",
            "error: externally-managed-environment",
        ),
    ],
)
def test_the_line_stating_the_error_beats_a_summary(output: str, expected: str) -> None:
    assert first_error_line(output) == expected


@pytest.mark.parametrize(
    "line",
    [
        'error: could not compile `app` (bin "app") due to 2 previous errors',
        "error: aborting due to 2 previous errors",
        "=== 1 failed in 0.2s ===",
        "npm ERR! Test failed.  See above for more details.",
        "npm ERR! code ELIFECYCLE",
        " ELIFECYCLE  Command failed with exit code 1.",
        "Error: Process completed with exit code 1.",
        "make: *** [Makefile:12: test] Error 1",
        "make[1]: *** [all] Error 2",
        "BUILD FAILED in 3s",
        "FAILURE: Build failed with an exception.",
        "Execution failed for task ':app:test'.",
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.0:test",
        '** (Mix) Could not compile dependency :plug, "mix compile" failed.',
        "error Command failed with exit code 1.",
        "Tests: 1 failed, 3 passed, 4 total",
        "FAIL  src/x.test.ts",
        "FAIL example.org/app/internal/cache [setup failed]",
        "--- FAIL: TestAdd (0.00s)",
        "test parse::tests::reads ... FAILED",
        "FAILED tests/test_x.py::test_y",
        "Process finished with exit code 1",
        "collect2: error: ld returned 1 exit status",
        "> Task :app:compileKotlin FAILED",
        "rake aborted!",
        "exit status 1",
        "subprocess.CalledProcessError: Command '['make']' returned non-zero exit status 2.",
        "npm ERR! app@1.0.0 test: `jest`",
        "Compilation failure",
        "lint: FAIL code 1 (2.31 seconds)",
        "pre-commit: 3 checks failed, commit aborted",
        "evaluation failed :( (2.44 seconds)",
    ],
)
def test_summaries_are_known(line: str) -> None:
    assert is_summary(line)


@pytest.mark.parametrize(
    "line",
    [
        "error[E0425]: cannot find value `x` in this scope",
        "FAILED tests/test_x.py::test_y - AssertionError: assert 3 == 4",
        "make: *** No rule to make target 'install'.  Stop.",
        "src/a.go:3:2: undefined: Foo",
        "Error: Cannot find module 'left-pad'",
        '** (Mix) The task "lint" could not be found',
        "ModuleNotFoundError: No module named 'yaml'",
        "npm ERR! 404 Not Found - GET https://registry.npmjs.org/nope",
        "[ERROR] /src/App.java:[2,17] cannot find symbol",
        # An HTTP status is no exit code; a word after "Failed:" is a message.
        "Error: Request failed with status code 404",
        "Failed: timeout",
        "git@github.com: Permission denied (publickey).",
        "lint: failed with ruff is not allowed, use allowlist_externals to allow it",
        "sh: 1: vendor/bin/phpunit: not found",
    ],
)
def test_lines_stating_an_error_are_no_summary(line: str) -> None:
    assert not is_summary(line)


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        # The summary is the only error line: it stays (never empty).
        ("FAIL src/x.test.ts\nTests: 1 failed, 3 passed, 4 total\n", None),
        ("Compiling app v0.1.0\nerror: could not compile `app` due to 2 previous errors\n", -1),
        # Progress lines are never chosen over a summary.
        ("   Compiling app v0.1.0 (/src/app)\nBUILD FAILED in 3s\n", -1),
        ("Checking 3 source files ...\nFAIL src/x.test.ts\n", -1),
        # A first error line that is no summary is kept, whatever follows.
        (
            "error[E0425]: cannot find value `x` in this scope\n"
            'error: could not compile `app` (bin "app") due to 1 previous error\n',
            0,
        ),
        (
            "src/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n"
            "npm ERR! code ELIFECYCLE\n",
            0,
        ),
    ],
)
def test_the_choice_stays_where_nothing_states_more(output: str, expected: int | None) -> None:
    lines = output.strip().splitlines()
    want = lines[0] if expected is None else lines[expected]
    assert first_error_line(output) == want.strip()


def test_output_with_no_summary_and_no_error_line_stays_without_one() -> None:
    # A located line alone is looked for only beside a summary; a summary no error pattern
    # knows is no error line (the memory shows the first line printed, as before).
    assert first_error_line("add_test.go:12: got 3, want 4\n") == ""
    assert first_error_line("npm ERR! Test failed.  See above for more details.\n") == ""
    assert first_error_line("make: *** [Makefile:12: test] Error 1\n") == ""
    assert first_error_line("rake aborted!\n") == ""
    assert first_error_line("Compiling app v0.1.0\nChecking 3 source files ...\n") == ""


def test_an_explanation_never_repeats_the_shown_error_nor_says_how_to_see_more() -> None:
    shown = first_error_line(_GRADLE)
    assert explanation(_GRADLE, shown=shown) != shown.rstrip(".")
    assert "backtrace" not in explanation(_CARGO_TEST, shown=first_error_line(_CARGO_TEST))
    # Maven's reason after `Failed to execute goal … on project app:` only says it failed.
    assert explanation(_MAVEN, shown=first_error_line(_MAVEN)) != "Compilation failure"


def test_a_reason_stating_the_error_is_still_the_explanation() -> None:
    output = (
        "[ERROR] Failed to execute goal on project app: Could not resolve dependencies for "
        "project org.example:app:jar:1.0: Could not find artifact org.example:lib:jar:1.2\n"
    )
    assert explanation(output).startswith("Could not resolve dependencies")
