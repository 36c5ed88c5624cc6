"""The session-start probe's second batch (`bench/start_probe_set.py` says what a project
holds), written after the first batch's first run and before any rule changed: Kotlin with
Maven, Coq with no test suite, a busy Flutter project and a Haskell backend's script in a
sub-folder."""

from __future__ import annotations

from bench.start_probe_types import Probe

MAVEN = Probe(
    "catalog",
    "Kotlin (Maven)",
    "`mvn -q test` (Surefire counts), `mvn verify` as gate; a rule repeated across sessions in "
    "other words beside a firm one-off",
    "/home/dev/src/catalog",
    (
        (
            ("user", "Add a price range filter to the product search."),
            ("edit", "src/main/kotlin/com/acme/catalog/ProductSearch.kt"),
            (
                "bash",
                "mvn -q test",
                1,
                "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0\n"
                "[ERROR] ProductSearchTest.filtersByPriceRange:44 expected: <3> but was: <4>\n"
                "[ERROR] BUILD FAILURE",
            ),
            ("edit", "src/main/kotlin/com/acme/catalog/ProductSearch.kt"),
            (
                "bash",
                "mvn -q test",
                0,
                "[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
            ),
            ("say", "The upper bound was inclusive twice; the filter is fixed and tests pass."),
            ("user", "Prefer data classes with val fields for DTOs, no mutable var properties."),
        ),
        (
            ("user", "Add a stock level to the product response."),
            ("edit", "src/main/kotlin/com/acme/catalog/ProductDto.kt"),
            ("bash", "mvn verify", 0, "[INFO] Tests run: 12, Failures: 0\n[INFO] BUILD SUCCESS"),
            (
                "user",
                "Never log customer emails! Not in debug logs either, it's a compliance issue.",
            ),
            ("say", "Removed the email from the debug line."),
        ),
        (
            ("user", "Expose the supplier on the product DTO."),
            ("edit", "src/main/kotlin/com/acme/catalog/ProductDto.kt"),
            (
                "bash",
                "mvn -q test",
                0,
                "[INFO] Tests run: 13, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
            ),
            ("user", "DTOs stay immutable: val only, data classes, like I said last week."),
        ),
    ),
    test=r"`mvn (?:-q )?test`",
    preference=r"immutable|data class|\bval\b",
    repeated=True,
    not_test=r"mvn verify",
)

PROOFS = Probe(
    "setoids",
    "Coq (make, no tests)",
    "`make` checks the proofs, no test suite; preference once, firmly",
    "/home/dev/src/setoids",
    (
        (
            ("user", "Prove that the quotient map is surjective."),
            ("edit", "theories/Quotient.v"),
            (
                "bash",
                "make",
                2,
                'COQC theories/Quotient.v\nFile "./theories/Quotient.v", line 88, '
                "characters 2-7:\nError: No applicable tactic.\n"
                "make[1]: *** [Makefile.coq:790: theories/Quotient.vo] Error 1",
            ),
            ("edit", "theories/Quotient.v"),
            ("bash", "make", 0, "COQC theories/Quotient.v\nCOQC theories/Main.v"),
            ("say", "The surjectivity proof goes through; the whole development compiles."),
            (
                "user",
                "Never use Admitted in committed proofs. Every lemma must be closed with Qed.",
            ),
        ),
    ),
    test="",
    preference=r"Admitted|Qed",
    not_test=r"`make`",
)

DART = Probe(
    "scoreboard",
    "Dart (Flutter), busy sessions",
    "`flutter test` among many other commands (analyze, format, build_runner, run); "
    "preference in two sessions in the same words",
    "/home/dev/apps/scoreboard",
    (
        (
            ("user", "Show the match timer on the scoreboard screen."),
            ("bash", "flutter pub get", 0, "Resolving dependencies...\nGot dependencies!"),
            (
                "bash",
                "dart run build_runner build --delete-conflicting-outputs",
                0,
                "[INFO] Succeeded after 8.2s with 14 outputs",
            ),
            ("edit", "lib/screens/scoreboard_screen.dart"),
            (
                "bash",
                "flutter analyze",
                0,
                "Analyzing scoreboard...\nNo issues found! (ran in 3.1s)",
            ),
            ("bash", "dart format lib test", 0, "Formatted 41 files (1 changed) in 0.40 seconds."),
            (
                "bash",
                "flutter test",
                1,
                "00:03 +11 -1: test/timer_test.dart: timer pauses at half time [E]\n"
                "  Expected: <2700>\n    Actual: <2701>\n00:04 +11 -1: Some tests failed.",
            ),
            ("edit", "lib/timer/match_timer.dart"),
            ("bash", "flutter test", 0, "00:04 +12: All tests passed!"),
            (
                "bash",
                "flutter run -d linux",
                0,
                "Launching lib/main.dart on Linux in debug mode...",
            ),
            ("say", "The timer shows on the scoreboard and pauses at half time."),
            ("user", "Keep widgets small: split anything over 100 lines into its own widget."),
        ),
        (
            ("user", "Add a penalty counter."),
            ("bash", "flutter pub get", 0, "Got dependencies!"),
            ("edit", "lib/widgets/penalty_counter.dart"),
            ("bash", "flutter analyze", 0, "No issues found! (ran in 2.9s)"),
            ("bash", "flutter test", 0, "00:05 +14: All tests passed!"),
            ("bash", "flutter build linux", 0, "Building Linux application...\n✓ Built"),
            ("user", "Keep widgets small: split anything over 100 lines into its own widget."),
        ),
    ),
    test=r"`flutter test`",
    preference=r"widget",
    repeated=True,
    not_test=r"flutter analyze|dart format",
)

SUBDIR_SCRIPT = Probe(
    "survey",
    "Haskell backend, script in a sub-folder",
    "`cd backend && ./run_tests.sh` (a runner's summary line); preference once, firmly, "
    "in a project with one short session",
    "/home/dev/src/survey",
    (
        (
            ("user", "Validate that answers reference an existing question."),
            ("edit", "backend/src/Survey/Validate.hs"),
            (
                "bash",
                "cd backend && ./run_tests.sh",
                0,
                "Survey.Validate\n  rejects unknown questions [✔]\n  accepts known ones [✔]\n\n"
                "Finished in 0.0042 seconds\n18 examples, 0 failures",
            ),
            (
                "user",
                "Always use qualified imports for Data.Map - it clashes with Prelude otherwise.",
            ),
        ),
    ),
    test=r"`\./run_tests\.sh`|`cd backend && \./run_tests\.sh`",
    preference=r"qualified",
)

SECOND_BATCH: tuple[Probe, ...] = (MAVEN, PROOFS, DART, SUBDIR_SCRIPT)
