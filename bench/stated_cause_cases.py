# ruff: noqa: E501  (transcript text: outputs are kept as one string a line)
"""Made-up sessions where a command fails, the assistant's next reply says in its own words why
and what it changed, and the command then passes, in a dozen ecosystems and in varied wordings
(not only "because"); and cases that must not become a pitfall: a guess taken back, a cause that
turned out wrong, a hedged cause, a plan, a network blip, a typo in a command, a test failing as
a test-first step should (`bench/stated_causes.py` runs them). Every case, its patterns and its
`expect` (the memory a later session needs, or none) included, was written before any rule ran on
it.
"""

from __future__ import annotations

from bench.pitfall_shape_cases import Shape
from bench.trap_transcripts import Ask, Edit, Run, Say, Write, one_session

#: Patterns no pitfall of any case may match besides the progress lines `Shape.junk` holds: a
#: hedge or a taken-back guess stated as the cause.
_HEDGED = (r"\b(?:probably|might|maybe|not (?:sure|certain))\b",)


def _junk(*more: str) -> tuple[str, ...]:
    return (*Shape.junk, *_HEDGED, *more)


DOTNET_WARNINGS = Shape(
    "dotnet-unused-variable",
    "stated cause: 'failed because … so I removed it'",
    "C#/.NET",
    one_session(
        "/home/ana/src/invoicing",
        Ask("Build the solution after my change to the importer."),
        Run(
            "dotnet build",
            "  Determining projects to restore...\n  All projects are up-to-date for restore.\n/home/ana/src/invoicing/src/Invoicing.Import/CsvImporter.cs(58,30): error CS0168: The variable 'ex' is declared but never used [/home/ana/src/invoicing/src/Invoicing.Import/Invoicing.Import.csproj]\n\nBuild FAILED.\n    0 Warning(s)\n    1 Error(s)",
            1,
        ),
        Say(
            "The build failed because the compiler treats the unused variable warning as an error here (`TreatWarningsAsErrors` is on in `Directory.Build.props`), so I removed the unused `ex` from the `catch` in `CsvImporter.cs`."
        ),
        Edit(
            "src/Invoicing.Import/CsvImporter.cs",
            "catch (FormatException ex)",
            "catch (FormatException)",
        ),
        Run(
            "dotnet build",
            "  Invoicing.Import -> /home/ana/src/invoicing/src/Invoicing.Import/bin/Debug/net8.0/Invoicing.Import.dll\n\nBuild succeeded.\n    0 Warning(s)\n    0 Error(s)",
        ),
        Say("The solution builds."),
    ),
    trigger=r"dotnet build|CS0168",
    cause=r"TreatWarningsAsErrors|warnings? (?:as|into) errors?",
    fix=r"remov|unused",
    junk=_junk(),
    expect="`dotnet build` fails on an unused variable (CS0168): TreatWarningsAsErrors is on in Directory.Build.props; remove the unused variable.",
)

PYTHON_DECIMAL = Shape(
    "python-decimal-float",
    "stated cause: a rule ('values must be …') after the failure",
    "Python/pytest",
    one_session(
        "/home/raj/code/ledger",
        Ask("Run the invoice tests."),
        Run(
            "pytest tests/test_invoice.py -q",
            "F..\n=================================== FAILURES ===================================\n____________________________ test_total_with_tax ____________________________\n\n    def test_total_with_tax():\n        invoice = Invoice(lines=[Line(amount=Decimal('9.18'))], tax_rate=Decimal('0.10'))\n>       assert invoice.total() == 10.1\nE       AssertionError: assert Decimal('10.098') == 10.1\n\ntests/test_invoice.py:14: AssertionError\n1 failed, 2 passed in 0.11s",
            1,
        ),
        Say(
            "The test compared a Decimal with a float; money values must be cast to Decimal before comparing, and the total must be quantized to cents. I changed the assertion to `Decimal('10.10')` and `Invoice.total()` now rounds with `quantize(Decimal('0.01'))`."
        ),
        Edit(
            "tests/test_invoice.py",
            "assert invoice.total() == 10.1",
            "assert invoice.total() == Decimal('10.10')",
        ),
        Run("pytest tests/test_invoice.py -q", "...\n3 passed in 0.08s"),
        Say("All three invoice tests pass."),
    ),
    trigger=r"pytest|test_invoice|test_total",
    cause=r"Decimal.{0,40}float|float.{0,40}Decimal",
    fix=r"Decimal\(|cast|quantiz",
    junk=_junk(),
    expect="pytest: comparing a Decimal money value with a float fails; compare with Decimal values (quantize to cents).",
)

DART_AUTODISPOSE = Shape(
    "dart-autodispose-state",
    "stated cause: 'lost its state because … ; X keeps it'",
    "Dart/Flutter",
    one_session(
        "/home/lea/dev/basket_app",
        Ask("The cart test is red, can you fix it?"),
        Run(
            "flutter test test/cart_page_test.dart",
            "00:03 +0 -1: adds two items and keeps the count after navigating back [E]\n  Expected: '2'\n  Actual: '0'\n   Which: is different.\n00:03 +0 -1: Some tests failed.",
            1,
        ),
        Say(
            "The widget was rebuilt and lost its state because the provider was autoDispose: when the cart page is popped nothing listens to `cartProvider`, so Riverpod disposes it. keepAlive keeps it; I annotated it `@Riverpod(keepAlive: true)` and regenerated with `dart run build_runner build`."
        ),
        Edit(
            "lib/cart/cart_provider.dart",
            "@riverpod\nclass Cart",
            "@Riverpod(keepAlive: true)\nclass Cart",
        ),
        Run(
            "dart run build_runner build --delete-conflicting-outputs",
            "[INFO] Succeeded after 4.1s with 2 outputs (6 actions)",
        ),
        Run(
            "flutter test test/cart_page_test.dart",
            "00:02 +1: All tests passed!",
        ),
        Say("The cart test passes."),
    ),
    trigger=r"flutter test|cart_page_test",
    cause=r"autoDispose|dispos",
    fix=r"keepAlive",
    junk=_junk(),
    expect="Flutter: a Riverpod provider that is autoDispose loses its state when nothing listens; `@Riverpod(keepAlive: true)` keeps it.",
)

RUST_OPTIONAL_DEP = Shape(
    "rust-optional-dependency",
    "stated cause: 'The error comes from …'",
    "Rust/cargo",
    one_session(
        "/home/tom/src/fetchq",
        Ask("Add an integration test for the async client and run it."),
        Run(
            "cargo test --test client",
            '   Compiling fetchq v0.3.1 (/home/tom/src/fetchq)\nerror[E0433]: failed to resolve: use of undeclared crate or module `tokio`\n --> tests/client.rs:3:3\n  |\n3 | #[tokio::test]\n  |   ^^^^^ use of undeclared crate or module `tokio`\n\nerror: could not compile `fetchq` (test "client") due to 1 previous error',
            101,
        ),
        Say(
            "The error comes from tokio being optional in this crate: it is only pulled in by the `async` feature, and `cargo test` builds the tests without it. I added tokio to `[dev-dependencies]` with the `macros` and `rt` features."
        ),
        Edit(
            "Cargo.toml",
            "[dev-dependencies]\n",
            '[dev-dependencies]\ntokio = { version = "1", features = ["macros", "rt"] }\n',
        ),
        Run(
            "cargo test --test client",
            "   Compiling fetchq v0.3.1 (/home/tom/src/fetchq)\n    Finished `test` profile [unoptimized + debuginfo] target(s) in 4.02s\n     Running tests/client.rs\n\nrunning 1 test\ntest fetches_twice ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored",
        ),
        Say("The integration test passes."),
    ),
    trigger=r"cargo test|E0433|undeclared crate",
    cause=r"optional|feature",
    fix=r"dev-dependencies",
    junk=_junk(),
    expect="cargo test: tokio is optional (only under a feature), so tests using #[tokio::test] need tokio in [dev-dependencies].",
)

GO_RACE = Shape(
    "go-data-race",
    "stated cause: 'Root cause: … I took …'",
    "Go",
    one_session(
        "/home/kim/go/src/shelfd",
        Ask("Run the tests with the race detector."),
        Run(
            "go test -race ./internal/cache/...",
            "==================\nWARNING: DATA RACE\nRead at 0x00c0000a4060 by goroutine 9:\n  runtime.mapaccess2_faststr()\n  shelfd/internal/cache.(*Cache).Get()\n      /home/kim/go/src/shelfd/internal/cache/cache.go:31 +0x84\nPrevious write at 0x00c0000a4060 by goroutine 8:\n  shelfd/internal/cache.(*Cache).Set()\n      /home/kim/go/src/shelfd/internal/cache/cache.go:40 +0x10c\n==================\n--- FAIL: TestConcurrentAccess (0.01s)\n    testing.go:1465: race detected during execution of test\nFAIL\nFAIL\tshelfd/internal/cache\t0.034s",
            1,
        ),
        Say(
            "Root cause: `Cache.Get` reads the map without holding the mutex while `Set` writes it from another goroutine. I took `c.mu.RLock()` / `RUnlock()` in `Get`, and `mu` is now a `sync.RWMutex`."
        ),
        Edit(
            "internal/cache/cache.go",
            "func (c *Cache) Get(key string) (Item, bool) {\n",
            "func (c *Cache) Get(key string) (Item, bool) {\n\tc.mu.RLock()\n\tdefer c.mu.RUnlock()\n",
        ),
        Run(
            "go test -race ./internal/cache/...",
            "ok  \tshelfd/internal/cache\t1.102s",
        ),
        Say("No race any more; the cache tests pass."),
    ),
    trigger=r"go test|race",
    cause=r"without (?:holding )?the (?:mutex|lock)|mutex",
    fix=r"RLock|RWMutex",
    junk=_junk(),
    expect="go test -race: Cache.Get read the map without the mutex while Set writes; take RLock in Get (RWMutex).",
)

ELIXIR_SANDBOX = Shape(
    "elixir-sandbox-allow",
    "stated cause: 'The problem is that … Fix: …'",
    "Elixir/mix",
    one_session(
        "/home/ines/src/courier",
        Ask("mix test fails on the dispatcher test, have a look"),
        Run(
            "mix test test/courier/dispatcher_test.exs",
            "  1) test dispatches a pending parcel (Courier.DispatcherTest)\n     test/courier/dispatcher_test.exs:12\n     ** (EXIT from #PID<0.412.0>) an exception was raised:\n         ** (DBConnection.OwnershipError) cannot find ownership process for #PID<0.418.0>.\n\n     When using ownership, you must manage connections in one\n     of the four ways:\n\nFinished in 0.2 seconds (0.00s async, 0.2s sync)\n3 tests, 1 failure",
            2,
        ),
        Say(
            "The problem is that the dispatcher GenServer started by the test runs in its own process, which isn't allowed to use the test's sandboxed connection. Fix: call `Ecto.Adapters.SQL.Sandbox.allow(Courier.Repo, self(), pid)` right after starting it in the test's setup."
        ),
        Edit(
            "test/courier/dispatcher_test.exs",
            "{:ok, pid} = Dispatcher.start_link([])\n",
            "{:ok, pid} = Dispatcher.start_link([])\n    Ecto.Adapters.SQL.Sandbox.allow(Courier.Repo, self(), pid)\n",
        ),
        Run(
            "mix test test/courier/dispatcher_test.exs",
            "...\nFinished in 0.2 seconds (0.00s async, 0.2s sync)\n3 tests, 0 failures",
        ),
        Say("The dispatcher tests pass."),
        host="codex",
    ),
    trigger=r"mix test|dispatcher_test|OwnershipError",
    cause=r"own process|ownership|sandbox",
    fix=r"Sandbox\.allow",
    junk=_junk(),
    expect="mix test: a GenServer started in a test cannot use the sandboxed Repo connection (OwnershipError); allow it with Ecto.Adapters.SQL.Sandbox.allow(Repo, self(), pid).",
)

KOTLIN_JVM_TARGET = Shape(
    "kotlin-jvm-target",
    "stated cause: 'That happens since …'",
    "Kotlin/Gradle",
    one_session(
        "/home/ola/dev/tariff-service",
        Ask("Build it."),
        Run(
            "./gradlew build",
            "> Task :compileKotlin FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':compileKotlin'.\n> Inconsistent JVM-target compatibility detected for tasks 'compileJava' (17) and 'compileKotlin' (21).\n\nBUILD FAILED in 6s",
            1,
        ),
        Say(
            "That happens since the Kotlin plugin compiles for the JDK 21 that runs Gradle while the Java compile is pinned to 17. Setting `kotlin { jvmToolchain(17) }` in `build.gradle.kts` makes both target 17."
        ),
        Edit(
            "build.gradle.kts",
            "kotlin {\n",
            "kotlin {\n    jvmToolchain(17)\n",
        ),
        Run(
            "./gradlew build",
            "> Task :compileKotlin\n> Task :test\n\nBUILD SUCCESSFUL in 21s\n8 actionable tasks: 8 executed",
        ),
        Say("The build passes."),
    ),
    trigger=r"gradlew|compileKotlin|JVM-target",
    cause=r"JDK 21|17|jvm.?target",
    fix=r"jvmToolchain",
    junk=_junk(),
    expect="./gradlew build: inconsistent JVM target between compileJava (17) and compileKotlin (21); set `kotlin { jvmToolchain(17) }`.",
)

SWIFT_MAIN_ACTOR = Shape(
    "swift-main-actor",
    "stated cause: 'It turns out …'",
    "Swift/SwiftPM",
    one_session(
        "/Users/noor/Developer/Reader",
        Ask("Build the package after the refresh change."),
        Run(
            "swift build",
            "Building for debugging...\n/Users/noor/Developer/Reader/Sources/Reader/FeedController.swift:44:17: error: call to main actor-isolated instance method 'reload()' in a synchronous nonisolated context\n            self.reload()\n                 ^\nerror: fatalError",
            1,
        ),
        Say(
            "It turns out `reload()` is isolated to the main actor, and under Swift 6 strict concurrency the `Task` closure isn't, so the call is rejected. I marked the closure `@MainActor` (`Task { @MainActor in … }`)."
        ),
        Edit(
            "Sources/Reader/FeedController.swift",
            "Task {\n",
            "Task { @MainActor in\n",
        ),
        Run(
            "swift build",
            "Building for debugging...\n[6/6] Compiling Reader FeedController.swift\nBuild complete! (3.84s)",
        ),
        Say("The package builds."),
    ),
    trigger=r"swift build|main actor",
    cause=r"main actor|isolat",
    fix=r"@MainActor",
    junk=_junk(),
    expect="swift build: calling a main-actor-isolated method from a nonisolated Task closure fails under strict concurrency; mark the closure @MainActor.",
)

RUBY_FROZEN = Shape(
    "ruby-frozen-string",
    "stated cause: 'This is caused by …'",
    "Ruby/RSpec",
    one_session(
        "/home/sam/code/receipts",
        Ask("Run the formatter spec."),
        Run(
            "bundle exec rspec spec/lib/receipt_formatter_spec.rb",
            "F\n\nFailures:\n\n  1) ReceiptFormatter#render joins the lines\n     Failure/Error: buffer << line\n\n     FrozenError:\n       can't modify frozen String: \"\"\n     # ./lib/receipt_formatter.rb:12:in `block in render'\n\n1 example, 1 failure",
            1,
        ),
        Say(
            "This is caused by the `# frozen_string_literal: true` magic comment at the top of the file: `buffer = ''` is frozen, so `<<` raises. `String.new` gives a mutable buffer, so I used that."
        ),
        Edit("lib/receipt_formatter.rb", "buffer = ''", "buffer = String.new"),
        Run(
            "bundle exec rspec spec/lib/receipt_formatter_spec.rb",
            ".\n\nFinished in 0.01 seconds\n1 example, 0 failures",
        ),
        Say("The spec passes."),
    ),
    trigger=r"rspec|FrozenError",
    cause=r"frozen",
    fix=r"String\.new",
    junk=_junk(),
    expect="rspec FrozenError: with `# frozen_string_literal: true` a '' literal is frozen; build the buffer with String.new.",
)

PHP_STRICT_TYPES = Shape(
    "php-strict-types",
    "stated cause: '…, that's what broke'",
    "PHP/PHPUnit",
    one_session(
        "/home/eli/www/shop",
        Ask("phpunit is failing on the import test"),
        Run(
            "vendor/bin/phpunit tests/Import/PriceImportTest.php",
            "PHPUnit 10.5.9 by Sebastian Bergmann and contributors.\n\nE\n\nThere was 1 error:\n\n1) Tests\\Import\\PriceImportTest::testImportsPrices\nTypeError: App\\Money::fromCents(): Argument #1 ($cents) must be of type int, string given, called in /home/eli/www/shop/src/Import/PriceImport.php on line 27\n\nERRORS!\nTests: 1, Assertions: 0, Errors: 1.",
            2,
        ),
        Say(
            "The CSV reader returns every column as a string and `PriceImport.php` declares `strict_types=1`, so PHP won't coerce it to int — that's what broke. I now cast the column with `(int)` when reading the row."
        ),
        Edit(
            "src/Import/PriceImport.php",
            "Money::fromCents($row[2])",
            "Money::fromCents((int) $row[2])",
        ),
        Run(
            "vendor/bin/phpunit tests/Import/PriceImportTest.php",
            "PHPUnit 10.5.9 by Sebastian Bergmann and contributors.\n\n.\n\nOK (1 test, 3 assertions)",
        ),
        Say("The import test passes."),
        host="gemini",
    ),
    trigger=r"phpunit|PriceImport|TypeError",
    cause=r"strict_types|string",
    fix=r"\(int\)|cast",
    junk=_junk(),
    expect="phpunit TypeError: CSV columns are strings and strict_types=1 forbids coercion; cast with (int).",
)

CMAKE_THREADS = Shape(
    "cmake-threads-link",
    "stated cause: 'The culprit was …'",
    "C++/CMake",
    one_session(
        "/home/vik/src/pipeline",
        Ask("Build the worker."),
        Run(
            "cmake --build build --target worker",
            "[ 50%] Building CXX object src/CMakeFiles/worker.dir/worker.cpp.o\n[100%] Linking CXX executable worker\n/usr/bin/ld: CMakeFiles/worker.dir/worker.cpp.o: in function `std::thread::thread<void (&)()>(void (&)())':\nworker.cpp:(.text+0x6b): undefined reference to `pthread_create'\ncollect2: error: ld returned 1 exit status\ngmake[2]: *** [src/CMakeFiles/worker.dir/build.make:97: src/worker] Error 1\ngmake: *** [Makefile:91: all] Error 2",
            2,
        ),
        Say(
            "The culprit was the missing thread library: `worker` uses `std::thread` but its target never links Threads. I added `find_package(Threads REQUIRED)` and `target_link_libraries(worker PRIVATE Threads::Threads)` to `src/CMakeLists.txt`."
        ),
        Edit(
            "src/CMakeLists.txt",
            "add_executable(worker worker.cpp)\n",
            "add_executable(worker worker.cpp)\nfind_package(Threads REQUIRED)\ntarget_link_libraries(worker PRIVATE Threads::Threads)\n",
        ),
        Run(
            "cmake --build build --target worker",
            "-- Configuring done (0.1s)\n-- Generating done (0.0s)\n[100%] Linking CXX executable worker\n[100%] Built target worker",
        ),
        Say("The worker builds."),
    ),
    trigger=r"cmake --build|pthread_create|undefined reference",
    cause=r"thread",
    fix=r"Threads::Threads|find_package\(Threads",
    junk=_junk(),
    expect="cmake --build: undefined reference to pthread_create when a target uses std::thread; link Threads::Threads (find_package(Threads REQUIRED)).",
)

JEST_ESM = Shape(
    "jest-esm-package",
    "stated cause: '…, hence the SyntaxError. Added …'",
    "TypeScript/Jest",
    one_session(
        "/home/zoe/work/links",
        Ask("npm test broke after I added nanoid"),
        Run(
            "npm test",
            "> links@1.4.0 test\n> jest\n\n FAIL  src/shorten.test.ts\n  ● Test suite failed to run\n\n    Jest encountered an unexpected token\n\n    /home/zoe/work/links/node_modules/nanoid/index.js:1\n    ({\"Object.<anonymous>\":function(module,exports,require,__dirname,__filename,jest){import { webcrypto as crypto } from 'node:crypto'\n                                                                                      ^^^^^^\n\n    SyntaxError: Cannot use import statement outside a module\n\nTest Suites: 1 failed, 3 passed, 4 total",
            1,
        ),
        Say(
            "Jest doesn't transform anything under node_modules by default, and nanoid 5 ships ESM only, hence the SyntaxError. Added `transformIgnorePatterns: ['node_modules/(?!nanoid)']` to `jest.config.js` so ts-jest compiles it."
        ),
        Edit(
            "jest.config.js",
            "  preset: 'ts-jest',\n",
            "  preset: 'ts-jest',\n  transformIgnorePatterns: ['node_modules/(?!nanoid)'],\n",
        ),
        Run(
            "npm test",
            "> links@1.4.0 test\n> jest\n\n PASS  src/shorten.test.ts\nTest Suites: 4 passed, 4 total\nTests:       19 passed, 19 total",
        ),
        Say("All four suites pass."),
    ),
    trigger=r"npm test|jest|Cannot use import statement",
    cause=r"ESM|node_modules",
    fix=r"transformIgnorePatterns",
    junk=_junk(),
    expect="npm test (Jest): an ESM-only package under node_modules is not transformed; add it to transformIgnorePatterns' exception.",
)

GO_BUILD_TAG = Shape(
    "go-build-tag-helper",
    "stated cause: 'X lives in …, which has …, so …'",
    "Go",
    one_session(
        "/home/kim/go/src/shelfd",
        Ask("Add a unit test for the store's Delete and run the package tests."),
        Run(
            "go test ./internal/store/",
            "# shelfd/internal/store [shelfd/internal/store.test]\ninternal/store/delete_test.go:11:8: undefined: openTestDB\nFAIL\tshelfd/internal/store [build failed]\nFAIL",
            1,
        ),
        Say(
            "`openTestDB` lives in `store_integration_test.go`, which starts with a `//go:build integration` constraint, so a plain `go test` never compiles it. I moved the helper into a new `helpers_test.go` without the build tag."
        ),
        Write(
            "internal/store/helpers_test.go",
            'package store\n\nimport (\n\t"database/sql"\n\t"testing"\n)\n\nfunc openTestDB(t *testing.T) *sql.DB {\n\tt.Helper()\n\tdb, err := sql.Open("sqlite", ":memory:")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\treturn db\n}\n',
        ),
        Run(
            "go test ./internal/store/",
            "ok  \tshelfd/internal/store\t0.412s",
        ),
        Say("The store tests pass, the new Delete test included."),
        host="codex",
    ),
    trigger=r"go test|openTestDB|undefined",
    cause=r"go:build integration|build (?:tag|constraint)",
    fix=r"helpers_test\.go|moved",
    junk=_junk(),
    expect="go test: a helper in a file with `//go:build integration` is not compiled by plain go test; keep shared test helpers in an untagged _test.go file.",
)

DOTNET_SQLITE = Shape(
    "dotnet-sqlite-in-memory",
    "stated cause: 'What happened: …'",
    "C#/.NET",
    one_session(
        "/home/ana/src/invoicing",
        Ask("The repository tests fail, please fix."),
        Run(
            "dotnet test tests/Invoicing.Data.Tests",
            "  Failed Invoicing.Data.Tests.OrderRepositoryTests.SavesOrder [12 ms]\n  Error Message:\n   Microsoft.Data.Sqlite.SqliteException : SQLite Error 1: 'no such table: Orders'.\n  Stack Trace:\n     at Microsoft.Data.Sqlite.SqliteException.ThrowExceptionForRC(Int32 rc, sqlite3 db)\n\nFailed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12",
            1,
        ),
        Say(
            "What happened: the fixture opens SQLite with `Data Source=:memory:` through a connection string, so every `DbContext` gets its own connection and the in-memory database (and the tables `EnsureCreated()` made) vanishes when the first one closes. Keeping one open `SqliteConnection` for the fixture's lifetime and passing it to `UseSqlite(connection)` fixes it."
        ),
        Edit(
            "tests/Invoicing.Data.Tests/DbFixture.cs",
            'options.UseSqlite("Data Source=:memory:")',
            "options.UseSqlite(_connection)",
        ),
        Run(
            "dotnet test tests/Invoicing.Data.Tests",
            "Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12",
        ),
        Say("All 12 data tests pass."),
    ),
    trigger=r"dotnet test|no such table",
    cause=r"in-memory|:memory:|connection",
    fix=r"open|SqliteConnection|UseSqlite\(",
    junk=_junk(),
    expect="dotnet test: an in-memory SQLite database vanishes when its connection closes (no such table); keep one SqliteConnection open for the fixture and pass it to UseSqlite.",
)

RUST_CLIPPY = Shape(
    "rust-clippy-derivable",
    "stated cause: 'X rejects … since …; replaced …'",
    "Rust/cargo",
    one_session(
        "/home/tom/src/fetchq",
        Ask("Run clippy the way CI does."),
        Run(
            "cargo clippy --all-targets -- -D warnings",
            "    Checking fetchq v0.3.1 (/home/tom/src/fetchq)\nerror: this `impl` can be derived\n  --> src/config.rs:18:1\n   |\n18 | / impl Default for RetryPolicy {\n19 | |     fn default() -> Self {\n   | |_^\n   = note: `-D clippy::derivable-impls` implied by `-D warnings`\n\nerror: could not compile `fetchq` (lib) due to 1 previous error",
            101,
        ),
        Say(
            "Clippy rejects the hand-written `Default` impl for `RetryPolicy` since every field is at its default and CI runs clippy with `-D warnings`; replaced it with `#[derive(Default)]`."
        ),
        Edit(
            "src/config.rs",
            "pub struct RetryPolicy {",
            "#[derive(Default)]\npub struct RetryPolicy {",
        ),
        Run(
            "cargo clippy --all-targets -- -D warnings",
            "    Checking fetchq v0.3.1 (/home/tom/src/fetchq)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.21s",
        ),
        Say("Clippy is clean."),
    ),
    trigger=r"clippy",
    cause=r"derivable|-D warnings|can be derived|hand-written",
    fix=r"derive\(Default\)",
    junk=_junk(),
    expect="cargo clippy -D warnings: a hand-written Default impl that can be derived is an error; use #[derive(Default)].",
)

SWIFT_RESOURCES = Shape(
    "swift-test-resources",
    "stated cause: 'X doesn't … unless …, so …'",
    "Swift/SwiftPM",
    one_session(
        "/Users/noor/Developer/Reader",
        Ask("Run the parser tests."),
        Run(
            "swift test --filter FeedParserTests",
            "Building for debugging...\nBuild complete! (2.10s)\nTest Suite 'FeedParserTests' started.\nReaderTests/FeedParserTests.swift:12: Fatal error: fixture feed.json not found in Bundle.module\nerror: Exited with unexpected signal code 5",
            1,
        ),
        Say(
            'SwiftPM doesn\'t copy test fixtures into the bundle unless the target declares them, so `Bundle.module` had no `feed.json`. I declared `resources: [.copy("Fixtures")]` on the `ReaderTests` target in `Package.swift`.'
        ),
        Edit(
            "Package.swift",
            '.testTarget(name: "ReaderTests", dependencies: ["Reader"])',
            '.testTarget(name: "ReaderTests", dependencies: ["Reader"], resources: [.copy("Fixtures")])',
        ),
        Run(
            "swift test --filter FeedParserTests",
            "Building for debugging...\nBuild complete! (3.02s)\nTest Suite 'FeedParserTests' passed.\n\t Executed 6 tests, with 0 failures (0 unexpected) in 0.031 seconds",
        ),
        Say("The parser tests pass."),
    ),
    trigger=r"swift test|Bundle\.module|feed\.json",
    cause=r"declare|resources|bundle",
    fix=r"\.copy\(|resources:",
    junk=_junk(),
    expect='swift test: fixtures are only in Bundle.module when the test target declares them; add resources: [.copy("Fixtures")] in Package.swift.',
)

ELIXIR_WARNINGS = Shape(
    "elixir-warnings-as-errors",
    "stated cause: '**Cause:** … **Fix:** …'",
    "Elixir/mix",
    one_session(
        "/home/ines/src/courier",
        Ask("Compile it like CI does."),
        Run(
            "mix compile --warnings-as-errors",
            'Compiling 3 files (.ex)\n    warning: variable "opts" is unused (if the variable is not meant to be used, prefix it with an underscore)\n    │\n 41 │   def handle_call({:route, parcel}, _from, opts) do\n    │                                            ~~~~\n    │\n    └─ lib/courier/router.ex:41:44: Courier.Router.handle_call/3\n\nCompilation failed due to warnings while using the --warnings-as-errors option',
            1,
        ),
        Say(
            "**Cause:** CI compiles with `--warnings-as-errors`, and `opts` in `Courier.Router.handle_call/3` is unused.\n**Fix:** renamed it to `_opts`."
        ),
        Edit(
            "lib/courier/router.ex",
            "def handle_call({:route, parcel}, _from, opts) do",
            "def handle_call({:route, parcel}, _from, _opts) do",
        ),
        Run(
            "mix compile --warnings-as-errors",
            "Compiling 3 files (.ex)\nGenerated courier app",
        ),
        Say("It compiles cleanly."),
    ),
    trigger=r"mix compile|warnings-as-errors",
    cause=r"unused",
    fix=r"_opts|underscore",
    junk=_junk(),
    expect="mix compile --warnings-as-errors fails on an unused variable; prefix it with an underscore.",
)

# --- must not become a pitfall ----------------------------------------------------------------

GUESS_TAKEN_BACK = Shape(
    "rust-guess-taken-back",
    "must not fire: a guess the assistant takes back, failure left open",
    "Rust/cargo",
    one_session(
        "/home/tom/src/fetchq",
        Ask("cargo test fails on the date parsing test"),
        Run(
            "cargo test parse_since",
            "running 1 test\ntest config::tests::parse_since ... FAILED\n\n---- config::tests::parse_since stdout ----\nthread 'config::tests::parse_since' panicked at src/config.rs:77:9:\nassertion `left == right` failed\n  left: 2026-03-01T00:00:00Z\n right: 2026-02-28T23:00:00Z\n\ntest result: FAILED. 0 passed; 1 failed",
            101,
        ),
        Say(
            "This fails because chrono's `serde` feature isn't enabled, so the timestamp goes through the fallback parser. Enabling it."
        ),
        Edit(
            "Cargo.toml",
            'chrono = "0.4"',
            'chrono = { version = "0.4", features = ["serde"] }',
        ),
        Run(
            "cargo test parse_since",
            "running 1 test\ntest config::tests::parse_since ... FAILED\n\n  left: 2026-03-01T00:00:00Z\n right: 2026-02-28T23:00:00Z\n\ntest result: FAILED. 0 passed; 1 failed",
            101,
        ),
        Say(
            "No, that wasn't it: the feature makes no difference and I reverted it. The one-hour gap points at a time zone somewhere, but I haven't found where yet."
        ),
        Ask("ok leave it for now, I'll dig into it tomorrow"),
        Say("Left it; `Cargo.toml` is back as it was."),
    ),
    fires=False,
    junk=_junk(r"serde"),
    expect="none (the only stated cause was taken back; the failure is open)",
)

WRONG_THEN_RIGHT = Shape(
    "kotlin-wrong-then-right",
    "a cause that turned out wrong, then the real one: only the real one may be kept",
    "Kotlin/Gradle",
    one_session(
        "/home/ola/dev/tariff-service",
        Ask("./gradlew test fails on the tariff test, fix it"),
        Run(
            "./gradlew test --tests TariffCalculatorTest",
            "> Task :test FAILED\n\nTariffCalculatorTest > night rate applies after 22h FAILED\n    org.opentest4j.AssertionFailedError: expected: <0.18> but was: <0.32>\n\n1 test completed, 1 failed\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in 9s",
            1,
        ),
        Say(
            "This fails because the test's clock runs in the machine's time zone, so 22:30 is already the next day in UTC. I'll pin the test clock to UTC."
        ),
        Edit(
            "src/test/kotlin/TariffCalculatorTest.kt",
            "Clock.systemDefaultZone()",
            'Clock.fixed(Instant.parse("2026-01-10T22:30:00Z"), ZoneOffset.UTC)',
        ),
        Run(
            "./gradlew test --tests TariffCalculatorTest",
            "> Task :test FAILED\n\nTariffCalculatorTest > night rate applies after 22h FAILED\n    org.opentest4j.AssertionFailedError: expected: <0.18> but was: <0.32>\n\nBUILD FAILED in 8s",
            1,
        ),
        Say(
            "The time zone was not the cause after all, the test still fails with the clock pinned. The real reason: `TariffCalculator` compares `hour > 22`, so 22:30 counts as day rate; the night rate starts at 22:00 inclusive. Changed it to `hour >= 22`."
        ),
        Edit(
            "src/main/kotlin/TariffCalculator.kt",
            "hour > 22",
            "hour >= 22",
        ),
        Run(
            "./gradlew test --tests TariffCalculatorTest",
            "> Task :test\n\nBUILD SUCCESSFUL in 8s",
        ),
        Say("The tariff test passes."),
    ),
    trigger=r"gradlew test|TariffCalculator",
    cause=r"hour > 22|inclusive|22:00",
    fix=r"hour >= 22|>=",
    junk=_junk(r"time zone|UTC"),
    expect="TariffCalculator: the night rate starts at 22:00 inclusive (hour >= 22); not the time zone guess.",
)

HEDGED_CAUSE = Shape(
    "cpp-hedged-cause",
    "must not fire: a cause stated as a guess, never confirmed",
    "C++/CMake",
    one_session(
        "/home/vik/src/pipeline",
        Ask("ctest crashes on the queue test"),
        Run(
            "ctest --test-dir build -R queue --output-on-failure",
            "Test project /home/vik/src/pipeline/build\n    Start 4: queue_test\n1/1 Test #4: queue_test .......................***Exception: SegFault  0.21 sec\n\n0% tests passed, 1 tests failed out of 1\n\nThe following tests FAILED:\n\t  4 - queue_test (SEGFAULT)",
            8,
        ),
        Say(
            "The crash might be due to the iterator in `drain()` being invalidated by `push_back`, but I'm not certain. I added a `reserve()` before the loop to see if it changes anything."
        ),
        Edit(
            "src/queue.cpp",
            "for (auto it = items_.begin();",
            "items_.reserve(items_.size() * 2);\n  for (auto it = items_.begin();",
        ),
        Run(
            "ctest --test-dir build -R queue --output-on-failure",
            "Test project /home/vik/src/pipeline/build\n    Start 4: queue_test\n1/1 Test #4: queue_test .......................   Passed    0.02 sec\n\n100% tests passed, 0 tests failed out of 1",
        ),
        Say(
            "It passes now, though that alone doesn't prove the iterator was the problem; it could be timing."
        ),
    ),
    fires=False,
    junk=_junk(r"iterator|reserve"),
    expect="none (the cause was hedged and never confirmed)",
)

NETWORK_HICCUP = Shape(
    "go-network-hiccup",
    "must not fire: a network blip, the same command then passes",
    "Go",
    one_session(
        "/home/kim/go/src/shelfd",
        Ask("Fetch the modules and build."),
        Run(
            "go mod download",
            'go: github.com/jackc/pgx/v5@v5.5.5: Get "https://proxy.golang.org/github.com/jackc/pgx/v5/@v/v5.5.5.zip": dial tcp: lookup proxy.golang.org: i/o timeout',
            1,
        ),
        Say("That was a network hiccup (the DNS lookup timed out); retrying."),
        Run("go mod download", ""),
        Run("go build ./...", ""),
        Say("Modules fetched and everything builds."),
    ),
    fires=False,
    expect="none (a network blip)",
)

COMMAND_TYPO = Shape(
    "ruby-command-typo",
    "must not fire: a typo in the command",
    "Ruby/RSpec",
    one_session(
        "/home/sam/code/receipts",
        Ask("Run the whole spec suite."),
        Run(
            "bundle exec rpsec",
            "bundler: command not found: rpsec\nInstall missing gem executables with `bundle install`",
            127,
        ),
        Say("Typo on my part, it's `rspec`. Running it again."),
        Run(
            "bundle exec rspec",
            "........................\n\nFinished in 0.42 seconds\n24 examples, 0 failures",
        ),
        Say("All 24 examples pass."),
    ),
    fires=False,
    expect="none (a typo in the command)",
)

TEST_FIRST = Shape(
    "kotlin-test-first",
    "must not fire: a new test failing because the feature is not written yet",
    "Kotlin/Gradle",
    one_session(
        "/home/ola/dev/tariff-service",
        Ask("Add a loyalty discount: write the test first, then implement it."),
        Edit(
            "src/test/kotlin/DiscountTest.kt",
            "class DiscountTest {\n",
            "class DiscountTest {\n    @Test\n    fun `loyal customers get 15 percent off`() {\n        assertEquals(85.0, applyDiscount(100.0, Customer(loyal = true)))\n    }\n",
        ),
        Run(
            "./gradlew test --tests DiscountTest",
            "> Task :test FAILED\n\nDiscountTest > loyal customers get 15 percent off() FAILED\n    org.opentest4j.AssertionFailedError: expected: <85.0> but was: <100.0>\n\nBUILD FAILED in 7s",
            1,
        ),
        Say(
            "The test fails because `applyDiscount` doesn't know about loyalty yet, as expected for the first step. Implementing it now: loyal customers get 15% off."
        ),
        Edit(
            "src/main/kotlin/Discount.kt",
            "fun applyDiscount(price: Double, customer: Customer): Double = price\n",
            "fun applyDiscount(price: Double, customer: Customer): Double =\n    if (customer.loyal) price * 0.85 else price\n",
        ),
        Run("./gradlew test --tests DiscountTest", "> Task :test\n\nBUILD SUCCESSFUL in 6s"),
        Say("The discount test passes."),
        host="codex",
    ),
    fires=False,
    expect="none (the test failed because the feature was not written yet)",
)

PLAN_ONLY = Shape(
    "php-plan-only",
    "must not fire: a plan to check a possible cause, then the user stops",
    "PHP/PHPUnit",
    one_session(
        "/home/eli/www/shop",
        Ask("composer test fails on the checkout test"),
        Run(
            "composer test -- --filter CheckoutTest",
            "> vendor/bin/phpunit --filter CheckoutTest\nPHPUnit 10.5.9 by Sebastian Bergmann and contributors.\n\nF\n\nThere was 1 failure:\n\n1) Tests\\Feature\\CheckoutTest::testPlacesOrder\nFailed asserting that 0 matches expected 1.\n\nFAILURES!\nTests: 1, Assertions: 2, Failures: 1.\nScript vendor/bin/phpunit handling the test event returned with error code 1",
            1,
        ),
        Say(
            "I'll check whether the products table is seeded before the suite runs; it may be that `DatabaseSeeder` isn't called from the test's `setUp`, which would leave the cart empty."
        ),
        Ask("stop there, I'll look at it after lunch"),
        Say("Stopped; nothing changed."),
    ),
    fires=False,
    junk=_junk(r"seed"),
    expect="none (a plan to check a possible cause)",
)

FLAKY_RERUN = Shape(
    "dart-flaky-rerun",
    "must not fire: a timeout the assistant calls flaky, the rerun passes unchanged",
    "Dart/Flutter",
    one_session(
        "/home/lea/dev/basket_app",
        Ask("Run the integration test for checkout."),
        Run(
            "flutter test integration_test/checkout_test.dart",
            "00:31 +0 -1: checkout completes [E]\n  TimeoutException after 0:00:30.000000: Test timed out after 30 seconds.\n00:31 +0 -1: Some tests failed.",
            1,
        ),
        Say("A one-off timeout of the emulator; running it again unchanged."),
        Run(
            "flutter test integration_test/checkout_test.dart",
            "00:12 +1: All tests passed!",
        ),
        Say("The checkout integration test passes."),
        host="gemini",
    ),
    fires=False,
    expect="none (a one-off timeout, passes unchanged)",
)

CASES: tuple[Shape, ...] = (
    DOTNET_WARNINGS,
    PYTHON_DECIMAL,
    DART_AUTODISPOSE,
    RUST_OPTIONAL_DEP,
    GO_RACE,
    ELIXIR_SANDBOX,
    KOTLIN_JVM_TARGET,
    SWIFT_MAIN_ACTOR,
    RUBY_FROZEN,
    PHP_STRICT_TYPES,
    CMAKE_THREADS,
    JEST_ESM,
    GO_BUILD_TAG,
    DOTNET_SQLITE,
    RUST_CLIPPY,
    SWIFT_RESOURCES,
    ELIXIR_WARNINGS,
    GUESS_TAKEN_BACK,
    WRONG_THEN_RIGHT,
    HEDGED_CAUSE,
    NETWORK_HICCUP,
    COMMAND_TYPO,
    TEST_FIRST,
    PLAN_ONLY,
    FLAKY_RERUN,
)
