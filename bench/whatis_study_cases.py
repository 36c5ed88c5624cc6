# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""The "what is this project" study's cases: made-up sessions in many ecosystems and all three
hosts (Claude Code, Codex of both eras, Gemini CLI) where what the project is can be read from
different evidence: the README's opening paragraph read by a tool, a manifest's description
field, the user's own words, the assistant's summary after exploring, an instruction file's
overview; the stack from the manifests and files touched. Each case says what a senior engineer
states of the project (its name, what it does, its stack where shown) and what must never be
said. The traps are sessions where the right answer is to say less: a vendored or sub-package
README, a template README left unchanged, a user speaking of another project or a client's
app, a description the code contradicts, a docs site inside the repository, an assistant's
guess, a question. Every case, its facts and its `never` patterns included, was written before
any rule ran on it (`bench/whatis_study.py` runs them)."""

from __future__ import annotations

from dataclasses import dataclass

from bench.facts_study import Expected, Never
from bench.facts_study_session_cases import JUDGED, fact, never
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, one_session

#: The kinds of evidence a case shows what the project is by, in the order the study prints.
GROUPS = ("readme", "manifest", "user", "assistant", "instructions", "doc", "trap")

__all__ = ["CASES", "GROUPS", "JUDGED", "Case", "fact", "never"]


@dataclass(frozen=True)
class Case:
    """One made-up project: the evidence group, its sessions, what to state, what never."""

    name: str
    group: str
    ecosystem: str
    sessions: tuple[Session, ...]
    facts: tuple[Expected, ...]
    never: tuple[Never, ...] = ()


# --- the README's opening paragraph -------------------------------------------------------

README_GO = Case(
    "readme-go-proxy",
    "readme",
    "Go (Claude Code)",
    one_session(
        "/home/dara/src/tollgate",
        Ask("Add a per-route burst setting to the limiter config."),
        Read(
            "README.md",
            "# tollgate\n\n[![CI](https://github.com/dara/tollgate/actions/workflows/ci.yml/badge.svg)](https://github.com/dara/tollgate/actions)\n\ntollgate is a rate-limiting reverse proxy for HTTP APIs. It sits in front of your services and enforces per-client quotas stored in Redis.\n\n## Install\n\n```\ngo install github.com/dara/tollgate/cmd/tollgate@latest\n```\n",
        ),
        Read(
            "go.mod",
            "module github.com/dara/tollgate\n\ngo 1.23\n\nrequire (\n\tgithub.com/redis/go-redis/v9 v9.6.1\n\tgopkg.in/yaml.v3 v3.0.1\n)\n",
        ),
        Read(
            "internal/limiter/config.go",
            'package limiter\n\ntype Route struct {\n\tPath  string `yaml:"path"`\n\tRate  int    `yaml:"rate"`\n}\n',
        ),
        Edit(
            "internal/limiter/config.go",
            '\tRate  int    `yaml:"rate"`\n',
            '\tRate  int    `yaml:"rate"`\n\tBurst int    `yaml:"burst"`\n',
        ),
        Run("go test ./...", "ok  \tgithub.com/dara/tollgate/internal/limiter\t0.211s\n"),
        Say("Routes now take a `burst` setting; tests pass."),
    ),
    (
        fact("tollgate is a rate-limiting reverse proxy", r"tollgate", r"rate.limit|reverse proxy"),
        fact("... in Go", r"rate.limit|reverse proxy", r"\bGo\b"),
    ),
)

README_ELIXIR = Case(
    "readme-elixir-phoenix",
    "readme",
    "Elixir (Codex)",
    one_session(
        "/home/ines/code/rota",
        Ask("The shift list page crashes when a volunteer has no phone number. Fix it."),
        Read(
            "README.md",
            "# Rota\n\nRota is a Phoenix LiveView app for scheduling volunteer shifts at food banks: coordinators publish shifts and volunteers claim them from their phones.\n\n## Development\n\n    mix setup\n    mix phx.server\n",
        ),
        Read(
            "mix.exs",
            'defmodule Rota.MixProject do\n  use Mix.Project\n\n  def project do\n    [\n      app: :rota,\n      version: "0.3.0",\n      elixir: "~> 1.17",\n      deps: deps()\n    ]\n  end\n\n  defp deps do\n    [\n      {:phoenix, "~> 1.7.14"},\n      {:phoenix_live_view, "~> 1.0"},\n      {:ecto_sql, "~> 3.12"},\n      {:postgrex, ">= 0.0.0"}\n    ]\n  end\nend\n',
        ),
        Read(
            "lib/rota_web/live/shift_live/index.ex",
            'defmodule RotaWeb.ShiftLive.Index do\n  use RotaWeb, :live_view\n\n  def render(assigns) do\n    ~H"""\n    <li :for={v <- @volunteers}>{v.name} {String.slice(v.phone, 0, 4)}</li>\n    """\n  end\nend\n',
        ),
        Edit(
            "lib/rota_web/live/shift_live/index.ex",
            "{String.slice(v.phone, 0, 4)}",
            '{String.slice(v.phone || "", 0, 4)}',
        ),
        Run(
            "mix test",
            "..........\nFinished in 0.4 seconds (0.1s async, 0.3s sync)\n10 tests, 0 failures\n",
        ),
        Say("Fixed: a volunteer without a phone number now renders an empty prefix."),
        host="codex",
    ),
    (
        fact("Rota schedules volunteer shifts", r"\brota\b", r"shift"),
        fact("... a Phoenix (Elixir) app", r"shift", r"phoenix|elixir"),
    ),
)

README_DOTNET = Case(
    "readme-dotnet-api",
    "readme",
    "C# (Gemini CLI)",
    one_session(
        "/home/sam/repos/budgetly",
        Ask("Add a GET endpoint that returns the monthly totals per category."),
        Read(
            "README.md",
            "Budgetly\n========\n\nBudgetly is an ASP.NET Core web API for household budgets: it imports bank statements and groups spending by category.\n\nRequirements\n------------\n\n- .NET 8 SDK\n",
        ),
        Read(
            "src/Budgetly.Api/Budgetly.Api.csproj",
            '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n  </PropertyGroup>\n</Project>\n',
        ),
        Read(
            "src/Budgetly.Api/Program.cs",
            'var builder = WebApplication.CreateBuilder(args);\nvar app = builder.Build();\napp.MapGet("/categories", (BudgetDb db) => db.Categories.ToList());\napp.Run();\n',
        ),
        Edit(
            "src/Budgetly.Api/Program.cs",
            "app.Run();",
            'app.MapGet("/totals/{month}", (string month, BudgetDb db) => db.TotalsFor(month));\napp.Run();',
        ),
        Run(
            "dotnet test", "Passed!  - Failed:     0, Passed:    18, Skipped:     0, Total:    18\n"
        ),
        host="gemini",
    ),
    (
        fact("Budgetly is a web API for household budgets", r"budgetly", r"budget"),
        fact("... ASP.NET Core / C#", r"budget", r"asp\.net|\.net|c#"),
    ),
)

README_SWIFT_LONG_INTRO = Case(
    "readme-swift-badges",
    "readme",
    "Swift (Codex, shell era)",
    one_session(
        "/Users/kai/dev/Shelf",
        Ask("Make the reading-progress bar respect Reduce Motion."),
        Read(
            "README.md",
            '<p align="center"><img src="docs/logo.png" width="120"></p>\n\n# Shelf\n\n> A calm place for your books.\n\nShelf is an iOS app that tracks the books you are reading and syncs your highlights through iCloud. It is written in Swift with SwiftUI and SwiftData.\n\n## Building\n\nOpen `Shelf.xcodeproj` in Xcode 16.\n',
        ),
        Read(
            "Shelf/Views/ProgressBar.swift",
            "import SwiftUI\n\nstruct ProgressBar: View {\n    var value: Double\n    var body: some View {\n        Capsule().frame(width: 200 * value).animation(.spring, value: value)\n    }\n}\n",
        ),
        Edit(
            "Shelf/Views/ProgressBar.swift",
            "        Capsule().frame(width: 200 * value).animation(.spring, value: value)",
            "        Capsule().frame(width: 200 * value).animation(reduceMotion ? nil : .spring, value: value)",
        ),
        Say("The bar no longer animates when Reduce Motion is on."),
        host="codex-shell",
    ),
    (
        fact("Shelf is an iOS app tracking books", r"shelf", r"books?|reading"),
        fact("... Swift / SwiftUI", r"books?|reading", r"swift"),
    ),
)

# --- a manifest's description ---------------------------------------------------------------

MANIFEST_CARGO = Case(
    "manifest-cargo",
    "manifest",
    "Rust (Gemini CLI)",
    one_session(
        "/home/olu/src/snapkeep",
        Ask("Prune should keep the newest snapshot even when it is older than --keep-days."),
        Read(
            "Cargo.toml",
            '[package]\nname = "snapkeep"\nversion = "0.9.2"\nedition = "2021"\ndescription = "Incremental backup tool that rotates ZFS snapshots to a remote pool"\nlicense = "MIT"\n\n[dependencies]\nclap = { version = "4", features = ["derive"] }\nanyhow = "1"\n',
        ),
        Read(
            "src/prune.rs",
            "pub fn prune(snaps: &mut Vec<Snapshot>, keep_days: u32) {\n    snaps.retain(|s| s.age_days() <= keep_days);\n}\n",
        ),
        Edit(
            "src/prune.rs",
            "    snaps.retain(|s| s.age_days() <= keep_days);",
            "    let newest = snaps.iter().map(|s| s.created).max();\n    snaps.retain(|s| s.age_days() <= keep_days || Some(s.created) == newest);",
        ),
        Run("cargo test", "running 12 tests\n............\ntest result: ok. 12 passed; 0 failed\n"),
        host="gemini",
    ),
    (
        fact("snapkeep is a ZFS snapshot backup tool", r"snapkeep", r"zfs|snapshot|backup"),
        fact("... in Rust", r"zfs|snapshot|backup", r"\bRust\b"),
    ),
)

MANIFEST_PYPROJECT = Case(
    "manifest-pyproject",
    "manifest",
    "Python (Codex, shell era)",
    one_session(
        "/home/mia/work/busline",
        Ask("The parser drops the last stop of each route. Find out why and fix it."),
        Read(
            "pyproject.toml",
            '[project]\nname = "busline"\nversion = "1.4.0"\ndescription = "Scrape municipal bus timetables and publish them as GTFS feeds"\nrequires-python = ">=3.11"\ndependencies = ["httpx>=0.27", "selectolax>=0.3"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        ),
        Read(
            "busline/parse.py",
            "def stops(rows):\n    return [row.text() for row in rows[:-1]]\n",
        ),
        Edit("busline/parse.py", "rows[:-1]", "rows"),
        Run("python -m pytest -q", "........\n8 passed in 0.31s\n"),
        Say("The slice `rows[:-1]` dropped the last stop; it now keeps every row."),
        host="codex-shell",
    ),
    (
        fact("busline scrapes bus timetables into GTFS", r"busline", r"timetable|gtfs"),
        fact("... in Python", r"timetable|gtfs", r"python"),
    ),
)

MANIFEST_MIX = Case(
    "manifest-mix-description",
    "manifest",
    "Elixir (Claude Code)",
    one_session(
        "/home/rafa/src/mollie_ex",
        Ask("Refunds return a 422 now; handle the error body."),
        Read(
            "mix.exs",
            'defmodule MollieEx.MixProject do\n  use Mix.Project\n\n  def project do\n    [\n      app: :mollie_ex,\n      version: "0.6.1",\n      elixir: "~> 1.16",\n      description: "Elixir client for the Mollie payments API",\n      package: package(),\n      deps: deps()\n    ]\n  end\n\n  defp deps do\n    [{:req, "~> 0.5"}, {:jason, "~> 1.4"}]\n  end\nend\n',
        ),
        Read(
            "lib/mollie_ex/refunds.ex",
            'defmodule MollieEx.Refunds do\n  def create(client, payment_id, params) do\n    Req.post(client, url: "/payments/#{payment_id}/refunds", json: params)\n  end\nend\n',
        ),
        Edit(
            "lib/mollie_ex/refunds.ex",
            '    Req.post(client, url: "/payments/#{payment_id}/refunds", json: params)',
            '    case Req.post(client, url: "/payments/#{payment_id}/refunds", json: params) do\n      {:ok, %{status: 422, body: body}} -> {:error, body}\n      other -> other\n    end',
        ),
        Run("mix test", "...\nFinished in 0.1 seconds\n3 tests, 0 failures\n"),
    ),
    (
        fact("mollie_ex is a client for the Mollie payments API", r"mollie", r"client|payments"),
        fact("... in Elixir", r"payments|client", r"elixir"),
    ),
)

MANIFEST_GEMSPEC = Case(
    "manifest-gemspec",
    "manifest",
    "Ruby (Codex)",
    one_session(
        "/home/jo/gems/invoicer",
        Ask("Totals are off by a cent for 3-way splits. Round half to even."),
        Read(
            "invoicer.gemspec",
            'Gem::Specification.new do |spec|\n  spec.name          = "invoicer"\n  spec.version       = "2.1.0"\n  spec.summary       = "Render Markdown invoices to PDF"\n  spec.description   = "Invoicer turns Markdown invoice templates into PDFs with line totals and VAT."\n  spec.files         = Dir["lib/**/*.rb"]\n  spec.add_dependency "prawn", "~> 2.5"\nend\n',
        ),
        Read(
            "lib/invoicer/money.rb",
            "module Invoicer\n  module Money\n    def self.split(cents, ways)\n      (cents.to_f / ways).round\n    end\n  end\nend\n",
        ),
        Edit(
            "lib/invoicer/money.rb",
            "      (cents.to_f / ways).round",
            "      (cents.to_r / ways).round(half: :even)",
        ),
        Run(
            "bundle exec rspec", "..........\n\nFinished in 0.05 seconds\n10 examples, 0 failures\n"
        ),
        host="codex",
    ),
    (
        fact("invoicer renders Markdown invoices to PDF", r"invoicer", r"invoice"),
        fact("... a Ruby gem", r"invoice", r"ruby|\bgem\b"),
    ),
)

MANIFEST_POM = Case(
    "manifest-pom",
    "manifest",
    "Java (Gemini CLI)",
    one_session(
        "/home/eva/projects/cardhouse",
        Ask("Card numbers must be unique per branch, not globally. Change the constraint."),
        Read(
            "pom.xml",
            '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <parent>\n    <groupId>org.springframework.boot</groupId>\n    <artifactId>spring-boot-starter-parent</artifactId>\n    <version>3.3.2</version>\n  </parent>\n  <groupId>org.citylib</groupId>\n  <artifactId>cardhouse</artifactId>\n  <version>1.2.0</version>\n  <name>cardhouse</name>\n  <description>Spring Boot service that issues and renews library cards for the city libraries</description>\n  <dependencies>\n    <dependency>\n      <groupId>org.springframework.boot</groupId>\n      <artifactId>spring-boot-starter-data-jpa</artifactId>\n    </dependency>\n  </dependencies>\n</project>\n',
        ),
        Read(
            "src/main/java/org/citylib/cardhouse/Card.java",
            "package org.citylib.cardhouse;\n\n@Entity\npublic class Card {\n    @Column(unique = true)\n    private String number;\n    private String branch;\n}\n",
        ),
        Edit(
            "src/main/java/org/citylib/cardhouse/Card.java",
            "@Entity\npublic class Card {\n    @Column(unique = true)\n",
            '@Entity\n@Table(uniqueConstraints = @UniqueConstraint(columnNames = {"number", "branch"}))\npublic class Card {\n    @Column\n',
        ),
        Run(
            "./mvnw test",
            "[INFO] Tests run: 14, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n",
        ),
        host="gemini",
    ),
    (
        fact("cardhouse issues library cards", r"cardhouse", r"library cards?"),
        fact("... Spring Boot / Java", r"library cards?", r"spring|java"),
    ),
)

MANIFEST_COMPOSER = Case(
    "manifest-composer",
    "manifest",
    "PHP (Claude Code)",
    one_session(
        "/var/www/packages/audit-trail",
        Ask("Skip logging when only updated_at changed."),
        Read(
            "composer.json",
            '{\n    "name": "northwind/audit-trail",\n    "description": "Laravel package that records an audit trail of Eloquent model changes",\n    "type": "library",\n    "require": {\n        "php": "^8.2",\n        "illuminate/database": "^11.0"\n    },\n    "autoload": {"psr-4": {"Northwind\\\\AuditTrail\\\\": "src/"}}\n}\n',
        ),
        Read(
            "src/Observers/AuditObserver.php",
            "<?php\n\nnamespace Northwind\\AuditTrail\\Observers;\n\nclass AuditObserver\n{\n    public function updated($model): void\n    {\n        $changes = $model->getChanges();\n        AuditEntry::record($model, $changes);\n    }\n}\n",
        ),
        Edit(
            "src/Observers/AuditObserver.php",
            "        $changes = $model->getChanges();\n",
            "        $changes = array_diff_key($model->getChanges(), ['updated_at' => true]);\n        if ($changes === []) {\n            return;\n        }\n",
        ),
        Run(
            "vendor/bin/phpunit",
            "PHPUnit 11.2.8\n\n.......                                                             7 / 7 (100%)\n\nOK (7 tests, 15 assertions)\n",
        ),
    ),
    (
        fact("audit-trail records Eloquent model changes", r"audit", r"eloquent|laravel"),
        fact("... a PHP package", r"audit", r"\bPHP\b|laravel"),
    ),
)

MANIFEST_CABAL = Case(
    "manifest-cabal",
    "manifest",
    "Haskell (Codex)",
    one_session(
        "/home/tomas/hs/sqlkit",
        Ask("Add a `limit` combinator to the query builder."),
        Read(
            "sqlkit.cabal",
            "cabal-version:      3.0\nname:               sqlkit\nversion:            0.2.0.0\nsynopsis:           Type-safe SQL query builder for SQLite\nlicense:            BSD-3-Clause\nbuild-type:         Simple\n\nlibrary\n    exposed-modules:  SqlKit.Query\n    build-depends:    base ^>=4.18, text, sqlite-simple\n    hs-source-dirs:   src\n    default-language: GHC2021\n",
        ),
        Read(
            "src/SqlKit/Query.hs",
            "module SqlKit.Query where\n\ndata Query a = Query { from :: Text, wheres :: [Text] }\n",
        ),
        Edit(
            "src/SqlKit/Query.hs",
            "data Query a = Query { from :: Text, wheres :: [Text] }",
            "data Query a = Query { from :: Text, wheres :: [Text], lim :: Maybe Int }\n\nlimit :: Int -> Query a -> Query a\nlimit n q = q { lim = Just n }",
        ),
        Run(
            "cabal test",
            "Test suite sqlkit-test: RUNNING...\nTest suite sqlkit-test: PASS\n1 of 1 test suites (1 of 1 test cases) passed.\n",
        ),
        host="codex",
    ),
    (
        fact("sqlkit is a type-safe SQL query builder", r"sqlkit", r"query builder|sql"),
        fact("... in Haskell", r"query builder", r"haskell"),
    ),
)

MANIFEST_PACKAGE_JSON = Case(
    "manifest-package-json",
    "manifest",
    "TypeScript (Claude Code)",
    one_session(
        "/Users/li/code/quiet-tabs",
        Ask("Autoplay is still allowed on embedded players. Block it there too."),
        Read(
            "package.json",
            '{\n  "name": "quiet-tabs",\n  "version": "0.8.0",\n  "description": "Browser extension that stops videos from autoplaying",\n  "type": "module",\n  "scripts": {"build": "vite build", "test": "vitest run"},\n  "devDependencies": {"typescript": "^5.5.4", "vite": "^5.4.0", "vitest": "^2.0.5"}\n}\n',
        ),
        Read(
            "src/content.ts",
            'for (const video of document.querySelectorAll("video")) {\n  video.autoplay = false;\n}\n',
        ),
        Edit(
            "src/content.ts",
            'document.querySelectorAll("video")',
            'document.querySelectorAll("video, iframe video")',
        ),
        Run(
            "npm test",
            "\n RUN  v2.0.5 /Users/li/code/quiet-tabs\n\n ✓ src/content.test.ts (4 tests) 12ms\n\n Test Files  1 passed (1)\n      Tests  4 passed (4)\n",
        ),
    ),
    (
        fact("quiet-tabs stops videos autoplaying", r"quiet.tabs", r"autoplay"),
        fact("... a TypeScript browser extension", r"autoplay", r"typescript"),
    ),
)

# --- the user's own words -------------------------------------------------------------------

USER_CLI_RUST = Case(
    "user-building-cli",
    "user",
    "Rust (Claude Code)",
    one_session(
        "/home/noor/src/highlit",
        Ask(
            "I'm building a CLI that converts Kindle highlights into Markdown notes. Add a --since flag that skips highlights older than a date."
        ),
        Read(
            "Cargo.toml",
            '[package]\nname = "highlit"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\nclap = { version = "4", features = ["derive"] }\nchrono = "0.4"\n',
        ),
        Read(
            "src/main.rs",
            "#[derive(Parser)]\nstruct Args {\n    input: PathBuf,\n}\n",
        ),
        Edit(
            "src/main.rs",
            "    input: PathBuf,\n",
            "    input: PathBuf,\n    #[arg(long)]\n    since: Option<NaiveDate>,\n",
        ),
        Run(
            "cargo build",
            "   Compiling highlit v0.2.0 (/home/noor/src/highlit)\n    Finished `dev` profile target(s) in 4.10s\n",
        ),
        Say("Added `--since YYYY-MM-DD`; highlights before it are skipped."),
    ),
    (
        fact(
            "a CLI converting Kindle highlights to Markdown",
            r"kindle|highlights",
            r"\bCLI\b|markdown",
        ),
        fact("... in Rust", r"kindle|highlights", r"\bRust\b", unsure=True),
    ),
)

USER_BILLING_SERVICE = Case(
    "user-billing-service",
    "user",
    "Python (Gemini CLI)",
    one_session(
        "/srv/src/billing",
        Ask(
            "this repo is our billing service. It issues invoices to Stripe customers at the end of each month. The proration for mid-month upgrades is wrong; look at it."
        ),
        Read(
            "app/proration.py",
            "from decimal import Decimal\n\n\ndef prorate(amount: Decimal, days_used: int, days_in_month: int) -> Decimal:\n    return amount * days_used / 30\n",
        ),
        Edit("app/proration.py", "/ 30", "/ days_in_month"),
        Read(
            "app/main.py",
            'from fastapi import FastAPI\n\napp = FastAPI(title="billing")\n',
        ),
        Run("pytest -q", "......\n6 passed in 0.42s\n"),
        Say("Proration divided by 30 instead of the month's own length; fixed."),
        host="gemini",
    ),
    (fact("the billing service", r"billing service"),),
)

USER_FLUTTER_APP = Case(
    "user-flutter-app",
    "user",
    "Dart (Codex)",
    one_session(
        "/Users/ana/dev/cragbook",
        Ask(
            "We're building a Flutter app for logging climbing sessions. The grade picker should remember the last grade used."
        ),
        Read(
            "pubspec.yaml",
            "name: cragbook\ndescription: A new Flutter project.\nversion: 0.1.0+1\n\nenvironment:\n  sdk: '>=3.4.0 <4.0.0'\n\ndependencies:\n  flutter:\n    sdk: flutter\n  shared_preferences: ^2.3.0\n",
        ),
        Read(
            "lib/widgets/grade_picker.dart",
            "class GradePicker extends StatefulWidget {\n  const GradePicker({super.key});\n}\n",
        ),
        Edit(
            "lib/widgets/grade_picker.dart",
            "class GradePicker extends StatefulWidget {",
            "/// Remembers the last grade in shared preferences.\nclass GradePicker extends StatefulWidget {",
        ),
        Run("flutter test", "00:02 +5: All tests passed!\n"),
        host="codex",
    ),
    (fact("a Flutter app for logging climbing sessions", r"climbing", r"flutter"),),
    (never(r"A new Flutter project", "the template's placeholder description says nothing"),),
)

USER_NAMED_PROJECT = Case(
    "user-names-project",
    "user",
    "Go (Claude Code)",
    one_session(
        "/home/kim/code/harbor",
        Ask(
            "since harbor is a self-hosted uptime monitor that people deploy on their own boxes, the default check interval must not hammer small sites. Raise it to 60s."
        ),
        Read(
            "internal/check/defaults.go",
            "package check\n\nconst DefaultInterval = 10 * time.Second\n",
        ),
        Edit("internal/check/defaults.go", "10 * time.Second", "60 * time.Second"),
        Run("go test ./internal/check/", "ok  \tgithub.com/kim/harbor/internal/check\t0.09s\n"),
    ),
    (fact("harbor is a self-hosted uptime monitor", r"harbor", r"uptime monitor"),),
)

# --- the assistant's summary after exploring -------------------------------------------------

ASSISTANT_NAMED = Case(
    "assistant-named-summary",
    "assistant",
    "Kotlin (Claude Code)",
    one_session(
        "/home/pat/src/quarry",
        Ask("Have a look around the repo and tell me what it is before we start."),
        Read(
            "build.gradle.kts",
            'plugins {\n    kotlin("jvm") version "2.0.20"\n    `java-library`\n}\n\ndependencies {\n    implementation("com.fasterxml.jackson.dataformat:jackson-dataformat-yaml:2.17.2")\n    testImplementation(kotlin("test"))\n}\n',
        ),
        Read(
            "src/main/kotlin/quarry/SpecParser.kt",
            "package quarry\n\nclass SpecParser {\n    fun parse(yaml: String): OpenApiSpec = TODO()\n}\n",
        ),
        Run("ls src/main/kotlin/quarry", "SpecParser.kt\nModelGenerator.kt\nSchema.kt\n"),
        Say(
            "Quarry is a Kotlin library that parses OpenAPI 3.1 specs and generates typed data classes from their schemas. `SpecParser` reads the YAML, `ModelGenerator` writes the classes. Tests use kotlin.test."
        ),
        Ask("Good. Make the generator skip deprecated schemas."),
        Edit(
            "src/main/kotlin/quarry/ModelGenerator.kt",
            "for (schema in spec.schemas) {",
            "for (schema in spec.schemas.filterNot { it.deprecated }) {",
        ),
        Run("./gradlew test", "BUILD SUCCESSFUL in 8s\n"),
    ),
    (
        fact("Quarry parses OpenAPI specs into typed classes", r"quarry", r"openapi"),
        fact("... a Kotlin library", r"openapi", r"kotlin"),
    ),
)

ASSISTANT_THIS_PROJECT = Case(
    "assistant-this-project",
    "assistant",
    "Python (Codex)",
    one_session(
        "/home/ben/sites/courtside",
        Ask("What does this codebase do? Then add a waitlist when a court is full."),
        Read(
            "manage.py",
            '#!/usr/bin/env python\nimport os\nimport sys\n\nif __name__ == "__main__":\n    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "courtside.settings")\n',
        ),
        Read(
            "bookings/models.py",
            "from django.db import models\n\n\nclass Booking(models.Model):\n    court = models.ForeignKey('Court', on_delete=models.CASCADE)\n    starts_at = models.DateTimeField()\n",
        ),
        Say(
            "This project is a Django site for booking squash courts at a club: members reserve 45-minute slots, and `bookings/` holds the models and views."
        ),
        Edit(
            "bookings/models.py",
            "    starts_at = models.DateTimeField()\n",
            "    starts_at = models.DateTimeField()\n    waitlisted = models.BooleanField(default=False)\n",
        ),
        Run("python manage.py test", "Ran 9 tests in 0.210s\n\nOK\n"),
        host="codex",
    ),
    (fact("a Django site for booking squash courts", r"squash|booking", r"django"),),
)

ASSISTANT_SUBAGENT_REPORT = Case(
    "assistant-explore-report",
    "assistant",
    "TypeScript (Claude Code)",
    one_session(
        "/Users/rui/work/relay-board",
        Ask("Explore the repo and summarise it, then we'll fix the flaky websocket test."),
        Read(
            "package.json",
            '{\n  "name": "relay-board",\n  "private": true,\n  "scripts": {"dev": "next dev", "test": "vitest"},\n  "dependencies": {"next": "14.2.5", "react": "18.3.1", "socket.io": "4.7.5"}\n}\n',
        ),
        Read(
            "app/board/page.tsx",
            "export default function Board() {\n  return <Kanban />;\n}\n",
        ),
        Say(
            "## Summary\n\nrelay-board is a real-time kanban board for small teams, built as a Next.js app in TypeScript with Socket.IO pushing card moves to every open browser.\n\n- `app/board/` holds the board page\n- `server/socket.ts` broadcasts moves"
        ),
        Read(
            "server/socket.test.ts",
            'it("broadcasts a move", async () => {\n  await sleep(50);\n});\n',
        ),
        Edit("server/socket.test.ts", "  await sleep(50);", "  await once(client, 'moved');"),
        Run(
            "npx vitest run", " ✓ server/socket.test.ts (3 tests) 40ms\n Test Files  1 passed (1)\n"
        ),
    ),
    (
        fact("relay-board is a real-time kanban board", r"relay.board", r"kanban"),
        fact("... a Next.js / TypeScript app", r"kanban", r"next\.?js|typescript"),
    ),
)

# --- an instruction file's overview ----------------------------------------------------------

INSTRUCTIONS_CLAUDE = Case(
    "instructions-claude-md",
    "instructions",
    "Go and Svelte (Claude Code)",
    one_session(
        "/home/zoe/src/pulsewatch",
        Ask("Read CLAUDE.md, then make the status page show the last incident's duration."),
        Read(
            "CLAUDE.md",
            "# CLAUDE.md\n\nThis file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.\n\n## Project overview\n\nPulsewatch is a self-hosted status page and uptime checker: a Go API in `server/` and a Svelte dashboard in `web/`.\n\n## Commands\n\n- `make test` runs the Go and web tests\n",
        ),
        Read(
            "web/src/lib/Incident.svelte",
            "<script>\n  export let incident;\n</script>\n<p>{incident.title}</p>\n",
        ),
        Edit(
            "web/src/lib/Incident.svelte",
            "<p>{incident.title}</p>",
            "<p>{incident.title} ({incident.duration})</p>",
        ),
        Run("make test", "ok  \tpulsewatch/server/...\t0.3s\n✓ 12 tests passed\n"),
    ),
    (
        fact("Pulsewatch is a status page / uptime checker", r"pulsewatch", r"status page|uptime"),
        fact("... Go and Svelte", r"status page|uptime", r"\bGo\b|svelte"),
    ),
)

INSTRUCTIONS_GEMINI = Case(
    "instructions-gemini-md",
    "instructions",
    "Swift (Gemini CLI)",
    one_session(
        "/Users/max/dev/exifname",
        Ask("Files with no EXIF date should keep their name. Fix that."),
        Read(
            "GEMINI.md",
            "# exifname\n\n## Overview\n\nexifname is a Swift command-line tool that renames photos by the date in their EXIF data.\n\n## Building\n\n`swift build` and `swift test`.\n",
        ),
        Read(
            "Sources/exifname/Renamer.swift",
            "func newName(for url: URL) -> String {\n    let date = exifDate(url) ?? Date()\n    return formatter.string(from: date)\n}\n",
        ),
        Edit(
            "Sources/exifname/Renamer.swift",
            "    let date = exifDate(url) ?? Date()\n",
            "    guard let date = exifDate(url) else { return url.lastPathComponent }\n",
        ),
        Run(
            "swift test",
            "Test Suite 'All tests' passed at 2026-05-04 09:00:21.\n\t Executed 6 tests, with 0 failures\n",
        ),
        host="gemini",
    ),
    (
        fact("exifname renames photos by EXIF date", r"exifname", r"exif|renames photos"),
        fact("... in Swift", r"exif|renames", r"swift"),
    ),
)

INSTRUCTIONS_AGENTS = Case(
    "instructions-agents-md",
    "instructions",
    "Zig (Codex)",
    one_session(
        "/home/ivo/zig/tinyhash",
        Ask("Read AGENTS.md first. Then add a `--seed` option to the benchmark."),
        Read(
            "AGENTS.md",
            "# Agent notes\n\n## About\n\ntinyhash is a Zig library of small non-cryptographic hash functions (wyhash, xxh3) with a benchmark program.\n\n## Rules\n\n- Always run `zig build test` before committing.\n",
        ),
        Read(
            "build.zig.zon",
            '.{\n    .name = .tinyhash,\n    .version = "0.3.0",\n    .paths = .{ "build.zig", "src" },\n}\n',
        ),
        Read(
            "bench/main.zig",
            "pub fn main() !void {\n    const seed: u64 = 0;\n    _ = seed;\n}\n",
        ),
        Edit(
            "bench/main.zig", "    const seed: u64 = 0;", "    const seed: u64 = try parseSeed();"
        ),
        Run("zig build test", ""),
        host="codex",
    ),
    (
        fact("tinyhash is a library of hash functions", r"tinyhash", r"hash"),
        fact("... in Zig", r"hash", r"\bZig\b"),
    ),
)

# --- traps: say less rather than wrong ------------------------------------------------------

TRAP_VENDORED_README = Case(
    "trap-vendored-readme",
    "trap",
    "C++ (Claude Code)",
    one_session(
        "/home/lea/src/mapforge",
        Ask("The tile editor window doesn't resize with the main window. Fix it."),
        Read(
            "third_party/imgui/README.md",
            "Dear ImGui\n=====\n\nDear ImGui is a bloat-free graphical user interface library for C++. It outputs optimized vertex buffers that you can render anytime in your 3D-pipeline-enabled application.\n\n### Usage\n",
        ),
        Read(
            "src/editor/tile_window.cpp",
            '#include "imgui.h"\n\nvoid TileWindow::draw() {\n    ImGui::SetNextWindowSize(ImVec2(400, 300));\n    ImGui::Begin("Tiles");\n}\n',
        ),
        Edit(
            "src/editor/tile_window.cpp",
            "    ImGui::SetNextWindowSize(ImVec2(400, 300));",
            "    ImGui::SetNextWindowSize(ImGui::GetMainViewport()->WorkSize);",
        ),
        Run("cmake --build build", "[100%] Built target mapforge\n"),
    ),
    (),
    (
        never(
            r"bloat-free|graphical user interface library",
            "the vendored library's README is not this project's",
        ),
    ),
)

TRAP_TEMPLATE_README = Case(
    "trap-template-readme",
    "trap",
    "JavaScript (Codex)",
    one_session(
        "/home/gus/apps/potluck",
        Ask(
            "this is our recipe-sharing app. The ingredient list overflows on mobile; fix the CSS."
        ),
        Read(
            "README.md",
            "# Getting Started with Create React App\n\nThis project was bootstrapped with [Create React App](https://github.com/facebook/create-react-app).\n\n## Available Scripts\n\nIn the project directory, you can run:\n\n### `npm start`\n",
        ),
        Read(
            "src/Ingredients.css",
            ".ingredients {\n  display: flex;\n}\n",
        ),
        Edit("src/Ingredients.css", "  display: flex;\n", "  display: flex;\n  flex-wrap: wrap;\n"),
        host="codex",
    ),
    (fact("a recipe-sharing app", r"recipe"),),
    (
        never(
            r"bootstrapped|Getting Started with Create React App",
            "the template's README says nothing of the app",
        ),
    ),
)

TRAP_CLIENT_APP = Case(
    "trap-client-app",
    "trap",
    "TypeScript (Gemini CLI)",
    one_session(
        "/home/ada/work/paykit-sdk",
        Ask(
            "Our client's app is a food delivery platform and they call createCheckout twice on retries. Make createCheckout idempotent with a key."
        ),
        Read(
            "src/checkout.ts",
            "export async function createCheckout(amount: number) {\n  return post('/checkouts', { amount });\n}\n",
        ),
        Edit(
            "src/checkout.ts",
            "export async function createCheckout(amount: number) {\n  return post('/checkouts', { amount });",
            "export async function createCheckout(amount: number, key: string) {\n  return post('/checkouts', { amount }, { 'Idempotency-Key': key });",
        ),
        Run("npm test", " ✓ src/checkout.test.ts (5 tests)\n"),
        host="gemini",
    ),
    (),
    (never(r"food delivery", "the client's app is not this project"),),
)

TRAP_OTHER_PROJECT = Case(
    "trap-other-project",
    "trap",
    "Python (Claude Code)",
    one_session(
        "/home/finn/code/ledgerlite",
        Ask(
            "My other repo, weatherbot, is a Discord bot that posts forecasts. I want the same retry helper here: copy its backoff logic into ledgerlite/http.py."
        ),
        Read(
            "ledgerlite/http.py",
            "import httpx\n\n\ndef get(url):\n    return httpx.get(url)\n",
        ),
        Edit(
            "ledgerlite/http.py",
            "def get(url):\n    return httpx.get(url)",
            "def get(url, tries=3):\n    for n in range(tries):\n        try:\n            return httpx.get(url)\n        except httpx.TransportError:\n            time.sleep(2**n)\n    raise RuntimeError(url)",
        ),
        Run("pytest -q", "....\n4 passed in 0.20s\n"),
    ),
    (),
    (never(r"discord bot|forecasts", "the other repository's description is not this project's"),),
)

TRAP_STALE_DESCRIPTION = Case(
    "trap-stale-description",
    "trap",
    "Rust (Codex, shell era)",
    one_session(
        "/home/yuki/src/fastcsv",
        Ask("The quote handling breaks on escaped quotes inside fields. Fix it."),
        Read(
            "README.md",
            "# fastcsv\n\nfastcsv is a CSV parser for large files, written in Python with NumPy.\n\n## Usage\n",
        ),
        Read(
            "Cargo.toml",
            '[package]\nname = "fastcsv"\nversion = "2.0.0"\nedition = "2021"\n\n[dependencies]\nmemchr = "2"\n',
        ),
        Read(
            "src/parser.rs",
            "pub fn field(bytes: &[u8]) -> &[u8] {\n    bytes.split(|b| *b == b'\"').next().unwrap_or(bytes)\n}\n",
        ),
        Edit(
            "src/parser.rs",
            "    bytes.split(|b| *b == b'\"').next().unwrap_or(bytes)",
            "    unquote(bytes)",
        ),
        Run("cargo test", "running 21 tests\ntest result: ok. 21 passed; 0 failed\n"),
        host="codex-shell",
    ),
    (fact("fastcsv is a CSV parser", r"fastcsv", r"csv parser", unsure=True),),
    (
        never(
            r"(?:written in|project is)[^.\n]*\bPython\b|\bNumPy\b",
            "the code is Rust; the README's stack is stale",
        ),
    ),
)

TRAP_DOCS_SITE = Case(
    "trap-docs-site",
    "trap",
    "Go (Claude Code)",
    one_session(
        "/home/ola/src/queuectl",
        Ask(
            "Fix the typo in the install page of the docs, then make `queuectl purge` ask before deleting."
        ),
        Read(
            "docs/README.md",
            "# Website\n\nThis website is built using Docusaurus, a modern static website generator.\n\n### Installation\n\n```\nyarn\n```\n",
        ),
        Read(
            "docs/docs/install.md",
            "# Install\n\nRun `go instal github.com/ola/queuectl@latest`.\n",
        ),
        Edit("docs/docs/install.md", "go instal", "go install"),
        Read(
            "go.mod",
            "module github.com/ola/queuectl\n\ngo 1.22\n\nrequire github.com/spf13/cobra v1.8.1\n",
        ),
        Read(
            "cmd/purge.go",
            'package cmd\n\nvar purgeCmd = &cobra.Command{\n\tUse: "purge",\n}\n',
        ),
        Edit(
            "cmd/purge.go",
            '\tUse: "purge",\n',
            '\tUse: "purge",\n\tPreRunE: confirm("Delete every queued job?"),\n',
        ),
        Run("go test ./...", "ok  \tgithub.com/ola/queuectl/cmd\t0.15s\n"),
    ),
    (),
    (
        never(
            r"(?:project|queuectl)[^.\n]*(?:website|static website generator)|Docusaurus[^.\n]*project",
            "the docs sub-site is not the project",
        ),
        never(r"modern static website generator", "the docs sub-site's template README"),
    ),
)

TRAP_ASSISTANT_GUESS = Case(
    "trap-assistant-guess",
    "trap",
    "C (Gemini CLI)",
    one_session(
        "/home/nils/src/voxel",
        Ask("What is this repo? I inherited it with no docs."),
        Run("ls", "Makefile\nsrc\nshaders\nassets\n"),
        Read(
            "src/chunk.c",
            '#include "chunk.h"\n\nvoid chunk_mesh(struct chunk *c) {\n    for (int i = 0; i < CHUNK_VOLUME; i++) {\n    }\n}\n',
        ),
        Say(
            "This looks like it might be a voxel game engine of some kind, maybe a Minecraft-like renderer, but without a README I can't be sure."
        ),
        host="gemini",
    ),
    (),
    (never(r"game engine|minecraft", "the assistant only guessed"),),
)

TRAP_SUB_PACKAGE = Case(
    "trap-sub-package",
    "trap",
    "TypeScript monorepo (Claude Code)",
    one_session(
        "/Users/val/work/storefront",
        Ask("The Button in packages/ui has the wrong focus ring colour in dark mode."),
        Read(
            "packages/ui/README.md",
            "# @storefront/ui\n\n@storefront/ui is a React component library of buttons, inputs and dialogs, themed with CSS variables.\n\n## Usage\n",
        ),
        Read(
            "packages/ui/package.json",
            '{\n  "name": "@storefront/ui",\n  "description": "React component library for the storefront apps",\n  "version": "0.4.0"\n}\n',
        ),
        Read(
            "packages/ui/src/Button.tsx",
            'export function Button() {\n  return <button className="btn" />;\n}\n',
        ),
        Edit(
            "packages/ui/src/button.css",
            ".dark .btn:focus { outline-color: #000; }",
            ".dark .btn:focus { outline-color: var(--focus-ring); }",
        ),
    ),
    (),
    (
        never(
            r"(?:project|storefront\b(?!/))[^.\n]*\bis a React component library",
            "a sub-package's README is not the whole project's",
        ),
    ),
)

TRAP_QUESTION = Case(
    "trap-user-question",
    "trap",
    "Python (Codex)",
    one_session(
        "/home/ari/src/tally",
        Ask(
            "is this a CLI tool or a library? I can't tell from the code. Either way, add type hints to count.py."
        ),
        Read("tally/count.py", "def count(words):\n    return len(words)\n"),
        Edit("tally/count.py", "def count(words):", "def count(words: list[str]) -> int:"),
        Run("mypy tally", "Success: no issues found in 3 source files\n"),
        host="codex",
    ),
    (),
    (
        never(
            r"(?:project|tally)[^.\n]*\b(?:is|as) an? (?:CLI tool|library)", "the user only asked"
        ),
    ),
)

TRAP_FIXTURE_README = Case(
    "trap-fixture-readme",
    "trap",
    "Python (Claude Code)",
    one_session(
        "/home/eli/src/readme-lint",
        Ask("The heading check fails on the sample in tests/fixtures/blog. Find out why."),
        Read(
            "tests/fixtures/blog/README.md",
            "# Blog\n\nBlog is a static blog generator for Jekyll themes.\n\n## Posts\n",
        ),
        Read(
            "readme_lint/checks.py",
            "def headings(lines):\n    return [l for l in lines if l.startswith('## ')]\n",
        ),
        Edit("readme_lint/checks.py", "l.startswith('## ')", "l.startswith('#')"),
        Run("pytest -q", ".......\n7 passed in 0.12s\n"),
    ),
    (),
    (never(r"static blog generator|jekyll", "a test fixture's README is not the project's"),),
)


CASES: tuple[Case, ...] = (
    README_GO,
    README_ELIXIR,
    README_DOTNET,
    README_SWIFT_LONG_INTRO,
    MANIFEST_CARGO,
    MANIFEST_PYPROJECT,
    MANIFEST_MIX,
    MANIFEST_GEMSPEC,
    MANIFEST_POM,
    MANIFEST_COMPOSER,
    MANIFEST_CABAL,
    MANIFEST_PACKAGE_JSON,
    USER_CLI_RUST,
    USER_BILLING_SERVICE,
    USER_FLUTTER_APP,
    USER_NAMED_PROJECT,
    ASSISTANT_NAMED,
    ASSISTANT_THIS_PROJECT,
    ASSISTANT_SUBAGENT_REPORT,
    INSTRUCTIONS_CLAUDE,
    INSTRUCTIONS_GEMINI,
    INSTRUCTIONS_AGENTS,
    TRAP_VENDORED_README,
    TRAP_TEMPLATE_README,
    TRAP_CLIENT_APP,
    TRAP_OTHER_PROJECT,
    TRAP_STALE_DESCRIPTION,
    TRAP_DOCS_SITE,
    TRAP_ASSISTANT_GUESS,
    TRAP_SUB_PACKAGE,
    TRAP_QUESTION,
    TRAP_FIXTURE_README,
)
