# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z`: unseen projects' shapes, over the ecosystems the other parts hold
least: a CI matrix's oldest versions beside the version file, a test run filtered to a tag that
ran nothing, a colleague's habit, a Rails engine whose gemspec lists three database gems for its
dummy app, a Ruby bumped in the session, a linter the assistant proposed and the user declined,
an NUnit sample beside xUnit tests, a run filtered to one test class, an old SDK's container, an
Android app's Node mock server, a Gradle included build's own test library, a Swift filter that
matched no test, a Zig library's Python bindings, a build that needs the Nix dev shell, a
formatter the user turned down and a Terraform version CI still pins
(`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
As first run, four of the sixteen stated a wrong fact (6 wrong memories, 5 start lines). Reading
the memories found two more no pattern caught ("Data layer: SQLite." from the engine's test
dummy app, and "… is written in Zig and Python", which the Zig pattern missed because the
project's folder name holds "bindings"); the patterns were widened to catch them. One pattern
was the trap's own mistake: `dotnet test`'s example form (`e.g. dotnet test --filter …`) shows
how to select tests and is no routine; the pattern now spares it. With the final patterns the
rules before this part's fixes state a wrong fact in five traps (7 memories, 5 start lines).

Two traps were added after those fixes, their patterns written before they ran:
`rust-lib-zero-tests` stated a wrong fact (1 memory, 1 start line); reading the memories found
two more ("The assistant reported passing: to run the tests, `tests/`." and "To migrate the
database: `mix ecto.create`."), and the patterns were widened to catch them: 2 traps, 3
memories, 3 start lines.

The fixes, each at its rule:

- `swift test --filter ParserTest` (0 tests) and `cargo test --lib` (0 tests) as the test
  command: XCTest's outermost "Executed 0 tests" and libtest's "0 passed; 0 failed" in every
  binary are runs of no test;
- `dotnet test --filter …`, then `dotnet test`, as the routine asked for: a narrower run the
  turn later ran whole is no step;
- npm as the Android app's package manager: a manager run only in one sub-folder is said of
  that folder;
- "Data layer: SQLite." from the engine's `test/dummy/config/database.yml`: a tests folder's
  configured database is the tests' own;
- "Zig and Python project": code in a `bindings/` folder is the project used from another
  language;
- "To migrate the database: `mix ecto.create`": the command table no longer says creating the
  database migrates; and "reported passing: … `tests/`": a folder is no command.

After them all 200 traps read 0 wrong.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Trap, Write

#: A line that does not turn the fact down: what follows must not be said as a plain truth.
_NEG = r"^(?![^\n]*\b(?:stop\w*|don't|do not|never|no longer|not|no|nothing|instead|fail\w*|could\s?n[o']t|without|declin\w*|would|if|only|matched no|0 tests|zero)\b)"

ELIXIR_CI_MATRIX = Trap(
    "elixir-ci-matrix-version",
    "Elixir/Phoenix",
    "the CI matrix tests Elixir 1.14 and 1.15 on OTP 25 for the library's users; the project "
    "itself runs the `.tool-versions` pins, Elixir 1.16.2 on OTP 26",
    (
        Session(
            "claude",
            "/home/maya/src/ledger_live",
            (
                Ask(
                    "CI is red on one cell of the matrix since yesterday. Find out why and fix it without dropping the cell."
                ),
                Read(".tool-versions", "elixir 1.16.2-otp-26\nerlang 26.2.1\n"),
                Read(
                    ".github/workflows/ci.yml",
                    "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-22.04\n    strategy:\n      matrix:\n        include:\n"
                    "          - elixir: '1.14.5'\n            otp: '25.3'\n          - elixir: '1.15.7'\n            otp: '25.3'\n          - elixir: '1.16.2'\n            otp: '26.2'\n"
                    "    services:\n      postgres:\n        image: postgres:16\n        env:\n          POSTGRES_PASSWORD: postgres\n        ports: ['5432:5432']\n"
                    "    steps:\n      - uses: actions/checkout@v4\n      - uses: erlef/setup-beam@v1\n        with:\n          elixir-version: ${{ matrix.elixir }}\n          otp-version: ${{ matrix.otp }}\n"
                    "      - run: mix deps.get\n      - run: mix test\n",
                ),
                Read(
                    "mix.exs",
                    'defmodule LedgerLive.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :ledger_live, version: "0.9.0", elixir: "~> 1.14", deps: deps()]\n  end\n\n'
                    '  defp deps do\n    [\n      {:phoenix, "~> 1.7.11"},\n      {:phoenix_live_view, "~> 0.20.2"},\n      {:ecto_sql, "~> 3.11"},\n      {:postgrex, ">= 0.0.0"},\n      {:jason, "~> 1.4"}\n    ]\n  end\nend\n',
                ),
                Run(
                    "gh run view --log-failed | tail -3",
                    "test (1.14.5, 25.3)\tRun mix test\t  1) test strips invalid bytes from memos (LedgerLive.EntriesTest)\n"
                    "test (1.14.5, 25.3)\tRun mix test\t     ** (UndefinedFunctionError) function String.replace_invalid/2 is undefined or private\n",
                ),
                Edit(
                    "lib/ledger_live/entries.ex",
                    '    |> String.replace_invalid("")\n',
                    "    |> scrub_invalid()\n",
                ),
                Run(
                    "mix test",
                    "Running ExUnit with seed: 40211, max_cases: 16\n\n...............................................\nFinished in 1.9 seconds (0.6s async, 1.3s sync)\n47 tests, 0 failures\n",
                ),
                Say(
                    "The 1.14 cell failed because `String.replace_invalid/2` only exists since Elixir 1.16, which we run locally. "
                    "I replaced it with a small `scrub_invalid/1` helper; the 47 tests pass here on the `.tool-versions` Elixir 1.16.2 / OTP 26, and the matrix keeps its cells."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG
            + r"(?![^\n]*\b(?:CI|matrix|cells?|since)\b)[^\n]*\b(?:Elixir|Erlang|OTP)[ :v]*(?:1\.14|1\.15|25)\b",
            "1.14, 1.15 and OTP 25 are CI's oldest cells; the project runs Elixir 1.16.2 on OTP 26",
        ),
    ),
    may=(r"1\.16",),
)

ELIXIR_ONLY_TAG_ZERO = Trap(
    "elixir-only-tag-zero",
    "Elixir",
    "`mix test --only integration` ends with 0 tests (no test has that tag; the tag is "
    "`:external`); plain `mix test` runs the 58 tests",
    (
        Session(
            "codex",
            "/home/oskar/code/postbox",
            (
                Ask(
                    "The SMTP adapter retries forever when the server answers 421. Cap it at three attempts and run the integration tests."
                ),
                Read(
                    "lib/postbox/smtp.ex",
                    "  defp deliver(conn, mail, attempt) do\n    case :gen_smtp_client.send_blocking(mail, conn.opts) do\n"
                    "      {:error, :retries_exceeded, {:temporary_failure, _, _}} -> deliver(conn, mail, attempt + 1)\n      other -> other\n    end\n  end\n",
                ),
                Edit(
                    "lib/postbox/smtp.ex",
                    "      {:error, :retries_exceeded, {:temporary_failure, _, _}} -> deliver(conn, mail, attempt + 1)\n",
                    "      {:error, :retries_exceeded, {:temporary_failure, _, _}} when attempt < 3 -> deliver(conn, mail, attempt + 1)\n",
                ),
                Run(
                    "mix test --only integration",
                    "Including tags: [:integration]\nExcluding tags: [:test]\n\n\nFinished in 0.04 seconds (0.00s async, 0.04s sync)\n0 tests, 0 failures (58 excluded)\n",
                ),
                Run(
                    "grep -rn '@tag\\|@moduletag' test | head -3",
                    "test/postbox/smtp_live_test.exs:2:  @moduletag :external\ntest/postbox/relay_test.exs:3:  @moduletag :external\n",
                ),
                Run(
                    "mix test",
                    "Running ExUnit with seed: 7713, max_cases: 8\nExcluding tags: [:external]\n\n..........................................................\nFinished in 2.3 seconds (1.1s async, 1.2s sync)\n58 tests, 0 failures, 6 excluded\n",
                ),
                Say(
                    "Retries now stop after three attempts. `mix test --only integration` ran nothing: no test carries that tag (the live ones are tagged `:external` and need a real SMTP server). "
                    "Plain `mix test` passes: 58 tests, the 6 `:external` ones excluded."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*mix test --only integration",
            "`mix test --only integration` ran 0 tests: no test has that tag",
        ),
    ),
    may=(r"`mix test`",),
)

ELIXIR_COLLEAGUE_MIGRATIONS = Trap(
    "elixir-colleague-migrations",
    "Elixir/Ecto",
    "the user says a colleague always writes migrations as raw SQL in `execute/1`, and that "
    "they themselves want the Ecto DSL",
    (
        Session(
            "claude",
            "/home/lin/work/kitchen_orders",
            (
                Ask(
                    "Add a `prepared_at` timestamp to orders. Priya always writes her migrations as raw SQL inside execute/1, "
                    "but I find that unreadable, so please use the Ecto migration DSL."
                ),
                Run(
                    "mix ecto.gen.migration add_prepared_at_to_orders",
                    "* creating priv/repo/migrations/20261204101512_add_prepared_at_to_orders.exs\n",
                ),
                Write(
                    "priv/repo/migrations/20261204101512_add_prepared_at_to_orders.exs",
                    "defmodule KitchenOrders.Repo.Migrations.AddPreparedAtToOrders do\n  use Ecto.Migration\n\n  def change do\n"
                    "    alter table(:orders) do\n      add :prepared_at, :utc_datetime\n    end\n  end\nend\n",
                ),
                Edit(
                    "lib/kitchen_orders/orders/order.ex",
                    "    field :status, Ecto.Enum, values: [:new, :cooking, :done]\n",
                    "    field :status, Ecto.Enum, values: [:new, :cooking, :done]\n    field :prepared_at, :utc_datetime\n",
                ),
                Run(
                    "mix ecto.migrate",
                    "10:15:31.204 [info] == Running 20261204101512 KitchenOrders.Repo.Migrations.AddPreparedAtToOrders.change/0 forward\n"
                    "10:15:31.210 [info] alter table orders\n10:15:31.219 [info] == Migrated 20261204101512 in 0.0s\n",
                ),
                Run(
                    "mix test",
                    "Running ExUnit with seed: 1120, max_cases: 8\n\n.................................\nFinished in 0.8 seconds (0.3s async, 0.5s sync)\n33 tests, 0 failures\n",
                ),
                Say(
                    "Added the migration with `alter table` / `add`, and the field on the schema; migrated, and the 33 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:Priya|colleague|unreadable|not|don't|instead)\b)[^\n]*\b(?:raw SQL|execute/1|execute\()",
            "raw SQL in `execute/1` is the colleague's habit; the user wants the DSL",
        ),
    ),
    may=(r"DSL",),
)

RAILS_ENGINE_DUMMY = Trap(
    "rails-engine-dummy-app",
    "Ruby/Rails engine",
    "a Rails engine gem whose gemspec lists sqlite3, pg and mysql2 as development dependencies "
    "and whose `test/dummy` app runs on SQLite; the gem stores nothing of its own",
    (
        Session(
            "claude",
            "/home/rui/gems/audit_trail",
            (
                Ask(
                    '`AuditTrail.record` crashes when the actor is nil (system jobs). Make it record `actor_type: "system"` instead.'
                ),
                Read(
                    "audit_trail.gemspec",
                    'Gem::Specification.new do |spec|\n  spec.name        = "audit_trail"\n  spec.version     = AuditTrail::VERSION\n  spec.summary     = "Records who changed what in a Rails app."\n'
                    '  spec.files = Dir["{app,config,db,lib}/**/*", "MIT-LICENSE", "README.md"]\n\n  spec.add_dependency "rails", ">= 7.0"\n\n'
                    '  spec.add_development_dependency "sqlite3", "~> 1.7"\n  spec.add_development_dependency "pg", "~> 1.5"\n  spec.add_development_dependency "mysql2", "~> 0.5"\nend\n',
                ),
                Read(
                    "test/dummy/config/database.yml",
                    "default: &default\n  adapter: sqlite3\n  pool: 5\n  timeout: 5000\n\ndevelopment:\n  <<: *default\n  database: db/development.sqlite3\n\ntest:\n  <<: *default\n  database: db/test.sqlite3\n",
                ),
                Read(
                    "lib/audit_trail/recorder.rb",
                    "module AuditTrail\n  class Recorder\n    def record(record, actor:, action:)\n"
                    "      Entry.create!(auditable: record, action: action, actor_type: actor.class.name, actor_id: actor.id)\n    end\n  end\nend\n",
                ),
                Edit(
                    "lib/audit_trail/recorder.rb",
                    "actor_type: actor.class.name, actor_id: actor.id)",
                    'actor_type: actor ? actor.class.name : "system", actor_id: actor&.id)',
                ),
                Run(
                    "bundle exec rake test",
                    "Run options: --seed 2291\n\n# Running:\n\n.........................\n\nFinished in 0.412s, 60.68 runs/s, 131.06 assertions/s.\n25 runs, 54 assertions, 0 failures, 0 errors, 0 skips\n",
                ),
                Say(
                    'A nil actor is now recorded as `actor_type: "system"` with no id. The engine\'s tests (run against the dummy app) pass: 25 runs, 0 failures.'
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"(?![^\n]*\bdevelopment\b)[^\n]*\b(?:PostgreSQL|Postgres|MySQL)\b",
            "the gem stores nothing of its own; its dummy app runs on SQLite and nothing showed "
            "which databases the gem is tested on",
        ),
        (
            r"^(?![^\n]*\b(?:dummy|tests?)\b)[^\n]*\b(?:Database|Data layer)\b[^\n]*\bSQLite",
            "SQLite is the test dummy app's database; the engine writes to its host app's",
        ),
    ),
    may=(r"rake test",),
)

RUBY_BUMPED_IN_SESSION = Trap(
    "ruby-bumped-in-session",
    "Ruby/Rails",
    "`.ruby-version` says 3.2.2 when the session starts; the session moves the app to Ruby "
    "3.3.0 and the tests pass on it",
    (
        Session(
            "claude",
            "/home/noor/apps/greenhouse",
            (
                Ask("Move the app to Ruby 3.3.0 and make sure the tests still pass."),
                Read(".ruby-version", "3.2.2\n"),
                Read(
                    "Gemfile",
                    'source "https://rubygems.org"\n\nruby "3.2.2"\n\ngem "rails", "~> 7.1.3"\ngem "pg", "~> 1.5"\ngem "puma", ">= 5.0"\n\n'
                    'group :development, :test do\n  gem "rspec-rails", "~> 6.1"\nend\n',
                ),
                Run("ruby -v", "ruby 3.2.2 (2023-03-30 revision e51014f9c0) [x86_64-linux]\n"),
                Write(".ruby-version", "3.3.0\n"),
                Edit("Gemfile", 'ruby "3.2.2"', 'ruby "3.3.0"'),
                Run(
                    "rbenv install -s 3.3.0 && ruby -v",
                    "ruby 3.3.0 (2023-12-25 revision 5124f9ac75) [x86_64-linux]\n",
                ),
                Run(
                    "bundle install",
                    "Fetching gem metadata from https://rubygems.org/.........\nResolving dependencies...\nBundle complete! 9 Gemfile dependencies, 88 gems now installed.\n",
                ),
                Run(
                    "bundle exec rspec",
                    "........................................................................\n\nFinished in 6.31 seconds (files took 1.92 seconds to load)\n72 examples, 0 failures\n",
                ),
                Say(
                    "The app now pins Ruby 3.3.0 in `.ruby-version` and the Gemfile; the bundle installed on it and the 72 examples pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:from|was|previous\w*|old|moved|3\.3)\b)[^\n]*\bRuby\W+3\.2",
            "the session moved the app from Ruby 3.2.2 to 3.3.0",
        ),
    ),
    may=(r"3\.3\.0",),
)

RUBOCOP_DECLINED = Trap(
    "rubocop-declined",
    "Ruby",
    "the assistant proposes running `bundle exec rubocop -a`; the user declines: the project "
    "lints with standardrb, and the `.rubocop.yml` is a leftover",
    (
        Session(
            "claude",
            "/home/elsa/code/tidewater",
            (
                Ask(
                    "Extract the tide table parsing out of TidesController into a TideTable class."
                ),
                Read(
                    "app/controllers/tides_controller.rb",
                    'class TidesController < ApplicationController\n  def index\n    rows = File.readlines(params[:file]).map { |l| l.split(";") }\n    @tides = rows.map { |r| { at: Time.parse(r[0]), height: r[1].to_f } }\n  end\nend\n',
                ),
                Write(
                    "app/models/tide_table.rb",
                    'class TideTable\n  def self.parse(io)\n    io.each_line.map do |line|\n      at, height = line.split(";")\n      {at: Time.parse(at), height: height.to_f}\n    end\n  end\nend\n',
                ),
                Edit(
                    "app/controllers/tides_controller.rb",
                    '    rows = File.readlines(params[:file]).map { |l| l.split(";") }\n    @tides = rows.map { |r| { at: Time.parse(r[0]), height: r[1].to_f } }\n',
                    "    @tides = File.open(params[:file]) { |f| TideTable.parse(f) }\n",
                ),
                Run(
                    "bin/rails test",
                    "Running 41 tests in a single process (parallelization threshold is 50)\nRun options: --seed 6120\n\n# Running:\n\n.........................................\n\nFinished in 1.204s, 34.05 runs/s, 70.62 assertions/s.\n41 runs, 85 assertions, 0 failures, 0 errors, 0 skips\n",
                ),
                Run("ls -a | grep rubocop", ".rubocop.yml\n"),
                Say(
                    "`TideTable.parse` now holds the parsing; the controller calls it, and the 41 tests pass. There is a `.rubocop.yml`: shall I run `bundle exec rubocop -a` over the changed files?"
                ),
                Ask(
                    "No, don't run rubocop, that .rubocop.yml is left over from before. We lint with standardrb: run `bundle exec standardrb --fix` on what you touched."
                ),
                Run(
                    "bundle exec standardrb --fix app/models/tide_table.rb app/controllers/tides_controller.rb",
                    "",
                ),
                Say("standardrb had nothing more to fix on the two files."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:don't|do not|not|no|never|left ?over|stale|instead)\b)[^\n]*\brubocop\b",
            "the user declined rubocop; the project lints with standardrb",
        ),
    ),
    may=(r"standardrb",),
)

DOTNET_SAMPLE_NUNIT = Trap(
    "dotnet-sample-nunit",
    "C#/.NET",
    "the library's tests use xUnit; a `samples/` plugin for the library's users has its own "
    "test project on NUnit, which the session reads",
    (
        Session(
            "claude",
            "/home/sven/src/Ledgerline",
            (
                Ask(
                    "Plugins can't register a currency formatter any more since the last refactor. Find out why; the sample plugin shows the failure."
                ),
                Run(
                    "find . -name '*.csproj' -not -path '*/bin/*'",
                    "./src/Ledgerline/Ledgerline.csproj\n./tests/Ledgerline.Tests/Ledgerline.Tests.csproj\n./samples/CurrencyPlugin/CurrencyPlugin.csproj\n./samples/CurrencyPlugin.Tests/CurrencyPlugin.Tests.csproj\n",
                ),
                Read(
                    "tests/Ledgerline.Tests/Ledgerline.Tests.csproj",
                    '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <IsPackable>false</IsPackable>\n  </PropertyGroup>\n  <ItemGroup>\n'
                    '    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.9.0" />\n    <PackageReference Include="xunit" Version="2.7.0" />\n    <PackageReference Include="xunit.runner.visualstudio" Version="2.5.7" />\n  </ItemGroup>\n'
                    '  <ItemGroup>\n    <ProjectReference Include="..\\..\\src\\Ledgerline\\Ledgerline.csproj" />\n  </ItemGroup>\n</Project>\n',
                ),
                Read(
                    "samples/CurrencyPlugin.Tests/CurrencyPlugin.Tests.csproj",
                    '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n  <ItemGroup>\n'
                    '    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.9.0" />\n    <PackageReference Include="NUnit" Version="4.1.0" />\n    <PackageReference Include="NUnit3TestAdapter" Version="4.5.0" />\n  </ItemGroup>\n'
                    '  <ItemGroup>\n    <ProjectReference Include="..\\CurrencyPlugin\\CurrencyPlugin.csproj" />\n  </ItemGroup>\n</Project>\n',
                ),
                Read(
                    "src/Ledgerline/Plugins/PluginHost.cs",
                    "public sealed class PluginHost\n{\n    private readonly Dictionary<string, IFormatter> _formatters = new();\n\n    internal void Register(string currency, IFormatter formatter) => _formatters[currency] = formatter;\n}\n",
                ),
                Edit(
                    "src/Ledgerline/Plugins/PluginHost.cs",
                    "    internal void Register(string currency, IFormatter formatter)",
                    "    public void Register(string currency, IFormatter formatter)",
                ),
                Run(
                    "dotnet test tests/Ledgerline.Tests",
                    "  Determining projects to restore...\n  Ledgerline -> /home/sven/src/Ledgerline/src/Ledgerline/bin/Debug/net8.0/Ledgerline.dll\n  Ledgerline.Tests -> /home/sven/src/Ledgerline/tests/Ledgerline.Tests/bin/Debug/net8.0/Ledgerline.Tests.dll\n"
                    "Test run for /home/sven/src/Ledgerline/tests/Ledgerline.Tests/bin/Debug/net8.0/Ledgerline.Tests.dll (.NETCoreApp,Version=v8.0)\n\nPassed!  - Failed:     0, Passed:   112, Skipped:     0, Total:   112, Duration: 1 s - Ledgerline.Tests.dll (net8.0)\n",
                ),
                Say(
                    "The refactor made `PluginHost.Register` internal, so plugins outside the assembly could no longer call it; it is public again. The library's 112 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"(?![^\n]*\bsamples?\b)[^\n]*\bNUnit",
            "NUnit is the sample plugin's; the library's tests use xUnit",
        ),
    ),
    may=(r"xunit", r"dotnet test"),
)

DOTNET_FILTER_ONE_CLASS = Trap(
    "dotnet-filter-one-class",
    "C#/.NET",
    "`dotnet test --filter FullyQualifiedName~InvoiceTotalsTests` is run twice while fixing "
    "rounding; the whole suite is `dotnet test` at the end",
    (
        Session(
            "codex",
            "/home/ada/dev/Billing",
            (
                Ask(
                    "Invoice totals are off by a cent when a line has three decimals. Fix the rounding, test it, and run everything at the end."
                ),
                Read(
                    "src/Billing/InvoiceTotals.cs",
                    "public static decimal Total(IEnumerable<Line> lines) =>\n    lines.Sum(l => Math.Round(l.Quantity * l.UnitPrice, 2));\n",
                ),
                Run(
                    "dotnet test --filter FullyQualifiedName~InvoiceTotalsTests",
                    "Failed Billing.Tests.InvoiceTotalsTests.ThreeDecimalLinesRoundOnce [12 ms]\n  Error Message:\n   Assert.Equal() Failure: Values differ\nExpected: 10.01\nActual:   10.00\n\n"
                    "Failed!  - Failed:     1, Passed:     7, Skipped:     0, Total:     8, Duration: 48 ms - Billing.Tests.dll (net8.0)\n",
                    1,
                ),
                Edit(
                    "src/Billing/InvoiceTotals.cs",
                    "    lines.Sum(l => Math.Round(l.Quantity * l.UnitPrice, 2));\n",
                    "    Math.Round(lines.Sum(l => l.Quantity * l.UnitPrice), 2, MidpointRounding.AwayFromZero);\n",
                ),
                Run(
                    "dotnet test --filter FullyQualifiedName~InvoiceTotalsTests",
                    "Passed!  - Failed:     0, Passed:     8, Skipped:     0, Total:     8, Duration: 41 ms - Billing.Tests.dll (net8.0)\n",
                ),
                Run(
                    "dotnet test",
                    "Passed!  - Failed:     0, Passed:   264, Skipped:     0, Total:   264, Duration: 3 s - Billing.Tests.dll (net8.0)\n",
                ),
                Say(
                    "Totals now round once, over the sum, away from zero. The invoice-total tests pass, and so does the whole suite (264 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:one class|only|iterat\w*|while)\b)(?![^\n]*e\.g\. `dotnet test --filter)[^\n]*dotnet test --filter",
            "the filtered run was the inner loop on one test class; the suite is `dotnet test`",
        ),
    ),
    may=(r"`dotnet test`",),
)

DOTNET_OLD_SDK_CONTAINER = Trap(
    "dotnet-old-sdk-container",
    "C#/.NET",
    "a customer's build is reproduced in the .NET 6 SDK's container, where the net8.0 project "
    "cannot build; the project itself targets .NET 8 and its tests pass on the machine's SDK 8",
    (
        Session(
            "claude",
            "/home/jon/src/Shipwright",
            (
                Ask(
                    "A customer says Shipwright doesn't build for them. They're on the .NET 6 SDK. Can you reproduce it?"
                ),
                Read(
                    "src/Shipwright/Shipwright.csproj",
                    '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n    <LangVersion>12</LangVersion>\n  </PropertyGroup>\n</Project>\n',
                ),
                Run("dotnet --version", "8.0.204\n"),
                Run(
                    'docker run --rm -v "$PWD":/src -w /src mcr.microsoft.com/dotnet/sdk:6.0 dotnet --version',
                    "6.0.428\n",
                ),
                Run(
                    'docker run --rm -v "$PWD":/src -w /src mcr.microsoft.com/dotnet/sdk:6.0 dotnet build',
                    "/usr/share/dotnet/sdk/6.0.428/Sdks/Microsoft.NET.Sdk/targets/Microsoft.NET.TargetFrameworkInference.targets(144,5): error NETSDK1045: The current .NET SDK does not support targeting .NET 8.0.  Either target .NET 6.0 or lower, or use a version of the .NET SDK that supports .NET 8.0. [/src/src/Shipwright/Shipwright.csproj]\n\nBuild FAILED.\n",
                    1,
                ),
                Run(
                    "dotnet test",
                    "Passed!  - Failed:     0, Passed:    97, Skipped:     0, Total:    97, Duration: 2 s - Shipwright.Tests.dll (net8.0)\n",
                ),
                Say(
                    "Reproduced: the .NET 6 SDK cannot build a project that targets net8.0 (NETSDK1045). The customer needs the .NET 8 SDK; on it the build and the 97 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:customer|cannot|can't|not|fail\w*|reproduc\w*)\b)[^\n]*(?:\.NET 6|SDK 6|sdk:6\.0|\b6\.0\.428\b|net6\.0)",
            ".NET 6 is the customer's SDK, run in a container; the project targets .NET 8",
        ),
    ),
    may=(r"net8\.0|\.NET 8",),
)

ANDROID_MOCK_SERVER = Trap(
    "android-mock-server-express",
    "Kotlin/Android",
    "an Android app whose instrumented tests talk to a small Express mock server under "
    "`mock-server/` (its own package.json, started with npm in the session)",
    (
        Session(
            "claude",
            "/home/kai/dev/trailmap-android",
            (
                Ask(
                    "The trail list screen crashes when the API returns an empty `segments` array. Fix it and add a case to the mock server so the UI test covers it."
                ),
                Read(
                    "app/build.gradle.kts",
                    'plugins {\n    id("com.android.application")\n    id("org.jetbrains.kotlin.android")\n    id("com.google.devtools.ksp")\n}\n\n'
                    'dependencies {\n    implementation("com.squareup.retrofit2:retrofit:2.11.0")\n    implementation("androidx.room:room-ktx:2.6.1")\n    ksp("androidx.room:room-compiler:2.6.1")\n'
                    '    testImplementation("junit:junit:4.13.2")\n    androidTestImplementation("androidx.test.espresso:espresso-core:3.5.1")\n}\n',
                ),
                Read(
                    "mock-server/package.json",
                    '{\n  "name": "trailmap-mock-server",\n  "private": true,\n  "scripts": { "start": "node server.js" },\n  "dependencies": { "express": "^4.19.2" }\n}\n',
                ),
                Read(
                    "app/src/main/java/dev/trailmap/list/TrailRow.kt",
                    "fun TrailRow.lengthKm(): Double = segments.first().lengthKm + segments.drop(1).sumOf { it.lengthKm }\n",
                ),
                Edit(
                    "app/src/main/java/dev/trailmap/list/TrailRow.kt",
                    "segments.first().lengthKm + segments.drop(1).sumOf { it.lengthKm }",
                    "segments.sumOf { it.lengthKm }",
                ),
                Edit(
                    "mock-server/server.js",
                    "app.get('/trails', (req, res) => res.json(trails));\n",
                    "app.get('/trails', (req, res) => res.json(trails));\napp.get('/trails/empty-segments', (req, res) => res.json([{ id: 9, name: 'Bare', segments: [] }]));\n",
                ),
                Run(
                    "cd mock-server && npm install && (npm start &) && cd ..",
                    "added 64 packages, and audited 65 packages in 2s\n\n> trailmap-mock-server@ start\n> node server.js\n\nmock API on :8089\n",
                ),
                Run(
                    "./gradlew testDebugUnitTest",
                    "> Task :app:testDebugUnitTest\n\nBUILD SUCCESSFUL in 41s\n38 actionable tasks: 7 executed, 31 up-to-date\n",
                ),
                Say(
                    "`lengthKm` called `first()` on an empty list; it now sums the segments, so an empty trail is 0 km. The mock server has an `/trails/empty-segments` case for the UI test, and the unit tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:mock|mock-server)\b)[^\n]*\b(?:Express|Node\.js|npm|package\.json)\b",
            "Express and npm are the test mock server's; the app is Android (Kotlin, Gradle)",
        ),
    ),
    may=(r"gradlew",),
)

GRADLE_BUILD_LOGIC_JUNIT4 = Trap(
    "gradle-build-logic-junit4",
    "Kotlin/Gradle",
    "a multi-module Gradle build tested with kotest on JUnit 5; the `build-logic/` included "
    "build's convention plugins have their own JUnit 4 tests",
    (
        Session(
            "claude",
            "/home/mei/code/sluice",
            (
                Ask(
                    "The `:pipeline` module's tests are slow since we added the parallel executor spec. Set kotest's parallelism so the specs run on 4 threads."
                ),
                Read(
                    "settings.gradle.kts",
                    'pluginManagement {\n    includeBuild("build-logic")\n}\nrootProject.name = "sluice"\ninclude(":core", ":pipeline", ":cli")\n',
                ),
                Read(
                    "build-logic/build.gradle.kts",
                    'plugins {\n    `kotlin-dsl`\n}\n\ndependencies {\n    implementation("org.jetbrains.kotlin:kotlin-gradle-plugin:1.9.23")\n    testImplementation("junit:junit:4.13.2")\n    testImplementation(gradleTestKit())\n}\n',
                ),
                Read(
                    "pipeline/build.gradle.kts",
                    'plugins {\n    id("sluice.kotlin-library")\n}\n\ndependencies {\n    implementation(project(":core"))\n    testImplementation("io.kotest:kotest-runner-junit5:5.8.1")\n    testImplementation("io.kotest:kotest-assertions-core:5.8.1")\n}\n\n'
                    "tasks.test {\n    useJUnitPlatform()\n}\n",
                ),
                Write(
                    "pipeline/src/test/kotlin/io/kotest/provided/ProjectConfig.kt",
                    "package io.kotest.provided\n\nimport io.kotest.core.config.AbstractProjectConfig\n\nobject ProjectConfig : AbstractProjectConfig() {\n    override val parallelism = 4\n}\n",
                ),
                Run(
                    "./gradlew :pipeline:test",
                    "> Task :pipeline:test\n\nBUILD SUCCESSFUL in 19s\n14 actionable tasks: 3 executed, 11 up-to-date\n",
                ),
                Say(
                    "kotest's project config in `:pipeline` now runs specs on 4 threads; `./gradlew :pipeline:test` passes in 19 s (it took about a minute before)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\bbuild-logic\b)[^\n]*\bJUnit 4|^(?![^\n]*\bbuild-logic\b)[^\n]*junit:junit",
            "JUnit 4 is the build logic's own test library; the modules test with kotest on JUnit 5",
        ),
    ),
    may=(r"kotest",),
)

SWIFT_FILTER_ZERO = Trap(
    "swift-filter-zero-tests",
    "Swift/SPM",
    "`swift test --filter ParserTest` executes 0 tests (the class is `ParserTests`); the "
    "right filter then runs 12, and `swift test` the whole suite",
    (
        Session(
            "claude",
            "/home/ivo/src/Frontmatter",
            (
                Ask(
                    "Frontmatter with CRLF line endings isn't detected. Fix it and run the parser tests, then everything."
                ),
                Read(
                    "Sources/Frontmatter/Parser.swift",
                    'public func split(_ text: String) -> (yaml: String, body: String)? {\n    guard text.hasPrefix("---\\n") else { return nil }\n'
                    '    let rest = text.dropFirst(4)\n    guard let end = rest.range(of: "\\n---\\n") else { return nil }\n'
                    "    return (String(rest[..<end.lowerBound]), String(rest[end.upperBound...]))\n}\n",
                ),
                Edit(
                    "Sources/Frontmatter/Parser.swift",
                    "public func split(_ text: String) -> (yaml: String, body: String)? {\n",
                    'public func split(_ raw: String) -> (yaml: String, body: String)? {\n    let text = raw.replacingOccurrences(of: "\\r\\n", with: "\\n")\n',
                ),
                Run(
                    "swift test --filter ParserTest",
                    "Building for debugging...\nBuild complete! (3.12s)\nTest Suite 'Selected tests' started at 2026-12-04 10:02:11.480.\n"
                    "Test Suite 'Selected tests' passed at 2026-12-04 10:02:11.481.\n\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001) seconds\n",
                ),
                Run(
                    "swift test --filter ParserTests",
                    "Building for debugging...\nBuild complete! (0.41s)\nTest Suite 'Selected tests' started at 2026-12-04 10:02:30.112.\n"
                    "Test Suite 'ParserTests' passed at 2026-12-04 10:02:30.140.\n\t Executed 12 tests, with 0 failures (0 unexpected) in 0.027 (0.028) seconds\n",
                ),
                Run(
                    "swift test",
                    "Building for debugging...\nBuild complete! (0.39s)\nTest Suite 'All tests' passed at 2026-12-04 10:02:41.733.\n\t Executed 57 tests, with 0 failures (0 unexpected) in 0.214 (0.220) seconds\n",
                ),
                Say(
                    "CRLF endings are normalised before the split. The first filter had a typo and matched no test; `ParserTests` runs 12 and they pass, and so does the whole suite (57 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:typo|no test|0 tests|matched no|nothing)\b)[^\n]*swift test --filter ParserTest(?!s)",
            "`--filter ParserTest` matched no test (a typo)",
        ),
    ),
    may=(r"`swift test`",),
)

ZIG_PYTHON_BINDINGS = Trap(
    "zig-python-bindings",
    "Zig",
    "a Zig library tested with `zig build test`, whose `bindings/python/` package (its own "
    "pyproject, pytest, cffi) the session reads to check an exported name",
    (
        Session(
            "codex",
            "/home/tove/code/quickhash",
            (
                Ask(
                    "Rename the exported `qh_digest` to `qh_hash64` in the C ABI, and check whether the Python bindings need the new name."
                ),
                Read(
                    "build.zig.zon",
                    '.{\n    .name = "quickhash",\n    .version = "0.4.1",\n    .minimum_zig_version = "0.12.0",\n    .paths = .{ "build.zig", "build.zig.zon", "src" },\n}\n',
                ),
                Read(
                    "src/c_api.zig",
                    "export fn qh_digest(ptr: [*]const u8, len: usize) u64 {\n    return hash.hash64(ptr[0..len]);\n}\n",
                ),
                Edit("src/c_api.zig", "export fn qh_digest(", "export fn qh_hash64("),
                Run(
                    "grep -rn qh_digest --include='*.py' --include='*.toml' .",
                    "./bindings/python/quickhash/_ffi.py:5:    uint64_t qh_digest(const uint8_t *ptr, size_t len);\n./bindings/python/quickhash/__init__.py:9:    return _lib.qh_digest(data, len(data))\n",
                ),
                Read(
                    "bindings/python/pyproject.toml",
                    '[project]\nname = "quickhash"\nversion = "0.4.1"\nrequires-python = ">=3.9"\ndependencies = ["cffi>=1.16"]\n\n[project.optional-dependencies]\ntest = ["pytest>=8"]\n',
                ),
                Edit("bindings/python/quickhash/_ffi.py", "qh_digest(", "qh_hash64("),
                Edit("bindings/python/quickhash/__init__.py", "_lib.qh_digest(", "_lib.qh_hash64("),
                Run(
                    "zig build test",
                    "",
                ),
                Run(
                    "zig build test --summary all | tail -2",
                    "Build Summary: 3/3 steps succeeded; 31/31 tests passed\ntest success\n",
                ),
                Say(
                    "The C ABI now exports `qh_hash64`; the Python bindings declared and called the old name, so I renamed it there too. `zig build test` passes (31 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*(?:\bbindings/|Python bindings))[^\n]*(?<!-)\b(?:pytest|cffi|pip|pyproject|Python)\b(?!-)",
            "Python, pytest and cffi are the bindings' own; the library is Zig, tested with `zig build test`",
        ),
    ),
    may=(r"zig build test",),
)

NIX_DEV_SHELL = Trap(
    "nix-develop-cargo",
    "Nix/Rust",
    "plain `cargo build` fails outside the flake's dev shell (openssl-sys finds no pkg-config); "
    "`nix develop -c cargo test` builds and passes",
    (
        Session(
            "claude",
            "/home/rasmus/src/feedhound",
            (
                Ask("Feeds with a BOM before `<?xml` fail to parse. Fix it and run the tests."),
                Read(
                    "flake.nix",
                    '{\n  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.05";\n  outputs = { self, nixpkgs }: let pkgs = nixpkgs.legacyPackages.x86_64-linux; in {\n'
                    "    devShells.x86_64-linux.default = pkgs.mkShell {\n      packages = [ pkgs.cargo pkgs.rustc pkgs.pkg-config pkgs.openssl ];\n    };\n  };\n}\n",
                ),
                Edit(
                    "src/parse.rs",
                    "    let doc = roxmltree::Document::parse(text)?;\n",
                    "    let doc = roxmltree::Document::parse(text.trim_start_matches('\\u{feff}'))?;\n",
                ),
                Run(
                    "cargo test",
                    "   Compiling openssl-sys v0.9.102\nerror: failed to run custom build command for `openssl-sys v0.9.102`\n\n--- stderr\n"
                    "Could not find directory of OpenSSL installation, and this `-sys` crate cannot proceed without this knowledge.\n"
                    "  The system library `openssl` required by crate `openssl-sys` was not found. pkg-config not found.\n",
                    101,
                ),
                Run(
                    "nix develop -c cargo test",
                    "   Compiling openssl-sys v0.9.102\n   Compiling feedhound v0.3.0 (/home/rasmus/src/feedhound)\n    Finished test [unoptimized + debuginfo] target(s) in 48.20s\n"
                    "     Running unittests src/main.rs (target/debug/deps/feedhound-9a1d3c)\n\nrunning 29 tests\n...\ntest result: ok. 29 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.07s\n",
                ),
                Say(
                    "The parser now skips a leading BOM. Outside the flake's dev shell `cargo test` can't find OpenSSL; inside it (`nix develop -c cargo test`) the 29 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*(?<!-c )(?<!develop )\bcargo (?:test|build)\b",
            "bare `cargo test` fails outside the dev shell; it runs as `nix develop -c cargo test`",
        ),
    ),
    may=(r"nix develop -c cargo test",),
)

OCAMLFORMAT_DECLINED = Trap(
    "ocamlformat-declined",
    "OCaml/dune",
    "the assistant offers to add an `.ocamlformat` and run `dune fmt`; the user turns it down "
    "(they do not use ocamlformat); the tests run with `dune test`",
    (
        Session(
            "claude",
            "/home/pia/src/tinyini",
            (
                Ask(
                    "Section names with spaces around them (`[ server ]`) should be trimmed. Fix the parser."
                ),
                Read(
                    "dune-project",
                    "(lang dune 3.14)\n(name tinyini)\n(package\n (name tinyini)\n (depends (ocaml (>= 4.14)) (alcotest :with-test)))\n",
                ),
                Read(
                    "src/parser.ml",
                    "let section line =\n  if String.length line > 1 && line.[0] = '[' then\n    Some (String.sub line 1 (String.length line - 2))\n  else None\n",
                ),
                Edit(
                    "src/parser.ml",
                    "    Some (String.sub line 1 (String.length line - 2))\n",
                    "    Some (String.trim (String.sub line 1 (String.length line - 2)))\n",
                ),
                Run(
                    "dune test",
                    "Testing `tinyini'.\nThis run has ID `R2X9QK'.\n\n  [OK]          parser          0   plain section.\n  [OK]          parser          1   spaced section.\n\nFull test results in `_build/default/test/_build/_tests/tinyini'.\nTest Successful in 0.004s. 19 tests run.\n",
                ),
                Say(
                    "Section names are trimmed now; `dune test` passes (19 tests). The repository has no `.ocamlformat`: want me to add one and run `dune fmt` so the formatting stays consistent?"
                ),
                Ask(
                    "No thanks, we don't use ocamlformat on this project, I format by hand. Leave it."
                ),
                Say("Understood, no formatter; the change stays as it is."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:don't|do not|not|no|never|by hand|without)\b)[^\n]*\b(?:ocamlformat|dune fmt|dune build @fmt)\b",
            "the user declined ocamlformat and `dune fmt`",
        ),
    ),
    may=(r"dune test",),
)

TERRAFORM_CI_PIN = Trap(
    "terraform-ci-pin",
    "Terraform",
    "CI's workflow still pins Terraform 1.5.7; the user says the team runs 1.8 (`.terraform-"
    "version`) and CI is behind, and the session moves CI to 1.8.5",
    (
        Session(
            "claude",
            "/home/bo/infra/edge-dns",
            (
                Ask(
                    "`terraform validate` passes on my machine but CI fails on the `removed` block. We're on 1.8 everywhere, CI is just behind. Fix CI."
                ),
                Read(".terraform-version", "1.8.5\n"),
                Read(
                    ".github/workflows/terraform.yml",
                    "jobs:\n  validate:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: hashicorp/setup-terraform@v3\n"
                    "        with:\n          terraform_version: 1.5.7\n      - run: terraform init -backend=false\n      - run: terraform validate\n",
                ),
                Read(
                    "versions.tf",
                    'terraform {\n  required_version = ">= 1.7.0"\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "~> 4.30"\n    }\n  }\n}\n',
                ),
                Edit(
                    ".github/workflows/terraform.yml",
                    "terraform_version: 1.5.7",
                    "terraform_version: 1.8.5",
                ),
                Run("terraform version", "Terraform v1.8.5\non linux_amd64\n"),
                Run(
                    "terraform init -backend=false",
                    "Initializing provider plugins...\n- Installing cloudflare/cloudflare v4.34.0...\n\nTerraform has been successfully initialized!\n",
                ),
                Run("terraform validate", "Success! The configuration is valid.\n\n"),
                Say(
                    "CI pinned Terraform 1.5.7, which predates `removed` blocks (1.7+), while `versions.tf` requires >= 1.7.0. CI now uses 1.8.5 like `.terraform-version`; `terraform validate` passes on it."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:pinned|predat\w*|old|was|behind|from)\b)[^\n]*\b(?:Terraform\W+v?1\.5|1\.5\.7)",
            "1.5.7 was CI's stale pin, moved to 1.8.5 in the session",
        ),
    ),
    may=(r"1\.8",),
)

RUST_LIB_ZERO_TESTS = Trap(
    "rust-lib-zero-tests",
    "Rust",
    "`cargo test --lib` passes having run 0 tests (every test of the crate is an integration "
    "test under `tests/`); plain `cargo test` runs them",
    (
        Session(
            "claude",
            "/home/ines/src/tarpit",
            (
                Ask(
                    "Archive names with a trailing slash make `unpack` write outside the target. Fix it and run the tests."
                ),
                Read(
                    "src/unpack.rs",
                    "pub fn target_path(root: &Path, name: &str) -> PathBuf {\n    root.join(name)\n}\n",
                ),
                Edit(
                    "src/unpack.rs",
                    "    root.join(name)\n",
                    "    let clean: PathBuf = Path::new(name).components().filter(|c| matches!(c, Component::Normal(_))).collect();\n    root.join(clean)\n",
                ),
                Run(
                    "cargo test --lib",
                    "   Compiling tarpit v0.5.0 (/home/ines/src/tarpit)\n    Finished test [unoptimized + debuginfo] target(s) in 3.02s\n"
                    "     Running unittests src/lib.rs (target/debug/deps/tarpit-5e1f0a)\n\nrunning 0 tests\n\n"
                    "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n",
                ),
                Run("ls tests", "unpack_paths.rs\nroundtrip.rs\n"),
                Run(
                    "cargo test",
                    "    Finished test [unoptimized + debuginfo] target(s) in 1.12s\n     Running unittests src/lib.rs (target/debug/deps/tarpit-5e1f0a)\n\nrunning 0 tests\n\n"
                    "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n"
                    "     Running tests/roundtrip.rs (target/debug/deps/roundtrip-77c2d1)\n\nrunning 9 tests\n.........\n"
                    "test result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n\n"
                    "     Running tests/unpack_paths.rs (target/debug/deps/unpack_paths-0b9e44)\n\nrunning 14 tests\n..............\n"
                    "test result: ok. 14 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n",
                ),
                Say(
                    "Only normal path components are joined now, so `../` and a leading `/` can't escape the target. `cargo test --lib` ran nothing (the crate has no unit tests); "
                    "`cargo test` runs the 23 integration tests under `tests/`, and they pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*cargo test --lib",
            "`cargo test --lib` ran 0 tests: the crate's tests are integration tests",
        ),
        (r"run the tests[^\n]*`tests/`", "`tests/` is a folder, not a command"),
    ),
    may=(r"`cargo test`",),
)

ECTO_ADAPTER_SWITCHED = Trap(
    "ecto-adapter-switched",
    "Elixir/Phoenix",
    "a Phoenix app on MySQL (MyXQL) when the session starts; the session moves its Repo, "
    "dependencies and config to PostgreSQL (Postgrex) and the tests pass on it",
    (
        Session(
            "claude",
            "/home/zoe/work/greenroom",
            (
                Ask(
                    "We're moving greenroom from MySQL to Postgres today. Switch the Repo, deps and config, and get the tests green."
                ),
                Read(
                    "mix.exs",
                    'defmodule Greenroom.MixProject do\n  use Mix.Project\n\n  defp deps do\n    [\n      {:phoenix, "~> 1.7.12"},\n      {:ecto_sql, "~> 3.11"},\n      {:myxql, ">= 0.0.0"},\n      {:jason, "~> 1.4"}\n    ]\n  end\nend\n',
                ),
                Read(
                    "lib/greenroom/repo.ex",
                    "defmodule Greenroom.Repo do\n  use Ecto.Repo,\n    otp_app: :greenroom,\n    adapter: Ecto.Adapters.MyXQL\nend\n",
                ),
                Read(
                    "config/dev.exs",
                    'config :greenroom, Greenroom.Repo,\n  username: "root",\n  password: "",\n  hostname: "localhost",\n  port: 3306,\n  database: "greenroom_dev"\n',
                ),
                Edit("mix.exs", '{:myxql, ">= 0.0.0"}', '{:postgrex, ">= 0.0.0"}'),
                Edit(
                    "lib/greenroom/repo.ex",
                    "adapter: Ecto.Adapters.MyXQL",
                    "adapter: Ecto.Adapters.Postgres",
                ),
                Edit(
                    "config/dev.exs",
                    '  username: "root",\n  password: "",\n  hostname: "localhost",\n  port: 3306,\n',
                    '  username: "postgres",\n  password: "postgres",\n  hostname: "localhost",\n',
                ),
                Edit(
                    "config/test.exs",
                    '  username: "root",\n  password: "",\n  port: 3306,\n',
                    '  username: "postgres",\n  password: "postgres",\n',
                ),
                Run(
                    "mix deps.get && mix deps.unlock --unused",
                    "Resolving Hex dependencies...\nResolution completed in 0.09s\nNew:\n  postgrex 0.18.0\n* Getting postgrex (Hex package)\n",
                ),
                Run("mix ecto.create", "The database for Greenroom.Repo has been created\n"),
                Run(
                    "mix test",
                    "Running ExUnit with seed: 5021, max_cases: 8\n\n.......................................\nFinished in 1.1 seconds (0.4s async, 0.7s sync)\n39 tests, 0 failures\n",
                ),
                Say(
                    "The Repo now uses `Ecto.Adapters.Postgres`, `postgrex` replaces `myxql`, and dev/test config point at a local Postgres. The database is created and the 39 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:from|moved|moving|replac\w*|was|previous\w*|no longer|instead)\b)[^\n]*\b(?:MySQL|MyXQL|myxql)\b",
            "the session moved the app from MySQL to PostgreSQL",
        ),
        (
            r"migrat\w*[^\n]*`mix ecto\.create`",
            "`mix ecto.create` creates the database; it runs no migration",
        ),
    ),
    may=(r"Postgre",),
)

CASES = (
    ELIXIR_CI_MATRIX,
    ELIXIR_ONLY_TAG_ZERO,
    ELIXIR_COLLEAGUE_MIGRATIONS,
    RAILS_ENGINE_DUMMY,
    RUBY_BUMPED_IN_SESSION,
    RUBOCOP_DECLINED,
    DOTNET_SAMPLE_NUNIT,
    DOTNET_FILTER_ONE_CLASS,
    DOTNET_OLD_SDK_CONTAINER,
    ANDROID_MOCK_SERVER,
    GRADLE_BUILD_LOGIC_JUNIT4,
    SWIFT_FILTER_ZERO,
    ZIG_PYTHON_BINDINGS,
    NIX_DEV_SHELL,
    OCAMLFORMAT_DECLINED,
    TERRAFORM_CI_PIN,
    RUST_LIB_ZERO_TESTS,
    ECTO_ADAPTER_SWITCHED,
)
