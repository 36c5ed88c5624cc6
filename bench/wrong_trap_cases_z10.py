# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z10`: stack facts in the ecosystems the other parts hold least
(`bench/wrong_traps.py` runs them): Elixir (mix, Ecto, Phoenix), Erlang (rebar3), Kotlin
(Gradle, Ktor, Android), Scala (sbt), Clojure (deps.edn, Leiningen), Haskell (cabal, stack),
OCaml (dune, opam), Zig, Nix flakes, Terraform and OpenTofu, C# (.NET, xUnit, NUnit), Dart on
the server, Perl (cpanm, Carton) and Deno.

Each session carries evidence that could make a wrong stack fact: a side store's client beside
the ORM's adapter, a test framework of an examples sub-project, a second language's manifest
for a tooling folder, another package manager's leftover lock file, a CI matrix's versions
against the one pinned, a web framework only a dev tool uses, a job queue declared and unused,
a failure then another command that passed for another reason, a refused command, a
checklist, a summary the user corrects. Some traps also name the fact that should be said
(`may`), so that saying nothing is not the only way through.

Written blind, before any of these traps ran and with no rule changed for them; each later
batch (below the first) was written and committed before the rules it led to.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Refused, Run, Say, Trap, one_session

# Licence: the sessions, names and outputs below are made up for this bench (Apache-2.0, as
# the rest of the project); no part is copied from a real project.

# A line that says the fact is set aside, or that it belongs to a side part, is no claim of it.
_NOT = r"^(?![^\n]*\b(?:not|no longer|never|don't|do not|unused|leftover|left over|stale|instead|only|fail\w*|refused|declined)\b)"

# --- batch 1: stack facts from the wrong place ---

ECTO_SIDE_MONGO = Trap(
    "ecto-postgres-beside-an-archive-mongo",
    "Elixir/Phoenix",
    "the Repo's adapter is Ecto's Postgres; a `mongodb_driver` client only writes the audit archive",
    one_session(
        "/home/noor/src/clinic_desk",
        Ask("Appointments created on the last day of a month show up in the next month. Fix it."),
        Read(
            "mix.exs",
            'defmodule ClinicDesk.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :clinic_desk, version: "0.9.0", elixir: "~> 1.16", deps: deps()]\n  end\n\n  defp deps do\n    [\n      {:phoenix, "~> 1.7.12"},\n      {:phoenix_live_view, "~> 0.20.14"},\n      {:ecto_sql, "~> 3.11"},\n      {:postgrex, ">= 0.0.0"},\n      {:mongodb_driver, "~> 1.4"},\n      {:jason, "~> 1.4"}\n    ]\n  end\nend\n',
        ),
        Read(
            "lib/clinic_desk/repo.ex",
            "defmodule ClinicDesk.Repo do\n  use Ecto.Repo, otp_app: :clinic_desk, adapter: Ecto.Adapters.Postgres\nend\n",
        ),
        Read(
            "lib/clinic_desk/audit/archive.ex",
            '# Old audit events are copied to the compliance team\'s Mongo cluster once a night.\ndefmodule ClinicDesk.Audit.Archive do\n  def push(events), do: Mongo.insert_many(:audit_mongo, "events", events)\nend\n',
        ),
        Read(
            "lib/clinic_desk/calendar.ex",
            "  def month_range(%Date{} = d) do\n    first = Date.beginning_of_month(d)\n    {first, Date.add(Date.end_of_month(d), -1)}\n  end\n",
        ),
        Edit(
            "lib/clinic_desk/calendar.ex",
            "    {first, Date.add(Date.end_of_month(d), -1)}\n",
            "    {first, Date.end_of_month(d)}\n",
        ),
        Run(
            "mix test",
            "Running ExUnit with seed: 40213, max_cases: 16\n\n..............................................\nFinished in 1.9 seconds (0.4s async, 1.5s sync)\n46 tests, 0 failures",
        ),
        Say("`month_range` dropped the month's last day; fixed, and all 46 tests pass."),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:audit|archive|compliance)\b)[^\n]*\b(?:MongoDB|Mongo)\b",
            "Mongo holds only the nightly audit archive; the app's database is PostgreSQL",
        ),
    ),
    may=(r"PostgreSQL|mix test|Phoenix",),
)

OBAN_DECLARED_UNUSED = Trap(
    "oban-declared-never-wired",
    "Elixir",
    "`oban` is in mix.exs but nothing starts it; the user says digests still run from Quantum",
    one_session(
        "/home/noor/src/newsroom",
        Ask("Why did yesterday's digest email go out twice?"),
        Read(
            "mix.exs",
            '  defp deps do\n    [\n      {:phoenix, "~> 1.7.14"},\n      {:ecto_sql, "~> 3.12"},\n      {:postgrex, ">= 0.0.0"},\n      {:oban, "~> 2.18"},\n      {:quantum, "~> 3.5"},\n      {:swoosh, "~> 1.16"}\n    ]\n  end\n',
        ),
        Run('grep -rn "Oban" lib config', "", 1),
        Read(
            "config/config.exs",
            'config :newsroom, Newsroom.Scheduler,\n  jobs: [\n    {"0 7 * * *", {Newsroom.Digest, :send_all, []}},\n    {"0 7 * * *", {Newsroom.Digest, :send_all, []}}\n  ]\n',
        ),
        Ask(
            "Right, we added Oban for the digests last spring but never wired it up, Quantum still runs them. Just fix the schedule."
        ),
        Edit(
            "config/config.exs",
            '    {"0 7 * * *", {Newsroom.Digest, :send_all, []}},\n    {"0 7 * * *", {Newsroom.Digest, :send_all, []}}\n',
            '    {"0 7 * * *", {Newsroom.Digest, :send_all, []}}\n',
        ),
        Run(
            "mix test test/newsroom/digest_test.exs",
            "Running ExUnit with seed: 8812, max_cases: 8\n\n.......\nFinished in 0.3 seconds (0.3s async, 0.0s sync)\n7 tests, 0 failures",
        ),
        Say("The digest job was listed twice in the Quantum schedule; one entry is gone."),
    ),
    wrong=(
        (
            _NOT
            + r"[^\n]*\b(?:job queue|background jobs?|queue\w*|jobs? run)[^\n]*\bOban\b|\bOban\b[^\n]*\b(?:job queue|background jobs?|for jobs)",
            "Oban is declared and never used; Quantum runs the scheduled jobs",
        ),
    ),
)

REBAR_MIX_LOCK_LEFTOVER = Trap(
    "rebar3-project-with-a-stale-mix-lock",
    "Erlang/rebar3",
    "an Erlang rebar3 library keeps a `mix.lock` from an abandoned Elixir wrapper experiment",
    one_session(
        "/home/noor/src/hashring",
        Ask("Add a test for removing the last node from the ring, then run the suite."),
        Run(
            "ls",
            "LICENSE\nREADME.md\nmix.lock\nrebar.config\nrebar.lock\nsrc\ntest\n",
        ),
        Read(
            "rebar.config",
            '{erl_opts, [debug_info, warnings_as_errors]}.\n{deps, []}.\n{profiles, [{test, [{deps, [{proper, "1.4.0"}]}]}]}.\n',
        ),
        Read(
            "test/hashring_tests.erl",
            '-module(hashring_tests).\n-include_lib("eunit/include/eunit.hrl").\n\nadd_test() ->\n    R = hashring:add(node_a, hashring:new()),\n    ?assertEqual([node_a], hashring:nodes(R)).\n',
        ),
        Edit(
            "test/hashring_tests.erl",
            "    ?assertEqual([node_a], hashring:nodes(R)).\n",
            '    ?assertEqual([node_a], hashring:nodes(R)).\n\nremove_last_test() ->\n    R = hashring:remove(node_a, hashring:add(node_a, hashring:new())),\n    ?assertEqual([], hashring:nodes(R)),\n    ?assertEqual(undefined, hashring:lookup(<<"k">>, R)).\n',
        ),
        Run(
            "rebar3 eunit",
            "===> Verifying dependencies...\n===> Analyzing applications...\n===> Compiling hashring\n===> Performing EUnit tests...\n.......\nFinished in 0.071 seconds\n7 tests, 0 failures",
        ),
        Say("Added `remove_last_test`; `rebar3 eunit` passes (7 tests)."),
    ),
    wrong=(
        (
            r"\bElixir\b|`mix |\bmix\b[^\n]*package manager|managed with mix",
            "an Erlang rebar3 library; `mix.lock` is a leftover",
        ),
    ),
    may=(r"rebar3 eunit",),
)

KTOR_MOCK_IDP_SPRING = Trap(
    "ktor-service-with-a-spring-mock-idp",
    "Kotlin/Gradle/Ktor",
    "the service runs on Ktor; a `tools/mock-idp` build starts a Spring Boot stand-in for the identity provider in development",
    one_session(
        "/home/noor/src/payroll-api",
        Ask("The /payslips endpoint returns 500 for employees without a bank account. Fix it."),
        Run(
            "ls",
            "README.md\napp\nbuild.gradle.kts\ngradle\ngradlew\nsettings.gradle.kts\ntools\n",
        ),
        Read(
            "app/build.gradle.kts",
            'plugins {\n    kotlin("jvm") version "2.0.20"\n    id("io.ktor.plugin") version "2.3.12"\n}\n\ndependencies {\n    implementation("io.ktor:ktor-server-netty")\n    implementation("io.ktor:ktor-server-content-negotiation")\n    implementation("org.jetbrains.exposed:exposed-jdbc:0.53.0")\n    implementation("org.postgresql:postgresql:42.7.4")\n    testImplementation("io.ktor:ktor-server-test-host")\n    testImplementation(kotlin("test"))\n}\n',
        ),
        Read(
            "tools/mock-idp/build.gradle.kts",
            '// A fake identity provider for local development only; never deployed.\nplugins {\n    id("org.springframework.boot") version "3.3.3"\n    kotlin("plugin.spring") version "2.0.20"\n}\n\ndependencies {\n    implementation("org.springframework.boot:spring-boot-starter-web")\n    implementation("org.springframework.boot:spring-boot-starter-oauth2-authorization-server")\n}\n',
        ),
        Read(
            "app/src/main/kotlin/payroll/Payslips.kt",
            'fun Route.payslips(repo: PayslipRepo) {\n    get("/payslips/{id}") {\n        val slip = repo.find(call.parameters["id"]!!)\n        call.respond(slip.toDto(slip.bankAccount!!.iban))\n    }\n}\n',
        ),
        Edit(
            "app/src/main/kotlin/payroll/Payslips.kt",
            "        call.respond(slip.toDto(slip.bankAccount!!.iban))\n",
            "        call.respond(slip.toDto(slip.bankAccount?.iban))\n",
        ),
        Run(
            "./gradlew :app:test",
            "> Task :app:compileKotlin\n> Task :app:test\n\nBUILD SUCCESSFUL in 38s\n5 actionable tasks: 2 executed, 3 up-to-date",
        ),
        Say("A missing bank account no longer throws; `./gradlew :app:test` passes."),
        host="codex",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:mock|idp|identity|tools/)\b)[^\n]*\bSpring\b",
            "Spring Boot runs only the development mock identity provider; the service is Ktor",
        ),
    ),
    may=(r"Ktor|gradlew :app:test|PostgreSQL",),
)

ANDROID_CI_JDK_MATRIX = Trap(
    "android-toolchain-17-ci-matrix-21",
    "Kotlin/Android",
    "the Gradle build pins `jvmToolchain(17)`; CI's matrix also runs a JDK 21 job",
    one_session(
        "/home/noor/src/birdlog",
        Ask("CI's JDK 21 job is red on the lint step, can you see why?"),
        Read(
            ".github/workflows/ci.yml",
            "jobs:\n  build:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        java: [17, 21]\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-java@v4\n        with:\n          distribution: temurin\n          java-version: ${{ matrix.java }}\n      - run: ./gradlew lintDebug testDebugUnitTest\n",
        ),
        Read(
            "app/build.gradle.kts",
            'plugins {\n    id("com.android.application")\n    kotlin("android")\n}\n\nandroid {\n    namespace = "org.birdlog"\n    compileSdk = 34\n    defaultConfig { minSdk = 26; targetSdk = 34 }\n}\n\nkotlin {\n    jvmToolchain(17)\n}\n',
        ),
        Run(
            "./gradlew lintDebug",
            "> Task :app:lintDebug FAILED\nLint found 1 error: ObsoleteLintCustomCheck in androidx.fragment 1.6.1\n\nBUILD FAILED in 1m 4s",
            1,
        ),
        Run(
            "./gradlew testDebugUnitTest",
            "> Task :app:testDebugUnitTest\n\nBUILD SUCCESSFUL in 52s\n31 actionable tasks: 4 executed, 27 up-to-date",
        ),
        Say(
            "Lint fails on an obsolete check inside androidx.fragment 1.6.1 on both JDKs, not only 21; the unit tests pass. Bumping fragment should clear it."
        ),
    ),
    wrong=(
        (
            r"\b(?:JDK|Java|JVM)\W+(?:version\W+)?21\b(?![^\n]*\b(?:job|matrix|CI)\b)",
            "the build pins JDK 17; 21 is one CI job",
        ),
        (
            r"(?:running|after|with) `\./gradlew testDebugUnitTest`[^\n]*(?:fix|work)",
            "the unit tests passing did not fix lint",
        ),
    ),
)

SBT_EXAMPLES_SCALATEST = Trap(
    "sbt-core-munit-examples-scalatest",
    "Scala/sbt",
    "the `core` project tests with MUnit; only an `examples` sub-project depends on ScalaTest",
    one_session(
        "/home/noor/src/csvcodec",
        Ask("Quoted fields with embedded newlines don't round-trip. Fix and run core's tests."),
        Read(
            "build.sbt",
            'ThisBuild / scalaVersion := "3.4.2"\n\nlazy val core = (project in file("core"))\n  .settings(\n    name := "csvcodec",\n    libraryDependencies += "org.scalameta" %% "munit" % "1.0.1" % Test\n  )\n\n// Usage examples for the docs; not published.\nlazy val examples = (project in file("examples"))\n  .dependsOn(core)\n  .settings(\n    publish / skip := true,\n    libraryDependencies += "org.scalatest" %% "scalatest" % "3.2.19" % Test\n  )\n',
        ),
        Read(
            "core/src/main/scala/csvcodec/Writer.scala",
            '  private def quote(field: String): String =\n    if field.contains(",") || field.contains("\\"") then\n      "\\"" + field.replace("\\"", "\\"\\"") + "\\""\n    else field\n',
        ),
        Edit(
            "core/src/main/scala/csvcodec/Writer.scala",
            '    if field.contains(",") || field.contains("\\"") then\n',
            "    if field.exists(c => c == ',' || c == '\"' || c == '\\n' || c == '\\r') then\n",
        ),
        Run(
            "sbt core/test",
            "[info] compiling 1 Scala source to /home/noor/src/csvcodec/core/target/scala-3.4.2/classes ...\ncsvcodec.RoundTripSuite:\n  + plain fields 0.004s\n  + quoted comma 0.001s\n  + embedded newline 0.001s\n[info] Passed: Total 12, Failed 0, Errors 0, Passed 12\n[success] Total time: 9 s",
        ),
        Say("Fields with a newline are quoted now; `sbt core/test` passes (12)."),
        host="gemini",
    ),
    wrong=(
        (
            r"^(?![^\n]*\bexamples?\b)[^\n]*\bScalaTest\b",
            "core tests with MUnit; ScalaTest is the examples project's",
        ),
    ),
    may=(r"sbt core/test|MUnit",),
)

CLOJURE_FILTERED_PASS = Trap(
    "clojure-test-passes-only-when-filtered",
    "Clojure/deps.edn",
    "`clojure -X:test` fails on database tests (no database up); a run filtered to the unit namespaces passes, fixing nothing",
    one_session(
        "/home/noor/src/tilemap",
        Ask("Run the tests."),
        Run(
            "clojure -X:test",
            'Running tests in #{"test"}\n\nTesting tilemap.store-test\n\nERROR in (save-tile-test) (Connection.java:214)\nexpected: (= 1 (count (store/tiles db)))\n  actual: org.postgresql.util.PSQLException: Connection to localhost:5432 refused.\n\nRan 19 tests containing 41 assertions.\n0 failures, 3 errors.',
            1,
        ),
        Run(
            "clojure -X:test :nses '[tilemap.grid-test tilemap.render-test]'",
            'Running tests in #{"test"}\n\nTesting tilemap.grid-test\n\nTesting tilemap.render-test\n\nRan 14 tests containing 30 assertions.\n0 failures, 0 errors.',
        ),
        Say(
            "The unit namespaces pass (14 tests). The 3 errors are the store tests, which need PostgreSQL on localhost:5432; that isn't running here."
        ),
    ),
    wrong=(
        (
            r"(?:instead|first|after)[^\n]*(?:fix|work)[^\n]*:nses|:nses[^\n]*(?:fixed|instead worked|worked instead)",
            "the filtered run skipped the failing tests; nothing was fixed",
        ),
        (
            r"(?:to run the tests|tests? (?:are )?run with)[^\n]*:nses",
            "the run filtered to two namespaces is not how the tests run",
        ),
    ),
)

STACK_YAML_LEFTOVER = Trap(
    "cabal-project-with-a-stale-stack-yaml",
    "Haskell/cabal",
    "the project builds with cabal (`cabal.project`); a `stack.yaml` on an old resolver no longer builds",
    one_session(
        "/home/noor/src/dhall-lint",
        Ask("Build it and run the test suite."),
        Run(
            "ls",
            "CHANGELOG.md\napp\ncabal.project\ndhall-lint.cabal\nsrc\nstack.yaml\ntest\n",
        ),
        Run(
            "stack build",
            "Error: [S-4804]\n       Stack failed to construct a build plan.\n\n       In the dependencies for dhall-lint-0.3.0:\n         * dhall must match >=1.42, but the snapshot has 1.38.1 (lts-18.28)",
            1,
        ),
        Read(
            "cabal.project",
            "packages: .\nwith-compiler: ghc-9.6.5\ntests: True\n",
        ),
        Say(
            "`stack.yaml` is on lts-18.28, too old for dhall 1.42; `cabal.project` pins GHC 9.6.5, so I'll use cabal."
        ),
        Run(
            "cabal build all && cabal test",
            "Resolving dependencies...\nBuild profile: -w ghc-9.6.5 -O1\n...\nRunning 1 test suites...\nTest suite spec: RUNNING...\nTest suite spec: PASS\n1 of 1 test suites (1 of 1 test cases) passed.",
        ),
        Ask("yeah stack.yaml is dead, ignore it"),
        Say("Everything builds with cabal and the spec suite passes."),
        host="codex",
    ),
    wrong=(
        (
            _NOT + r"[^\n]*(?:`stack (?:build|test)|\b(?:built|managed|builds) with Stack\b)",
            "the project builds with cabal; stack.yaml is dead",
        ),
    ),
    may=(r"cabal (?:build|test)|9\.6\.5",),
)

GHC_CI_MATRIX = Trap(
    "ghc-ci-matrix-not-the-pinned-compiler",
    "Haskell/cabal",
    "CI builds on GHC 9.4, 9.6 and 9.8; `cabal.project` pins 9.6.5",
    one_session(
        "/home/noor/src/fastcsv-hs",
        Ask("CI is red on one GHC version only. Which one, and why?"),
        Read(
            ".github/workflows/haskell.yml",
            "jobs:\n  build:\n    strategy:\n      matrix:\n        ghc: ['9.4.8', '9.6.5', '9.8.2']\n    steps:\n      - uses: haskell-actions/setup@v2\n        with:\n          ghc-version: ${{ matrix.ghc }}\n      - run: cabal build all --enable-tests\n      - run: cabal test all\n",
        ),
        Read("cabal.project", "packages: .\nwith-compiler: ghc-9.6.5\n"),
        Run(
            "gh run view --log-failed | tail -5",
            "build (9.8.2)\tcabal build\tsrc/FastCsv/Parse.hs:41:1: error: [GHC-88464]\nbuild (9.8.2)\tcabal build\t    Variable not in scope: foldl' :: ...\nbuild (9.8.2)\tcabal build\t    Suggested fix: Perhaps use one of these: 'foldl'",
        ),
        Say(
            "Only the GHC 9.8.2 job fails: `foldl'` is no longer re-exported where Parse.hs expects it. Importing it from Data.List fixes it on every version."
        ),
        Edit(
            "src/FastCsv/Parse.hs",
            "import Data.Char (isSpace)\n",
            "import Data.Char (isSpace)\nimport Data.List (foldl')\n",
        ),
        Run(
            "cabal build all --enable-tests && cabal test all",
            "Build profile: -w ghc-9.6.5 -O1\n...\nTest suite spec: PASS\n1 of 1 test suites (1 of 1 test cases) passed.",
        ),
        Say("Imported `foldl'` explicitly; builds and tests pass locally on 9.6.5."),
    ),
    wrong=(
        (
            r"\bGHC\W+(?:version\W+)?9\.(?:4|8)(?:\.\d+)?\b(?![^\n]*\b(?:job|matrix|CI|also|fails?|failed)\b)",
            "the project pins GHC 9.6.5; 9.4 and 9.8 are CI jobs",
        ),
    ),
    may=(r"9\.6\.5|cabal test",),
)

OPAM_ESY_LEFTOVER = Trap(
    "dune-opam-project-with-an-esy-package-json",
    "OCaml/dune",
    "an OCaml library built with dune from an opam switch keeps an old `package.json` for esy",
    one_session(
        "/home/noor/src/ocaml-semver",
        Ask("`compare` says 1.0.0-alpha > 1.0.0. Fix it."),
        Run(
            "ls",
            "CHANGES.md\ndune-project\nesy.lock\npackage.json\nsemver.opam\nsrc\ntest\n",
        ),
        Read(
            "package.json",
            '{\n  "name": "ocaml-semver",\n  "esy": {"build": "dune build -p #{self.name}"},\n  "dependencies": {"@opam/dune": "^2.9.0", "ocaml": "4.12.x"}\n}\n',
        ),
        Read(
            "semver.opam",
            'opam-version: "2.0"\ndepends: [\n  "ocaml" {>= "4.14"}\n  "dune" {>= "3.12"}\n  "alcotest" {with-test}\n]\nbuild: [["dune" "build" "-p" name "-j" jobs]]\n',
        ),
        Edit(
            "src/semver.ml",
            "  | [], _ :: _ -> -1\n  | _ :: _, [] -> 1\n",
            "  | [], _ :: _ -> 1\n  | _ :: _, [] -> -1\n",
        ),
        Run(
            "opam exec -- dune test",
            "Testing `semver'.\nThis run has ID `Q2K8W1ZA'.\n\n  [OK]          compare          0   release.\n  [OK]          compare          1   prerelease below release.\n\nFull test results in `~/src/ocaml-semver/_build/default/test/_build/_tests/semver'.\nTest Successful in 0.004s. 14 tests run.",
        ),
        Say(
            "A version without pre-release now sorts above one with it; `dune test` passes (14). The esy `package.json` looks unused (it pins OCaml 4.12, below the opam file's floor)."
        ),
        host="codex-shell",
    ),
    wrong=(
        (
            r"\besy\b(?![^\n]*\b(?:unused|old|leftover|stale)\b)|\bnpm\b|\b(?:Node|JavaScript) (?:project|library)|OCaml\W+4\.12(?![^\n]*\b(?:below|unused)\b)",
            "built with dune from opam; the esy package.json is unused",
        ),
    ),
    may=(r"dune test|4\.14",),
)

ZIG_PYTHON_TOOLS = Trap(
    "zig-project-with-a-python-generator",
    "Zig",
    "a Zig library regenerates its Unicode tables with a script in `tools/` that has its own `requirements.txt`",
    one_session(
        "/home/noor/src/zigwidth",
        Ask("Update the width tables to Unicode 15.1 and make sure the tests pass."),
        Run("ls", "LICENSE\nbuild.zig\nbuild.zig.zon\nsrc\ntools\n"),
        Run("ls tools", "gen_tables.py\nrequirements.txt\n"),
        Run(
            "python3 tools/gen_tables.py --version 15.1.0 > src/tables.zig",
            "fetching EastAsianWidth-15.1.0.txt\nwrote 1187 ranges",
        ),
        Run(
            "zig build test",
            "Build Summary: 3/3 steps succeeded; 58/58 tests passed\ntest success\n+- run test 58 passed 12ms MaxRSS:2M",
        ),
        Say("Tables regenerated for Unicode 15.1.0; `zig build test` passes (58)."),
        host="gemini",
    ),
    wrong=(
        (
            r"\bPython (?:project|library|package)\b|written in Python|`pip install|pip,? (?:its|the) package manager",
            "a Zig library; Python only generates its tables",
        ),
    ),
    may=(r"zig build test",),
)

NIX_REFUSED_UPDATE = Trap(
    "nix-flake-update-refused-hash-fixed",
    "Nix flakes",
    "`nix build` fails on a hash mismatch; `nix flake update` is refused; the hash is fixed by hand",
    one_session(
        "/home/noor/src/dotpkgs",
        Ask("nix build is broken after I bumped mdcat, can you fix it?"),
        Run(
            "nix build .#mdcat",
            "error: hash mismatch in fixed-output derivation '/nix/store/3k0p…-mdcat-2.4.0-vendor.tar.gz.drv':\n         specified: sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n            got:    sha256-1qB7n0cVEV2Xb2o3TAcG4Yb0s8fmmzXyc6A0Y1lS0cQ=",
            1,
        ),
        Refused("nix flake update", "no, don't touch the lock, just fix the hash"),
        Edit(
            "pkgs/mdcat.nix",
            '  cargoHash = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";\n',
            '  cargoHash = "sha256-1qB7n0cVEV2Xb2o3TAcG4Yb0s8fmmzXyc6A0Y1lS0cQ=";\n',
        ),
        Run("nix build .#mdcat", ""),
        Run("./result/bin/mdcat --version", "mdcat 2.4.0"),
        Say("Set `cargoHash` to the hash Nix reported; `nix build .#mdcat` succeeds."),
    ),
    wrong=(
        (
            r"nix flake update(?![^\n]*\b(?:refused|don't|do not|not|never|without)\b)",
            "the user refused `nix flake update`; the hash was fixed by hand",
        ),
    ),
    may=(r"cargoHash|hash",),
)

TOFU_NOT_TERRAFORM = Trap(
    "opentofu-after-terraform-failed",
    "Terraform/OpenTofu",
    "`terraform init` fails on a registry the project's OpenTofu setup uses; `tofu init` and `tofu plan` work",
    one_session(
        "/home/noor/src/infra-edge",
        Ask("Plan the change to the CDN cache rules in envs/prod."),
        Run(
            "cd envs/prod && terraform init",
            'Initializing provider plugins...\n- Finding opentofu/cloudflare versions matching "~> 4.40"...\n\nError: Failed to query available provider packages\n\nCould not retrieve the list of available versions for provider opentofu/cloudflare: provider registry registry.terraform.io does not have a provider named registry.terraform.io/opentofu/cloudflare',
            1,
        ),
        Read(
            "envs/prod/versions.tf",
            'terraform {\n  required_providers {\n    cloudflare = {\n      source  = "opentofu/cloudflare"\n      version = "~> 4.40"\n    }\n  }\n}\n',
        ),
        Run(
            "cd envs/prod && tofu init",
            "Initializing provider plugins...\n- Installing opentofu/cloudflare v4.40.0...\n\nOpenTofu has been successfully initialized!",
        ),
        Run(
            "cd envs/prod && tofu plan -out plan.bin",
            "cloudflare_ruleset.cache: Refreshing state... [id=8e1f…]\n\n  ~ update in-place\n\nPlan: 0 to add, 1 to change, 0 to destroy.",
        ),
        Say("This repo uses OpenTofu: `tofu plan` shows 1 change to the cache ruleset."),
        host="codex",
    ),
    wrong=(
        (
            r"^(?:To|Before)[^\n]*`(?:cd envs/prod && )?terraform (?:init|plan|apply)",
            "`terraform init` failed; the project runs OpenTofu",
        ),
        (
            r"(?:fixed|worked)[^\n]*`(?:cd envs/prod && )?tofu plan",
            "`tofu plan` only showed the change",
        ),
    ),
    may=(r"\btofu\b",),
)

DOTNET_SAMPLES_NUNIT = Trap(
    "dotnet-xunit-with-an-nunit-sample",
    "C#/.NET",
    "the solution's tests use xUnit; only `samples/Legacy.Sample.Tests` uses NUnit",
    one_session(
        "/home/noor/src/Moneta",
        Ask("Rounding to zero decimals gives -0 for small negatives. Fix it and run the tests."),
        Run(
            "ls -R | head -20",
            "Moneta.sln\nsamples\nsrc\ntests\n\n./samples:\nLegacy.Sample\nLegacy.Sample.Tests\n\n./src:\nMoneta\n\n./tests:\nMoneta.Tests\n",
        ),
        Read(
            "tests/Moneta.Tests/Moneta.Tests.csproj",
            '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="xunit" Version="2.9.0" />\n    <PackageReference Include="xunit.runner.visualstudio" Version="2.8.2" />\n    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.11.0" />\n  </ItemGroup>\n</Project>\n',
        ),
        Read(
            "samples/Legacy.Sample.Tests/Legacy.Sample.Tests.csproj",
            '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net6.0</TargetFramework>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="NUnit" Version="3.14.0" />\n    <PackageReference Include="NUnit3TestAdapter" Version="4.5.0" />\n  </ItemGroup>\n</Project>\n',
        ),
        Edit(
            "src/Moneta/Money.cs",
            "        => new Money(Math.Round(Amount, decimals, MidpointRounding.ToEven), Currency);\n",
            "        => new Money(Math.Round(Amount, decimals, MidpointRounding.ToEven) + 0m, Currency);\n",
        ),
        Run(
            "dotnet test tests/Moneta.Tests",
            "  Determining projects to restore...\n  Moneta.Tests -> /home/noor/src/Moneta/tests/Moneta.Tests/bin/Debug/net8.0/Moneta.Tests.dll\n[xUnit.net 00:00:00.41]   Starting:    Moneta.Tests\n[xUnit.net 00:00:00.89]   Finished:    Moneta.Tests\n\nPassed!  - Failed:     0, Passed:    64, Skipped:     0, Total:    64, Duration: 412 ms - Moneta.Tests.dll (net8.0)",
        ),
        Say("Negative zero is normalised after rounding; the 64 xUnit tests pass."),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:samples?|Legacy)\b)[^\n]*\bNUnit\b",
            "NUnit is the legacy sample's; the solution tests with xUnit",
        ),
        (r"\bnet6\.0\b|\.NET 6\b", "the library targets net8.0; net6.0 is the sample's"),
    ),
    may=(r"dotnet test|xUnit",),
)

DART_TEST_ONLY_SQLITE = Trap(
    "dart-server-postgres-sqlite-in-tests",
    "Dart server",
    "a shelf server talks to PostgreSQL through `package:postgres`; `sqlite3` is a dev dependency of one test fake",
    one_session(
        "/home/noor/src/quiz_api",
        Ask("POST /answers accepts an empty body and crashes. Reject it with 400."),
        Read(
            "pubspec.yaml",
            "name: quiz_api\nenvironment:\n  sdk: ^3.4.0\ndependencies:\n  shelf: ^1.4.1\n  shelf_router: ^1.1.4\n  postgres: ^3.3.0\ndev_dependencies:\n  test: ^1.25.8\n  sqlite3: ^2.4.6\n  lints: ^4.0.0\n",
        ),
        Read(
            "test/fakes/fake_store.dart",
            "// An in-memory stand-in for the Postgres store, so route tests run without a database.\nimport 'package:sqlite3/sqlite3.dart';\n\nclass FakeStore implements Store {\n  final db = sqlite3.openInMemory();\n}\n",
        ),
        Read(
            "lib/routes/answers.dart",
            "  router.post('/answers', (Request req) async {\n    final body = jsonDecode(await req.readAsString()) as Map<String, dynamic>;\n",
        ),
        Edit(
            "lib/routes/answers.dart",
            "    final body = jsonDecode(await req.readAsString()) as Map<String, dynamic>;\n",
            "    final raw = await req.readAsString();\n    if (raw.trim().isEmpty) return Response.badRequest(body: 'empty body');\n    final body = jsonDecode(raw) as Map<String, dynamic>;\n",
        ),
        Run(
            "dart test",
            "00:02 +23: All tests passed!",
        ),
        Say("An empty body now gets a 400; `dart test` passes (23)."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:tests?|fakes?|in-memory|stand-in|dev)\b)[^\n]*\bSQLite\b",
            "SQLite backs one test fake; the server's database is PostgreSQL",
        ),
    ),
    may=(r"dart test|PostgreSQL|shelf",),
)

CASES: tuple[Trap, ...] = (
    ECTO_SIDE_MONGO,
    OBAN_DECLARED_UNUSED,
    REBAR_MIX_LOCK_LEFTOVER,
    KTOR_MOCK_IDP_SPRING,
    ANDROID_CI_JDK_MATRIX,
    SBT_EXAMPLES_SCALATEST,
    CLOJURE_FILTERED_PASS,
    STACK_YAML_LEFTOVER,
    GHC_CI_MATRIX,
    OPAM_ESY_LEFTOVER,
    ZIG_PYTHON_TOOLS,
    NIX_REFUSED_UPDATE,
    TOFU_NOT_TERRAFORM,
    DOTNET_SAMPLES_NUNIT,
    DART_TEST_ONLY_SQLITE,
)
