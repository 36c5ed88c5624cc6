"""Imagined web apps of eight ecosystems for the matrix: Elixir/Phoenix, PHP/Laravel, Django,
.NET, Kotlin (Ktor, beside an Android app), Scala (http4s), Dart/Flutter and Swift (Vapor).

Each session reads the README, the root manifest and the data-access configuration, runs the
tests with their real output and edits code, and meets the traps a real project holds: a
client of a side store in the manifest, a dependency's own manifest under its build folder, a
docs site or example with another runner, a CHANGELOG naming a store the project left, a
development-only tool, a second app in the same repository.
"""

from __future__ import annotations

from tests.unit.memory.ecosystem_facts.matrix import Project

PHOENIX = Project(
    "tally",
    (
        (
            "read",
            "README.md",
            "# Tally\n\nTally is a point-of-sale web app for farmers' markets: stalls ring up "
            "sales on a phone and see the day's takings.\n\n## Setup\n\n```sh\nmix setup\n"
            "mix phx.server\n```\n",
        ),
        (
            "read",
            "mix.exs",
            "defmodule Tally.MixProject do\n  use Mix.Project\n\n  def project do\n    [\n"
            '      app: :tally,\n      version: "0.9.0",\n      elixir: "~> 1.16",\n'
            "      deps: deps()\n    ]\n  end\n\n  defp deps do\n    [\n"
            '      {:phoenix, "~> 1.7.12"},\n      {:phoenix_live_view, "~> 0.20.14"},\n'
            '      {:ecto_sql, "~> 3.11"},\n      {:ecto_sqlite3, "~> 0.15"},\n'
            "      # the old till's MySQL database, read once by the import task\n"
            '      {:myxql, "~> 0.7"},\n'
            '      {:credo, "~> 1.7", only: [:dev, :test], runtime: false},\n'
            '      {:ex_machina, "~> 2.7", only: :test},\n'
            '      {:esbuild, "~> 0.8", runtime: Mix.env() == :dev}\n    ]\n  end\nend\n',
        ),
        (
            "read",
            "config/dev.exs",
            "import Config\n\nconfig :tally, Tally.Repo,\n"
            '  database: Path.expand("../tally_dev.db", __DIR__),\n  pool_size: 5\n',
        ),
        (
            "read",
            "lib/tally/repo.ex",
            "defmodule Tally.Repo do\n"
            "  use Ecto.Repo, otp_app: :tally, adapter: Ecto.Adapters.SQLite3\nend\n",
        ),
        (
            "read",
            "lib/tally/till_import.ex",
            "defmodule Tally.TillImport do\n  def run(url) do\n"
            "    {:ok, conn} = MyXQL.start_link(url: url)\n"
            '    MyXQL.query!(conn, "SELECT * FROM sales")\n  end\nend\n',
        ),
        (
            "read",
            "deps/plug/mix.exs",
            "defmodule Plug.MixProject do\n  use Mix.Project\n\n  def project do\n"
            '    [app: :plug, version: "1.15.3", elixir: "~> 1.10",\n'
            '     description: "Compose web applications with functions", deps: deps()]\n'
            '  end\n\n  defp deps, do: [{:mime, "~> 2.0"}, {:plug_crypto, "~> 2.0"}]\nend\n',
        ),
        (
            "read",
            "CHANGELOG.md",
            "# Changelog\n\n## 0.9.0\n\n- Moved off PostgreSQL to SQLite: one file per market.\n"
            "- Dropped the Redis cache.\n",
        ),
        ("edit", "lib/tally/sales.ex"),
        ("edit", "lib/tally_web/live/sale_live.ex"),
        (
            "run",
            "mix test",
            "Compiling 3 files (.ex)\n.........\n"
            "Finished in 0.4 seconds (0.2s async, 0.2s sync)\n9 tests, 0 failures\n\n"
            "Randomized with seed 51823\n",
        ),
    ),
    stated=(
        ("what", "point-of-sale web app for farmers' markets"),
        ("language", "Elixir"),
        ("version", "1.16"),
        ("framework", "Phoenix"),
        ("database", "SQLite"),
        ("testing", "mix test"),
    ),
    traps=(
        ("database", "MySQL"),
        ("database", "PostgreSQL"),
        ("database", "Redis"),
        ("what", "Compose web applications"),
        ("version", "1.10"),
        ("testing", "ExMachina"),
        ("framework", "Credo"),
    ),
)

LARAVEL = Project(
    "stallbook",
    (
        (
            "read",
            "README.md",
            "# Stallbook\n\nStallbook books market stalls: traders reserve a pitch for a day and "
            "pay online.\n\nBuilt with Laravel 11.\n",
        ),
        (
            "read",
            "composer.json",
            '{\n  "name": "acme/stallbook",\n  "type": "project",\n'
            '  "description": "Market stall bookings",\n'
            '  "require": {\n    "php": "^8.2",\n    "laravel/framework": "^11.9",\n'
            '    "predis/predis": "^2.2"\n  },\n'
            '  "require-dev": {\n    "phpunit/phpunit": "^11.0",\n'
            '    "laravel/pint": "^1.13",\n    "mockery/mockery": "^1.6"\n  }\n}\n',
        ),
        (
            "read",
            ".env.example",
            "APP_NAME=Stallbook\nAPP_ENV=local\nDB_CONNECTION=sqlite\n# REDIS_HOST=127.0.0.1\n",
        ),
        (
            "read",
            "docs/package.json",
            '{\n  "name": "stallbook-docs",\n  "private": true,\n'
            '  "scripts": {"test": "vitest run"},\n'
            '  "devDependencies": {"vitepress": "^1.2.0", "vitest": "^1.6.0"}\n}\n',
        ),
        (
            "read",
            "docs/tests/links.test.ts",
            "import { test, expect } from 'vitest'\n\ntest('links resolve', () => {\n"
            "  expect(1).toBe(1)\n})\n",
        ),
        (
            "run",
            "npx vitest run",
            " ✓ tests/links.test.ts (1)\n Test Files  1 passed (1)\n",
            "docs",
        ),
        ("edit", "app/Models/Booking.php"),
        ("edit", "app/Http/Controllers/BookingController.php"),
        (
            "run",
            "php artisan test",
            "   PASS  Tests\\Unit\\BookingTest\n  ✓ total sums the nights\n\n"
            "  Tests:    14 passed (31 assertions)\n  Duration: 0.52s\n",
        ),
    ),
    stated=(
        ("what", "books market stalls"),
        ("language", "PHP"),
        ("version", "8.2"),
        ("framework", "Laravel"),
        ("database", "SQLite"),
        ("testing", "php artisan test"),
    ),
    traps=(
        ("testing", "Vitest"),
        ("database", "Redis"),
        ("database", "MySQL"),
        ("framework", "VitePress"),
        ("language", "TypeScript"),
    ),
)

DJANGO = Project(
    "seedbank",
    (
        (
            "read",
            "README.md",
            "# Seedbank\n\nSeedbank tracks a community seed library: who borrowed which "
            "variety and what came back.\n",
        ),
        (
            "read",
            "pyproject.toml",
            '[project]\nname = "seedbank"\nversion = "2.1.0"\nrequires-python = ">=3.12"\n'
            'dependencies = [\n  "django>=5.0",\n  "psycopg[binary]>=3.1",\n  "whitenoise",\n'
            ']\n\n[dependency-groups]\ndev = ["pytest-django>=4.8", "pytest>=8", "ruff"]\n',
        ),
        (
            "read",
            "seedbank/settings.py",
            "from pathlib import Path\n\nBASE_DIR = Path(__file__).resolve().parent.parent\n\n"
            "INSTALLED_APPS = ['django.contrib.admin', 'library']\n\nDATABASES = {\n"
            "    'default': {\n        'ENGINE': 'django.db.backends.postgresql',\n"
            "        'NAME': 'seedbank',\n    }\n}\n",
        ),
        (
            "read",
            "scripts/export_sheet.py",
            "import sqlite3\nimport pandas\n\nconn = sqlite3.connect('export.db')\n",
        ),
        (
            "read",
            "library/models.py",
            "from django.db import models\n\n\nclass Loan(models.Model):\n"
            "    variety = models.CharField(max_length=80)\n",
        ),
        ("edit", "library/models.py"),
        ("edit", "library/views.py"),
        (
            "run",
            "uv run pytest",
            "============================= test session starts ==============================\n"
            "collected 22 items\n\nlibrary/tests/test_loans.py ......................  [100%]\n\n"
            "============================== 22 passed in 1.31s ==============================\n",
        ),
    ),
    stated=(
        ("what", "tracks a community seed library"),
        ("language", "Python"),
        ("version", "3.12"),
        ("framework", "Django"),
        ("database", "PostgreSQL"),
        ("testing", "pytest"),
        ("package manager", "uv"),
    ),
    traps=(("database", "SQLite"), ("framework", "pandas"), ("framework", "Ruff")),
    unsure=("package manager",),
)

DOTNET = Project(
    "ledgerly",
    (
        (
            "read",
            "README.md",
            "# Ledgerly\n\nLedgerly is a bookkeeping API for small charities.\n",
        ),
        (
            "read",
            "src/Ledgerly.Api/Ledgerly.Api.csproj",
            '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup>\n'
            "    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n"
            "  <ItemGroup>\n"
            '    <PackageReference Include="Microsoft.EntityFrameworkCore.Sqlite" '
            'Version="8.0.4" />\n'
            '    <PackageReference Include="Npgsql" Version="8.0.2" />\n'
            "  </ItemGroup>\n</Project>\n",
        ),
        (
            "read",
            "src/Ledgerly.Api/Program.cs",
            "var builder = WebApplication.CreateBuilder(args);\n"
            "builder.Services.AddDbContext<LedgerDb>(o =>\n"
            '    o.UseSqlite(builder.Configuration.GetConnectionString("Ledger")));\n'
            "var app = builder.Build();\napp.Run();\n",
        ),
        (
            "read",
            "tests/Ledgerly.Tests/Ledgerly.Tests.csproj",
            '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n'
            "    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n"
            "  <ItemGroup>\n"
            '    <PackageReference Include="xunit" Version="2.7.0" />\n'
            '    <PackageReference Include="Testcontainers.PostgreSql" Version="3.8.0" />\n'
            "  </ItemGroup>\n</Project>\n",
        ),
        ("edit", "src/Ledgerly.Api/Ledger/Posting.cs"),
        ("edit", "tests/Ledgerly.Tests/PostingTests.cs"),
        (
            "run",
            "dotnet test",
            "  Determining projects to restore...\n  All projects are up-to-date for restore.\n"
            "Passed!  - Failed:     0, Passed:    18, Skipped:     0, Total:    18, "
            "Duration: 412 ms - Ledgerly.Tests.dll (net8.0)\n",
        ),
    ),
    stated=(
        ("what", "bookkeeping API for small charities"),
        ("language", "C#"),
        ("version", "net8.0"),
        ("framework", "ASP.NET Core"),
        ("database", "SQLite"),
        ("testing", "dotnet test"),
    ),
    traps=(("database", "PostgreSQL"), ("language", "F#")),
    unsure=("framework", "version"),
)

KTOR = Project(
    "harvest",
    (
        (
            "read",
            "README.md",
            "# Harvest\n\nHarvest is the order service of a vegetable box scheme, with its "
            "Android app for drivers in `android/`.\n",
        ),
        (
            "read",
            "build.gradle.kts",
            "plugins {\n"
            '    kotlin("jvm") version "2.0.0"\n    id("io.ktor.plugin") version "2.3.11"\n}\n\n'
            "kotlin { jvmToolchain(21) }\n\ndependencies {\n"
            '    implementation("io.ktor:ktor-server-core:2.3.11")\n'
            '    implementation("io.ktor:ktor-server-netty:2.3.11")\n'
            '    implementation("org.jetbrains.exposed:exposed-jdbc:0.50.1")\n'
            '    implementation("org.postgresql:postgresql:42.7.3")\n'
            '    testImplementation("io.kotest:kotest-runner-junit5:5.9.0")\n}\n',
        ),
        (
            "read",
            "android/app/build.gradle.kts",
            'plugins {\n    id("com.android.application")\n'
            '    kotlin("android")\n}\n\nandroid { namespace = "farm.harvest.driver" }\n\n'
            "dependencies {\n"
            '    implementation("androidx.room:room-runtime:2.6.1")\n'
            '    implementation("androidx.compose.ui:ui:1.6.7")\n}\n',
        ),
        (
            "read",
            "src/main/kotlin/farm/harvest/Application.kt",
            "package farm.harvest\n\nimport io.ktor.server.engine.*\nimport io.ktor.server.netty.*\n"
            "\nfun main() {\n    embeddedServer(Netty, port = 8080) { module() }.start(wait = true)\n"
            "}\n",
        ),
        ("edit", "src/main/kotlin/farm/harvest/orders/Orders.kt"),
        ("edit", "src/test/kotlin/farm/harvest/orders/OrdersTest.kt"),
        (
            "run",
            "./gradlew test",
            "> Task :compileKotlin\n> Task :test\n\nBUILD SUCCESSFUL in 14s\n"
            "5 actionable tasks: 3 executed, 2 up-to-date\n",
        ),
    ),
    stated=(
        ("what", "order service of a vegetable box scheme"),
        ("language", "Kotlin"),
        ("version", "21"),
        ("framework", "Ktor"),
        ("database", "PostgreSQL"),
        ("testing", "gradlew test"),
    ),
    traps=(
        ("database", "SQLite"),
        ("database", "Room"),
        ("framework", "Android"),
        ("framework", "Jetpack Compose"),
        ("language", "Java project"),
    ),
    unsure=("database",),
)

SCALA = Project(
    "ferry",
    (
        (
            "read",
            "README.md",
            "# Ferry\n\nFerry schedules crossings and sells tickets for a small island ferry "
            "line.\n",
        ),
        (
            "read",
            "build.sbt",
            'ThisBuild / scalaVersion := "3.4.1"\nThisBuild / organization := "line.ferry"\n\n'
            'lazy val root = (project in file("."))\n  .settings(\n'
            '    name := "ferry",\n    libraryDependencies ++= Seq(\n'
            '      "org.http4s" %% "http4s-ember-server" % "0.23.27",\n'
            '      "org.tpolecat" %% "doobie-postgres" % "1.0.0-RC5",\n'
            '      "org.scalameta" %% "munit" % "1.0.0" % Test\n    )\n  )\n',
        ),
        (
            "read",
            "project/plugins.sbt",
            'addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.2")\n'
            'addSbtPlugin("io.spray" % "sbt-revolver" % "0.10.0")\n',
        ),
        ("read", "project/build.properties", "sbt.version=1.10.0\n"),
        ("edit", "src/main/scala/ferry/Tickets.scala"),
        ("edit", "src/test/scala/ferry/TicketsSuite.scala"),
        (
            "run",
            "sbt test",
            "[info] welcome to sbt 1.10.0 (Eclipse Adoptium Java 21.0.3)\n"
            "[info] ferry.TicketsSuite:\n[info]   + total includes the car deck 0.012s\n"
            "[info] Passed: Total 11, Failed 0, Errors 0, Passed 11\n"
            "[success] Total time: 6 s\n",
        ),
    ),
    stated=(
        ("what", "schedules crossings and sells tickets"),
        ("language", "Scala"),
        ("version", "3.4.1"),
        ("framework", "http4s"),
        ("database", "PostgreSQL"),
        ("testing", "sbt test"),
    ),
    traps=(("language", "Java"), ("framework", "scalafmt"), ("version", "1.10.0")),
    unsure=("database",),
)

FLUTTER = Project(
    "plotter",
    (
        (
            "read",
            "README.md",
            "# Plotter\n\nPlotter is an allotment planner: draw your beds, plan rotations, "
            "log harvests.\n",
        ),
        (
            "read",
            "pubspec.yaml",
            "name: plotter\ndescription: Plan allotment beds and crop rotations.\n"
            "publish_to: none\nversion: 1.4.0+12\n\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\n"
            "  flutter: '>=3.19.0'\n\ndependencies:\n  flutter:\n    sdk: flutter\n"
            "  provider: ^6.1.2\n  sqflite: ^2.3.3\n\ndev_dependencies:\n  flutter_test:\n"
            "    sdk: flutter\n  mocktail: ^1.0.3\n  flutter_lints: ^4.0.0\n",
        ),
        (
            "read",
            "example/pubspec.yaml",
            "name: plotter_example\ndescription: Demonstrates drawing beds with the plotter "
            "widgets.\nenvironment:\n  sdk: '>=2.19.0 <3.0.0'\n",
        ),
        ("edit", "lib/beds/bed_painter.dart"),
        ("edit", "test/beds/bed_painter_test.dart"),
        (
            "run",
            "flutter test",
            "00:02 +0: loading /home/dev/plotter/test/beds/bed_painter_test.dart\n"
            "00:04 +12: All tests passed!\n",
        ),
    ),
    stated=(
        ("what", "allotment planner"),
        ("language", "Dart"),
        ("version", "3.3.0"),
        ("framework", "Flutter"),
        ("database", "SQLite"),
        ("testing", "flutter test"),
    ),
    traps=(
        ("what", "Demonstrates drawing beds"),
        ("version", "2.19.0"),
        ("testing", "mocktail"),
    ),
    unsure=("database",),
)

VAPOR = Project(
    "moorings",
    (
        (
            "read",
            "README.md",
            "# Moorings\n\nMoorings rents harbour berths by the night and sends the harbour "
            "master a daily list.\n",
        ),
        (
            "read",
            "Package.swift",
            "// swift-tools-version:5.9\nimport PackageDescription\n\n"
            'let package = Package(\n    name: "Moorings",\n    platforms: [.macOS(.v13)],\n'
            "    dependencies: [\n"
            '        .package(url: "https://github.com/vapor/vapor.git", from: "4.99.0"),\n'
            '        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", '
            'from: "4.6.0"),\n    ],\n    targets: [\n'
            '        .executableTarget(name: "App", dependencies: [.product(name: "Vapor", '
            'package: "vapor")]),\n'
            '        .testTarget(name: "AppTests", dependencies: ["App"]),\n    ]\n)\n',
        ),
        (
            "read",
            ".build/checkouts/vapor/Package.swift",
            "// swift-tools-version:5.7\nimport PackageDescription\n\n"
            'let package = Package(\n    name: "vapor",\n    dependencies: [\n'
            '        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),\n'
            "    ]\n)\n",
        ),
        (
            "read",
            ".build/checkouts/vapor/README.md",
            "# Vapor\n\nVapor is an HTTP web framework for Swift.\n",
        ),
        ("edit", "Sources/App/Berths/BerthController.swift"),
        ("edit", "Tests/AppTests/BerthTests.swift"),
        (
            "run",
            "swift test",
            "Building for debugging...\nBuild complete! (3.21s)\n"
            "Test Suite 'All tests' passed at 2026-06-01 09:03:12.281.\n"
            "\t Executed 12 tests, with 0 failures (0 unexpected) in 0.412 (0.415) seconds\n",
        ),
    ),
    stated=(
        ("what", "rents harbour berths by the night"),
        ("language", "Swift"),
        ("version", "5.9"),
        ("framework", "Vapor"),
        ("database", "SQLite"),
        ("testing", "swift test"),
    ),
    traps=(("what", "HTTP web framework"), ("version", "5.7")),
    unsure=("database",),
)

WEB_PROJECTS = (PHOENIX, LARAVEL, DJANGO, DOTNET, KTOR, SCALA, FLUTTER, VAPOR)
