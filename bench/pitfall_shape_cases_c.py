# ruff: noqa: E501  (transcript text: outputs are kept as one string a line)
"""A third set of made-up pitfall sessions (`bench/pitfall_shapes.py --set c` runs them alone),
written from how real sessions look in twelve ecosystems: a feature or a dependency a manifest
lacked, an environment variable, a flag, a tool's version, a migration run first, the cause the
assistant states after the failure; the fix the assistant claims in its reply with no edit seen
(done by a subagent, or lost from the transcript), the one edit between the failing and the
passing run whose words the error does not share, and a rerun whose result was lost while the
reply says it passed; and must-not-fire cases (a claimed fix never rerun, a claimed fix whose
rerun fails, a lost result the reply says still fails, a lost result nobody reports on, a TDD
red step, a search that finds nothing, a failure the user says to leave, the bug the user asked
to fix, a dev server stopped by its time limit). Every case, its patterns included, was written
before any rule was read or run on it.
"""

from __future__ import annotations

from bench.pitfall_shape_cases import Shape
from bench.trap_transcripts import Ask, Edit, Lost, Run, Say, Write, one_session


def _junk(*more: str) -> tuple[str, ...]:
    return (*Shape.junk, *more)


RUST_FEATURE = Shape(
    "cargo-tokio-feature",
    "a dependency's feature added in the manifest (Edit), the error's note names it",
    "Rust/cargo",
    one_session(
        "/home/tomas/src/logship",
        Ask("Run the tests for the tailer."),
        Run(
            "cargo test -p tailer",
            "   Compiling tailer v0.2.0 (/home/tomas/src/logship/tailer)\nerror[E0432]: unresolved import `tokio::fs`\n --> tailer/src/lib.rs:4:12\n  |\n4 | use tokio::fs::File;\n  |            ^^ could not find `fs` in `tokio`\n  |\nnote: found an item that was configured out\n --> /home/tomas/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.37.0/src/lib.rs:536:13\n  |\n536 |     pub mod fs;\n  |             ^^\n  = note: the item is gated behind the `fs` feature\n\nFor more information about this error, try `rustc --explain E0432`.\nerror: could not compile `tailer` (lib) due to 1 previous error",
            101,
        ),
        Edit(
            "tailer/Cargo.toml",
            'tokio = { version = "1.37", features = ["rt", "macros"] }',
            'tokio = { version = "1.37", features = ["rt", "macros", "fs"] }',
        ),
        Run(
            "cargo test -p tailer",
            "   Compiling tokio v1.37.0\n   Compiling tailer v0.2.0 (/home/tomas/src/logship/tailer)\n    Finished `test` profile [unoptimized + debuginfo] target(s) in 9.81s\n     Running unittests src/lib.rs (target/debug/deps/tailer-3f2a9c1d0e7b6a55)\n\nrunning 11 tests\ntest result: ok. 11 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s",
        ),
        Say("The tailer's 11 tests pass."),
    ),
    trigger=r"cargo test",
    cause=r"gated behind the `?fs`? feature|tokio::fs|could not find `?fs`?",
    fix=r'"fs"|fs feature|features',
    junk=_junk(r"For more information about this error", r"could not compile"),
)

RUST_CLAIM = Shape(
    "cargo-link-claimed",
    "a fix claimed in the reply (a line added to build.rs), no edit seen; the rerun passes",
    "Rust/cargo",
    one_session(
        "/home/tomas/src/logship",
        Ask("Build the archiver binary."),
        Run(
            "cargo build --bin archiver",
            '   Compiling pq-sys v0.6.1\n   Compiling archiver v0.2.0 (/home/tomas/src/logship/archiver)\nerror: linking with `cc` failed: exit status: 1\n  |\n  = note: LC_ALL="C" PATH="/usr/local/bin:/usr/bin" "cc" "-m64" "/tmp/rustcXyz/symbols.o" ...\n  = note: /usr/bin/ld: cannot find -lpq: No such file or directory\n          collect2: error: ld returned 1 exit status\n\nerror: could not compile `archiver` (bin "archiver") due to 1 previous error',
            101,
        ),
        Say(
            "The linker can't find libpq: it's installed by Homebrew under /usr/local/opt/libpq/lib, which isn't on the default search path. I added `println!(\"cargo:rustc-link-search=native=/usr/local/opt/libpq/lib\");` to archiver/build.rs."
        ),
        Run(
            "cargo build --bin archiver",
            "   Compiling archiver v0.2.0 (/home/tomas/src/logship/archiver)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 4.12s",
        ),
        Say("The archiver builds."),
    ),
    trigger=r"cargo build",
    cause=r"cannot find -lpq|libpq",
    fix=r"rustc-link-search|build\.rs",
    junk=_junk(r"LC_ALL=", r"collect2"),
)

GO_CGO = Shape(
    "go-cgo-enabled",
    "fails, then passes with an environment variable set",
    "Go",
    one_session(
        "/home/wen/src/notes-api",
        Ask("Run the store tests."),
        Run(
            "go test ./internal/store/...",
            "--- FAIL: TestSaveNote (0.00s)\n    store_test.go:21: open store: Binary was compiled with 'CGO_ENABLED=0', go-sqlite3 requires cgo to work. This is a stub\nFAIL\nFAIL\texample.com/notes-api/internal/store\t0.011s\nFAIL",
            1,
        ),
        Run(
            "CGO_ENABLED=1 go test ./internal/store/...",
            "ok  \texample.com/notes-api/internal/store\t1.204s",
        ),
        Say("The store tests pass with cgo on (go-sqlite3 needs it)."),
        host="codex",
    ),
    trigger=r"go test",
    cause=r"cgo|CGO_ENABLED=0|stub",
    fix=r"CGO_ENABLED=1",
)

GO_DIAGNOSED = Shape(
    "go-nil-map-diagnosed",
    "the cause stated in the reply after a look, fixed by an edit",
    "Go",
    one_session(
        "/home/wen/src/notes-api",
        Ask("Run the tag tests before I add the rename endpoint."),
        Run(
            "go test ./internal/tags/",
            "--- FAIL: TestAddTag (0.00s)\npanic: assignment to entry in nil map [recovered]\n\tpanic: assignment to entry in nil map\n\ngoroutine 7 [running]:\ntesting.tRunner.func1.2({0x6d2b40, 0x7a1c30})\n\t/usr/local/go/src/testing/testing.go:1631 +0x24a\nexample.com/notes-api/internal/tags.(*Index).Add(...)\n\t/home/wen/src/notes-api/internal/tags/index.go:28\nFAIL\texample.com/notes-api/internal/tags\t0.009s\nFAIL",
            1,
        ),
        Run(
            "sed -n 1,40p internal/tags/index.go",
            "package tags\n\ntype Index struct {\n\tbyTag map[string][]int\n}\n\nfunc (ix *Index) Add(tag string, id int) {\n\tix.byTag[tag] = append(ix.byTag[tag], id)\n}",
        ),
        Say(
            "The panic comes from `Index` being used as a zero value: `byTag` is never made, so the first `Add` writes into a nil map. I'll add a `NewIndex` constructor that makes the map and use it in the handler and the tests."
        ),
        Edit(
            "internal/tags/index.go",
            "type Index struct {\n\tbyTag map[string][]int\n}",
            "type Index struct {\n\tbyTag map[string][]int\n}\n\nfunc NewIndex() *Index {\n\treturn &Index{byTag: make(map[string][]int)}\n}",
        ),
        Run("go test ./internal/tags/", "ok  \texample.com/notes-api/internal/tags\t0.006s"),
        Say("The tag tests pass."),
    ),
    trigger=r"go test",
    cause=r"nil map|zero value|never made",
    fix=r"NewIndex|make\(map",
    junk=_junk(r"goroutine \d+ \[running\]", r"tRunner"),
)

ELIXIR_DEPS = Shape(
    "mix-deps-get-first",
    "a command run first (dependencies fetched), the error's own hint",
    "Elixir/mix",
    one_session(
        "/home/noor/src/courier",
        Ask("Run the tests."),
        Run(
            "mix test",
            'Unchecked dependencies for environment test:\n* ex_machina (Hex package)\n  the dependency is not available, run "mix deps.get"\n** (Mix) Can\'t continue due to errors on dependencies',
            1,
        ),
        Run(
            "mix deps.get",
            "Resolving Hex dependencies...\nResolution completed in 0.061s\nUnchanged:\n  jason 1.4.1\nNew:\n  ex_machina 2.7.0\n* Getting ex_machina (Hex package)",
        ),
        Run(
            "mix test",
            "==> ex_machina\nCompiling 7 files (.ex)\nGenerated ex_machina app\n==> courier\nCompiling 31 files (.ex)\nGenerated courier app\n.......................................\nFinished in 0.9 seconds (0.4s async, 0.5s sync)\n39 tests, 0 failures",
        ),
        Say("All 39 tests pass."),
        host="gemini",
    ),
    trigger=r"mix test",
    cause=r"ex_machina|dependency is not available|Unchecked dependencies",
    fix=r"mix deps\.get",
    junk=_junk(r"Can't continue due to errors", r"Generated \w+ app"),
)

ELIXIR_EXPLAINED = Shape(
    "mix-test-db-behind",
    "the cause stated in the reply, a command run first (migration)",
    "Elixir/Phoenix",
    one_session(
        "/home/noor/src/courier",
        Ask("Run the order tests."),
        Run(
            "mix test test/courier/orders_test.exs",
            '==> courier\nCompiling 2 files (.ex)\n\n  1) test create_order/1 stores the order (Courier.OrdersTest)\n     test/courier/orders_test.exs:12\n     ** (Postgrex.Error) ERROR 42P01 (undefined_table) relation "orders" does not exist\n\n         query: INSERT INTO "orders" ("status","inserted_at","updated_at") VALUES ($1,$2,$3) RETURNING "id"\n     code: {:ok, order} = Orders.create_order(%{status: :new})\n\nFinished in 0.2 seconds (0.00s async, 0.2s sync)\n4 tests, 4 failures',
            2,
        ),
        Say(
            "The test database is behind: this project's `test` alias in mix.exs doesn't run `ecto.migrate`, so the orders migration I added earlier never reached the test database. Migrating it by hand."
        ),
        Run(
            "MIX_ENV=test mix ecto.migrate",
            "09:14:02.331 [info] == Running 20260503120000 Courier.Repo.Migrations.CreateOrders.change/0 forward\n09:14:02.334 [info] create table orders\n09:14:02.341 [info] == Migrated 20260503120000 in 0.0s",
        ),
        Run(
            "mix test test/courier/orders_test.exs",
            "....\nFinished in 0.2 seconds (0.00s async, 0.2s sync)\n4 tests, 0 failures",
        ),
        Say("The order tests pass."),
    ),
    trigger=r"mix test",
    cause=r"test database is behind|doesn't run `?ecto\.migrate|undefined_table|\"?orders\"? does not exist",
    fix=r"ecto\.migrate",
    junk=_junk(r"\[info\]", r"Finished in"),
)

RUBY_BUNDLE_EXEC = Shape(
    "rspec-bundle-exec",
    "fails, then passes with a prefix the error suggests",
    "Ruby/RSpec",
    one_session(
        "/home/ana/src/bookings",
        Ask("Run the user model specs."),
        Run(
            "rspec spec/models/user_spec.rb",
            "/home/ana/.rbenv/versions/3.3.0/lib/ruby/3.3.0/bundler/runtime.rb:304:in `check_for_activated_spec!': You have already activated rspec-core 3.13.0, but your Gemfile requires rspec-core 3.12.2. Prepending `bundle exec` to your command may solve this. (Gem::LoadError)\n\tfrom /home/ana/.rbenv/versions/3.3.0/lib/ruby/3.3.0/bundler/runtime.rb:25:in `block in setup'",
            1,
        ),
        Run(
            "bundle exec rspec spec/models/user_spec.rb",
            "..............\n\nFinished in 0.41233 seconds (files took 1.92 seconds to load)\n14 examples, 0 failures",
        ),
        Say("The 14 user specs pass."),
        host="codex-shell",
    ),
    trigger=r"rspec",
    cause=r"already activated rspec-core|Gemfile requires",
    fix=r"bundle exec",
    junk=_junk(r"check_for_activated_spec", r"block in setup"),
)

RAILS_PENDING = Shape(
    "rails-pending-migration",
    "a command run first (migration for the test environment)",
    "Ruby/Rails",
    one_session(
        "/home/ana/src/bookings",
        Ask("Run the tests for the rooms controller."),
        Run(
            "bin/rails test test/controllers/rooms_controller_test.rb",
            "Running 9 tests in a single process (parallelization threshold is 50)\nRun options: --seed 4022\n\n# Running:\n\nE\n\nError:\nRoomsControllerTest#test_should_get_index:\nActiveRecord::PendingMigrationError: \n\nMigrations are pending. To resolve this issue, run:\n\n        bin/rails db:migrate RAILS_ENV=test\n\nYou have 1 pending migration:\n\n20260501101500_add_capacity_to_rooms.rb\n",
            1,
        ),
        Run(
            "bin/rails db:migrate RAILS_ENV=test",
            "== 20260501101500 AddCapacityToRooms: migrating ===============================\n-- add_column(:rooms, :capacity, :integer)\n   -> 0.0021s\n== 20260501101500 AddCapacityToRooms: migrated (0.0022s) ======================",
        ),
        Run(
            "bin/rails test test/controllers/rooms_controller_test.rb",
            "Running 9 tests in a single process (parallelization threshold is 50)\nRun options: --seed 1187\n\n# Running:\n\n.........\n\nFinished in 0.612s, 14.7 runs/s, 21.2 assertions/s.\n9 runs, 13 assertions, 0 failures, 0 errors, 0 skips",
        ),
        Say("All nine controller tests pass."),
    ),
    trigger=r"rails test",
    cause=r"[Mm]igrations? (?:are )?pending|PendingMigrationError",
    fix=r"db:migrate",
    junk=_junk(r"Running \d+ tests in a single process", r"Run options", r"parallelization"),
)

GRADLE_JDK = Shape(
    "gradle-jdk-home",
    "the cause stated in the reply, passes with JAVA_HOME set",
    "Java/Gradle",
    one_session(
        "/home/raj/src/inventory",
        Ask("Build the service."),
        Run(
            "./gradlew build",
            "Starting a Gradle Daemon (subsequent builds will be faster)\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nCould not open settings generic class cache for settings file '/home/raj/src/inventory/settings.gradle' (/home/raj/.gradle/caches/8.4/scripts/2x7fhw0).\n> BUG! exception in phase 'semantic analysis' in source unit '_BuildScript_' Unsupported class file major version 65\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n> Run with --info or --debug option to get more log output.\n\nBUILD FAILED in 3s",
            1,
        ),
        Say(
            "Class file major version 65 is Java 21: the shell's default JDK is 21, and Gradle 8.4 (the wrapper's version) can't run on it. JDK 17 is installed, so I'll run the build with JAVA_HOME pointing at it."
        ),
        Run(
            "JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 ./gradlew build",
            "Starting a Gradle Daemon (subsequent builds will be faster)\n> Task :compileJava\n> Task :test\n> Task :check\n> Task :build\n\nBUILD SUCCESSFUL in 47s\n9 actionable tasks: 9 executed",
        ),
        Say("The build passes under JDK 17."),
    ),
    trigger=r"gradlew build",
    cause=r"major version 65|Java 21|JDK 21|Gradle 8\.4",
    fix=r"JAVA_HOME=\S*17|JDK 17",
    junk=_junk(r"Starting a Gradle Daemon", r"Run with --stacktrace", r"get more log output"),
)

SBT_METASPACE = Shape(
    "sbt-metaspace-jvmopts",
    "a config file written whole (.jvmopts), the error's line names the limit",
    "Scala/sbt",
    one_session(
        "/home/lin/src/pricing",
        Ask("Run the test suite."),
        Run(
            "sbt test",
            "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)\n[info] loading settings for project pricing-build from plugins.sbt ...\n[info] loading project definition from /home/lin/src/pricing/project\n[info] compiling 212 Scala sources to /home/lin/src/pricing/core/target/scala-2.13/classes ...\n[error] java.lang.OutOfMemoryError: Metaspace\n[error] \tat java.base/java.lang.ClassLoader.defineClass1(Native Method)\n[error] \tat java.base/java.lang.ClassLoader.defineClass(ClassLoader.java:1027)\n[error] (core / Compile / compileIncremental) java.lang.OutOfMemoryError: Metaspace\n[error] Total time: 88 s (01:28), completed May 4, 2026, 9:20:11 AM",
            1,
        ),
        Write(".jvmopts", "-Xms1G\n-Xmx4G\n-XX:MaxMetaspaceSize=2G\n-Xss4M\n"),
        Run(
            "sbt test",
            "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)\n[info] compiling 212 Scala sources to /home/lin/src/pricing/core/target/scala-2.13/classes ...\n[info] done compiling\n[info] Run completed in 14 seconds, 220 milliseconds.\n[info] Total number of tests run: 318\n[info] Suites: completed 41, aborted 0\n[info] Tests: succeeded 318, failed 0, canceled 0, ignored 0, pending 0\n[info] All tests passed.\n[success] Total time: 131 s (02:11), completed May 4, 2026, 9:24:40 AM",
        ),
        Say("All 318 tests pass now that sbt has more metaspace (.jvmopts)."),
        host="codex",
    ),
    trigger=r"sbt test",
    cause=r"OutOfMemoryError|Metaspace",
    fix=r"MaxMetaspaceSize|\.jvmopts",
    junk=_junk(
        r"welcome to sbt", r"loading settings", r"compiling \d+ Scala sources", r"Total time"
    ),
)

KOTLIN_SILENT_EDIT = Shape(
    "gradle-mockk-only-edit",
    "the one edit between the failing and the passing run; its words are not the error's",
    "Kotlin/Gradle",
    one_session(
        "/home/raj/src/inventory",
        Ask("Run the order service tests."),
        Run(
            "./gradlew :orders:test",
            "> Task :orders:compileKotlin UP-TO-DATE\n> Task :orders:compileTestKotlin FAILED\ne: file:///home/raj/src/inventory/orders/src/test/kotlin/OrderServiceTest.kt:31:9 Unresolved reference: coEvery\ne: file:///home/raj/src/inventory/orders/src/test/kotlin/OrderServiceTest.kt:35:9 Unresolved reference: coVerify\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':orders:compileTestKotlin'.\n> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction\n   > Compilation error. See log for more details\n\nBUILD FAILED in 6s",
            1,
        ),
        Edit(
            "orders/build.gradle.kts",
            '    testImplementation(kotlin("test"))',
            '    testImplementation(kotlin("test"))\n    testImplementation("io.mockk:mockk:1.13.10")',
        ),
        Run(
            "./gradlew :orders:test",
            "> Task :orders:compileTestKotlin\n> Task :orders:test\n\nBUILD SUCCESSFUL in 19s\n7 actionable tasks: 2 executed, 5 up-to-date",
        ),
        Say("The order service tests pass."),
    ),
    trigger=r"gradlew :orders:test|orders:test",
    cause=r"Unresolved reference|coEvery",
    fix=r"mockk|build\.gradle\.kts",
    junk=_junk(r"A failure occurred while executing", r"See log for more details"),
)

SWIFT_DESTINATION = Shape(
    "xcodebuild-destination",
    "fails, then passes with another argument the error lists",
    "Swift/Xcode",
    one_session(
        "/Users/kim/src/tally",
        Ask("Run the iOS unit tests."),
        Run(
            "xcodebuild test -scheme Tally -destination 'platform=iOS Simulator,name=iPhone 15'",
            'Command line invocation:\n    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild test -scheme Tally -destination "platform=iOS Simulator,name=iPhone 15"\n\nUser defaults from command line:\n    IDEPackageSupportUseBuiltinSCM = YES\n\n--- xcodebuild: WARNING: Using the first of multiple matching destinations:\nxcodebuild: error: Unable to find a destination matching the provided destination specifier:\n\t\t{ platform:iOS Simulator, OS:latest, name:iPhone 15 }\n\n\tAvailable destinations for the "Tally" scheme:\n\t\t{ platform:macOS, arch:arm64, variant:Designed for [iPad,iPhone], id:00006000-001A2D8E0E43801E, name:My Mac }\n\t\t{ platform:iOS Simulator, id:5C1B8A34-77E2-4C1F-9E1A-2B3C4D5E6F70, OS:18.1, name:iPhone 16 }\n\t\t{ platform:iOS Simulator, id:8A2D1C55-0B3E-4F6A-8C7D-1E2F3A4B5C6D, OS:18.1, name:iPhone 16 Pro }',
            70,
        ),
        Run(
            "xcodebuild test -scheme Tally -destination 'platform=iOS Simulator,name=iPhone 16'",
            "Test Suite 'All tests' started at 2026-05-04 09:31:10.201.\nTest Suite 'TallyTests.xctest' started at 2026-05-04 09:31:10.202.\nExecuted 57 tests, with 0 failures (0 unexpected) in 1.933 (1.981) seconds\n** TEST SUCCEEDED **",
        ),
        Say("All 57 tests pass on the iPhone 16 simulator (there is no iPhone 15 simulator here)."),
    ),
    trigger=r"xcodebuild test",
    cause=r"Unable to find a destination|iPhone 15|no iPhone 15",
    fix=r"iPhone 16",
    junk=_junk(r"Command line invocation", r"User defaults", r"IDEPackageSupport"),
)

DOTNET_TARGET = Shape(
    "dotnet-target-framework",
    "a project file's line changed (Edit), the error's line says which",
    ".NET/C#",
    one_session(
        "/home/lee/src/clinic-portal",
        Ask("Build the API project."),
        Run(
            "dotnet build src/Clinic.Api",
            "  Determining projects to restore...\n/usr/share/dotnet/sdk/8.0.204/Sdks/Microsoft.NET.Sdk/targets/Microsoft.NET.TargetFrameworkInference.targets(166,5): error NETSDK1045: The current .NET SDK does not support targeting .NET 9.0.  Either target .NET 8.0 or lower, or use a version of the .NET SDK that supports .NET 9.0. Download the .NET SDK from https://aka.ms/dotnet/download [/home/lee/src/clinic-portal/src/Clinic.Api/Clinic.Api.csproj]\n\nBuild FAILED.\n\n    0 Warning(s)\n    1 Error(s)\n\nTime Elapsed 00:00:01.02",
            1,
        ),
        Edit(
            "src/Clinic.Api/Clinic.Api.csproj",
            "<TargetFramework>net9.0</TargetFramework>",
            "<TargetFramework>net8.0</TargetFramework>",
        ),
        Run(
            "dotnet build src/Clinic.Api",
            "  Determining projects to restore...\n  Restored /home/lee/src/clinic-portal/src/Clinic.Api/Clinic.Api.csproj (in 412 ms).\n  Clinic.Api -> /home/lee/src/clinic-portal/src/Clinic.Api/bin/Debug/net8.0/Clinic.Api.dll\n\nBuild succeeded.\n    0 Warning(s)\n    0 Error(s)",
        ),
        Say("The API builds, targeting net8.0 (the installed SDK is 8.0.204)."),
        host="gemini",
    ),
    trigger=r"dotnet build",
    cause=r"NETSDK1045|does not support targeting|\.NET 9|SDK is 8",
    fix=r"net8\.0",
    junk=_junk(r"Determining projects to restore", r"Time Elapsed", r"\d Warning\(s\)"),
)

DOTNET_CLAIM = Shape(
    "dotnet-package-claimed",
    "a fix claimed in the reply (a package reference added), no edit seen; the rerun passes",
    ".NET/C#",
    one_session(
        "/home/lee/src/clinic-portal",
        Ask("Run the order tests."),
        Run(
            "dotnet test tests/Orders.Tests",
            "  Determining projects to restore...\n  All projects are up-to-date for restore.\n/home/lee/src/clinic-portal/tests/Orders.Tests/OrderTests.cs(3,7): error CS0246: The type or namespace name 'FluentAssertions' could not be found (are you missing a using directive or an assembly reference?) [/home/lee/src/clinic-portal/tests/Orders.Tests/Orders.Tests.csproj]\n\nBuild FAILED.",
            1,
        ),
        Say(
            'The test project uses FluentAssertions but never referenced it. I added `<PackageReference Include="FluentAssertions" Version="6.12.0" />` to tests/Orders.Tests/Orders.Tests.csproj.'
        ),
        Run(
            "dotnet test tests/Orders.Tests",
            "  Determining projects to restore...\n  Restored /home/lee/src/clinic-portal/tests/Orders.Tests/Orders.Tests.csproj (in 1.1 sec).\n  Orders.Tests -> /home/lee/src/clinic-portal/tests/Orders.Tests/bin/Debug/net8.0/Orders.Tests.dll\nTest run for /home/lee/src/clinic-portal/tests/Orders.Tests/bin/Debug/net8.0/Orders.Tests.dll (.NETCoreApp,Version=v8.0)\n\nPassed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, Duration: 311 ms - Orders.Tests.dll (net8.0)",
        ),
        Say("All 42 order tests pass."),
    ),
    trigger=r"dotnet test",
    cause=r"FluentAssertions|CS0246|could not be found|never referenced",
    fix=r"PackageReference|Orders\.Tests\.csproj",
    junk=_junk(r"Determining projects to restore", r"up-to-date for restore"),
)

HASKELL_BOUND = Shape(
    "cabal-upper-bound",
    "a version bound relaxed in the package description (Edit)",
    "Haskell/cabal",
    one_session(
        "/home/ivo/src/acme-api",
        Ask("Build it with the new GHC."),
        Run(
            "cabal build",
            "Resolving dependencies...\nError: cabal: Could not resolve dependencies:\n[__0] trying: acme-api-0.3.0 (user goal)\n[__1] next goal: aeson (dependency of acme-api)\n[__1] rejecting: aeson-2.2.3.0 (conflict: acme-api => aeson>=2.0 && <2.2)\n[__1] rejecting: aeson-2.1.2.1 (conflict: base==4.20.0.0/installed-4.20.0.0, aeson => base>=4.9 && <4.19)\n[__1] fail (backjumping, conflict set: acme-api, aeson)\nAfter searching the rest of the dependency tree exhaustively, these were the goals I've had most trouble fulfilling: aeson, acme-api",
            1,
        ),
        Edit("acme-api.cabal", "aeson >=2.0 && <2.2", "aeson >=2.0 && <2.3"),
        Run(
            "cabal build",
            "Resolving dependencies...\nBuild profile: -w ghc-9.10.1 -O1\nIn order, the following will be built (use -v for more details):\n - aeson-2.2.3.0 (lib) (requires build)\n - acme-api-0.3.0 (lib) (first run)\n[1 of 9] Compiling Acme.Types\n[9 of 9] Compiling Acme.Api",
        ),
        Say("It builds on GHC 9.10 once the aeson bound allows 2.2."),
        host="codex-shell",
    ),
    trigger=r"cabal build",
    cause=r"aeson|Could not resolve dependencies|conflict",
    fix=r"<\s*2\.3|aeson bound",
    junk=_junk(r"Build profile", r"In order, the following will be built", r"\[\d+ of \d+\]"),
)

PHP_PLATFORM = Shape(
    "composer-platform-req",
    "fails, then passes with a flag the error's problem line explains",
    "PHP/Composer",
    one_session(
        "/home/eva/src/shopfront",
        Ask("Install the dependencies."),
        Run(
            "composer install",
            "Installing dependencies from lock file (including require-dev)\nVerifying lock file contents can be installed on current platform.\nYour lock file does not contain a compatible set of packages. Please run composer update.\n\n  Problem 1\n    - Root composer.json requires PHP extension ext-intl * but it is missing from your system. Install or enable PHP's intl extension.\n\nTo enable extensions, verify that they are enabled in your .ini files:\n    - /etc/php/8.3/cli/php.ini\n    - /etc/php/8.3/cli/conf.d/10-opcache.ini\nYou can also run `php --ini` in a terminal to see which files are used by PHP in CLI mode.\nAlternatively, you can run Composer with `--ignore-platform-req=ext-intl` to temporarily ignore these required extensions.",
            2,
        ),
        Run(
            "composer install --ignore-platform-req=ext-intl",
            "Installing dependencies from lock file (including require-dev)\nVerifying lock file contents can be installed on current platform.\nPackage operations: 84 installs, 0 updates, 0 removals\n  - Downloading symfony/polyfill-intl-icu (v1.29.0)\n  - Installing symfony/polyfill-intl-icu (v1.29.0): Extracting archive\nGenerating optimized autoload files\n71 packages you are using are looking for funding.",
        ),
        Say(
            "Dependencies installed; this machine's PHP has no intl extension, so the install ignores that requirement."
        ),
    ),
    trigger=r"composer install",
    cause=r"ext-intl|intl extension|missing from your system",
    fix=r"--ignore-platform-req",
    junk=_junk(
        r"Verifying lock file", r"looking for funding", r"Installing dependencies from lock"
    ),
)

PHP_EXPLAINED = Shape(
    "phpunit-refresh-database",
    "the cause stated in the reply, fixed by a line in the test class",
    "PHP/Laravel",
    one_session(
        "/home/eva/src/shopfront",
        Ask("Run the invoice feature test."),
        Run(
            "php artisan test --filter=InvoiceTest",
            '\n   FAIL  Tests\\Feature\\InvoiceTest\n  ⨯ total includes tax                                                   0.05s  \n  ──────────────────────────────────────────────────────────────────────────  \n   FAILED  Tests\\Feature\\InvoiceTest > total includes tax        QueryException   \n  SQLSTATE[HY000]: General error: 1 no such table: invoices (Connection: sqlite, SQL: insert into "invoices" ("subtotal", "updated_at", "created_at") values (1000, 2026-05-04 09:40:12, 2026-05-04 09:40:12))\n\n  Tests:    1 failed (0 assertions)\n  Duration: 0.31s',
            1,
        ),
        Say(
            "The feature tests run against an in-memory SQLite database, and InvoiceTest doesn't use the RefreshDatabase trait, so the migrations never run for it and the invoices table doesn't exist. Adding the trait."
        ),
        Edit(
            "tests/Feature/InvoiceTest.php",
            "class InvoiceTest extends TestCase\n{",
            "class InvoiceTest extends TestCase\n{\n    use RefreshDatabase;\n",
        ),
        Run(
            "php artisan test --filter=InvoiceTest",
            "\n   PASS  Tests\\Feature\\InvoiceTest\n  ✓ total includes tax                                                   0.09s  \n\n  Tests:    1 passed (2 assertions)\n  Duration: 0.38s",
        ),
        Say("The invoice test passes."),
    ),
    trigger=r"artisan test",
    cause=r"no such table|migrations never run|in-memory SQLite",
    fix=r"RefreshDatabase",
    junk=_junk(r"Duration: ", r"Tests:\s+1 failed"),
)

CMAKE_PREFIX = Shape(
    "cmake-prefix-path",
    "fails, then passes with a cache variable set; configure progress lines around the error",
    "C++/CMake",
    one_session(
        "/home/ravi/src/tinyraster",
        Ask("Configure the build."),
        Run(
            "cmake -S . -B build",
            '-- The C compiler identification is GNU 13.2.0\n-- The CXX compiler identification is GNU 13.2.0\n-- Detecting C compiler ABI info\n-- Detecting C compiler ABI info - done\n-- Check for working C compiler: /usr/bin/cc - skipped\n-- Detecting CXX compiler ABI info\n-- Detecting CXX compiler ABI info - done\nCMake Error at CMakeLists.txt:14 (find_package):\n  Could not find a package configuration file provided by "fmt" with any of\n  the following names:\n\n    fmtConfig.cmake\n    fmt-config.cmake\n\n  Add the installation prefix of "fmt" to CMAKE_PREFIX_PATH or set "fmt_DIR"\n  to a directory containing one of the above files.  If "fmt" provides a\n  separate development package or SDK, be sure it has been installed.\n\n\n-- Configuring incomplete, errors occurred!',
            1,
        ),
        Run(
            "cmake -S . -B build -DCMAKE_PREFIX_PATH=$HOME/.local",
            '-- Found fmt: /home/ravi/.local/lib/cmake/fmt (found version "10.2.1")\n-- Configuring done (0.4s)\n-- Generating done (0.0s)\n-- Build files have been written to: /home/ravi/src/tinyraster/build',
        ),
        Say("Configured: fmt is installed under ~/.local, so CMake needs that prefix."),
        host="codex",
    ),
    trigger=r"cmake -S",
    cause=r'"?fmt"?|fmtConfig\.cmake|package configuration file',
    fix=r"CMAKE_PREFIX_PATH=",
    junk=_junk(r"compiler identification", r"Detecting C", r"Configuring incomplete"),
)

CPP_LOST_RESULT = Shape(
    "cmake-standard-lost-result",
    "an edit, then a rerun whose result was lost; the reply says it passed",
    "C++/CMake",
    one_session(
        "/home/ravi/src/tinyraster",
        Ask("Build everything."),
        Run(
            "cmake --build build -j8",
            "[ 12%] Building CXX object src/CMakeFiles/raster.dir/canvas.cpp.o\n[ 25%] Building CXX object src/CMakeFiles/raster.dir/path.cpp.o\n/home/ravi/src/tinyraster/src/path.cpp:9:10: error: 'span' is not a member of 'std'\n    9 |     std::span<const Point> points_;\n      |          ^~~~\n/home/ravi/src/tinyraster/src/path.cpp:9:10: note: 'std::span' is only available from C++20 onwards\ngmake[2]: *** [src/CMakeFiles/raster.dir/build.make:90: src/CMakeFiles/raster.dir/path.cpp.o] Error 1\ngmake[1]: *** [CMakeFiles/Makefile2:112: src/CMakeFiles/raster.dir/all] Error 2\ngmake: *** [Makefile:136: all] Error 2",
            2,
        ),
        Edit("CMakeLists.txt", "set(CMAKE_CXX_STANDARD 17)", "set(CMAKE_CXX_STANDARD 20)"),
        Lost("cmake --build build -j8"),
        Say("The build passes now: all targets build with C++20."),
    ),
    trigger=r"cmake --build",
    cause=r"std::span|'?span'? is not a member|C\+\+20 onwards",
    fix=r"CMAKE_CXX_STANDARD 20|C\+\+20",
    junk=_junk(r"Building CXX object", r"gmake\[\d\]"),
)

PYTHON_LOST_RESULT = Shape(
    "pytest-lost-result",
    "a package added, then a rerun whose result was lost; the reply says it passed",
    "Python/uv",
    one_session(
        "/home/sam/src/reportgen",
        Ask("Run the export tests."),
        Run(
            "uv run pytest tests/test_export.py",
            "============================= test session starts ==============================\nplatform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0\nrootdir: /home/sam/src/reportgen\nconfigfile: pyproject.toml\ncollected 0 items / 1 error\n\n==================================== ERRORS ====================================\n___________________ ERROR collecting tests/test_export.py ______________________\nImportError while importing test module '/home/sam/src/reportgen/tests/test_export.py'.\nHint: make sure your test modules/packages have valid Python names.\nTraceback:\ntests/test_export.py:3: in <module>\n    from reportgen.export import to_xlsx\nsrc/reportgen/export.py:5: in <module>\n    import openpyxl\nE   ModuleNotFoundError: No module named 'openpyxl'\n=========================== short test summary info ============================\nERROR tests/test_export.py\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n=============================== 1 error in 0.21s ===============================",
            2,
        ),
        Run(
            "uv add openpyxl",
            "Resolved 23 packages in 312ms\nPrepared 2 packages in 140ms\nInstalled 2 packages in 4ms\n + et-xmlfile==1.1.0\n + openpyxl==3.1.5",
        ),
        Lost("uv run pytest tests/test_export.py"),
        Say(
            "The export tests pass now (6 passed): openpyxl was imported by export.py but never declared as a dependency."
        ),
        host="codex",
    ),
    trigger=r"pytest",
    cause=r"openpyxl|No module named",
    fix=r"uv add openpyxl",
    junk=_junk(r"test session starts", r"make sure your test modules", r"Interrupted"),
)

PYTHON_ENV_CLAIM = Shape(
    "pytest-env-var-claimed",
    "a fix claimed in the reply (a setting added to the test config), no edit seen; the rerun passes",
    "Python/Django",
    one_session(
        "/home/sam/src/clinicdb",
        Ask("Run the tests."),
        Run(
            "pytest",
            "============================= test session starts ==============================\nplatform linux -- Python 3.11.9, pytest-8.1.1, pluggy-1.4.0\ncollected 0 items / 1 error\n\n==================================== ERRORS ====================================\n_____________________ ERROR collecting tests/test_models.py ____________________\ntests/test_models.py:1: in <module>\n    from clinic.models import Patient\nE   django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured. You must either define the environment variable DJANGO_SETTINGS_MODULE or call settings.configure() before accessing settings.\n=========================== short test summary info ============================\nERROR tests/test_models.py - django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured.\n=============================== 1 error in 0.34s ===============================",
            2,
        ),
        Say(
            'pytest-django doesn\'t know which settings module to use. I added `DJANGO_SETTINGS_MODULE = "clinic.settings.test"` under `[tool.pytest.ini_options]` in pyproject.toml.'
        ),
        Run(
            "pytest",
            "============================= test session starts ==============================\nplatform linux -- Python 3.11.9, pytest-8.1.1, pluggy-1.4.0\ndjango: version: 5.0.4, settings: clinic.settings.test (from ini)\ncollected 58 items\n\ntests/test_models.py ..............................                      [ 51%]\ntests/test_views.py ............................                         [100%]\n\n============================== 58 passed in 2.87s ==============================",
        ),
        Say("All 58 tests pass."),
    ),
    trigger=r"pytest",
    cause=r"DJANGO_SETTINGS_MODULE|settings are not configured|ImproperlyConfigured",
    fix=r"DJANGO_SETTINGS_MODULE\s*=|pyproject\.toml|clinic\.settings\.test",
    junk=_junk(r"test session starts", r"short test summary"),
)

JS_JEST_ONLY_EDIT = Shape(
    "jest-transform-only-edit",
    "the one edit between the failing and the passing run, in a config file the error does not name",
    "JS/Jest",
    one_session(
        "/home/ada/src/dashboard",
        Ask("Run the chart tests."),
        Run(
            "npx jest src/components/Chart.test.tsx",
            " FAIL  src/components/Chart.test.tsx\n  ● Test suite failed to run\n\n    Jest encountered an unexpected token\n\n    Jest failed to parse a file. This happens e.g. when your code or its dependencies use non-standard JavaScript syntax, or when Jest is not configured to support such syntax.\n\n    Out of the box Jest supports Babel, which will be used to transform your files into valid JS based on your Babel configuration.\n\n    By default \"node_modules\" folder is ignored by transformers.\n\n    Details:\n\n    /home/ada/src/dashboard/node_modules/d3-scale/src/index.js:1\n    ({\"Object.<anonymous>\":function(module,exports,require,__dirname,__filename,jest){export {\n                                                                                      ^^^^^^\n\n    SyntaxError: Unexpected token 'export'\n\n      1 | import { scaleLinear } from 'd3-scale';\n        | ^\n\nTest Suites: 1 failed, 1 total\nTests:       0 total\nTime:        1.204 s",
            1,
        ),
        Edit(
            "jest.config.js",
            "  transformIgnorePatterns: ['/node_modules/'],",
            "  transformIgnorePatterns: ['/node_modules/(?!(d3-.*|internmap)/)'],",
        ),
        Run(
            "npx jest src/components/Chart.test.tsx",
            " PASS  src/components/Chart.test.tsx\n  Chart\n    ✓ renders one bar per value (31 ms)\n    ✓ scales to the container width (9 ms)\n\nTest Suites: 1 passed, 1 total\nTests:       2 passed, 2 total\nTime:        1.877 s",
        ),
        Say("The chart tests pass."),
    ),
    trigger=r"jest",
    cause=r"Unexpected token 'export'|d3-scale|failed to parse",
    fix=r"transformIgnorePatterns|jest\.config\.js",
    junk=_junk(r"Out of the box Jest supports Babel", r"Time:\s", r"Test Suites:"),
)

NODE_ENGINE = Shape(
    "npm-engine-node-version",
    "fails, then passes with another Node chosen first in the same command",
    "JS/npm",
    one_session(
        "/home/ada/src/dashboard",
        Ask("Install the packages."),
        Run(
            "npm ci",
            'npm ERR! code EBADENGINE\nnpm ERR! engine Unsupported engine\nnpm ERR! engine Not compatible with your version of node/npm: vite@5.2.8\nnpm ERR! notsup Not compatible with your version of node/npm: vite@5.2.8\nnpm ERR! notsup Required: {"node":"^18.0.0 || >=20.0.0"}\nnpm ERR! notsup Actual:   {"npm":"8.19.4","node":"v16.20.2"}\n\nnpm ERR! A complete log of this run can be found in: /home/ada/.npm/_logs/2026-05-04T09_50_12_201Z-debug-0.log',
            1,
        ),
        Run(
            "source ~/.nvm/nvm.sh && nvm use 20 && npm ci",
            "Now using node v20.12.2 (npm v10.5.0)\n\nadded 412 packages, and audited 413 packages in 9s\n\n98 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities",
        ),
        Say("Installed under Node 20; the default Node here is 16, which vite 5 doesn't support."),
        host="gemini",
    ),
    trigger=r"npm ci",
    cause=r"EBADENGINE|Unsupported engine|node.*v16|Node (?:is )?16|vite",
    fix=r"nvm use 20|Node 20",
    junk=_junk(r"complete log of this run", r"looking for funding"),
)

# Must not fire.

DOTNET_CLAIM_UNRUN = Shape(
    "dotnet-claim-never-rerun",
    "must not fire: a fix claimed in the reply, never rerun",
    ".NET/C#",
    one_session(
        "/home/lee/src/clinic-portal",
        Ask("Run the billing tests."),
        Run(
            "dotnet test tests/Billing.Tests",
            "/home/lee/src/clinic-portal/tests/Billing.Tests/InvoiceTests.cs(2,7): error CS0246: The type or namespace name 'Moq' could not be found (are you missing a using directive or an assembly reference?) [/home/lee/src/clinic-portal/tests/Billing.Tests/Billing.Tests.csproj]\n\nBuild FAILED.",
            1,
        ),
        Say(
            'I added `<PackageReference Include="Moq" Version="4.20.70" />` to tests/Billing.Tests/Billing.Tests.csproj; run `dotnet test tests/Billing.Tests` when you\'re ready.'
        ),
        Ask("Thanks, I'll run it later. Let's look at the appointment model now."),
        Say("Sure: the Appointment model is in src/Clinic.Data/Appointment.cs."),
    ),
    fires=False,
    expect="none: the claimed fix was never run",
)

RUST_CLAIM_STILL_FAILS = Shape(
    "cargo-claim-rerun-fails",
    "must not fire: a fix claimed in the reply, the rerun still fails",
    "Rust/cargo",
    one_session(
        "/home/tomas/src/logship",
        Ask("Build the archiver binary."),
        Run(
            "cargo build --bin archiver",
            "   Compiling archiver v0.2.0 (/home/tomas/src/logship/archiver)\nerror: linking with `cc` failed: exit status: 1\n  = note: /usr/bin/ld: cannot find -lzstd: No such file or directory\n          collect2: error: ld returned 1 exit status",
            101,
        ),
        Say('I added `println!("cargo:rustc-link-lib=static=zstd");` to archiver/build.rs.'),
        Run(
            "cargo build --bin archiver",
            "   Compiling archiver v0.2.0 (/home/tomas/src/logship/archiver)\nerror: linking with `cc` failed: exit status: 1\n  = note: /usr/bin/ld: cannot find -lzstd: No such file or directory\n          collect2: error: ld returned 1 exit status",
            101,
        ),
        Say("Still failing the same way; libzstd isn't installed. Do you want me to install it?"),
        Ask("No, stop here for today."),
    ),
    fires=False,
    expect="none: the claimed fix did not work, and nothing else did",
)

CPP_LOST_STILL_FAILING = Shape(
    "cmake-lost-result-still-failing",
    "must not fire: a rerun whose result was lost, the reply says it still fails",
    "C/CMake",
    one_session(
        "/home/ravi/src/tinyraster",
        Ask("Build the tests."),
        Run(
            "cmake --build build --target raster_tests",
            "[ 50%] Building C object tests/CMakeFiles/raster_tests.dir/test_fill.c.o\n/home/ravi/src/tinyraster/tests/test_fill.c:4:10: fatal error: cmocka.h: No such file or directory\n    4 | #include <cmocka.h>\n      |          ^~~~~~~~~~\ncompilation terminated.\ngmake[2]: *** [tests/CMakeFiles/raster_tests.dir/build.make:76: tests/CMakeFiles/raster_tests.dir/test_fill.c.o] Error 1",
            2,
        ),
        Edit(
            "tests/CMakeLists.txt",
            "target_link_libraries(raster_tests raster)",
            "target_link_libraries(raster_tests raster cmocka)",
        ),
        Lost("cmake --build build --target raster_tests"),
        Say(
            "It still fails: cmocka.h isn't found, so the header isn't installed on this machine at all. I'll stop here until cmocka is installed."
        ),
    ),
    fires=False,
    expect="none: the rerun still failed",
)

PYTHON_LOST_UNREPORTED = Shape(
    "pytest-lost-result-unreported",
    "must not fire: an edit, a rerun whose result was lost, and nobody says how it went",
    "Python",
    one_session(
        "/home/sam/src/reportgen",
        Ask("Run the totals test."),
        Run(
            "pytest tests/test_totals.py",
            "tests/test_totals.py F                                                   [100%]\n\n=================================== FAILURES ===================================\n_________________________________ test_rounding ________________________________\n\n    def test_rounding():\n>       assert total([0.1, 0.2]) == 0.3\nE       assert 0.30000000000000004 == 0.3\n\ntests/test_totals.py:8: AssertionError\n============================== 1 failed in 0.05s ===============================",
            1,
        ),
        Edit(
            "tests/test_totals.py",
            "    assert total([0.1, 0.2]) == 0.3",
            "    assert total([0.1, 0.2]) == pytest.approx(0.3)",
        ),
        Lost("pytest tests/test_totals.py"),
        Ask("Actually, what does the export module do?"),
        Say("It writes a report's rows to an .xlsx file with openpyxl."),
    ),
    fires=False,
    expect="none: nobody knows whether the rerun passed",
)

HASKELL_TDD = Shape(
    "cabal-tdd-red-green",
    "must not fire: a test written first fails, then passes once implemented",
    "Haskell/cabal",
    one_session(
        "/home/ivo/src/acme-api",
        Ask("Add a slugify function; write the test first and watch it fail."),
        Write(
            "test/SlugSpec.hs",
            'module SlugSpec (spec) where\n\nimport Acme.Slug (slugify)\nimport Test.Hspec\n\nspec :: Spec\nspec = describe "slugify" $\n  it "lowercases and dashes" $\n    slugify "Hello World" `shouldBe` "hello-world"\n',
        ),
        Write(
            "src/Acme/Slug.hs",
            "module Acme.Slug (slugify) where\n\nslugify :: String -> String\nslugify = id\n",
        ),
        Run(
            "cabal test",
            'slugify\n  lowercases and dashes FAILED [1]\n\nFailures:\n\n  test/SlugSpec.hs:9:29: \n  1) slugify lowercases and dashes\n       expected: "hello-world"\n        but got: "Hello World"\n\n1 example, 1 failure',
            1,
        ),
        Say("Red, as expected. Now the implementation."),
        Write(
            "src/Acme/Slug.hs",
            "module Acme.Slug (slugify) where\n\nimport Data.Char (isAlphaNum, toLower)\n\nslugify :: String -> String\nslugify = map (\\c -> if isAlphaNum c then toLower c else '-')\n",
        ),
        Run(
            "cabal test",
            "slugify\n  lowercases and dashes [✔]\n\nFinished in 0.0004 seconds\n1 example, 0 failures",
        ),
        Say("Green."),
    ),
    fires=False,
    expect="none: the red step of test-first work",
)

PHP_GREP_EMPTY = Shape(
    "grep-finds-nothing",
    "must not fire: a search that finds nothing, then another that finds something",
    "PHP",
    one_session(
        "/home/eva/src/shopfront",
        Ask("Where do we send the order confirmation email?"),
        Run("grep -rn 'OrderConfirmation' app/", "", 1),
        Run(
            "grep -rn 'OrderPlaced' app/",
            "app/Mail/OrderPlaced.php:9:class OrderPlaced extends Mailable\napp/Listeners/SendOrderEmail.php:21:        Mail::to($event->order->email)->send(new OrderPlaced($event->order));",
        ),
        Say("It's sent by app/Listeners/SendOrderEmail.php, as the OrderPlaced mailable."),
        host="codex",
    ),
    fires=False,
    expect="none: a search that found nothing is not a failure",
)

SWIFT_LEFT_ALONE = Shape(
    "swift-failure-left-alone",
    "must not fire: a failure the user says to leave",
    "Swift/SwiftPM",
    one_session(
        "/Users/kim/src/weatherkit-cli",
        Ask("Run the tests."),
        Run(
            "swift test",
            "Building for debugging...\nBuild complete! (4.12s)\nTest Suite 'All tests' started at 2026-05-04 10:02:01.001.\n/Users/kim/src/weatherkit-cli/Tests/ForecastTests/LiveTests.swift:14: error: -[ForecastTests.LiveTests testLiveForecast] : failed: caught error: \"The Internet connection appears to be offline.\"\nTest Suite 'All tests' failed at 2026-05-04 10:02:03.220.\n\t Executed 19 tests, with 1 failure (0 unexpected) in 2.201 (2.219) seconds",
            1,
        ),
        Ask("That live test always fails on this machine, ignore it."),
        Say("Understood: the other 18 tests pass; I'll leave testLiveForecast alone."),
        host="gemini",
    ),
    fires=False,
    expect="none: the user said to leave the failure",
)

GO_TASK_BUG = Shape(
    "go-task-bug-fixed",
    "must not fire: the failing test is the bug the user asked to fix",
    "Go",
    one_session(
        "/home/wen/src/notes-api",
        Ask(
            "TestFormatDuration fails: 90 seconds should print as 1m30s. Please fix the formatter."
        ),
        Run(
            "go test ./internal/timefmt/",
            '--- FAIL: TestFormatDuration (0.00s)\n    format_test.go:22: FormatDuration(90s) = "90s", want "1m30s"\nFAIL\nFAIL\texample.com/notes-api/internal/timefmt\t0.004s\nFAIL',
            1,
        ),
        Edit(
            "internal/timefmt/format.go",
            '\treturn fmt.Sprintf("%ds", int(d.Seconds()))',
            '\tif d >= time.Minute {\n\t\treturn fmt.Sprintf("%dm%ds", int(d.Minutes()), int(d.Seconds())%60)\n\t}\n\treturn fmt.Sprintf("%ds", int(d.Seconds()))',
        ),
        Run("go test ./internal/timefmt/", "ok  \texample.com/notes-api/internal/timefmt\t0.003s"),
        Say("Fixed: durations of a minute or more print minutes and seconds."),
    ),
    fires=False,
    expect="none: the failure was the task itself, fixed in the code under test",
)

JS_DEV_SERVER_TIMEOUT = Shape(
    "vite-dev-server-time-limit",
    "must not fire: a dev server stopped by the tool's time limit, then a build that passes",
    "JS/Vite",
    one_session(
        "/home/ada/src/dashboard",
        Ask("Check that the app still builds."),
        Run(
            "npm run dev",
            "\n> dashboard@0.3.0 dev\n> vite\n\n  VITE v5.2.8  ready in 412 ms\n\n  ➜  Local:   http://localhost:5173/\n  ➜  Network: use --host to expose\nCommand timed out after 2m 0.0s",
            143,
        ),
        Run(
            "npm run build",
            "\n> dashboard@0.3.0 build\n> tsc && vite build\n\nvite v5.2.8 building for production...\n✓ 812 modules transformed.\ndist/index.html                   0.46 kB │ gzip:  0.30 kB\ndist/assets/index-4f1c2b.js     214.31 kB │ gzip: 69.02 kB\n✓ built in 3.91s",
        ),
        Say("The production build passes."),
    ),
    fires=False,
    expect="none: a long-running server stopped by the time limit is not a failure",
)

CASES: tuple[Shape, ...] = (
    RUST_FEATURE,
    RUST_CLAIM,
    GO_CGO,
    GO_DIAGNOSED,
    ELIXIR_DEPS,
    ELIXIR_EXPLAINED,
    RUBY_BUNDLE_EXEC,
    RAILS_PENDING,
    GRADLE_JDK,
    SBT_METASPACE,
    KOTLIN_SILENT_EDIT,
    SWIFT_DESTINATION,
    DOTNET_TARGET,
    DOTNET_CLAIM,
    HASKELL_BOUND,
    PHP_PLATFORM,
    PHP_EXPLAINED,
    CMAKE_PREFIX,
    CPP_LOST_RESULT,
    PYTHON_LOST_RESULT,
    PYTHON_ENV_CLAIM,
    JS_JEST_ONLY_EDIT,
    NODE_ENGINE,
    DOTNET_CLAIM_UNRUN,
    RUST_CLAIM_STILL_FAILS,
    CPP_LOST_STILL_FAILING,
    PYTHON_LOST_UNREPORTED,
    HASKELL_TDD,
    PHP_GREP_EMPTY,
    SWIFT_LEFT_ALONE,
    GO_TASK_BUG,
    JS_DEV_SERVER_TIMEOUT,
)
