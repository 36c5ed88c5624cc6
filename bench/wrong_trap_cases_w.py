# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `w`: stack facts, commands and habits on projects of ecosystems the
other parts hold least (Scala/sbt, Clojure, Zig, OCaml/dune, Erlang/rebar3, Julia, Deno,
Terraform, Nix, PHP/Symfony, Dart, Gleam, Nim, Lua, Perl): a sub-project's database driver, a
README still on the build tool the project left, a test run on one file while iterating, a
language floor raised in the session after a run in an old compiler's container, a test
command the user names as the one not to run, a habit the user stops in a later session, a
docs site's own package manager, a linter the user dropped, a fix told beside a step that did
not fix it, an environment file's commented alternatives, an example app's framework and
database, a rule of the user's other project, a dependency's contribution rules quoted, a test
runner that only works through the Makefile's path, and a database driver left in the
manifest (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
As first run, four of the fifteen stated a wrong fact (5 wrong memories, 5 wrong start
lines), one of them the pattern's own mistake (`terraform validate` said with its folder,
`environments/staging/`, which is right; the pattern now spares it). Reading the memories found
five more no pattern caught ("Tests also run with `zig test` (it ran; its tests failed)",
the same of a bare `busted`, "`.env` … commented out (optional): `DATABASE_URL`", "What this
project (unnamed) is", "Tests run with `php`."); the patterns were widened to catch them. With
the final patterns the rules before this part's fixes state a wrong fact in six traps (9
memories, 6 start lines):

- the stale README's `lein` commands, though the user said "we moved off Leiningen": a tool
  the user disowns now disowns the programs only it runs (the command table's `lein`);
- "Always run JuliaFormatter …" kept as a habit, a recipe and a finishing step after "Stop
  running JuliaFormatter on my files" in the next session: "stop running/using X" of a known
  tool disowns it, the user's earlier instructions to use a disowned tool are retired (and
  dropped from a batch that holds the later session), and a user-wide style item found in
  this project alone is not shown again from the global store once the project retired it;
- `zig test src/tokenizer.zig`, failing then passing, and a bare `busted` that `make test`
  runs with its `LUA_PATH`, each said as "Tests also run with …": a run fixed later as typed,
  or the runner a passing wrapper echoes, is no failing or second suite;
- a `.env` variable set below its commented-out alternatives was said to be commented out;
- a `.nimble` package without a `name` field was "unnamed" (it is named by its file);
- `php bin/phpunit` was headed `php` ("Tests run with `php`."): an interpreter running a
  program the command table knows by its path keeps it in the head.

After them all 150 traps read 0 wrong; the answer key's tuning and dev rows did not move.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Trap

#: A line that does not turn the fact down: what follows must not be said as a plain truth.
_NEG = r"^(?![^\n]*\b(?:stop\w*|don't|do not|never|no longer|not|dropped|instead|fail\w*|could\s?n[o']t|stale|moved off)\b)"

SBT_SUBPROJECT_DRIVER = Trap(
    "sbt-importer-subproject",
    "Scala/sbt",
    "the build's `api` project talks to PostgreSQL through doobie; only a `tools/importer` "
    "sub-project that reads an old export declares the SQLite driver",
    (
        Session(
            "claude",
            "/home/ana/code/ferryline",
            (
                Ask(
                    "The departures endpoint returns each sailing twice when a route has two stops. Can you fix it?"
                ),
                Read(
                    "build.sbt",
                    'ThisBuild / scalaVersion := "3.4.2"\nThisBuild / organization := "dev.ferryline"\n\n'
                    'val http4sVersion = "0.23.27"\n\nlazy val root = (project in file("."))\n  .aggregate(api, importer)\n\n'
                    'lazy val api = (project in file("api"))\n  .settings(\n    name := "ferryline-api",\n    libraryDependencies ++= Seq(\n'
                    '      "org.http4s" %% "http4s-ember-server" % http4sVersion,\n      "org.http4s" %% "http4s-dsl" % http4sVersion,\n'
                    '      "org.tpolecat" %% "doobie-postgres" % "1.0.0-RC5",\n      "org.scalameta" %% "munit" % "1.0.0" % Test\n    )\n  )\n\n'
                    '// Reads the old timetable export (a SQLite file) once a season.\nlazy val importer = (project in file("tools/importer"))\n'
                    '  .dependsOn(api)\n  .settings(\n    name := "ferryline-importer",\n'
                    '    libraryDependencies += "org.xerial" % "sqlite-jdbc" % "3.46.0.0"\n  )\n',
                ),
                Read(
                    "api/src/main/scala/ferryline/Departures.scala",
                    "package ferryline\n\nimport doobie.*\nimport doobie.implicits.*\n\nobject Departures:\n"
                    "  def forRoute(routeId: Long): ConnectionIO[List[Sailing]] =\n"
                    '    sql"""SELECT s.id, s.departs_at, st.name FROM sailings s JOIN stops st ON st.route_id = s.route_id\n'
                    '          WHERE s.route_id = $routeId ORDER BY s.departs_at""".query[Sailing].to[List]\n',
                ),
                Edit(
                    "api/src/main/scala/ferryline/Departures.scala",
                    "JOIN stops st ON st.route_id = s.route_id",
                    "JOIN stops st ON st.id = s.origin_stop_id",
                ),
                Run(
                    "sbt api/test",
                    "[info] welcome to sbt 1.10.0 (Eclipse Adoptium Java 21.0.3)\n[info] loading project definition from /home/ana/code/ferryline/project\n"
                    "ferryline.DeparturesSuite:\n  + lists each sailing once 0.412s\n  + orders by departure 0.011s\n"
                    "[info] Passed: Total 9, Failed 0, Errors 0, Passed 9\n[success] Total time: 14 s\n",
                ),
                Say(
                    "The query joined every stop of the route; it now joins the sailing's origin stop, and `sbt api/test` passes (9 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(importer|export)\b)[^\n]*\bSQLite\b",
            "SQLite is read by the importer sub-project only; the service runs on PostgreSQL",
        ),
    ),
    may=(r"PostgreSQL|sbt api/test|http4s",),
)

CLOJURE_STALE_README = Trap(
    "clojure-cli-stale-readme",
    "Clojure",
    "the README still says `lein test`, which fails (no `project.clj`); the project moved to "
    "the Clojure CLI and its tests run with `clojure -X:test`",
    (
        Session(
            "claude",
            "/home/ana/code/tollbooth",
            (
                Ask(
                    "The token bucket tests fail since my refill change. Run them and fix what's broken."
                ),
                Read(
                    "README.md",
                    "# tollbooth\n\nA rate limiter in front of the partner API.\n\n## Development\n\n"
                    "    lein deps\n    lein test\n    lein run -m tollbooth.main\n",
                ),
                Run(
                    "lein test",
                    "Couldn't find project.clj, which is needed for test\n",
                    1,
                ),
                Run("ls", "README.md\ndeps.edn\nresources\nsrc\ntest\n"),
                Read(
                    "deps.edn",
                    '{:paths ["src" "resources"]\n :deps {org.clojure/clojure {:mvn/version "1.11.3"}\n'
                    '        ring/ring-jetty-adapter {:mvn/version "1.12.1"}\n        metosin/reitit {:mvn/version "0.7.0"}}\n'
                    ' :aliases\n {:test {:extra-paths ["test"]\n         :extra-deps {io.github.cognitect-labs/test-runner {:git/tag "v0.5.1" :git/sha "dfb30dd"}}\n'
                    '         :main-opts ["-m" "cognitect.test-runner"]\n         :exec-fn cognitect.test-runner.api/test}}}\n',
                ),
                Say(
                    "There's no `project.clj`: the project builds with the Clojure CLI now (`deps.edn`), so the README's Leiningen commands are out of date. Running the `:test` alias instead."
                ),
                Run(
                    "clojure -X:test",
                    'Running tests in #{"test"}\n\nTesting tollbooth.bucket-test\n\nFAIL in (refill-test) (bucket_test.clj:22)\n'
                    "expected: (= 10 (:tokens (refill b 1000)))\n  actual: (not (= 10 11))\n\nRan 6 tests containing 14 assertions.\n1 failures, 0 errors.\n",
                    1,
                ),
                Read(
                    "src/tollbooth/bucket.clj",
                    "(ns tollbooth.bucket)\n\n(defn refill [b elapsed-ms]\n"
                    "  (update b :tokens + (quot (* elapsed-ms (:rate b)) 1000)))\n",
                ),
                Edit(
                    "src/tollbooth/bucket.clj",
                    "  (update b :tokens + (quot (* elapsed-ms (:rate b)) 1000)))\n",
                    "  (update b :tokens #(min (:capacity b) (+ % (quot (* elapsed-ms (:rate b)) 1000)))))\n",
                ),
                Run(
                    "clojure -X:test",
                    'Running tests in #{"test"}\n\nTesting tollbooth.bucket-test\n\nRan 6 tests containing 14 assertions.\n0 failures, 0 errors.\n',
                ),
                Ask("Good. Yes, we moved off Leiningen in March, I'll fix the README myself."),
                Say("`refill` now caps the tokens at the bucket's capacity; all 6 tests pass."),
            ),
        ),
    ),
    wrong=(
        (_NEG + r"[^\n]*`lein (test|run|deps)\b", "`lein test` fails: the project left Leiningen"),
        (
            _NEG + r"[^\n]*\b(built|managed|runs?) (with|through) Leiningen",
            "the project builds with the Clojure CLI",
        ),
    ),
    may=(r"clojure -X:test",),
)

ZIG_ONE_FILE_TEST = Trap(
    "zig-one-file-test",
    "Zig",
    "`zig test src/tokenizer.zig` is run twice while fixing the tokenizer; the project's tests "
    "run with `zig build test`, run once at the end",
    (
        Session(
            "codex",
            "/home/ana/code/loam",
            (
                Ask("The tokenizer mis-reads `\\\\` multiline string literals. Fix it."),
                Read(
                    "build.zig",
                    'const std = @import("std");\n\npub fn build(b: *std.Build) void {\n    const target = b.standardTargetOptions(.{});\n'
                    "    const optimize = b.standardOptimizeOption(.{});\n\n"
                    '    const exe = b.addExecutable(.{ .name = "loam", .root_source_file = b.path("src/main.zig"), .target = target, .optimize = optimize });\n'
                    "    b.installArtifact(exe);\n\n"
                    '    const unit_tests = b.addTest(.{ .root_source_file = b.path("src/main.zig"), .target = target, .optimize = optimize });\n'
                    '    const run_unit_tests = b.addRunArtifact(unit_tests);\n    const test_step = b.step("test", "Run unit tests");\n'
                    "    test_step.dependOn(&run_unit_tests.step);\n}\n",
                ),
                Run(
                    "zig test src/tokenizer.zig",
                    "1/14 tokenizer.test.multiline string literal...expected 2, found 1\nFAIL (TestExpectedEqual)\n"
                    "/home/ana/code/loam/src/tokenizer.zig:311:5: 0x10f3a2c in test.multiline string literal (test)\n"
                    "13 passed; 0 skipped; 1 failed.\n",
                    1,
                ),
                Edit(
                    "src/tokenizer.zig",
                    "            '\\\\' => if (self.peek() == '\\\\') return self.lineString(),\n",
                    "            '\\\\' => if (self.peek() == '\\\\') return self.multilineString(start),\n",
                ),
                Run("zig test src/tokenizer.zig", "All 14 tests passed.\n"),
                Run(
                    "zig build test --summary all",
                    "Build Summary: 3/3 steps succeeded; 61/61 tests passed\ntest success\n"
                    "└─ run test 61 passed 4ms MaxRSS:2M\n   └─ zig test Debug native success 2s MaxRSS:198M\n",
                ),
                Say(
                    "Fixed: a `\\\\` line now starts a multiline string token that runs over the following `\\\\` lines. The tokenizer's 14 tests and the whole suite (61) pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(run the tests|before finishing|test command|tests? (also )?(are )?run with)[^\n]*`zig test(`| src/)",
            "one file's tests, run while iterating, are not how the project's tests run",
        ),
    ),
    may=(r"zig build test",),
)

DUNE_FLOOR_RAISED = Trap(
    "dune-floor-raised",
    "OCaml/dune",
    "a CI job on OCaml 4.14 is reproduced in the opam image's container, then the user drops "
    "4.14 and the session raises the floor in `dune-project` to 5.1",
    (
        Session(
            "claude",
            "/home/ana/code/quire",
            (
                Ask(
                    "CI's OCaml 4.14 job fails and I can't see why. Can you reproduce it locally in the opam docker image?"
                ),
                Read(
                    "dune-project",
                    "(lang dune 3.15)\n(name quire)\n(generate_opam_files true)\n\n(package\n (name quire)\n"
                    ' (synopsis "Render bibliographies from BibTeX")\n (depends\n  (ocaml (>= 4.14))\n'
                    "  (cmdliner (>= 1.2))\n  (alcotest :with-test)))\n",
                ),
                Run("ocaml -version", "The OCaml toplevel, version 5.2.0\n"),
                Run(
                    "dune build @runtest",
                    "Testing `quire'.\nThis run has ID `3K1QZ9'.\n\n  [OK]          render          0   book.\n"
                    "  [OK]          render          1   article.\n\nFull test results in `_build/default/test/_build/_tests/quire'.\nTest Successful in 0.004s. 12 tests run.\n",
                ),
                Run(
                    "docker run --rm -v \"$PWD\":/src -w /src ocaml/opam:debian-12-ocaml-4.14 sh -c 'opam install -y --deps-only --with-test . && opam exec -- dune build @runtest'",
                    "[NOTE] Package cmdliner is already installed.\n[NOTE] Package alcotest is already installed.\n"
                    'File "src/render.ml", line 42, characters 7-20:\n42 |   if List.is_empty authors then\n'
                    "            ^^^^^^^^^^^^^\nError: Unbound value List.is_empty\n",
                    1,
                ),
                Say(
                    "`List.is_empty` only exists since OCaml 5.1, and `src/render.ml` uses it, so the 4.14 job can't compile. Either replace it with `authors = []` or raise the floor."
                ),
                Ask(
                    "Nobody runs 4.14 anymore. Raise the floor to 5.1 and drop the 4.14 job from CI."
                ),
                Edit("dune-project", "  (ocaml (>= 4.14))\n", "  (ocaml (>= 5.1))\n"),
                Read(
                    ".github/workflows/ci.yml",
                    "jobs:\n  test:\n    strategy:\n      matrix:\n        ocaml-compiler: ['4.14', '5.1', '5.2']\n"
                    "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                    "      - uses: ocaml/setup-ocaml@v3\n        with:\n          ocaml-compiler: ${{ matrix.ocaml-compiler }}\n"
                    "      - run: opam install . --deps-only --with-test\n      - run: opam exec -- dune build @runtest\n",
                ),
                Edit(
                    ".github/workflows/ci.yml",
                    "        ocaml-compiler: ['4.14', '5.1', '5.2']\n",
                    "        ocaml-compiler: ['5.1', '5.2']\n",
                ),
                Run(
                    "dune build @runtest",
                    "Testing `quire'.\nThis run has ID `7PX2LM'.\n\nFull test results in `_build/default/test/_build/_tests/quire'.\nTest Successful in 0.004s. 12 tests run.\n",
                ),
                Run(
                    "git diff --stat",
                    " .github/workflows/ci.yml | 2 +-\n dune-project             | 2 +-\n quire.opam               | 2 +-\n 3 files changed, 3 insertions(+), 3 deletions(-)\n",
                ),
                Say(
                    "The floor is OCaml 5.1 now (`dune-project`, and `quire.opam` regenerated by dune); CI tests 5.1 and 5.2."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"ocaml\W+(>=\s*|version\s*)?4\.14(?![^\n]*\b(unbound|fail\w*|job|can't|cannot|dropp?ed)\b)",
            "4.14 was the old floor; the session raised it to 5.1",
        ),
        (
            r"^(to run the tests|before finishing|to build)[^\n]*docker run",
            "the old compiler's container was one reproduction, not how the tests run",
        ),
    ),
    may=(r"5\.1|dune build @runtest",),
)

REBAR3_NOT_WHOLE_SUITE = Trap(
    "rebar3-suite-by-suite",
    "Erlang/rebar3",
    "the user says not to run plain `rebar3 ct` (the whole suite needs a cluster); the session "
    "runs `rebar3 eunit` and one Common Test suite",
    (
        Session(
            "codex",
            "/home/ana/code/tollgate",
            (
                Ask(
                    "Add a refund/2 to billing_ledger. For tests: don't run plain `rebar3 ct`, the whole suite needs the three-node cluster from scripts/cluster_up.sh and takes about 20 minutes. Run `rebar3 eunit` and `rebar3 ct --suite test/billing_SUITE` for what you touch."
                ),
                Read(
                    "rebar.config",
                    '{erl_opts, [debug_info]}.\n{minimum_otp_vsn, "26"}.\n\n{deps, [\n    {cowboy, "2.12.0"},\n    {epgsql, "4.7.1"},\n    {jsx, "3.1.0"}\n]}.\n\n'
                    '{profiles, [\n    {test, [{deps, [{meck, "0.9.2"}]}]}\n]}.\n\n{ct_opts, [{sys_config, "config/test.config"}]}.\n',
                ),
                Run(
                    "ls test",
                    "billing_SUITE.erl\ncluster_failover_SUITE.erl\nledger_tests.erl\nreplication_SUITE.erl\n",
                ),
                Read(
                    "src/billing_ledger.erl",
                    "-module(billing_ledger).\n-export([charge/2, balance/1]).\n\ncharge(Account, Cents) when Cents > 0 ->\n"
                    "    ledger_store:append(Account, {charge, Cents}).\n\nbalance(Account) ->\n    ledger_store:sum(Account).\n",
                ),
                Edit(
                    "src/billing_ledger.erl",
                    "-export([charge/2, balance/1]).\n",
                    "-export([charge/2, refund/2, balance/1]).\n\nrefund(Account, Cents) when Cents > 0 ->\n"
                    "    ledger_store:append(Account, {refund, Cents}).\n",
                ),
                Run(
                    "rebar3 eunit",
                    "===> Verifying dependencies...\n===> Analyzing applications...\n===> Compiling tollgate\n"
                    "===> Performing EUnit tests...\n...........\n\nFinished in 0.214 seconds\n11 tests, 0 failures\n",
                ),
                Run(
                    "rebar3 ct --suite test/billing_SUITE",
                    "===> Verifying dependencies...\n===> Compiling tollgate\n===> Running Common Test suites...\n"
                    "%%% billing_SUITE: ........\nAll 8 tests passed.\n",
                ),
                Say(
                    "Added `refund/2`; `rebar3 eunit` (11 tests) and the billing suite (8 tests) pass. I left the cluster suites alone."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(don't|do not|never|not|plain|avoid|cluster|20 minutes)\b)[^\n]*`rebar3 ct`",
            "the whole Common Test run is the one the user said not to run",
        ),
    ),
    may=(r"rebar3 eunit",),
)

JULIA_FORMATTER_STOPPED = Trap(
    "formatter-stopped-julia",
    "Julia",
    "the user asks to always run JuliaFormatter before finishing, and in the next session tells "
    "the assistant to stop running it",
    (
        Session(
            "claude",
            "/home/ana/code/Quadrature.jl",
            (
                Ask(
                    "Add a 15-point Gauss–Kronrod rule to src/rules.jl. And always run JuliaFormatter on the files you touch before you finish: `julia -e 'using JuliaFormatter; format(\"src\")'`."
                ),
                Read(
                    "Project.toml",
                    'name = "Quadrature"\nuuid = "5c1f0e2a-9b7d-4d7e-8f1a-2c3b4d5e6f70"\nversion = "0.3.1"\n\n'
                    '[deps]\nLinearAlgebra = "37e2e46d-f89d-539d-b4ee-838fcccc9c8e"\n\n[compat]\njulia = "1.9"\n\n'
                    '[extras]\nTest = "8dfed614-e22c-5e08-85e1-65c5234f0b40"\n\n[targets]\ntest = ["Test"]\n',
                ),
                Edit(
                    "src/rules.jl",
                    "export gauss_legendre\n",
                    "export gauss_legendre, gauss_kronrod15\n\nconst GK15_NODES = (0.991455371120813, 0.949107912342759, 0.864864423359769)\n",
                ),
                Run(
                    "julia --project -e 'using Pkg; Pkg.test()'",
                    "     Testing Quadrature\n     Testing Running tests...\nTest Summary: | Pass  Total  Time\n"
                    "Quadrature    |   48     48  2.1s\n     Testing Quadrature tests passed \n",
                ),
                Run("julia -e 'using JuliaFormatter; format(\"src\")'", "false\n"),
                Say("Added `gauss_kronrod15`; the 48 tests pass and `src/` is formatted."),
            ),
        ),
        Session(
            "claude",
            "/home/ana/code/Quadrature.jl",
            (
                Ask(
                    "Stop running JuliaFormatter on my files, it keeps rewriting the docstrings in src/kernels.jl. I'll format by hand from now on. Now make `integrate` accept an `rtol` keyword."
                ),
                Read(
                    "src/integrate.jl",
                    "function integrate(f, a, b; atol=1e-10)\n    adaptive(f, a, b, atol)\nend\n",
                ),
                Edit(
                    "src/integrate.jl",
                    "function integrate(f, a, b; atol=1e-10)\n    adaptive(f, a, b, atol)\nend\n",
                    "function integrate(f, a, b; atol=1e-10, rtol=sqrt(eps()))\n    adaptive(f, a, b, atol, rtol)\nend\n",
                ),
                Run(
                    "julia --project -e 'using Pkg; Pkg.test()'",
                    "     Testing Quadrature\n     Testing Running tests...\nTest Summary: | Pass  Total  Time\n"
                    "Quadrature    |   51     51  2.3s\n     Testing Quadrature tests passed \n",
                ),
                Say(
                    "`integrate` takes `rtol` now (default `sqrt(eps())`); 51 tests pass. I didn't run the formatter."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(stop\w*|don't|do not|no longer|never|by hand|didn't|not)\b)[^\n]*(run\w*|use) JuliaFormatter|^(?![^\n]*\b(stop\w*|don't|do not|no longer|never|by hand|didn't|not)\b)[^\n]*format\(\\?\"src\\?\"\)",
            "the user stopped the formatter run in the next session",
        ),
    ),
    may=(r"Pkg\.test",),
)

DENO_DOCS_SITE = Trap(
    "deno-docs-site",
    "Deno",
    "a Deno library whose `docs/` site is built with VitePress through npm; the session fixes a "
    "docs link and runs the library's tests with `deno task test`",
    (
        Session(
            "gemini",
            "/home/ana/code/kite-router",
            (
                Ask(
                    "The docs site links to a middleware page that doesn't exist. Fix it, and make sure the router tests still pass."
                ),
                Run("ls", "README.md\ndeno.json\ndeno.lock\ndocs\nmod.ts\nsrc\ntests\n"),
                Read(
                    "deno.json",
                    '{\n  "name": "@kite/router",\n  "version": "0.8.1",\n  "exports": "./mod.ts",\n  "tasks": {\n'
                    '    "test": "deno test --allow-net",\n    "check": "deno fmt --check && deno lint && deno check mod.ts"\n  },\n'
                    '  "imports": { "@std/assert": "jsr:@std/assert@^1.0.0" }\n}\n',
                ),
                Read(
                    "docs/package.json",
                    '{\n  "private": true,\n  "scripts": {\n    "dev": "vitepress dev",\n    "build": "vitepress build"\n  },\n'
                    '  "devDependencies": {\n    "vitepress": "^1.3.1",\n    "vue": "^3.4.31"\n  }\n}\n',
                ),
                Run(
                    "grep -rn 'middlewares.md' docs/guide",
                    "docs/guide/intro.md:14:Handlers can be wrapped, see [middleware](./middlewares.md).\n",
                ),
                Edit(
                    "docs/guide/intro.md",
                    "see [middleware](./middlewares.md).",
                    "see [middleware](./middleware.md).",
                ),
                Run(
                    "cd docs && npm ci && npm run build",
                    "added 143 packages, and audited 144 packages in 6s\n\n> build\n> vitepress build\n\n  vitepress v1.3.1\n\n"
                    "- building client + server bundles...\n✓ building client + server bundles...\n- rendering pages...\n✓ rendering pages...\nbuild complete in 4.12s.\n",
                ),
                Run(
                    "deno task test",
                    "Task test deno test --allow-net\nrunning 12 tests from ./tests/router_test.ts\nmatches static routes ... ok (1ms)\n"
                    "matches params ... ok (0ms)\n\nok | 12 passed | 0 failed (41ms)\n",
                ),
                Say(
                    "The page is `docs/guide/middleware.md`; the link pointed at `middlewares.md`. The docs site builds, and `deno task test` passes (12 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"run through npm|\bnpm,? its package manager|package manager\W+(\w+\W+){0,3}npm\b",
            "npm builds the docs site only; the library runs on Deno",
        ),
        (
            r"^(?![^\n]*\bdocs\b)[^\n]*\b(Vue|VitePress)\b",
            "VitePress and Vue are the docs site's, not the library's",
        ),
        (r"\b(Node(\.js)?|JavaScript) (project|library|app)", "a Deno TypeScript library"),
        (r"^To build(?![^\n]*docs)[^\n]*npm run build", "`npm run build` builds the docs site"),
    ),
    may=(r"deno task test",),
)

TERRAFORM_LINTER_DROPPED = Trap(
    "terraform-linter-dropped",
    "Terraform",
    "tflint runs because its config is still in the repository, then the user says they dropped "
    "it; `terraform validate` runs inside `environments/staging`",
    (
        Session(
            "claude",
            "/home/ana/code/infra-edge",
            (
                Ask(
                    "Add an S3 bucket for the CDN access logs in modules/cdn and wire it into staging. Run the usual checks."
                ),
                Run(
                    "ls -a",
                    ".\n..\n.git\n.github\n.gitignore\n.tflint.hcl\nREADME.md\nenvironments\nmodules\n",
                ),
                Read(
                    "modules/cdn/main.tf",
                    'resource "aws_cloudfront_distribution" "this" {\n  enabled = true\n  aliases = var.aliases\n}\n',
                ),
                Edit(
                    "modules/cdn/main.tf",
                    'resource "aws_cloudfront_distribution" "this" {\n  enabled = true\n',
                    'resource "aws_s3_bucket" "access_logs" {\n  bucket_prefix = "${var.name}-cdn-logs-"\n}\n\n'
                    'resource "aws_cloudfront_distribution" "this" {\n  enabled = true\n  logging_config {\n'
                    "    bucket = aws_s3_bucket.access_logs.bucket_domain_name\n  }\n",
                ),
                Run("terraform fmt -check -recursive", "modules/cdn/main.tf\n", 3),
                Run("terraform fmt -recursive", "modules/cdn/main.tf\n"),
                Run(
                    "tflint --recursive",
                    '1 issue(s) found:\n\nWarning: Missing version constraint for provider "random" in `required_providers` (terraform_required_providers)\n\n'
                    "  on modules/cdn/versions.tf line 1:\n",
                    2,
                ),
                Ask(
                    "Don't bother with tflint, we dropped it from this repo last month. The .tflint.hcl is a leftover, I'll delete it. fmt and validate are enough."
                ),
                Run(
                    "cd environments/staging && terraform init -backend=false && terraform validate",
                    "Initializing modules...\n- cdn in ../../modules/cdn\n\nInitializing provider plugins...\n- Reusing previous version of hashicorp/aws from the dependency lock file\n"
                    "- Using previously-installed hashicorp/aws v5.54.1\n\nTerraform has been successfully initialized!\nSuccess! The configuration is valid.\n\n",
                ),
                Say(
                    "The bucket is in `modules/cdn/main.tf` and the distribution logs to it; `terraform fmt` is clean and staging validates."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(dropped|leftover|don't|do not|no longer|not|bother)\b)[^\n]*\btflint\b",
            "the user dropped tflint; only its config file is left",
        ),
        (
            r"^(?![^\n]*environments/)[^\n]*`terraform (init\b[^`]*&& terraform )?validate`",
            "`terraform validate` only works inside an environment's folder",
        ),
    ),
    may=(r"terraform fmt",),
)

NIX_VENDOR_HASH = Trap(
    "nix-vendor-hash",
    "Nix/Go",
    "`nix build` fails on the Go modules' hash; `nix flake update` changes nothing, and the "
    "`vendorHash` edit fixes it, while the closing reply names both",
    (
        Session(
            "codex",
            "/home/ana/code/skiff",
            (
                Ask("`nix build` broke after I bumped cobra. Can you fix it?"),
                Run(
                    "nix build",
                    "error: hash mismatch in fixed-output derivation '/nix/store/8k2v0sd1qwl4r3y0m7n5c6b9x2z1a4h8-skiff-0.6.0-go-modules.drv':\n"
                    "         specified: sha256-pQpattmS9VmO3ZIQUFn66az8GSmB4IvYhTTCFn6SUmo=\n"
                    "            got:    sha256-Zt1c4cSFk3GZ1bJH+bgpN4vvw9QuKH4u4wJmdqWJYfE=\n",
                    1,
                ),
                Run(
                    "nix flake update",
                    "warning: updating lock file '/home/ana/code/skiff/flake.lock':\n• Updated input 'nixpkgs':\n"
                    "    'github:NixOS/nixpkgs/5633bcff06c6af9d6a7ffc0b6e18ed8a7d9a2b3c' (2026-03-30)\n"
                    "  → 'github:NixOS/nixpkgs/9f4128e00b0ae8ec65918efeba59db998750ead6' (2026-05-01)\n",
                ),
                Run(
                    "nix build",
                    "error: hash mismatch in fixed-output derivation '/nix/store/1m3c7xq9d2f0a8s6h4j2k5l7p9r1t3v5-skiff-0.6.0-go-modules.drv':\n"
                    "         specified: sha256-pQpattmS9VmO3ZIQUFn66az8GSmB4IvYhTTCFn6SUmo=\n"
                    "            got:    sha256-Zt1c4cSFk3GZ1bJH+bgpN4vvw9QuKH4u4wJmdqWJYfE=\n",
                    1,
                ),
                Read(
                    "flake.nix",
                    '{\n  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";\n  outputs = { self, nixpkgs }: let\n'
                    "    pkgs = nixpkgs.legacyPackages.x86_64-linux;\n  in {\n    packages.x86_64-linux.default = pkgs.buildGoModule {\n"
                    '      pname = "skiff";\n      version = "0.6.0";\n      src = ./.;\n'
                    '      vendorHash = "sha256-pQpattmS9VmO3ZIQUFn66az8GSmB4IvYhTTCFn6SUmo=";\n    };\n  };\n}\n',
                ),
                Edit(
                    "flake.nix",
                    'vendorHash = "sha256-pQpattmS9VmO3ZIQUFn66az8GSmB4IvYhTTCFn6SUmo=";',
                    'vendorHash = "sha256-Zt1c4cSFk3GZ1bJH+bgpN4vvw9QuKH4u4wJmdqWJYfE=";',
                ),
                Run("nix build && ./result/bin/skiff --version", "skiff version 0.6.0\n"),
                Say(
                    "`nix build` works again: `vendorHash` in `flake.nix` is the hash Nix reported, since the Go modules changed with the cobra bump. I also updated `flake.lock` along the way."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(did not|didn't|does not|doesn't|not|no effect|still|along the way)\b)[^\n]*nix flake update",
            "updating the flake's inputs did not fix the hash mismatch; the `vendorHash` edit did",
        ),
    ),
    may=(r"vendorHash",),
)

SYMFONY_ENV_ALTERNATIVES = Trap(
    "symfony-env-alternatives",
    "PHP/Symfony",
    "the `.env` of Symfony's Doctrine recipe lists SQLite, MySQL and MariaDB URLs commented out "
    "above the PostgreSQL one the app and its compose file use",
    (
        Session(
            "claude",
            "/home/ana/code/shelfmark",
            (
                Ask("Add a publishedAt column to Book and generate the migration."),
                Read(
                    "composer.json",
                    '{\n    "type": "project",\n    "require": {\n        "php": ">=8.2",\n        "doctrine/doctrine-bundle": "^2.12",\n'
                    '        "doctrine/doctrine-migrations-bundle": "^3.3",\n        "doctrine/orm": "^3.2",\n        "symfony/console": "7.1.*",\n'
                    '        "symfony/framework-bundle": "7.1.*",\n        "symfony/runtime": "7.1.*"\n    },\n'
                    '    "require-dev": {\n        "phpunit/phpunit": "^10.5",\n        "symfony/maker-bundle": "^1.60",\n        "symfony/phpunit-bridge": "^7.1"\n    }\n}\n',
                ),
                Read(
                    ".env",
                    "# In all environments, the following files are loaded if they exist,\n# the latter taking precedence over the former:\n#\n"
                    "#  * .env                contains default values for the environment variables needed by the app\n"
                    "#  * .env.local          uncommitted file with local overrides\n\n"
                    "###> symfony/framework-bundle ###\nAPP_ENV=dev\nAPP_SECRET=\n###< symfony/framework-bundle ###\n\n"
                    "###> doctrine/doctrine-bundle ###\n"
                    "# Format described at https://www.doctrine-project.org/projects/doctrine-dbal/en/latest/reference/configuration.html#connecting-using-a-url\n"
                    "# IMPORTANT: You MUST configure your server version, either here or in config/packages/doctrine.yaml\n#\n"
                    '# DATABASE_URL="sqlite:///%kernel.project_dir%/var/data.db"\n'
                    '# DATABASE_URL="mysql://app:!ChangeMe!@127.0.0.1:3306/app?serverVersion=8.0.32&charset=utf8mb4"\n'
                    '# DATABASE_URL="mysql://app:!ChangeMe!@127.0.0.1:3306/app?serverVersion=10.11.2-MariaDB&charset=utf8mb4"\n'
                    'DATABASE_URL="postgresql://app:!ChangeMe!@127.0.0.1:5432/app?serverVersion=16&charset=utf8"\n'
                    "###< doctrine/doctrine-bundle ###\n",
                ),
                Read(
                    "compose.yaml",
                    "services:\n  database:\n    image: postgres:16-alpine\n    environment:\n      POSTGRES_DB: app\n"
                    "      POSTGRES_PASSWORD: '!ChangeMe!'\n      POSTGRES_USER: app\n    ports:\n      - \"5432:5432\"\n",
                ),
                Read(
                    "src/Entity/Book.php",
                    "<?php\n\nnamespace App\\Entity;\n\nuse Doctrine\\ORM\\Mapping as ORM;\n\n#[ORM\\Entity]\nclass Book\n{\n"
                    "    #[ORM\\Column(length: 255)]\n    private string $title;\n}\n",
                ),
                Edit(
                    "src/Entity/Book.php",
                    "    private string $title;\n",
                    "    private string $title;\n\n    #[ORM\\Column(nullable: true)]\n    private ?\\DateTimeImmutable $publishedAt = null;\n",
                ),
                Run("docker compose up -d database", " Container shelfmark-database-1  Started\n"),
                Run(
                    "php bin/console make:migration",
                    '\n Success! \n\n Next: Review the new migration "migrations/Version20260504091512.php"\n',
                ),
                Run(
                    "php bin/console doctrine:migrations:migrate -n",
                    "[notice] Migrating up to DoctrineMigrations\\Version20260504091512\n[notice] finished in 41.2ms, used 22M memory, 1 migrations executed, 1 sql queries\n",
                ),
                Run(
                    "php bin/phpunit",
                    "PHPUnit 10.5.20 by Sebastian Bergmann and contributors.\n\nRuntime:       PHP 8.3.7\n\n"
                    ".............                                                     13 / 13 (100%)\n\nTime: 00:00.412, Memory: 30.00 MB\n\nOK (13 tests, 31 assertions)\n",
                ),
                Say(
                    "Added `publishedAt` (nullable) to `Book`, generated `migrations/Version20260504091512.php` and ran it against the compose PostgreSQL; the 13 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"\b(SQLite|MySQL|MariaDB)\b",
            "commented-out alternatives of the recipe's `.env`; the app runs on PostgreSQL",
        ),
        (
            r"commented out[^\n]*DATABASE_URL",
            "`.env` sets `DATABASE_URL` (PostgreSQL); only its alternatives are commented out",
        ),
        (r"`php`[.;]", "`php` alone runs no tests: the tests run with `php bin/phpunit`"),
    ),
    may=(r"PostgreSQL|php bin/phpunit",),
)

DART_EXAMPLE_APP = Trap(
    "dart-package-example-app",
    "Dart",
    "a pure Dart package tested with `dart test`, whose `example/` is a Flutter app that caches "
    "predictions with sqflite",
    (
        Session(
            "codex-shell",
            "/home/ana/code/tidewater",
            (
                Ask(
                    "The example app shows the tides an hour off in summer. Is it the package or the example?"
                ),
                Read(
                    "pubspec.yaml",
                    "name: tidewater\ndescription: Tide predictions from harmonic constituents.\nversion: 1.4.0\n"
                    "repository: https://github.com/ana/tidewater\n\nenvironment:\n  sdk: ^3.3.0\n\n"
                    "dependencies:\n  meta: ^1.12.0\n\ndev_dependencies:\n  lints: ^4.0.0\n  test: ^1.25.0\n",
                ),
                Read(
                    "example/pubspec.yaml",
                    'name: tidewater_example\npublish_to: none\n\nenvironment:\n  sdk: ^3.3.0\n  flutter: ">=3.19.0"\n\n'
                    "dependencies:\n  flutter:\n    sdk: flutter\n  sqflite: ^2.3.3\n  tidewater:\n    path: ../\n\n"
                    "dev_dependencies:\n  flutter_test:\n    sdk: flutter\n",
                ),
                Read(
                    "example/lib/tide_cache.dart",
                    "import 'package:sqflite/sqflite.dart';\n\nFuture<void> store(Database db, Prediction p) =>\n"
                    "    db.insert('predictions', {'at': p.time.toIso8601String(), 'height': p.height});\n",
                ),
                Run("dart test", "00:01 +37: All tests passed!\n"),
                Say(
                    "The package is fine (its 37 tests pass and it works in UTC). The example stores local times without an offset and reads them back as UTC, which is an hour off under daylight saving time."
                ),
                Edit(
                    "example/lib/tide_cache.dart",
                    "{'at': p.time.toIso8601String(),",
                    "{'at': p.time.toUtc().toIso8601String(),",
                ),
                Run(
                    "cd example && flutter pub get && flutter analyze",
                    "Resolving dependencies... \nGot dependencies!\nAnalyzing example...\nNo issues found! (ran in 2.3s)\n",
                ),
                Say("Fixed in the example: it stores UTC now. `flutter analyze` is clean."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\bexample\b)[^\n]*\b(Flutter|SQLite|sqflite)\b",
            "Flutter and sqflite are the example app's; the package is plain Dart",
        ),
        (
            r"^(?![^\n]*(cd example|example/))[^\n]*`flutter (analyze|test)",
            "`flutter analyze` ran in `example/` only",
        ),
    ),
    may=(r"dart test",),
)

GLEAM_OTHER_PROJECT_RULE = Trap(
    "gleam-hobby-main",
    "Gleam",
    "the user says how their company's monorepo merges (squash through pull requests, never "
    "push to main) and that this hobby project commits straight to main",
    (
        Session(
            "gemini",
            "/home/ana/code/sparrow",
            (
                Ask(
                    "In the company monorepo we always squash-merge through PRs and never push to main directly, but this is my hobby project: just commit straight to main and push. Add a --dry-run flag to the CLI."
                ),
                Read(
                    "gleam.toml",
                    'name = "sparrow"\nversion = "0.5.0"\ntarget = "erlang"\n\n[dependencies]\ngleam_stdlib = ">= 0.38.0 and < 2.0.0"\n'
                    'argv = ">= 1.0.2 and < 2.0.0"\nsimplifile = ">= 2.0.1 and < 3.0.0"\n\n[dev-dependencies]\ngleeunit = ">= 1.0.0 and < 2.0.0"\n',
                ),
                Read(
                    "src/sparrow/cli.gleam",
                    'pub type Options {\n  Options(target: String)\n}\n\npub fn parse(args: List(String)) -> Options {\n  case args {\n    [target, ..] -> Options(target)\n    [] -> Options(".")\n  }\n}\n',
                ),
                Edit(
                    "src/sparrow/cli.gleam",
                    "  Options(target: String)\n",
                    "  Options(target: String, dry_run: Bool)\n",
                ),
                Run(
                    "gleam test",
                    "  Compiling sparrow\n   Compiled in 0.42s\n    Running sparrow_test.main\n.........\nFinished in 0.012 seconds\n9 tests, 0 failures\n",
                ),
                Run("gleam format --check src test", ""),
                Run(
                    'git add -A && git commit -m "Add --dry-run flag" && git push origin main',
                    "[main 3f9c2a1] Add --dry-run flag\n 2 files changed, 31 insertions(+), 4 deletions(-)\n"
                    "To github.com:ana/sparrow.git\n   9d8e7f6..3f9c2a1  main -> main\n",
                ),
                Say("Added `--dry-run`; 9 tests pass, and it's committed and pushed to main."),
            ),
        ),
    ),
    wrong=(
        (
            r"never push\w* (directly )?to `?main|squash",
            "the company monorepo's rule; this project commits to main",
        ),
    ),
    may=(r"gleam test",),
)

NIM_UPSTREAM_CONTRIBUTING = Trap(
    "nim-upstream-contributing",
    "Nim",
    "the user quotes a dependency's contribution rules (signed-off commits, pull requests to "
    "`devel`) for a patch sent there from a sibling checkout; this project commits without them",
    (
        Session(
            "claude",
            "/home/ana/code/plotnik",
            (
                Ask(
                    'I want to send a fix for the float parsing bug upstream to quickjson. Their CONTRIBUTING says: "All commits must be signed off (`git commit -s`) and pull requests must target the `devel` branch." Clone it next to this repo and make the patch there.'
                ),
                Run(
                    "cd .. && git clone git@github.com:ana/quickjson.git && cd quickjson && git checkout -b fix-float-exponent origin/devel",
                    "Cloning into 'quickjson'...\nbranch 'fix-float-exponent' set up to track 'origin/devel'.\nSwitched to a new branch 'fix-float-exponent'\n",
                ),
                Edit(
                    "/home/ana/code/quickjson/src/quickjson/parse.nim",
                    "  if c == '.':\n",
                    "  if c in {'.', 'e', 'E'}:\n",
                ),
                Run(
                    "cd ../quickjson && nimble test",
                    "  Verifying dependencies for quickjson@0.4.0\n   Compiling /home/ana/code/quickjson/tests/tparse.nim (from package quickjson) using c backend\n"
                    "[OK] float with exponent\n[OK] float with fraction\n   Success: All tests passed\n",
                ),
                Run(
                    'cd ../quickjson && git commit -s -am "Parse floats with an exponent and no fraction" && git push -u origin fix-float-exponent',
                    "[fix-float-exponent 4b1e9d2] Parse floats with an exponent and no fraction\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
                    "To github.com:ana/quickjson.git\n * [new branch]      fix-float-exponent -> fix-float-exponent\n",
                ),
                Say(
                    "Pushed `fix-float-exponent` (signed off); open the pull request against `devel`."
                ),
                Ask("Now pin quickjson in plotnik to my branch until they merge it."),
                Read(
                    "plotnik.nimble",
                    '# Package\n\nversion       = "0.2.0"\nauthor        = "Ana"\ndescription   = "Terminal plots"\nlicense       = "MIT"\n'
                    'srcDir        = "src"\n\n# Dependencies\n\nrequires "nim >= 2.0.0"\nrequires "quickjson >= 0.4.0"\n',
                ),
                Edit(
                    "plotnik.nimble",
                    'requires "quickjson >= 0.4.0"\n',
                    'requires "https://github.com/ana/quickjson#fix-float-exponent"\n',
                ),
                Run(
                    "nimble test",
                    "  Verifying dependencies for plotnik@0.2.0\n     Info:  Dependency on https://github.com/ana/quickjson#fix-float-exponent already satisfied\n"
                    "[OK] axis ticks\n[OK] reads json series\n   Success: All tests passed\n",
                ),
                Run(
                    'git commit -am "Pin quickjson to the exponent fix branch"',
                    "[main 77c0a3e] Pin quickjson to the exponent fix branch\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
                ),
                Say("plotnik now uses your branch of quickjson; its tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*quickjson)[^\n]*(signed.off|git commit -s\b|\bdevel\b)",
            "the dependency's contribution rules, not this project's",
        ),
        (r"project \(unnamed\)", "the package is named by its manifest, `plotnik.nimble`"),
    ),
    may=(r"nimble test",),
)

LUA_MAKEFILE_PATH = Trap(
    "lua-make-test-path",
    "Lua",
    "a bare `busted` fails because the sources are not on `LUA_PATH`; `make test`, which sets "
    "it, passes",
    (
        Session(
            "codex",
            "/home/ana/code/almanac",
            (
                Ask("I changed the date parser. Run the tests?"),
                Run(
                    "busted",
                    "Error → spec/parse_spec.lua @ 1\nsuite spec/parse_spec.lua\nspec/parse_spec.lua:1: module 'almanac.parse' not found:\n"
                    "\tno field package.preload['almanac.parse']\n\tno file '/usr/local/share/lua/5.4/almanac/parse.lua'\n"
                    "\tno file './almanac/parse.lua'\n\n0 successes / 0 failures / 1 error / 0 pending : 0.004 seconds\n",
                    1,
                ),
                Read(
                    "Makefile",
                    '.PHONY: test lint\n\ntest:\n\tLUA_PATH="src/?.lua;src/?/init.lua;$$LUA_PATH" busted spec\n\nlint:\n\tluacheck src spec\n',
                ),
                Run(
                    "make test",
                    'LUA_PATH="src/?.lua;src/?/init.lua;$LUA_PATH" busted spec\n●●●●●●●●●●●●●●●●●●●●●\n'
                    "21 successes / 0 failures / 0 errors / 0 pending : 0.031 seconds\n",
                ),
                Say(
                    "Plain `busted` can't find the modules under `src/`; `make test` puts them on `LUA_PATH`, and all 21 specs pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(run the tests|before finishing|test command|tests? (also )?(are )?run with)[^\n]*`busted( spec)?`",
            "a bare `busted` does not find the sources; the tests run through `make test`",
        ),
    ),
    may=(r"make test",),
)

PERL_LEFTOVER_DRIVER = Trap(
    "perl-leftover-driver",
    "Perl",
    "the cpanfile still requires DBD::mysql beside DBD::Pg; the code connects with `dbi:Pg:`",
    (
        Session(
            "claude",
            "/home/ana/code/ledgerline",
            (
                Ask("Monthly totals are off by one day at month end. Can you look?"),
                Read(
                    "cpanfile",
                    "requires 'perl', '5.036';\nrequires 'Mojolicious', '9.37';\nrequires 'DBI', '1.643';\n"
                    "requires 'DBD::Pg', '3.18.0';\nrequires 'DBD::mysql', '4.050';\nrequires 'DateTime', '1.65';\n\n"
                    "on 'test' => sub {\n    requires 'Test2::V0', '0.000163';\n};\n",
                ),
                Read(
                    "lib/Ledgerline/DB.pm",
                    "package Ledgerline::DB;\nuse v5.36;\nuse DBI;\n\nsub connect ($class, $conf) {\n"
                    '    return DBI->connect("dbi:Pg:dbname=$conf->{name};host=$conf->{host}", $conf->{user}, $conf->{password},\n'
                    "        { RaiseError => 1, AutoCommit => 1, pg_enable_utf8 => 1 });\n}\n\n1;\n",
                ),
                Read(
                    "lib/Ledgerline/Report.pm",
                    "sub month_totals ($self, $year, $month) {\n    my $sth = $self->db->prepare(\n"
                    "        q{SELECT account, sum(cents) FROM entries WHERE booked_on BETWEEN ? AND ? GROUP BY account});\n"
                    "    my $last = DateTime->last_day_of_month(year => $year, month => $month)->subtract(days => 1);\n",
                ),
                Edit(
                    "lib/Ledgerline/Report.pm",
                    "    my $last = DateTime->last_day_of_month(year => $year, month => $month)->subtract(days => 1);\n",
                    "    my $last = DateTime->last_day_of_month(year => $year, month => $month);\n",
                ),
                Run(
                    "prove -lr t",
                    "t/db.t ....... ok\nt/report.t ... ok\nt/routes.t ... ok\nAll tests successful.\nFiles=3, Tests=27,  1 wallclock secs ( 0.03 usr  0.01 sys +  0.71 cusr  0.09 csys =  0.84 CPU)\nResult: PASS\n",
                ),
                Say(
                    "The report subtracted a day from the month's last day, and `BETWEEN` is inclusive already; fixed, and `prove -lr t` passes (27 tests)."
                ),
            ),
        ),
    ),
    wrong=((r"\bMySQL\b", "DBD::mysql is left in the cpanfile; the code connects with DBD::Pg"),),
    may=(r"PostgreSQL|prove -lr t|Mojolicious",),
)

CASES: tuple[Trap, ...] = (
    SBT_SUBPROJECT_DRIVER,
    CLOJURE_STALE_README,
    ZIG_ONE_FILE_TEST,
    DUNE_FLOOR_RAISED,
    REBAR3_NOT_WHOLE_SUITE,
    JULIA_FORMATTER_STOPPED,
    DENO_DOCS_SITE,
    TERRAFORM_LINTER_DROPPED,
    NIX_VENDOR_HASH,
    SYMFONY_ENV_ALTERNATIVES,
    DART_EXAMPLE_APP,
    GLEAM_OTHER_PROJECT_RULE,
    NIM_UPSTREAM_CONTRIBUTING,
    LUA_MAKEFILE_PATH,
    PERL_LEFTOVER_DRIVER,
)
