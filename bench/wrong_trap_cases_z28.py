# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z28`: small readings that lose or change what was said or run, each
written in several ecosystems, hosts and wordings (`bench/wrong_traps.py` runs them), beside
sessions where the same rules must still fire:

- a test or check run on one package, one folder or some tests by name kept as the project's
  command without the part that says what it ran over (`go test ./internal/zone -run X` as a
  bare `go test`, which tests only the current folder's package), or with a filter of names
  kept as if it were the command (`cargo test -p zone-core parse_`);
- a ban on changing anything at all, said for the task at hand ("Don't modify any files."),
  kept as the user's habit, even a tentative one;
- a list of work still to do in a closing report ("**Required changes:** 1. Complete `x` or
  defer it"), its items opening with a verb no list of instructions knows, kept as a statement
  about the code;
- a CMake project that declares its languages (`project(x LANGUAGES C)`, `project(x C)`,
  `LANGUAGES CXX`, `LANGUAGES C CXX`) said to be "C/C++"; a project file of another .NET
  language (`.fsproj`) said to be C#.

Written blind, before any rule for them and before any of them ran.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

# -- a run over one package or some tests, kept as the whole project's command ---------------

#: A bare `go test` (or with output options only) stated as the project's way to run its tests:
#: in Go it tests the current folder's package only.
_BARE_GO_TEST = r"`go test(?: -v| -count=1| -race)*`"

GO_ONE_PACKAGE_RUN = Trap(
    "go-one-package-run-kept-as-bare-go-test",
    "Go",
    "only `go test ./internal/zone -run TestParseZone` ran; a bare `go test` tests the root package",
    one_session(
        "/home/ada/src/dnsbox",
        Ask("TestParseZone is flaky on my machine, can you look?"),
        Read(
            "internal/zone/parse_test.go",
            'package zone\n\nimport "testing"\n\nfunc TestParseZone(t *testing.T) {\n\tz, err := Parse("example.org.zone")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\t_ = z\n}\n',
        ),
        Run(
            "go test ./internal/zone -run TestParseZone -count=1",
            "ok  \tgithub.com/ada/dnsbox/internal/zone\t0.012s\n",
        ),
        Say("`TestParseZone` passes 1 of 1 here; the flake is likely the temp dir on your side."),
    ),
    wrong=((_BARE_GO_TEST, "only one package's test ran; a bare `go test` tests the root's"),),
    may=(r"go test \./internal/zone",),
)

GO_OPTIONS_BEFORE_PACKAGE = Trap(
    "go-options-before-the-package-kept-as-bare-go-test",
    "Go",
    "`go test -v -run TestRoute ./internal/route` (options before the package) and `go test -race ./internal/route` ran",
    one_session(
        "/home/bo/code/courier",
        Ask("Fix the route matching for trailing slashes."),
        Read(
            "internal/route/route.go",
            'package route\n\nimport "strings"\n\nfunc Match(p, path string) bool {\n\treturn p == path\n}\n\nvar _ = strings.TrimSuffix\n',
        ),
        Edit(
            "internal/route/route.go",
            "\treturn p == path",
            '\treturn strings.TrimSuffix(p, "/") == strings.TrimSuffix(path, "/")',
        ),
        Run(
            "go test -v -run TestRoute ./internal/route",
            "=== RUN   TestRoute\n--- PASS: TestRoute (0.00s)\nPASS\nok  \tgithub.com/bo/courier/internal/route\t0.004s\n",
        ),
        Run(
            "go test -race ./internal/route", "ok  \tgithub.com/bo/courier/internal/route\t1.020s\n"
        ),
        Say("Trailing slashes now match; the route tests pass, with `-race` too."),
        host="codex",
    ),
    wrong=((_BARE_GO_TEST, "the runs covered one package; a bare `go test` tests the root's"),),
)

GO_VET_ONE_PACKAGE = Trap(
    "go-vet-of-one-package-kept-as-bare-go-vet",
    "Go",
    "`go vet ./pkg/wire` ran in two sessions; a bare `go vet` vets the root package only",
    (
        *one_session(
            "/home/cy/src/wirekit",
            Ask("Run vet on the wire package."),
            Run("go vet ./pkg/wire", ""),
            Say("`go vet ./pkg/wire` is clean."),
        ),
        *one_session(
            "/home/cy/src/wirekit",
            Ask("I touched pkg/wire/frame.go, vet it again please."),
            Run("go vet ./pkg/wire", ""),
            Say("Still clean."),
        ),
    ),
    wrong=((r"`go vet`", "only one package was vetted; a bare `go vet` vets the root's"),),
)

GO_IN_PACKAGE_FOLDER = Trap(
    "go-test-run-inside-the-package-folder",
    "Go",
    "`cd internal/cache && go test` ran: in that folder a bare `go test` is right, said of that folder",
    one_session(
        "/home/di/src/tilecache",
        Ask("Do the cache tests pass?"),
        Run(
            "cd internal/cache && go test",
            "PASS\nok  \tgithub.com/di/tilecache/internal/cache\t0.031s\n",
        ),
        Say("Yes, the cache package's tests pass."),
    ),
    wrong=(
        (
            r"^(?!(?:- )?In `internal/cache/`)[^\n]*`go test`",
            "a bare `go test` ran inside internal/cache; said of the root it tests another package",
        ),
    ),
    may=(r"internal/cache",),
)

GO_WHOLE_TREE = Trap(
    "go-whole-tree-run-stays-whole",
    "Go",
    "`go test -race ./...` ran: the whole tree's command, stated whole",
    one_session(
        "/home/ed/src/pollster",
        Ask("Run all the tests with the race detector."),
        Run(
            "go test -race ./...",
            "ok  \tgithub.com/ed/pollster/cmd/pollster\t1.110s\nok  \tgithub.com/ed/pollster/internal/poll\t1.402s\n",
        ),
        Say("Everything passes under `-race`."),
    ),
    wrong=((_BARE_GO_TEST, "the run covered every package (`./...`)"),),
    may=(r"go test -race \./\.\.\.",),
)

CARGO_PACKAGE_AND_NAME = Trap(
    "cargo-test-package-and-name-filter-kept-as-the-command",
    "Rust",
    "`cargo test -p zone-core parse_` ran (one crate, tests whose names hold `parse_`); the filter is no part of the project's command",
    one_session(
        "/home/fi/code/zonefile",
        Ask("Fix the parser bug with $ORIGIN lines."),
        Read(
            "Cargo.toml",
            '[workspace]\nmembers = ["crates/zone-core", "crates/zone-cli"]\nresolver = "2"\n',
        ),
        Edit(
            "crates/zone-core/src/parse.rs",
            'if line.starts_with("$ORIGIN")',
            'if line.trim_start().starts_with("$ORIGIN")',
        ),
        Run(
            "cargo test -p zone-core parse_",
            "   Compiling zone-core v0.3.0\n    Finished test [unoptimized + debuginfo] target(s) in 2.10s\n     Running unittests src/lib.rs\n\nrunning 4 tests\ntest parse::tests::parse_origin ... ok\ntest parse::tests::parse_ttl ... ok\ntest parse::tests::parse_soa ... ok\ntest parse::tests::parse_comment ... ok\n\ntest result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 11 filtered out\n",
        ),
        Say("Indented `$ORIGIN` lines parse now; the `parse_` tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"(?:tests?|package)[^\n`]*: `cargo test -p zone-core parse_`",
            "`parse_` picked some tests by name: that run is an example, not the way to run the tests",
        ),
    ),
)

PYTEST_FOLDER_AND_K = Trap(
    "pytest-folder-and-k-expression-kept-as-the-command",
    "Python",
    "`pytest tests/unit -k 'ledger and not slow'` ran; the folder and expression are no part of the project's command",
    one_session(
        "/home/gus/src/booksy",
        Ask("the ledger rounding is off by a cent, fix it"),
        Read(
            "pyproject.toml",
            '[project]\nname = "booksy"\nversion = "0.4.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        ),
        Edit(
            "src/booksy/ledger.py",
            "return round(total, 2)",
            "return total.quantize(CENT, ROUND_HALF_UP)",
        ),
        Run(
            "pytest tests/unit -k 'ledger and not slow'",
            "============================= test session starts ==============================\ncollected 212 items / 198 deselected / 14 selected\n\ntests/unit/test_ledger.py ..............                                  [100%]\n\n====================== 14 passed, 198 deselected in 0.41s ======================\n",
        ),
        Say("Rounding is half-up on `Decimal` now; the 14 ledger tests pass."),
    ),
    wrong=(
        (
            r"(?:tests?)[^\n`]*: `pytest tests/unit -k",
            "a folder and a `-k` expression picked 14 tests: an example, not the way to run the tests",
        ),
    ),
)

NPM_TEST_ONE_FILE = Trap(
    "npm-test-one-file-kept-as-the-command",
    "TypeScript/npm",
    "`npm test -- src/cart.test.ts` ran; the file is no part of the project's command",
    one_session(
        "/home/hal/src/shopfront",
        Ask("the cart total test fails after my change, can you fix it?"),
        Read(
            "package.json",
            '{\n  "name": "shopfront",\n  "scripts": {\n    "test": "vitest run"\n  }\n}\n',
        ),
        Edit("src/cart.ts", "return items.length", "return items.reduce((n, i) => n + i.qty, 0)"),
        Run(
            "npm test -- src/cart.test.ts",
            "\n> shopfront@1.0.0 test\n> vitest run src/cart.test.ts\n\n ✓ src/cart.test.ts (6 tests) 12ms\n\n Test Files  1 passed (1)\n      Tests  6 passed (6)\n",
        ),
        Say("The total counts quantities again; `src/cart.test.ts` passes."),
        host="gemini",
    ),
    wrong=(
        (
            r"(?:tests?)[^\n`]*: `npm test -- src/cart\.test\.ts`",
            "one file's tests ran: an example, not the way to run the tests",
        ),
    ),
)

# -- a ban on changing anything, for the task at hand ----------------------------------------

_NO_CHANGES = (
    r"(?:modify|change|edit|touch|write to) (?:any|anything|no)\b|don'?t (?:modify|change|edit|touch)\b(?! \w+ (?:in|under|outside)\b)",
    "a ban on changing anything, said for the task at hand, is no habit",
)

NO_CHANGES_ALONE = Trap(
    "dont-modify-any-files-said-alone",
    "Python",
    "the user asks a question, then says only 'Don't modify any files.' in its own message",
    one_session(
        "/home/ivy/src/parsekit",
        Ask("Why does the tokenizer drop the last line of a file without a trailing newline?"),
        Say("Let me look at the tokenizer first."),
        Ask("Don't modify any files."),
        Run("grep -rn 'def lines' src", "src/parsekit/tokenizer.py:1:def lines(text):\n"),
        Read(
            "src/parsekit/tokenizer.py",
            "def lines(text):\n    return text.split('\\n')[:-1]\n",
        ),
        Say(
            "`lines` drops the last element of the split, which is the last line when the text has no trailing newline."
        ),
    ),
    wrong=(_NO_CHANGES,),
)

NO_CHANGES_OPENING = Trap(
    "do-not-change-any-code-opening-a-session",
    "Go",
    "the session opens with 'Do not change any code.' and then a question in a second message",
    one_session(
        "/home/jo/src/relay",
        Ask("Do not change any code."),
        Say("Understood, I'll only read."),
        Ask("How does the retry loop in internal/relay/send.go back off?"),
        Run("grep -n backoff internal/relay/send.go", "3:func backoff(n int) time.Duration {\n"),
        Read(
            "internal/relay/send.go",
            "package relay\n\nfunc backoff(n int) time.Duration {\n\treturn time.Duration(1<<n) * 100 * time.Millisecond\n}\n",
        ),
        Say("It doubles from 100ms: `backoff(n)` is `100ms << n`."),
        host="codex",
    ),
    wrong=(_NO_CHANGES,),
)

NO_CHANGES_LOWER = Trap(
    "dont-touch-anything-lower-case",
    "TypeScript/pnpm",
    "'dont touch anything yet' said as a message of its own while the user reviews",
    one_session(
        "/home/kai/src/dashy",
        Ask("what would it take to move the charts to echarts?"),
        Say("I'll look at how the charts are built."),
        Ask("dont touch anything yet"),
        Run(
            "grep -rln chart.js src",
            "src/charts/Line.tsx\nsrc/charts/Bar.tsx\nsrc/charts/Pie.tsx\n",
        ),
        Read(
            "package.json",
            '{\n  "name": "dashy",\n  "dependencies": {\n    "chart.js": "^4.4.0"\n  }\n}\n',
        ),
        Say("Three components import `chart.js` directly; each would need its options rewritten."),
    ),
    wrong=(_NO_CHANGES,),
)

NO_MOCKS_EVER = Trap(
    "no-mocks-in-integration-tests-ever",
    "Python",
    "the user says 'no mocks in the integration tests, ever': a standing rule; nothing wrong may be said of it",
    one_session(
        "/home/lu/src/payroll",
        Ask(
            "Add an integration test for the payslip export. no mocks in the integration tests, ever."
        ),
        Edit(
            "tests/integration/test_export.py",
            "# TODO",
            "def test_payslip_export(db):\n    assert export(db, month=3).rows\n",
        ),
        Run("pytest tests/integration/test_export.py", "1 passed in 0.52s\n"),
        Say("Added `test_payslip_export`, against the real test database."),
    ),
    wrong=(
        (
            r"\b(?:use|allow|with) mocks?\b(?<!no mocks)|mocks? (?:are|is) (?:fine|ok|allowed)",
            "the user bans mocks there; nothing may say to use them",
        ),
    ),
    may=(r"no mocks in the integration tests|never[^\n]*mock",),
)

# -- a closing report's list of work still to do ----------------------------------------------

_TO_DO_KEPT = (
    r"Closing report[^\n]*: (?:Complete|Finish|Finalize|Resolve|Document|Clarify|Mark|Decide|Address|Verify)\b",
    "an item of work still to do, not a statement about the code",
)

TS_NEXT_STEPS = Trap(
    "closing-report-next-steps-list-kept-as-statements",
    "TypeScript/npm",
    "a review's reply ends with required changes before implementation, each an item to do",
    one_session(
        "/home/tia/src/queueworks",
        Ask("Review the retry spec in docs/retry.md against the code and tell me if it's ready."),
        Read(
            "src/retry.ts",
            "export const FLUSH_INTERVAL = 500;\nexport function retryQueue(q: Job[]) {\n  // TODO\n}\n",
        ),
        Run("grep -rn FLUSH_INTERVAL src", "src/retry.ts:1:export const FLUSH_INTERVAL = 500;\n"),
        Say(
            "The spec is mostly ready.\n\n**Required changes before implementation:**\n\n1. **[backend]** Complete `retryQueue` handling or mark it as phase 2\n2. **[docs]** Document why `FLUSH_INTERVAL` is `500`\n3. Clarify whether `retryQueue` keeps job order"
        ),
    ),
    wrong=(_TO_DO_KEPT,),
)

PY_REMAINING_WORK = Trap(
    "closing-report-remaining-work-kept-as-statements",
    "Python",
    "a reply lists remaining work under a heading; each item opens with a verb",
    one_session(
        "/home/uma/src/ledgerline",
        Ask("What's left before we can ship the CSV export?"),
        Read(
            "ledgerline/export.py",
            "def export_csv(rows, page_size=None):\n    raise NotImplementedError\n",
        ),
        Run("pytest tests/test_export.py -q", "1 failed in 0.10s\n", 1),
        Say(
            "## Remaining work\n\n- Finish `export_csv` pagination or drop `page_size` from the release\n- Resolve the failing `test_export_header` before merge\n- Decide whether `export_csv` streams or buffers"
        ),
        host="codex",
    ),
    wrong=(_TO_DO_KEPT,),
)

GO_ACTION_ITEMS = Trap(
    "closing-report-action-items-kept-as-statements",
    "Go",
    "a reply's action items, each a thing to do, after a look at the code",
    one_session(
        "/home/vic/src/kvstore",
        Ask("Look over the compaction code and tell me what needs doing."),
        Read(
            "internal/store/compact.go",
            "package store\n\nfunc (s *Store) Compact() error {\n\treturn nil\n}\n",
        ),
        Run("go vet ./internal/store", ""),
        Say(
            "Action items:\n- Complete `Store.Compact` error handling before the release\n- Verify `Store.Compact` holds the write lock\n- Address the unchecked error from `os.Rename` in `Store.Compact`"
        ),
        host="gemini",
    ),
    wrong=(_TO_DO_KEPT,),
)

RUST_STATEMENT_STAYS = Trap(
    "closing-report-statement-beside-a-to-do-stays",
    "Rust",
    "a report states how the code is, then lists what to do next: the statement may stay",
    one_session(
        "/home/wes/code/tilecache",
        Ask("How does the cache evict entries?"),
        Read(
            "src/cache.rs",
            "pub struct Cache { lru: LruList }\nimpl Cache {\n    pub fn evict(&mut self) { self.lru.pop_back(); }\n}\n",
        ),
        Run("cargo check", "    Finished dev [unoptimized + debuginfo] target(s) in 0.40s\n"),
        Say(
            "- `Cache::evict` drops the tail of `LruList`, the least recently used entry.\n\n**Next steps:**\n- Complete `Cache::evict` metrics or leave them for later"
        ),
    ),
    wrong=(_TO_DO_KEPT,),
    may=(r"`Cache::evict` drops the tail of `LruList`",),
)

# -- a CMake project's declared languages, a .NET project's language ------------------------

_CMAKE_HEDGE = (r"C/C\+\+", "the project declares its languages; the hedge says less or more")

CMAKE_LANGUAGES_C = Trap(
    "cmake-project-declares-languages-c",
    "C/CMake",
    "`project(tinyhttp LANGUAGES C)` read; configure, build and ctest pass: the project is C",
    one_session(
        "/home/mo/src/tinyhttp",
        Ask("Build it and run the tests."),
        Read(
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.20)\nproject(tinyhttp VERSION 0.2.0 LANGUAGES C)\n\nset(CMAKE_C_STANDARD 11)\nadd_library(tinyhttp src/http.c src/parse.c)\nenable_testing()\nadd_executable(test_parse tests/test_parse.c)\ntarget_link_libraries(test_parse tinyhttp)\nadd_test(NAME parse COMMAND test_parse)\n",
        ),
        Run(
            "cmake -S . -B build",
            "-- The C compiler identification is GNU 13.2.0\n-- Configuring done\n-- Generating done\n",
        ),
        Run("cmake --build build", "[100%] Built target test_parse\n"),
        Run(
            "ctest --test-dir build",
            "1/1 Test #1: parse ............................   Passed    0.01 sec\n\n100% tests passed, 0 tests failed out of 1\n",
        ),
        Say("Builds cleanly and the one ctest passes."),
    ),
    wrong=(_CMAKE_HEDGE,),
    may=(r"\bC\b(?!\+\+|/|#)",),
)

CMAKE_BARE_C = Trap(
    "cmake-project-declares-c-without-the-keyword",
    "C/CMake",
    "`project(ringbuf C)` (the languages without the LANGUAGES keyword) read: the project is C",
    one_session(
        "/home/nell/code/ringbuf",
        Ask("what is this project written in and how do I build it?"),
        Read(
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.16)\nproject(ringbuf C)\nadd_library(ringbuf ringbuf.c)\n",
        ),
        Run("ls", "CMakeLists.txt\nREADME.md\nringbuf.c\nringbuf.h\n"),
        Say("It's a small C library; build it with `cmake -S . -B build && cmake --build build`."),
        host="codex",
    ),
    wrong=(_CMAKE_HEDGE,),
)

CMAKE_LANGUAGES_CXX = Trap(
    "cmake-project-declares-languages-cxx",
    "C++/CMake",
    "`project(meshkit LANGUAGES CXX)` read and built: the project is C++",
    one_session(
        "/home/ola/src/meshkit",
        Ask("Build the project."),
        Read(
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.22)\nproject(meshkit LANGUAGES CXX)\nset(CMAKE_CXX_STANDARD 20)\nadd_library(meshkit src/mesh.cpp src/io.cpp)\n",
        ),
        Run("cmake -S . -B build && cmake --build build", "[100%] Built target meshkit\n"),
        Say("It builds."),
    ),
    wrong=(_CMAKE_HEDGE, (r"written in C\b(?!\+\+)", "the project is C++")),
    may=(r"C\+\+",),
)

CMAKE_LANGUAGES_BOTH = Trap(
    "cmake-project-declares-languages-c-and-cxx",
    "C and C++/CMake",
    "`project(audiox LANGUAGES C CXX)` read: both languages, stated as both",
    one_session(
        "/home/pia/src/audiox",
        Ask("Configure and build it please."),
        Read(
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.24)\nproject(audiox VERSION 1.0 LANGUAGES C CXX)\nadd_library(codec STATIC codec/codec.c)\nadd_executable(audiox app/main.cpp)\ntarget_link_libraries(audiox codec)\n",
        ),
        Run("cmake -S . -B build", "-- Configuring done\n-- Generating done\n"),
        Run("cmake --build build", "[100%] Built target audiox\n"),
        Say("Configured and built."),
        host="gemini",
    ),
    wrong=(_CMAKE_HEDGE,),
)

FSPROJ_BESIDE_SLN = Trap(
    "fsproj-under-src-beside-a-root-sln",
    "F#/.NET",
    "a root `.sln` and an `.fsproj` under src/ read; `dotnet build` passes: the project is F#, not C#",
    one_session(
        "/home/quin/src/Tally",
        Ask("Does it build?"),
        Run("ls", "README.md\nTally.sln\nsrc\ntests\n"),
        Read(
            "src/Tally.Core/Tally.Core.fsproj",
            '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n  <ItemGroup>\n    <Compile Include="Ledger.fs" />\n  </ItemGroup>\n</Project>\n',
        ),
        Run(
            "dotnet build",
            "  Tally.Core -> /home/quin/src/Tally/src/Tally.Core/bin/Debug/net8.0/Tally.Core.dll\n\nBuild succeeded.\n    0 Warning(s)\n    0 Error(s)\n",
        ),
        Say("Yes, `dotnet build` succeeds with no warnings."),
    ),
    wrong=((r"\bC#", "the project file is F#'s"),),
)

CSPROJ_BESIDE_SLN = Trap(
    "csproj-under-src-beside-a-root-sln",
    "C#/.NET",
    "a root `.sln` and a `.csproj` under src/ read; `dotnet test` passes: the project is C#",
    one_session(
        "/home/rui/src/Inventory",
        Ask("Run the tests."),
        Run("ls", "Inventory.sln\nREADME.md\nsrc\ntests\n"),
        Read(
            "src/Inventory.Api/Inventory.Api.csproj",
            '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n  </PropertyGroup>\n</Project>\n',
        ),
        Run(
            "dotnet test",
            "Passed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, Duration: 1 s - Inventory.Tests.dll (net8.0)\n",
        ),
        Say("All 42 tests pass."),
        host="codex",
    ),
    wrong=((r"\b(?:F#|Visual Basic|C/C\+\+)", "the project file is C#'s"),),
    may=(r"C#",),
)

CASES: tuple[Trap, ...] = (
    GO_ONE_PACKAGE_RUN,
    GO_OPTIONS_BEFORE_PACKAGE,
    GO_VET_ONE_PACKAGE,
    GO_IN_PACKAGE_FOLDER,
    GO_WHOLE_TREE,
    CARGO_PACKAGE_AND_NAME,
    PYTEST_FOLDER_AND_K,
    NPM_TEST_ONE_FILE,
    NO_CHANGES_ALONE,
    NO_CHANGES_OPENING,
    NO_CHANGES_LOWER,
    NO_MOCKS_EVER,
    TS_NEXT_STEPS,
    PY_REMAINING_WORK,
    GO_ACTION_ITEMS,
    RUST_STATEMENT_STAYS,
    CMAKE_LANGUAGES_C,
    CMAKE_BARE_C,
    CMAKE_LANGUAGES_CXX,
    CMAKE_LANGUAGES_BOTH,
    FSPROJ_BESIDE_SLN,
    CSPROJ_BESIDE_SLN,
)
