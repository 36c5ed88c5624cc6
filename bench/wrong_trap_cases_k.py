# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, eleventh part: commands said otherwise than they were typed or than what
they did — a lint session read as the tests, a step that did not help called the fix, a
command substitution taken apart, the staging before a gated commit named as what failed, a
dependency's code generator read as the app (`bench/wrong_traps.py` runs them).

Each trap comes from a made-up one-session probe that stated the wrong fact; its `wrong`
patterns were written from that probe's expectations, before the rules were changed.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

LINT_SESSION_NOT_TESTS = Trap(
    "lint-session-not-tests",
    "Python",
    "the tests need an extra (`uv run --extra test pytest`); a session runner is run for lint only",
    (
        Session(
            "codex",
            "/home/se/code/glyphset",
            (
                Ask("Add a property test for the glyph width table and run the tests and lint."),
                Read(
                    "pyproject.toml",
                    '[project]\nname = "glyphset"\n[project.optional-dependencies]\ntest = ["pytest", "hypothesis"]\n',
                ),
                Write(
                    "tests/test_width.py",
                    "from hypothesis import given, strategies as st\n@given(st.characters())\ndef test_width(c): assert width(c) in (0, 1, 2)\n",
                ),
                Run(
                    "uv run pytest",
                    "ImportError while importing test module '/home/se/code/glyphset/tests/test_width.py'.\nE   ModuleNotFoundError: No module named 'hypothesis'\n=========================== short test summary info ============================\nERROR tests/test_width.py\n1 error in 0.21s",
                    2,
                ),
                Say("hypothesis lives in the `test` extra, which plain `uv run` doesn't install."),
                Run(
                    "uv run --extra test pytest",
                    "collected 31 items\ntests/test_width.py .\n============================== 31 passed in 1.92s ==============================",
                ),
                Run(
                    "uv run nox -s lint",
                    "nox > Running session lint\nnox > ruff check src tests\nAll checks passed!\nnox > Session lint was successful in 1 seconds.",
                ),
                Say("Property test added; 31 tests pass and lint is clean."),
            ),
        ),
    ),
    wrong=(
        (
            r"(?:run the tests|tests run with)[^.\n]{0,20}nox -s lint",
            "`nox -s lint` runs the lint session, not the tests",
        ),
        (r"`uv run`\s*(?:→|$|\.)", "`uv run` alone is no step"),
    ),
    may=(r"--extra test",),
)

UPDATE_DID_NOT_FIX = Trap(
    "update-did-not-fix",
    "Haskell",
    "a package index update between two failures of another wording; a flag fixes the build",
    (
        Session(
            "codex",
            "/home/pk/code/hextile",
            (
                Ask("Add a `neighbours` function to Hex.Grid, then format with ormolu and build."),
                Write(
                    "src/Hex/Grid.hs",
                    "module Hex.Grid where\nneighbours :: (Int, Int) -> [(Int, Int)]\nneighbours (q, r) = [(q+1,r),(q-1,r)]\n",
                ),
                Run(
                    "cabal build",
                    "Resolving dependencies...\nError: cabal: Could not resolve dependencies:\n[__0] trying: hextile-0.1.0.0 (user goal)\n[__1] next goal: base (dependency of hextile)\n[__1] rejecting: base-4.19.1.0/installed-4.19.1.0 (conflict: hextile => base>=4.14 && <4.19)",
                    1,
                ),
                Run(
                    "cabal update",
                    "Downloading the latest package list from hackage.haskell.org\nPackage list of hackage.haskell.org has been updated.",
                ),
                Run(
                    "cabal build",
                    "Resolving dependencies...\nError: cabal: Could not resolve dependencies:\n[__1] rejecting: base-4.19.1.0/installed-4.19.1.0 (conflict: hextile => base>=4.14 && <4.19)",
                    1,
                ),
                Say(
                    "The installed GHC ships base 4.19, above the upper bound; `--allow-newer` relaxes it."
                ),
                Run(
                    "cabal build --allow-newer",
                    "Building library for hextile-0.1.0.0..\n[2 of 2] Compiling Hex.Grid",
                ),
                Run("ormolu --mode inplace $(git ls-files '*.hs')", ""),
                Run("cabal build --allow-newer", "Up to date"),
                Say("Added neighbours; formatted and built."),
            ),
        ),
    ),
    wrong=(
        (
            r"cabal update.{0,40}(?:fixed|worked)",
            "`cabal update` ran before the build failed again: it fixed nothing",
        ),
        (r"'\$'|\$ git ls-files", "the command substitution was taken apart"),
    ),
    may=(r"--allow-newer",),
)

_HOOKS = (
    "ruff.....................................................................Failed\n- hook id: ruff\n- exit code: 1\n\ntallyho/report.py:3:1: F401 [*] `os` imported but unused\nFound 1 error.\n\n"
    'mypy.....................................................................Failed\n- hook id: mypy\n- exit code: 1\n\ntallyho/report.py:9: error: Incompatible return value type (got "str | None", expected "str")  [return-value]\n\n'
    "end-of-file-fixer........................................................Passed"
)

STAGING_NOT_THE_GATE = Trap(
    "staging-not-the-gate",
    "Python",
    "`git add -A && git commit` stopped by pre-commit hooks: the commit failed, not the staging",
    (
        Session(
            "claude",
            "/home/fe/src/tallyho",
            (
                Ask("Add a monthly report function and commit it."),
                Write(
                    "tallyho/report.py",
                    "import os\nfrom typing import Optional\n\ndef title(m: Optional[str]) -> str:\n    return m\n",
                ),
                Run("git add -A && git commit -m 'Monthly report'", _HOOKS, 1),
                Run("uv run ruff check --fix", "Found 1 error (1 fixed, 0 remaining)."),
                Write(
                    "tallyho/report.py",
                    'from typing import Optional\n\n\ndef title(m: Optional[str]) -> str:\n    return m or ""\n',
                ),
                Run("uv run mypy tallyho", "Success: no issues found in 13 source files"),
                Run(
                    "git add -A && git commit -m 'Monthly report'",
                    "ruff.....................................................................Passed\nmypy.....................................................................Passed\n[main 8c9d0e1] Monthly report",
                ),
                Say("Committed after fixing the unused import and the mypy return type."),
            ),
        ),
    ),
    wrong=((r"`git add -A` failed", "the staging passed; the commit's hooks failed"),),
    may=(r"Commits run checks",),
)

GENERATOR_NOT_THE_APP = Trap(
    "generator-not-the-app",
    "Dart",
    "a dependency's code generator run through `dart run` is not how the app runs",
    (
        Session(
            "claude",
            "/home/li/apps/kelpie",
            (
                Ask("Add a createdAt timestamp to the Tide model."),
                Write(
                    "lib/models/tide.dart",
                    "part 'tide.g.dart';\n@JsonSerializable()\nclass Tide { final DateTime createdAt; Tide(this.createdAt); }\n",
                ),
                Run(
                    "dart run build_runner build --delete-conflicting-outputs",
                    "[INFO] Succeeded after 5.8s with 2 outputs (7 actions)",
                ),
                Run("flutter test", "00:04 +11: All tests passed!"),
                Say("Added createdAt and regenerated the serialization code; tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"run the app[^.\n]{0,20}build_runner",
            "build_runner generates code; it does not run the app",
        ),
    ),
    may=(r"flutter test",),
)

CASES = (LINT_SESSION_NOT_TESTS, UPDATE_DID_NOT_FIX, STAGING_NOT_THE_GATE, GENERATOR_NOT_THE_APP)
