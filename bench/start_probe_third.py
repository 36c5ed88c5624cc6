"""The session-start probe's third batch (`bench/start_probe_set.py` says what a project holds),
written after the rules it tests were committed and before they ran on it: commands and
wordings in the shapes real sessions take (a build chained before the tests, a silent runner, a
piped run, a runner no table names, a soft or corrective wording, a rule in the opening
request)."""

from __future__ import annotations

from bench.start_probe_types import Probe

CMAKE = Probe(
    "geom",
    "C++ (CMake, ctest)",
    "`cmake --build build && ctest --test-dir build` fails then passes; a soft preference, "
    "said again later in other words",
    "/home/dev/src/geom",
    (
        (
            ("user", "Add a polygon area function to the geometry library."),
            ("edit", "src/polygon.cpp"),
            ("edit", "tests/polygon_test.cpp"),
            (
                "bash",
                "cmake --build build && ctest --test-dir build --output-on-failure",
                8,
                "[100%] Built target geom_tests\nTest project /home/dev/src/geom/build\n"
                "    Start 3: polygon_area\n3/12 Test  #3: polygon_area ....***Failed    0.01 sec\n"
                "92% tests passed, 1 tests failed out of 12\n\nThe following tests FAILED:\n"
                "\t  3 - polygon_area (Failed)",
            ),
            ("edit", "src/polygon.cpp"),
            (
                "bash",
                "cmake --build build && ctest --test-dir build --output-on-failure",
                0,
                "[100%] Built target geom_tests\nTest project /home/dev/src/geom/build\n"
                "100% tests passed, 0 tests failed out of 12\n\n"
                "Total Test time (real) =   0.21 sec",
            ),
            ("say", "Signed area with the shoelace formula; all 12 tests pass."),
            ("user", "I'd prefer std::span over raw pointer and length pairs in new APIs."),
        ),
        (
            ("user", "Add a convex hull."),
            ("edit", "src/hull.cpp"),
            (
                "bash",
                "cmake --build build && ctest --test-dir build --output-on-failure",
                0,
                "Test project /home/dev/src/geom/build\n"
                "100% tests passed, 0 tests failed out of 14",
            ),
            ("user", "Like I said last time: std::span for the points, not a pointer and a size."),
            ("edit", "src/hull.cpp"),
        ),
    ),
    test=r"`ctest|`cmake --build build && ctest",
    preference=r"std::span",
    repeated=True,
    not_test=r"`cmake --build build`",
)

ZIG = Probe(
    "bitpack",
    "Zig",
    "`zig build test` fails once, then passes silently; a rule in the opening request",
    "/home/dev/src/bitpack",
    (
        (
            (
                "user",
                "Add a varint decoder. From now on, document every public function with a "
                "/// doc comment.",
            ),
            ("edit", "src/varint.zig"),
            (
                "bash",
                "zig build test",
                1,
                "test\n+- run test 1/4 passed, 1 failed\n"
                "error: 'varint.test.decode max' failed: expected 300, found 44\n"
                "error: the following build command failed with exit code 1",
            ),
            ("edit", "src/varint.zig"),
            ("bash", "zig build test", 0, ""),
            ("say", "The decoder handles the continuation bit; zig build test passes."),
        ),
    ),
    test=r"`zig build test`",
    preference=r"doc comment|///",
    not_pref=r"varint decoder",
)

CABAL = Probe(
    "ledgerhs",
    "Haskell (cabal)",
    "`cabal test` passes; a correction of the assistant",
    "/home/dev/src/ledgerhs",
    (
        (
            ("user", "Parse the account names from the journal file."),
            ("edit", "src/Ledger/Parse.hs"),
            ("say", "I parse the names into String values with many1 anyChar."),
            (
                "user",
                "No, don't use String for text here. Use Data.Text everywhere in this codebase.",
            ),
            ("edit", "src/Ledger/Parse.hs"),
            (
                "bash",
                "cabal test",
                0,
                "Running 1 test suites...\nTest suite spec: RUNNING...\n"
                "Test suite spec: PASS\nTest suite logged to: dist-newstyle/spec.log\n"
                "1 of 1 test suites (1 of 1 test cases) passed.",
            ),
            ("say", "Account names are Data.Text now; the spec suite passes."),
        ),
    ),
    test=r"`cabal test`",
    preference=r"Data\.Text|String",
)

PIPED = Probe(
    "tiles",
    "Rust, piped runs",
    "`cargo test --workspace 2>&1 | tail -20` passes in two sessions, clippy as lint; a "
    "preference in two sessions in the same words",
    "/home/dev/src/tiles",
    (
        (
            ("user", "Cache the decoded tiles by their id."),
            ("edit", "src/cache.rs"),
            (
                "bash",
                "cargo test --workspace 2>&1 | tail -20",
                0,
                "running 21 tests\n.....................\n"
                "test result: ok. 21 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
                "finished in 0.04s",
            ),
            (
                "bash",
                "cargo clippy --workspace -- -D warnings",
                0,
                "    Checking tiles v0.2.0\n    Finished dev profile",
            ),
            ("user", "Keep pull requests small, under 300 lines of diff."),
        ),
        (
            ("user", "Evict the least recently used tiles."),
            ("edit", "src/cache.rs"),
            (
                "bash",
                "cargo test --workspace 2>&1 | tail -20",
                0,
                "running 23 tests\ntest result: ok. 23 passed; 0 failed; 0 ignored; "
                "0 measured; 0 filtered out; finished in 0.05s",
            ),
            ("user", "Keep pull requests small, under 300 lines of diff."),
        ),
    ),
    test=r"`cargo test --workspace",
    preference=r"300 lines|small",
    repeated=True,
    not_test=r"clippy",
)

JULIA = Probe(
    "stats",
    "Julia",
    "`julia --project=. -e 'using Pkg; Pkg.test()'` passes; preference once, firmly",
    "/home/dev/src/Stats.jl",
    (
        (
            ("user", "Add a weighted median."),
            ("edit", "src/median.jl"),
            (
                "bash",
                "julia --project=. -e 'using Pkg; Pkg.test()'",
                0,
                "     Testing Running tests...\nTest Summary: | Pass  Total  Time\n"
                "Stats        |   31     31  1.2s\n     Testing Stats tests passed ",
            ),
            (
                "user",
                "Never use global variables in the package code - always pass state explicitly.",
            ),
        ),
    ),
    test=r"Pkg\.test",
    preference=r"global",
)

RAKE = Probe(
    "notes",
    "Ruby (minitest through rake)",
    "`bundle exec rake test` fails then passes; a rule said in two sessions in the same words",
    "/home/dev/src/notes",
    (
        (
            ("user", "Tag notes with a colour."),
            ("edit", "lib/notes/note.rb"),
            (
                "bash",
                "bundle exec rake test",
                1,
                "Run options: --seed 4411\n\n  1) Failure:\n"
                "NoteTest#test_colour [test/note_test.rb:14]:\n"
                'Expected: "red"\n  Actual: nil\n\n12 runs, 30 assertions, 1 failures, 0 errors, '
                "0 skips\nrake aborted!",
            ),
            ("edit", "lib/notes/note.rb"),
            (
                "bash",
                "bundle exec rake test",
                0,
                "Run options: --seed 9120\n\n12 runs, 31 assertions, 0 failures, 0 errors, 0 skips",
            ),
            ("user", "Never commit directly to main, open a branch for each change."),
        ),
        (
            ("user", "Archive old notes."),
            ("edit", "lib/notes/archive.rb"),
            (
                "bash",
                "bundle exec rake test",
                0,
                "14 runs, 35 assertions, 0 failures, 0 errors, 0 skips",
            ),
            ("user", "Never commit directly to main, open a branch for each change."),
        ),
    ),
    test=r"`bundle exec rake test`|`rake test`",
    preference=r"main|branch",
    repeated=True,
)

THIRD_BATCH: tuple[Probe, ...] = (CMAKE, ZIG, CABAL, PIPED, JULIA, RAKE)
