"""The session-start probe's first batch of made-up projects (`bench/start_probe_set.py` says
what a project holds): Go, Rust through `just`, an Elixir umbrella inside `cd apps/x &&`, Ruby,
Java with Gradle, .NET, PHP through a composer script, a Makefile-only C project, OCaml with
dune, a shell project's `bin/test` and Swift whose tests never passed."""

from __future__ import annotations

from bench.start_probe_types import Probe

GO = Probe(
    "ledger",
    "Go",
    "go test fails then passes; preference in two sessions",
    "/home/dev/src/ledger",
    (
        (
            ("user", "Add a Balance method to the ledger package that sums the entries."),
            ("read", "go.mod", "module github.com/acme/ledger\n\ngo 1.23\n"),
            ("edit", "ledger/ledger.go"),
            ("edit", "ledger/ledger_test.go"),
            (
                "bash",
                "go test ./...",
                1,
                "--- FAIL: TestBalance (0.00s)\n    ledger_test.go:18: Balance() = 10, want 12\n"
                "FAIL\nFAIL\tgithub.com/acme/ledger/ledger\t0.004s\n"
                "ok  \tgithub.com/acme/ledger/cmd/ledger\t0.003s\nFAIL",
            ),
            ("say", "The sum skipped the last entry; the loop bound was off by one."),
            ("edit", "ledger/ledger.go"),
            (
                "bash",
                "go test ./...",
                0,
                "ok  \tgithub.com/acme/ledger/ledger\t0.005s\n"
                "ok  \tgithub.com/acme/ledger/cmd/ledger\t0.003s",
            ),
            ("say", "Balance is in and the tests pass."),
            (
                "user",
                "Thanks. Please write table-driven tests for anything new in this repo, "
                "with a name per case.",
            ),
            ("say", "Understood, I'll use table-driven tests with named cases."),
        ),
        (
            ("user", "Reject negative amounts in Transfer."),
            ("edit", "ledger/transfer.go"),
            ("edit", "ledger/transfer_test.go"),
            (
                "bash",
                "go test ./...",
                0,
                "ok  \tgithub.com/acme/ledger/ledger\t0.006s\n"
                "ok  \tgithub.com/acme/ledger/cmd/ledger\t0.003s",
            ),
            ("say", "Transfer now returns ErrNegativeAmount; tests pass."),
            (
                "user",
                "Remember: table-driven tests with a name per case, that's how I want tests "
                "written here.",
            ),
            ("say", "Right, I rewrote the new test as a table with named cases."),
        ),
    ),
    test=r"`go test ./\.\.\.`",
    preference=r"table.driven",
    repeated=True,
)

RUST = Probe(
    "tilemap",
    "Rust",
    "tests through `just test`, lint through `just lint`; preference once, firmly",
    "/home/dev/code/tilemap",
    (
        (
            ("user", "Make the tile lookup return an Option instead of panicking."),
            (
                "read",
                "justfile",
                "test:\n    cargo test --workspace --all-features\n\n"
                "lint:\n    cargo clippy --all-targets -- -D warnings\n",
            ),
            ("edit", "src/grid.rs"),
            ("bash", "just lint", 0, "    Checking tilemap v0.3.1\n    Finished dev profile"),
            (
                "bash",
                "just test",
                101,
                "cargo test --workspace --all-features\n   Compiling tilemap v0.3.1\n"
                "running 14 tests\ntest grid::tests::lookup_outside ... FAILED\n\n"
                "failures:\n    grid::tests::lookup_outside\n\n"
                "test result: FAILED. 13 passed; 1 failed; 0 ignored; 0 measured; "
                "0 filtered out; finished in 0.02s\n\nerror: Recipe `test` failed on line 2",
            ),
            ("edit", "src/grid.rs"),
            (
                "bash",
                "just test",
                0,
                "cargo test --workspace --all-features\nrunning 14 tests\n"
                "test result: ok. 14 passed; 0 failed; 0 ignored; 0 measured; "
                "0 filtered out; finished in 0.02s",
            ),
            ("say", "Lookups outside the grid now return None; all 14 tests pass."),
            (
                "user",
                "Good. Never use .unwrap() outside of tests in this crate - always propagate "
                "the error with ? instead.",
            ),
            ("say", "Noted: no unwrap outside tests, errors propagate with ?."),
        ),
    ),
    test=r"`just test`|`cargo test",
    preference=r"unwrap",
    not_test=r"just lint|clippy",
)

ELIXIR = Probe(
    "billing",
    "Elixir (umbrella)",
    "`cd apps/billing && mix test` fails then passes; preference in two sessions",
    "/home/dev/work/shop",
    (
        (
            ("user", "Charge the VAT on the net amount in the billing app."),
            ("edit", "apps/billing/lib/billing/invoice.ex"),
            (
                "bash",
                "cd apps/billing && mix test",
                2,
                "Compiling 3 files (.ex)\n\n  1) test vat is charged on the net amount "
                "(Billing.InvoiceTest)\n     test/billing/invoice_test.exs:14\n"
                "     Assertion with == failed\n     left:  2400\n     right: 2000\n\n"
                "Finished in 0.3 seconds (0.1s async, 0.2s sync)\n7 tests, 1 failure\n\n"
                "Randomized with seed 4123",
            ),
            ("edit", "apps/billing/lib/billing/invoice.ex"),
            (
                "bash",
                "cd apps/billing && mix test",
                0,
                "Compiling 1 file (.ex)\n.......\n"
                "Finished in 0.3 seconds (0.1s async, 0.2s sync)\n7 tests, 0 failures\n\n"
                "Randomized with seed 5011",
            ),
            ("say", "VAT is computed on the net amount now; 7 tests, 0 failures."),
            ("user", "Commit it. Keep each commit to one logical change, please."),
            ("bash", "git commit -am 'Charge VAT on the net amount'", 0, "[main 3c1d2e0] Charge"),
        ),
        (
            ("user", "Add a credit note type to billing."),
            ("edit", "apps/billing/lib/billing/credit_note.ex"),
            (
                "bash",
                "cd apps/billing && mix test",
                0,
                ".........\nFinished in 0.4 seconds (0.1s async, 0.3s sync)\n9 tests, 0 failures",
            ),
            ("user", "Again, one logical change per commit: split the schema and the module."),
            ("bash", "git commit -m 'Add the credit_notes schema'", 0, "[main 77aa001] Add"),
        ),
    ),
    test=r"`mix test`",
    preference=r"one logical change",
    repeated=True,
)

RUBY = Probe(
    "bookings",
    "Ruby (rspec)",
    "`bundle exec rspec` passes, rubocop as lint; preference once, firmly",
    "/home/dev/src/bookings",
    (
        (
            ("user", "Let guests cancel a booking up to 24 hours before check-in."),
            ("edit", "app/models/booking.rb"),
            ("edit", "spec/models/booking_spec.rb"),
            (
                "bash",
                "bundle exec rspec",
                0,
                "..........................\n\n"
                "Finished in 0.41 seconds (files took 1.2 seconds to load)\n"
                "26 examples, 0 failures",
            ),
            (
                "bash",
                "bundle exec rubocop",
                0,
                "Inspecting 41 files\n.........................................\n\n"
                "41 files inspected, no offenses detected",
            ),
            ("say", "Cancellation is allowed until 24 hours before check-in; specs pass."),
            (
                "user",
                "Do not add new gems without asking me first. I mean it, the Gemfile stays as "
                "it is unless I say so.",
            ),
            ("say", "Understood: no new gems without asking."),
        ),
    ),
    test=r"`bundle exec rspec`|`rspec`",
    preference=r"\bgems?\b",
    not_test=r"rubocop",
)

GRADLE = Probe(
    "orders",
    "Java (Gradle)",
    "`./gradlew test` fails then passes, `./gradlew check` as gate; preference in two sessions",
    "/home/dev/src/orders",
    (
        (
            ("user", "Reject orders with an empty cart in OrderService."),
            ("edit", "src/main/java/com/acme/orders/OrderService.java"),
            (
                "bash",
                "./gradlew test",
                1,
                "> Task :compileJava\n> Task :test FAILED\n\n"
                "OrderServiceTest > rejectsEmptyCart() FAILED\n"
                "    org.opentest4j.AssertionFailedError at OrderServiceTest.java:31\n\n"
                "12 tests completed, 1 failed\n\nFAILURE: Build failed with an exception.",
            ),
            ("edit", "src/main/java/com/acme/orders/OrderService.java"),
            (
                "bash",
                "./gradlew test",
                0,
                "> Task :compileJava\n> Task :test\n\nBUILD SUCCESSFUL in 14s\n"
                "4 actionable tasks: 2 executed, 2 up-to-date",
            ),
            ("say", "Empty carts are rejected with an IllegalArgumentException."),
            (
                "user",
                "Use constructor injection for new services, not field injection with @Autowired.",
            ),
        ),
        (
            ("user", "Add a discount service for coupon codes."),
            ("edit", "src/main/java/com/acme/orders/DiscountService.java"),
            (
                "bash",
                "./gradlew check",
                0,
                "> Task :spotlessCheck\n> Task :test\n> Task :check\n\nBUILD SUCCESSFUL in 21s",
            ),
            (
                "user",
                "As I said before: constructor injection, no @Autowired fields in the new service.",
            ),
            ("edit", "src/main/java/com/acme/orders/DiscountService.java"),
        ),
    ),
    test=r"`(?:\./)?gradlew test`",
    preference=r"constructor injection",
    repeated=True,
    not_test=r"gradlew check",
)

DOTNET = Probe(
    "invoices",
    ".NET",
    "`cd tests/Api.Tests && dotnet test` passes; preference once, firmly",
    "/home/dev/src/invoices",
    (
        (
            ("user", "Return 404 when an invoice does not exist."),
            ("edit", "src/Api/Controllers/InvoicesController.cs"),
            ("bash", "dotnet build", 0, "Build succeeded.\n    0 Warning(s)\n    0 Error(s)"),
            (
                "bash",
                "cd tests/Api.Tests && dotnet test",
                0,
                "  Determining projects to restore...\n"
                "Passed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, "
                "Duration: 1 s - Api.Tests.dll (net8.0)",
            ),
            ("say", "A missing invoice now gives 404; all 42 tests pass."),
            (
                "user",
                "Always use file-scoped namespaces in new C# files. This is a hard rule in "
                "this codebase.",
            ),
            ("say", "Got it: file-scoped namespaces in every new file."),
        ),
    ),
    test=r"`dotnet test`",
    preference=r"file.scoped namespace",
    not_test=r"dotnet build",
)

PHP = Probe(
    "mailer",
    "PHP (composer)",
    "`composer test` (a script of composer.json) passes; preference in two sessions",
    "/home/dev/src/mailer",
    (
        (
            ("user", "Add a retry limit to the SMTP transport."),
            (
                "read",
                "composer.json",
                '{\n  "name": "acme/mailer",\n  "require": {"php": ">=8.2"},\n'
                '  "scripts": {\n    "test": "phpunit --colors=always",\n'
                '    "lint": "phpcs --standard=PSR12 src"\n  }\n}\n',
            ),
            ("edit", "src/Transport/SmtpTransport.php"),
            (
                "bash",
                "composer test",
                0,
                "> phpunit --colors=always\nPHPUnit 10.5.3 by Sebastian Bergmann and "
                "contributors.\n\n...............  15 / 15 (100%)\n\n"
                "Time: 00:00.120, Memory: 8.00 MB\n\nOK (15 tests, 31 assertions)",
            ),
            ("say", "The transport gives up after three retries; 15 tests pass."),
            ("user", "Please declare strict_types at the top of every new PHP file."),
        ),
        (
            ("user", "Add a Mailgun transport."),
            ("edit", "src/Transport/MailgunTransport.php"),
            (
                "bash",
                "composer test",
                0,
                "> phpunit --colors=always\n.................  17 / 17 (100%)\n\n"
                "OK (17 tests, 36 assertions)",
            ),
            ("user", "You forgot it again: declare strict_types in every new PHP file."),
            ("edit", "src/Transport/MailgunTransport.php"),
        ),
    ),
    test=r"`composer test`|`phpunit",
    preference=r"strict_types",
    repeated=True,
)

C_MAKE = Probe(
    "tinyparse",
    "C (Makefile only)",
    "`make test` fails then passes; preference once, firmly",
    "/home/dev/src/tinyparse",
    (
        (
            ("user", "Parse the optional trailer block."),
            (
                "read",
                "Makefile",
                "CC ?= cc\nCFLAGS = -Wall -O2\n\nall: build/tinyparse\n\n"
                "test: build/test_runner\n\t./build/test_runner\n\n"
                "build/test_runner: tests/test_main.c src/parse.c\n"
                "\t$(CC) $(CFLAGS) -o $@ $^\n",
            ),
            ("edit", "src/parse.c"),
            (
                "bash",
                "make test",
                2,
                "cc -Wall -O2 -o build/test_runner tests/test_main.c src/parse.c\n"
                "./build/test_runner\n[PASS] parse_empty\n[PASS] parse_header\n"
                "[FAIL] parse_trailer: expected 3 fields, got 2\n2 passed, 1 failed\n"
                "make: *** [Makefile:7: test] Error 1",
            ),
            ("edit", "src/parse.c"),
            (
                "bash",
                "make test",
                0,
                "cc -Wall -O2 -o build/test_runner tests/test_main.c src/parse.c\n"
                "./build/test_runner\n[PASS] parse_empty\n[PASS] parse_header\n"
                "[PASS] parse_trailer\n3 passed, 0 failed",
            ),
            ("say", "The trailer block parses now; 3 of 3 tests pass."),
            (
                "user",
                "Important: never call malloc in the parser. It must stay allocation-free, "
                "callers pass the buffers in.",
            ),
        ),
    ),
    test=r"`make test`",
    preference=r"malloc|allocation",
)

OCAML = Probe(
    "lexkit",
    "OCaml (dune)",
    "`dune test` fails (expect diff), then passes silently; preference in two sessions",
    "/home/dev/src/lexkit",
    (
        (
            ("user", "Lex numeric literals with underscores, like 1_000."),
            ("edit", "src/lexer.ml"),
            (
                "bash",
                "dune test",
                1,
                'File "test/test_lexer.ml", line 12, characters 0-1:\n'
                "------ test/test_lexer.ml\n++++++ test/test_lexer.ml.corrected\n"
                'File "test/test_lexer.ml", line 14, characters 0-1:\n'
                "-|  [%expect {| INT 1000 |}]\n+|  [%expect {| INT 1 IDENT _000 |}]",
            ),
            ("edit", "src/lexer.ml"),
            ("bash", "dune test", 0, ""),
            ("say", "Underscores in numeric literals lex as one INT now; dune test is clean."),
            ("user", "Keep every exported value of an .mli documented with a doc comment."),
        ),
        (
            ("user", "Add hexadecimal literals."),
            ("edit", "src/lexer.ml"),
            ("edit", "src/lexer.mli"),
            ("bash", "dune build", 0, ""),
            ("bash", "dune test", 0, ""),
            ("user", "And document every exported value in the .mli, as before."),
            ("edit", "src/lexer.mli"),
        ),
    ),
    test=r"`dune test`|`dune runtest`",
    preference=r"\.mli|doc comment",
    repeated=True,
    not_test=r"`dune build`",
)

SCRIPT = Probe(
    "dotsync",
    "shell (bin/test, bats)",
    "`bin/test` (TAP output) fails then passes; preference once, firmly",
    "/home/dev/src/dotsync",
    (
        (
            ("user", "Skip files listed in .dotsyncignore."),
            ("edit", "lib/sync.sh"),
            (
                "bash",
                "bin/test",
                1,
                "1..9\nok 1 links a single file\nok 2 backs up an existing file\n"
                "not ok 3 skips ignored files\n# (in test file test/sync.bats, line 40)\n"
                "ok 4 dry run changes nothing\nok 5 unlink restores the backup\n"
                "ok 6 handles spaces\nok 7 refuses outside HOME\nok 8 prints the plan\n"
                "ok 9 exits 0 when nothing to do",
            ),
            ("edit", "lib/sync.sh"),
            (
                "bash",
                "bin/test",
                0,
                "1..9\nok 1 links a single file\nok 2 backs up an existing file\n"
                "ok 3 skips ignored files\nok 4 dry run changes nothing\n"
                "ok 5 unlink restores the backup\nok 6 handles spaces\n"
                "ok 7 refuses outside HOME\nok 8 prints the plan\nok 9 exits 0 when nothing to do",
            ),
            ("say", "Ignored files are skipped; all 9 tests pass."),
            (
                "user",
                "The scripts must stay POSIX sh - no bashisms, ever. They run on machines "
                "without bash.",
            ),
        ),
    ),
    test=r"`bin/test`|`\./bin/test`",
    preference=r"POSIX|bashism",
)

SWIFT = Probe(
    "weathercli",
    "Swift (never passed)",
    "`swift test` fails in every run; preference in two sessions",
    "/home/dev/src/weathercli",
    (
        (
            ("user", "Parse the hourly forecast from the API response."),
            ("edit", "Sources/WeatherCore/Forecast.swift"),
            (
                "bash",
                "swift test",
                1,
                "Building for debugging...\nerror: no such module 'XCTest'\nerror: fatalError",
            ),
            ("say", "XCTest is not available in this toolchain, so the tests cannot run here."),
            ("bash", "swift build", 0, "Building for debugging...\nBuild complete! (3.21s)"),
            ("user", "Prefer guard let over nested if let in new code."),
        ),
        (
            ("user", "Add a --units flag."),
            ("edit", "Sources/weathercli/Main.swift"),
            (
                "bash",
                "swift test",
                1,
                "Building for debugging...\nerror: no such module 'XCTest'",
            ),
            ("bash", "swift build", 0, "Build complete! (2.90s)"),
            ("user", "Use guard let for the early exits, like I asked last time."),
        ),
    ),
    test=r"`swift test`",
    preference=r"guard let",
    repeated=True,
    test_caveat=True,
    not_test=r"`swift build`",
)

FIRST_BATCH: tuple[Probe, ...] = (
    GO,
    RUST,
    ELIXIR,
    RUBY,
    GRADLE,
    DOTNET,
    PHP,
    C_MAKE,
    OCAML,
    SCRIPT,
    SWIFT,
)
