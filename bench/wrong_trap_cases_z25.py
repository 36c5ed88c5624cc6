# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z25`: what a short session's closing report or a manifest read could
be taken to say wrongly, beside sessions where the same rules must still fire
(`bench/wrong_traps.py` runs them):

- a Go package pattern (`./...`) in a report or a README: the command a report says failed in
  a package, or a README says not to run directly;
- a report whose failure words are negated in part ("none failing in `src/`, but …", "compiles
  without errors, but 3 tests fail"), or whose clean lint result is a thing still to do ("make
  sure it reports no offenses") or another checkout's;
- a `.csproj` read under a side folder of a project in another language;
- a README's sentence that runs a command no heading or word of it names the role of, about
  how the project was tested before it moved on.

Written blind, before any rule for them and before any of them ran.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Lost, Read, Run, Say, Trap, one_session

GO_PACKAGE_FAILED = Trap(
    "go-package-pattern-report-says-one-package-fails",
    "Go",
    "`go test ./...` fails in one package; the report says it passes in every package but that one",
    one_session(
        "/home/ida/src/courier",
        Ask("Run the tests and tell me what's broken."),
        Run(
            "go test ./...",
            "ok  \tgithub.com/ida/courier/cmd/courier\t0.010s\n--- FAIL: TestRoute (0.00s)\n    route_test.go:18: got /a, want /b\nFAIL\nFAIL\tgithub.com/ida/courier/internal/route\t0.004s\nFAIL\n",
            1,
        ),
        Say(
            "`go test ./...` passes in every package except `internal/route`, where `TestRoute` expects `/b` and gets `/a`. `go vet ./...` is clean."
        ),
        host="codex",
    ),
    wrong=(
        (
            r"reported passing[^\n]*`go test \./\.\.\.`|`go test \./\.\.\.`[^\n]{0,60}\b(?:passes|passed|worked)\b",
            "the run failed in internal/route",
        ),
    ),
    may=(r"go vet \./\.\.\.",),
)

GO_README_NOT_DIRECTLY = Trap(
    "go-readme-says-not-to-run-the-package-pattern-directly",
    "Go",
    "the README says not to run `go test ./...` directly but `make test`, which starts the database",
    one_session(
        "/home/jon/src/ledgerd",
        Ask("How do I run the tests here?"),
        Run("ls", "Makefile\nREADME.md\ncmd\ngo.mod\ngo.sum\ninternal\n"),
        Read(
            "README.md",
            "# ledgerd\n\nA double-entry ledger service in Go.\n\n## Testing\n\nDon't run `go test ./...` directly: the store tests need Postgres. Run `make test`, which starts the database in Docker first and then runs the tests.\n",
        ),
        Say("Use `make test`; it starts Postgres in Docker before running the tests."),
    ),
    wrong=(
        (
            r"(?:to run the tests|tests? (?:are )?run)[^\n]{0,40}`go test \./\.\.\.`",
            "the README says not to run it directly",
        ),
    ),
    may=(r"make test",),
)

NONE_FAILING_BUT = Trap(
    "report-none-failing-in-part-but-one-spec-fails",
    "TypeScript/npm",
    "the report says none failing in `src/`, but an e2e spec fails; the run's result is cut",
    one_session(
        "/home/kim/src/storefront",
        Ask("Run the whole test suite."),
        Run("git status --short", ""),
        Lost("npm test"),
        Say(
            "`npm test`: none failing in `src/`, but `e2e/checkout.spec.ts` fails on the payment step (the sandbox card is declined)."
        ),
    ),
    wrong=((r"reported passing[^\n]*`npm test`", "an e2e spec failed"),),
)

WITHOUT_ERRORS_BUT = Trap(
    "report-compiles-without-errors-but-tests-fail",
    "Rust",
    "the report says `cargo test` compiles without errors, but three tests fail; the run is cut",
    one_session(
        "/home/lou/code/brine",
        Ask("Does the test suite pass after the serde bump?"),
        Run("git log --oneline -2", "9c1e2d0 Bump serde to 1.0.210\n41aa7f3 Add roundtrip tests\n"),
        Lost("cargo test"),
        Say(
            "`cargo test` compiles without errors, but 3 tests fail: the `roundtrip_*` tests now see `null` where they expected a missing field."
        ),
        host="codex",
    ),
    wrong=((r"reported passing[^\n]*`cargo test`", "three tests failed"),),
)

LINT_STILL_TO_DO = Trap(
    "lint-clean-result-is-a-thing-to-do",
    "Ruby",
    "the assistant tells the user to run rubocop and make sure it reports no offenses; nothing ran",
    one_session(
        "/home/max/work/ledger",
        Ask("I fixed the style issues by hand. Anything else before I push?"),
        Run(
            "git diff --stat",
            " app/models/entry.rb | 6 +++---\n 1 file changed, 3 insertions(+), 3 deletions(-)\n",
        ),
        Say(
            "Run `bundle exec rubocop` and make sure it reports no offenses before pushing. The specs don't need a rerun for a style-only change."
        ),
    ),
    wrong=((r"reported passing[^\n]*rubocop", "nothing ran; the user is to run it"),),
)

LINT_OTHER_CHECKOUT = Trap(
    "lint-clean-in-another-checkout",
    "TypeScript/pnpm",
    "the report's clean lint is of a sibling checkout (`../shared-ui`)",
    one_session(
        "/home/nia/src/portal",
        Ask("Is the shared UI package clean? We vendor it next door."),
        Run("ls ..", "portal\nshared-ui\n"),
        Lost("cd ../shared-ui && pnpm lint"),
        Say(
            "In `../shared-ui`, `pnpm lint` reports 0 problems and `pnpm typecheck` finds no errors."
        ),
    ),
    wrong=((r"`pnpm (?:lint|typecheck)`", "that is the sibling checkout's, not this project's"),),
)

CSPROJ_SIDE_FOLDER = Trap(
    "csproj-under-a-side-folder-of-a-python-project",
    "Python",
    "a Python project's Windows helper under `tools/` has its own `.csproj`; it is read",
    one_session(
        "/home/oli/src/tracer",
        Ask("What does the Windows helper under tools/ do?"),
        Run("ls", "README.md\npyproject.toml\nsrc\ntests\ntools\n"),
        Read(
            "tools/WinHelper/WinHelper.csproj",
            '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n    <TargetFramework>net8.0-windows</TargetFramework>\n  </PropertyGroup>\n</Project>\n',
        ),
        Edit(
            "tools/WinHelper/Program.cs", "// TODO", "// Reads ETW events and prints them as JSON"
        ),
        Say(
            "It's a small .NET 8 console program that reads ETW events on Windows and prints them as JSON for the Python tracer to consume."
        ),
    ),
    wrong=(
        (
            r"(?:project|written)[^\n]{0,40}\bC#|\bC#[^\n]{0,30}\bproject\b|\.NET (?:project|solution)",
            "the project is Python; the .csproj is a helper's under tools/",
        ),
    ),
    may=(r"\bPython\b",),
)

README_HISTORY = Trap(
    "readme-sentence-runs-a-command-the-project-left",
    "JavaScript/npm",
    "a README's history section says the suite used to run with `grunt test`; `npm test` runs it now",
    one_session(
        "/home/pat/src/almanac",
        Ask("Quick question: how are the tests run in this repo?"),
        Run("ls", "README.md\nGruntfile.js.old\npackage.json\nsrc\ntest\n"),
        Read(
            "README.md",
            "# almanac\n\nA calendar widget.\n\n## History\n\nUntil 2023 you had to run `grunt test` before each release, from the old Gruntfile.\n\n## Checks\n\nThe suite now runs with `npm test` (Vitest).\n",
        ),
        Say("`npm test` runs the Vitest suite; the Grunt setup is gone."),
    ),
    wrong=((r"`grunt test`", "the project left Grunt; `npm test` runs the tests now"),),
    may=(r"npm test",),
)

CASES: tuple[Trap, ...] = (
    GO_PACKAGE_FAILED,
    GO_README_NOT_DIRECTLY,
    NONE_FAILING_BUT,
    WITHOUT_ERRORS_BUT,
    LINT_STILL_TO_DO,
    LINT_OTHER_CHECKOUT,
    CSPROJ_SIDE_FOLDER,
    README_HISTORY,
)
