"""Imagined projects of ten more ecosystems for the matrix: Erlang (rebar3), Gleam, Haskell
(cabal, and stack with hpack), OCaml (dune/opam), Zig, Perl (cpanfile, Makefile.PL), a Go
service packaged with a Nix flake, Clojure (deps.edn, and Leiningen).

Each session reads what a developer reads first and runs the tests, and meets a trap: a
dependency's manifest under the build folder, a template's ignore file, a flake's development
shell naming tools of other ecosystems, a test-only dependency, a blog post naming a store.
"""

from __future__ import annotations

from tests.unit.memory.ecosystem_facts.matrix import Project

ERLANG = Project(
    "relay",
    (
        (
            "read",
            "README.md",
            "# relay\n\nrelay is a small MQTT message broker for home sensors.\n\n"
            "## Build\n\n    $ rebar3 compile\n",
        ),
        (
            "read",
            "rebar.config",
            '{minimum_otp_vsn, "26"}.\n{erl_opts, [debug_info]}.\n'
            '{deps, [{cowboy, "2.12.0"}, {jsx, "3.1.0"}]}.\n'
            '{profiles, [{test, [{deps, [{meck, "0.9.2"}, {epgsql, "4.7.1"}]}]}]}.\n',
        ),
        (
            "read",
            "_build/default/lib/cowboy/rebar.config",
            '{deps, [\n{cowlib,".*",{git,"https://github.com/ninenines/cowlib",{tag,'
            '"2.13.0"}}},\n{ranch,".*",{git,"https://github.com/ninenines/ranch",{tag,'
            '"1.8.0"}}}\n]}.\n',
        ),
        ("edit", "src/relay_session.erl"),
        ("edit", "test/relay_session_tests.erl"),
        (
            "run",
            "rebar3 eunit",
            "===> Performing EUnit tests...\n......\nFinished in 0.141 "
            "seconds\n24 tests, 0 failures\n",
        ),
    ),
    stated=(
        ("what", "MQTT message broker"),
        ("language", "Erlang"),
        ("version", "26"),
        ("testing", "rebar3 eunit"),
    ),
    traps=(("database", "PostgreSQL"), ("language", "Elixir"), ("testing", "meck")),
)

GLEAM = Project(
    "sprout",
    (
        (
            "read",
            "gleam.toml",
            'name = "sprout"\nversion = "0.3.0"\n'
            'description = "Seed-swap listings for community gardens"\n'
            'gleam = ">= 1.4.0"\n\n[dependencies]\ngleam_stdlib = ">= 0.38.0 and < 2.0.0"\n'
            'wisp = ">= 0.15.0 and < 1.0.0"\nmist = ">= 1.2.0 and < 2.0.0"\n'
            'sqlight = ">= 0.9.0 and < 1.0.0"\n\n[dev-dependencies]\n'
            'gleeunit = ">= 1.0.0 and < 2.0.0"\n',
        ),
        (
            "read",
            ".gitignore",
            "*.beam\n*.ez\n/build\nerl_crash.dump\nnode_modules/\n__pycache__/\n",
        ),
        (
            "read",
            "build/packages/wisp/gleam.toml",
            'name = "wisp"\nversion = "0.15.0"\n'
            'description = "A practical web framework for Gleam"\ngleam = ">= 0.32.0"\n',
        ),
        ("edit", "src/sprout/listings.gleam"),
        ("edit", "test/sprout/listings_test.gleam"),
        (
            "run",
            "gleam test",
            "  Compiling sprout\n   Compiled in 0.61s\n    Running "
            "sprout_test.main\n.........\nFinished in 0.018 seconds\n9 tests, 0 failures\n",
        ),
    ),
    stated=(
        ("what", "Seed-swap listings for community gardens"),
        ("language", "Gleam"),
        ("version", "1.4.0"),
        ("framework", "Wisp"),
        ("database", "SQLite"),
        ("testing", "gleam test"),
    ),
    traps=(
        ("what", "practical web framework"),
        ("version", "0.32.0"),
        ("language", "Python"),
        ("language", "JavaScript"),
    ),
    unsure=("database",),
)

HASKELL_CABAL = Project(
    "tithe",
    (
        (
            "read",
            "tithe.cabal",
            "cabal-version:      3.0\nname:               tithe\nversion:            0.2.0.0\n"
            "synopsis:           Parish accounts from bank statements\n"
            "tested-with:        GHC ==9.6.5\n\nlibrary\n    exposed-modules:  Tithe.Ledger\n"
            "    build-depends:    base >=4.17 && <5, servant-server, postgresql-simple\n"
            "    hs-source-dirs:   src\n    default-language: GHC2021\n\n"
            "test-suite tithe-test\n    type:             exitcode-stdio-1.0\n"
            "    main-is:          Spec.hs\n    build-depends:    base, tithe, hspec\n",
        ),
        ("read", "cabal.project", "packages: .\n\nwith-compiler: ghc-9.6.5\n"),
        ("edit", "src/Tithe/Ledger.hs"),
        ("edit", "test/Tithe/LedgerSpec.hs"),
        (
            "run",
            "cabal test",
            "Build profile: -w ghc-9.6.5 -O1\nRunning 1 test suites...\n"
            "Test suite tithe-test: RUNNING...\nTest suite tithe-test: PASS\n"
            "1 of 1 test suites (1 of 1 test cases) passed.\n",
        ),
    ),
    stated=(
        ("what", "Parish accounts from bank statements"),
        ("language", "Haskell"),
        ("version", "9.6.5"),
        ("framework", "Servant"),
        ("database", "PostgreSQL"),
        ("testing", "cabal test"),
    ),
    traps=(("language", "Python"), ("testing", "hspec")),
    unsure=("database",),
)

HASKELL_STACK = Project(
    "quire",
    (
        (
            "read",
            "README.md",
            "# quire\n\nquire turns a folder of Markdown notes into a printable zine.\n",
        ),
        (
            "read",
            "stack.yaml",
            "resolver: lts-22.21\npackages:\n- .\nextra-deps:\n- pandoc-3.1.11\n",
        ),
        (
            "read",
            "package.yaml",
            "name: quire\nversion: 0.1.0\ndependencies:\n- base >= 4.7 && < 5\n- pandoc\n"
            "tests:\n  quire-test:\n    main: Spec.hs\n    dependencies: [hspec]\n",
        ),
        ("edit", "src/Quire/Layout.hs"),
        (
            "run",
            "stack test",
            "quire> test (suite: quire-test)\n\nLayout\n  folds pages in fours [✔]\n\n"
            "Finished in 0.0021 seconds\n3 examples, 0 failures\n\nquire> Test suite quire-test "
            "passed\n",
        ),
    ),
    stated=(
        ("what", "Markdown notes into a printable zine"),
        ("language", "Haskell"),
        ("testing", "stack test"),
    ),
    traps=(("language", "YAML"), ("framework", "Pandoc")),
)

OCAML = Project(
    "cairn",
    (
        (
            "read",
            "dune-project",
            "(lang dune 3.14)\n(name cairn)\n(generate_opam_files true)\n\n"
            '(package\n (name cairn)\n (synopsis "Trail condition reports for hill walkers")\n'
            " (depends\n  (ocaml (>= 5.1))\n  dream\n  caqti-driver-sqlite3\n"
            "  (alcotest :with-test)))\n",
        ),
        (
            "read",
            "_opam/lib/dream/opam",
            'opam-version: "2.0"\nsynopsis: "Tidy, feature-complete Web framework"\n'
            'depends: [\n  "ocaml" {>= "4.08.0"}\n]\n',
        ),
        ("edit", "bin/main.ml"),
        ("edit", "lib/reports.ml"),
        ("edit", "test/test_reports.ml"),
        (
            "run",
            "dune test",
            "Testing `cairn'.\n  [OK]          reports          0   "
            "newest first.\nTest Successful in 0.002s. 4 tests run.\n",
        ),
    ),
    stated=(
        ("what", "Trail condition reports for hill walkers"),
        ("language", "OCaml"),
        ("version", "5.1"),
        ("framework", "Dream"),
        ("database", "SQLite"),
        ("testing", "dune test"),
    ),
    traps=(("what", "feature-complete Web framework"), ("version", "4.08")),
    unsure=("database",),
)

ZIG = Project(
    "tinderbox",
    (
        (
            "read",
            "README.md",
            "# tinderbox\n\ntinderbox is a tiny static file server for a home network.\n",
        ),
        (
            "read",
            "build.zig.zon",
            '.{\n    .name = "tinderbox",\n    .version = "0.2.0",\n'
            '    .minimum_zig_version = "0.13.0",\n    .dependencies = .{\n'
            '        .httpz = .{ .url = "https://github.com/karlseguin/http.zig/archive/0.13.tar.gz",'
            ' .hash = "1220a" },\n    },\n    .paths = .{ "" },\n}\n',
        ),
        ("edit", "src/main.zig"),
        ("edit", "src/serve.zig"),
        ("run", "zig build test", "All 7 tests passed.\n"),
    ),
    stated=(
        ("what", "tiny static file server"),
        ("language", "Zig"),
        ("version", "0.13.0"),
        ("testing", "zig build test"),
    ),
    traps=(("language", "C/C++"),),
)

PERL = Project(
    "almanac",
    (
        (
            "read",
            "Makefile.PL",
            "use ExtUtils::MakeMaker;\n\nWriteMakefile(\n    NAME          => 'Almanac',\n"
            "    ABSTRACT      => 'Tide and sunrise tables for the harbour notice board',\n"
            "    VERSION_FROM  => 'lib/Almanac.pm',\n    MIN_PERL_VERSION => '5.036',\n);\n",
        ),
        (
            "read",
            "cpanfile",
            "requires 'perl', '5.036';\nrequires 'Mojolicious', '9.35';\n"
            "requires 'DBD::SQLite';\n\non 'test' => sub {\n    requires 'Test2::V0';\n"
            "    requires 'DBD::Pg';\n};\n",
        ),
        (
            "read",
            "docs/blog/2025-moving-off-mongo.md",
            "# Why we left MongoDB\n\nWe moved to SQLite last spring.\n",
        ),
        ("edit", "lib/Almanac/Tides.pm"),
        ("edit", "t/tides.t"),
        (
            "run",
            "prove -lr t",
            "t/sunrise.t .. ok\nt/tides.t ..... ok\nAll tests successful.\n"
            "Files=2, Tests=31,  0 wallclock secs\nResult: PASS\n",
        ),
    ),
    stated=(
        ("what", "Tide and sunrise tables"),
        ("language", "Perl"),
        ("version", "5.036"),
        ("framework", "Mojolicious"),
        ("database", "SQLite"),
        ("testing", "prove"),
    ),
    traps=(("database", "MongoDB"), ("database", "PostgreSQL"), ("language", "Prolog")),
    unsure=("database",),
)

NIX_GO = Project(
    "beacon",
    (
        (
            "read",
            "flake.nix",
            '{\n  description = "beacon: uptime checks for a village broadband co-op";\n\n'
            '  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.05";\n\n'
            "  outputs = { self, nixpkgs }: let pkgs = nixpkgs.legacyPackages.x86_64-linux; in {\n"
            "    devShells.x86_64-linux.default = pkgs.mkShell {\n"
            "      packages = [ pkgs.go_1_22 pkgs.postgresql_16 pkgs.nodejs_20 pkgs.python3 ];\n"
            "    };\n  };\n}\n",
        ),
        (
            "read",
            "go.mod",
            "module github.com/coop/beacon\n\ngo 1.22\n\nrequire (\n"
            "\tgithub.com/mattn/go-sqlite3 v1.14.22\n)\n",
        ),
        ("edit", "internal/check/probe.go"),
        ("edit", "internal/check/probe_test.go"),
        ("run", "go test ./...", "ok  \tgithub.com/coop/beacon/internal/check\t0.214s\n"),
    ),
    stated=(
        ("what", "uptime checks for a village broadband co-op"),
        ("language", "Go"),
        ("version", "1.22"),
        ("database", "SQLite"),
        ("testing", "go test"),
    ),
    traps=(
        ("database", "PostgreSQL"),
        ("language", "JavaScript"),
        ("language", "Python"),
        ("language", "Nix"),
        ("version", "Node.js"),
    ),
    unsure=("what", "database"),
)

CLOJURE_DEPS = Project(
    "hopper",
    (
        (
            "read",
            "README.md",
            "# hopper\n\nhopper tracks grain deliveries for a co-operative mill.\n",
        ),
        (
            "read",
            "deps.edn",
            '{:paths ["src" "resources"]\n :deps {org.clojure/clojure {:mvn/version '
            '"1.11.3"}\n        ring/ring-jetty-adapter {:mvn/version "1.12.1"}\n'
            '        com.github.seancorfield/next.jdbc {:mvn/version "1.3.925"}\n'
            '        org.xerial/sqlite-jdbc {:mvn/version "3.45.3.0"}}\n'
            ' :aliases {:test {:extra-paths ["test"]\n'
            "                  :extra-deps {io.github.cognitect-labs/test-runner "
            '{:git/tag "v0.5.1" :git/sha "dfb30dd"}}\n'
            '                  :main-opts ["-m" "cognitect.test-runner"]}}}\n',
        ),
        ("edit", "src/hopper/deliveries.clj"),
        ("edit", "test/hopper/deliveries_test.clj"),
        (
            "run",
            "clojure -X:test",
            'Running tests in #{"test"}\n\nTesting hopper.deliveries-test\n\n'
            "Ran 8 tests containing 21 assertions.\n0 failures, 0 errors.\n",
        ),
    ),
    stated=(
        ("what", "grain deliveries"),
        ("language", "Clojure"),
        ("version", "1.11.3"),
        ("database", "SQLite"),
        ("testing", "clojure -X:test"),
    ),
    traps=(("language", "Java"),),
    unsure=("database",),
)

CLOJURE_LEIN = Project(
    "kiln",
    (
        (
            "read",
            "project.clj",
            '(defproject kiln "0.5.0"\n  :description "Firing schedules for a pottery '
            'studio\'s kilns"\n  :dependencies [[org.clojure/clojure "1.11.1"]\n'
            '                 [compojure "1.7.1"]]\n'
            '  :profiles {:dev {:dependencies [[ring/ring-mock "0.4.0"]]}})\n',
        ),
        ("edit", "src/kiln/schedule.clj"),
        ("edit", "test/kiln/schedule_test.clj"),
        (
            "run",
            "lein test",
            "\nlein test kiln.schedule-test\n\nRan 5 tests containing 12 assertions.\n"
            "0 failures, 0 errors.\n",
        ),
    ),
    stated=(
        ("what", "Firing schedules for a pottery"),
        ("language", "Clojure"),
        ("version", "1.11.1"),
        ("framework", "Compojure"),
        ("testing", "lein test"),
    ),
    traps=(("language", "Java"),),
)

LANG_PROJECTS = (
    ERLANG,
    GLEAM,
    HASKELL_CABAL,
    HASKELL_STACK,
    OCAML,
    ZIG,
    PERL,
    NIX_GO,
    CLOJURE_DEPS,
    CLOJURE_LEIN,
)
