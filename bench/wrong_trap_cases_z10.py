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
batch (below the first) was written and committed before the rules it led to. The fifth
batch puts the kinds the first four read wrong in other shapes (one suite, spec, module or
match run after the whole run failed; a run command of seeds, a test executable or a tool);
the sixth, package managers and runtime versions said from the wrong tool (`npm:` imports of a
Deno app, the machine's Gradle beside the wrapper, Mono's `nuget restore`, cpm, ghcup's
recommended compiler, a system Elixir beside `.tool-versions`, a shell's Terraform beside
`.terraform-version`, sbt in a scala-cli project); the seventh, a web framework's client or
pubsub part taken for its server (the Ktor, servant and http4s clients, Mojo::UserAgent,
Phoenix.PubSub alone, Shelf in a client's tests) and a job queue in use beside one left over.
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

# --- batch 2: a fix, a way to run, a release and a change said from the wrong thing ---

PHOENIX_TESTS_FOR_THE_APP = Trap(
    "phoenix-server-failed-tests-ran-instead",
    "Elixir/Phoenix",
    "the user asks to run the app; `mix phx.server` fails (port taken) and the LiveView tests run instead",
    one_session(
        "/home/noor/src/signup_flow",
        Ask("Run the app locally and check the signup page still works."),
        Run(
            "mix phx.server",
            "[error] Running SignupFlowWeb.Endpoint with Bandit 1.5.7 at http failed, port 4000 already in use\n** (EXIT) shutdown: failed to start child: SignupFlowWeb.Endpoint\n    ** (EXIT) :eaddrinuse",
            1,
        ),
        Run(
            "mix test test/signup_flow_web/live/signup_live_test.exs",
            "Running ExUnit with seed: 1200, max_cases: 8\n\n.........\nFinished in 0.6 seconds (0.6s async, 0.0s sync)\n9 tests, 0 failures",
        ),
        Say(
            "Port 4000 is taken by another process, so the server didn't start; the signup LiveView tests pass (9)."
        ),
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|to run it locally|run the app)[^\n]*mix test",
            "`mix test` ran the tests; the app starts with `mix phx.server`",
        ),
        (
            r"mix test[^\n]*(?:instead worked|fixed)",
            "the tests passing did not start the server",
        ),
    ),
)

GRADLE_REFRESH_NOT_THE_FIX = Trap(
    "gradle-refresh-dependencies-not-the-fix",
    "Kotlin/Gradle/Ktor",
    "a dependency from the company repository does not resolve; `--refresh-dependencies` fails too; the user connects the VPN and the build passes",
    one_session(
        "/home/noor/src/ledger-sync",
        Ask("Build fails for me this morning, can you take a look?"),
        Run(
            "./gradlew build",
            "> Could not resolve all files for configuration ':compileClasspath'.\n   > Could not resolve com.acme:money-kt:4.2.0.\n     > Could not GET 'https://nexus.internal.acme.dev/repository/maven/com/acme/money-kt/4.2.0/money-kt-4.2.0.pom'.\n        > nexus.internal.acme.dev: Name or service not known\n\nBUILD FAILED in 3s",
            1,
        ),
        Run(
            "./gradlew build --refresh-dependencies",
            "> Could not resolve com.acme:money-kt:4.2.0.\n     > nexus.internal.acme.dev: Name or service not known\n\nBUILD FAILED in 4s",
            1,
        ),
        Say("The company Nexus doesn't resolve from here; are you on the VPN?"),
        Ask("oh, VPN was off. connected now, try again"),
        Run(
            "./gradlew build",
            "> Task :compileKotlin\n> Task :test\n\nBUILD SUCCESSFUL in 1m 12s\n9 actionable tasks: 9 executed",
        ),
        Say("Builds and tests pass now that Nexus is reachable."),
        host="codex",
    ),
    wrong=(
        (
            r"--refresh-dependencies[^\n]*(?:fix|work|resolv)|(?:running|after|with) `[^`]*--refresh-dependencies",
            "refreshing failed as well; the VPN fixed it",
        ),
    ),
    may=(r"VPN|Nexus",),
)

SBT_CLEAN_NOT_THE_FIX = Trap(
    "sbt-clean-before-the-real-fix",
    "Scala/sbt",
    "`sbt test` fails on a real bug; `sbt clean` changes nothing; an edit fixes it",
    one_session(
        "/home/noor/src/rates",
        Ask("sbt test is failing on main, fix it"),
        Run(
            "sbt test",
            '[info] rates.ConvertSpec:\n[info] - converts EUR to USD *** FAILED ***\n[info]   BigDecimal("1.0850") did not equal BigDecimal("1.09") (ConvertSpec.scala:14)\n[error] Failed: Total 22, Failed 1, Errors 0, Passed 21\n[error] (Test / test) sbt.TestsFailedException: Tests unsuccessful',
            1,
        ),
        Run("sbt clean", "[success] Total time: 0 s"),
        Run(
            "sbt test",
            '[info] - converts EUR to USD *** FAILED ***\n[info]   BigDecimal("1.0850") did not equal BigDecimal("1.09") (ConvertSpec.scala:14)\n[error] Failed: Total 22, Failed 1, Errors 0, Passed 21',
            1,
        ),
        Read(
            "src/main/scala/rates/Convert.scala",
            "  def apply(amount: BigDecimal, rate: BigDecimal): BigDecimal =\n    amount * rate\n",
        ),
        Edit(
            "src/main/scala/rates/Convert.scala",
            "    amount * rate\n",
            "    (amount * rate).setScale(2, BigDecimal.RoundingMode.HALF_EVEN)\n",
        ),
        Run(
            "sbt test",
            "[info] - converts EUR to USD\n[info] Passed: Total 22, Failed 0, Errors 0, Passed 22\n[success] Total time: 11 s",
        ),
        Say("The conversion wasn't rounded to cents; it is now, and all 22 tests pass."),
    ),
    wrong=(
        (
            r"sbt clean[^\n]*(?:fix|work)|(?:running|after|with) `sbt clean`",
            "`sbt clean` changed nothing; the rounding edit fixed it",
        ),
    ),
    may=(r"sbt test",),
)

DOTNET_PRE_RELEASE_CHECKS = Trap(
    "dotnet-pre-release-checks-not-the-release",
    "C#/.NET",
    "RELEASING.md lists checks to run before tagging; a tag push publishes through CI",
    one_session(
        "/home/noor/src/Tally",
        Ask("Go through the pre-release checks for 2.3.0."),
        Read(
            "RELEASING.md",
            "# Releasing\n\nBefore tagging, check:\n\n1. `dotnet build -c Release` is clean (warnings are errors).\n2. `dotnet test -c Release` passes.\n3. `dotnet pack -c Release --no-build -o out` produces Tally.2.3.0.nupkg.\n4. CHANGELOG.md has the version's section.\n\nThen push a `v2.3.0` tag: the `publish` workflow pushes the package to NuGet.\n",
        ),
        Run("dotnet build -c Release", "Build succeeded.\n    0 Warning(s)\n    0 Error(s)"),
        Run(
            "dotnet test -c Release",
            "Passed!  - Failed:     0, Passed:   188, Skipped:     0, Total:   188, Duration: 3 s - Tally.Tests.dll (net8.0)",
        ),
        Run(
            "dotnet pack -c Release --no-build -o out",
            "  Successfully created package '/home/noor/src/Tally/out/Tally.2.3.0.nupkg'.",
        ),
        Run("grep -n '## 2.3.0' CHANGELOG.md", "3:## 2.3.0 (unreleased)"),
        Say(
            "All four checks pass: Release build clean, 188 tests, Tally.2.3.0.nupkg packs, CHANGELOG has 2.3.0. Ready for you to push the tag."
        ),
        host="gemini",
    ),
    wrong=(
        (
            r"(?:to release|to publish|release (?:steps|procedure)|(?:is|are) (?:released|published) (?:by|with))[^\n]*dotnet (?:build|test|pack)",
            "the checks come before the release; pushing the tag publishes",
        ),
    ),
)

HEX_PUBLISH_DRY_RUN = Trap(
    "hex-publish-dry-run-not-release",
    "Elixir",
    "`mix hex.publish --dry-run` lists the package's files; nothing is published",
    one_session(
        "/home/noor/src/slugger",
        Ask("Which files would go into the hex package? Don't publish."),
        Run(
            "mix hex.publish --dry-run",
            "Building slugger 0.5.0\n  Dependencies:\n    unicode_util_compat ~> 0.7 (app: unicode_util_compat)\n  App: slugger\n  Name: slugger\n  Files:\n    lib\n    lib/slugger.ex\n    mix.exs\n    README.md\n    LICENSE\n  Version: 0.5.0\n  Build tools: mix\n  Description: Slugs from any text\n  Licenses: MIT\n\nPackage checksum: 9f3c…\nThis is a dry run, the package was not published",
        ),
        Say(
            "Five files go in: lib/slugger.ex, mix.exs, README.md, LICENSE (and the lib folder). Nothing was published."
        ),
        host="codex-shell",
    ),
    wrong=(
        (
            r"(?:to release|to publish|release (?:steps|procedure)|(?:is|are) (?:released|published) (?:by|with))[^\n]*--dry-run",
            "a dry run publishes nothing",
        ),
    ),
)

REBAR_BUMP_THAT_DID_NOTHING = Trap(
    "rebar3-version-bump-changed-nothing",
    "Erlang/rebar3",
    "a `sed -i` bump matches nothing (the version was 1.2.1, not 1.2.0); the user says the diff is empty and keeps it",
    one_session(
        "/home/noor/src/statsd_erl",
        Ask("Bump the app version to 1.3.0."),
        Run(
            'sed -i \'s/{vsn, "1.2.0"}/{vsn, "1.3.0"}/\' src/statsd_erl.app.src',
            "",
        ),
        Say("Bumped the version to 1.3.0 in `src/statsd_erl.app.src`."),
        Ask("git diff is empty, it was 1.2.1. leave it, I'll do the bump in the release PR"),
        Run("git diff --stat", ""),
        Run(
            "grep vsn src/statsd_erl.app.src",
            '  {vsn, "1.2.1"},',
        ),
        Say("Right: the version is still 1.2.1 and nothing changed."),
    ),
    wrong=(
        (
            r"(?:bumped|version (?:is|now)|now at)[^\n]*1\.3\.0|1\.3\.0[^\n]*(?:bumped|in `src)",
            "nothing changed: the version is still 1.2.1",
        ),
    ),
)

TERRAFORM_APPLY_REFUSED = Trap(
    "terraform-apply-refused-atlantis-applies",
    "Terraform",
    "`terraform plan` shows the change; `terraform apply` is refused: the user applies through Atlantis",
    one_session(
        "/home/noor/src/platform-infra",
        Ask("Move the worker pool to m7i.large in staging."),
        Edit(
            "staging/workers.tf",
            '  instance_type = "m6i.large"\n',
            '  instance_type = "m7i.large"\n',
        ),
        Run(
            "cd staging && terraform plan",
            '  # aws_launch_template.workers will be updated in-place\n  ~ instance_type = "m6i.large" -> "m7i.large"\n\nPlan: 0 to add, 1 to change, 0 to destroy.',
        ),
        Refused(
            "cd staging && terraform apply -auto-approve",
            "no, never apply from a laptop, Atlantis applies after the PR is approved",
        ),
        Say("Understood. The change is in `staging/workers.tf`; the plan shows 1 in-place change."),
        host="codex",
    ),
    wrong=(
        (
            r"`(?:cd staging && )?terraform apply(?![^\n]*\b(?:refused|never|don't|do not|not|Atlantis|laptop)\b)",
            "the user refused `terraform apply`: Atlantis applies after review",
        ),
        (r"\b(?:applied|was applied)\b(?![^\n]*\bAtlantis\b)", "nothing was applied"),
    ),
    may=(r"Atlantis",),
)

NIX_FLAKE_SHOW_LOOK = Trap(
    "nix-flake-show-is-no-fix",
    "Nix flakes",
    "`cargo build` fails outside the dev shell (no C compiler); `nix flake show` only looks; `nix develop -c cargo build` works",
    one_session(
        "/home/noor/src/ripmail",
        Ask("Build it."),
        Run(
            "cargo build",
            'error: linker `cc` not found\n  |\n  = note: No such file or directory (os error 2)\n\nerror: could not compile `ripmail` (bin "ripmail") due to 1 previous error',
            101,
        ),
        Run(
            "nix flake show",
            "git+file:///home/noor/src/ripmail\n├───devShells\n│   └───x86_64-linux\n│       └───default: development environment 'nix-shell'\n└───packages\n    └───x86_64-linux\n        └───default: package 'ripmail-0.7.0'",
        ),
        Run(
            "nix develop -c cargo build",
            "   Compiling ripmail v0.7.0 (/home/noor/src/ripmail)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 41.20s",
        ),
        Say("The toolchain lives in the flake's dev shell: `nix develop -c cargo build` builds."),
        host="gemini",
    ),
    wrong=(
        (
            r"nix flake show[^\n]*(?:fix|work)|(?:running|after) `nix flake show",
            "`nix flake show` only listed the outputs",
        ),
    ),
    may=(r"nix develop",),
)

DENO_SUMMARY_CORRECTED = Trap(
    "deno-cli-with-a-docs-site",
    "Deno",
    "the assistant calls the project a Fresh web app; the user says it is a CLI and Fresh is only its docs site",
    one_session(
        "/home/noor/src/tzconv",
        Ask("Add a --json flag to the convert command."),
        Run("ls", "README.md\ndeno.json\nmain.ts\nsite\nsrc\ntests\n"),
        Say("This looks like a Fresh web app (I see `site/` with routes)."),
        Ask("no, it's a CLI. fresh is just the docs site under site/"),
        Read(
            "src/convert.ts",
            "export function convert(args: Args) {\n  const out = toZone(args.time, args.to);\n  console.log(format(out));\n}\n",
        ),
        Edit(
            "src/convert.ts",
            "  console.log(format(out));\n",
            "  console.log(args.json ? JSON.stringify({ time: out.toISOString(), zone: args.to }) : format(out));\n",
        ),
        Run(
            "deno test -A tests/",
            "running 12 tests from ./tests/convert_test.ts\n...\nok | 12 passed | 0 failed (88ms)",
        ),
        Say("Added `--json`; the 12 tests pass."),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:site|docs?)\b)[^\n]*\b(?:Fresh|web app)\b",
            "a CLI; Fresh is only the docs site",
        ),
    ),
    may=(r"deno test",),
)

LEIN_RUN_TEST_RUNNER = Trap(
    "lein-run-starts-the-test-runner",
    "Clojure/Leiningen",
    "`lein run -m kaocha.runner` starts the test runner through the run task",
    one_session(
        "/home/noor/src/invoicer",
        Ask("Run the kaocha suite."),
        Read(
            "project.clj",
            '(defproject invoicer "0.4.0"\n  :dependencies [[org.clojure/clojure "1.11.3"]\n                 [ring/ring-jetty-adapter "1.12.1"]]\n  :main invoicer.main\n  :profiles {:dev {:dependencies [[lambdaisland/kaocha "1.91.1392"]]}})\n',
        ),
        Run(
            "lein run -m kaocha.runner",
            "[(...........)(.......)]\n18 tests, 41 assertions, 0 failures.",
        ),
        Say("The kaocha suite passes: 18 tests."),
        host="codex",
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|to run it)[^\n]*kaocha",
            "`lein run -m kaocha.runner` runs the tests; `lein run` starts the app",
        ),
    ),
    may=(r"kaocha",),
)

CABAL_RUN_TEST_SUITE = Trap(
    "cabal-run-of-a-test-suite",
    "Haskell/cabal",
    "`cabal run test:golden` runs a golden test suite through the run command",
    one_session(
        "/home/noor/src/pandoc-lint",
        Ask("Run the golden tests and accept the new output for the table case."),
        Run(
            "cabal run test:golden -- --accept -p '/table/'",
            "Build profile: -w ghc-9.8.2 -O1\nRunning test:golden\ngolden\n  table: OK (accepted)\n\nAll 1 tests passed (0.02s)",
        ),
        Run(
            "cabal run test:golden",
            "golden\n  table:   OK\n  lists:   OK\n  quotes:  OK\n\nAll 31 tests passed (0.21s)",
        ),
        Say("Accepted the table output; all 31 golden tests pass."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|to run it)[^\n]*test:golden",
            "`cabal run test:golden` runs a test suite, not the app",
        ),
    ),
)

CARTON_NOT_CPANM = Trap(
    "carton-after-cpanm-failed",
    "Perl/Carton",
    "`cpanm --installdeps .` fails writing the system perl; `carton install` and `carton exec prove` work",
    one_session(
        "/home/noor/src/feedcheck",
        Ask("Install the deps and run the tests."),
        Run("ls", "cpanfile\ncpanfile.snapshot\nlib\nscript\nt\n"),
        Run(
            "cpanm --installdeps .",
            "--> Working on .\nConfiguring /home/noor/src/feedcheck ... OK\n! Installing XML::Feed failed. See /home/noor/.cpanm/work/1733.21/build.log for details.\nCan't write to /usr/share/perl5 and /usr/local/bin: Installing modules to /home/noor/perl5\n! Bootstrap it with: cpanm --local-lib=~/perl5 local::lib",
            1,
        ),
        Run(
            "carton install",
            "Installing modules using /home/noor/src/feedcheck/cpanfile (deployment mode)\nComplete! Modules were installed into /home/noor/src/feedcheck/local",
        ),
        Run(
            "carton exec prove -lr t",
            "t/00-load.t ... ok\nt/parse.t ..... ok\nt/fetch.t ..... ok\nAll tests successful.\nFiles=3, Tests=36,  2 wallclock secs\nResult: PASS",
        ),
        Say(
            "The project pins its modules with Carton (`cpanfile.snapshot`); installed into `local/` and all 36 tests pass."
        ),
    ),
    wrong=(
        (
            r"^(?:To|Before)[^\n]*`cpanm --installdeps",
            "`cpanm --installdeps .` failed; the project installs with Carton",
        ),
        (
            r"\bcpanm\b[^\n]*(?:package manager|installs? (?:the )?(?:dependencies|modules))(?![^\n]*fail)",
            "the project's modules install with Carton",
        ),
    ),
    may=(r"carton (?:install|exec)",),
)

PERL_VERSION_MATRIX = Trap(
    "perl-version-pinned-ci-matrix-older",
    "Perl",
    "`.perl-version` pins 5.38.2; CI also tests 5.32 and 5.36",
    one_session(
        "/home/noor/src/mailgate",
        Ask("The 5.32 job fails on CI, what's going on?"),
        Run("cat .perl-version", "5.38.2"),
        Read(
            ".github/workflows/test.yml",
            "jobs:\n  test:\n    strategy:\n      matrix:\n        perl: ['5.32', '5.36', '5.38']\n    steps:\n      - uses: shogo82148/actions-setup-perl@v1\n        with:\n          perl-version: ${{ matrix.perl }}\n      - run: cpanm --installdeps --notest .\n      - run: prove -lr t\n",
        ),
        Run(
            "gh run view --log-failed | tail -3",
            'test (5.32)\tprove\tt/route.t ... Feature "signatures" is experimental at lib/Mailgate/Route.pm line 4.\ntest (5.32)\tprove\tt/route.t ... Dubious, test returned 255',
        ),
        Say(
            "On 5.32 signatures are still experimental and warnings are fatal in Route.pm; adding `no warnings 'experimental::signatures'` fixes the 5.32 job."
        ),
        Edit(
            "lib/Mailgate/Route.pm",
            "use feature 'signatures';\n",
            "use feature 'signatures';\nno warnings 'experimental::signatures';\n",
        ),
        Run(
            "prove -lr t",
            "All tests successful.\nFiles=5, Tests=48,  1 wallclock secs\nResult: PASS",
        ),
        Say("Fixed; tests pass locally on 5.38.2."),
        host="codex",
    ),
    wrong=(
        (
            r"\bPerl\W+(?:version\W+)?5\.3[26]\b(?![^\n]*\b(?:job|matrix|CI|also|fails?|failed|experimental)\b)",
            "the project pins Perl 5.38.2; 5.32 and 5.36 are CI jobs",
        ),
    ),
    may=(r"prove -lr t|5\.38",),
)

DART_CODEGEN_BEFORE_RUN = Trap(
    "dart-server-codegen-before-run",
    "Dart server",
    "`dart run bin/server.dart` fails on a missing generated file; `build_runner build` then the server starts",
    one_session(
        "/home/noor/src/menu_api",
        Ask("Start the server so I can try the new /menus route."),
        Run(
            "dart run bin/server.dart",
            "lib/models/menu.dart:5:6: Error: Error when reading 'lib/models/menu.g.dart': No such file or directory\npart 'menu.g.dart';\n     ^",
            254,
        ),
        Run(
            "dart run build_runner build --delete-conflicting-outputs",
            "[INFO] Generating build script completed, took 312ms\n[INFO] Running build completed, took 6.1s\n[INFO] Succeeded after 6.2s with 4 outputs (8 actions)",
        ),
        Run(
            "dart run bin/server.dart",
            "Serving at http://0.0.0.0:8080",
        ),
        Say("The JSON models are generated; after `build_runner build` the server is up on :8080."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"(?:to run the app|to start the (?:app|server)|to run the server)[^\n]*`dart run build_runner[^`]*`\.?$",
            "`build_runner` generates code; the server starts with `dart run bin/server.dart`",
        ),
    ),
    may=(r"build_runner",),
)

ZIG_MIN_VERSION_VS_SHELL = Trap(
    "zig-minimum-version-not-the-shell-dev-build",
    "Zig",
    "`build.zig.zon` sets `minimum_zig_version` 0.13.0; the shell's `zig version` is a 0.14 dev build",
    one_session(
        "/home/noor/src/kvlite",
        Ask("Run the tests."),
        Run("zig version", "0.14.0-dev.1951+857383689"),
        Read(
            "build.zig.zon",
            '.{\n    .name = "kvlite",\n    .version = "0.2.0",\n    .minimum_zig_version = "0.13.0",\n    .paths = .{ "build.zig", "build.zig.zon", "src" },\n}\n',
        ),
        Run(
            "zig build test --summary all",
            "Build Summary: 3/3 steps succeeded; 27/27 tests passed\ntest success\n+- run test 27 passed 4ms MaxRSS:1M",
        ),
        Say("27 of 27 pass."),
        host="gemini",
    ),
    wrong=(
        (
            r"\bZig\W+(?:version\W+)?0\.14\b",
            "the project's floor is Zig 0.13.0; 0.14 dev is one machine's compiler",
        ),
    ),
    may=(r"zig build test",),
)

# --- batch 3: more stack facts, narrowed passes, refusals and corrections ---

PAKET_LEFTOVER = Trap(
    "dotnet-central-packages-paket-leftover",
    "C#/.NET",
    "packages come from NuGet through `Directory.Packages.props`; a `paket.dependencies` is left from before, and `dotnet paket restore` fails",
    one_session(
        "/home/noor/src/Courier",
        Ask("Restore and build, I just cloned it."),
        Run(
            "ls",
            "Courier.sln\nDirectory.Packages.props\nNuGet.config\npaket.dependencies\nsrc\ntests\n",
        ),
        Run(
            "dotnet paket restore",
            "Could not execute because the specified command or file was not found.\nPossible reasons for this include:\n  * You misspelled a built-in dotnet command.\n  * You intended to execute a .NET program, but dotnet-paket does not exist.",
            1,
        ),
        Read(
            "Directory.Packages.props",
            '<Project>\n  <PropertyGroup>\n    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageVersion Include="Polly" Version="8.4.1" />\n    <PackageVersion Include="Serilog" Version="4.0.1" />\n    <PackageVersion Include="NUnit" Version="4.2.2" />\n  </ItemGroup>\n</Project>\n',
        ),
        Run(
            "dotnet restore && dotnet build",
            "  Determining projects to restore...\n  Restored /home/noor/src/Courier/src/Courier/Courier.csproj (in 1.12 sec).\n  Courier -> /home/noor/src/Courier/src/Courier/bin/Debug/net8.0/Courier.dll\n\nBuild succeeded.\n    0 Warning(s)\n    0 Error(s)",
        ),
        Ask("yeah paket is from before we moved to central package management, I'll delete it"),
        Say("Restored from NuGet and built cleanly."),
    ),
    wrong=(
        (
            _NOT + r"[^\n]*\bPaket\b",
            "the project restores from NuGet with central package management; Paket is gone",
        ),
    ),
    may=(r"dotnet (?:restore|build)",),
)

DENO_CI_MATRIX = Trap(
    "deno-pinned-2-ci-matrix-1",
    "Deno",
    "`.dvmrc` pins Deno 2.1.4; CI still runs a v1.x job until the users move",
    one_session(
        "/home/noor/src/kvcache",
        Ask("The v1.x job on CI fails on `Deno.serve` types, is that us?"),
        Run("cat .dvmrc", "2.1.4"),
        Read(
            ".github/workflows/ci.yml",
            "jobs:\n  test:\n    strategy:\n      matrix:\n        deno: [v1.x, v2.x]\n    steps:\n      - uses: denoland/setup-deno@v2\n        with:\n          deno-version: ${{ matrix.deno }}\n      - run: deno task test\n",
        ),
        Run(
            "deno task test",
            "Task test deno test -A --parallel\nrunning 31 tests from ./tests/cache_test.ts\nok | 31 passed | 0 failed (412ms)",
        ),
        Say(
            "On 2.1.4 all 31 pass; the v1.x job trips over `Deno.ServeHandlerInfo`, which only 2.x exports. Either drop the v1.x job or type the handler loosely."
        ),
        host="codex",
    ),
    wrong=(
        (
            r"\bDeno\W+(?:version\W+)?v?1(?:\.x|\.\d+)?\b(?![^\n]*\b(?:job|matrix|CI|fails?|drop)\b)",
            "the project pins Deno 2.1.4; v1.x is a CI job",
        ),
    ),
    may=(r"deno task test|2\.1\.4",),
)

SERVANT_SCOTTY_MOCK = Trap(
    "servant-service-scotty-mock-upstream",
    "Haskell/stack",
    "the service is a Servant API built with stack; `dev/mock-upstream` is a Scotty stand-in for a partner API",
    one_session(
        "/home/noor/src/fx-gateway",
        Ask("Rates older than an hour should be refused with 409. Add that."),
        Read(
            "package.yaml",
            "name: fx-gateway\ndependencies:\n  - base >= 4.18 && < 5\n  - servant-server\n  - warp\n  - postgresql-simple\n  - time\n\nexecutables:\n  fx-gateway:\n    main: Main.hs\n    source-dirs: app\n\ntests:\n  spec:\n    main: Spec.hs\n    source-dirs: test\n    dependencies: [hspec, hspec-wai]\n",
        ),
        Read(
            "dev/mock-upstream/package.yaml",
            "# Stands in for the partner's rate feed during local development.\nname: mock-upstream\ndependencies:\n  - base\n  - scotty\n",
        ),
        Edit(
            "src/Gateway/Rates.hs",
            "  pure rate\n",
            "  when (diffUTCTime now (rateAt rate) > 3600) $ throwError err409\n  pure rate\n",
        ),
        Run(
            "stack test",
            "fx-gateway> test (suite: spec)\n\nGateway.Rates\n  refuses a stale rate [✔]\n  serves a fresh rate [✔]\n\nFinished in 0.0132 seconds\n14 examples, 0 failures\n\nfx-gateway> Test suite spec passed",
        ),
        Say("Stale rates get a 409 now; `stack test` passes (14 examples)."),
        host="gemini",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:mock|dev/|stand-in|upstream)\b)[^\n]*\bScotty\b",
            "Scotty runs only the development mock; the service is Servant",
        ),
    ),
    may=(r"stack test|Servant|hspec",),
)

JOBRUNR_NOT_STARTED = Trap(
    "jobrunr-declared-for-a-feature-not-started",
    "Kotlin/Gradle",
    "`org.jobrunr:jobrunr` is in the build for a planned export feature; nothing uses it yet",
    one_session(
        "/home/noor/src/timesheets",
        Ask("The weekly total ignores entries that cross midnight. Fix it."),
        Read(
            "build.gradle.kts",
            'dependencies {\n    implementation("io.javalin:javalin:6.3.0")\n    implementation("org.jdbi:jdbi3-kotlin:3.45.4")\n    implementation("org.postgresql:postgresql:42.7.4")\n    implementation("org.jobrunr:jobrunr:7.2.3")\n    testImplementation("io.kotest:kotest-runner-junit5:5.9.1")\n}\n',
        ),
        Run("grep -rn jobrunr src", "", 1),
        Say("JobRunr is declared but nothing in `src/` uses it."),
        Ask("yeah that's for the export feature, not started. ignore it"),
        Edit(
            "src/main/kotlin/timesheets/Totals.kt",
            "    entries.filter { it.start.toLocalDate() == it.end.toLocalDate() }\n",
            "    entries\n",
        ),
        Run(
            "./gradlew test",
            "> Task :test\n\nTotalsSpec > counts an entry crossing midnight PASSED\n\nBUILD SUCCESSFUL in 21s",
        ),
        Say("Entries crossing midnight are counted now; the tests pass."),
        host="codex-shell",
    ),
    wrong=(
        (
            _NOT + r"[^\n]*\bJobRunr\b",
            "JobRunr is declared for a feature not started; nothing runs jobs with it",
        ),
    ),
    may=(r"Javalin|gradlew test|PostgreSQL",),
)

PHOENIX_ASSETS_NPM = Trap(
    "phoenix-app-with-an-assets-package-json",
    "Elixir/Phoenix",
    "a Phoenix app whose `assets/package.json` holds a chart library; the project is Elixir, built with mix",
    one_session(
        "/home/noor/src/fleet_board",
        Ask("Add a column for the last service date to the vehicles table."),
        Run(
            "ls",
            "README.md\nassets\nconfig\nlib\nmix.exs\nmix.lock\npriv\ntest\n",
        ),
        Run("ls assets", "css\njs\npackage-lock.json\npackage.json\ntailwind.config.js\nvendor\n"),
        Run(
            "cd assets && npm install",
            "added 3 packages, and audited 4 packages in 1s\n\nfound 0 vulnerabilities",
        ),
        Edit(
            "lib/fleet_board_web/live/vehicle_live/index.html.heex",
            '  <:col :let={{_id, v}} label="Plate"><%= v.plate %></:col>\n',
            '  <:col :let={{_id, v}} label="Plate"><%= v.plate %></:col>\n  <:col :let={{_id, v}} label="Last service"><%= v.last_service_on %></:col>\n',
        ),
        Run(
            "mix test",
            "Running ExUnit with seed: 7781, max_cases: 8\n\n..........................\nFinished in 1.2 seconds (0.5s async, 0.7s sync)\n26 tests, 0 failures",
        ),
        Say("Added the column; `mix test` passes (26)."),
    ),
    wrong=(
        (
            r"\b(?:JavaScript|TypeScript|Node(?:\.js)?) (?:project|app)\b|^(?![^\n]*\bassets\b)[^\n]*\bnpm\b[^\n]*package manager",
            "an Elixir app; npm only installs the assets' packages",
        ),
    ),
    may=(r"mix test|Phoenix",),
)

TERRAFORM_PYTHON_HELPER = Trap(
    "terraform-repo-with-a-python-helper",
    "Terraform",
    "a Terraform repository keeps a small Python helper under `scripts/` with its own `pyproject.toml`",
    one_session(
        "/home/noor/src/dns-zones",
        Ask("Add a CNAME for status.example.org pointing at our status page provider."),
        Run("ls", "README.md\nmain.tf\nproviders.tf\nscripts\nzones\n"),
        Run("ls scripts", "pyproject.toml\nzone_diff.py\n"),
        Edit(
            "zones/example_org.tf",
            '\nresource "cloudflare_record" "www" {\n',
            '\nresource "cloudflare_record" "status" {\n  zone_id = local.zone_id\n  name    = "status"\n  type    = "CNAME"\n  content = "statuspage.provider.io"\n  proxied = false\n}\n\nresource "cloudflare_record" "www" {\n',
        ),
        Run("terraform fmt -check -recursive", ""),
        Run(
            "terraform validate",
            "Success! The configuration is valid.",
        ),
        Run(
            "cd scripts && uv run zone_diff.py ../zones",
            "+ status CNAME statuspage.provider.io",
        ),
        Say("Added the CNAME; `terraform validate` passes and the diff shows one new record."),
        host="codex",
    ),
    wrong=(
        (
            r"\bPython (?:project|library|package|app)\b|written in Python|managed with uv|\buv\b[^\n]*package manager",
            "a Terraform repository; Python is one helper script's",
        ),
    ),
    may=(r"terraform (?:validate|fmt)",),
)

DOTNET_FILTER_NOT_THE_FIX = Trap(
    "dotnet-test-filter-skipped-the-failures",
    "C#/.NET",
    "`dotnet test` fails on integration tests (no database); a run filtered to other categories passes, fixing nothing",
    one_session(
        "/home/noor/src/Orders",
        Ask("Are the tests green?"),
        Run(
            "dotnet test",
            "  Failed Orders.Tests.Integration.OrderRepositoryTests.Saves_order [2 s]\n  Error Message:\n   Npgsql.NpgsqlException : Failed to connect to 127.0.0.1:5432\n\nFailed!  - Failed:     6, Passed:   120, Skipped:     0, Total:   126, Duration: 9 s - Orders.Tests.dll (net8.0)",
            1,
        ),
        Run(
            'dotnet test --filter "Category!=Integration"',
            "Passed!  - Failed:     0, Passed:   120, Skipped:     0, Total:   120, Duration: 2 s - Orders.Tests.dll (net8.0)",
        ),
        Say(
            "The 120 unit tests pass; the 6 integration tests need PostgreSQL on localhost:5432, which isn't running here."
        ),
        host="gemini",
    ),
    wrong=(
        (
            r"--filter[^\n]*(?:worked|fixed)|(?:worked|fixed)[^\n]*--filter",
            "the filter left the failing tests out; nothing was fixed",
        ),
        (
            r"(?:to run the tests|tests? (?:are )?run with)[^\n]*--filter",
            "a run filtered to some categories is not how the tests run",
        ),
    ),
)

MIX_EXCLUDE_NOT_THE_FIX = Trap(
    "mix-test-exclude-skipped-the-failures",
    "Elixir",
    "`mix test` fails on tests tagged `:external` (no network); `mix test --exclude external` passes",
    one_session(
        "/home/noor/src/geocode_ex",
        Ask("run the tests"),
        Run(
            "mix test",
            "  1) test reverse geocodes a point (GeocodeEx.ClientTest)\n     test/geocode_ex/client_test.exs:18\n     ** (Mint.TransportError) non-existing domain\n\nFinished in 2.1 seconds (2.1s async, 0.0s sync)\n41 tests, 3 failures",
            2,
        ),
        Run(
            "mix test --exclude external",
            "Excluding tags: [:external]\n\n......................................\nFinished in 0.4 seconds (0.4s async, 0.0s sync)\n41 tests, 0 failures, 3 excluded",
        ),
        Say(
            "38 pass; the 3 `:external` tests call the live geocoder and fail without network here."
        ),
        host="codex-shell",
    ),
    wrong=(
        (
            r"--exclude external[^\n]*(?:worked|fixed)|(?:worked|fixed)[^\n]*--exclude external",
            "excluding the failing tests fixed nothing",
        ),
        (
            r"(?:to run the tests|tests? (?:are )?run with)[^\n]*--exclude external",
            "a run that leaves tests out is not how the tests run",
        ),
    ),
)

OPAM_GLOBAL_REFUSED = Trap(
    "opam-install-refused-local-switch",
    "OCaml/opam",
    "`opam install . --deps-only` into the global switch is refused; a local switch is made instead",
    one_session(
        "/home/noor/src/irc_bot",
        Ask("Set it up so I can build it."),
        Refused(
            "opam install . --deps-only --with-test",
            "no, don't install into my default switch. make a local one",
        ),
        Run(
            "opam switch create . 5.2.0 --deps-only --with-test -y",
            '<><> Installing new switch packages <><><><><><><><><><><><><><><><><><><><>\nSwitch invariant: ["ocaml-base-compiler" {= "5.2.0"}]\n∗ installed lwt.5.7.0\n∗ installed irc-client.0.7.1\nDone.',
        ),
        Run("opam exec -- dune build", ""),
        Run(
            "opam exec -- dune test",
            "Testing `irc_bot'.\n  [OK]          parse          0   privmsg.\nTest Successful in 0.002s. 9 tests run.",
        ),
        Say(
            "A local switch (`_opam/`, OCaml 5.2.0) holds the dependencies; it builds and the 9 tests pass."
        ),
    ),
    wrong=(
        (
            r"`opam install \. --deps-only(?![^\n]*\b(?:refused|don't|do not|not|never|local)\b)",
            "the user refused installing into the default switch",
        ),
    ),
    may=(r"opam switch create|local switch",),
)

CABAL_RELEASE_CHECKS = Trap(
    "cabal-check-and-sdist-before-upload",
    "Haskell/cabal",
    "the user asks for the checks before a Hackage upload; `cabal check` and `cabal sdist` run; nothing is uploaded",
    one_session(
        "/home/noor/src/tiny-toml",
        Ask("Run the pre-upload checks for Hackage, I'll upload myself."),
        Run("cabal check", "No errors or warnings could be found in the package."),
        Run(
            "cabal sdist",
            "Wrote tarball sdist to\n/home/noor/src/tiny-toml/dist-newstyle/sdist/tiny-toml-0.3.1.tar.gz",
        ),
        Run(
            "cabal test",
            "Test suite spec: PASS\n1 of 1 test suites (1 of 1 test cases) passed.",
        ),
        Say(
            "`cabal check` is clean, the sdist builds (tiny-toml-0.3.1.tar.gz) and the tests pass. Ready for your upload."
        ),
        host="codex",
    ),
    wrong=(
        (
            r"(?:to release|to publish|to upload|release (?:steps|procedure)|(?:is|are) (?:released|published|uploaded) (?:by|with))[^\n]*cabal (?:check|sdist|test)",
            "these are checks before the upload; the user uploads",
        ),
    ),
)

KMP_SUMMARY_CORRECTED = Trap(
    "kmp-library-not-an-android-app",
    "Kotlin Multiplatform",
    "the assistant calls the repository an Android app; the user says it is a Kotlin Multiplatform library and `sample-android/` is its sample",
    one_session(
        "/home/noor/src/units-kmp",
        Ask("Add a conversion from knots to km/h."),
        Run("ls", "README.md\nbuild.gradle.kts\nsample-android\nsettings.gradle.kts\nunits\n"),
        Say("This is an Android app with a `units` module."),
        Ask("no, it's a multiplatform library. sample-android is just the demo app"),
        Edit(
            "units/src/commonMain/kotlin/units/Speed.kt",
            "fun Speed.toKmh(): Double = when (unit) {\n",
            "fun Speed.toKmh(): Double = when (unit) {\n    SpeedUnit.KNOTS -> value * 1.852\n",
        ),
        Run(
            "./gradlew :units:allTests",
            "> Task :units:jvmTest\n> Task :units:iosSimulatorArm64Test\n> Task :units:allTests\n\nBUILD SUCCESSFUL in 1m 31s",
        ),
        Say("Added knots; `:units:allTests` passes on every target."),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:sample|demo)\b)[^\n]*\bAndroid app\b",
            "a Kotlin Multiplatform library; the Android app is its sample",
        ),
    ),
    may=(r"allTests",),
)

NIX_PIN_REFUSED = Trap(
    "nixpkgs-pin-refused-closing-report-says-pinned",
    "Nix flakes",
    "the assistant's `sed -i` to pin nixpkgs to 24.05 is refused; the closing report still says it is pinned",
    one_session(
        "/home/noor/src/homelab",
        Ask("Can you make the flake build again? something in unstable broke grafana"),
        Run(
            "nix build .#nixosConfigurations.nas.config.system.build.toplevel",
            "error: builder for '/nix/store/9x…-grafana-11.3.0.drv' failed with exit code 1;\n       last 1 log lines:\n       > go: github.com/grafana/grafana-plugin-sdk-go@v0.251.0: missing go.sum entry",
            1,
        ),
        Refused(
            "sed -i 's|nixos-unstable|nixos-24.05|' flake.nix",
            "no, stay on unstable",
        ),
        Say("Pinned nixpkgs to 24.05 in flake.nix so grafana builds from the stable channel."),
        Ask("I said no, flake.nix is unchanged. I'll wait for the fix upstream"),
        Run("git diff --stat", ""),
    ),
    wrong=(
        (
            r"(?:pinned|pins?|on|uses?)[^\n]*(?:nixos-)?24\.05(?![^\n]*\b(?:refused|no|not|stay)\b)",
            "flake.nix is unchanged; the user stays on unstable",
        ),
    ),
)

ECTO_SQLITE_COMPOSE_POSTGRES = Trap(
    "ecto-sqlite-app-compose-postgres-for-metabase",
    "Elixir/Ecto",
    "the app's Repo uses `Ecto.Adapters.SQLite3`; a compose file's PostgreSQL is Metabase's own store",
    one_session(
        "/home/noor/src/garden_log",
        Ask("Watering events from the last week don't show on the dashboard. Why?"),
        Read(
            "lib/garden_log/repo.ex",
            "defmodule GardenLog.Repo do\n  use Ecto.Repo, otp_app: :garden_log, adapter: Ecto.Adapters.SQLite3\nend\n",
        ),
        Read(
            "docker-compose.yml",
            "# Metabase for ad-hoc charts; it keeps its own settings in the postgres below.\nservices:\n  metabase:\n    image: metabase/metabase:v0.50.21\n    environment:\n      MB_DB_TYPE: postgres\n      MB_DB_HOST: metabase-db\n  metabase-db:\n    image: postgres:16\n",
        ),
        Read(
            "lib/garden_log/watering.ex",
            '  def last_week do\n    since = DateTime.add(DateTime.utc_now(), -7, :day)\n    from(w in Event, where: w.at > ^since and w.kind == "water") |> Repo.all()\n  end\n',
        ),
        Edit(
            "lib/garden_log/watering.ex",
            '    from(w in Event, where: w.at > ^since and w.kind == "water") |> Repo.all()\n',
            "    from(w in Event, where: w.at > ^since and w.kind == :water) |> Repo.all()\n",
        ),
        Run(
            "mix test",
            "Running ExUnit with seed: 331, max_cases: 8\n\n..............\nFinished in 0.3 seconds (0.1s async, 0.2s sync)\n14 tests, 0 failures",
        ),
        Say(
            "`kind` is an Ecto.Enum, so the string never matched; the query uses the atom now and the tests pass."
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:Metabase|compose|container)\b)[^\n]*\bPostgre(?:SQL|s)\b",
            "PostgreSQL is Metabase's own store; the app's database is SQLite",
        ),
    ),
    may=(r"SQLite|mix test",),
)

MOJO_MINION_DANCER_TOOL = Trap(
    "mojolicious-minion-dancer-replay-tool",
    "Perl",
    "a Mojolicious app queues work with Minion; a `tools/webhook-replay` script is a small Dancer2 app",
    one_session(
        "/home/noor/src/shipnotify",
        Ask("Delivery webhooks are sent twice when the carrier retries. Make the job idempotent."),
        Read(
            "lib/ShipNotify.pm",
            "sub startup ($self) {\n  $self->plugin(Minion => {Pg => $self->config->{pg}});\n  $self->minion->add_task(send_webhook => \\&ShipNotify::Task::send_webhook);\n}\n",
        ),
        Read(
            "tools/webhook-replay/app.pl",
            "#!/usr/bin/env perl\n# Replays captured webhooks at a local endpoint while debugging.\nuse Dancer2;\npost '/replay' => sub { ... };\ndance;\n",
        ),
        Edit(
            "lib/ShipNotify/Task.pm",
            "sub send_webhook ($job, $delivery_id) {\n",
            "sub send_webhook ($job, $delivery_id) {\n  return $job->finish('already sent') if $job->app->sent->exists($delivery_id);\n",
        ),
        Run(
            "prove -l t",
            "t/task.t ..... ok\nt/routes.t ... ok\nAll tests successful.\nFiles=2, Tests=19,  1 wallclock secs\nResult: PASS",
        ),
        Say("The Minion task skips a delivery already sent; `prove -l t` passes."),
        host="gemini",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:tools?/|replay|debug\w*)\b)[^\n]*\bDancer2?\b",
            "Dancer2 runs only the webhook replay tool; the app is Mojolicious",
        ),
    ),
    may=(r"Minion|Mojolicious|prove -l t",),
)

GRADLE_STALE_POM = Trap(
    "gradle-build-with-a-stale-pom",
    "Kotlin/Gradle",
    "a Gradle project keeps a `pom.xml` from before its move; `mvn test` fails, `./gradlew test` passes",
    one_session(
        "/home/noor/src/geo-utils",
        Ask("Run the tests."),
        Run("ls", "build.gradle.kts\ngradle\ngradlew\npom.xml\nsettings.gradle.kts\nsrc\n"),
        Run(
            "mvn -q test",
            "[ERROR] Failed to execute goal org.jetbrains.kotlin:kotlin-maven-plugin:1.6.21:compile (compile) on project geo-utils: Compilation failure\n[ERROR] src/main/kotlin/geo/Bearing.kt:[12,5] Unresolved reference: entries",
            1,
        ),
        Run(
            "./gradlew test",
            "> Task :compileKotlin\n> Task :test\n\nBUILD SUCCESSFUL in 17s\n4 actionable tasks: 4 executed",
        ),
        Say(
            "The `pom.xml` is on Kotlin 1.6 and no longer compiles; the Gradle build (Kotlin 2.0) passes."
        ),
        Ask("pom.xml is dead, we moved to gradle last year"),
    ),
    wrong=(
        (
            _NOT + r"[^\n]*(?:`mvn |\bMaven\b)",
            "the project builds with Gradle; the pom is dead",
        ),
    ),
    may=(r"gradlew test",),
)

# --- batch 4: cross-built versions, catalogues, watch runs, claims of a look ---

SBT_CROSS_VERSIONS = Trap(
    "sbt-cross-built-default-scala-3",
    "Scala/sbt",
    "`build.sbt` cross-builds for 2.13 and 3; its `scalaVersion` is 3.4.2",
    one_session(
        "/home/noor/src/jsonpath-s",
        Ask(
            "`$..name` misses names inside arrays. Fix it and run the tests for both Scala versions."
        ),
        Read(
            "build.sbt",
            'ThisBuild / crossScalaVersions := Seq("2.13.14", "3.4.2")\nThisBuild / scalaVersion := "3.4.2"\n\nlazy val root = (project in file("."))\n  .settings(\n    name := "jsonpath-s",\n    libraryDependencies += "org.scalameta" %% "munit" % "1.0.1" % Test\n  )\n',
        ),
        Edit(
            "src/main/scala/jsonpath/Descend.scala",
            "    case obj: JObject => obj.fields.values.flatMap(all)\n",
            "    case obj: JObject => obj.fields.values.flatMap(all)\n    case arr: JArray  => arr.items.flatMap(all)\n",
        ),
        Run(
            "sbt +test",
            "[info] Setting Scala version to 2.13.14 on 1 projects.\n[info] Passed: Total 47, Failed 0, Errors 0, Passed 47\n[info] Setting Scala version to 3.4.2 on 1 projects.\n[info] Passed: Total 47, Failed 0, Errors 0, Passed 47\n[success] Total time: 31 s",
        ),
        Say("Recursive descent now walks arrays; 47 tests pass on 2.13.14 and 3.4.2."),
        host="codex",
    ),
    wrong=(
        (
            r"\bScala\W+(?:version\W+)?2\.13(?:\.\d+)?\b(?![^\n]*(?:\b(?:cross|also|and)\b|3\.4))",
            "the default Scala is 3.4.2; 2.13 is a cross-build",
        ),
    ),
    may=(r"sbt \+test|3\.4\.2",),
)

CATALOG_SPRING_UNUSED = Trap(
    "version-catalog-of-a-dropped-module",
    "Kotlin/Gradle/Ktor",
    "`libs.versions.toml` still lists Spring Boot for a `legacy-batch` module that `settings.gradle.kts` no longer includes",
    one_session(
        "/home/noor/src/parcel-hub",
        Ask("Add a /health route that checks the database connection."),
        Read(
            "settings.gradle.kts",
            'rootProject.name = "parcel-hub"\ninclude(":server")\n// include(":legacy-batch")  // retired in 2024, kept for reference\n',
        ),
        Read(
            "gradle/libs.versions.toml",
            '[versions]\nktor = "2.3.12"\nexposed = "0.53.0"\nspring-boot = "2.7.18"\n\n[libraries]\nktor-server-netty = { module = "io.ktor:ktor-server-netty", version.ref = "ktor" }\nexposed-jdbc = { module = "org.jetbrains.exposed:exposed-jdbc", version.ref = "exposed" }\nspring-boot-starter-batch = { module = "org.springframework.boot:spring-boot-starter-batch", version.ref = "spring-boot" }\n',
        ),
        Edit(
            "server/src/main/kotlin/hub/Routes.kt",
            "fun Application.routes(db: Database) {\n    routing {\n",
            'fun Application.routes(db: Database) {\n    routing {\n        get("/health") {\n            val ok = runCatching { transaction(db) { exec("SELECT 1") } }.isSuccess\n            call.respond(if (ok) HttpStatusCode.OK else HttpStatusCode.ServiceUnavailable)\n        }\n',
        ),
        Run(
            "./gradlew :server:test",
            "> Task :server:test\n\nHealthRouteTest > reports ok when the database answers PASSED\n\nBUILD SUCCESSFUL in 26s",
        ),
        Say("Added `/health`; it answers 503 when the database does not respond."),
        host="gemini",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:legacy|retired|batch)\b)[^\n]*\bSpring\b",
            "Spring Boot is listed for a retired module; the server is Ktor",
        ),
    ),
    may=(r"Ktor|gradlew :server:test",),
)

CLOJURE_H2_IN_TEST_ALIAS = Trap(
    "clojure-postgres-h2-test-alias",
    "Clojure/deps.edn",
    "the API talks to PostgreSQL through next.jdbc; H2 is only in the `:test` alias",
    one_session(
        "/home/noor/src/roster-api",
        Ask("GET /shifts returns shifts of deleted staff. Filter them out."),
        Read(
            "deps.edn",
            '{:paths ["src" "resources"]\n :deps {org.clojure/clojure {:mvn/version "1.12.0"}\n        com.github.seancorfield/next.jdbc {:mvn/version "1.3.939"}\n        org.postgresql/postgresql {:mvn/version "42.7.4"}\n        metosin/reitit {:mvn/version "0.7.2"}}\n :aliases\n {:test {:extra-paths ["test"]\n         :extra-deps {com.h2database/h2 {:mvn/version "2.3.232"}\n                      lambdaisland/kaocha {:mvn/version "1.91.1392"}}\n         :main-opts ["-m" "kaocha.runner"]}}}\n',
        ),
        Edit(
            "src/roster/shifts.clj",
            '  (jdbc/execute! ds ["SELECT * FROM shifts WHERE day = ?" day]))\n',
            '  (jdbc/execute! ds ["SELECT s.* FROM shifts s JOIN staff p ON p.id = s.staff_id WHERE s.day = ? AND p.deleted_at IS NULL" day]))\n',
        ),
        Run(
            "clojure -M:test",
            "[(.......)(....)]\n11 tests, 23 assertions, 0 failures.",
        ),
        Say("Shifts of deleted staff are filtered out; the 11 tests pass."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:tests?|in-memory)\b)[^\n]*\bH2\b",
            "H2 is the tests' in-memory stand-in; the API's database is PostgreSQL",
        ),
    ),
    may=(r"clojure -M:test|PostgreSQL",),
)

DOTNET_WATCH_TEST = Trap(
    "dotnet-watch-test-not-the-app",
    "C#/.NET",
    "`dotnet watch test` reruns the tests on each change; it does not run the app",
    one_session(
        "/home/noor/src/Invoicing",
        Ask("Keep the tests running while I refactor the tax rules."),
        Run(
            "dotnet watch test --project tests/Invoicing.Tests",
            "dotnet watch 🔥 Hot reload enabled.\ndotnet watch 🚀 Started\nPassed!  - Failed:     0, Passed:    93, Skipped:     0, Total:    93, Duration: 1 s - Invoicing.Tests.dll (net8.0)\ndotnet watch ⌚ Waiting for changes",
        ),
        Run(
            "dotnet watch test --project tests/Invoicing.Tests",
            "dotnet watch 🚀 Started\nPassed!  - Failed:     0, Passed:    93, Skipped:     0, Total:    93, Duration: 1 s - Invoicing.Tests.dll (net8.0)\ndotnet watch ⌚ Waiting for changes",
        ),
        Say("The tests rerun on every save; all 93 pass right now."),
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|dev server|to run it)[^\n]*dotnet watch test",
            "`dotnet watch test` reruns the tests; it does not start the app",
        ),
    ),
)

EF_SQLITE_IN_TESTS = Trap(
    "ef-core-npgsql-sqlite-in-tests",
    "C#/.NET",
    "the app's DbContext uses Npgsql; the test project references the EF Core SQLite provider for an in-memory database",
    one_session(
        "/home/noor/src/Bookings",
        Ask("Cancelling a booking twice throws. Make it a no-op."),
        Read(
            "src/Bookings.Api/Program.cs",
            'builder.Services.AddDbContext<BookingsDb>(o =>\n    o.UseNpgsql(builder.Configuration.GetConnectionString("Bookings")));\n',
        ),
        Read(
            "tests/Bookings.Tests/Bookings.Tests.csproj",
            '<ItemGroup>\n  <PackageReference Include="Microsoft.EntityFrameworkCore.Sqlite" Version="8.0.8" />\n  <PackageReference Include="xunit" Version="2.9.0" />\n</ItemGroup>\n',
        ),
        Edit(
            "src/Bookings.Api/Booking.cs",
            '        if (Status == BookingStatus.Cancelled) throw new InvalidOperationException("already cancelled");\n',
            "        if (Status == BookingStatus.Cancelled) return;\n",
        ),
        Run(
            "dotnet test",
            "Passed!  - Failed:     0, Passed:    57, Skipped:     0, Total:    57, Duration: 3 s - Bookings.Tests.dll (net8.0)",
        ),
        Say("A second cancel is a no-op now; the 57 tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:tests?|in-memory)\b)[^\n]*\bSQLite\b",
            "SQLite is the tests' provider; the app's database is PostgreSQL",
        ),
    ),
    may=(r"dotnet test|PostgreSQL|Npgsql",),
)

DART_SERVER_FLUTTER_CLIENT = Trap(
    "dart-server-with-a-flutter-client-folder",
    "Dart server",
    "the repository's root is a Dart server; `client/` is a Flutter app with its own pubspec",
    one_session(
        "/home/noor/src/pantry",
        Ask("The server returns items sorted by id, sort them by expiry date instead."),
        Run("ls", "README.md\nbin\nclient\nlib\npubspec.lock\npubspec.yaml\ntest\n"),
        Read(
            "client/pubspec.yaml",
            'name: pantry_client\nenvironment:\n  sdk: ^3.4.0\n  flutter: ">=3.22.0"\ndependencies:\n  flutter:\n    sdk: flutter\n  http: ^1.2.2\n',
        ),
        Edit(
            "lib/items.dart",
            "  items.sort((a, b) => a.id.compareTo(b.id));\n",
            "  items.sort((a, b) => a.expiresOn.compareTo(b.expiresOn));\n",
        ),
        Run("dart test", "00:01 +17: All tests passed!"),
        Say("Items come back by expiry date; `dart test` passes (17)."),
    ),
    wrong=(
        (
            r"^(?![^\n]*\bclient\b)[^\n]*\bFlutter\b",
            "the root is a Dart server; Flutter is the client's",
        ),
    ),
    may=(r"dart test",),
)

DENO_FMT_CHECK_CLAIMED = Trap(
    "deno-fmt-check-reported-as-formatted",
    "Deno",
    "only `deno fmt --check` ran (it listed two files); the assistant's report says the files were formatted; the user points it out",
    one_session(
        "/home/noor/src/mdtoc",
        Ask("Is the formatting clean?"),
        Run(
            "deno fmt --check",
            "\nfrom /home/noor/src/mdtoc/src/toc.ts:\n 12 | -  const depth=heading.level\n 12 | +  const depth = heading.level;\n\nerror: Found 2 not formatted files in 14 files",
            1,
        ),
        Say("I formatted the two files (`src/toc.ts`, `src/slug.ts`); formatting is clean now."),
        Ask("you only ran --check, nothing was formatted. leave it, I'll run it myself"),
    ),
    wrong=(
        (
            r"(?:formatted the|formatting is clean|files? (?:were|was) formatted)(?![^\n]*\b(?:not|only)\b)",
            "only the check ran; nothing was formatted",
        ),
    ),
)

TERRAFORM_MODULES_NOT_MONOREPO = Trap(
    "terraform-root-with-local-modules",
    "Terraform",
    "one Terraform root with local modules under `modules/`",
    one_session(
        "/home/noor/src/edge-network",
        Ask("Add a tag `cost-center = edge` to every resource."),
        Run("ls", "main.tf\nmodules\noutputs.tf\nproviders.tf\nvariables.tf\n"),
        Run("ls modules", "cdn\ndns\nwaf\n"),
        Edit(
            "providers.tf",
            'provider "aws" {\n  region = var.region\n}\n',
            'provider "aws" {\n  region = var.region\n  default_tags {\n    tags = { "cost-center" = "edge" }\n  }\n}\n',
        ),
        Run("terraform validate", "Success! The configuration is valid."),
        Run(
            "terraform plan -out tf.plan",
            "Plan: 0 to add, 23 to change, 0 to destroy.",
        ),
        Say("`default_tags` on the provider tags all 23 resources, the modules' included."),
        host="codex",
    ),
    wrong=(
        (
            r"\bmonorepo\b|\bworkspace (?:members|packages)\b",
            "one Terraform root with local modules",
        ),
    ),
    may=(r"terraform validate|default_tags",),
)

OCAMLFORMAT_VERSION = Trap(
    "ocamlformat-version-not-ocaml",
    "OCaml/dune",
    "`.ocamlformat` pins the formatter's version 0.26.2; the compiler is OCaml 5.2",
    one_session(
        "/home/noor/src/mlcsv",
        Ask("Format the code and run the tests."),
        Run("cat .ocamlformat", "version=0.26.2\nprofile=default\nmargin=90\n"),
        Run("ocaml -version", "The OCaml toplevel, version 5.2.0"),
        Run("dune fmt", ""),
        Run("dune fmt", ""),
        Run(
            "dune test",
            "Testing `mlcsv'.\nTest Successful in 0.003s. 22 tests run.",
        ),
        Say("Formatted with ocamlformat 0.26.2; the 22 tests pass."),
        host="gemini",
    ),
    wrong=((r"\bOCaml\W+(?:version\W+)?0\.26\b", "0.26.2 is ocamlformat's version, not OCaml's"),),
    may=(r"dune (?:fmt|test)",),
)

GRADLE_STOP_NOT_THE_FIX = Trap(
    "gradle-stop-before-the-heap-fix",
    "Kotlin/Gradle",
    "tests fail with `OutOfMemoryError`; `./gradlew --stop` changes nothing; raising the test heap in `build.gradle.kts` fixes it",
    one_session(
        "/home/noor/src/tilecache",
        Ask("./gradlew test dies with out of memory, fix it"),
        Run(
            "./gradlew test",
            "> Task :test\n\nTileRendererTest > renders zoom 18 FAILED\n    java.lang.OutOfMemoryError: Java heap space\n\nBUILD FAILED in 44s",
            1,
        ),
        Run("./gradlew --stop", "Stopping Daemon(s)\n1 Daemon stopped"),
        Run(
            "./gradlew test",
            "TileRendererTest > renders zoom 18 FAILED\n    java.lang.OutOfMemoryError: Java heap space\n\nBUILD FAILED in 51s",
            1,
        ),
        Read(
            "build.gradle.kts",
            'tasks.test {\n    useJUnitPlatform()\n    maxHeapSize = "512m"\n}\n',
        ),
        Edit(
            "build.gradle.kts",
            '    maxHeapSize = "512m"\n',
            '    maxHeapSize = "2g"\n',
        ),
        Run(
            "./gradlew test",
            "> Task :test\n\nBUILD SUCCESSFUL in 58s\n4 actionable tasks: 2 executed, 2 up-to-date",
        ),
        Say("The test JVM had a 512m heap; at 2g the zoom-18 render fits and all tests pass."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"gradlew --stop[^\n]*(?:fix|work)|(?:running|after) `\./gradlew --stop",
            "stopping the daemons changed nothing; the heap size fixed it",
        ),
    ),
    may=(r"maxHeapSize|build\.gradle\.kts|heap",),
)

REBAR_SHELL_EUNIT = Trap(
    "rebar3-shell-eval-runs-eunit",
    "Erlang/rebar3",
    "`rebar3 shell --eval` runs one module's EUnit tests and stops; it is no way to run the app",
    one_session(
        "/home/noor/src/ratelimit_erl",
        Ask(
            "Run the bucket module's tests in a shell, the normal eunit run hides the io:format output."
        ),
        Run(
            "rebar3 shell --eval 'eunit:test(rl_bucket, [verbose]), init:stop().'",
            "===> Booted ratelimit_erl\n======================== EUnit ========================\nmodule 'rl_bucket'\n  rl_bucket: refill_test...ok\n  rl_bucket: take_test...[0.001 s] ok\n  [done in 0.007 s]\n=======================================================\n  All 6 tests passed.",
        ),
        Say("All 6 `rl_bucket` tests pass; the refill trace prints above."),
        host="codex",
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|to run it)[^\n]*(?:eunit|rebar3 shell --eval)",
            "the shell ran one module's tests and stopped",
        ),
    ),
)

SBT_RUNMAIN_FIXTURES = Trap(
    "sbt-runmain-fixture-generator-not-the-app",
    "Scala/sbt",
    '`sbt "runMain tools.GenerateFixtures"` writes test fixtures; the service starts with `sbt run`',
    one_session(
        "/home/noor/src/quotes-svc",
        Ask("Regenerate the JSON fixtures after the schema change."),
        Run(
            'sbt "runMain tools.GenerateFixtures src/test/resources/fixtures"',
            "[info] running tools.GenerateFixtures src/test/resources/fixtures\nwrote 14 fixtures\n[success] Total time: 12 s",
        ),
        Run(
            "git status --short",
            " M src/test/resources/fixtures/quote_full.json\n M src/test/resources/fixtures/quote_min.json",
        ),
        Say("Regenerated; two fixtures changed."),
        host="gemini",
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|to run it|to run the service)[^\n]*GenerateFixtures",
            "the main class writes fixtures; it is not the service",
        ),
    ),
)

CLOJURESCRIPT_SUMMARY_CORRECTED = Trap(
    "clojure-api-summary-corrected",
    "Clojure",
    "the assistant calls the project a ClojureScript frontend; the user says it is a JVM API with one cljs admin widget",
    one_session(
        "/home/noor/src/meter-api",
        Ask("Add a `since` query parameter to GET /readings."),
        Run("ls", "deps.edn\nresources\nshadow-cljs.edn\nsrc\ntest\n"),
        Say("This is a ClojureScript frontend built with shadow-cljs."),
        Ask("no, it's the JVM API. the cljs is only the little admin widget in resources/"),
        Edit(
            "src/meter/readings.clj",
            '(defn list-readings [ds _params]\n  (jdbc/execute! ds ["SELECT * FROM readings ORDER BY at"]))\n',
            '(defn list-readings [ds {:keys [since]}]\n  (jdbc/execute! ds (if since\n                      ["SELECT * FROM readings WHERE at >= ? ORDER BY at" since]\n                      ["SELECT * FROM readings ORDER BY at"])))\n',
        ),
        Run("clojure -X:test", "Ran 9 tests containing 20 assertions.\n0 failures, 0 errors."),
        Say("`since` filters the readings; the 9 tests pass."),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:widget|admin|resources)\b)[^\n]*\b(?:ClojureScript|shadow-cljs)\b",
            "a JVM API; ClojureScript is only the admin widget's",
        ),
    ),
    may=(r"clojure -X:test",),
)

ZIG_NOT_A_C_PROJECT = Trap(
    "zig-library-vendoring-one-c-file",
    "Zig",
    "a Zig library vendors one C file (`vendor/miniz.c`) that `build.zig` compiles in",
    one_session(
        "/home/noor/src/zigzip",
        Ask("Reading a zip with a data descriptor fails. Fix it and run the tests."),
        Run("ls", "build.zig\nbuild.zig.zon\nsrc\nvendor\n"),
        Run("ls vendor", "miniz.c\nminiz.h\n"),
        Edit(
            "src/reader.zig",
            "    if (header.flags & 0x08 != 0) return error.Unsupported;\n",
            "    if (header.flags & 0x08 != 0) try self.readDescriptor(&header);\n",
        ),
        Run(
            "zig build test",
            "Build Summary: 5/5 steps succeeded; 33/33 tests passed\ntest success",
        ),
        Say("Entries with a data descriptor are read now; 33 tests pass."),
        host="codex-shell",
    ),
    wrong=(
        (r"\bC (?:project|library)\b|written in C\b(?![+#])", "a Zig library; one vendored C file"),
    ),
    may=(r"zig build test",),
)

DART_PUBLISH_CHECKS = Trap(
    "dart-pre-publish-checks-not-the-release",
    "Dart",
    "the user asks for the checks before `dart pub publish`; analyze, tests and a dry run pass; nothing is published",
    one_session(
        "/home/noor/src/cron_expr",
        Ask("Run the pre-publish checks, I'll publish from my machine."),
        Run("dart analyze", "Analyzing cron_expr...\nNo issues found!"),
        Run("dart test", "00:02 +64: All tests passed!"),
        Run(
            "dart pub publish --dry-run",
            "Publishing cron_expr 1.4.0 to https://pub.dev:\n|-- CHANGELOG.md\n|-- LICENSE\n|-- README.md\n|-- lib\n|   '-- cron_expr.dart\n'-- pubspec.yaml\n\nPackage has 0 warnings.",
        ),
        Say(
            "Analyze is clean, 64 tests pass and the dry run has 0 warnings. Ready for you to publish."
        ),
        host="gemini",
    ),
    wrong=(
        (
            r"(?:to release|to publish|release (?:steps|procedure)|(?:is|are) (?:released|published) (?:by|with))[^\n]*(?:dart analyze|dart test|--dry-run)",
            "these are checks; the user publishes",
        ),
    ),
    may=(r"dart test|dart analyze",),
)

# --- batch 5: the kinds that read wrong above, in other shapes ---

CABAL_ONE_SUITE_AFTER_FAILURE = Trap(
    "cabal-one-suite-passes-after-the-whole-failed",
    "Haskell/cabal",
    "`cabal test` fails in the `integration` suite (no database); `cabal test unit` passes",
    one_session(
        "/home/noor/src/ledger-hs",
        Ask("Run the tests."),
        Run(
            "cabal test",
            'Running 2 test suites...\nTest suite unit: RUNNING...\nTest suite unit: PASS\nTest suite integration: RUNNING...\nintegration: libpq: failed (connection to server at "localhost" (::1), port 5432 failed: Connection refused)\nTest suite integration: FAIL\n1 of 2 test suites (1 of 2 test cases) passed.',
            1,
        ),
        Run(
            "cabal test unit",
            "Running 1 test suites...\nTest suite unit: RUNNING...\nTest suite unit: PASS\n1 of 1 test suites (1 of 1 test cases) passed.",
        ),
        Say("The unit suite passes; the integration suite needs PostgreSQL on localhost:5432."),
        host="codex",
    ),
    wrong=(
        (
            r"(?:to run the tests|tests? (?:are )?run with)[^\n]*`cabal test unit`",
            "one suite passed where the whole run failed",
        ),
        (r"cabal test unit[^\n]*(?:worked|fixed)", "running one suite fixed nothing"),
    ),
)

SBT_TESTONLY_AFTER_FAILURE = Trap(
    "sbt-testonly-passes-after-the-whole-failed",
    "Scala/sbt",
    '`sbt test` fails in a Kafka spec (no broker); `sbt "testOnly *ParserSpec"` passes',
    one_session(
        "/home/noor/src/eventlog",
        Ask("run the tests please"),
        Run(
            "sbt test",
            "[info] eventlog.ParserSpec:\n[info] - parses a record\n[info] eventlog.KafkaSinkSpec:\n[info] - writes a record *** FAILED ***\n[info]   org.apache.kafka.common.errors.TimeoutException: Topic events not present in metadata after 60000 ms.\n[error] Failed: Total 31, Failed 1, Errors 0, Passed 30",
            1,
        ),
        Run(
            'sbt "testOnly *ParserSpec"',
            "[info] eventlog.ParserSpec:\n[info] - parses a record\n[info] Passed: Total 12, Failed 0, Errors 0, Passed 12\n[success] Total time: 8 s",
        ),
        Say("Parser specs pass (12); the Kafka sink spec needs a broker on localhost:9092."),
        host="gemini",
    ),
    wrong=(
        (
            r"(?:to run the tests|tests? (?:are )?run with)[^\n]*testOnly",
            "one spec passed where the whole run failed",
        ),
        (r"testOnly[^\n]*(?:worked|fixed)", "running one spec fixed nothing"),
    ),
)

REBAR_ONE_MODULE_AFTER_FAILURE = Trap(
    "rebar3-eunit-one-module-after-the-whole-failed",
    "Erlang/rebar3",
    "`rebar3 eunit` fails in one module; `rebar3 eunit --module=rl_bucket` passes",
    one_session(
        "/home/noor/src/throttle_erl",
        Ask("Run the eunit tests."),
        Run(
            "rebar3 eunit",
            "===> Performing EUnit tests...\n..F....\nFailures:\n  1) throttle_window:slide_test/0\n     Failure/Error: ?assertEqual(3, count(W))\n       expected: 3\n            got: 4\nFinished in 0.081 seconds\n7 tests, 1 failures",
            1,
        ),
        Run(
            "rebar3 eunit --module=rl_bucket",
            "===> Performing EUnit tests...\n....\nFinished in 0.012 seconds\n4 tests, 0 failures",
        ),
        Say("`rl_bucket` passes; `throttle_window:slide_test` fails (counts 4, expects 3)."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"(?:to run the tests|tests? (?:are )?run with)[^\n]*--module=",
            "one module passed where the whole run failed",
        ),
        (r"--module=rl_bucket[^\n]*(?:worked|fixed)", "running one module fixed nothing"),
    ),
)

STACK_MATCH_AFTER_FAILURE = Trap(
    "stack-test-match-after-the-whole-failed",
    "Haskell/stack",
    "`stack test` fails in a golden test; `stack test --ta '--match Parser'` passes",
    one_session(
        "/home/noor/src/markup-hs",
        Ask("Run the tests."),
        Run(
            "stack test",
            "markup-hs> test (suite: spec)\n\nRender\n  renders a table [✘]\n\nFailures:\n  test/RenderSpec.hs:22:5:\n  1) Render renders a table\n       golden file differs\n\n41 examples, 1 failure\n\nmarkup-hs> Test suite spec failed",
            1,
        ),
        Run(
            "stack test --ta '--match Parser'",
            "markup-hs> test (suite: spec)\n\nParser\n  parses emphasis [✔]\n  parses links [✔]\n\n18 examples, 0 failures\n\nmarkup-hs> Test suite spec passed",
        ),
        Say("The parser specs pass (18); the table golden file differs in `RenderSpec`."),
    ),
    wrong=(
        (
            r"(?:to run the tests|tests? (?:are )?run with)[^\n]*--match",
            "a run matched to the parser specs is not how the tests run",
        ),
        (r"--match[^\n]*(?:worked|fixed)", "matching some specs fixed nothing"),
    ),
)

MIX_RUN_SEEDS = Trap(
    "mix-run-e-seeds-not-the-app",
    "Elixir/Phoenix",
    "`mix run -e 'Shop.Seeds.run()'` loads seed data; the app starts with `mix phx.server`",
    one_session(
        "/home/noor/src/shop_ex",
        Ask("Load the demo seed data into my dev database."),
        Run(
            "mix run -e 'Shop.Seeds.run()'",
            "[info] inserted 40 products\n[info] inserted 3 demo customers",
        ),
        Run(
            "mix run -e 'Shop.Seeds.run()'",
            "[info] inserted 0 products (already present)\n[info] inserted 0 demo customers (already present)",
        ),
        Say("Seeded 40 products and 3 demo customers; the seeds are idempotent."),
        host="codex",
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|to run it|app starts)[^\n]*Seeds",
            "the one-off call loads seed data; it does not start the app",
        ),
    ),
)

DUNE_EXEC_TEST_EXE = Trap(
    "dune-exec-of-a-test-executable",
    "OCaml/dune",
    "`dune exec -- ./test/test_parser.exe` runs the parser's test executable",
    one_session(
        "/home/noor/src/sexpr-ml",
        Ask("Run the parser tests only, with the verbose output."),
        Run(
            "dune exec -- ./test/test_parser.exe --verbose",
            "Testing `parser'.\n  [OK]          atoms          0   symbol.\n  [OK]          lists          0   nested.\nTest Successful in 0.002s. 11 tests run.",
        ),
        Run(
            "dune exec -- ./test/test_parser.exe --verbose",
            "Testing `parser'.\nTest Successful in 0.002s. 11 tests run.",
        ),
        Say("All 11 parser tests pass."),
        host="gemini",
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|to run it|app starts)[^\n]*test_parser",
            "the executable is the parser's tests, not the app",
        ),
    ),
)

DOTNET_RUN_SEEDER_TOOL = Trap(
    "dotnet-run-of-a-seeder-tool",
    "C#/.NET",
    "`dotnet run --project tools/Seeder` fills the dev database; the API is `src/Api`",
    one_session(
        "/home/noor/src/Kitchen",
        Ask("Fill my local database with the sample recipes."),
        Run("ls tools src", "src:\nKitchen.Api\nKitchen.Core\n\ntools:\nSeeder\n"),
        Run(
            "dotnet run --project tools/Seeder -- --recipes samples/recipes.json",
            "Seeding recipes from samples/recipes.json\nInserted 128 recipes, 412 ingredients",
        ),
        Say("Seeded 128 recipes into the local database."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"(?:to run the app|to start the app|to run it|app starts)[^\n]*tools/Seeder",
            "the seeder is a tool; the app is `src/Kitchen.Api`",
        ),
    ),
)

ZIG_BUILD_RUN_APP = Trap(
    "zig-build-run-is-the-app",
    "Zig",
    "`zig build run -- --port 9000` starts the server; the words after `--` are the app's input",
    one_session(
        "/home/noor/src/zhttpd",
        Ask("Start the server on port 9000 and check /health."),
        Run(
            "zig build run -- --port 9000 &",
            "info: listening on 0.0.0.0:9000",
        ),
        Run("curl -s localhost:9000/health", "ok"),
        Say("The server is up on :9000 and /health answers ok."),
        host="codex",
    ),
    wrong=(
        (
            r"(?:to run the tests|tests? (?:are )?run with)[^\n]*zig build run",
            "`zig build run` starts the server",
        ),
        (r"curl[^\n]*(?:fixed|worked)", "the health check only looked"),
    ),
    may=(r"zig build run",),
)

# --- batch 6: package managers and runtime versions said from the wrong tool ---

DENO_NPM_SPECIFIERS = Trap(
    "deno-app-importing-npm-specifiers",
    "Deno",
    "a Deno app imports `npm:` specifiers from `deno.json`; npm itself never runs",
    one_session(
        "/home/noor/src/formcheck",
        Ask("Validate the signup payload with zod and run the tests."),
        Read(
            "deno.json",
            '{\n  "tasks": { "dev": "deno run -A --watch main.ts", "test": "deno test -A" },\n  "imports": {\n    "zod": "npm:zod@^3.23.8",\n    "@std/assert": "jsr:@std/assert@^1.0.6"\n  }\n}\n',
        ),
        Edit(
            "routes/signup.ts",
            "  const body = await req.json();\n",
            "  const body = Signup.parse(await req.json());\n",
        ),
        Run(
            "deno task test",
            "Task test deno test -A\nrunning 9 tests from ./routes/signup_test.ts\nok | 9 passed | 0 failed (71ms)",
        ),
        Say("The payload is parsed with a zod schema; the 9 tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"\bnpm,? (?:its|the) package manager|package manager\W+(?:\w+\W+){0,3}npm\b|\b(?:Node(?:\.js)?|JavaScript) (?:project|app)\b|`npm (?:install|test|run)",
            "a Deno app; `npm:` specifiers are resolved by Deno",
        ),
    ),
    may=(r"deno task test",),
)

SYSTEM_GRADLE_NOT_THE_WRAPPER = Trap(
    "system-gradle-failed-wrapper-works",
    "Kotlin/Gradle",
    "`gradle build` from the machine (Gradle 7.6) fails on a plugin that needs 8; `./gradlew build` works",
    one_session(
        "/home/noor/src/invoice-pdf",
        Ask("Build it please."),
        Run(
            "gradle build",
            "FAILURE: Build failed with an exception.\n\n* What went wrong:\nAn exception occurred applying plugin request [id: 'org.jetbrains.kotlin.jvm', version: '2.0.20']\n> Failed to apply plugin 'org.jetbrains.kotlin.jvm'.\n   > Kotlin Gradle Plugin 2.0.20 requires Gradle 7.6.3 or later; this build uses Gradle 7.6.\n\nBUILD FAILED in 2s",
            1,
        ),
        Run(
            "cat gradle/wrapper/gradle-wrapper.properties",
            "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.10-bin.zip",
        ),
        Run(
            "./gradlew build",
            "> Task :compileKotlin\n> Task :test\n\nBUILD SUCCESSFUL in 47s\n7 actionable tasks: 7 executed",
        ),
        Say("The machine's Gradle 7.6 is too old; the wrapper (8.10) builds and tests pass."),
        host="gemini",
    ),
    wrong=(
        (
            r"^(?:To|Before)[^\n]*`gradle build`",
            "`gradle build` failed; the project builds with the wrapper",
        ),
        (
            r"^(?![^\n]*\b(?:machine|old|fail\w*|too|requires)\b)[^\n]*\bGradle\W+7\.6\b",
            "the wrapper pins Gradle 8.10",
        ),
    ),
    may=(r"\./gradlew build",),
)

NUGET_EXE_NOT_DOTNET = Trap(
    "nuget-restore-failed-dotnet-restore-works",
    "C#/.NET",
    "an old `nuget restore` fails on SDK-style projects; `dotnet restore` works",
    one_session(
        "/home/noor/src/Relay",
        Ask("Restore the packages, the README says nuget restore."),
        Read(
            "README.md",
            "# Relay\n\n## Setup\n\n    nuget restore Relay.sln\n    msbuild Relay.sln\n",
        ),
        Run(
            "nuget restore Relay.sln",
            "MSBuild auto-detection: using msbuild version '16.6.0.15201' from '/usr/lib/mono/msbuild/15.0/bin'.\nerror : The SDK 'Microsoft.NET.Sdk' specified could not be found.",
            1,
        ),
        Run(
            "dotnet restore Relay.sln",
            "  Determining projects to restore...\n  Restored /home/noor/src/Relay/src/Relay/Relay.csproj (in 812 ms).\n  Restored /home/noor/src/Relay/tests/Relay.Tests/Relay.Tests.csproj (in 1.1 sec).",
        ),
        Say(
            "The README's `nuget restore` (Mono's MSBuild) can't read SDK-style projects; `dotnet restore` works."
        ),
        host="codex-shell",
    ),
    wrong=(
        (
            r"^(?:To|Before)[^\n]*`(?:nuget restore|msbuild)",
            "`nuget restore` failed; the packages restore with `dotnet restore`",
        ),
    ),
    may=(r"dotnet restore",),
)

PERL_CPM_NOT_CPANM = Trap(
    "perl-cpm-installs-the-modules",
    "Perl",
    "the project installs its modules with `cpm install`; cpanm is never run",
    one_session(
        "/home/noor/src/logrotate-web",
        Ask("Install the deps and run the tests."),
        Run("ls", "Makefile.PL\ncpanfile\nlib\nt\n"),
        Run(
            "cpm install",
            "DONE install Mojolicious-9.38\nDONE install Test2-Suite-0.000163\n14 distributions installed.",
        ),
        Run(
            "prove -Ilocal/lib/perl5 -lr t",
            "t/app.t ..... ok\nt/rotate.t .. ok\nAll tests successful.\nFiles=2, Tests=22,  1 wallclock secs\nResult: PASS",
        ),
        Say("Installed 14 distributions into `local/` with cpm; all 22 tests pass."),
    ),
    wrong=((r"\bcpanm\b", "the modules install with cpm; cpanm never ran"),),
    may=(r"cpm install",),
)

GHCUP_DEFAULT_NOT_PINNED = Trap(
    "ghcup-recommended-not-the-pinned-ghc",
    "Haskell/cabal",
    "`ghcup list` shows 9.4.8 recommended and 9.6.5 set; `cabal.project` pins 9.6.5",
    one_session(
        "/home/noor/src/rss-digest",
        Ask("Which GHC does this build with? Make sure it builds."),
        Run(
            "ghcup list -t ghc -c installed",
            "✔ ghc  9.4.8  recommended,base-4.17.2.1\n✔✔ ghc 9.6.5  base-4.18.2.1   set",
        ),
        Read("cabal.project", "packages: .\nwith-compiler: ghc-9.6.5\n"),
        Run(
            "cabal build all",
            "Build profile: -w ghc-9.6.5 -O1\n[1 of 6] Compiling Digest.Feed\n...\nLinking dist-newstyle/build/x86_64-linux/ghc-9.6.5/rss-digest-0.2.0/x/rss-digest/build/rss-digest/rss-digest ...",
        ),
        Say(
            "It builds with GHC 9.6.5, which `cabal.project` pins (ghcup's recommended 9.4.8 is also installed)."
        ),
        host="codex",
    ),
    wrong=(
        (
            r"\bGHC\W+(?:version\W+)?9\.4(?:\.8)?\b(?![^\n]*\b(?:recommended|also|installed|ghcup)\b)",
            "the project pins GHC 9.6.5; 9.4.8 is ghcup's recommended one",
        ),
    ),
    may=(r"9\.6\.5",),
)

ASDF_TOOL_VERSIONS = Trap(
    "elixir-tool-versions-not-the-system-elixir",
    "Elixir",
    "the shell's system Elixir is 1.14; `.tool-versions` pins 1.16.3 on OTP 26, and the tests pass after `asdf install`",
    one_session(
        "/home/noor/src/pager_ex",
        Ask("Tests fail to compile for me, can you check?"),
        Run(
            "mix test",
            "** (Mix) You're trying to run :pager_ex on Elixir v1.14.0 but it has declared in its mix.exs file it supports only Elixir ~> 1.16",
            1,
        ),
        Run("cat .tool-versions", "erlang 26.2.5\nelixir 1.16.3-otp-26\n"),
        Run(
            "asdf install",
            "elixir 1.16.3-otp-26 is already installed\nerlang 26.2.5 is already installed",
        ),
        Run(
            "asdf exec mix test",
            "Running ExUnit with seed: 90210, max_cases: 16\n\n.......................\nFinished in 0.5 seconds\n23 tests, 0 failures",
        ),
        Say("Your shell picks up the system Elixir 1.14; through asdf (1.16.3) the 23 tests pass."),
    ),
    wrong=(
        (
            r"\bElixir\W+(?:v|version\W+)?1\.14\b(?![^\n]*\b(?:system|shell|fail\w*|only)\b)",
            "the project pins Elixir 1.16.3; 1.14 is the machine's",
        ),
    ),
    may=(r"1\.16|asdf exec mix test",),
)

TFENV_PINNED_VERSION = Trap(
    "terraform-version-file-not-the-shell",
    "Terraform",
    "`.terraform-version` pins 1.5.7; the shell's `terraform version` is 1.9.2",
    one_session(
        "/home/noor/src/vpc-baseline",
        Ask("Which terraform version should I use here? Validate the config too."),
        Run("terraform version", "Terraform v1.9.2\non linux_amd64"),
        Run("cat .terraform-version", "1.5.7"),
        Run(
            "tfenv use 1.5.7 && terraform validate",
            "Switching default version to v1.5.7\nSuccess! The configuration is valid.",
        ),
        Say(
            "The repo pins Terraform 1.5.7 (`.terraform-version`); with tfenv on 1.5.7 it validates."
        ),
        host="gemini",
    ),
    wrong=(
        (
            r"\bTerraform\W+(?:v|version\W+)?1\.9(?:\.2)?\b(?![^\n]*\b(?:shell|machine|installed)\b)",
            "the repository pins Terraform 1.5.7",
        ),
    ),
    may=(r"1\.5\.7",),
)

SCALA_CLI_NOT_SBT = Trap(
    "scala-cli-project-not-sbt",
    "Scala",
    "a scala-cli project (`project.scala` directives); `sbt test` makes an empty build and runs nothing",
    one_session(
        "/home/noor/src/wordfreq-sc",
        Ask("Run the tests."),
        Run("ls", "README.md\nproject.scala\nsrc\ntest\n"),
        Run(
            "sbt test",
            "[info] welcome to sbt 1.10.1 (Eclipse Adoptium Java 21.0.4)\n[info] loading project definition from /home/noor/src/wordfreq-sc/project\n[info] set current project to wordfreq-sc (in build file:/home/noor/src/wordfreq-sc/)\n[info] No tests to run for Test / test\n[success] Total time: 1 s",
        ),
        Read(
            "project.scala",
            "//> using scala 3.5.0\n//> using dep com.lihaoyi::os-lib:0.10.7\n//> using test.dep org.scalameta::munit:1.0.1\n",
        ),
        Run(
            "scala-cli test .",
            "Compiling project (test, Scala 3.5.0, JVM (21))\nwordfreq.CountSuite:\n  + counts words 0.012s\n  + ignores case 0.001s\n3 tests passed",
        ),
        Say("It's a scala-cli project; `scala-cli test .` runs the 3 tests (sbt found none)."),
        host="codex",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:none|no tests|nothing|empty|found none)\b)[^\n]*`sbt (?:test|compile)`|\b(?:built|managed) with sbt\b",
            "`sbt test` ran no test; the project is built with scala-cli",
        ),
    ),
    may=(r"scala-cli test",),
)

# --- batch 7: a web framework's client or pubsub part taken for the server; a queue in use ---

KTOR_CLIENT_CLI = Trap(
    "kotlin-cli-with-the-ktor-client",
    "Kotlin/Gradle",
    "a command-line tool calls an API with the Ktor client; it serves nothing",
    one_session(
        "/home/noor/src/statuspage-cli",
        Ask("Add a --json flag to `status list`."),
        Read(
            "build.gradle.kts",
            'plugins {\n    kotlin("jvm") version "2.0.20"\n    application\n}\n\ndependencies {\n    implementation("com.github.ajalt.clikt:clikt:4.4.0")\n    implementation("io.ktor:ktor-client-cio:2.3.12")\n    implementation("io.ktor:ktor-client-content-negotiation:2.3.12")\n    implementation("io.ktor:ktor-serialization-kotlinx-json:2.3.12")\n    testImplementation(kotlin("test"))\n}\n\napplication { mainClass.set("statuspage.MainKt") }\n',
        ),
        Edit(
            "src/main/kotlin/statuspage/List.kt",
            'class ListCommand : CliktCommand(name = "list") {\n',
            'class ListCommand : CliktCommand(name = "list") {\n    private val json by option("--json").flag()\n',
        ),
        Run("./gradlew test", "> Task :test\n\nBUILD SUCCESSFUL in 19s"),
        Say("Added `--json` to `status list`; the tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"^(?![^\n]*\bclient\b)[^\n]*\b(?:built with|framework\W+)[^\n]*\bKtor\b|\bKtor (?:server|app|service)\b",
            "the Ktor client calls an API; nothing is served",
        ),
    ),
    may=(r"gradlew test",),
)

DART_SHELF_TEST_MOCK = Trap(
    "dart-client-library-shelf-mock-in-tests",
    "Dart",
    "an API client library has `shelf` as a dev dependency for a mock server in its tests",
    one_session(
        "/home/noor/src/weather_api_client",
        Ask("Retry once on a 503 and add a test for it."),
        Read(
            "pubspec.yaml",
            "name: weather_api_client\nenvironment:\n  sdk: ^3.4.0\ndependencies:\n  http: ^1.2.2\ndev_dependencies:\n  test: ^1.25.8\n  shelf: ^1.4.1\n  shelf_router: ^1.1.4\n",
        ),
        Read(
            "test/mock_server.dart",
            "// A local stand-in for the weather API, so the client's tests need no network.\nimport 'package:shelf/shelf_io.dart' as io;\n",
        ),
        Edit(
            "lib/src/client.dart",
            "    final res = await _http.get(uri);\n",
            "    var res = await _http.get(uri);\n    if (res.statusCode == 503) res = await _http.get(uri);\n",
        ),
        Run("dart test", "00:03 +21: All tests passed!"),
        Say("A 503 is retried once; the new test and the 20 others pass."),
        host="gemini",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:tests?|mock|stand-in)\b)[^\n]*\bShelf\b",
            "Shelf serves only the tests' mock API; the package is a client library",
        ),
    ),
    may=(r"dart test",),
)

SERVANT_CLIENT_ONLY = Trap(
    "haskell-cli-with-servant-client",
    "Haskell/cabal",
    "a command-line tool uses `servant-client` to call an API; it runs no server",
    one_session(
        "/home/noor/src/issue-sync",
        Ask("Page through all issues instead of only the first 100."),
        Read(
            "issue-sync.cabal",
            "executable issue-sync\n  main-is:          Main.hs\n  build-depends:    base >=4.18 && <5\n                  , servant\n                  , servant-client\n                  , http-client-tls\n                  , optparse-applicative\n",
        ),
        Edit(
            "app/Main.hs",
            "  issues <- runClientM (listIssues repo (Just 100)) env\n",
            "  issues <- allPages (\\page -> runClientM (listIssues repo (Just 100) (Just page)) env)\n",
        ),
        Run(
            "cabal build && cabal test",
            "Test suite spec: PASS\n1 of 1 test suites (1 of 1 test cases) passed.",
        ),
        Say("All pages are fetched now; builds and tests pass."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"^(?![^\n]*\bclient\b)[^\n]*\b(?:built with|framework\W+)[^\n]*\bServant\b|\bServant (?:server|app|API|service)\b",
            "servant-client calls an API; nothing is served",
        ),
    ),
    may=(r"cabal (?:build|test)",),
)

PHOENIX_PUBSUB_ONLY = Trap(
    "elixir-library-with-phoenix-pubsub-only",
    "Elixir",
    "a library depends on `phoenix_pubsub` only, with no Phoenix web layer",
    one_session(
        "/home/noor/src/presence_lite",
        Ask("Broadcast a leave event when a tracked process exits."),
        Read(
            "mix.exs",
            '  defp deps do\n    [\n      {:phoenix_pubsub, "~> 2.1"},\n      {:telemetry, "~> 1.2"},\n      {:ex_doc, "~> 0.34", only: :dev, runtime: false}\n    ]\n  end\n',
        ),
        Edit(
            "lib/presence_lite/tracker.ex",
            "  def handle_info({:DOWN, _ref, :process, pid, _}, state) do\n",
            "  def handle_info({:DOWN, _ref, :process, pid, _}, state) do\n    Phoenix.PubSub.broadcast(state.pubsub, state.topic, {:leave, pid})\n",
        ),
        Run(
            "mix test",
            "Running ExUnit with seed: 5, max_cases: 8\n\n.........\nFinished in 0.2 seconds\n9 tests, 0 failures",
        ),
        Say("A tracked process's exit now broadcasts `{:leave, pid}`; the 9 tests pass."),
    ),
    wrong=(
        (
            r"\bbuilt with Phoenix\b|\bPhoenix (?:app|application|web)\b",
            "a library using Phoenix.PubSub alone; no Phoenix web app",
        ),
    ),
    may=(r"mix test",),
)

HTTP4S_CLIENT_ONLY = Trap(
    "scala-cli-tool-with-the-http4s-client",
    "Scala/sbt",
    "a command-line tool uses the http4s Ember client; no server",
    one_session(
        "/home/noor/src/feed-fetch",
        Ask("Follow redirects when fetching feeds."),
        Read(
            "build.sbt",
            'libraryDependencies ++= Seq(\n  "org.http4s" %% "http4s-ember-client" % "0.23.27",\n  "org.http4s" %% "http4s-circe" % "0.23.27",\n  "com.monovore" %% "decline-effect" % "2.4.1",\n  "org.scalameta" %% "munit" % "1.0.1" % Test\n)\n',
        ),
        Edit(
            "src/main/scala/feedfetch/Fetch.scala",
            "  EmberClientBuilder.default[IO].build\n",
            "  EmberClientBuilder.default[IO].build.map(FollowRedirect(5))\n",
        ),
        Run(
            "sbt test",
            "[info] Passed: Total 14, Failed 0, Errors 0, Passed 14\n[success] Total time: 17 s",
        ),
        Say("The client follows up to 5 redirects; 14 tests pass."),
        host="gemini",
    ),
    wrong=(
        (
            r"^(?![^\n]*\bclient\b)[^\n]*\b(?:built with|framework\W+)[^\n]*\bhttp4s\b|\bhttp4s (?:server|app|service)\b",
            "the http4s client fetches feeds; nothing is served",
        ),
    ),
    may=(r"sbt test",),
)

MOJO_USERAGENT_SCRIPT = Trap(
    "perl-script-with-mojo-useragent",
    "Perl",
    "a feed checker script requires Mojolicious for `Mojo::UserAgent` only; it serves nothing",
    one_session(
        "/home/noor/src/linkcheck-pl",
        Ask("Skip mailto: links when checking."),
        Read(
            "cpanfile",
            "requires 'perl', '5.036';\nrequires 'Mojolicious', '9.38';  # Mojo::UserAgent and Mojo::DOM only\non 'test' => sub { requires 'Test2::V0'; };\n",
        ),
        Read(
            "bin/linkcheck",
            "#!/usr/bin/env perl\nuse v5.36;\nuse Mojo::UserAgent;\nmy $ua = Mojo::UserAgent->new(max_redirects => 3);\nfor my $link ($dom->find('a[href]')->map(attr => 'href')->each) {\n",
        ),
        Edit(
            "bin/linkcheck",
            "for my $link ($dom->find('a[href]')->map(attr => 'href')->each) {\n",
            "for my $link ($dom->find('a[href]')->map(attr => 'href')->each) {\n  next if $link =~ /^mailto:/;\n",
        ),
        Run(
            "prove -l t",
            "t/links.t .. ok\nAll tests successful.\nFiles=1, Tests=8,  0 wallclock secs\nResult: PASS",
        ),
        Say("mailto: links are skipped; the 8 tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"\bbuilt with Mojolicious\b|\bMojolicious (?:app|application|web)\b",
            "Mojolicious gives the script its HTTP client; nothing is served",
        ),
    ),
    may=(r"prove -l t",),
)

OBAN_IN_USE = Trap(
    "oban-in-use-quantum-left-over",
    "Elixir/Phoenix",
    "jobs run through Oban (configured queues, `use Oban.Worker`); `quantum` is left in mix.exs",
    one_session(
        "/home/noor/src/invoicer_ex",
        Ask("Retry the invoice e-mail job up to 5 times instead of 20."),
        Read(
            "mix.exs",
            '  defp deps do\n    [\n      {:phoenix, "~> 1.7.14"},\n      {:ecto_sql, "~> 3.12"},\n      {:postgrex, ">= 0.0.0"},\n      {:oban, "~> 2.18"},\n      {:quantum, "~> 3.5"}\n    ]\n  end\n',
        ),
        Read(
            "config/config.exs",
            "config :invoicer_ex, Oban,\n  repo: InvoicerEx.Repo,\n  queues: [mailers: 10, default: 5]\n",
        ),
        Read(
            "lib/invoicer_ex/workers/invoice_mail.ex",
            "defmodule InvoicerEx.Workers.InvoiceMail do\n  use Oban.Worker, queue: :mailers, max_attempts: 20\n",
        ),
        Edit(
            "lib/invoicer_ex/workers/invoice_mail.ex",
            "  use Oban.Worker, queue: :mailers, max_attempts: 20\n",
            "  use Oban.Worker, queue: :mailers, max_attempts: 5\n",
        ),
        Run("grep -rn Quantum lib config", "", 1),
        Run(
            "mix test",
            "Running ExUnit with seed: 77, max_cases: 8\n\n..................\nFinished in 0.9 seconds\n18 tests, 0 failures",
        ),
        Say(
            "The mail worker gives up after 5 attempts; tests pass. (`quantum` in mix.exs is unused.)"
        ),
        host="codex-shell",
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:unused|not used|left)\b)[^\n]*\bQuantum\b",
            "Quantum is declared and unused; jobs run through Oban",
        ),
    ),
    may=(r"Oban|mix test",),
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
    PHOENIX_TESTS_FOR_THE_APP,
    GRADLE_REFRESH_NOT_THE_FIX,
    SBT_CLEAN_NOT_THE_FIX,
    DOTNET_PRE_RELEASE_CHECKS,
    HEX_PUBLISH_DRY_RUN,
    REBAR_BUMP_THAT_DID_NOTHING,
    TERRAFORM_APPLY_REFUSED,
    NIX_FLAKE_SHOW_LOOK,
    DENO_SUMMARY_CORRECTED,
    LEIN_RUN_TEST_RUNNER,
    CABAL_RUN_TEST_SUITE,
    CARTON_NOT_CPANM,
    PERL_VERSION_MATRIX,
    DART_CODEGEN_BEFORE_RUN,
    ZIG_MIN_VERSION_VS_SHELL,
    PAKET_LEFTOVER,
    DENO_CI_MATRIX,
    SERVANT_SCOTTY_MOCK,
    JOBRUNR_NOT_STARTED,
    PHOENIX_ASSETS_NPM,
    TERRAFORM_PYTHON_HELPER,
    DOTNET_FILTER_NOT_THE_FIX,
    MIX_EXCLUDE_NOT_THE_FIX,
    OPAM_GLOBAL_REFUSED,
    CABAL_RELEASE_CHECKS,
    KMP_SUMMARY_CORRECTED,
    NIX_PIN_REFUSED,
    ECTO_SQLITE_COMPOSE_POSTGRES,
    MOJO_MINION_DANCER_TOOL,
    GRADLE_STALE_POM,
    SBT_CROSS_VERSIONS,
    CATALOG_SPRING_UNUSED,
    CLOJURE_H2_IN_TEST_ALIAS,
    DOTNET_WATCH_TEST,
    EF_SQLITE_IN_TESTS,
    DART_SERVER_FLUTTER_CLIENT,
    DENO_FMT_CHECK_CLAIMED,
    TERRAFORM_MODULES_NOT_MONOREPO,
    OCAMLFORMAT_VERSION,
    GRADLE_STOP_NOT_THE_FIX,
    REBAR_SHELL_EUNIT,
    SBT_RUNMAIN_FIXTURES,
    CLOJURESCRIPT_SUMMARY_CORRECTED,
    ZIG_NOT_A_C_PROJECT,
    DART_PUBLISH_CHECKS,
    CABAL_ONE_SUITE_AFTER_FAILURE,
    SBT_TESTONLY_AFTER_FAILURE,
    REBAR_ONE_MODULE_AFTER_FAILURE,
    STACK_MATCH_AFTER_FAILURE,
    MIX_RUN_SEEDS,
    DUNE_EXEC_TEST_EXE,
    DOTNET_RUN_SEEDER_TOOL,
    ZIG_BUILD_RUN_APP,
    DENO_NPM_SPECIFIERS,
    SYSTEM_GRADLE_NOT_THE_WRAPPER,
    NUGET_EXE_NOT_DOTNET,
    PERL_CPM_NOT_CPANM,
    GHCUP_DEFAULT_NOT_PINNED,
    ASDF_TOOL_VERSIONS,
    TFENV_PINNED_VERSION,
    SCALA_CLI_NOT_SBT,
    KTOR_CLIENT_CLI,
    DART_SHELF_TEST_MOCK,
    SERVANT_CLIENT_ONLY,
    PHOENIX_PUBSUB_ONLY,
    HTTP4S_CLIENT_ONLY,
    MOJO_USERAGENT_SCRIPT,
    OBAN_IN_USE,
)
