"""Per ecosystem, the commands a project's developers run and what each prints: the test
command, its checks (format, lint, type-check), a formatting check failing on two files and the
formatter that fixes them, a command that fails until one flag or argument changes, a command
that fails until one configuration line changes, and the lines each tool prints while working
(never an error). Written as the tools print them; read by `test_command_matrix`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """A command that failed, its output, and the same command with one word changed that
    passed (`word`: the flag or argument that made the difference)."""

    failing: str
    output: str
    passing: str
    word: str


@dataclass(frozen=True)
class ConfigFix:
    """A command failing until one line of a configuration file (not the file its error
    names) changes from `old` to `new`."""

    command: str
    output: str
    path: str
    old: str
    new: str


@dataclass(frozen=True)
class Toolchain:
    """One ecosystem's everyday commands, as its developers type them."""

    name: str
    test: str
    test_ok: str
    #: (purpose, command, what a passing run prints): the checks beside the tests.
    checks: tuple[tuple[str, str, str], ...]
    fmt_check: str
    fmt_fail: str  # the formatting check's output when two files are not formatted
    fmt_files: tuple[str, str]
    fmt_fix: str
    #: A task-runner alias that runs the checks and the tests, and what its passing run prints.
    alias: str
    alias_ok: str
    variant: Variant
    config: ConfigFix | None
    #: Lines the tools print while working: never an error.
    progress: tuple[str, ...]


TOOLCHAINS = [
    Toolchain(
        name="elixir",
        test="mix test",
        test_ok=(
            "==> ledger\nCompiling 14 files (.ex)\nGenerated ledger app\n"
            "Running ExUnit with seed: 40213, max_cases: 16\n\n..........\n"
            "Finished in 0.3 seconds (0.1s async, 0.2s sync)\n38 tests, 0 failures\n"
        ),
        checks=(
            ("format", "mix format --check-formatted", ""),
            (
                "lint",
                "mix credo --strict",
                "Checking 42 source files ...\n\nAnalysis took 0.4 seconds (0.02s to load, "
                "0.3s running 55 checks on 42 files)\n180 mods/funs, found no issues.\n",
            ),
            (
                "typecheck",
                "mix dialyzer",
                "Finding suitable PLTs\nChecking PLT...\nPLT is up to date!\n"
                "Starting Dialyzer\nTotal errors: 0, Skipped: 0, Unnecessary Skips: 0\n"
                "done in 0m2.31s\ndone (passed successfully)\n",
            ),
        ),
        fmt_check="mix format --check-formatted",
        fmt_fail=(
            "** (Mix) mix format failed due to --check-formatted.\n"
            "The following files are not formatted:\n\n"
            "  * lib/ledger/books.ex\n  * lib/ledger/entry.ex\n"
        ),
        fmt_files=("lib/ledger/books.ex", "lib/ledger/entry.ex"),
        fmt_fix="mix format",
        alias="mix precommit",
        alias_ok=(
            "==> ledger\nCompiling 2 files (.ex)\nGenerated ledger app\n"
            "Running ExUnit with seed: 40213, max_cases: 16\n\n38 tests, 0 failures\n"
        ),
        variant=Variant(
            "mix test --only integraton",
            "Running ExUnit with seed: 40213, max_cases: 16\n"
            "Including tags: [:integraton]\nExcluding tags: [:test]\n\n"
            "Finished in 0.03 seconds\n38 tests, 0 failures, 38 excluded\n\n"
            'The --only option was given to "mix test" but no test was executed\n',
            "mix test --only integration",
            "integration",
        ),
        config=ConfigFix(
            "mix credo --strict",
            "Checking 42 source files ...\n\n  Code Readability\n"
            "┃\n┃ [R] → Modules should have a @moduledoc tag.\n"
            "┃       lib/ledger/books.ex:1:11 #(Ledger.Books)\n\n"
            "Analysis took 0.4 seconds\n180 mods/funs, found 1 code readability issue.\n",
            ".credo.exs",
            "{Credo.Check.Readability.ModuleDoc, []},",
            "{Credo.Check.Readability.ModuleDoc, false},",
        ),
        progress=(
            "==> ledger",
            "Compiling 14 files (.ex)",
            "Generated ledger app",
            "Checking 42 source files ...",
            "Finding suitable PLTs",
            "Starting Dialyzer",
            "done (passed successfully)",
            "Running ExUnit with seed: 40213, max_cases: 16",
        ),
    ),
    Toolchain(
        name="erlang",
        test="rebar3 eunit",
        test_ok=(
            "===> Verifying dependencies...\n===> Analyzing applications...\n"
            "===> Compiling ledger\n===> Performing EUnit tests...\n............\n"
            "Finished in 0.051 seconds\n12 tests, 0 failures\n"
        ),
        checks=(
            ("format", "rebar3 fmt --check", "===> Verifying dependencies...\n"),
            (
                "typecheck",
                "rebar3 dialyzer",
                "===> Verifying dependencies...\n===> Analyzing applications...\n"
                "===> Compiling ledger\n===> Dialyzer starting, this may take a while...\n"
                "===> Resolving project files...\n===> Checking 214 files in ledger_22.plt...\n"
                "===> Doing success typing analysis...\n",
            ),
            ("lint", "rebar3 xref", "===> Verifying dependencies...\n===> Running cross "),
        ),
        fmt_check="rebar3 fmt --check",
        fmt_fail=(
            "===> Verifying dependencies...\n"
            "[warn] src/ledger_books.erl\n[warn] src/ledger_entry.erl\n"
            "===> The following files are not properly formatted:\n"
            "src/ledger_books.erl\nsrc/ledger_entry.erl\n"
        ),
        fmt_files=("src/ledger_books.erl", "src/ledger_entry.erl"),
        fmt_fix="rebar3 fmt",
        alias="make check",
        alias_ok="===> Verifying dependencies...\n12 tests, 0 failures\n",
        variant=Variant(
            "rebar3 ct --suite test/ledger_SUITE",
            "===> Verifying dependencies...\n===> Compiling ledger\n"
            "===> Running Common Test suites...\n"
            '%%% ledger_SUITE ==> {error,{suite_not_found,"test/ledger_SUITE"}}\n'
            "===> Error running tests\n",
            "rebar3 ct --suite test/ledger_books_SUITE",
            "ledger_books_SUITE",
        ),
        config=ConfigFix(
            "rebar3 eunit",
            "===> Verifying dependencies...\n===> Compiling ledger\n"
            "===> Performing EUnit tests...\n"
            "ledger_books_tests: post_test...*failed*\n"
            "in function meck:new/2\n  called as new(ledger_store,[])\n"
            "**error:undef\n\nFailed: 1.  Skipped: 0.  Passed: 11.\n"
            "===> Error running tests\n",
            "rebar.config",
            "{profiles, [{test, [{deps, []}]}]}.",
            "{profiles, [{test, [{deps, [meck]}]}]}.",
        ),
        progress=(
            "===> Verifying dependencies...",
            "===> Analyzing applications...",
            "===> Compiling ledger",
            "===> Performing EUnit tests...",
            "===> Dialyzer starting, this may take a while...",
            "===> Doing success typing analysis...",
        ),
    ),
    Toolchain(
        name="haskell",
        test="cabal test",
        test_ok=(
            "Resolving dependencies...\nBuild profile: -w ghc-9.6.4 -O1\n"
            "In order, the following will be built (use -v for more details):\n"
            " - ledger-0.1.0.0 (test:ledger-test) (first run)\n"
            "Preprocessing test suite 'ledger-test' for ledger-0.1.0.0..\n"
            "Building test suite 'ledger-test' for ledger-0.1.0.0..\n"
            "Running 1 test suites...\nTest suite ledger-test: RUNNING...\n"
            "Test suite ledger-test: PASS\n1 of 1 test suites (1 of 1 test cases) passed.\n"
        ),
        checks=(
            ("format", "fourmolu --mode check src test", ""),
            ("lint", "hlint src test", "No hints\n"),
        ),
        fmt_check="fourmolu --mode check src test",
        fmt_fail=(
            "src/Ledger/Books.hs\n@@ -12,3 +12,3 @@\n-  post   book entry = entry : book\n"
            "+  post book entry = entry : book\n"
            "src/Ledger/Entry.hs\n@@ -4,2 +4,2 @@\n-data Entry = Entry { amount :: Int }\n"
            "+data Entry = Entry {amount :: Int}\n"
        ),
        fmt_files=("src/Ledger/Books.hs", "src/Ledger/Entry.hs"),
        fmt_fix="fourmolu --mode inplace src test",
        alias="just check",
        alias_ok="No hints\n1 of 1 test suites (1 of 1 test cases) passed.\n",
        variant=Variant(
            "cabal test",
            "Resolving dependencies...\nError: cabal: Cannot test the package "
            "ledger-0.1.0.0 because none of the components are available to build: the test "
            "suite 'ledger-test' is not available because the solver did not find a plan "
            "that included the test suites. Force the solver to enable this for all packages "
            "by adding the line 'tests: True' to the 'cabal.project.local' file.\n",
            "cabal test --enable-tests",
            "--enable-tests",
        ),
        config=ConfigFix(
            "hlint src test",
            "src/Ledger/Books.hs:12:1-40: Warning: Use newtype instead of data\n"
            "Found:\n  data Book = Book [Entry]\nPerhaps:\n  newtype Book = Book [Entry]\n"
            "Note: decreases laziness\n\n1 hint\n",
            ".hlint.yaml",
            "- ignore: {name: Use camelCase}",
            "- ignore: {name: Use newtype instead of data}",
        ),
        progress=(
            "Resolving dependencies...",
            "Build profile: -w ghc-9.6.4 -O1",
            "In order, the following will be built (use -v for more details):",
            "Preprocessing test suite 'ledger-test' for ledger-0.1.0.0..",
            "Building test suite 'ledger-test' for ledger-0.1.0.0..",
            "Running 1 test suites...",
            "Test suite ledger-test: RUNNING...",
        ),
    ),
    Toolchain(
        name="ocaml",
        test="dune test",
        test_ok=(
            "Testing `Ledger'.\nThis run has ID `3F2K1A0B'.\n\n"
            "  [OK]          books          0   posts an entry.\n\n"
            "Full test results in `~/ledger/_build/default/test/_build/_tests/Ledger'.\n"
            "Test Successful in 0.002s. 4 tests run.\n"
        ),
        checks=(("format", "dune build @fmt", ""),),
        fmt_check="dune build @fmt",
        fmt_fail=(
            'File "lib/books.ml", line 1, characters 0-0:\n'
            "diff --git a/_build/default/lib/books.ml b/_build/default/lib/.formatted/books.ml\n"
            "-let post book entry =  entry :: book\n+let post book entry = entry :: book\n"
            'File "lib/entry.ml", line 1, characters 0-0:\n'
            "diff --git a/_build/default/lib/entry.ml b/_build/default/lib/.formatted/entry.ml\n"
            "-type t = { amount : int  }\n+type t = { amount : int }\n"
        ),
        fmt_files=("lib/books.ml", "lib/entry.ml"),
        fmt_fix="dune fmt",
        alias="make check",
        alias_ok="Test Successful in 0.002s. 4 tests run.\n",
        variant=Variant(
            "dune exec bin/main.exe",
            'Error: Program "bin/main.exe" not found!\n',
            "dune exec ./bin/main.exe",
            "./bin/main.exe",
        ),
        config=ConfigFix(
            "dune build",
            'File "lib/books.ml", line 3, characters 12-24:\n'
            "3 | let parse = Yojson.Safe.from_string\n                ^^^^^^^^^^^^\n"
            "Error: Unbound module Yojson\n",
            "lib/dune",
            "(libraries fmt)",
            "(libraries fmt yojson)",
        ),
        progress=(
            "Done: 84% (43/51, 8 left) (jobs: 2)",
            "Testing `Ledger'.",
            "This run has ID `3F2K1A0B'.",
        ),
    ),
    Toolchain(
        name="zig",
        test="zig build test",
        test_ok="Build Summary: 5/5 steps succeeded; 12/12 tests passed\n",
        checks=(("format", "zig fmt --check src build.zig", ""),),
        fmt_check="zig fmt --check src build.zig",
        fmt_fail="src/books.zig\nsrc/entry.zig\n",
        fmt_files=("src/books.zig", "src/entry.zig"),
        fmt_fix="zig fmt src build.zig",
        alias="just test",
        alias_ok="Build Summary: 5/5 steps succeeded; 12/12 tests passed\n",
        variant=Variant(
            "zig build tests",
            "error: no step named 'tests'\n  access the help menu with 'zig build -h'\n",
            "zig build test",
            "test",
        ),
        config=ConfigFix(
            "zig build test",
            "test\n+- run test\n   +- zig test Debug native 1 errors\n"
            "src/store.zig:3:22: error: C import failed\n"
            "error: the following command failed with 1 compilation errors:\n",
            "build.zig",
            "unit_tests.linkLibC();",
            'unit_tests.linkSystemLibrary("sqlite3");',
        ),
        progress=(
            "Build Summary: 5/5 steps succeeded; 12/12 tests passed",
            "+- run test 12/12 passed 1ms MaxRSS:2M",
        ),
    ),
    Toolchain(
        name="dart",
        test="dart test",
        test_ok=(
            "Building package executable...\nBuilt test:test.\n"
            "00:01 +0: loading test/books_test.dart\n00:02 +12: All tests passed!\n"
        ),
        checks=(
            ("format", "dart format --output=none --set-exit-if-changed .", ""),
            ("lint", "dart analyze", "Analyzing ledger...\nNo issues found!\n"),
        ),
        fmt_check="dart format --output=none --set-exit-if-changed .",
        fmt_fail=(
            "Changed lib/src/books.dart\nChanged lib/src/entry.dart\n"
            "Formatted 14 files (2 changed) in 0.22 seconds.\n"
        ),
        fmt_files=("lib/src/books.dart", "lib/src/entry.dart"),
        fmt_fix="dart format .",
        alias="make verify",
        alias_ok="Analyzing ledger...\nNo issues found!\n00:02 +12: All tests passed!\n",
        variant=Variant(
            "dart run build_runner build",
            "[INFO] Generating build script completed, took 310ms\n"
            "[SEVERE] Conflicting outputs were detected and the build is unable to prompt for "
            "permission to remove them. These outputs must be removed manually or the build "
            "can be run with `--delete-conflicting-outputs`.\n",
            "dart run build_runner build --delete-conflicting-outputs",
            "--delete-conflicting-outputs",
        ),
        config=ConfigFix(
            "dart analyze",
            "Analyzing ledger...\n\n"
            "   info - lib/src/books.dart:12:3 - Prefer const with constant constructors. "
            "Try adding the 'const' keyword to the constructor invocation. - "
            "prefer_const_constructors\n\n1 issue found.\n",
            "analysis_options.yaml",
            "    prefer_const_constructors: true",
            "    prefer_const_constructors: false",
        ),
        progress=(
            "Analyzing ledger...",
            "Building package executable...",
            "Resolving dependencies...",
            "Got dependencies!",
            "00:01 +0: loading test/books_test.dart",
            "Formatted 14 files (0 changed) in 0.21 seconds.",
        ),
    ),
    Toolchain(
        name="flutter",
        test="flutter test",
        test_ok="00:03 +0: loading /home/dev/ledger/test/widget_test.dart\n"
        "00:05 +8: All tests passed!\n",
        checks=(
            ("lint", "flutter analyze", "Analyzing ledger...\nNo issues found! (ran in 2.1s)\n"),
        ),
        fmt_check="dart format --set-exit-if-changed lib test",
        fmt_fail="Changed lib/main.dart\nChanged lib/books.dart\n"
        "Formatted 9 files (2 changed) in 0.19 seconds.\n",
        fmt_files=("lib/main.dart", "lib/books.dart"),
        fmt_fix="dart format lib test",
        alias="make check",
        alias_ok="00:05 +8: All tests passed!\n",
        variant=Variant(
            "flutter test --plain-name 'posts an entry' test/books.dart",
            "Test file not found: /home/dev/ledger/test/books.dart\n",
            "flutter test --plain-name 'posts an entry' test/books_test.dart",
            "test/books_test.dart",
        ),
        config=None,
        progress=(
            "Resolving dependencies...",
            "Downloading packages...",
            "Got dependencies!",
            "Analyzing ledger...",
            "00:03 +0: loading /home/dev/ledger/test/widget_test.dart",
        ),
    ),
    Toolchain(
        name="perl",
        test="prove -lr t",
        test_ok=(
            "t/books.t .. ok\nt/entry.t .. ok\nAll tests successful.\n"
            "Files=2, Tests=7,  0 wallclock secs ( 0.02 usr  0.01 sys +  0.09 cusr  0.02 csys"
            " =  0.14 CPU)\nResult: PASS\n"
        ),
        checks=(
            (
                "lint",
                "perlcritic lib",
                "lib/Ledger/Books.pm source OK\nlib/Ledger/Entry.pm source OK\n",
            ),
            ("format", "tidyall -a --check-only", ""),
        ),
        fmt_check="tidyall -a --check-only",
        fmt_fail=(
            "[checked] lib/Ledger/Books.pm\n*** needs tidying\n"
            "[checked] lib/Ledger/Entry.pm\n*** needs tidying\n"
        ),
        fmt_files=("lib/Ledger/Books.pm", "lib/Ledger/Entry.pm"),
        fmt_fix="tidyall -a",
        alias="make test",
        alias_ok="All tests successful.\nResult: PASS\n",
        variant=Variant(
            "prove t/books.t",
            "t/books.t .. Can't locate Ledger/Books.pm in @INC (you may need to install the "
            "Ledger::Books module) (@INC contains: /etc/perl /usr/local/lib/perl5) at "
            "t/books.t line 3.\nBEGIN failed--compilation aborted at t/books.t line 3.\n"
            "t/books.t .. Dubious, test returned 2 (wstat 512, 0x200)\n"
            "No subtests run\n\nTest Summary Report\n-------------------\n"
            "t/books.t (Wstat: 512 Tests: 0 Failed: 0)\n  Non-zero exit status: 2\n"
            "Files=1, Tests=0,  0 wallclock secs\nResult: FAIL\n",
            "prove -l t/books.t",
            "-l",
        ),
        config=ConfigFix(
            "perlcritic lib",
            'Subroutine "post" does not end with "return" at line 12, column 1.  See page '
            "197 of PBP.  (Severity: 4)\n",
            ".perlcriticrc",
            "severity = 4",
            "severity = 5",
        ),
        progress=(
            "t/books.t .. ok",
            "All tests successful.",
            "Result: PASS",
            "lib/Ledger/Books.pm source OK",
        ),
    ),
    Toolchain(
        name="nix",
        test="nix flake check",
        test_ok=(
            "warning: Git tree '/home/dev/ledger' is dirty\n"
            "evaluating flake...\nchecking flake output 'checks'...\n"
            "checking derivation checks.x86_64-linux.tests...\nrunning 1 flake checks...\n"
        ),
        checks=(("format", "nixfmt --check flake.nix pkgs/ledger.nix", ""),),
        fmt_check="nixfmt --check flake.nix pkgs/ledger.nix",
        fmt_fail="flake.nix: not formatted\npkgs/ledger.nix: not formatted\n",
        fmt_files=("flake.nix", "pkgs/ledger.nix"),
        fmt_fix="nixfmt flake.nix pkgs/ledger.nix",
        alias="just check",
        alias_ok="running 1 flake checks...\n",
        variant=Variant(
            "nix flake check",
            "error: experimental Nix feature 'nix-command' is disabled; add "
            "'--extra-experimental-features nix-command' to enable it\n",
            "nix --extra-experimental-features 'nix-command flakes' flake check",
            "--extra-experimental-features 'nix-command flakes'",
        ),
        config=None,
        progress=(
            "warning: Git tree '/home/dev/ledger' is dirty",
            "evaluating flake...",
            "checking flake output 'checks'...",
            "checking derivation checks.x86_64-linux.tests...",
            "running 1 flake checks...",
        ),
    ),
    Toolchain(
        name="scala",
        test="sbt test",
        test_ok=(
            "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)\n"
            "[info] loading project definition from /home/dev/ledger/project\n"
            "[info] compiling 3 Scala sources to /home/dev/ledger/target/scala-3.3.1/classes ...\n"
            "[info] Passed: Total 12, Failed 0, Errors 0, Passed 12\n"
            "[success] Total time: 4 s, completed Apr 6, 2026, 9:00:00 AM\n"
        ),
        checks=(
            (
                "lint",
                "sbt scalafmtCheckAll",
                "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)\n"
                "[success] Total time: 2 s, completed Apr 6, 2026, 9:00:00 AM\n",
            ),
        ),
        fmt_check="sbt scalafmtCheckAll",
        fmt_fail=(
            "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)\n"
            "[warn] /home/dev/ledger/src/main/scala/ledger/Books.scala isn't formatted properly!\n"
            "[warn] /home/dev/ledger/src/main/scala/ledger/Entry.scala isn't formatted properly!\n"
            "[error] (Compile / scalafmtCheck) 2 files must be formatted\n"
        ),
        fmt_files=("src/main/scala/ledger/Books.scala", "src/main/scala/ledger/Entry.scala"),
        fmt_fix="sbt scalafmtAll",
        alias="make check",
        alias_ok="[info] Passed: Total 12, Failed 0, Errors 0, Passed 12\n",
        variant=Variant(
            "sbt test",
            "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)\n"
            "[error] java.lang.OutOfMemoryError: Metaspace\n"
            "[error] Use 'last' for the full log.\n",
            "sbt -J-XX:MaxMetaspaceSize=1g test",
            "-J-XX:MaxMetaspaceSize=1g",
        ),
        config=ConfigFix(
            "sbt scalafmtCheckAll",
            "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)\n"
            "[error] scalafmt: missing setting 'runner.dialect' for src/main/scala/ledger/"
            "Books.scala; Scala 3 syntax requires runner.dialect = scala3\n",
            ".scalafmt.conf",
            'version = "3.7.17"',
            'version = "3.7.17"\nrunner.dialect = scala3',
        ),
        progress=(
            "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)",
            "[info] loading project definition from /home/dev/ledger/project",
            "[info] compiling 3 Scala sources to /home/dev/ledger/target/scala-3.3.1/classes ...",
            "[success] Total time: 4 s, completed Apr 6, 2026, 9:00:00 AM",
        ),
    ),
    Toolchain(
        name="kotlin",
        test="./gradlew test",
        test_ok=(
            "Starting a Gradle Daemon (subsequent builds will be faster)\n"
            "> Task :compileKotlin\n> Task :compileTestKotlin\n> Task :test\n\n"
            "BUILD SUCCESSFUL in 12s\n5 actionable tasks: 5 executed\n"
        ),
        checks=(
            (
                "lint",
                "./gradlew ktlintCheck",
                "> Task :ktlintMainSourceSetCheck\n\nBUILD SUCCESSFUL in 3s\n",
            ),
            ("lint", "./gradlew detekt", "> Task :detekt\n\nBUILD SUCCESSFUL in 5s\n"),
        ),
        fmt_check="./gradlew ktlintCheck",
        fmt_fail=(
            "> Task :ktlintMainSourceSetCheck FAILED\n"
            "/home/dev/ledger/src/main/kotlin/com/acme/ledger/Books.kt:12:1 Unexpected blank "
            'line(s) before "}" (standard:no-blank-line-before-rbrace)\n'
            "/home/dev/ledger/src/main/kotlin/com/acme/ledger/Entry.kt:4:5 Unexpected "
            "indentation (2) (should be 4) (standard:indent)\n\n"
            "FAILURE: Build failed with an exception.\n"
        ),
        fmt_files=(
            "src/main/kotlin/com/acme/ledger/Books.kt",
            "src/main/kotlin/com/acme/ledger/Entry.kt",
        ),
        fmt_fix="./gradlew ktlintFormat",
        alias="./gradlew check",
        alias_ok="> Task :check\n\nBUILD SUCCESSFUL in 14s\n",
        variant=Variant(
            "./gradlew test --tests BooksTest",
            "> Task :test FAILED\n\nFAILURE: Build failed with an exception.\n\n"
            "* What went wrong:\nExecution failed for task ':test'.\n"
            "> No tests found for given includes: [BooksTest](--tests filter)\n",
            "./gradlew test --tests 'com.acme.ledger.BooksTest'",
            "com.acme.ledger.BooksTest",
        ),
        config=ConfigFix(
            "./gradlew test",
            "> Task :compileKotlin FAILED\n\nFAILURE: Build failed with an exception.\n\n"
            "* What went wrong:\nExecution failed for task ':compileKotlin'.\n"
            "> Inconsistent JVM-target compatibility detected for tasks 'compileJava' (17) "
            "and 'compileKotlin' (21).\n",
            "build.gradle.kts",
            "kotlin { jvmToolchain(21) }",
            "kotlin { jvmToolchain(17) }",
        ),
        progress=(
            "Starting a Gradle Daemon (subsequent builds will be faster)",
            "> Task :compileKotlin",
            "> Task :test",
            "BUILD SUCCESSFUL in 12s",
            "5 actionable tasks: 5 executed",
        ),
    ),
    Toolchain(
        name="clojure",
        test="clojure -X:test",
        test_ok=(
            'Running tests in #{"test"}\n\nTesting ledger.books-test\n\n'
            "Ran 4 tests containing 9 assertions.\n0 failures, 0 errors.\n"
        ),
        checks=(
            ("lint", "clj-kondo --lint src test", "linting took 112ms, errors: 0, warnings: 0\n"),
            ("format", "cljfmt check", "All source files formatted correctly\n"),
        ),
        fmt_check="cljfmt check",
        fmt_fail=(
            "src/ledger/books.clj has incorrect formatting\n--- a/src/ledger/books.clj\n"
            "+++ b/src/ledger/books.clj\n@@ -3,3 +3,3 @@\n-(defn post [book entry]\n"
            "-    (conj book entry))\n+(defn post [book entry]\n+  (conj book entry))\n"
            "src/ledger/entry.clj has incorrect formatting\n2 file(s) formatted incorrectly\n"
        ),
        fmt_files=("src/ledger/books.clj", "src/ledger/entry.clj"),
        fmt_fix="cljfmt fix",
        alias="make check",
        alias_ok="Ran 4 tests containing 9 assertions.\n0 failures, 0 errors.\n",
        variant=Variant(
            "clojure -M:test",
            "Execution error (FileNotFoundException) at clojure.main/main (main.java:40).\n"
            "Could not locate ledger/test_runner__init.class, ledger/test_runner.clj or "
            "ledger/test_runner.cljc on classpath.\n",
            "clojure -X:test",
            "-X:test",
        ),
        config=ConfigFix(
            "clj-kondo --lint src test",
            "src/ledger/routes.clj:3:1: error: Unresolved symbol: defroutes\n"
            "linting took 98ms, errors: 1, warnings: 0\n",
            ".clj-kondo/config.edn",
            "{:lint-as {}}",
            "{:lint-as {compojure.core/defroutes clojure.core/def}}",
        ),
        progress=(
            'Running tests in #{"test"}',
            "Testing ledger.books-test",
            "linting took 112ms, errors: 0, warnings: 0",
        ),
    ),
    Toolchain(
        name="swift",
        test="swift test",
        test_ok=(
            "Building for debugging...\n[12/12] Linking LedgerPackageTests\n"
            "Build complete! (3.21s)\n"
            "Test Suite 'All tests' passed at 2026-04-06 09:00:00.000.\n"
            "\t Executed 12 tests, with 0 failures (0 unexpected) in 0.011 (0.013) seconds\n"
        ),
        checks=(
            (
                "lint",
                "swiftlint lint --strict",
                "Linting Swift files in current working directory\nDone linting! Found 0 violations, 0 serious in 14 files.\n",
            ),
        ),
        fmt_check="swift format lint --strict -r Sources",
        fmt_fail=(
            "Sources/Ledger/Books.swift:12:1: error: [Indentation] replace leading whitespace "
            "with 4 spaces\nSources/Ledger/Entry.swift:4:1: error: [Indentation] replace "
            "leading whitespace with 4 spaces\n"
        ),
        fmt_files=("Sources/Ledger/Books.swift", "Sources/Ledger/Entry.swift"),
        fmt_fix="swift format -i -r Sources",
        alias="make test",
        alias_ok="Build complete! (3.21s)\n\t Executed 12 tests, with 0 failures (0 unexpected)\n",
        variant=Variant(
            "swift test --filter BookTests",
            "Building for debugging...\nBuild complete! (0.9s)\n"
            "error: No matching test cases were run\n",
            "swift test --filter BooksTests",
            "BooksTests",
        ),
        config=ConfigFix(
            "swift build",
            "Fetching https://github.com/apple/swift-nio.git\n"
            "error: the library 'Ledger' requires macos 10.13, but depends on the product "
            "'NIO' which requires macos 10.15; consider changing the library 'Ledger' to "
            "require macos 10.15 or later, or the product 'NIO' to require macos 10.13 or "
            "earlier.\n",
            "Package.swift",
            "platforms: [.macOS(.v10_13)],",
            "platforms: [.macOS(.v13)],",
        ),
        progress=(
            "Building for debugging...",
            "[12/12] Linking LedgerPackageTests",
            "Build complete! (3.21s)",
            "Fetching https://github.com/apple/swift-nio.git",
            "Linting Swift files in current working directory",
        ),
    ),
    Toolchain(
        name="dotnet",
        test="dotnet test",
        test_ok=(
            "  Determining projects to restore...\n  All projects are up-to-date for restore.\n"
            "  Ledger -> /home/dev/ledger/src/Ledger/bin/Debug/net8.0/Ledger.dll\n"
            "Test run for /home/dev/ledger/tests/Ledger.Tests/bin/Debug/net8.0/Ledger.Tests.dll"
            " (.NETCoreApp,Version=v8.0)\nStarting test execution, please wait...\n"
            "A total of 1 test files matched the specified pattern.\n\n"
            "Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12, Duration: "
            "41 ms - Ledger.Tests.dll (net8.0)\n"
        ),
        checks=(("format", "dotnet format --verify-no-changes", ""),),
        fmt_check="dotnet format --verify-no-changes",
        fmt_fail=(
            "/home/dev/ledger/src/Ledger/Books.cs(12,1): error WHITESPACE: Fix whitespace "
            "formatting. Replace 5 characters with '\\n\\s\\s\\s\\s'. "
            "[/home/dev/ledger/src/Ledger/Ledger.csproj]\n"
            "/home/dev/ledger/src/Ledger/Entry.cs(4,1): error WHITESPACE: Fix whitespace "
            "formatting. Replace 3 characters with '\\s\\s\\s\\s'. "
            "[/home/dev/ledger/src/Ledger/Ledger.csproj]\n"
        ),
        fmt_files=("src/Ledger/Books.cs", "src/Ledger/Entry.cs"),
        fmt_fix="dotnet format",
        alias="make check",
        alias_ok="Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12\n",
        variant=Variant(
            "dotnet test",
            "MSBUILD : error MSB1011: Specify which project or solution file to use because "
            "this folder contains more than one project or solution file.\n",
            "dotnet test Ledger.sln",
            "Ledger.sln",
        ),
        config=ConfigFix(
            "dotnet build",
            "  Determining projects to restore...\n"
            "/usr/share/dotnet/sdk/8.0.204/Sdks/Microsoft.NET.Sdk/targets/"
            "Microsoft.NET.TargetFrameworkInference.targets(166,5): error NETSDK1045: The "
            "current .NET SDK does not support targeting .NET 9.0.  Either target .NET 8.0 or "
            "lower, or use a version of the .NET SDK that supports .NET 9.0. "
            "[/home/dev/ledger/src/Ledger/Ledger.csproj]\n",
            "src/Ledger/Ledger.csproj",
            "<TargetFramework>net9.0</TargetFramework>",
            "<TargetFramework>net8.0</TargetFramework>",
        ),
        progress=(
            "  Determining projects to restore...",
            "  All projects are up-to-date for restore.",
            "Starting test execution, please wait...",
            "A total of 1 test files matched the specified pattern.",
        ),
    ),
    Toolchain(
        name="php",
        test="vendor/bin/phpunit",
        test_ok=(
            "PHPUnit 10.5.11 by Sebastian Bergmann and contributors.\n\n"
            "Runtime:       PHP 8.3.4\nConfiguration: /home/dev/ledger/phpunit.xml\n\n"
            "............                                                      12 / 12 (100%)\n"
            "\nTime: 00:00.021, Memory: 8.00 MB\n\nOK (12 tests, 30 assertions)\n"
        ),
        checks=(
            (
                "typecheck",
                "vendor/bin/phpstan analyse",
                "Note: Using configuration file /home/dev/ledger/phpstan.neon.\n"
                " 12/12 [▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓] 100%\n\n [OK] No errors\n",
            ),
            (
                "format",
                "vendor/bin/pint --test",
                "\n  PASS   ............................ 14 files\n",
            ),
        ),
        fmt_check="vendor/bin/pint --test",
        fmt_fail=(
            "\n  ⨯.⨯...........\n\n  ────────────────────────────────────────── Laravel  \n"
            "    FAIL   ................................ 14 files, 2 style issues  \n"
            "  ⨯ app/Books.php                                    braces_position  \n"
            "  ⨯ app/Entry.php                        no_unused_imports, ordered_imports  \n"
        ),
        fmt_files=("app/Books.php", "app/Entry.php"),
        fmt_fix="vendor/bin/pint",
        alias="composer check",
        alias_ok="OK (12 tests, 30 assertions)\n",
        variant=Variant(
            "vendor/bin/phpstan analyse",
            "Note: Using configuration file /home/dev/ledger/phpstan.neon.\n"
            "PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to "
            "allocate 20480 bytes) in phar:///home/dev/ledger/vendor/phpstan/phpstan/"
            "phpstan.phar/src/Analyser/NodeScopeResolver.php on line 2713\n",
            "vendor/bin/phpstan analyse --memory-limit=1G",
            "--memory-limit=1G",
        ),
        config=ConfigFix(
            "vendor/bin/phpstan analyse",
            "Note: Using configuration file /home/dev/ledger/phpstan.neon.\n"
            " 12/12 [▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓] 100%\n\n"
            " ------ ------------------------------------------------------------\n"
            "  Line   app/Books.php\n"
            " ------ ------------------------------------------------------------\n"
            "  12     Access to an undefined property Illuminate\\Database\\Eloquent\\Model::$total.\n"
            " ------ ------------------------------------------------------------\n\n"
            " [ERROR] Found 1 error\n",
            "phpstan.neon",
            "    - vendor/phpstan/phpstan/conf/bleedingEdge.neon",
            "    - vendor/larastan/larastan/extension.neon",
        ),
        progress=(
            "PHPUnit 10.5.11 by Sebastian Bergmann and contributors.",
            "Runtime:       PHP 8.3.4",
            "Note: Using configuration file /home/dev/ledger/phpstan.neon.",
            " 12/12 [▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓] 100%",
        ),
    ),
    Toolchain(
        name="python",
        test="uv run pytest",
        test_ok=(
            "============================= test session starts ==============================\n"
            "collected 12 items\n\ntests/test_books.py ............                    [100%]\n\n"
            "============================== 12 passed in 0.12s ==============================\n"
        ),
        checks=(
            ("format", "uv run ruff format --check .", "14 files already formatted\n"),
            ("lint", "uv run ruff check .", "All checks passed!\n"),
            ("typecheck", "uv run mypy src", "Success: no issues found in 14 source files\n"),
        ),
        fmt_check="uv run ruff format --check .",
        fmt_fail=(
            "Would reformat: src/ledger/books.py\nWould reformat: src/ledger/entry.py\n"
            "2 files would be reformatted, 12 files already formatted\n"
        ),
        fmt_files=("src/ledger/books.py", "src/ledger/entry.py"),
        fmt_fix="uv run ruff format .",
        alias="make check",
        alias_ok="All checks passed!\n12 passed in 0.12s\n",
        variant=Variant(
            "uv run mypy src",
            'src/ledger/books.py:3: error: Library stubs not installed for "yaml"  '
            "[import-untyped]\nFound 1 error in 1 file (checked 14 source files)\n",
            "uv run mypy --ignore-missing-imports src",
            "--ignore-missing-imports",
        ),
        config=ConfigFix(
            "uv run pytest",
            "==================================== ERRORS ====================================\n"
            "____________________ ERROR collecting tests/test_books.py _____________________\n"
            "ImportError while importing test module '/home/dev/ledger/tests/test_books.py'.\n"
            "E   ModuleNotFoundError: No module named 'ledger'\n",
            "pyproject.toml",
            'testpaths = ["tests"]',
            'testpaths = ["tests"]\npythonpath = ["src"]',
        ),
        progress=(
            "============================= test session starts ==============================",
            "collected 12 items",
            "14 files already formatted",
        ),
    ),
    Toolchain(
        name="javascript",
        test="npm test",
        test_ok=(
            "\n> ledger@0.4.0 test\n> vitest run\n\n"
            " ✓ src/books.test.ts (4 tests) 3ms\n\n Test Files  1 passed (1)\n"
            "      Tests  4 passed (4)\n"
        ),
        checks=(
            (
                "format",
                "npx prettier --check .",
                "Checking formatting...\nAll matched files use Prettier code style!\n",
            ),
            ("lint", "npx eslint .", ""),
            ("typecheck", "npx tsc --noEmit", ""),
        ),
        fmt_check="npx prettier --check .",
        fmt_fail=(
            "Checking formatting...\n[warn] src/books.ts\n[warn] src/entry.ts\n"
            "[warn] Code style issues found in 2 files. Run Prettier with --write to fix.\n"
        ),
        fmt_files=("src/books.ts", "src/entry.ts"),
        fmt_fix="npx prettier --write .",
        alias="npm run verify",
        alias_ok="\n> ledger@0.4.0 verify\n> npm run lint && npm test\n\n Tests  4 passed (4)\n",
        variant=Variant(
            "npm ci",
            "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n"
            "npm ERR! Found: react@18.3.1\n",
            "npm ci --legacy-peer-deps",
            "--legacy-peer-deps",
        ),
        config=ConfigFix(
            "npx tsc --noEmit",
            "src/books.ts(1,8): error TS1259: Module '\"/home/dev/ledger/node_modules/"
            "@types/express/index\"' can only be default-imported using the "
            "'esModuleInterop' flag\n",
            "tsconfig.json",
            '"strict": true,',
            '"strict": true,\n    "esModuleInterop": true,',
        ),
        progress=("> ledger@0.4.0 test", "> vitest run", "Checking formatting..."),
    ),
]
