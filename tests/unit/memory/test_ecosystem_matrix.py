"""The offline session rules across ecosystems: one realistic session pair per ecosystem.

Each ecosystem's session reads its real manifest, runs its real test command (passing, in two
sessions), hits one failure whose output explains itself and fixes it, and the user states one
standing preference. The rules must note what a senior engineer would — and nothing foreign.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import PurePosixPath

import pytest

from squirrel_core.commands import classify_command
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.evidence.test_reports import reports_tests
from squirrel_memory.extractors.manifests import extension_language
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 4, 8, tzinfo=UTC)
PROJECT = "/home/dev/ledger"


@dataclass(frozen=True)
class Ecosystem:
    """One ecosystem's session material, written as its developers would see it."""

    name: str
    manifest: str
    body: str
    language: str
    about: str  # words of the manifest's description the project fact must carry
    test: str  # the test command as typed
    tested: str  # how the test command fact names it
    failing: str  # the command that fails (then passes after the fix)
    failure: str  # its output: an error line and an explanation line
    lesson: str  # words the pitfall must carry
    fix_path: str
    fix_text: str
    foreign: tuple[str, ...]  # other ecosystems' tools that must never be stated
    progress: str  # a progress line that is never an error
    asks: str = ""  # the language version the manifest asks for, as the language fact says it


ECOSYSTEMS = [
    Ecosystem(
        name="go",
        manifest="go.mod",
        body=(
            "module github.com/acme/ledger\n\ngo 1.22\n\nrequire (\n"
            "\tgithub.com/go-chi/chi/v5 v5.0.12\n\tgithub.com/jackc/pgx/v5 v5.5.5\n)\n"
        ),
        language="Go",
        about="",
        test="go test ./...",
        tested="go test",
        failing="go test ./...",
        failure=(
            "# github.com/acme/ledger/internal/books\n"
            "internal/books/post.go:14:2: undefined: ledgerEntry\n"
            "FAIL\tgithub.com/acme/ledger/internal/books [build failed]\n"
        ),
        lesson="undefined: ledgerEntry",
        fix_path="internal/books/post.go",
        fix_text="type ledgerEntry struct{}\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="go: downloading github.com/go-chi/chi/v5 v5.0.12",
        asks="Go 1.22",
    ),
    Ecosystem(
        name="ruby-rails",
        manifest="Gemfile",
        body=(
            'source "https://rubygems.org"\n\nruby "3.3.0"\n\ngem "rails", "~> 7.1.3"\n'
            'gem "pg", "~> 1.5"\ngem "puma", ">= 5.0"\n\ngroup :test do\n'
            '  gem "rspec-rails"\nend\n'
        ),
        language="Ruby",
        about="",
        test="bundle exec rspec",
        tested="bundle exec rspec",
        failing="bundle exec rspec spec/models/invoice_spec.rb",
        failure=(
            "Failures:\n\n  1) Invoice#total sums the lines\n"
            "     Failure/Error: expect(invoice.total).to eq(30)\n"
            "     NoMethodError:\n"
            "       undefined method `amount' for nil:NilClass\n"
            "1 example, 1 failure\n"
        ),
        lesson="undefined method 'amount' for nil",
        fix_path="app/models/invoice.rb",
        fix_text="lines.sum { |l| l&.amount.to_i }\n",
        foreign=("pytest", "npm", "cargo", "Django", "Gradle"),
        progress="Resolving dependencies...",
        asks="Ruby 3.3.0",
    ),
    Ecosystem(
        name="elixir-mix",
        manifest="mix.exs",
        body=(
            "defmodule Ledger.MixProject do\n  use Mix.Project\n\n  def project do\n"
            '    [\n      app: :ledger,\n      version: "0.4.0",\n      elixir: "~> 1.16",\n'
            '      description: "Double-entry bookkeeping for small shops",\n'
            "      deps: deps()\n    ]\n  end\n\n  defp deps do\n"
            '    [\n      {:phoenix, "~> 1.7.11"},\n      {:ecto_sql, "~> 3.11"},\n'
            '      {:postgrex, ">= 0.0.0"}\n    ]\n  end\nend\n'
        ),
        language="Elixir",
        about="Double-entry bookkeeping for small shops",
        test="mix test",
        tested="mix test",
        failing="mix test test/ledger/books_test.exs",
        failure=(
            "== Compilation error in file lib/ledger/books.ex ==\n"
            "** (CompileError) lib/ledger/books.ex:12: undefined function post_entry/2 "
            "(expected Ledger.Books to define such a function)\n"
        ),
        lesson="undefined function post_entry/2",
        fix_path="lib/ledger/books.ex",
        fix_text="def post_entry(book, entry), do: {:ok, [entry | book]}\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="==> ledger\nCompiling 14 files (.ex)",
        asks="Elixir ~> 1.16",
    ),
    Ecosystem(
        name="java-maven",
        manifest="pom.xml",
        body=(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
            "  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n"
            "  <artifactId>ledger</artifactId>\n  <version>0.4.0</version>\n"
            "  <description>Double-entry bookkeeping for small shops</description>\n"
            "  <dependencies>\n    <dependency>\n"
            "      <groupId>org.springframework.boot</groupId>\n"
            "      <artifactId>spring-boot-starter-web</artifactId>\n"
            "      <version>3.2.4</version>\n    </dependency>\n  </dependencies>\n"
            "</project>\n"
        ),
        language="Java",
        about="Double-entry bookkeeping for small shops",
        test="mvn test",
        tested="mvn test",
        failing="mvn -q test",
        failure=(
            "[ERROR] COMPILATION ERROR :\n"
            "[ERROR] /home/dev/ledger/src/main/java/com/acme/ledger/Books.java:[14,9] "
            "cannot find symbol\n"
            "  symbol:   class LedgerEntry\n"
            "[INFO] BUILD FAILURE\n"
        ),
        lesson="cannot find symbol",
        fix_path="src/main/java/com/acme/ledger/Books.java",
        fix_text="import com.acme.ledger.model.LedgerEntry;\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails", "Gradle"),
        progress="[INFO] Scanning for projects...",
    ),
    Ecosystem(
        name="kotlin-gradle",
        manifest="build.gradle.kts",
        body=(
            'plugins {\n    kotlin("jvm") version "1.9.23"\n    application\n}\n\n'
            'group = "com.acme"\nversion = "0.4.0"\n'
            'description = "Double-entry bookkeeping for small shops"\n\n'
            "dependencies {\n"
            '    implementation("io.ktor:ktor-server-core:2.3.10")\n'
            '    testImplementation(kotlin("test"))\n}\n'
        ),
        language="Kotlin",
        about="Double-entry bookkeeping for small shops",
        test="./gradlew test",
        tested="./gradlew test",
        failing="./gradlew test --tests LedgerTest",
        failure=(
            "> Task :compileKotlin FAILED\n"
            "e: file:///home/dev/ledger/src/main/kotlin/Books.kt:14:9 "
            "Unresolved reference: LedgerEntry\n"
            "FAILURE: Build failed with an exception.\n"
        ),
        lesson="Unresolved reference: LedgerEntry",
        fix_path="src/main/kotlin/Books.kt",
        fix_text="import com.acme.ledger.LedgerEntry\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails", "Maven"),
        progress="> Task :compileKotlin",
    ),
    Ecosystem(
        name="csharp-dotnet",
        manifest="Ledger.csproj",
        body=(
            '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup>\n'
            "    <TargetFramework>net8.0</TargetFramework>\n"
            "    <Description>Double-entry bookkeeping for small shops</Description>\n"
            "  </PropertyGroup>\n  <ItemGroup>\n"
            '    <PackageReference Include="Microsoft.EntityFrameworkCore" Version="8.0.4" />\n'
            '    <PackageReference Include="Npgsql.EntityFrameworkCore.PostgreSQL" '
            'Version="8.0.2" />\n  </ItemGroup>\n</Project>\n'
        ),
        language="C#",
        about="Double-entry bookkeeping for small shops",
        test="dotnet test",
        tested="dotnet test",
        failing="dotnet test --no-restore",
        failure=(
            "  Determining projects to restore...\n"
            "/home/dev/ledger/Books.cs(14,9): error CS0246: The type or namespace name "
            "'LedgerEntry' could not be found (are you missing a using directive or an "
            "assembly reference?) [/home/dev/ledger/Ledger.csproj]\n"
            "Build FAILED.\n"
        ),
        lesson="CS0246",
        fix_path="Books.cs",
        fix_text="using Acme.Ledger.Model;\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="  Determining projects to restore...",
        asks="net8.0",
    ),
    Ecosystem(
        name="php-composer",
        manifest="composer.json",
        body=(
            '{\n    "name": "acme/ledger",\n'
            '    "description": "Double-entry bookkeeping for small shops",\n'
            '    "require": {\n        "php": "^8.2",\n        "laravel/framework": "^11.0"\n'
            '    },\n    "require-dev": {\n        "phpunit/phpunit": "^11.0"\n    }\n}\n'
        ),
        language="PHP",
        about="Double-entry bookkeeping for small shops",
        test="vendor/bin/phpunit",
        tested="vendor/bin/phpunit",
        failing="vendor/bin/phpunit tests/Unit/BooksTest.php",
        failure=(
            "PHPUnit 11.0.9 by Sebastian Bergmann and contributors.\n\nE\n\n"
            "There was 1 error:\n\n1) Tests\\Unit\\BooksTest::test_post\n"
            'Error: Class "App\\Ledger\\Entry" not found\n'
        ),
        lesson="not found",
        fix_path="app/Ledger/Entry.php",
        fix_text="<?php\nnamespace App\\Ledger;\nfinal class Entry {}\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="Loading composer repositories with package information",
        asks="PHP ^8.2",
    ),
    Ecosystem(
        name="swift-spm",
        manifest="Package.swift",
        body=(
            "// swift-tools-version:5.9\nimport PackageDescription\n\n"
            'let package = Package(\n    name: "Ledger",\n'
            "    dependencies: [\n"
            '        .package(url: "https://github.com/vapor/vapor.git", from: "4.92.0"),\n'
            "    ],\n    targets: [\n"
            '        .target(name: "Ledger", dependencies: [.product(name: "Vapor", '
            'package: "vapor")]),\n'
            '        .testTarget(name: "LedgerTests", dependencies: ["Ledger"]),\n'
            "    ]\n)\n"
        ),
        language="Swift",
        about="",
        test="swift test",
        tested="swift test",
        failing="swift test --filter LedgerTests",
        failure=(
            "Building for debugging...\n"
            "/home/dev/ledger/Sources/Ledger/Books.swift:14:9: error: cannot find "
            "'LedgerEntry' in scope\n"
            "error: fatalError\n"
        ),
        lesson="cannot find 'LedgerEntry' in scope",
        fix_path="Sources/Ledger/Books.swift",
        fix_text="struct LedgerEntry {}\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="Fetching https://github.com/vapor/vapor.git",
        asks="Swift >=5.9",
    ),
    Ecosystem(
        name="dart-flutter",
        manifest="pubspec.yaml",
        body=(
            "name: ledger\ndescription: Double-entry bookkeeping for small shops\n"
            "version: 0.4.0\n\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\n\n"
            "dependencies:\n  flutter:\n    sdk: flutter\n  provider: ^6.1.2\n\n"
            "dev_dependencies:\n  flutter_test:\n    sdk: flutter\n"
        ),
        language="Dart",
        about="Double-entry bookkeeping for small shops",
        test="flutter test",
        tested="flutter test",
        failing="flutter test test/books_test.dart",
        failure=(
            "lib/books.dart:14:9: Error: The getter 'total' isn't defined for the class "
            "'Ledger'.\n"
            " - 'Ledger' is from 'package:ledger/ledger.dart' ('lib/ledger.dart').\n"
            "Some tests failed.\n"
        ),
        lesson="The getter 'total' isn't defined",
        fix_path="lib/ledger.dart",
        fix_text="int get total => entries.fold(0, (a, e) => a + e.amount);\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="Resolving dependencies...",
        asks="Dart >=3.3.0 <4.0.0",
    ),
    Ecosystem(
        name="haskell-cabal",
        manifest="ledger.cabal",
        body=(
            "cabal-version:      3.0\nname:               ledger\nversion:            0.4.0\n"
            "synopsis:           Double-entry bookkeeping for small shops\n"
            "build-type:         Simple\n\nlibrary\n    exposed-modules:  Ledger.Books\n"
            "    build-depends:    base ^>=4.18, containers, text\n"
            "    hs-source-dirs:   src\n\ntest-suite ledger-test\n"
            "    type:             exitcode-stdio-1.0\n    main-is:          Spec.hs\n"
            "    build-depends:    base, ledger, hspec\n"
        ),
        language="Haskell",
        about="Double-entry bookkeeping for small shops",
        test="cabal test",
        tested="cabal test",
        failing="cabal test --test-show-details=direct",
        failure=(
            "src/Ledger/Books.hs:14:9: error: [GHC-88464]\n"
            "    Variable not in scope: postEntry :: Book -> Entry -> Book\n"
        ),
        lesson="Variable not in scope: postEntry",
        fix_path="src/Ledger/Books.hs",
        fix_text="postEntry :: Book -> Entry -> Book\npostEntry b e = e : b\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="Resolving dependencies...",
    ),
    Ecosystem(
        name="zig",
        manifest="build.zig.zon",
        body=(
            '.{\n    .name = "ledger",\n    .version = "0.4.0",\n'
            "    .dependencies = .{\n        .zap = .{\n"
            '            .url = "https://github.com/zigzap/zap/archive/v0.6.0.tar.gz",\n'
            '            .hash = "1220b2b0b7b3c8d0",\n        },\n    },\n'
            '    .paths = .{ "build.zig", "src" },\n}\n'
        ),
        language="Zig",
        about="",
        test="zig build test",
        tested="zig build test",
        failing="zig build test --summary all",
        failure=(
            "src/books.zig:14:9: error: use of undeclared identifier 'LedgerEntry'\n"
            "    const e = LedgerEntry{ .amount = 3 };\n"
        ),
        lesson="use of undeclared identifier 'LedgerEntry'",
        fix_path="src/books.zig",
        fix_text='const LedgerEntry = @import("entry.zig").LedgerEntry;\n',
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="Build Summary: 3/3 steps succeeded",
    ),
    Ecosystem(
        name="r-devtools",
        manifest="DESCRIPTION",
        body=(
            "Package: ledger\nType: Package\nTitle: Double-Entry Bookkeeping\n"
            "Version: 0.4.0\n"
            "Description: Double-entry bookkeeping for small shops, with monthly reports.\n"
            "License: MIT + file LICENSE\nImports:\n    dplyr (>= 1.1.0),\n    rlang\n"
            "Suggests:\n    testthat (>= 3.0.0)\nConfig/testthat/edition: 3\n"
        ),
        language="R",
        about="Double-entry bookkeeping for small shops",
        test='Rscript -e "devtools::test()"',
        tested='Rscript -e "devtools::test()"',  # as typed: the quotes kept
        failing='Rscript -e "devtools::test()"',
        failure=(
            "══ Failed tests ══\n"
            "── Error (test-books.R:14:3): posting balances the book ──\n"
            'Error in `post_entry(book, entry)`: could not find function "post_entry"\n'
        ),
        lesson='could not find function "post_entry"',
        fix_path="R/books.R",
        fix_text="post_entry <- function(book, entry) c(book, list(entry))\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="ℹ Loading ledger",
    ),
    Ecosystem(
        name="gleam",
        manifest="gleam.toml",
        body=(
            'name = "ledger"\nversion = "0.4.0"\n'
            'description = "Double-entry bookkeeping for small shops"\n\n'
            '[dependencies]\ngleam_stdlib = ">= 0.34.0 and < 2.0.0"\n'
            'wisp = ">= 0.14.0 and < 1.0.0"\n\n[dev-dependencies]\n'
            'gleeunit = ">= 1.0.0 and < 2.0.0"\n'
        ),
        language="Gleam",
        about="Double-entry bookkeeping for small shops",
        test="gleam test",
        tested="gleam test",
        failing="gleam test",
        failure=(
            "error: Unknown variable\n   ┌─ /home/dev/ledger/src/ledger/books.gleam:14:9\n"
            "   │\n14 │   post_entry(book, entry)\n   │   ^^^^^^^^^^ Did you mean `post`?\n\n"
            "The name `post_entry` is not in scope here.\n"
        ),
        lesson="Unknown variable",
        fix_path="src/ledger/books.gleam",
        fix_text="pub fn post_entry(book, entry) { [entry, ..book] }\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="  Compiling ledger",
    ),
    Ecosystem(
        name="ocaml-dune",
        manifest="dune-project",
        body=(
            "(lang dune 3.14)\n(name ledger)\n(generate_opam_files true)\n\n"
            "(package\n (name ledger)\n"
            ' (synopsis "Double-entry bookkeeping for small shops")\n'
            " (depends ocaml dune (alcotest :with-test) lwt))\n"
        ),
        language="OCaml",
        about="Double-entry bookkeeping for small shops",
        test="dune test",
        tested="dune test",
        failing="dune test",
        failure=(
            'File "lib/books.ml", line 14, characters 9-19:\n'
            "14 |   post_entry book entry\n"
            "Error: Unbound value post_entry\n"
        ),
        lesson="Unbound value post_entry",
        fix_path="lib/books.ml",
        fix_text="let post_entry book entry = entry :: book\n",
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="Done: 12/14 (jobs: 2)",
    ),
    Ecosystem(
        name="deno",
        manifest="deno.json",
        body=(
            '{\n  "name": "@acme/ledger",\n  "version": "0.4.0",\n'
            '  "tasks": {\n    "dev": "deno run --watch main.ts"\n  },\n'
            '  "imports": {\n    "@std/assert": "jsr:@std/assert@^0.221.0",\n'
            '    "hono": "jsr:@hono/hono@^4.2.0"\n  }\n}\n'
        ),
        language="TypeScript",
        about="",
        test="deno test",
        tested="deno test",
        failing="deno test --allow-read",
        failure=(
            "error: TS2304 [ERROR]: Cannot find name 'LedgerEntry'.\n"
            "  const e: LedgerEntry = { amount: 3 };\n"
            "    at file:///home/dev/ledger/books.ts:14:12\n"
        ),
        lesson="Cannot find name 'LedgerEntry'",
        fix_path="books.ts",
        fix_text='import type { LedgerEntry } from "./entry.ts";\n',
        foreign=("pytest", "npm", "cargo", "Django", "Rails", "Jest"),
        progress="Download https://jsr.io/@std/assert/meta.json",
    ),
    Ecosystem(
        name="cpp-cmake",
        manifest="CMakeLists.txt",
        body=(
            "cmake_minimum_required(VERSION 3.24)\n"
            "project(ledger VERSION 0.4.0\n"
            '  DESCRIPTION "Double-entry bookkeeping for small shops"\n  LANGUAGES CXX)\n\n'
            "find_package(fmt REQUIRED)\nfind_package(GTest REQUIRED)\n"
            "add_library(ledger src/books.cpp)\n"
            "target_link_libraries(ledger PUBLIC fmt::fmt)\nenable_testing()\n"
        ),
        language="C++",  # `LANGUAGES CXX`: the build says which
        about="Double-entry bookkeeping for small shops",
        test="ctest --test-dir build",
        tested="ctest",
        failing="ctest --test-dir build",
        failure=(
            "/home/dev/ledger/src/books.cpp:14:9: error: 'LedgerEntry' was not declared "
            "in this scope\n"
            "   14 |         LedgerEntry e{3};\n"
        ),
        lesson="'LedgerEntry' was not declared in this scope",
        fix_path="src/books.cpp",
        fix_text='#include "entry.hpp"\n',
        foreign=("pytest", "npm", "cargo", "Django", "Rails"),
        progress="-- Configuring done",
    ),
]


def sessions(eco: Ecosystem) -> list[Session]:
    first = Session(PROJECT, "s1", T0, test_runs=True)
    first.user("Look at how this project is set up and run its tests.")
    first.read(eco.manifest, eco.body)
    first.run(eco.test, 0, f"{eco.progress}\nok\n")
    first.user("Always keep functions small and name them after what they return.")
    first.say("Understood.")
    second = Session(PROJECT, "s2", T0 + timedelta(days=1), test_runs=True)
    second.user("Fix the failing build, then run the tests again.")
    second.run(eco.failing, 1, eco.failure)
    second.edit(eco.fix_path, eco.fix_text)
    second.run(eco.failing, 0, "ok\n")
    second.run(eco.test, 0, "ok\n")
    return [first, second]


async def extract_all(eco: Ecosystem) -> list[MemoryCandidate]:
    found: list[MemoryCandidate] = []
    for session in sessions(eco):
        for episode in segment_episodes(session.events, now=NOW):
            found.extend(await RulesExtractor().extract(episode, session.events))
    return found


def _about(found: list[MemoryCandidate], key: str) -> list[str]:
    return [c.content for c in found if c.key == key]


IDS = [e.name for e in ECOSYSTEMS]


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_each_ecosystem_notes_what_a_senior_engineer_would(eco: Ecosystem) -> None:
    found = await extract_all(eco)

    # The session that read the manifest names it; the one that edited a file and ran the
    # tests says the same language without it (the store keeps the fuller statement).
    languages = set(_about(found, "language"))
    named = f"{eco.manifest}: {eco.asks}" if eco.asks else eco.manifest
    # The framework the code is built with joins the manifest's statement.
    frameworks = {c.content.removeprefix("Built with ") for c in found if c.key == "framework"}
    built = f", built with {frameworks.pop().rstrip('.')}" if len(frameworks) == 1 else ""
    stated = f"{eco.language} project ({named}){built}."
    assert stated in languages
    edited = extension_language(PurePosixPath(eco.fix_path).suffix)
    assert languages <= {stated, f"{edited} project."}
    if eco.about:
        (about,) = _about(found, "about")
        assert eco.about in about and eco.manifest in about
    else:
        # Nothing describes it: at most its folder's name and its root manifest's language.
        named = (
            "The project `ledger` (its folder's name) is written in"
            f" {eco.language} (`{eco.manifest}` at its root)."
        )
        assert set(_about(found, "about")) <= {named}
    tests = [c.content for c in found if c.key in ("test_command", "recipe:test")]
    assert tests and all(eco.tested in t for t in tests), tests
    (pitfall,) = [c for c in found if c.type == MemoryType.PITFALL]
    assert eco.lesson in pitfall.content.replace("`", "'")
    assert f"editing {eco.fix_path}" in pitfall.content
    (preference,) = [c for c in found if c.type == MemoryType.USER_STYLE]
    assert preference.content == "Always keep functions small and name them after what they return."


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_nothing_foreign_is_stated(eco: Ecosystem) -> None:
    found = await extract_all(eco)
    others = {o.language for o in ECOSYSTEMS if o.language not in (eco.language, "C/C++")}

    for candidate in found:
        for word in (*eco.foreign, *others):
            pattern = rf"(?<![\w/.#+]){re.escape(word)}(?![\w#+])"
            assert not re.search(pattern, candidate.content), (word, candidate.content)


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
def test_a_progress_line_is_never_an_error(eco: Ecosystem) -> None:
    assert first_error_line(eco.progress) == ""
    assert first_error_line(f"{eco.progress}\n{eco.failure}") == first_error_line(eco.failure)


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_a_failure_never_fixed_is_not_a_lesson(eco: Ecosystem) -> None:
    session = Session(PROJECT, "s3", T0, test_runs=True)
    session.user("Run the tests.")
    session.run(eco.failing, 1, f"{eco.progress}\n{eco.failure}")
    session.edit(eco.fix_path, eco.fix_text)
    session.run(eco.failing, 1, eco.failure)
    session.say("It still fails; I will stop here.")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert [c for c in found if c.type == MemoryType.PITFALL] == []


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_a_passing_run_with_progress_output_is_no_pitfall(eco: Ecosystem) -> None:
    session = Session(PROJECT, "s4", T0, test_runs=True)
    session.user("Run the tests.")
    session.run(eco.test, 0, eco.progress)
    session.run(eco.test, 0, eco.progress)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert [c for c in found if c.type == MemoryType.PITFALL] == []


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_notes_written_in_a_session_give_the_ecosystems_own_commands(eco: Ecosystem) -> None:
    session = Session(PROJECT, "s5", T0, test_runs=True)
    session.user("Write the project notes for assistants.")
    session.read(eco.manifest, eco.body)
    notes = (
        "# AGENTS.md\n\n## Overview\n\nThe ledger keeps double-entry books for small shops.\n\n"
        f"## Commands\n\n```bash\n{eco.test}\n```\n"
    )
    use = f"t{len(session.events)}"
    session.add(
        "tool_call",
        {"tool": "Write", "tool_use_id": use, "input": {"content": notes}},
        ("AGENTS.md",),
    )
    session.add(
        "code_change", {"tool": "Write", "tool_use_id": use, "path": "AGENTS.md"}, ("AGENTS.md",)
    )
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    (commands,) = _about(found, "notes:AGENTS.md:commands")
    assert eco.tested in commands and "(test)" in commands
    (overview,) = _about(found, "notes:AGENTS.md:overview")
    assert "double-entry books" in overview
    for word in eco.foreign:
        assert not re.search(rf"(?<![\w/.#+]){re.escape(word)}(?![\w#+])", commands), word


@dataclass(frozen=True)
class UnnamedRunner:
    """A test command of a runner the rules were not first written for, with what it prints
    (the command table may know some of them now: `busted`, `prove`)."""

    name: str
    manifest: str
    body: str
    test: str
    failing: str  # its summary when one test fails
    passing: str  # its summary when all pass
    fix_path: str


UNNAMED_RUNNERS = [
    UnnamedRunner(
        "ruby-rake",
        "Gemfile",
        'source "https://rubygems.org"\n\ngemspec\n\ngem "minitest", "~> 5.22"\n',
        "bundle exec rake",
        "Run options: --seed 4242\n\n3 runs, 5 assertions, 1 failures, 0 errors, 0 skips\n",
        "Run options: --seed 4242\n\n3 runs, 6 assertions, 0 failures, 0 errors, 0 skips\n",
        "lib/ledger/books.rb",
    ),
    UnnamedRunner(
        "clojure-lein",
        "project.clj",
        '(defproject ledger "0.1.0"\n  :dependencies [[org.clojure/clojure "1.11.1"]])\n',
        "lein test",
        "lein test ledger.books-test\n\nRan 4 tests containing 9 assertions.\n1 failures, 0 errors.\n",
        "lein test ledger.books-test\n\nRan 4 tests containing 9 assertions.\n0 failures, 0 errors.\n",
        "src/ledger/books.clj",
    ),
    UnnamedRunner(
        "perl-prove",
        "Makefile.PL",
        "use ExtUtils::MakeMaker;\nWriteMakefile(NAME => 'Ledger');\n",
        "prove -l t",
        "t/books.t .. 1/3 Failed 1/3 subtests\nFiles=2, Tests=7,  0 wallclock secs\nResult: FAIL\n",
        "t/books.t .. ok\nAll tests successful.\nFiles=2, Tests=7,  0 wallclock secs\nResult: PASS\n",
        "lib/Ledger/Books.pm",
    ),
    UnnamedRunner(
        "lua-busted",
        "ledger-0.1-1.rockspec",
        'package = "ledger"\nversion = "0.1-1"\n',
        "busted",
        "●●◼\n2 successes / 1 failure / 0 errors / 0 pending : 0.01 seconds\n",
        "●●●\n3 successes / 0 failures / 0 errors / 0 pending : 0.01 seconds\n",
        "src/ledger/books.lua",
    ),
    UnnamedRunner(
        "crystal-spec",
        "shard.yml",
        "name: ledger\nversion: 0.1.0\n",
        "crystal spec",
        "..F\n\nFinished in 1.2 milliseconds\n3 examples, 1 failures, 0 errors, 0 pending\n",
        "...\n\nFinished in 1.1 milliseconds\n3 examples, 0 failures, 0 errors, 0 pending\n",
        "src/ledger/books.cr",
    ),
    UnnamedRunner(
        "julia-pkg",
        "Project.toml",
        'name = "Ledger"\nuuid = "7c1d4a52-0d51-4f8e-9f65-3c2a3b1e9a10"\n',
        "julia --project=. test/runtests.jl",
        "Test Summary: | Pass  Fail  Total\nLedger        |    6     1      7\n",
        "Test Summary: | Pass  Total\nLedger        |    7      7\n",
        "src/Ledger.jl",
    ),
    UnnamedRunner(
        "shell-bats",
        "Makefile",
        "install:\n\tcp bin/ledger /usr/local/bin/\n",
        "bats test",
        "1..3\nok 1 adds an entry\nnot ok 2 balances\nok 3 prints\n\n3 tests, 1 failure\n",
        "1..3\nok 1 adds an entry\nok 2 balances\nok 3 prints\n\n3 tests, 0 failures\n",
        "bin/ledger",
    ),
]
RUNNER_IDS = [r.name for r in UNNAMED_RUNNERS]
#: Runners the command table does not know whose own words say nothing of testing (`bundle exec
#: rake`, `julia … test/runtests.jl`): only their output can; the others (`crystal spec`, and
#: `lein test`, `busted`, `prove` the table now knows) say it in their words.
WORDLESS = [r for r in UNNAMED_RUNNERS if classify_command(r.test) is None]
WORDLESS_IDS = [r.name for r in WORDLESS]
WORDED = [r for r in UNNAMED_RUNNERS if classify_command(r.test) is not None]


def _fix_and_rerun(runner: UnnamedRunner, session: Session) -> None:
    session.run(runner.test, 1, runner.failing)
    session.edit(runner.fix_path, "fixed\n")
    session.run(runner.test, 0, runner.passing)


@pytest.mark.parametrize("runner", UNNAMED_RUNNERS, ids=RUNNER_IDS)
async def test_one_short_session_names_a_test_command_no_table_knows(runner: UnnamedRunner) -> None:
    session = Session(PROJECT, "s6", T0, test_runs=True)
    session.user("The tests fail; fix the books module.")
    session.read(runner.manifest, runner.body)
    _fix_and_rerun(runner, session)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    tests = [c.content for c in found if c.key in ("test_command", "recipe:test")]
    assert tests == [f"To run the tests: `{runner.test}`."]
    for candidate in found:
        for word in ("pytest", "npm", "cargo", "mix test", "go test"):
            assert word not in candidate.content, (word, candidate.content)


@pytest.mark.parametrize("runner", UNNAMED_RUNNERS, ids=RUNNER_IDS)
async def test_a_command_run_once_is_the_test_recipe_only_when_its_words_say_it_tests(
    runner: UnnamedRunner,
) -> None:
    session = Session(PROJECT, "s7", T0, test_runs=True)
    session.user("Run the tests.")
    session.read(runner.manifest, runner.body)
    session.run(runner.test, 0, runner.passing)
    session.say("All tests pass.")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    tests = [c.content for c in found if c.key in ("test_command", "recipe:test")]
    assert tests == ([f"To run the tests: `{runner.test}`."] if runner in WORDED else [])


@pytest.mark.parametrize("runner", UNNAMED_RUNNERS, ids=RUNNER_IDS)
async def test_tests_failing_then_passing_after_a_code_edit_are_the_work(
    runner: UnnamedRunner,
) -> None:
    session = Session(PROJECT, "s8", T0, test_runs=True)
    session.user("The tests fail; fix the books module.")
    _fix_and_rerun(runner, session)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert [c.content for c in found if c.type == MemoryType.PITFALL] == []


@pytest.mark.parametrize("runner", UNNAMED_RUNNERS, ids=RUNNER_IDS)
async def test_an_explained_test_failure_is_told_by_the_runners_summary(
    runner: UnnamedRunner,
) -> None:
    session = Session(PROJECT, "s9", T0, test_runs=True)
    session.user("The tests fail; fix the books module.")
    session.run(runner.test, 1, runner.failing)
    session.say(
        "The failure is because the ledger rounds amounts down instead of to the nearest cent."
    )
    session.edit(runner.fix_path, "fixed\n")
    session.run(runner.test, 0, runner.passing)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    (pitfall,) = [c.content for c in found if c.type == MemoryType.PITFALL]
    assert "rounds amounts down" in pitfall
    progress = runner.failing.splitlines()[0]
    if not reports_tests(progress):
        assert f"`{progress}`" not in pitfall


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_a_read_readme_gives_the_ecosystems_own_documented_commands(eco: Ecosystem) -> None:
    session = Session(PROJECT, "s6", T0, test_runs=True)
    session.user("Read the README and tell me how to work on this.")
    readme = (
        "# Ledger\n\n## Development\n\n```sh\n# Clone the repository\ngit clone <url>\n\n"
        f"# Run the tests\n{eco.test}\n\n# Lint everything\nmake lint\n```\n"
    )
    session.read("README.md", readme)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    (recipe,) = _about(found, "readme:commands:README.md")
    assert f"to run the tests, `{eco.test}`; to lint everything, `make lint`" in recipe
    assert "clone" not in recipe
    assert not any(f"`{o.test}`" in recipe for o in ECOSYSTEMS if o.test != eco.test)


@pytest.mark.parametrize("runner", UNNAMED_RUNNERS, ids=RUNNER_IDS)
async def test_an_unnamed_command_passing_once_after_an_edit_is_the_test_command(
    runner: UnnamedRunner,
) -> None:
    session = Session(PROJECT, "s10", T0, test_runs=True)
    session.user("Fix the rounding in the books module.")
    session.read(runner.manifest, runner.body)
    session.edit(runner.fix_path, "fixed\n")
    session.run(runner.test, 0, runner.passing)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    tests = [c.content for c in found if c.key in ("test_command", "recipe:test")]
    assert tests == [f"To run the tests: `{runner.test}`."]


@pytest.mark.parametrize("runner", WORDLESS, ids=WORDLESS_IDS)
async def test_an_unnamed_command_passing_once_before_any_edit_is_no_test_command(
    runner: UnnamedRunner,
) -> None:
    session = Session(PROJECT, "s11", T0, test_runs=True)
    session.user("Run the tests, then fix the rounding.")
    session.read(runner.manifest, runner.body)
    session.run(runner.test, 0, runner.passing)
    session.edit(runner.fix_path, "fixed\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert [c for c in found if c.key in ("test_command", "recipe:test")] == []


@pytest.mark.parametrize("runner", WORDLESS, ids=WORDLESS_IDS)
async def test_an_unnamed_command_failing_once_after_an_edit_is_no_test_command(
    runner: UnnamedRunner,
) -> None:
    session = Session(PROJECT, "s12", T0, test_runs=True)
    session.user("Fix the rounding in the books module.")
    session.edit(runner.fix_path, "fixed\n")
    session.run(runner.test, 1, runner.failing)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert [c for c in found if c.key in ("test_command", "recipe:test")] == []


def _one_edit_session(eco: Ecosystem, command: str) -> Session:
    session = Session(PROJECT, "s13", T0, test_runs=True)
    session.user("Fix the failing posting and run the tests.")
    session.edit(eco.fix_path, eco.fix_text)
    session.run(command, 0, f"{eco.progress}\nok\n")
    return session


#: Ecosystems whose single edit plus test run must name the language (the rest may abstain).
NAMED_FROM_ONE_EDIT = {"go", "ruby-rails", "elixir-mix", "java-maven", "php-composer"}
NAMED_FROM_ONE_EDIT |= {"swift-spm", "r-devtools", "gleam", "kotlin-gradle", "csharp-dotnet"}


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_one_edit_and_its_languages_test_run_name_the_language(eco: Ecosystem) -> None:
    session = _one_edit_session(eco, eco.test)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    stated = _about(found, "language")
    expected = extension_language(PurePosixPath(eco.fix_path).suffix)
    assert stated in ([f"{expected} project."], []), stated
    if eco.name in NAMED_FROM_ONE_EDIT:
        assert stated == [f"{expected} project."]


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_one_edit_with_another_languages_command_names_no_language(eco: Ecosystem) -> None:
    other = next(o for o in ECOSYSTEMS if o.test.split()[0] != eco.test.split()[0])
    session = _one_edit_session(eco, other.test if eco.name != "go" else "npm test")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "language") == []


async def test_edits_in_two_languages_name_no_language_from_one_session() -> None:
    session = Session(PROJECT, "s14", T0, test_runs=True)
    session.user("Fix the posting and the build script.")
    session.edit("lib/books.rb", "fixed\n")
    session.edit("tools/build.py", "fixed\n")
    session.run("bundle exec rspec", 0, "5 examples, 0 failures\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "language") == []


def _summarised(eco: Ecosystem, said: str) -> Session:
    """One short session: the manifest is not read, the assistant says what the project is."""
    session = Session(PROJECT, "s15", T0, test_runs=True)
    session.user("Read the notes and tell me what this is before we start.")
    session.say(said)
    session.edit(eco.fix_path, eco.fix_text)
    session.run(eco.test, 0, f"{eco.progress}\nok\n")
    return session


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_one_session_keeps_the_assistants_summary_of_the_project(eco: Ecosystem) -> None:
    said = f"I understand this is a {eco.language} service that posts entries to the ledger."
    session = _summarised(eco, f"Got it.\n\n{said} I'll start with the tests.")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "about") == [
        "What this project is, as the assistant summarised it: "
        f"a {eco.language} service that posts entries to the ledger."
    ]


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_a_dependencys_description_is_no_summary_of_the_project(eco: Ecosystem) -> None:
    said = (
        f"The `ledger-core` dependency is a {eco.language} library for posting entries. "
        f"This is a known issue with the {eco.language} tooling on this machine."
    )
    session = _summarised(eco, said)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "about") == []


def _stack_listed(eco: Ecosystem) -> Session:
    """One short session: the notes are read, the assistant lists the stack, nothing runs."""
    session = Session(PROJECT, "s16", T0, test_runs=True)
    session.user("Read the notes and tell me how this project is set up.")
    session.read("NOTES.md", "# Ledger\n")
    session.say(
        f"## Tech Stack\n\n- **Language**: {eco.language}\n- **Testing**: `{eco.test}`\n"
        "- **Deploy**: a container image\n"
    )
    return session


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_one_session_keeps_the_test_command_the_assistant_listed(eco: Ecosystem) -> None:
    session = _stack_listed(eco)
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "stack:tests") == [
        f"How the project is tested, as the assistant summarised it: Testing: `{eco.test}`."
    ]
    # It quotes the test command: a recipe, which the session-start text opens with.
    assert [c.type for c in found if c.key == "stack:tests"] == [MemoryType.RECIPE]
    stated = " ".join(c.content for c in found)
    assert not [tool for tool in eco.foreign if re.search(rf"\b{re.escape(tool)}\b", stated)]


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_a_test_command_that_ran_says_more_than_the_listed_one(eco: Ecosystem) -> None:
    session = _stack_listed(eco)
    session.run(eco.test, 0, f"{eco.progress}\nok\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "stack:tests") == []


#: Per ecosystem, what its test runner prints when some tests fail.
FAILED_TESTS = {
    "go": "--- FAIL: TestPost (0.00s)\n    post_test.go:12: want 2 entries\nFAIL\n"
    "FAIL\tgithub.com/acme/ledger/internal/books\t0.012s\nFAIL\n",
    "ruby-rails": "Failures:\n\n  1) Entry posts\n\nFinished in 0.4 seconds\n"
    "12 examples, 1 failure\n",
    "elixir-mix": "  1) test posts an entry (Ledger.BooksTest)\n\nFinished in 0.1 seconds\n"
    "10 tests, 1 failure\n",
    "java-maven": "[ERROR] Tests run: 8, Failures: 1, Errors: 0, Skipped: 0\n[INFO] BUILD FAILURE\n",
    "csharp-dotnet": "Failed!  - Failed:     1, Passed:     9, Skipped:     0, Total:    10\n",
    "php-composer": "FAILURES!\nTests: 8, Assertions: 20, Failures: 1.\n",
    "swift-spm": "Executed 8 tests, with 1 failure (0 unexpected) in 0.02 seconds\n",
    "dart-flutter": "00:02 +8 -1: Some tests failed.\n",
    "r-devtools": "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 12 ]\n",
    "gleam": "Finished in 0.01 seconds\n12 tests, 1 failures\n",
}


@pytest.mark.parametrize(
    "eco", [e for e in ECOSYSTEMS if e.name in FAILED_TESTS], ids=lambda e: e.name
)
async def test_one_session_whose_tests_never_passed_still_names_the_test_command(
    eco: Ecosystem,
) -> None:
    session = Session(PROJECT, "s17", T0, test_runs=True)
    session.user("Some tests fail since the last change, have a look.")
    session.read(eco.manifest, eco.body)
    session.edit(eco.fix_path, eco.fix_text)
    session.run(eco.test, 1, FAILED_TESTS[eco.name])
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    (tested,) = _about(found, "test_command") + _about(found, "recipe:test")
    assert tested.startswith(f"Tests run with `{eco.tested}")


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_a_test_command_that_never_started_is_not_the_test_command(eco: Ecosystem) -> None:
    session = Session(PROJECT, "s18", T0, test_runs=True)
    session.user("Run the tests.")
    session.edit(eco.fix_path, eco.fix_text)
    program = eco.test.split()[0]
    session.run(eco.test, 127, f"bash: {program}: command not found\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "test_command") + _about(found, "recipe:test") == []


#: Per ecosystem, a check its developers run beside the tests before finishing a change.
FINAL_CHECKS = {
    "go": "go vet ./...",
    "ruby-rails": "bundle exec rubocop",
    "elixir-mix": "mix format --check-formatted",
    "csharp-dotnet": "dotnet format --verify-no-changes",
    "gleam": "gleam format --check",
    "deno": "deno lint",
    "dart-flutter": "dart analyze",
    "php-composer": "vendor/bin/phpstan analyse",
}


@pytest.mark.parametrize(
    "eco", [e for e in ECOSYSTEMS if e.name in FINAL_CHECKS], ids=lambda e: e.name
)
async def test_one_session_keeps_the_checks_it_ran_to_finish_its_change(eco: Ecosystem) -> None:
    session = Session(PROJECT, "s19", T0, test_runs=True)
    session.user("Fix the failing build.")
    session.run(eco.failing, 1, eco.failure)
    session.edit(eco.fix_path, eco.fix_text)
    session.run(FINAL_CHECKS[eco.name], 0, "")
    session.run("cat NOTES.md", 1, "cat: NOTES.md: No such file or directory\n")
    session.run(eco.test, 0, f"{eco.progress}\nok\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    (gate,) = _about(found, "recipe:verify")
    check = FINAL_CHECKS[eco.name].split()[0]
    assert gate.startswith("Before finishing a change: `" + check), gate
    assert f"→ `{eco.tested}" in gate, gate


#: Per ecosystem, a test file as its developers lay them out, and the folder the fact names
#: (None where tests sit beside the code they test).
TEST_FILES = {
    "go": ("internal/books/post_test.go", None),
    "ruby-rails": ("spec/models/entry_spec.rb", "spec"),
    "elixir-mix": ("test/ledger/books_test.exs", "test"),
    "java-maven": ("src/test/java/com/acme/ledger/BooksTest.java", "src/test"),
    "kotlin-gradle": ("src/test/kotlin/com/acme/ledger/BooksTest.kt", "src/test"),
    "csharp-dotnet": ("tests/Ledger.Tests/BooksTests.cs", "tests"),
    "php-composer": ("tests/Unit/BooksTest.php", "tests"),
    "swift-spm": ("Tests/LedgerTests/BooksTests.swift", "Tests"),
    "dart-flutter": ("test/books_test.dart", "test"),
    "r-devtools": ("tests/testthat/test-books.R", "tests"),
    "deno": ("src/books/__tests__/post.test.ts", None),
}


@pytest.mark.parametrize("name", sorted(TEST_FILES))
async def test_one_session_says_where_the_tests_live(name: str) -> None:
    eco = next(e for e in ECOSYSTEMS if e.name == name)
    path, folder = TEST_FILES[name]
    session = Session(PROJECT, "s16", T0, test_runs=True)
    session.user("Add a test for posting to a closed book.")
    session.read(path, "// the existing tests\n")
    session.edit(path, "// one more test\n")
    session.run(eco.test, 0, f"{eco.progress}\nok\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    expected = [f"Tests live in `{folder}/` (`{path}` among them)."] if folder else []
    assert _about(found, "tests_folder") == expected


async def test_files_in_a_test_folder_not_named_as_tests_say_nothing() -> None:
    session = Session(PROJECT, "s17", T0, test_runs=True)
    session.read("test/fixtures/books.json", "{}\n")
    session.read("test/fixtures/app/books.test.js", 'it("posts")\n')
    session.read("test/support/helpers.rb", "module Helpers; end\n")
    session.edit("tests/conftest.py", "import pytest\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "tests_folder") == []


async def test_tests_in_more_than_two_folders_say_nothing() -> None:
    session = Session(PROJECT, "s18", T0, test_runs=True)
    for path in ("test/books_test.exs", "spec/books_spec.rb", "e2e/books.spec.ts"):
        session.read(path, "ok\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    assert _about(found, "tests_folder") == []


@pytest.mark.parametrize("eco", ECOSYSTEMS, ids=IDS)
async def test_one_session_keeps_the_architecture_the_assistant_summarised(eco: Ecosystem) -> None:
    session = Session(PROJECT, "s19", T0, test_runs=True)
    session.user("Read the code and explain how it is put together.")
    session.read(eco.fix_path, eco.fix_text)
    session.say(
        "## Architecture Overview\n\n"
        f"- **Posting**: Every entry goes through `{eco.fix_path}` before it is stored\n"
        "- **Books**: 3 kinds\n\n"
        "## Proposed Architecture\n\n- Reports are plugins, not hardcoded\n"
    )
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    stated = [c.content for c in found if c.key.startswith("architecture:")]
    assert stated == [
        "How the project is built, as the assistant summarised it: "
        f"Every entry goes through `{eco.fix_path}` before it is stored."
    ]
