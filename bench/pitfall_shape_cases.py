# ruff: noqa: E501  (transcript text: outputs are kept as one string a line)
"""Made-up sessions, one pitfall shape each, in ecosystems the answer keys barely hold
(`bench/pitfall_shapes.py` runs them). Every case, its patterns included, was written before
any rule ran on it. A `fires` case should give one pitfall stating `trigger`, `cause` and `fix`;
a must-not-fire case (`fires=False`) should give no pitfall at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Write, one_session


@dataclass(frozen=True)
class Shape:
    """One case: its shape, ecosystem, sessions, whether a pitfall is due, and the regexes a
    pitfall must match to name the trigger, the cause and the fix (any pitfall matching `junk`
    is junk: a progress line or a log line taken as a lesson; `expect` says in words what memory
    is due)."""

    name: str
    shape: str
    ecosystem: str
    sessions: tuple[Session, ...]
    fires: bool = True
    trigger: str = ""
    cause: str = ""
    fix: str = ""
    junk: tuple[str, ...] = (
        r"\bCompiling\b",
        r"Resolving dependencies",
        r"==> ",
        r"Downloading",
        r"Fetching",
        r"BUILD SUCCESSFUL",
        # A progress line taken as the error: `failed with \`-- The CXX compiler …\``.
        r"failed with `(?:-- |Compiling|Resolving|Fetching|Downloading|==> )",
    )
    #: The memory a later session needs from the case, in words (or why none is due).
    expect: str = ""
    #: At most this many pitfalls (one root cause seen twice is one memory); 0: no bound.
    most: int = 0


GRADLE_FLAG = Shape(
    "gradle-retry-flag",
    "fails, then passes with a changed flag",
    "Gradle/Kotlin",
    one_session(
        "/home/dev/src/ledger-android",
        Ask("Run the unit tests for the app module."),
        Run(
            "./gradlew :app:testDebugUnitTest",
            "> Task :app:compileDebugKotlin\n> Task :app:testDebugUnitTest FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:testDebugUnitTest'.\n> Unable to make field private final java.lang.String java.io.File.path accessible: module java.base does not \"opens java.io\" to unnamed module\n\nBUILD FAILED in 41s",
            1,
        ),
        Run(
            "./gradlew :app:testDebugUnitTest --no-configuration-cache",
            "> Task :app:compileDebugKotlin UP-TO-DATE\n> Task :app:testDebugUnitTest\n\nBUILD SUCCESSFUL in 38s\n27 actionable tasks: 3 executed, 24 up-to-date",
        ),
        Say("The unit tests pass (all 112) when the configuration cache is off."),
    ),
    trigger=r"testDebugUnitTest|gradlew",
    cause=r"accessible|opens java\.io",
    fix=r"--no-configuration-cache",
)

MIX_EXPLAINED = Shape(
    "mix-explained",
    "a failure the assistant explains in its next reply",
    "Elixir mix",
    one_session(
        "/home/dev/src/relay",
        Ask("Run the test suite."),
        Run(
            "mix test",
            "==> relay\nCompiling 14 files (.ex)\n\n** (DBConnection.ConnectionError) connection not available and request was dropped from queue after 2000ms. You can configure how long requests wait in the queue using :queue_target and :queue_interval.\n    (ecto_sql 3.11.1) lib/ecto/adapters/sql.ex:1054: Ecto.Adapters.SQL.raise_sql_call_error/1",
            1,
        ),
        Say(
            "This fails because the tests need Postgres running: the test config points at localhost:5432 and nothing listens there. Start it with `docker compose up -d db` first, then `mix test` works."
        ),
        Run("docker compose up -d db", "Container relay-db-1  Started"),
        Run(
            "mix test",
            "Finished in 3.2 seconds (1.1s async, 2.1s sync)\n86 tests, 0 failures",
        ),
        Say("All 86 tests pass with the database up."),
        host="codex",
    ),
    trigger=r"mix test",
    cause=r"postgres|database|connection not available|5432",
    fix=r"docker compose up -d db",
)

DOTNET_CONFIG = Shape(
    "dotnet-config-line",
    "a failure fixed by a config line in another file",
    "dotnet",
    one_session(
        "/home/dev/src/billing-api",
        Ask("Build the solution."),
        Run(
            "dotnet build",
            "  Determining projects to restore...\n  All projects are up-to-date for restore.\n/home/dev/src/billing-api/src/Billing.Api/Services/InvoiceService.cs(41,23): error CS8618: Non-nullable property 'Customer' must contain a non-null value when exiting constructor. [/home/dev/src/billing-api/src/Billing.Api/Billing.Api.csproj]\n\nBuild FAILED.\n    0 Warning(s)\n    1 Error(s)",
            1,
        ),
        Read(
            "Directory.Build.props",
            "<Project>\n  <PropertyGroup>\n    <Nullable>enable</Nullable>\n    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>\n  </PropertyGroup>\n</Project>\n",
        ),
        Write(
            "Directory.Build.props",
            "<Project>\n  <PropertyGroup>\n    <Nullable>enable</Nullable>\n    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>\n    <WarningsNotAsErrors>CS8618</WarningsNotAsErrors>\n  </PropertyGroup>\n</Project>\n",
        ),
        Run(
            "dotnet build",
            "  Determining projects to restore...\n  Billing.Api -> /home/dev/src/billing-api/src/Billing.Api/bin/Debug/net8.0/Billing.Api.dll\n\nBuild succeeded.\n    1 Warning(s)\n    0 Error(s)",
        ),
        Say(
            "The build passes: Directory.Build.props treats every warning as an error, so I added `<WarningsNotAsErrors>CS8618</WarningsNotAsErrors>` there."
        ),
    ),
    trigger=r"dotnet build",
    cause=r"CS8618|TreatWarningsAsErrors|warnings? as errors",
    fix=r"WarningsNotAsErrors",
)

RUBY_GATE = Shape(
    "ruby-commit-gate",
    "one root cause across several checks (a commit gate)",
    "Ruby bundler/rspec",
    one_session(
        "/home/dev/src/shopfront",
        Ask("Commit the coupon change."),
        Run(
            'git commit -am "Add coupon expiry"',
            "Running pre-commit hook: bin/check\n== rubocop ==\nInspecting 212 files\napp/models/coupon.rb:14:81: C: Layout/LineLength: Line is too long. [104/100]\n212 files inspected, 1 offense detected\n== rspec ==\nskipped: rubocop failed",
            1,
        ),
        Say(
            "The commit was refused: the pre-commit hook runs bin/check, which runs rubocop and then rspec, and rubocop flags a long line in coupon.rb."
        ),
        Run(
            "bundle exec rubocop -a app/models/coupon.rb",
            "1 file inspected, 1 offense detected, 1 offense corrected",
        ),
        Run(
            'git commit -am "Add coupon expiry"',
            "Running pre-commit hook: bin/check\n== rubocop ==\n212 files inspected, no offenses detected\n== rspec ==\n340 examples, 0 failures\n[main 4be21c9] Add coupon expiry\n 2 files changed, 31 insertions(+)",
        ),
        Say("Committed; the hook's rubocop and rspec checks pass."),
    ),
    trigger=r"commit|pre-commit|bin/check",
    cause=r"rubocop",
    fix=r"rspec",
)

SWIFT_PROGRESS = Shape(
    "swift-progress-lines",
    "progress lines are never an error signature",
    "Swift Package Manager",
    one_session(
        "/home/dev/src/trailmap",
        Ask("Build the package."),
        Run(
            "swift build",
            "Fetching https://github.com/apple/swift-argument-parser.git\nFetched https://github.com/apple/swift-argument-parser.git (1.22s)\nComputing version for https://github.com/apple/swift-argument-parser.git\nResolving dependencies...\nCompiling TrailCore Route.swift\nerror: no such module 'ArgumentParser'\nCompiling TrailCLI main.swift",
            1,
        ),
        Say(
            'The error means the TrailCLI target does not list ArgumentParser among its dependencies in Package.swift; I added `.product(name: "ArgumentParser", package: "swift-argument-parser")` to it.'
        ),
        Run(
            "swift build",
            "Building for debugging...\nCompiling TrailCLI main.swift\nBuild complete! (4.81s)",
        ),
        host="codex",
    ),
    trigger=r"swift build",
    cause=r"no such module|ArgumentParser",
    fix=r"Package\.swift|\.product",
)

GO_ARG = Shape(
    "go-retry-argument",
    "fails, then passes with a changed argument",
    "Go modules",
    one_session(
        "/home/dev/src/meterd",
        Ask("Run the tests."),
        Run(
            "go test ./...",
            "go: downloading github.com/stretchr/testify v1.9.0\npattern ./...: directory prefix . does not contain modules listed in go.work or their selected dependencies",
            1,
        ),
        Run(
            "go test ./services/...",
            "ok  \tgithub.com/acme/meterd/services/ingest\t0.412s\nok  \tgithub.com/acme/meterd/services/query\t0.388s",
        ),
        Say("Tests pass when run from the workspace's module folder pattern `./services/...`."),
    ),
    trigger=r"go test",
    cause=r"go\.work|does not contain modules",
    fix=r"\./services/\.\.\.",
)

CMAKE_CAUSE = Shape(
    "cmake-stated-cause",
    'a failure the assistant explains ("The cause is")',
    "CMake",
    one_session(
        "/home/dev/src/rasterkit",
        Ask("Configure and build."),
        Run(
            "cmake -S . -B build",
            '-- The CXX compiler identification is GNU 13.2.0\n-- Detecting CXX compiler ABI info - done\nCMake Error at CMakeLists.txt:12 (find_package):\n  Could not find a package configuration file provided by "fmt" with any of\n  the following names:\n\n    fmtConfig.cmake\n    fmt-config.cmake\n-- Configuring incomplete, errors occurred!',
            1,
        ),
        Say(
            "The cause is that fmt comes from vcpkg here and CMake was not given the vcpkg toolchain file; configuring with `-DCMAKE_TOOLCHAIN_FILE=$VCPKG_ROOT/scripts/buildsystems/vcpkg.cmake` finds it."
        ),
        Run(
            "cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=$VCPKG_ROOT/scripts/buildsystems/vcpkg.cmake",
            "-- Running vcpkg install\n-- Configuring done (2.3s)\n-- Generating done (0.0s)\n-- Build files have been written to: /home/dev/src/rasterkit/build",
        ),
        Run("cmake --build build", "[100%] Built target rasterkit"),
    ),
    trigger=r"cmake",
    cause=r"vcpkg|fmt",
    fix=r"CMAKE_TOOLCHAIN_FILE",
)

FLUTTER_UNEXPLAINED = Shape(
    "flutter-unexplained",
    "must not fire: a failure never explained or fixed",
    "Flutter",
    one_session(
        "/home/dev/src/tally_app",
        Ask("Run the widget tests."),
        Run(
            "flutter test",
            'Resolving dependencies...\nGot dependencies!\n00:04 +11 -1: test/home_page_test.dart: shows totals [E]\n  Expected: exactly one matching node in the widget tree\n  Actual: _WidgetTypeFinder:<zero widgets with type "TotalCard">\n00:05 +11 -1: Some tests failed.',
            1,
        ),
        Ask("Leave it, I'll look at it tomorrow. Update the changelog instead."),
        Say("Left the failing widget test alone and updated CHANGELOG.md."),
        host="codex",
    ),
    fires=False,
)

TDD_RED = Shape(
    "rspec-tdd-red",
    "must not fire: a deliberately failing test (TDD red phase)",
    "Ruby bundler/rspec",
    one_session(
        "/home/dev/src/shopfront",
        Ask("Add a spec for coupon expiry first, watch it fail, then implement it."),
        Write(
            "spec/models/coupon_spec.rb",
            "RSpec.describe Coupon do\n  it 'expires after its end date' do\n    expect(Coupon.new(ends_on: Date.yesterday)).to be_expired\n  end\nend\n",
        ),
        Run(
            "bundle exec rspec spec/models/coupon_spec.rb",
            "F\n\nFailures:\n\n  1) Coupon expires after its end date\n     Failure/Error: expect(Coupon.new(ends_on: Date.yesterday)).to be_expired\n       expected `#<Coupon>.expired?` to be truthy, got false\n\n1 example, 1 failure",
            1,
        ),
        Say("The new spec fails as expected (red). Now implementing `expired?`."),
        Write(
            "app/models/coupon.rb",
            "class Coupon < ApplicationRecord\n  def expired?\n    ends_on.present? && ends_on < Date.current\n  end\nend\n",
        ),
        Run("bundle exec rspec spec/models/coupon_spec.rb", ".\n\n1 example, 0 failures"),
        Say("Green: the spec passes."),
    ),
    fires=False,
)

NETWORK_BLIP = Shape(
    "gradle-network-blip",
    "must not fire: a transient network error, same command passes",
    "Gradle/Kotlin",
    one_session(
        "/home/dev/src/ledger-android",
        Ask("Build the debug APK."),
        Run(
            "./gradlew assembleDebug",
            'Downloading https://services.gradle.org/distributions/gradle-8.7-bin.zip\nException in thread "main" java.net.SocketTimeoutException: Read timed out\n\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)',
            1,
        ),
        Run(
            "./gradlew assembleDebug",
            "Downloading https://services.gradle.org/distributions/gradle-8.7-bin.zip\n...........10%...........20%..........100%\n> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 1m 12s",
        ),
        Say("The debug APK is built (the first try hit a download timeout)."),
    ),
    fires=False,
)

CASES: tuple[Shape, ...] = (
    GRADLE_FLAG,
    MIX_EXPLAINED,
    DOTNET_CONFIG,
    RUBY_GATE,
    SWIFT_PROGRESS,
    GO_ARG,
    CMAKE_CAUSE,
    FLUTTER_UNEXPLAINED,
    TDD_RED,
    NETWORK_BLIP,
)
