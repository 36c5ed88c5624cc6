"""A second battery of sessions built to mislead the stack facts (the first is
`test_stack_traps.py`), in ecosystems and traps it lacks: Elixir and Erlang, Kotlin (Android and
a server), Scala, Clojure, Haskell, Swift, Dart, Zig, OCaml, Nix and a monorepo of several
languages; runtime versions that disagree across `.tool-versions`, `.nvmrc`, `engines`, a CI
matrix and a container image; two lock files; a test runner's configuration left behind; two
Ruby test frameworks; a framework imported only by an example; a job queue declared and never
configured; the assistant's or the user's words naming a stack the code does not show; a
subagent describing another repository; a warning printed by another tool.

Each case says what the memory must state (scoped where it holds) and what it must never state,
in the memories and in the text a session starts with. Where the evidence conflicts and nothing
decides, it says less. The battery is imagined, not recorded.
"""

from __future__ import annotations

import pytest

from squirrel_gateway import hook_context
from squirrel_gateway.schemas import PitfallItem, SearchResult
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.gateway.fakes import FakeBackend
from tests.unit.memory.session_builder import Session, numbered
from tests.unit.memory.test_stack_traps import T0, Trap, check_said, check_unsaid, mentions

ROOT = "/home/dev/quarry"
PASSED = "5 tests, 0 failures\n"


MIX_DEPS = (
    "defmodule Quarry.MixProject do\n  use Mix.Project\n\n  defp deps do\n    [\n"
    '      {:phoenix, "~> 1.7"},\n      {:ecto_sql, "~> 3.11"},\n'
    '      {:postgrex, ">= 0.0.0"},\n      {:redix, "~> 1.5"},\n'
    '      {:oban, "~> 2.17"},\n'
    '      {:credo, "~> 1.7", only: [:dev, :test], runtime: false},\n'
    '      {:ex_machina, "~> 2.7", only: :test},\n      {:tailwind, "~> 0.2", runtime: false}\n'
    "    ]\n  end\nend\n"
)

TRAPS = [
    # -- Elixir / Phoenix and Erlang ----------------------------------------------------------
    Trap(
        "elixir-ecto-adapter-beside-a-redix-dependency",
        (
            ("read", "mix.exs", MIX_DEPS),
            (
                "read",
                "config/config.exs",
                "import Config\n\nconfig :quarry, Quarry.Repo,\n"
                '  adapter: Ecto.Adapters.Postgres,\n  database: "quarry_dev"\n',
            ),
            (
                "read",
                "lib/quarry/repo.ex",
                "defmodule Quarry.Repo do\n"
                "  use Ecto.Repo, otp_app: :quarry, adapter: Ecto.Adapters.Postgres\nend\n",
            ),
            ("edit", "lib/quarry/stones.ex"),
            ("run", "mix test", "Finished in 0.3 seconds\n" + PASSED),
        ),
        said=(("database", "PostgreSQL"), ("language", "Elixir project")),
        unsaid=("Redis", "Oban", "Credo", "ExMachina", "Tailwind"),
    ),
    Trap(
        "elixir-job-queue-declared-never-configured",
        (
            ("read", "mix.exs", MIX_DEPS),
            ("edit", "lib/quarry/stones.ex"),
            ("edit", "lib/quarry_web/router.ex"),
            ("run", "mix test", "Finished in 0.3 seconds\n" + PASSED),
        ),
        said=(("language", "Elixir project"),),
        unsaid=("Oban", "Redis", "PostgreSQL"),
        absent=("database",),
    ),
    Trap(
        "erlang-rebar3-test-profile-deps",
        (
            (
                "read",
                "rebar.config",
                '{erl_opts, [debug_info]}.\n{deps, [{cowboy, "2.10.0"}]}.\n'
                '{profiles, [{test, [{deps, [{meck, "0.9.2"}, {epgsql, "4.7.1"}]}]}]}.\n',
            ),
            ("edit", "src/quarry_app.erl"),
            ("edit", "src/quarry_sup.erl"),
            ("run", "rebar3 eunit", "All 6 tests passed.\n"),
        ),
        said=(("language", "Erlang"), ("recipe:test", "`rebar3 eunit`")),
        unsaid=("PostgreSQL", "Elixir project", "mix test"),
    ),
    # -- Kotlin: a version catalog declaring libraries nobody uses; Android vs a server --------
    Trap(
        "kotlin-version-catalog-declares-unused-libraries",
        (
            (
                "read",
                "gradle/libs.versions.toml",
                '[versions]\nktor = "2.3.9"\nspring = "3.2.4"\nroom = "2.6.1"\n\n[libraries]\n'
                'ktor-server-core = { module = "io.ktor:ktor-server-core", version.ref = "ktor" }\n'
                'spring-boot = { module = "org.springframework.boot:spring-boot-starter-web",'
                ' version.ref = "spring" }\n'
                'room-runtime = { module = "androidx.room:room-runtime", version.ref = "room" }\n'
                'postgres = { module = "org.postgresql:postgresql", version = "42.7.3" }\n',
            ),
            (
                "read",
                "build.gradle.kts",
                'plugins { kotlin("jvm") version "2.0.0" }\n'
                "dependencies {\n    implementation(libs.ktor.server.core)\n}\n",
            ),
            (
                "read",
                "src/main/kotlin/Application.kt",
                "import io.ktor.server.engine.*\nimport io.ktor.server.netty.*\n\n"
                "fun main() { embeddedServer(Netty, port = 8080) {}.start(wait = true) }\n",
            ),
            ("edit", "src/main/kotlin/Application.kt"),
            ("run", "./gradlew test", "BUILD SUCCESSFUL in 4s\n"),
        ),
        said=(("language", "Kotlin project"), ("recipe:test", "`./gradlew test`")),
        unsaid=("Spring", "Spring Boot", "Room", "PostgreSQL", "Android"),
    ),
    Trap(
        "kotlin-android-app-with-a-ktor-client",
        (
            (
                "read",
                "app/build.gradle.kts",
                'plugins { id("com.android.application"); kotlin("android") }\n'
                "dependencies {\n"
                '    implementation("io.ktor:ktor-client-okhttp:2.3.9")\n'
                '    implementation("androidx.room:room-runtime:2.6.1")\n'
                '    testImplementation("junit:junit:4.13.2")\n}\n',
            ),
            (
                "read",
                "app/src/main/java/dev/quarry/Api.kt",
                "import io.ktor.client.HttpClient\n\nval client = HttpClient()\n",
            ),
            ("edit", "app/src/main/java/dev/quarry/Api.kt"),
            ("run", "./gradlew :app:testDebugUnitTest", "BUILD SUCCESSFUL in 9s\n"),
        ),
        said=(("language", "Kotlin"), ("recipe:test", "`./gradlew :app:testDebugUnitTest`")),
        unsaid=("Ktor server", "Built with Ktor", "SQLite", "Spring"),
    ),
    # -- Scala, Clojure, Haskell ---------------------------------------------------------------
    Trap(
        "scala-sbt-multi-project-with-a-docs-module",
        (
            (
                "read",
                "build.sbt",
                'lazy val core = project.settings(libraryDependencies += "org.typelevel" %% '
                '"cats-effect" % "3.5.4")\n'
                'lazy val docs = project.settings(libraryDependencies += "com.typesafe.play" %% '
                '"play" % "2.9.0")\n'
                'lazy val it = project.settings(libraryDependencies += "org.postgresql" % '
                '"postgresql" % "42.7.3" % Test)\n',
            ),
            ("edit", "core/src/main/scala/quarry/Stones.scala"),
            ("edit", "core/src/main/scala/quarry/Cut.scala"),
            ("run", "sbt core/test", "[info] Passed: Total 9, Failed 0, Errors 0, Passed 9\n"),
        ),
        said=(("language", "Scala project"),),
        unsaid=("Play", "PostgreSQL", "Built with"),
    ),
    Trap(
        "clojure-deps-edn-test-alias",
        (
            (
                "read",
                "deps.edn",
                '{:deps {org.clojure/clojure {:mvn/version "1.11.2"}\n'
                '        ring/ring-core {:mvn/version "1.12.1"}}\n'
                " :aliases {:test {:extra-deps {io.github.cognitect-labs/test-runner "
                '{:git/tag "v0.5.1"}\n'
                '                               org.xerial/sqlite-jdbc {:mvn/version "3.45.0"}}\n'
                '                  :main-opts ["-m" "cognitect.test-runner"]}\n'
                "           :dev {:extra-deps {com.github.seancorfield/next.jdbc "
                '{:mvn/version "1.3.925"}\n'
                '                              org.postgresql/postgresql {:mvn/version "42.7.3"}}}}}\n',
            ),
            ("edit", "src/quarry/core.clj"),
            ("edit", "src/quarry/cut.clj"),
            (
                "run",
                "clojure -X:test",
                "Ran 7 tests containing 12 assertions.\n0 failures, 0 errors.\n",
            ),
        ),
        said=(("language", "Clojure project"),),
        unsaid=("SQLite", "PostgreSQL"),
        absent=("database",),
    ),
    Trap(
        "haskell-cabal-test-suite-stanza",
        (
            (
                "read",
                "quarry.cabal",
                "cabal-version: 3.0\nname: quarry\nversion: 0.1.0\n\n"
                "library\n  build-depends: base >=4.18, text, aeson\n\n"
                "test-suite spec\n  type: exitcode-stdio-1.0\n"
                "  build-depends: base, hspec, postgresql-simple, warp\n\n"
                "benchmark bench\n  build-depends: base, criterion, servant-server\n",
            ),
            ("edit", "src/Quarry/Stones.hs"),
            ("edit", "src/Quarry/Cut.hs"),
            (
                "run",
                "cabal test",
                "Test suite spec: PASS\n1 of 1 test suites (1 of 1 test cases) passed.\n",
            ),
        ),
        said=(("language", "Haskell"), ("recipe:test", "`cabal test`")),
        unsaid=("PostgreSQL", "Servant", "Warp", "Built with"),
    ),
    Trap(
        "haskell-stack-resolver-beside-a-ghc-in-ci",
        (
            ("read", "stack.yaml", "resolver: lts-22.11\npackages:\n  - .\n"),
            (
                "read",
                ".github/workflows/ci.yml",
                "jobs:\n  build:\n    strategy:\n      matrix:\n        ghc: ['9.4.8', '9.6.4', '9.8.2']\n"
                "    steps:\n      - uses: haskell-actions/setup@v2\n        with:\n"
                "          ghc-version: ${{ matrix.ghc }}\n      - run: stack test\n",
            ),
            ("edit", "src/Quarry.hs"),
            ("run", "stack test", "quarry> Test suite spec passed\n"),
        ),
        said=(("recipe:test", "`stack test`"),),
        unsaid=("GHC 9.4", "GHC 9.6", "GHC 9.8", "9.4.8", "9.8.2"),
    ),
    # -- Swift and Dart / Flutter --------------------------------------------------------------
    Trap(
        "swift-package-test-target-dependencies",
        (
            (
                "read",
                "Package.swift",
                "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n"
                '  name: "Quarry",\n  dependencies: [\n'
                '    .package(url: "https://github.com/vapor/vapor.git", from: "4.92.0"),\n'
                '    .package(url: "https://github.com/groue/GRDB.swift.git", from: "6.0.0"),\n'
                "  ],\n  targets: [\n"
                '    .target(name: "Quarry"),\n'
                '    .testTarget(name: "QuarryTests", dependencies: ["Quarry", '
                '.product(name: "GRDB", package: "GRDB.swift")]),\n'
                '    .executableTarget(name: "Playground", dependencies: [.product(name: "Vapor",'
                ' package: "vapor")], path: "Examples/Playground"),\n  ]\n)\n',
            ),
            ("edit", "Sources/Quarry/Stones.swift"),
            ("edit", "Sources/Quarry/Cut.swift"),
            ("run", "swift test", "Executed 8 tests, with 0 failures (0 unexpected)\n"),
        ),
        said=(("language", "Swift project"), ("recipe:test", "`swift test`")),
        unsaid=("Vapor", "SQLite", "Built with"),
    ),
    Trap(
        "swift-podfile-beside-an-spm-app",
        (
            (
                "read",
                "Podfile",
                "platform :ios, '16.0'\ntarget 'Quarry' do\n  pod 'Realm'\n  pod 'Alamofire'\nend\n",
            ),
            (
                "read",
                "Quarry/Network.swift",
                "import Foundation\n\nlet session = URLSession.shared\n",
            ),
            ("edit", "Quarry/Network.swift"),
            ("run", "xcodebuild test -scheme Quarry", "** TEST SUCCEEDED **\n"),
        ),
        unsaid=("Realm", "Alamofire", "Built with"),
        absent=("database",),
    ),
    Trap(
        "dart-flutter-dev-dependencies-and-integration-tests",
        (
            (
                "read",
                "pubspec.yaml",
                "name: quarry\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\n  flutter: '>=3.19.0'\n"
                "dependencies:\n  flutter:\n    sdk: flutter\n  http: ^1.2.0\n"
                "dev_dependencies:\n  flutter_test:\n    sdk: flutter\n  integration_test:\n"
                "    sdk: flutter\n  sqflite_common_ffi: ^2.3.0\n  mockito: ^5.4.0\n",
            ),
            ("edit", "lib/stones.dart"),
            ("edit", "lib/cut.dart"),
            ("run", "flutter test", "00:03 +12: All tests passed!\n"),
        ),
        said=(("language", "Dart project"), ("recipe:test", "`flutter test`")),
        unsaid=("SQLite", "Mockito"),
        absent=("database",),
    ),
    # -- Zig, OCaml, Nix ----------------------------------------------------------------------
    Trap(
        "zig-build-zon-dependency-only-an-example-uses",
        (
            (
                "read",
                "build.zig.zon",
                '.{\n    .name = "quarry",\n    .version = "0.1.0",\n    .dependencies = .{\n'
                '        .zap = .{ .url = "https://example.invalid/zap.tar.gz", .hash = "1220ab" },\n'
                "    },\n}\n",
            ),
            ("write", "examples/server/main.zig", 'const zap = @import("zap");\n'),
            ("edit", "src/stones.zig"),
            ("edit", "src/main.zig"),
            ("run", "zig build test", "All 4 tests passed.\n"),
        ),
        said=(("language", "Zig project"), ("recipe:test", "`zig build test`")),
        unsaid=("Built with Zap", "Built with zap"),
    ),
    Trap(
        "zig-build-zon-dependency-the-app-imports",
        (
            (
                "read",
                "build.zig.zon",
                '.{\n    .name = "quarry",\n    .version = "0.1.0",\n    .dependencies = .{\n'
                '        .zap = .{ .url = "https://example.invalid/zap.tar.gz", .hash = "1220ab" },\n'
                "    },\n}\n",
            ),
            (
                "write",
                "src/server.zig",
                'const std = @import("std");\nconst zap = @import("zap");\n',
            ),
            ("edit", "src/main.zig"),
            ("run", "zig build test", "All 4 tests passed.\n"),
        ),
        said=(("language", "Zig project"), ("framework", "Zap")),
        unsaid=(),
    ),
    Trap(
        "ocaml-dune-test-stanza-libraries",
        (
            (
                "read",
                "dune-project",
                "(lang dune 3.14)\n(package\n (name quarry)\n (depends ocaml dune lwt\n"
                "  (alcotest :with-test) (caqti-driver-postgresql :with-test) (dream :with-doc)))\n",
            ),
            ("read", "test/dune", "(test\n (name test_quarry)\n (libraries quarry alcotest))\n"),
            ("edit", "lib/stones.ml"),
            ("edit", "lib/cut.ml"),
            ("run", "dune test", "Test Successful in 0.002s. 6 tests run.\n"),
        ),
        said=(("language", "OCaml project"), ("recipe:test", "`dune test`")),
        unsaid=("PostgreSQL", "Dream", "Built with"),
    ),
    Trap(
        "nix-flake-dev-shell-lists-unused-tools",
        (
            (
                "read",
                "flake.nix",
                "{\n  outputs = { self, nixpkgs }: {\n    devShells.x86_64-linux.default =\n"
                "      nixpkgs.legacyPackages.x86_64-linux.mkShell {\n"
                "        packages = with nixpkgs.legacyPackages.x86_64-linux; [\n"
                "          go_1_22 nodejs_20 postgresql_16 redis python312 rustc cargo\n"
                "        ];\n      };\n  };\n}\n",
            ),
            ("read", "go.mod", "module example.com/quarry\n\ngo 1.22\n"),
            ("edit", "main.go"),
            ("edit", "stones.go"),
            ("run", "nix develop -c go test ./...", "ok  \texample.com/quarry\t0.2s\n"),
        ),
        said=(("language", "Go project"),),
        unsaid=("PostgreSQL", "Redis", "Node.js", "Python", "Rust", "TypeScript"),
        absent=("database",),
    ),
    # -- Bazel and monorepos ---------------------------------------------------------------------
    Trap(
        "bazel-monorepo-build-files-in-several-languages",
        (
            ("read", "MODULE.bazel", 'module(name = "quarry")\nbazel_dep(name = "rules_go")\n'),
            (
                "read",
                "services/api/BUILD.bazel",
                'go_library(name = "api", srcs = ["api.go"])\n',
            ),
            (
                "read",
                "tools/lint/BUILD.bazel",
                'py_binary(name = "lint", srcs = ["lint.py"], deps = ["@pip//django"])\n',
            ),
            ("read", "tools/lint/lint.py", "import django\n"),
            ("edit", "services/api/api.go"),
            ("edit", "services/api/handler.go"),
            ("run", "bazel test //services/api/...", "Executed 3 out of 3 tests: 3 tests pass.\n"),
        ),
        unsaid=("Built with Django", "Built with", "Python project"),
    ),
    Trap(
        "pnpm-workspace-beside-a-go-service",
        (
            ("read", "pnpm-workspace.yaml", "packages:\n  - 'web'\n  - 'packages/*'\n"),
            (
                "read",
                "web/package.json",
                '{"name": "web", "dependencies": {"next": "^14", "react": "^18"},'
                ' "devDependencies": {"vitest": "^2"}}\n',
            ),
            ("write", "web/app/page.tsx", "import React from 'react'\n"),
            ("read", "services/ledger/go.mod", "module example.com/ledger\n\ngo 1.22\n"),
            ("edit", "services/ledger/main.go"),
            ("edit", "services/ledger/store.go"),
            ("run", "cd services/ledger && go test ./...", "ok  \texample.com/ledger\t0.1s\n"),
        ),
        unsaid=("Built with Next.js", "Built with React", "Tests are written with Vitest"),
        absent=("recipe:test",),
    ),
    # -- runtime versions that disagree -------------------------------------------------------
    Trap(
        "elixir-tool-versions-beside-ci-matrix-and-image",
        (
            ("read", ".tool-versions", "erlang 26.2.2\nelixir 1.16.1-otp-26\nnodejs 20.11.0\n"),
            (
                "read",
                ".github/workflows/ci.yml",
                "jobs:\n  test:\n    strategy:\n      matrix:\n"
                "        elixir: ['1.14', '1.15', '1.16']\n        otp: ['25', '26']\n"
                "    steps:\n      - uses: erlef/setup-beam@v1\n      - run: mix test\n",
            ),
            (
                "read",
                "Dockerfile",
                "FROM hexpm/elixir:1.15.7-erlang-25.3-alpine\nRUN mix release\n",
            ),
            (
                "read",
                "mix.exs",
                'defmodule Quarry.MixProject do\n  def project, do: [elixir: "~> 1.14"]\nend\n',
            ),
            ("edit", "lib/quarry.ex"),
            ("run", "mix test", "Finished in 0.3 seconds\n" + PASSED),
        ),
        said=(("language", "Elixir project"),),
        unsaid=("Elixir 1.15", "Elixir 1.14", "1.15.7", "Erlang 25", "OTP 25", "Node.js"),
    ),
    Trap(
        "node-nvmrc-engines-and-image-disagree",
        (
            ("read", ".nvmrc", "18\n"),
            (
                "read",
                "package.json",
                '{"name": "quarry", "engines": {"node": ">=20"}, "dependencies": {"hono": "^4"}}\n',
            ),
            ("read", "Dockerfile", "FROM node:22-slim\nCOPY . .\n"),
            ("read", "src/app.ts", "import { Hono } from 'hono'\n"),
            ("edit", "src/app.ts"),
            ("run", "npm test", "# pass 3\n# fail 0\n"),
        ),
        said=(("language", "TypeScript project"),),
        unsaid=("Node.js 18", "Node.js 22", "Node 18", "Node 22"),
    ),
    # -- two lock files, a packageManager field; a runner's configuration left behind ---------
    Trap(
        "javascript-stale-npm-lock-beside-pnpm-lock",
        (
            (
                "read",
                "package.json",
                '{"name": "quarry", "packageManager": "pnpm@9.1.0",'
                ' "scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "^2"}}\n',
            ),
            ("read", "package-lock.json", '{"name": "quarry", "lockfileVersion": 2}\n'),
            ("read", "pnpm-lock.yaml", "lockfileVersion: '9.0'\n"),
            ("edit", "src/stones.ts"),
            ("edit", "src/cut.ts"),
            ("run", "pnpm test", " Test Files  2 passed (2)\n"),
        ),
        said=(("recipe:test", "`pnpm test`"),),
        unsaid=("npm test", "npm install", "Uses npm", "yarn"),
    ),
    Trap(
        "javascript-jest-config-left-behind-after-vitest",
        (
            (
                "read",
                "package.json",
                '{"name": "quarry", "scripts": {"test": "vitest run"},'
                ' "devDependencies": {"vitest": "^2", "jest": "^29"}}\n',
            ),
            ("read", "jest.config.js", "module.exports = { testEnvironment: 'node' }\n"),
            ("write", "src/stones.test.ts", "import { it, expect } from 'vitest'\n"),
            ("edit", "src/stones.ts"),
            ("run", "npx vitest run", " Test Files  4 passed (4)\n"),
        ),
        said=(("testing", "Vitest"),),
        unsaid=("Jest", "npx jest"),
    ),
    Trap(
        "ruby-rspec-and-minitest-both-present",
        (
            (
                "read",
                "Gemfile",
                'source "https://rubygems.org"\ngem "sinatra"\ngroup :test do\n'
                '  gem "rspec"\n  gem "minitest"\nend\n',
            ),
            ("read", "spec/spec_helper.rb", "require 'rspec'\n"),
            ("read", "test/test_helper.rb", "require 'minitest/autorun'\n"),
            ("edit", "lib/quarry.rb"),
            ("run", "bundle exec rspec", "14 examples, 0 failures\n"),
        ),
        said=(("recipe:test", "`bundle exec rspec`"),),
        unsaid=("Tests are written with RSpec, Minitest", "Tests are written with Minitest"),
    ),
    Trap(
        "python-web-framework-imported-only-in-examples",
        (
            (
                "read",
                "pyproject.toml",
                '[project]\nname = "quarry"\ndependencies = ["attrs"]\n\n'
                '[project.optional-dependencies]\nexamples = ["flask", "celery"]\n',
            ),
            ("read", "examples/webapp/app.py", "from flask import Flask\nimport celery\n"),
            ("edit", "quarry/stones.py"),
            ("edit", "quarry/cut.py"),
            ("run", "pytest -q", "12 passed in 0.41s\n"),
        ),
        said=(("language", "Python project"),),
        unsaid=("Built with Flask", "Celery"),
    ),
    Trap(
        "python-root-dependency-imported-only-in-examples",
        (
            ("read", "pyproject.toml", '[project]\nname = "quarry"\ndependencies = ["flask"]\n'),
            ("read", "examples/webapp/app.py", "from flask import Flask\n"),
            ("edit", "quarry/stones.py"),
            ("edit", "quarry/cut.py"),
            ("run", "pytest -q", "12 passed in 0.41s\n"),
        ),
        said=(("language", "Python project"),),
        unsaid=("Built with Flask",),
    ),
    # -- a dependency declared for tests or development only ---------------------------------
    Trap(
        "elixir-framework-and-queue-for-tests-and-dev-only",
        (
            (
                "read",
                "mix.exs",
                "defmodule Quarry.MixProject do\n  defp deps do\n    [\n"
                '      {:plug_cowboy, "~> 2.7"},\n      {:phoenix, "~> 1.7", only: :test},\n'
                '      {:oban, "~> 2.17", only: :dev}\n    ]\n  end\nend\n',
            ),
            ("edit", "lib/quarry.ex"),
            ("run", "mix test", PASSED),
        ),
        said=(("language", "Elixir project"),),
        unsaid=("Phoenix", "Oban"),
    ),
    Trap(
        "ruby-framework-store-and-queue-of-a-development-group",
        (
            (
                "read",
                "Gemfile",
                'source "https://rubygems.org"\ngem "roda"\ngroup :development, :test do\n'
                '  gem "rails"\n  gem "sqlite3"\n  gem "sidekiq"\nend\n',
            ),
            ("edit", "lib/quarry.rb"),
            ("run", "bundle exec rake test", "5 runs, 9 assertions, 0 failures, 0 errors\n"),
        ),
        said=(("recipe:test", "`bundle exec rake test`"),),
        unsaid=("Rails", "SQLite", "Sidekiq"),
    ),
    # -- words, not code: the assistant's prose, the user's hypothetical, a subagent's report ----
    Trap(
        "go-assistant-prose-asserts-a-wrong-stack",
        (
            ("read", "go.mod", "module example.com/quarry\n\ngo 1.22\n"),
            ("say", "This is a Django app backed by PostgreSQL, so the views live in views.py."),
            ("edit", "main.go"),
            ("edit", "stones.go"),
            ("run", "go test ./...", "ok  \texample.com/quarry\t0.1s\n"),
        ),
        said=(("language", "Go project"),),
        unsaid=("Django", "PostgreSQL"),
        absent=("framework", "database"),
    ),
    Trap(
        "rust-user-hypothetical-about-a-database",
        (
            (
                "read",
                "Cargo.toml",
                '[package]\nname = "quarry"\nedition = "2021"\n\n[dependencies]\n'
                'rusqlite = "0.31"\n',
            ),
            ("read", "src/store.rs", "use rusqlite::Connection;\n"),
            ("user", "Should we move to Postgres? And maybe MongoDB for the logs?"),
            ("say", "Moving to PostgreSQL is possible, but SQLite serves this load well."),
            ("edit", "src/store.rs"),
            ("run", "cargo test", "test result: ok. 3 passed; 0 failed\n"),
        ),
        said=(("language", "Rust project"),),
        unsaid=("PostgreSQL", "MongoDB", "Postgres"),
    ),
    Trap(
        "kotlin-subagent-describes-another-repository",
        (
            ("read", "build.gradle.kts", 'plugins { kotlin("jvm") version "2.0.0" }\n'),
            (
                "agent",
                "Look at how the upstream billing repository handles retries.",
                "The upstream billing repository is a Spring Boot service on MySQL with "
                "Kafka; it retries with Resilience4j. Its tests run with `mvn verify`.",
            ),
            ("edit", "src/main/kotlin/Retry.kt"),
            ("edit", "src/main/kotlin/Billing.kt"),
            ("run", "./gradlew test", "BUILD SUCCESSFUL in 3s\n"),
        ),
        said=(("language", "Kotlin project"), ("recipe:test", "`./gradlew test`")),
        unsaid=("Spring Boot", "MySQL", "Kafka", "mvn verify", "Maven"),
        absent=("database", "framework"),
    ),
    Trap(
        "pnpm-postinstall-prints-an-npm-warning",
        (
            (
                "read",
                "package.json",
                '{"name": "quarry", "packageManager": "pnpm@9.1.0",'
                ' "scripts": {"postinstall": "node scripts/patch.js"}}\n',
            ),
            (
                "run",
                "pnpm install",
                "Packages: +212\n> quarry@ postinstall node scripts/patch.js\n"
                "npm WARN deprecated inflight@1.0.6: This module is not supported\n"
                "npm WARN config production Use `--omit=dev` instead.\nDone in 4.1s\n",
            ),
            ("edit", "src/stones.ts"),
            ("run", "pnpm test", "# pass 5\n# fail 0\n"),
        ),
        said=(("recipe:test", "`pnpm test`"),),
        unsaid=("npm install", "npm ci", "Uses npm", "--omit=dev"),
    ),
    Trap(
        "kotlin-subagent-runs-the-tests-of-another-repository",
        (
            ("read", "build.gradle.kts", 'plugins { kotlin("jvm") version "2.0.0" }\n'),
            (
                "agent-run",
                "/home/dev/billing/pom.xml",
                "<project><dependencies><dependency><groupId>org.springframework.boot</groupId>"
                "<artifactId>spring-boot-starter-web</artifactId></dependency></dependencies>"
                "</project>\n",
                "cd /home/dev/billing && mvn verify",
                "[INFO] BUILD SUCCESS\n",
            ),
            ("edit", "src/main/kotlin/Retry.kt"),
            ("run", "./gradlew test", "BUILD SUCCESSFUL in 3s\n"),
        ),
        said=(("recipe:test", "`./gradlew test`"),),
        unsaid=("Spring Boot", "mvn verify", "Maven"),
    ),
    Trap(
        "typescript-assistant-names-the-wrong-runner-and-store",
        (
            ("read", "package.json", '{"name": "quarry", "devDependencies": {"vitest": "^2"}}\n'),
            ("say", "Tests are written with Jest and the app is built with Express on MongoDB."),
            ("edit", "src/stones.ts"),
            ("run", "npx vitest run", " Test Files  2 passed (2)\n"),
        ),
        said=(("testing", "Vitest"),),
        unsaid=("Jest", "Express", "MongoDB"),
    ),
    Trap(
        "python-user-weighs-another-framework-and-queue",
        (
            ("read", "pyproject.toml", '[project]\nname = "quarry"\ndependencies = ["flask"]\n'),
            ("read", "quarry/app.py", "from flask import Flask\n"),
            ("user", "Would FastAPI be better here? Should we use Celery with Redis for the jobs?"),
            ("say", "FastAPI would give async handlers; Celery with Redis is the usual choice."),
            ("edit", "quarry/app.py"),
            ("run", "pytest -q", "3 passed in 0.1s\n"),
        ),
        said=(("framework", "Flask"),),
        unsaid=("FastAPI", "Celery", "Redis"),
    ),
    Trap(
        "python-sync-output-names-node-tools",
        (
            ("read", "pyproject.toml", '[project]\nname = "quarry"\n'),
            (
                "run",
                "uv sync",
                "Resolved 10 packages\nnpm WARN deprecated glob@7.2.3\nyarn install v1.22\n",
            ),
            ("edit", "quarry/stones.py"),
            ("run", "uv run pytest -q", "3 passed in 0.1s\n"),
        ),
        said=(("recipe:test", "`uv run pytest -q`"),),
        unsaid=("npm", "yarn"),
    ),
    Trap(
        "go-version-file-and-image-below-go-mod",
        (
            ("read", "go.mod", "module example.com/quarry\n\ngo 1.22\n"),
            ("read", "Dockerfile", "FROM golang:1.21-alpine\n"),
            ("read", ".tool-versions", "golang 1.20.5\n"),
            ("edit", "main.go"),
            ("run", "go test ./...", "ok  \texample.com/quarry\t0.1s\n"),
        ),
        said=(("language", "Go project"),),
        unsaid=("Go 1.21", "Go 1.20", "1.20.5"),
    ),
]
IDS = [t.name for t in TRAPS]


def _session(trap: Trap) -> list[MemoryCandidate]:
    """The session of `trap`: its steps are those of `test_stack_traps`, and ("say", text) the
    assistant's words, ("user", text) the user's, ("agent", prompt, report) a subagent's report,
    ("agent-run", path, text, command, output) a subagent reading a file of another repository
    and running a command there."""
    session = Session(ROOT, trap.name, T0, test_runs=True)
    session.user("Read the project, then fix the stone count and check it.")
    for kind, *args in trap.steps:
        if kind == "read":
            session.read(args[0], args[1])
        elif kind == "write":
            session.write(args[0], args[1])
        elif kind == "edit":
            session.edit_lines(args[0], "old", "new")
        elif kind == "say":
            session.say(args[0])
        elif kind == "user":
            session.user(args[0])
        elif kind == "agent-run":
            # A subagent reads a file of another repository and runs a command there.
            path, text, command, output = args
            session.add("tool_call", {"tool": "Agent", "tool_use_id": "a", "input": {}})
            read = {"tool": "Read", "tool_use_id": "r", "output": numbered(text), "is_error": False}
            session.add("tool_result", read, (path,), sidechain=True)
            ran = {"command": command, "tool_use_id": "b", "exit_code": 0, "output": output}
            session.add("test_run", {**ran, "is_error": False}, sidechain=True)
        elif kind == "agent":
            use = f"a{len(session.events)}"
            call = {"tool": "Agent", "tool_use_id": use, "input": {"prompt": args[0]}}
            session.add("tool_call", call)
            session.add("assistant_response", {"text": args[1]}, sidechain=True)
            report = {"tool": "Agent", "tool_use_id": use, "output": args[1], "is_error": False}
            session.add("tool_result", report)
        else:
            cwd = f"{ROOT}/{args[2]}" if len(args) > 2 else None
            session.run(args[0], 0, args[1], cwd=cwd)
    session.say("Done: the count is fixed and the checks pass.")
    return session.extracted()


async def session_start_text(found: list[MemoryCandidate]) -> str:
    """The text a session starts with when the memory holds `found`: its facts in the project
    section, its recipes, its pitfalls."""
    facts = [c.content for c in found if c.type is MemoryType.PROJECT_FACT]
    recipes = [
        SearchResult(
            memory_id=f"mem_{n}",
            type="recipe",
            key=c.key,
            content=c.content,
            importance=c.importance,
            recency_days=1,
            score=0.9,
            reason="",
        )
        for n, c in enumerate(found)
        if c.type is MemoryType.RECIPE
    ]
    pitfalls = [
        PitfallItem(key=c.key, content=c.content, importance=c.importance)
        for c in found
        if c.type is MemoryType.PITFALL
    ]
    backend = FakeBackend(roots=[ROOT], key_facts=facts, search_results=recipes, pitfalls=pitfalls)
    out = await hook_context.session_start(backend, project_id=ROOT, user_id=None, budget=2000)
    return out.text


@pytest.mark.parametrize("trap", TRAPS, ids=IDS)
def test_the_memory_states_what_the_session_shows_where_it_holds(trap: Trap) -> None:
    check_said(trap, _session(trap))


@pytest.mark.parametrize("trap", TRAPS, ids=IDS)
async def test_the_memory_never_states_what_the_trap_suggests(trap: Trap) -> None:
    found = _session(trap)

    check_unsaid(trap, found)
    text = await session_start_text(found)
    for word in trap.unsaid:
        assert not mentions(word, text), (word, text)


def test_the_battery_spans_the_ecosystems_the_first_lacks() -> None:
    ecosystems = {t.name.split("-")[0] for t in TRAPS}
    assert {"elixir", "erlang", "kotlin", "scala", "clojure", "haskell", "swift"} <= ecosystems
    assert {"dart", "zig", "ocaml", "nix", "bazel"} <= ecosystems
    assert len(TRAPS) >= 25
