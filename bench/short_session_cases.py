# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Made-up short sessions, as a first session on an unseen project often is: one or two
prompts, two to five tool calls (a manifest or README read, the tests or a build run, a file
edited, a closing report), in a dozen ecosystems (Go, Rust, Elixir, Ruby, Kotlin with Gradle,
Java with Maven, PHP, C#, Swift, Python with uv, TypeScript with pnpm and Bun, Zig, C with
CMake, Haskell, Dart) and in Claude Code's and Codex's formats (`bench/short_sessions.py` runs
them). Every case, its items and its patterns included, was written before any rule ran on it.

Each case lists the items a senior engineer would keep from the session (`keep`: what the
project is and its language, from a manifest or README the session read; the test or build
command that ran and passed; a failure and what fixed it; the user's instruction said with
"always" or "never"), each as the kinds of memory that may hold it and the regexes one memory
must all match; and the patterns no memory may match (`never`: a command that failed, a wrong
language, a one-off request taken as a rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.trap_transcripts import Ask, Edit, Lost, Read, Run, Say, Session, one_session

#: The kinds of memory that may hold a command, a fact about the project, the user's rule and
#: a lesson from a failure (the cuts of `bench/short_session_cuts.py` use them too).
COMMAND = ("recipe", "project_fact")
FACT = ("project_fact",)
RULE = ("user_style", "pitfall", "project_fact")
LESSON = ("pitfall", "recipe", "project_fact")


@dataclass(frozen=True)
class Item:
    """One thing worth keeping: a short id, the kinds of memory that may hold it and the
    regexes (case-insensitive) one memory of those kinds must all match."""

    id: str
    kinds: tuple[str, ...]
    patterns: tuple[str, ...]


@dataclass(frozen=True)
class Case:
    """One short session: its shape, ecosystem, sessions, the items to keep and the patterns
    no memory may match (each with why)."""

    name: str
    shape: str
    ecosystem: str
    sessions: tuple[Session, ...]
    keep: tuple[Item, ...]
    never: tuple[tuple[str, str], ...] = ()

    @property
    def fires(self) -> bool:
        """Every case has items to keep."""
        return bool(self.keep)


GO_FIX_TEST = Case(
    "go-fix-failing-test",
    "go.mod read, `go test ./...` fails in one package, a fix, the run passes",
    "Go",
    one_session(
        "/home/ravi/src/tidewater",
        Ask("The CI is red on the parser package, can you fix it?"),
        Read(
            "go.mod",
            "module github.com/ravi/tidewater\n\ngo 1.22\n\nrequire (\n\tgithub.com/spf13/cobra v1.8.0\n\tgolang.org/x/sync v0.7.0\n)\n",
        ),
        Run(
            "go test ./...",
            'ok  \tgithub.com/ravi/tidewater/cmd/tidewater\t0.012s\n--- FAIL: TestParseWindow (0.00s)\n    window_test.go:31: ParseWindow("90m") = 0s, want 1h30m0s\nFAIL\nFAIL\tgithub.com/ravi/tidewater/internal/parse\t0.006s\nok  \tgithub.com/ravi/tidewater/internal/store\t0.031s\nFAIL\n',
            1,
        ),
        Edit(
            "internal/parse/window.go",
            '\tcase "h":\n\t\treturn time.Duration(n) * time.Hour, nil\n',
            '\tcase "h":\n\t\treturn time.Duration(n) * time.Hour, nil\n\tcase "m":\n\t\treturn time.Duration(n) * time.Minute, nil\n',
        ),
        Run(
            "go test ./...",
            "ok  \tgithub.com/ravi/tidewater/cmd/tidewater\t0.011s\nok  \tgithub.com/ravi/tidewater/internal/parse\t0.005s\nok  \tgithub.com/ravi/tidewater/internal/store\t0.029s\n",
        ),
        Say(
            "Fixed: `ParseWindow` had no case for the `m` suffix, so `90m` parsed as zero. I added it in `internal/parse/window.go`; `go test ./...` now passes in all three packages."
        ),
    ),
    keep=(
        Item("language", FACT, (r"\bgo\b|golang", r"tidewater|go 1\.22|go\.mod|module")),
        Item("test", COMMAND, (r"`go test \./\.\.\.`",)),
    ),
    never=((r"go 1\.(?:21|23)", "go.mod says go 1.22"),),
)

RUST_CLIPPY_ALWAYS = Case(
    "rust-clippy-always",
    "the user says always run clippy before done; Cargo.toml read; clippy fails, a fix, passes",
    "Rust",
    one_session(
        "/home/lena/code/quern",
        Ask(
            "Tidy up the warnings in the tokenizer. Always run `cargo clippy --all-targets -- -D warnings` before you tell me you're done."
        ),
        Run(
            "cat Cargo.toml",
            '[package]\nname = "quern"\nversion = "0.3.1"\nedition = "2021"\ndescription = "A small query language for log files"\nlicense = "MIT"\n\n[dependencies]\nlogos = "0.14"\nthiserror = "1"\n\n[dev-dependencies]\ninsta = "1.39"\n',
        ),
        Run(
            "cargo clippy --all-targets -- -D warnings",
            "    Checking quern v0.3.1 (/home/lena/code/quern)\nerror: this `if` has identical blocks\n  --> src/tokenizer.rs:88:9\n   |\n88 |         if c == '\\t' { self.advance() } else { self.advance() }\n   |\n   = note: `-D clippy::if-same-then-else` implied by `-D warnings`\nerror: could not compile `quern` (lib) due to 1 previous error\n",
            101,
        ),
        Edit(
            "src/tokenizer.rs",
            "        if c == '\\t' { self.advance() } else { self.advance() }\n",
            "        self.advance()\n",
        ),
        Run(
            "cargo clippy --all-targets -- -D warnings",
            "    Checking quern v0.3.1 (/home/lena/code/quern)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.42s\n",
        ),
        Say(
            "Done: the one clippy error was an `if` with identical branches in `src/tokenizer.rs`; `cargo clippy --all-targets -- -D warnings` is clean now."
        ),
        host="codex",
    ),
    keep=(
        Item("rule", RULE, (r"clippy", r"always|before|done|finish")),
        Item("lint", COMMAND, (r"cargo clippy --all-targets -- -D warnings",)),
        Item("language", FACT, (r"rust|cargo", r"quern")),
    ),
)

ELIXIR_DB_FIRST = Case(
    "elixir-tests-need-db",
    "mix.exs read; `mix test` fails on a refused database connection; the compose db started, passes",
    "Elixir/Phoenix",
    one_session(
        "/home/ana/src/beacon",
        Ask("Run the test suite and tell me if anything's broken."),
        Read(
            "mix.exs",
            'defmodule Beacon.MixProject do\n  use Mix.Project\n\n  def project do\n    [\n      app: :beacon,\n      version: "0.9.0",\n      elixir: "~> 1.16",\n      start_permanent: Mix.env() == :prod,\n      aliases: aliases(),\n      deps: deps()\n    ]\n  end\n\n  defp deps do\n    [\n      {:phoenix, "~> 1.7.12"},\n      {:phoenix_live_view, "~> 0.20.14"},\n      {:ecto_sql, "~> 3.11"},\n      {:postgrex, ">= 0.0.0"}\n    ]\n  end\nend\n',
        ),
        Run(
            "mix test",
            "** (Mix) The database for Beacon.Repo couldn't be created: connection refused - :econnrefused\n\n17:02:11.553 [error] Postgrex.Protocol (#PID<0.160.0>) failed to connect: ** (DBConnection.ConnectionError) tcp connect (localhost:5432): connection refused - :econnrefused\n",
            1,
        ),
        Run(
            "docker compose up -d db && mix test",
            " Container beacon-db-1  Started\nRunning ExUnit with seed: 417203, max_cases: 8\n\n................................................\nFinished in 2.1 seconds (0.6s async, 1.5s sync)\n48 tests, 0 failures\n",
        ),
        Say(
            "Nothing's broken: all 48 tests pass. The first run failed only because Postgres wasn't up; the suite needs the `db` service from `docker-compose.yml` (`docker compose up -d db`) before `mix test`."
        ),
    ),
    keep=(
        Item("language", FACT, (r"elixir|phoenix",)),
        Item("test", COMMAND, (r"mix test",)),
        Item("db_first", LESSON, (r"docker compose up -d db|postgres|database", r"mix test|test")),
    ),
)

RAILS_RSPEC = Case(
    "rails-rspec-summary",
    "what is this app: Gemfile read, `bundle exec rspec` passes, a summary",
    "Ruby/Rails",
    one_session(
        "/home/sam/work/potluck",
        Ask("What is this app and do its tests pass?"),
        Read(
            "Gemfile",
            'source "https://rubygems.org"\n\nruby "3.3.0"\n\ngem "rails", "~> 7.1.3"\ngem "pg", "~> 1.5"\ngem "puma", ">= 5.0"\ngem "turbo-rails"\ngem "sidekiq", "~> 7.2"\n\ngroup :development, :test do\n  gem "rspec-rails", "~> 6.1"\n  gem "factory_bot_rails"\nend\n',
        ),
        Read(
            "README.md",
            "# Potluck\n\nPotluck lets neighbours organise shared dinners: hosts post an event, guests sign up for a dish.\n\n## Setup\n\n    bin/setup\n    bin/dev\n",
        ),
        Run(
            "bundle exec rspec",
            "Randomized with seed 12044\n.......................................................................\n\nFinished in 6.42 seconds (files took 2.1 seconds to load)\n142 examples, 0 failures\n",
        ),
        Say(
            "Potluck is a Rails 7.1 app (Ruby 3.3) for organising shared dinners: hosts post events and guests sign up for dishes. It uses Postgres, Sidekiq and Turbo. The RSpec suite passes: 142 examples, 0 failures with `bundle exec rspec`."
        ),
    ),
    keep=(
        Item("what", FACT, (r"potluck|dinner", r"rails|ruby")),
        Item("test", COMMAND, (r"bundle exec rspec",)),
    ),
    never=(
        (r"`(?:bin/)?rails test`|`rake test`", "the suite is RSpec"),
        (r"ruby 3\.2", "the Gemfile says 3.3.0"),
    ),
)

KOTLIN_WRAPPER = Case(
    "kotlin-gradle-wrapper",
    "build.gradle.kts read; `gradle test` is not installed, `./gradlew test` passes",
    "Kotlin/Gradle",
    one_session(
        "/home/ivo/dev/slugger",
        Ask("Add a test for slugify with unicode input, then run the tests."),
        Read(
            "build.gradle.kts",
            'plugins {\n    kotlin("jvm") version "2.0.0"\n    application\n}\n\ngroup = "dev.ivo"\nversion = "1.4.0"\n\nrepositories { mavenCentral() }\n\ndependencies {\n    testImplementation(kotlin("test"))\n    testImplementation("org.junit.jupiter:junit-jupiter:5.10.2")\n}\n\nkotlin { jvmToolchain(21) }\n\napplication { mainClass.set("dev.ivo.slugger.MainKt") }\n\ntasks.test { useJUnitPlatform() }\n',
        ),
        Edit(
            "src/test/kotlin/SlugTest.kt",
            "}\n",
            '\n    @Test\n    fun `folds accents`() {\n        assertEquals("creme-brulee", slugify("Crème Brûlée"))\n    }\n}\n',
        ),
        Run("gradle test", "bash: gradle: command not found\n", 127),
        Run(
            "./gradlew test",
            "> Task :compileKotlin UP-TO-DATE\n> Task :compileTestKotlin\n> Task :test\n\nBUILD SUCCESSFUL in 9s\n4 actionable tasks: 2 executed, 2 up-to-date\n",
        ),
        Say(
            "Added `folds accents` to `src/test/kotlin/SlugTest.kt`; `./gradlew test` passes (Gradle itself isn't installed, the wrapper is)."
        ),
        host="codex",
    ),
    keep=(
        Item("language", FACT, (r"kotlin",)),
        Item("test", COMMAND, (r"\./gradlew test",)),
    ),
    never=(
        (
            r"^(?!.*(?:not found|failed|not installed)).*(?<![/\w])gradle test",
            "gradle is not installed; the wrapper runs",
        ),
    ),
)

MAVEN_SPRING = Case(
    "maven-spring-fix",
    "pom.xml read; `./mvnw -q test` fails one test; a fix; passes",
    "Java/Maven",
    one_session(
        "/home/ines/src/parcel-service",
        Ask("ParcelControllerTest is failing since my last commit, please fix."),
        Read(
            "pom.xml",
            '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <parent>\n    <groupId>org.springframework.boot</groupId>\n    <artifactId>spring-boot-starter-parent</artifactId>\n    <version>3.2.5</version>\n  </parent>\n  <groupId>com.acme</groupId>\n  <artifactId>parcel-service</artifactId>\n  <version>0.1.0</version>\n  <properties>\n    <java.version>21</java.version>\n  </properties>\n  <dependencies>\n    <dependency>\n      <groupId>org.springframework.boot</groupId>\n      <artifactId>spring-boot-starter-web</artifactId>\n    </dependency>\n    <dependency>\n      <groupId>org.springframework.boot</groupId>\n      <artifactId>spring-boot-starter-test</artifactId>\n      <scope>test</scope>\n    </dependency>\n  </dependencies>\n</project>\n',
        ),
        Run(
            "./mvnw -q test",
            "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 3.1 s <<< FAILURE! -- in com.acme.parcel.ParcelControllerTest\n[ERROR] com.acme.parcel.ParcelControllerTest.rejectsEmptyAddress -- Time elapsed: 0.08 s <<< FAILURE!\njava.lang.AssertionError: Status expected:<400> but was:<500>\n[ERROR] Failures: \n[ERROR]   ParcelControllerTest.rejectsEmptyAddress:41 Status expected:<400> but was:<500>\n[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0\n",
            1,
        ),
        Edit(
            "src/main/java/com/acme/parcel/ParcelController.java",
            "    public Parcel create(@RequestBody ParcelRequest req) {",
            "    public Parcel create(@Valid @RequestBody ParcelRequest req) {",
        ),
        Run("./mvnw -q test", "", 0),
        Say(
            "The controller lost its `@Valid` on the request body, so an empty address reached the service and threw (500). With `@Valid` back the test gets its 400, and `./mvnw -q test` passes."
        ),
    ),
    keep=(
        Item("language", FACT, (r"java|spring",)),
        Item("test", COMMAND, (r"\./mvnw (?:-q )?test",)),
    ),
    never=((r"java (?:17|11)\b", "java.version is 21"),),
)

DOTNET_NEVER_MAIN = Case(
    "dotnet-never-main",
    "the user says never commit to main; a csproj read; `dotnet test` passes",
    "C#/.NET",
    one_session(
        "/home/mo/src/ledgerly",
        Ask(
            "Bump Serilog to 3.1 and check nothing breaks. Never commit straight to main in this repo, open a branch."
        ),
        Read(
            "src/Ledgerly.Api/Ledgerly.Api.csproj",
            '<Project Sdk="Microsoft.NET.Sdk.Web">\n\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n    <ImplicitUsings>enable</ImplicitUsings>\n  </PropertyGroup>\n\n  <ItemGroup>\n    <PackageReference Include="Serilog.AspNetCore" Version="3.0.1" />\n    <PackageReference Include="Npgsql.EntityFrameworkCore.PostgreSQL" Version="8.0.4" />\n  </ItemGroup>\n\n</Project>\n',
        ),
        Edit(
            "src/Ledgerly.Api/Ledgerly.Api.csproj",
            '<PackageReference Include="Serilog.AspNetCore" Version="3.0.1" />',
            '<PackageReference Include="Serilog.AspNetCore" Version="3.1.0" />',
        ),
        Run(
            "dotnet test",
            "  Determining projects to restore...\n  Restored /home/mo/src/ledgerly/src/Ledgerly.Api/Ledgerly.Api.csproj (in 1.2 sec).\n  Ledgerly.Api -> /home/mo/src/ledgerly/src/Ledgerly.Api/bin/Debug/net8.0/Ledgerly.Api.dll\n  Ledgerly.Tests -> /home/mo/src/ledgerly/tests/Ledgerly.Tests/bin/Debug/net8.0/Ledgerly.Tests.dll\nTest run for /home/mo/src/ledgerly/tests/Ledgerly.Tests/bin/Debug/net8.0/Ledgerly.Tests.dll (.NETCoreApp,Version=v8.0)\n\nPassed!  - Failed:     0, Passed:    37, Skipped:     0, Total:    37, Duration: 2 s - Ledgerly.Tests.dll (net8.0)\n",
        ),
        Run(
            "git switch -c deps/serilog-3.1 && git commit -am 'Bump Serilog.AspNetCore to 3.1.0'",
            "Switched to a new branch 'deps/serilog-3.1'\n[deps/serilog-3.1 4be1c07] Bump Serilog.AspNetCore to 3.1.0\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
        ),
        Say(
            "Bumped Serilog.AspNetCore to 3.1.0 on a new branch `deps/serilog-3.1`; `dotnet test` passes (37 tests)."
        ),
    ),
    keep=(
        Item("rule", RULE, (r"main", r"never|branch|don't|do not")),
        Item("test", COMMAND, (r"`dotnet test`",)),
        Item("language", FACT, (r"c#|\.net|dotnet|asp\.net",)),
    ),
    never=((r"serilog.*(?:always|never)", "the bump is a one-off"),),
)

LARAVEL_PHPUNIT = Case(
    "laravel-phpunit",
    "composer.json read; `vendor/bin/phpunit` passes",
    "PHP/Laravel",
    one_session(
        "/srv/www/invoicer",
        Ask("Quick sanity check: do the tests pass on this branch?"),
        Run(
            "cat composer.json",
            '{\n    "name": "acme/invoicer",\n    "type": "project",\n    "description": "Invoicing back office for Acme freelancers.",\n    "require": {\n        "php": "^8.2",\n        "laravel/framework": "^11.9",\n        "laravel/sanctum": "^4.0"\n    },\n    "require-dev": {\n        "phpunit/phpunit": "^11.0.1",\n        "laravel/pint": "^1.13"\n    },\n    "autoload": {\n        "psr-4": {\n            "App\\\\": "app/"\n        }\n    }\n}\n',
        ),
        Run(
            "vendor/bin/phpunit",
            "PHPUnit 11.2.5 by Sebastian Bergmann and contributors.\n\nRuntime:       PHP 8.3.8\nConfiguration: /srv/www/invoicer/phpunit.xml\n\n........................................................................  72 / 88 ( 81%)\n................                                                  88 / 88 (100%)\n\nTime: 00:04.211, Memory: 48.00 MB\n\nOK (88 tests, 210 assertions)\n",
        ),
        Say("Yes: `vendor/bin/phpunit` passes, 88 tests and 210 assertions."),
        host="codex",
    ),
    keep=(
        Item("language", FACT, (r"php|laravel",)),
        Item("test", COMMAND, (r"vendor/bin/phpunit",)),
    ),
    never=((r"php 8\.3", "8.3 is the machine's PHP; the project asks ^8.2"),),
)

SWIFT_PACKAGE = Case(
    "swift-package-test",
    "Package.swift read; `swift test` fails to compile; a fix; passes",
    "Swift",
    one_session(
        "/Users/kai/Developer/Mapletree",
        Ask("Make `TileCache.evict` public and run the tests."),
        Read(
            "Package.swift",
            '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: "Mapletree",\n    platforms: [.macOS(.v13), .iOS(.v16)],\n    products: [.library(name: "Mapletree", targets: ["Mapletree"])],\n    targets: [\n        .target(name: "Mapletree"),\n        .testTarget(name: "MapletreeTests", dependencies: ["Mapletree"]),\n    ]\n)\n',
        ),
        Edit(
            "Sources/Mapletree/TileCache.swift",
            "    func evict(olderThan age: TimeInterval) {",
            "    public func evict(olderThan age: TimeInterval) {",
        ),
        Run(
            "swift test",
            "Building for debugging...\n/Users/kai/Developer/Mapletree/Sources/Mapletree/TileCache.swift:41:17: error: method cannot be declared public because its parameter uses an internal type\n    public func evict(olderThan age: TimeInterval) -> [TileKey] {\nerror: fatalError\n",
            1,
        ),
        Edit(
            "Sources/Mapletree/TileKey.swift",
            "struct TileKey: Hashable {",
            "public struct TileKey: Hashable {",
        ),
        Run(
            "swift test",
            "Building for debugging...\nBuild complete! (4.11s)\nTest Suite 'All tests' started at 2026-05-04 10:12:03.114.\nTest Suite 'All tests' passed at 2026-05-04 10:12:03.402.\n\t Executed 24 tests, with 0 failures (0 unexpected) in 0.281 (0.288) seconds\n",
        ),
        Say(
            "`evict` is public now; it returns `[TileKey]`, so `TileKey` had to become public too. `swift test` passes (24 tests)."
        ),
    ),
    keep=(
        Item("language", FACT, (r"swift", r"mapletree|package|macos|ios")),
        Item("test", COMMAND, (r"`swift test`",)),
    ),
)

UV_NEVER_PIP = Case(
    "uv-never-pip",
    "the user says never pip, always uv; pyproject read; bare pytest not found; `uv run pytest` passes",
    "Python/uv",
    one_session(
        "/home/tom/code/sieve",
        Ask("Run the tests. Never use pip in this project, always go through uv."),
        Read(
            "pyproject.toml",
            '[project]\nname = "sieve"\nversion = "0.6.0"\ndescription = "Deduplicate near-identical CSV rows"\nrequires-python = ">=3.12"\ndependencies = ["polars>=1.0", "rapidfuzz>=3.9"]\n\n[tool.uv]\ndev-dependencies = ["pytest>=8.2", "ruff>=0.5"]\n',
        ),
        Run("pytest -q", "bash: pytest: command not found\n", 127),
        Run(
            "uv run pytest -q",
            "...............................                                  [100%]\n31 passed in 0.84s\n",
        ),
        Say(
            "All 31 tests pass with `uv run pytest -q` (pytest isn't on the PATH outside uv's environment)."
        ),
    ),
    keep=(
        Item("rule", RULE, (r"\bpip\b|\buv\b", r"never|always|don't|do not|instead")),
        Item("test", COMMAND, (r"uv run pytest",)),
        Item("language", FACT, (r"python",)),
    ),
    never=(
        (
            r"^(?!.*(?:not found|failed|not on)).*(?<!run )`pytest(?: -q)?`",
            "bare pytest is not installed",
        ),
        (r"`pip install", "the user forbids pip"),
    ),
)

PNPM_TYPECHECK = Case(
    "pnpm-typecheck-fix",
    "package.json read; `pnpm test` passes, `pnpm typecheck` fails, a fix, passes",
    "TypeScript/pnpm",
    one_session(
        "/home/zoe/src/harbor-ui",
        Ask("Run the checks before I open the PR."),
        Read(
            "package.json",
            '{\n  "name": "harbor-ui",\n  "private": true,\n  "packageManager": "pnpm@9.5.0",\n  "scripts": {\n    "dev": "vite",\n    "build": "vite build",\n    "test": "vitest run",\n    "typecheck": "tsc --noEmit"\n  },\n  "dependencies": {\n    "react": "^18.3.1",\n    "@tanstack/react-query": "^5.51.1"\n  },\n  "devDependencies": {\n    "typescript": "^5.5.3",\n    "vite": "^5.3.4",\n    "vitest": "^2.0.4"\n  }\n}\n',
        ),
        Run(
            "pnpm test",
            "\n> harbor-ui@ test /home/zoe/src/harbor-ui\n> vitest run\n\n RUN  v2.0.4 /home/zoe/src/harbor-ui\n\n ✓ src/api.test.ts (6 tests) 12ms\n ✓ src/Dock.test.tsx (4 tests) 48ms\n\n Test Files  2 passed (2)\n      Tests  10 passed (10)\n",
        ),
        Run(
            "pnpm typecheck",
            "\n> harbor-ui@ typecheck /home/zoe/src/harbor-ui\n> tsc --noEmit\n\nsrc/api.ts:27:18 - error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.\n\n27   return fetchJson(process.env.VITE_API_URL, path);\n                    ~~~~~~~~~~~~~~~~~~~~~~~~~\n\nFound 1 error in src/api.ts:27\n\n ELIFECYCLE  Command failed with exit code 2.\n",
            2,
        ),
        Edit(
            "src/api.ts",
            "  return fetchJson(process.env.VITE_API_URL, path);",
            "  return fetchJson(import.meta.env.VITE_API_URL ?? '', path);",
        ),
        Run(
            "pnpm typecheck",
            "\n> harbor-ui@ typecheck /home/zoe/src/harbor-ui\n> tsc --noEmit\n\n",
        ),
        Say(
            "Tests pass (`pnpm test`, 10 tests). `pnpm typecheck` found one error in `src/api.ts`: the API URL can be undefined; I read it from `import.meta.env` with a fallback and the type check is clean."
        ),
        host="codex",
    ),
    keep=(
        Item("test", COMMAND, (r"`pnpm (?:run )?test`",)),
        Item("typecheck", COMMAND, (r"`pnpm (?:run )?typecheck`",)),
        Item("language", FACT, (r"typescript|react|vite",)),
    ),
    never=((r"`(?:npm|yarn) (?:run )?(?:test|typecheck)`", "the project uses pnpm"),),
)

BUN_ALWAYS = Case(
    "bun-always-bun",
    "the user says always bun, never npm; package.json read; `bun test` passes",
    "TypeScript/Bun",
    one_session(
        "/home/eli/src/flicker",
        Ask("Always use bun here, never npm or node. Can you run the tests?"),
        Read(
            "package.json",
            '{\n  "name": "flicker",\n  "module": "src/index.ts",\n  "type": "module",\n  "scripts": {\n    "start": "bun run src/index.ts",\n    "test": "bun test"\n  },\n  "devDependencies": {\n    "@types/bun": "latest"\n  },\n  "peerDependencies": {\n    "typescript": "^5.0.0"\n  }\n}\n',
        ),
        Run(
            "bun test",
            "bun test v1.1.20 (ae194892)\n\nsrc/frames.test.ts:\n✓ splits frames [0.41ms]\n✓ merges adjacent frames [0.12ms]\n\nsrc/index.test.ts:\n✓ serves /health [3.02ms]\n\n 12 pass\n 0 fail\n 31 expect() calls\nRan 12 tests across 4 files. [88.00ms]\n",
        ),
        Say("All 12 tests pass with `bun test`."),
    ),
    keep=(
        Item("rule", RULE, (r"\bbun\b", r"npm|node")),
        Item("test", COMMAND, (r"`bun test`",)),
    ),
    never=((r"`npm (?:run )?test`", "the user forbids npm"),),
)

ZIG_BUILD = Case(
    "zig-build-test",
    "build.zig.zon read; `zig build test` fails on a type error; a fix; passes silently",
    "Zig",
    one_session(
        "/home/pia/src/glint",
        Ask("zig build test broke after I changed the lexer, have a look?"),
        Read(
            "build.zig.zon",
            '.{\n    .name = "glint",\n    .version = "0.2.0",\n    .minimum_zig_version = "0.13.0",\n    .dependencies = .{},\n    .paths = .{ "build.zig", "build.zig.zon", "src" },\n}\n',
        ),
        Run(
            "zig build test",
            "test\n└─ run test\n   └─ zig test Debug native 1 errors\nsrc/lexer.zig:54:30: error: expected type 'u32', found 'usize'\n        self.line = self.pos - start;\n                    ~~~~~~~~~^~~~~~~\nerror: the following command failed with 1 compilation errors:\n",
            1,
        ),
        Edit(
            "src/lexer.zig",
            "        self.line = self.pos - start;",
            "        self.line = @intCast(self.pos - start);",
        ),
        Run("zig build test", ""),
        Say(
            "`self.pos - start` is a `usize` and `line` is a `u32`; an `@intCast` fixes it, and `zig build test` passes again."
        ),
    ),
    keep=(
        Item("language", FACT, (r"\bzig\b",)),
        Item("test", COMMAND, (r"`zig build test`",)),
    ),
)

GO_MAKE = Case(
    "go-makefile-test",
    "Makefile read; `make test` passes",
    "Go",
    one_session(
        "/home/kofi/code/relay",
        Ask("How are the tests run here? Run them."),
        Run(
            "cat Makefile",
            ".PHONY: build test lint\n\nbuild:\n\tgo build -o bin/relay ./cmd/relay\n\ntest:\n\tgo test -race -count=1 ./...\n\nlint:\n\tgolangci-lint run ./...\n",
        ),
        Run(
            "make test",
            "go test -race -count=1 ./...\nok  \tgithub.com/kofi/relay/cmd/relay\t1.104s\nok  \tgithub.com/kofi/relay/internal/hub\t2.871s\nok  \tgithub.com/kofi/relay/internal/wire\t1.020s\n",
        ),
        Say(
            "Tests run through `make test`, which is `go test -race -count=1 ./...`; all three packages pass. `make lint` runs golangci-lint."
        ),
        host="codex",
    ),
    keep=(
        Item("test", COMMAND, (r"`make test`",)),
        Item("language", FACT, (r"\bgo\b|golang",)),
    ),
)

RUST_FEATURE = Case(
    "rust-tests-need-feature",
    "`cargo test` fails on a feature-gated import; `cargo test --features sqlite` passes",
    "Rust",
    one_session(
        "/home/dan/src/stash",
        Ask("Run the test suite please."),
        Read(
            "Cargo.toml",
            '[package]\nname = "stash"\nversion = "0.5.0"\nedition = "2021"\n\n[features]\ndefault = []\nsqlite = ["dep:rusqlite"]\n\n[dependencies]\nrusqlite = { version = "0.31", optional = true, features = ["bundled"] }\nserde = { version = "1", features = ["derive"] }\n',
        ),
        Run(
            "cargo test",
            '   Compiling stash v0.5.0 (/home/dan/src/stash)\nerror[E0432]: unresolved import `crate::backend::sqlite`\n --> tests/roundtrip.rs:3:5\n  |\n3 | use stash::backend::sqlite::SqliteStore;\n  |     ^^^^^^^^^^^^^^^^^^^^^^ could not find `sqlite` in `backend`\n  |\nnote: found an item that was configured out\n  = note: the item is gated behind the `sqlite` feature\nerror: could not compile `stash` (test "roundtrip") due to 1 previous error\n',
            101,
        ),
        Run(
            "cargo test --features sqlite",
            "   Compiling rusqlite v0.31.0\n   Compiling stash v0.5.0 (/home/dan/src/stash)\n    Finished `test` profile [unoptimized + debuginfo] target(s) in 14.22s\n     Running unittests src/lib.rs (target/debug/deps/stash-3f2a)\n\nrunning 9 tests\n.........\ntest result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\n     Running tests/roundtrip.rs (target/debug/deps/roundtrip-77c1)\n\nrunning 3 tests\n...\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.04s\n",
        ),
        Say(
            "The integration tests use the SQLite backend, which sits behind the `sqlite` feature, so plain `cargo test` doesn't compile them. `cargo test --features sqlite` passes: 12 tests."
        ),
    ),
    keep=(
        Item("test", COMMAND, (r"cargo test --features sqlite",)),
        Item("language", FACT, (r"rust",)),
    ),
    never=(
        (r"^(?!.*--features).*`cargo test`(?! --features)", "plain cargo test does not compile"),
    ),
)

GEM_CHANGELOG = Case(
    "ruby-gem-always-changelog",
    "the user says always add a CHANGELOG entry; gemspec read; `bundle exec rake test` passes",
    "Ruby",
    one_session(
        "/home/ola/code/tallyho",
        Ask(
            "Add a `--json` flag to the `report` command. Always add a CHANGELOG entry for user-facing changes."
        ),
        Read(
            "tallyho.gemspec",
            'Gem::Specification.new do |spec|\n  spec.name          = "tallyho"\n  spec.version       = "2.3.0"\n  spec.summary       = "Count things in log files from the command line"\n  spec.required_ruby_version = ">= 3.1"\n  spec.files         = Dir["lib/**/*.rb", "exe/*"]\n  spec.executables   = ["tallyho"]\n  spec.add_dependency "thor", "~> 1.3"\n  spec.add_development_dependency "minitest", "~> 5.22"\nend\n',
        ),
        Edit(
            "lib/tallyho/cli.rb",
            "    option :top, type: :numeric",
            "    option :top, type: :numeric\n    option :json, type: :boolean",
        ),
        Edit(
            "CHANGELOG.md",
            "## Unreleased\n",
            "## Unreleased\n\n- `report --json` prints the counts as JSON.\n",
        ),
        Run(
            "bundle exec rake test",
            "Run options: --seed 3310\n\n# Running:\n\n..................\n\nFinished in 0.124s, 145.1613 runs/s, 322.5806 assertions/s.\n\n18 runs, 40 assertions, 0 failures, 0 errors, 0 skips\n",
        ),
        Say(
            "Added `--json` to `report` and a CHANGELOG entry under Unreleased; `bundle exec rake test` passes."
        ),
        host="codex",
    ),
    keep=(
        Item("rule", RULE, (r"changelog", r"always|user-facing|every")),
        Item("test", COMMAND, (r"bundle exec rake test",)),
        Item("language", FACT, (r"ruby|gem",)),
    ),
    never=((r"--json.*(?:always|every)", "the flag is the task, not a rule"),),
)

CMAKE_CTEST = Case(
    "c-cmake-ctest",
    "CMakeLists.txt read; configure, build and ctest pass",
    "C/CMake",
    one_session(
        "/home/raj/src/rivet",
        Ask("Build it and run the tests, I just cloned it."),
        Read(
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.20)\nproject(rivet VERSION 1.2.0 LANGUAGES C)\n\nset(CMAKE_C_STANDARD 11)\nadd_library(rivet src/rivet.c src/pool.c)\ntarget_include_directories(rivet PUBLIC include)\n\nenable_testing()\nadd_subdirectory(tests)\n",
        ),
        Run(
            "cmake -B build -DCMAKE_BUILD_TYPE=Debug && cmake --build build -j && ctest --test-dir build --output-on-failure",
            "-- The C compiler identification is GNU 13.2.0\n-- Configuring done (0.4s)\n-- Generating done (0.0s)\n-- Build files have been written to: /home/raj/src/rivet/build\n[ 20%] Building C object CMakeFiles/rivet.dir/src/rivet.c.o\n[ 40%] Building C object CMakeFiles/rivet.dir/src/pool.c.o\n[ 60%] Linking C static library librivet.a\n[100%] Built target test_pool\nInternal ctest changing into directory: /home/raj/src/rivet/build\nTest project /home/raj/src/rivet/build\n    Start 1: test_pool\n1/9 Test #1: test_pool ........................   Passed    0.01 sec\n...\n100% tests passed, 0 tests failed out of 9\n\nTotal Test time (real) =   0.09 sec\n",
        ),
        Say("Built with CMake into `build/` and all 9 tests pass under ctest."),
    ),
    keep=(
        Item("test", COMMAND, (r"ctest --test-dir build",)),
        Item("language", FACT, (r"\bc\b.*cmake|cmake.*\bc\b",)),
    ),
    never=((r"c\+\+", "the project is C only"),),
)

HASKELL_CABAL = Case(
    "haskell-cabal-test",
    "a .cabal file read; `cabal test` passes",
    "Haskell",
    one_session(
        "/home/yuki/src/quill",
        Ask("Does the test suite still pass with GHC 9.6?"),
        Read(
            "quill.cabal",
            "cabal-version:      3.0\nname:               quill\nversion:            0.4.2.0\nsynopsis:           A Markdown to Gemtext converter\nlicense:            BSD-3-Clause\nbuild-type:         Simple\n\nlibrary\n    exposed-modules:  Quill, Quill.Render\n    build-depends:    base >=4.17 && <5, text ^>=2.0, cmark-gfm ^>=0.2\n    hs-source-dirs:   src\n    default-language: GHC2021\n\ntest-suite quill-test\n    type:             exitcode-stdio-1.0\n    main-is:          Main.hs\n    hs-source-dirs:   test\n    build-depends:    base, quill, hspec ^>=2.11\n",
        ),
        Run(
            "ghc --version && cabal test",
            "The Glorious Glasgow Haskell Compilation System, version 9.6.5\nBuild profile: -w ghc-9.6.5 -O1\nIn order, the following will be built (use -v for more details):\n - quill-0.4.2.0 (test:quill-test) (first run)\nRunning 1 test suites...\nTest suite quill-test: RUNNING...\nTest suite quill-test: PASS\nTest suite logged to: dist-newstyle/build/x86_64-linux/ghc-9.6.5/quill-0.4.2.0/t/quill-test/test/quill-0.4.2.0-quill-test.log\n1 of 1 test suites (1 of 1 test cases) passed.\n",
        ),
        Say("Yes: with GHC 9.6.5, `cabal test` passes (the hspec suite `quill-test`)."),
    ),
    keep=(
        Item("test", COMMAND, (r"`cabal test`",)),
        Item("language", FACT, (r"haskell",)),
    ),
    never=((r"stack test", "the project builds with cabal"),),
)

FLUTTER_TEST = Case(
    "flutter-test",
    "pubspec.yaml read; `flutter test` passes",
    "Dart/Flutter",
    one_session(
        "/home/noor/apps/pocket_notes",
        Ask("Run the widget tests, I changed the note card."),
        Read(
            "pubspec.yaml",
            "name: pocket_notes\ndescription: A small offline notes app.\npublish_to: 'none'\nversion: 1.3.0+14\n\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\n\ndependencies:\n  flutter:\n    sdk: flutter\n  provider: ^6.1.2\n  sqflite: ^2.3.3\n\ndev_dependencies:\n  flutter_test:\n    sdk: flutter\n  flutter_lints: ^4.0.0\n",
        ),
        Run(
            "flutter test",
            "00:03 +0: loading /home/noor/apps/pocket_notes/test/note_card_test.dart\n00:04 +6: /home/noor/apps/pocket_notes/test/note_card_test.dart: shows the title\n00:05 +23: All tests passed!\n",
        ),
        Say("All 23 tests pass with `flutter test`, including the note card's."),
        host="codex",
    ),
    keep=(
        Item("test", COMMAND, (r"`flutter test`",)),
        Item("language", FACT, (r"flutter|dart",)),
    ),
)

README_ONLY = Case(
    "uv-readme-only",
    "how do I run this: README read, an answer, no command run",
    "Python/uv",
    one_session(
        "/home/bea/src/kestrel",
        Ask("How do I run this locally?"),
        Read(
            "README.md",
            "# Kestrel\n\nKestrel is a small HTTP load generator that replays recorded traffic at a chosen rate.\n\n## Development\n\n```sh\nuv sync\nuv run kestrel --help\nuv run pytest\n```\n\nRequires Python 3.11 or newer.\n",
        ),
        Say(
            "Kestrel is a small HTTP load generator. To run it locally: `uv sync`, then `uv run kestrel --help`; the tests run with `uv run pytest`."
        ),
    ),
    keep=(
        Item("what", FACT, (r"kestrel|load generator", r"http|load|traffic")),
        Item("setup", COMMAND, (r"uv sync",)),
    ),
    never=((r"pass(?:es|ed)", "no test ran"),),
)

YARN_NOT_NPM = Case(
    "yarn-not-npm",
    "`npm test` fails on a yarn lock; the user says we use yarn; `yarn test` passes",
    "JavaScript/Yarn",
    (
        Session(
            "codex",
            "/home/leo/src/tessera",
            (
                Ask("Can you run the tests?"),
                Run("ls", "README.md\njest.config.js\npackage.json\nsrc\nyarn.lock\n"),
                Run(
                    "npm test",
                    'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! Found: react@18.3.1\nnpm ERR! Could not resolve dependency: peer react@"^17" from react-tiles@2.4.0\n',
                    1,
                ),
                Say("`npm test` fails resolving dependencies: `react-tiles` wants React 17."),
                Ask("We don't use npm here, it's yarn. Never run npm in this repo."),
                Run(
                    "yarn test",
                    "yarn run v1.22.22\n$ jest\nPASS src/tiles.test.js\nPASS src/grid.test.js\n\nTest Suites: 2 passed, 2 total\nTests:       19 passed, 19 total\nDone in 3.41s.\n",
                ),
                Say("With yarn all 19 tests pass (`yarn test`, Jest)."),
            ),
        ),
    ),
    keep=(
        Item("rule", RULE, (r"\bnpm\b", r"yarn")),
        Item("test", COMMAND, (r"`yarn (?:run )?test`",)),
    ),
    never=((r"`npm (?:run )?test`(?!.*(?:fail|never|not|don't))", "npm is not the project's"),),
)

# Cut the way a short cut of a long session is: selected records, so a call's result can be
# gone (`Lost`) while the report that ends the turn, and the next prompt, are kept.

LOST_NPM_REPORT = Case(
    "cut-npm-test-report",
    "cut: the first prompt, `npm test` whose result is gone, the report, the next prompt",
    "TypeScript/npm",
    one_session(
        "/home/ada/src/parcelkit",
        Ask("Upgrade vitest to v2 and make sure the tests still pass."),
        Read(
            "package.json",
            '{\n  "name": "parcelkit",\n  "version": "3.0.2",\n  "scripts": {\n    "build": "tsc -p .",\n    "test": "vitest run"\n  },\n  "devDependencies": {\n    "typescript": "^5.4.5",\n    "vitest": "^1.6.0"\n  }\n}\n',
        ),
        Lost("npm install -D vitest@^2 && npm test"),
        Say(
            "Upgraded vitest to 2.0.5. `npm test` passes: 12 test files, 118 tests. No config change was needed."
        ),
        Ask("Great. From now on always run `npm run build` too before you say something is done."),
    ),
    keep=(
        Item("test", COMMAND, (r"`npm (?:run )?test`",)),
        Item("rule", RULE, (r"npm run build", r"always|before|done")),
        Item("language", FACT, (r"typescript",)),
    ),
)

LOST_CARGO_REPORT = Case(
    "cut-cargo-test-report",
    "cut: the prompt, `cargo test` whose result is gone, the report",
    "Rust",
    one_session(
        "/home/ben/code/lattice",
        Ask("Run the tests and tell me what fails."),
        Lost("cargo test --workspace"),
        Say(
            "`cargo test --workspace` passes: 214 tests across the 4 crates, none failing. Two are ignored (`#[ignore]`, they need a running Redis)."
        ),
        host="codex",
    ),
    keep=(Item("test", COMMAND, (r"cargo test --workspace",)),),
    never=((r"(?:fail|broken).*cargo test|cargo test.*fail", "the run passed"),),
)

LOST_FIX_REPORT = Case(
    "cut-build-fix-report",
    "cut: `go build` fails, the fix's records gone, the report says the cause and that it builds",
    "Go",
    one_session(
        "/home/cy/src/ferry",
        Ask("go build is broken on main, can you fix it?"),
        Run(
            "go build ./...",
            "# github.com/cy/ferry/internal/queue\ninternal/queue/queue.go:14:2: undefined: slices.Sorted\nnote: module requires Go 1.23 or later\n",
            1,
        ),
        Say(
            "`slices.Sorted` needs Go 1.23, but `go.mod` said `go 1.22`. I bumped the `go` line to 1.23 (the toolchain here is 1.23.2); `go build ./...` succeeds and `go test ./...` passes."
        ),
    ),
    keep=(
        Item("build", COMMAND, (r"go build \./\.\.\.",)),
        Item("go123", LESSON, (r"1\.23", r"slices|go\.mod|toolchain|go line")),
    ),
)

REPORT_ONLY = Case(
    "cut-prompt-and-report",
    "cut: the first prompt and the report that ends the turn, every call gone",
    "Ruby/Rails",
    one_session(
        "/home/dee/work/shelfie",
        Ask("Run the specs and the linter, then summarise the state of the repo."),
        Lost("bundle exec rspec"),
        Lost("bundle exec rubocop"),
        Say(
            "Specs: `bundle exec rspec` passes, 311 examples, 0 failures. Lint: `bundle exec rubocop` reports 0 offenses. The repo is a Rails 7.2 app on Ruby 3.3; the last commit is the CSV export."
        ),
    ),
    keep=(
        Item("test", COMMAND, (r"bundle exec rspec",)),
        Item("lint", COMMAND, (r"bundle exec rubocop",)),
    ),
)

CSPROJ_ROOT_SLN = Case(
    "dotnet-sln-at-root",
    "`ls` shows a .sln at the root; a project's csproj under src/ read; `dotnet build` passes",
    "C#/.NET",
    one_session(
        "/home/fay/src/tollgate",
        Ask("What is this and does it build?"),
        Run("ls", "Directory.Build.props\nREADME.md\nTollgate.sln\nsrc\ntests\n"),
        Read(
            "src/Tollgate.Worker/Tollgate.Worker.csproj",
            '<Project Sdk="Microsoft.NET.Sdk.Worker">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="Confluent.Kafka" Version="2.4.0" />\n  </ItemGroup>\n</Project>\n',
        ),
        Run(
            "dotnet build",
            "  Determining projects to restore...\n  All projects are up-to-date for restore.\n  Tollgate.Worker -> /home/fay/src/tollgate/src/Tollgate.Worker/bin/Debug/net8.0/Tollgate.Worker.dll\n  Tollgate.Tests -> /home/fay/src/tollgate/tests/Tollgate.Tests/bin/Debug/net8.0/Tollgate.Tests.dll\n\nBuild succeeded.\n    0 Warning(s)\n    0 Error(s)\n",
        ),
        Say(
            "Tollgate is a .NET 8 worker service that reads Kafka; `dotnet build` succeeds with no warnings."
        ),
    ),
    keep=(
        Item("language", FACT, (r"c#|\.net|dotnet",)),
        Item("build", COMMAND, (r"`dotnet build`",)),
    ),
)

GO_README_PROSE = Case(
    "go-readme-prose-checks",
    "README read: its prose says to run `go vet ./...` and `go test ./...`; nothing runs",
    "Go",
    one_session(
        "/home/gus/src/plover",
        Ask("What do I need to run before sending a PR here?"),
        Read(
            "README.md",
            "# plover\n\nplover is a DNS-over-HTTPS forwarder written in Go.\n\n## Contributing\n\nBefore sending a pull request, run `go vet ./...` and `go test -race ./...`; both must pass.\n",
        ),
        Say("Run `go vet ./...` and `go test -race ./...` before a PR; both must pass."),
    ),
    keep=(Item("test", COMMAND, (r"go test -race \./\.\.\.",)),),
)

LOST_NO_FAILURES = Case(
    "cut-no-test-failures-report",
    "cut: `pytest` and `mypy` whose results are gone; the report says no test failures and no errors",
    "Python",
    one_session(
        "/home/hal/src/quarry",
        Ask("Check the branch is green before I merge."),
        Lost("python -m pytest -q"),
        Lost("mypy src"),
        Say(
            "The branch is green: `python -m pytest -q` ran 402 tests with no test failures, and `mypy src` found no type errors."
        ),
        host="codex",
    ),
    keep=(
        Item("test", COMMAND, (r"python -m pytest",)),
        Item("typecheck", COMMAND, (r"mypy src",)),
    ),
)

CASES: tuple[Case, ...] = (
    GO_FIX_TEST,
    RUST_CLIPPY_ALWAYS,
    ELIXIR_DB_FIRST,
    RAILS_RSPEC,
    KOTLIN_WRAPPER,
    MAVEN_SPRING,
    DOTNET_NEVER_MAIN,
    LARAVEL_PHPUNIT,
    SWIFT_PACKAGE,
    UV_NEVER_PIP,
    PNPM_TYPECHECK,
    BUN_ALWAYS,
    ZIG_BUILD,
    GO_MAKE,
    RUST_FEATURE,
    GEM_CHANGELOG,
    CMAKE_CTEST,
    HASKELL_CABAL,
    FLUTTER_TEST,
    README_ONLY,
    YARN_NOT_NPM,
    LOST_NPM_REPORT,
    LOST_CARGO_REPORT,
    LOST_FIX_REPORT,
    REPORT_ONLY,
    CSPROJ_ROOT_SLN,
    GO_README_PROSE,
    LOST_NO_FAILURES,
)
