"""An ordinary session in ecosystems the benchmarks do not hold: the assistant reads the README
and the manifest, edits one source file, runs the test command once (it passes) and a build.

The memories must name the test command, the build command and the language — and state no
database, framework or tool that the session did not show (most manifests declare a database
driver or library of their own ecosystem: there it is only a dependency). This
battery is imagined, not recorded: it guards against a command or language table that forgot
an ecosystem, not more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"
#: Names no ordinary session below shows: a database or framework only a manifest declares,
#: and the tools of the ecosystems the rules were first written for.
NEVER_STATED = (
    "PostgreSQL",
    "MySQL",
    "Redis",
    "SQLite",
    "Spring",
    "Rails",
    "Laravel",
    "Phoenix",
    "pytest",
    "npm",
    "cargo",
    "mix",
)


@dataclass(frozen=True)
class Ordinary:
    """One ecosystem's ordinary session, as its developers would see it."""

    name: str
    manifest: str
    body: str  # declares a database driver it never uses in the session
    readme: str
    source: str
    test: str
    test_output: str
    build: str
    build_output: str
    language: str  # as the language fact names it
    built: bool = True  # whether `build` builds anything (`composer dump-autoload` does not)


ORDINARY = [
    Ordinary(
        name="java-maven",
        manifest="pom.xml",
        body=(
            "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n"
            "  <artifactId>ledger</artifactId>\n  <dependencies>\n    <dependency>\n"
            "      <groupId>org.postgresql</groupId>\n      <artifactId>postgresql</artifactId>\n"
            "      <version>42.7.3</version>\n    </dependency>\n  </dependencies>\n</project>\n"
        ),
        readme="# Ledger\n\nDouble-entry books for small shops.\n",
        source="src/main/java/com/acme/ledger/Books.java",
        test="mvn -q test",
        test_output="[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0\n",
        build="mvn -q package -DskipTests",
        build_output="",
        language="Java",
    ),
    Ordinary(
        name="kotlin-gradle",
        manifest="build.gradle.kts",
        body=(
            'plugins {\n    kotlin("jvm") version "2.0.0"\n}\n\ndependencies {\n'
            '    implementation("org.postgresql:postgresql:42.7.3")\n'
            '    testImplementation(kotlin("test"))\n}\n'
        ),
        readme="# Ledger\n\nDouble-entry books for small shops.\n",
        source="src/main/kotlin/com/acme/ledger/Books.kt",
        test="./gradlew test",
        test_output="> Task :test\n\nBUILD SUCCESSFUL in 14s\n4 actionable tasks: 2 executed\n",
        build="./gradlew build",
        build_output="BUILD SUCCESSFUL in 21s\n7 actionable tasks: 3 executed\n",
        language="Kotlin",
    ),
    Ordinary(
        # The build script is Kotlin; the code it builds is Java.
        name="java-gradle-kotlin-dsl",
        manifest="build.gradle.kts",
        body=(
            "plugins {\n    java\n}\n\ndependencies {\n"
            '    implementation("org.postgresql:postgresql:42.7.3")\n}\n'
        ),
        readme="# Ledger\n\nDouble-entry books for small shops.\n",
        source="src/main/java/com/acme/ledger/Books.java",
        test="./gradlew test",
        test_output="> Task :test\n\nBUILD SUCCESSFUL in 14s\n4 actionable tasks: 2 executed\n",
        build="./gradlew assemble",
        build_output="BUILD SUCCESSFUL in 9s\n",
        language="Java",
    ),
    Ordinary(
        name="scala-sbt",
        manifest="build.sbt",
        body=(
            'name := "ledger"\nscalaVersion := "3.4.1"\n'
            'libraryDependencies += "org.postgresql" % "postgresql" % "42.7.3"\n'
        ),
        readme="# Ledger\n\nDouble-entry books for small shops.\n",
        source="src/main/scala/ledger/Books.scala",
        test="sbt test",
        test_output="[info] Passed: Total 9, Failed 0, Errors 0, Passed 9\n[success] Total time: 6 s\n",
        build="sbt package",
        build_output="[success] Total time: 4 s\n",
        language="Scala",
    ),
    Ordinary(
        name="erlang-rebar3",
        manifest="rebar.config",
        body='{erl_opts, [debug_info]}.\n{deps, [{epgsql, "4.7.1"}]}.\n',
        readme="# ledger\n\nDouble-entry books for small shops, as an OTP application.\n",
        source="src/ledger_books.erl",
        test="rebar3 eunit",
        test_output="===> Performing EUnit tests...\n......\nFinished in 0.120 seconds\n"
        "6 tests, 0 failures\n",
        build="rebar3 compile",
        build_output="===> Verifying dependencies...\n===> Compiling ledger\n",
        language="Erlang",
    ),
    Ordinary(
        name="clojure-lein",
        manifest="project.clj",
        body=(
            '(defproject ledger "0.1.0"\n  :description "Double-entry books for small shops"\n'
            '  :dependencies [[org.clojure/clojure "1.11.1"]\n'
            '                 [org.postgresql/postgresql "42.7.3"]])\n'
        ),
        readme="# ledger\n\nDouble-entry books for small shops.\n",
        source="src/ledger/books.clj",
        test="lein test",
        test_output="lein test ledger.books-test\n\nRan 4 tests containing 9 assertions.\n"
        "0 failures, 0 errors.\n",
        build="lein uberjar",
        build_output="Compiling ledger.core\nCreated target/ledger-0.1.0-standalone.jar\n",
        language="Clojure",
    ),
    Ordinary(
        name="csharp-dotnet",
        manifest="Ledger.csproj",
        body=(
            '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n'
            "    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n  <ItemGroup>\n"
            '    <PackageReference Include="Npgsql" Version="8.0.3" />\n  </ItemGroup>\n'
            "</Project>\n"
        ),
        readme="# Ledger\n\nDouble-entry books for small shops.\n",
        source="src/Books.cs",
        test="dotnet test",
        test_output="Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12\n",
        build="dotnet build -c Release",
        build_output="Build succeeded.\n    0 Warning(s)\n    0 Error(s)\n",
        language="C#",
    ),
    Ordinary(
        name="ruby-minitest",
        manifest="Gemfile",
        body='source "https://rubygems.org"\n\ngemspec\n\ngem "sequel", "~> 5.80"\ngem "minitest"\n',
        readme="# ledger\n\nDouble-entry books for small shops.\n",
        source="lib/ledger/books.rb",
        test="bundle exec rake test",
        test_output="Run options: --seed 4242\n\n3 runs, 6 assertions, 0 failures, 0 errors, "
        "0 skips\n",
        build="gem build ledger.gemspec",
        build_output="  Successfully built RubyGem\n  Name: ledger\n",
        language="Ruby",
    ),
    Ordinary(
        name="php-composer",
        manifest="composer.json",
        body=(
            '{\n  "name": "acme/ledger",\n  "require": {\n    "php": ">=8.2",\n'
            '    "ext-pdo_pgsql": "*",\n    "doctrine/dbal": "^4.0"\n  },\n'
            '  "require-dev": {\n    "phpunit/phpunit": "^11.0"\n  }\n}\n'
        ),
        readme="# Ledger\n\nDouble-entry books for small shops.\n",
        source="src/Books.php",
        test="vendor/bin/phpunit",
        test_output="PHPUnit 11.1.3 by Sebastian Bergmann and contributors.\n\n"
        "OK (12 tests, 30 assertions)\n",
        build="composer dump-autoload -o",
        build_output="Generated optimized autoload files containing 412 classes\n",
        language="PHP",
        built=False,
    ),
    Ordinary(
        name="dart-flutter",
        manifest="pubspec.yaml",
        body=(
            "name: ledger\ndescription: Double-entry books for small shops.\n"
            "dependencies:\n  flutter:\n    sdk: flutter\n  sqflite: ^2.3.3\n"
            "dev_dependencies:\n  flutter_test:\n    sdk: flutter\n"
        ),
        readme="# ledger\n\nDouble-entry books for small shops.\n",
        source="lib/books.dart",
        test="flutter test",
        test_output="00:02 +12: All tests passed!\n",
        build="flutter build apk --release",
        build_output="✓ Built build/app/outputs/flutter-apk/app-release.apk (18.2MB)\n",
        language="Dart",
    ),
    Ordinary(
        name="swift-spm",
        manifest="Package.swift",
        body=(
            "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n"
            '    name: "Ledger",\n    dependencies: [\n'
            '        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.21.0"),\n'
            '    ],\n    targets: [.target(name: "Ledger")]\n)\n'
        ),
        readme="# Ledger\n\nDouble-entry books for small shops.\n",
        source="Sources/Ledger/Books.swift",
        test="swift test",
        test_output="Test Suite 'All tests' passed at 2026-04-06 09:01:12.345.\n"
        "\t Executed 12 tests, with 0 failures (0 unexpected) in 0.031 seconds\n",
        build="swift build -c release",
        build_output="Building for production...\nBuild complete! (12.31s)\n",
        language="Swift",
    ),
    Ordinary(
        name="haskell-cabal",
        manifest="ledger.cabal",
        body=(
            "cabal-version: 2.4\nname: ledger\nversion: 0.1.0\n"
            "synopsis: Double-entry books for small shops\n\nlibrary\n"
            "  build-depends: base >=4.17, postgresql-simple\n"
        ),
        readme="# ledger\n\nDouble-entry books for small shops.\n",
        source="src/Ledger/Books.hs",
        test="cabal test",
        test_output="Test suite ledger-test: PASS\n1 of 1 test suites (1 of 1 test cases) passed.\n",
        build="cabal build",
        build_output="Building library for ledger-0.1.0..\n",
        language="Haskell",
    ),
    Ordinary(
        name="ocaml-dune",
        manifest="dune-project",
        body="(lang dune 3.14)\n(name ledger)\n(package\n (name ledger)\n (depends caqti))\n",
        readme="# ledger\n\nDouble-entry books for small shops.\n",
        source="lib/books.ml",
        test="dune test",
        test_output="",
        build="dune build",
        build_output="",
        language="OCaml",
    ),
    Ordinary(
        name="zig",
        manifest="build.zig",
        body='const std = @import("std");\n\npub fn build(b: *std.Build) void {\n    _ = b;\n}\n',
        readme="# ledger\n\nDouble-entry books for small shops.\n",
        source="src/books.zig",
        test="zig build test",
        test_output="",
        build="zig build -Doptimize=ReleaseSafe",
        build_output="",
        language="Zig",
    ),
    Ordinary(
        name="cpp-cmake",
        manifest="CMakeLists.txt",
        body=(
            "cmake_minimum_required(VERSION 3.20)\nproject(ledger LANGUAGES CXX)\n"
            "find_package(PostgreSQL REQUIRED)\nadd_library(ledger src/books.cpp)\n"
        ),
        readme="# ledger\n\nDouble-entry books for small shops.\n",
        source="src/books.cpp",
        test="ctest --test-dir build --output-on-failure",
        test_output="100% tests passed, 0 tests failed out of 12\n",
        build="cmake --build build -j",
        build_output="[100%] Built target ledger\n",
        language="C++",
    ),
    Ordinary(
        name="lua-busted",
        manifest="ledger-0.1-1.rockspec",
        body='package = "ledger"\nversion = "0.1-1"\ndependencies = { "luasql-postgres" }\n',
        readme="# ledger\n\nDouble-entry books for small shops.\n",
        source="src/ledger/books.lua",
        test="busted",
        test_output="●●●\n3 successes / 0 failures / 0 errors / 0 pending : 0.01 seconds\n",
        build="luarocks make",
        build_output="ledger 0.1-1 is now installed in /home/dev/.luarocks\n",
        language="Lua",
    ),
    Ordinary(
        name="perl-prove",
        manifest="cpanfile",
        body="requires 'DBD::Pg';\non 'test' => sub { requires 'Test::More'; };\n",
        readme="# Ledger\n\nDouble-entry books for small shops.\n",
        source="lib/Ledger/Books.pm",
        test="prove -lr t",
        test_output="t/books.t .. ok\nAll tests successful.\nFiles=2, Tests=7,  0 wallclock secs\n"
        "Result: PASS\n",
        build="perl Makefile.PL && make",
        build_output="Writing Makefile for Ledger\n",
        language="Perl",
    ),
]
IDS = [o.name for o in ORDINARY]


def _session(eco: Ordinary) -> list[MemoryCandidate]:
    session = Session(ROOT, "s1", T0, test_runs=True)
    session.user("Read the instructions, then add a total to the books and check it builds.")
    session.read("README.md", eco.readme)
    session.read(eco.manifest, eco.body)
    session.read(eco.source, "old\n")
    session.edit_lines(eco.source, "old", "new")
    session.run(eco.test, 0, eco.test_output)
    session.run(eco.build, 0, eco.build_output)
    session.say("Done: the total is added, the tests pass and the build succeeds.")
    return session.extracted()


def _about(found: list[MemoryCandidate], key: str) -> list[str]:
    return [c.content for c in found if c.key == key]


@pytest.mark.parametrize("eco", ORDINARY, ids=IDS)
def test_an_ordinary_session_names_the_test_and_build_commands(eco: Ordinary) -> None:
    found = _session(eco)

    (tests,) = _about(found, "recipe:test")
    assert f"`{eco.test}`" in tests, tests
    builds = _about(found, "recipe:build")
    if not eco.built:
        assert builds == []
        return
    (build,) = builds
    assert f"`{eco.build.split(' && ')[-1]}`" in build or f"`{eco.build}`" in build, build


@pytest.mark.parametrize("eco", ORDINARY, ids=IDS)
def test_an_ordinary_session_names_the_language(eco: Ordinary) -> None:
    found = _session(eco)

    languages = _about(found, "language")
    assert languages, [c.key for c in found]
    assert all(f"{eco.language} project" in said for said in languages), languages


@pytest.mark.parametrize("eco", ORDINARY, ids=IDS)
def test_an_ordinary_session_states_nothing_it_did_not_show(eco: Ordinary) -> None:
    found = _session(eco)

    for candidate in found:
        for word in NEVER_STATED:
            pattern = rf"(?<![\w/.#+-]){re.escape(word)}(?![\w#+-])"
            assert not re.search(pattern, candidate.content), (word, candidate.content)


def test_code_of_a_late_ecosystem_counts_toward_the_main_one() -> None:
    # Three Haskell files and two Python helper scripts edited: `cabal test` is the project's
    # test command, not one "for the Haskell part".
    session = Session(ROOT, "s2", T0, test_runs=True)
    session.user("Add a total to the books.")
    for path in ("src/Ledger/Books.hs", "src/Ledger/Post.hs", "test/BooksSpec.hs"):
        session.read(path, "old\n")
        session.edit_lines(path, "old", "new")
    for path in ("scripts/gen_fixtures.py", "scripts/check_fixtures.py"):
        session.read(path, "old\n")
        session.edit_lines(path, "old", "new")
    session.run("cabal test", 0, "1 of 1 test suites (1 of 1 test cases) passed.\n")

    found = session.extracted()

    assert _about(found, "recipe:test") == ["To run the tests: `cabal test`."]


def test_tests_run_inside_a_container_are_the_test_command() -> None:
    session = Session(ROOT, "s3", T0, test_runs=True)
    session.user("Fix the discount rounding.")
    session.read("src/Discount.php", "old\n")
    session.edit_lines("src/Discount.php", "old", "new")
    session.run("docker compose exec -T db psql -U app -c 'select 1'", 0, " 1\n")
    session.run(
        "docker compose exec -T app vendor/bin/phpunit", 0, "OK (12 tests, 30 assertions)\n"
    )

    found = session.extracted()

    assert _about(found, "recipe:test") == [
        "To run the tests: `docker compose exec -T app vendor/bin/phpunit`."
    ]
    assert not any("psql" in c.content for c in found)


def test_tool_names_used_as_words_are_no_commands() -> None:
    # `make`, `mix` and `stack` as English verbs and nouns, `test` as a folder's name.
    session = Session(ROOT, "s4", T0, test_runs=True)
    session.user("Make sure the build passes, then mix the two lists and stack the results.")
    session.read(
        "CLAUDE.md",
        "# Ledger\n\nMake sure the tests pass before committing. Mix the colours in the test "
        "folder.\nThe stack is small: build it with care.\n",
    )
    session.run("ls test", 0, "books.t\n")
    session.run("cd test && ls", 0, "books.t\n")
    session.say("Done.")

    found = session.extracted()

    assert [c.key for c in found if c.key.startswith(("recipe:", "test_command"))] == []
