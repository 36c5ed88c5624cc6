# ruff: noqa: E501  (transcript text: outputs and replies are kept as one string a line)
"""The learned study's sixth set: made-up sessions in ten ecosystems where the assistant explains
something after a failure or a surprise, answers a question about how the project behaves, or sums
up the architecture it has just read; and quiet sessions that must teach nothing (a plan, a guess
marked as a guess, a progress line, the task said back, a question to the user). Every case, its
items and its `wrong` patterns were written before any rule ran over them, in
`bench.learned_study`'s terms: an item is found when one project_fact, pitfall or recipe memory
states every concept of its `match`; a memory of any type matching a `wrong` entry is wrong.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, one_session, write_sessions

#: (note, importance, match): `match` as a study file's, concepts of alternative patterns.
Entry = tuple[str, str, list[list[str]]]


@dataclass(frozen=True)
class Case:
    """One made-up session, what it teaches (`items`) and what must not be said (`wrong`)."""

    name: str
    ecosystem: str
    sessions: tuple[Session, ...]
    items: tuple[Entry, ...] = ()
    wrong: tuple[Entry, ...] = ()


def _high(note: str, *match: list[str]) -> Entry:
    return (note, "high", list(match))


def _normal(note: str, *match: list[str]) -> Entry:
    return (note, "normal", list(match))


def _never(note: str, *match: list[str]) -> Entry:
    return (note, "normal", list(match))


CASES: tuple[Case, ...] = (
    Case(
        "go-import-cycle",
        "Go",
        one_session(
            "/home/mina/src/orders",
            Ask("Add the refund status to the order store and run the tests."),
            Edit(
                "internal/store/orders.go",
                'import "database/sql"',
                'import (\n\t"database/sql"\n\n\t"example.com/orders/internal/api"\n)',
            ),
            Run(
                "go test ./...",
                "# example.com/orders/internal/store\npackage example.com/orders/internal/store\n\timports example.com/orders/internal/api\n\timports example.com/orders/internal/store: import cycle not allowed\nFAIL\texample.com/orders/internal/store [setup failed]",
                1,
            ),
            Say(
                "The cycle comes from `internal/store` importing `internal/api` just for the `Order` type, while `internal/api` already imports the store. In this repo shared domain types belong in `internal/model`, which both packages may import, so I moved `Order` there."
            ),
            Edit(
                "internal/store/orders.go",
                '\t"example.com/orders/internal/api"',
                '\t"example.com/orders/internal/model"',
            ),
            Run(
                "go test ./...",
                "ok  \texample.com/orders/internal/api\t0.41s\nok  \texample.com/orders/internal/store\t0.22s",
            ),
            Say("Tests pass."),
        ),
        items=(
            _high(
                "Shared domain types live in `internal/model`; `internal/store` must not import `internal/api` (import cycle).",
                ["internal/model"],
                ["cycle", "domain types", "shared"],
            ),
        ),
    ),
    Case(
        "rust-optional-feature",
        "Rust",
        one_session(
            "/home/ola/code/relay",
            Ask("Run the client tests."),
            Run(
                "cargo test client",
                "   Compiling relay v0.4.0 (/home/ola/code/relay)\nerror[E0433]: failed to resolve: use of undeclared crate or module `tokio`\n --> src/client.rs:3:5\n  |\n3 | use tokio::net::TcpStream;\n  |     ^^^^^ use of undeclared crate or module `tokio`\n\nerror: could not compile `relay` (lib test) due to 1 previous error",
                101,
            ),
            Say(
                "That's expected here: `tokio` is an optional dependency in Cargo.toml, only pulled in by the `async` feature, and `src/client.rs` is compiled only with it. The client tests have to run with `cargo test --features async`."
            ),
            Run(
                "cargo test --features async client",
                "running 6 tests\n......\ntest result: ok. 6 passed; 0 failed",
            ),
            Say("All six client tests pass with the feature on."),
        ),
        items=(
            _high(
                "`tokio` is optional (the `async` feature); the client tests need `cargo test --features async`.",
                ["--features async", "`async` feature", "async feature"],
                ["tokio", "client", "optional"],
            ),
        ),
    ),
    Case(
        "rails-structure-sql",
        "Ruby/Rails",
        one_session(
            "/home/dev/apps/clinic",
            Ask("I added a migration for appointment reminders, run the tests."),
            Run(
                "bin/rails test",
                "Migrations are pending. To resolve this issue, run:\n\n        bin/rails db:migrate RAILS_ENV=test\n\nActiveRecord::PendingMigrationError",
                1,
            ),
            Say(
                "The test database is behind the migrations. This app keeps its schema in `db/structure.sql` rather than `schema.rb`, so after every migration you need `bin/rails db:test:prepare` before the tests; `db:migrate` alone leaves the test database stale."
            ),
            Run("bin/rails db:test:prepare", ""),
            Run(
                "bin/rails test",
                "Finished in 4.21s\n212 runs, 640 assertions, 0 failures, 0 errors, 0 skips",
            ),
            Say("Green."),
        ),
        items=(
            _high(
                "The schema is `db/structure.sql`; run `bin/rails db:test:prepare` after a migration before the tests.",
                ["db:test:prepare"],
                ["structure\\.sql", "migration"],
            ),
        ),
    ),
    Case(
        "elixir-sandbox-task",
        "Elixir/Phoenix",
        one_session(
            "/home/sam/dev/courier",
            Ask("Why does the notifier test crash?"),
            Run(
                "mix test test/courier/notifier_test.exs",
                "  1) test sends a webhook on delivery (Courier.NotifierTest)\n     ** (DBConnection.OwnershipError) cannot find ownership process for #PID<0.612.0>.\n\n     When using ownership, you must manage connections in one\n     of the four ways:\n\nFinished in 0.3 seconds\n4 tests, 1 failure",
                2,
            ),
            Say(
                "Here's what's going on: the Ecto SQL sandbox gives each test its own connection, and `Notifier.deliver/1` does its work in a `Task.start`, a process that doesn't own that connection. The fix is to let the test allow the task's process: I pass the caller along and call `Ecto.Adapters.SQL.Sandbox.allow/3` in the test setup."
            ),
            Edit(
                "test/courier/notifier_test.exs",
                "setup do",
                "setup do\n    Ecto.Adapters.SQL.Sandbox.allow(Courier.Repo, self(), Courier.TaskOwner.pid())",
            ),
            Run(
                "mix test test/courier/notifier_test.exs",
                "....\nFinished in 0.3 seconds\n4 tests, 0 failures",
            ),
            Say("The notifier tests pass."),
        ),
        items=(
            _high(
                "Work spawned in a Task does not own the Ecto sandbox connection; tests allow it with `Ecto.Adapters.SQL.Sandbox.allow/3`.",
                ["sandbox"],
                ["allow", "task", "own"],
            ),
        ),
    ),
    Case(
        "kotlin-buildconfig",
        "Kotlin/Gradle (Android)",
        one_session(
            "/Users/lea/AndroidStudioProjects/tides",
            Ask("Use the API URL from BuildConfig in the network module and build."),
            Run(
                "./gradlew :network:compileDebugKotlin",
                "> Task :network:compileDebugKotlin FAILED\ne: file:///Users/lea/AndroidStudioProjects/tides/network/src/main/java/app/tides/network/Api.kt:9:20 Unresolved reference: BuildConfig\n\nFAILURE: Build failed with an exception.",
                1,
            ),
            Say(
                "Turns out the Android Gradle plugin 8 no longer generates `BuildConfig` for library modules by default. The `:network` module has to opt in with `buildFeatures { buildConfig = true }` in its `build.gradle.kts`; I added that."
            ),
            Edit(
                "network/build.gradle.kts",
                "android {",
                "android {\n    buildFeatures { buildConfig = true }",
            ),
            Run("./gradlew :network:compileDebugKotlin", "BUILD SUCCESSFUL in 14s"),
            Say("It builds."),
        ),
        items=(
            _high(
                "A module that reads BuildConfig needs `buildFeatures { buildConfig = true }` (not generated by default).",
                ["buildFeatures", "buildConfig = true"],
                ["BuildConfig"],
            ),
        ),
    ),
    Case(
        "csharp-xunit-parallel",
        "C#/.NET (xUnit)",
        one_session(
            "/home/ivo/src/Shipping",
            Ask("The integration tests fail on CI but pass one at a time, can you look?"),
            Run(
                "dotnet test tests/Shipping.IntegrationTests",
                '  Failed Shipping.IntegrationTests.ParcelRepositoryTests.Saves_parcel [212 ms]\n  Error Message:\n   Npgsql.PostgresException : 23505: duplicate key value violates unique constraint "pk_parcels"\n\nFailed!  - Failed:     3, Passed:    41, Skipped:     0, Total:    44',
                1,
            ),
            Say(
                'The failures only show up when `ParcelRepositoryTests` and `RouteRepositoryTests` run at the same time: xUnit runs test classes in parallel, and both classes use the same `shipping_test` database. I put them in one `[Collection("Database")]` so they run one after the other.'
            ),
            Edit(
                "tests/Shipping.IntegrationTests/ParcelRepositoryTests.cs",
                "public class ParcelRepositoryTests",
                '[Collection("Database")]\npublic class ParcelRepositoryTests',
            ),
            Run(
                "dotnet test tests/Shipping.IntegrationTests",
                "Passed!  - Failed:     0, Passed:    44, Skipped:     0, Total:    44",
            ),
            Say("All 44 pass."),
        ),
        items=(
            _high(
                'Integration test classes share the `shipping_test` database; xUnit runs classes in parallel, so they go in one `[Collection("Database")]`.',
                ["parallel", "same time", "one after"],
                ["Collection", "shipping_test", "same database"],
            ),
        ),
    ),
    Case(
        "laravel-env-testing",
        "PHP/Laravel",
        one_session(
            "/var/www/bookshelf",
            Ask("Run the feature tests."),
            Run(
                "php artisan test --testsuite=Feature",
                "   FAIL  Tests\\Feature\\LoanTest\n  ⨯ it lends a book\n  Illuminate\\Encryption\\MissingAppKeyException\n  No application encryption key has been specified.\n\n  Tests:    1 failed, 0 passed",
                1,
            ),
            Say(
                "The tests don't read `.env` at all: with `APP_ENV=testing` Laravel loads `.env.testing`, and that file has no `APP_KEY`. I generated one for it with `php artisan key:generate --env=testing`."
            ),
            Run(
                "php artisan key:generate --env=testing",
                "   INFO  Application key set successfully.",
            ),
            Run(
                "php artisan test --testsuite=Feature",
                "   PASS  Tests\\Feature\\LoanTest\n  Tests:    9 passed (31 assertions)",
            ),
            Say("Feature tests pass."),
        ),
        items=(
            _high(
                "Tests load `.env.testing`, not `.env`; it needs its own APP_KEY (`php artisan key:generate --env=testing`).",
                ["\\.env\\.testing", "--env=testing"],
                ["APP_KEY", "key:generate", "not `?\\.env"],
            ),
        ),
    ),
    Case(
        "shell-dash-pipefail",
        "shell (Bash)",
        one_session(
            "/home/ops/infra-scripts",
            Ask("The deploy step broke on the runner, here's the log. Can you fix it?"),
            Run(
                "sh scripts/deploy.sh staging",
                "scripts/deploy.sh: 4: set: Illegal option -o pipefail",
                2,
            ),
            Say(
                "The script relies on bash features (`set -o pipefail`, arrays), but the runner invokes it as `sh scripts/deploy.sh`, and on Ubuntu `/bin/sh` is dash, which has no `pipefail`. It must be run with bash: I changed the workflow step to `bash scripts/deploy.sh`."
            ),
            Edit(
                ".github/workflows/deploy.yml",
                "run: sh scripts/deploy.sh",
                "run: bash scripts/deploy.sh",
            ),
            Run(
                "bash scripts/deploy.sh staging --dry-run",
                "[dry-run] would deploy 3 services to staging",
            ),
            Say("The dry run works with bash."),
        ),
        items=(
            _high(
                "The deploy scripts need bash (pipefail, arrays); `sh` is dash on the runners.",
                ["bash scripts/deploy", "with bash", "needs? bash", "bash features"],
                ["dash", "pipefail", "/bin/sh"],
            ),
        ),
    ),
    Case(
        "jest-esm-node-modules",
        "JavaScript (Jest)",
        one_session(
            "/home/kai/web/storefront",
            Ask("Run the unit tests after my lodash change."),
            Run(
                "npm test",
                " FAIL  src/cart/total.test.js\n  ● Test suite failed to run\n\n    Jest encountered an unexpected token\n\n    /home/kai/web/storefront/node_modules/lodash-es/lodash.js:10\n    import * as lodash from './lodash.default.js';\n    ^^^^^^\n\n    SyntaxError: Cannot use import statement outside a module\n\nTest Suites: 1 failed, 11 passed, 12 total",
                1,
            ),
            Say(
                "Jest doesn't transform anything in `node_modules` by default, and `lodash-es` ships only ES modules, so it reaches Jest untransformed. I added an exception for it to `transformIgnorePatterns` in `jest.config.js`."
            ),
            Edit(
                "jest.config.js",
                "module.exports = {",
                "module.exports = {\n  transformIgnorePatterns: ['/node_modules/(?!lodash-es)'],",
            ),
            Run("npm test", "Test Suites: 12 passed, 12 total\nTests:       96 passed, 96 total"),
            Say("All suites pass."),
        ),
        items=(
            _high(
                "An ES-module-only package (`lodash-es`) must be excepted in Jest's `transformIgnorePatterns`.",
                ["transformIgnorePatterns"],
                ["lodash-es", "node_modules", "ES module"],
            ),
        ),
    ),
    Case(
        "python-src-layout",
        "Python (pytest)",
        one_session(
            "/home/ria/work/tally",
            Ask("Set up the venv and run the tests."),
            Run(
                "python -m venv .venv && .venv/bin/pip install pytest",
                "Successfully installed pytest-8.3.2",
            ),
            Run(
                ".venv/bin/pytest -q",
                "ImportError while importing test module '/home/ria/work/tally/tests/test_ledger.py'.\nE   ModuleNotFoundError: No module named 'tally'\n1 error in 0.09s",
                2,
            ),
            Say(
                "The package sits under `src/` (a src layout), so it isn't importable until it's installed into the venv. `pip install -e .` does that, and the tests then import the working copy."
            ),
            Run(".venv/bin/pip install -e .", "Successfully installed tally-0.3.0"),
            Run(".venv/bin/pytest -q", "........................\n24 passed in 0.31s"),
            Say("24 passed."),
        ),
        items=(
            _high(
                "src layout: install the package editable (`pip install -e .`) before running the tests.",
                ["pip install -e", "editable"],
                ["src"],
            ),
        ),
    ),
    Case(
        "go-architecture-summary",
        "Go",
        one_session(
            "/home/tom/src/ledgerd",
            Ask("I'm new to this repo. Read the code and tell me how it's organised."),
            Read(
                "cmd/ledgerd/main.go",
                "package main\n\nfunc main() {\n\tdb := repo.Open(cfg.DatabaseURL)\n\tsvc := service.New(repo.NewAccounts(db), repo.NewEntries(db))\n\tgo worker.Run(ctx, db, svc)\n\thttp.ListenAndServe(cfg.Addr, httpapi.Router(svc))\n}",
            ),
            Read(
                "internal/worker/worker.go",
                "package worker\n\n// Run polls the jobs table.\nfunc Run(ctx context.Context, db *sql.DB, svc *service.Service) {\n\tconst q = `SELECT id, kind FROM jobs WHERE done = false FOR UPDATE SKIP LOCKED LIMIT 10`\n}",
            ),
            Say(
                "Here's how it fits together:\n\n- `cmd/ledgerd/main.go` wires everything: it opens Postgres, builds the service and starts both the HTTP server and the worker.\n- HTTP handlers live in `internal/httpapi`; they only call methods of `internal/service`, which holds the business rules.\n- `internal/service` talks to the database only through the repository interfaces in `internal/repo`.\n- Background jobs run in `internal/worker`, which polls the `jobs` table with `FOR UPDATE SKIP LOCKED`, so several workers can run side by side."
            ),
        ),
        items=(
            _high(
                "Layers: handlers in `internal/httpapi` call `internal/service` (business rules), which reaches the database through `internal/repo`.",
                ["internal/httpapi", "handlers"],
                ["internal/service"],
            ),
            _normal(
                "Background jobs: `internal/worker` polls the `jobs` table with `FOR UPDATE SKIP LOCKED`.",
                ["worker"],
                ["SKIP LOCKED", "jobs table"],
            ),
        ),
    ),
    Case(
        "rails-architecture-summary",
        "Ruby/Rails",
        one_session(
            "/home/dev/apps/fleet",
            Ask("Before we start: how is the backend structured?"),
            Read(
                "config/routes.rb",
                "Rails.application.routes.draw do\n  namespace :api do\n    namespace :v2 do\n      resources :vehicles\n      resources :trips, only: %i[index create]\n    end\n  end\nend",
            ),
            Read(
                "app/services/trips/start.rb",
                "module Trips\n  class Start\n    def self.call(vehicle:, driver:)\n      new(vehicle, driver).call\n    end\n  end\nend",
            ),
            Say(
                "The structure is fairly conventional. Every API route is under `/api/v2` and maps to a controller in `app/controllers/api/v2`. The controllers stay thin: the business logic lives in service objects under `app/services`, one class per action with a single public `call`. Anything slow (telemetry imports, invoices) goes to jobs in `app/jobs`, which run on Sidekiq."
            ),
        ),
        items=(
            _high(
                "Business logic lives in service objects under `app/services` (one class per action, a single `.call`); controllers stay thin.",
                ["app/services", "service objects?"],
                ["call", "business logic", "thin"],
            ),
            _normal("Background jobs in `app/jobs` run on Sidekiq.", ["sidekiq"]),
            _normal("The API routes are under `/api/v2` (`app/controllers/api/v2`).", ["api/v2"]),
        ),
    ),
    Case(
        "phoenix-contexts-summary",
        "Elixir/Phoenix",
        one_session(
            "/home/sam/dev/market",
            Ask("Give me a map of the app before I add the refunds feature."),
            Read(
                "lib/market/billing.ex",
                'defmodule Market.Billing do\n  @moduledoc "Subscriptions, invoices and the Stripe webhooks."\n  alias Market.Repo\nend',
            ),
            Read(
                "lib/market_web/controllers/order_controller.ex",
                "defmodule MarketWeb.OrderController do\n  use MarketWeb, :controller\n  def create(conn, params), do: Market.Orders.place(params)\nend",
            ),
            Say(
                "The app is split into Phoenix contexts: `Market.Accounts` (users and tokens), `Market.Orders` (carts and orders) and `Market.Billing` (subscriptions, invoices and the Stripe webhooks). The web layer in `lib/market_web` only calls context functions and never touches `Repo` directly, so refunds would belong in `Market.Billing` with a controller that calls it."
            ),
        ),
        items=(
            _high(
                "Contexts: Accounts, Orders, Billing (subscriptions, invoices, Stripe webhooks); the web layer calls context functions only, never Repo.",
                ["contexts?"],
                ["Billing", "Accounts", "Orders"],
            ),
            _normal(
                "`lib/market_web` never uses Repo directly.",
                ["Repo"],
                ["never", "only calls", "directly"],
            ),
        ),
    ),
    Case(
        "ts-plugin-loader-summary",
        "TypeScript (Node)",
        one_session(
            "/home/eli/code/hookshot",
            Ask("How do plugins get loaded? I want to add one for Slack."),
            Read(
                "src/core/loader.ts",
                "export async function loadPlugins(app: App) {\n  const files = (await glob('src/plugins/*.ts')).sort();\n  for (const file of files) {\n    const plugin = await import(file);\n    await plugin.register(app);\n  }\n}",
            ),
            Say(
                "Plugins are plain modules under `src/plugins/`, each exporting `register(app)`. At startup `src/core/loader.ts` globs that folder, sorts the file names and calls `register` on each in alphabetical order, so a plugin that depends on another one has to sort after it (hence the numeric prefixes). A Slack plugin would be `src/plugins/40-slack.ts` with a `register` function."
            ),
        ),
        items=(
            _high(
                "Plugins: modules in `src/plugins/` exporting `register(app)`, loaded by `src/core/loader.ts` in alphabetical order (dependants sort after).",
                ["plugins?"],
                ["register", "loader"],
            ),
            _normal(
                "Plugins load in alphabetical order of their file names.",
                ["alphabetical", "sorts? the file"],
            ),
        ),
    ),
    Case(
        "kotlin-modules-summary",
        "Kotlin (Android, Gradle modules)",
        one_session(
            "/Users/lea/AndroidStudioProjects/tides",
            Ask("Explain the module structure to me."),
            Read(
                "settings.gradle.kts",
                'rootProject.name = "tides"\ninclude(":app", ":core", ":data")',
            ),
            Read(
                "data/build.gradle.kts",
                'dependencies {\n    implementation(project(":core"))\n    implementation(libs.room.runtime)\n    implementation(libs.retrofit)\n}',
            ),
            Say(
                "There are three modules. `:core` holds the domain model and use cases and has no Android dependency. `:data` implements the repositories with Room for the local cache and Retrofit for the tide API, depending on `:core`. `:app` is the Compose UI and wires the other two together with Hilt."
            ),
        ),
        items=(
            _high(
                "Modules: `:core` (domain, no Android), `:data` (Room + Retrofit repositories), `:app` (Compose UI, Hilt).",
                [":core", ":data"],
                ["domain", "repositories", "Room"],
            ),
        ),
    ),
    Case(
        "laravel-routes-summary",
        "PHP/Laravel",
        one_session(
            "/var/www/bookshelf",
            Ask("Where do the routes live? I need to add an admin page."),
            Read(
                "app/Providers/RouteServiceProvider.php",
                "Route::middleware(['web', 'auth', 'admin'])\n    ->prefix('admin')\n    ->group(base_path('routes/admin.php'));",
            ),
            Say(
                "Public pages are in `routes/web.php`, and the JSON API is in `routes/api.php` under `/api/v1`, behind Sanctum tokens. Admin pages are separate: `routes/admin.php`, loaded by `RouteServiceProvider` with the `admin` middleware and the `/admin` prefix. Your new page goes there."
            ),
        ),
        items=(
            _high(
                "Admin routes live in `routes/admin.php` (loaded by RouteServiceProvider with the `admin` middleware and `/admin` prefix).",
                ["routes/admin\\.php"],
            ),
            _normal(
                "The JSON API is in `routes/api.php` under `/api/v1`, behind Sanctum.",
                ["sanctum", "api/v1"],
            ),
        ),
    ),
    Case(
        "rust-env-overrides-config",
        "Rust",
        one_session(
            "/home/ola/code/relay",
            Ask("I changed the port in config.toml but the server still listens on 8080."),
            Read(
                "src/config.rs",
                'pub fn load() -> Settings {\n    if std::env::var("APP_ENV").is_ok() {\n        return Settings::from_env();\n    }\n    Settings::from_file("config.toml")\n}',
            ),
            Run("env | grep APP_", "APP_ENV=dev\nAPP_PORT=8080"),
            Say(
                "That's why: when `APP_ENV` is set, `config::load` ignores `config.toml` entirely and reads every setting from `APP_*` environment variables. Your shell has `APP_ENV=dev` and `APP_PORT=8080`, so the file never gets read. Either unset `APP_ENV` or change `APP_PORT`."
            ),
        ),
        items=(
            _high(
                "When `APP_ENV` is set, `config.toml` is ignored and settings come from `APP_*` environment variables.",
                ["APP_ENV"],
                ["config\\.toml", "environment variables"],
            ),
        ),
    ),
    Case(
        "django-unmanaged-models",
        "Python/Django",
        one_session(
            "/home/ria/work/warehouse",
            Ask("I added a column to the Report model but makemigrations says no changes."),
            Run("python manage.py makemigrations reports", "No changes detected in app 'reports'"),
            Read(
                "reports/models.py",
                "class Report(models.Model):\n    title = models.CharField(max_length=200)\n    region = models.CharField(max_length=20)\n\n    class Meta:\n        managed = False\n        db_table = 'rpt_report'",
            ),
            Say(
                "The reason is `managed = False` on the `reports` models: Django never writes migrations for them. Those tables are created and altered by the SQL files in `db/sql/`, so the new column needs an `ALTER TABLE` there."
            ),
        ),
        items=(
            _high(
                "The `reports` models are unmanaged (`managed = False`): schema changes go in the SQL files of `db/sql/`, not migrations.",
                ["managed = False", "unmanaged"],
                ["db/sql", "migrations?"],
            ),
        ),
    ),
    Case(
        "dotnet-release-nullable",
        "C#/.NET",
        one_session(
            "/home/ivo/src/Shipping",
            Ask("CI failed on my branch but it builds for me."),
            Run("dotnet build", "Build succeeded.\n    2 Warning(s)\n    0 Error(s)"),
            Run(
                "dotnet build -c Release",
                "/home/ivo/src/Shipping/src/Shipping.Api/Labels.cs(31,16): error CS8602: Dereference of a possibly null reference. [/home/ivo/src/Shipping/src/Shipping.Api/Shipping.Api.csproj]\n\nBuild FAILED.",
                1,
            ),
            Say(
                "CI builds in Release, and `Directory.Build.props` turns the nullable warnings into errors only for the Release configuration (`<WarningsAsErrors>nullable</WarningsAsErrors>`). Debug shows them as warnings, which is why it built for you. Build with `-c Release` before pushing. I added the null check in `Labels.cs`."
            ),
            Edit(
                "src/Shipping.Api/Labels.cs",
                "return parcel.Label.Text;",
                "return parcel.Label?.Text ?? string.Empty;",
            ),
            Run("dotnet build -c Release", "Build succeeded.\n    0 Warning(s)\n    0 Error(s)"),
            Say("Release builds."),
        ),
        items=(
            _high(
                "Nullable warnings are errors only in Release (Directory.Build.props); build with `-c Release` before pushing.",
                ["Release"],
                ["nullable", "WarningsAsErrors"],
            ),
        ),
    ),
    Case(
        "pnpm-workspace-missing",
        "JavaScript (pnpm monorepo)",
        one_session(
            "/home/kai/web/console",
            Ask("pnpm test passes but the legacy-ui tests never seem to run?"),
            Run(
                "pnpm -r test",
                "Scope: 4 of 5 workspace projects\npackages/api test: 31 passed\npackages/ui test: 88 passed",
            ),
            Read(
                "pnpm-workspace.yaml",
                "packages:\n  - 'packages/api'\n  - 'packages/ui'\n  - 'packages/shared'\n  - 'apps/*'",
            ),
            Say(
                "Right: `pnpm -r test` only visits the packages listed in `pnpm-workspace.yaml`, and `packages/legacy-ui` isn't there, so its tests never run. Until it's added to the workspace it has to be tested on its own with `pnpm --dir packages/legacy-ui test`."
            ),
        ),
        items=(
            _high(
                "`packages/legacy-ui` is not in `pnpm-workspace.yaml`: `pnpm -r test` skips it; test it with `pnpm --dir packages/legacy-ui test`.",
                ["legacy-ui"],
                ["pnpm-workspace", "workspace"],
            ),
        ),
    ),
    Case(
        "git-pre-push-hook",
        "shell (git hooks, Make)",
        one_session(
            "/home/ops/infra-scripts",
            Ask("Push the branch."),
            Run(
                "git push origin fix/rotate-keys",
                "Running make lint...\nshellcheck scripts/rotate.sh\n\nIn scripts/rotate.sh line 12:\nfor k in $(ls keys/); do\n         ^--------^ SC2045 (error): Iterating over ls output is fragile. Use globs.\n\nmake: *** [Makefile:7: lint] Error 1\nerror: failed to push some refs to 'github.com:ops/infra-scripts.git'",
                1,
            ),
            Say(
                "The push was stopped by the repository's pre-push hook: `.githooks/pre-push` (enabled with `git config core.hooksPath .githooks`) runs `make lint`, and shellcheck flagged the `ls` loop. The way through is fixing the lint error, not `--no-verify`; I replaced the loop with a glob."
            ),
            Edit("scripts/rotate.sh", "for k in $(ls keys/); do", "for k in keys/*; do"),
            Run(
                "git push origin fix/rotate-keys",
                "To github.com:ops/infra-scripts.git\n * [new branch]      fix/rotate-keys -> fix/rotate-keys",
            ),
            Say("Pushed."),
        ),
        items=(
            _high(
                "A pre-push hook (`.githooks/pre-push`, core.hooksPath) runs `make lint` (shellcheck); fix the lint, do not skip it.",
                ["pre-push"],
                ["make lint", "lint", "shellcheck"],
            ),
        ),
    ),
    Case(
        "ripgrep-ignored-folder",
        "Python (tool surprise)",
        one_session(
            "/home/ria/work/warehouse",
            Ask("Find where the generated client defines fetch_stock."),
            Run("rg -n 'def fetch_stock'", "", 1),
            Run(
                "grep -rn 'def fetch_stock' .",
                "./build/gen/client.py:88:def fetch_stock(session, sku):",
            ),
            Say(
                "`rg` found nothing because the generated client is written to `build/gen/`, which is listed in `.gitignore`, and ripgrep skips ignored files. `grep -r` (or `rg -uu`) searches it; it's `build/gen/client.py`, line 88."
            ),
        ),
        items=(
            _high(
                "The generated client lives in the git-ignored `build/gen/`; a search that respects .gitignore misses it (`rg -uu` / `grep -r`).",
                ["build/gen"],
                ["ignore", "-uu", "grep -r"],
            ),
        ),
    ),
    Case(
        "npm-republish-question",
        "JavaScript (npm package)",
        one_session(
            "/home/eli/code/hookshot",
            Ask("Can I re-publish 2.3.1 after fixing the README? It's already on npm."),
            Read(
                "package.json",
                '{\n  "name": "hookshot",\n  "version": "2.3.1",\n  "scripts": {"release": "np"}\n}',
            ),
            Say(
                "No: npm never lets a version number be published twice, even after `npm unpublish`. The README fix needs a new version; here that's `npm run release` (np), which bumps the version, tags `v2.3.2` and publishes."
            ),
        ),
        items=(
            _high(
                "A published npm version can't be republished; a fix needs a new version via `npm run release` (np).",
                ["npm run release", "new version", "bump"],
                ["publish"],
            ),
        ),
    ),
    # Quiet cases: nothing here is a lesson about the project.
    Case(
        "quiet-go-plan",
        "Go",
        one_session(
            "/home/tom/src/ledgerd",
            Ask("Add an endpoint that lists accounts by currency."),
            Say(
                "Plan: first I'll read the router in `internal/httpapi`, then add a `GET /accounts?currency=` handler, then a service method, and finally a table test for the handler."
            ),
        ),
        wrong=(_never("A plan stated as a fact.", ["currency", "table test", "first I'll"]),),
    ),
    Case(
        "quiet-elixir-guess",
        "Elixir",
        one_session(
            "/home/sam/dev/courier",
            Ask("The dispatcher test is flaky, any idea?"),
            Run(
                "mix test test/courier/dispatcher_test.exs",
                "  1) test retries a failed delivery (Courier.DispatcherTest)\n     ** (exit) exited in: GenServer.call(Courier.Dispatcher, :flush, 5000)\n         ** (EXIT) time out\n\n6 tests, 1 failure",
                2,
            ),
            Say(
                "I suspect the GenServer's call timeout is too short under load, but I haven't confirmed it yet; it could just as well be the retry timer. Let me rerun it a few times first."
            ),
            Run("mix test test/courier/dispatcher_test.exs", "......\n6 tests, 0 failures"),
            Say("It passed this time; I'll keep an eye on it."),
        ),
        wrong=(
            _never(
                "A guess stated as the cause.",
                ["timeout", "retry timer"],
                ["too short", "cause", "because", "under load"],
            ),
        ),
    ),
    Case(
        "quiet-rust-progress",
        "Rust",
        one_session(
            "/home/ola/code/relay",
            Ask("Bump serde and rebuild."),
            Edit("Cargo.toml", 'serde = "1.0.197"', 'serde = "1.0.210"'),
            Say("Updating the lockfile now, this takes a moment."),
            Run(
                "cargo update -p serde",
                "    Updating crates.io index\n    Updating serde v1.0.197 -> v1.0.210",
            ),
            Say("Step 2 of 3 done: the lockfile is updated. Moving on to the build."),
            Run(
                "cargo build",
                "   Compiling serde v1.0.210\n   Compiling relay v0.4.0 (/home/ola/code/relay)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 21.3s",
            ),
            Say("Built."),
        ),
        wrong=(
            _never(
                "A progress line kept.",
                ["step 2", "moving on", "takes a moment", "updating the lockfile"],
            ),
        ),
    ),
    Case(
        "quiet-php-restated-task",
        "PHP",
        one_session(
            "/var/www/invoicer",
            Ask("Make the invoice PDF show the customer's VAT number under the address."),
            Say(
                "So the goal is: the invoice PDF should show the customer's VAT number directly under the billing address, and only when the customer has one. I'll start with the PDF template."
            ),
        ),
        wrong=(_never("The task said back as a fact.", ["VAT number"]),),
    ),
    Case(
        "quiet-kotlin-question",
        "Kotlin",
        one_session(
            "/Users/lea/AndroidStudioProjects/tides",
            Ask("Replace the old tide endpoint with the v2 one."),
            Say(
                "Before I change it: should I keep the old `/tides` endpoint around for backwards compatibility with the 3.x app, or remove it outright?"
            ),
        ),
        wrong=(_never("A question stated as a fact.", ["backwards compat", "old `?/tides"]),),
    ),
    Case(
        "quiet-js-taken-back",
        "JavaScript",
        one_session(
            "/home/kai/web/storefront",
            Ask("The date test fails on my machine only."),
            Run(
                "npm test -- src/dates.test.js",
                ' FAIL  src/dates.test.js\n  ● formats the delivery date\n    Expected: "12/03/2026"\n    Received: "03/12/2026"\nTests:       1 failed, 7 passed, 8 total',
                1,
            ),
            Say(
                "I thought it was the system locale, but no: it fails with `LANG=C` too. Still looking."
            ),
            Run(
                "LANG=C npm test -- src/dates.test.js",
                " FAIL  src/dates.test.js\nTests:       1 failed, 7 passed, 8 total",
                1,
            ),
            Say("Not the locale. I'll check the fixture next."),
        ),
        wrong=(
            _never(
                "A cause taken back stated as the cause.",
                ["locale", "LANG"],
                ["because", "cause", "is the", "was the", "due to"],
            ),
        ),
    ),
    Case(
        "quiet-csharp-done-line",
        "C#",
        one_session(
            "/home/ivo/src/Shipping",
            Ask("Rename ParcelDto to ParcelResponse everywhere."),
            Run(
                "grep -rl ParcelDto src tests",
                "src/Shipping.Api/ParcelDto.cs\nsrc/Shipping.Api/ParcelsController.cs\ntests/Shipping.Tests/ParcelsControllerTests.cs",
            ),
            Say("I've renamed it in the three files and updated the usings; the rename is done."),
        ),
        wrong=(_never("A done line stated as a fact.", ["renamed", "three files"]),),
    ),
    Case(
        "quiet-shell-maybe",
        "shell",
        one_session(
            "/home/ops/infra-scripts",
            Ask("backup.sh printed a warning last night, check it?"),
            Read(
                "scripts/backup.sh",
                '#!/usr/bin/env bash\nset -euo pipefail\ntar czf "/backups/$(date +%F).tgz" /srv/data',
            ),
            Say(
                "Maybe the disk was nearly full when it ran, or maybe tar hit a file that changed while it was being read; without last night's log I can't tell which. Could you paste the warning?"
            ),
        ),
        wrong=(
            _never("A guess stated as a fact.", ["disk", "file that changed", "changed while"]),
        ),
    ),
    Case(
        "quiet-python-next-steps",
        "Python",
        one_session(
            "/home/ria/work/tally",
            Ask("What's left on the export feature?"),
            Say(
                "Next steps: I'd add the CSV writer, then hook it to the `export` command, and we could consider a JSON format later if anyone asks for it."
            ),
        ),
        wrong=(
            _never("Next steps stated as a fact.", ["CSV writer", "JSON format", "export command"]),
        ),
    ),
)


def write_all(cases: Sequence[Case] = CASES, folder: Path | None = None) -> dict[str, list[Path]]:
    """Each case's transcripts, written under `folder` (a new temporary folder when None)."""
    where = folder or Path(tempfile.mkdtemp(prefix="learned-cases-"))
    return {case.name: write_sessions(where, case.name, case.sessions) for case in cases}
