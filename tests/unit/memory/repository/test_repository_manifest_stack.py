"""What manifests of every ecosystem say of the stack: the language version each asks for,
which dependencies serve only tests or development, the frameworks one declares for the
running project, and the dependency and build folders of each ecosystem left out."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.declared_libraries import declared_frameworks
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.repository import is_excluded
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.manifests import manifest_reader
from squirrel_memory.repository.package_descriptions import description_reader
from squirrel_memory.repository.snapshot import TextFile


def _read(path: str, text: str) -> Readings:
    reader = manifest_reader(path)
    assert reader is not None, path
    out = Readings()
    reader(TextFile.of(path, text), out)
    return out


@pytest.mark.parametrize(
    ("path", "text", "ecosystem", "version"),
    [
        (
            "Package.swift",
            "// swift-tools-version:5.9\nimport PackageDescription\n",
            "swift",
            ">=5.9",
        ),
        ("build.sbt", 'ThisBuild / scalaVersion := "3.4.1"\n', "scala", "3.4.1"),
        ("rebar.config", '{minimum_otp_vsn, "26"}.\n{deps, []}.\n', "erlang", ">=26"),
        ("build.zig.zon", '.{\n    .minimum_zig_version = "0.13.0",\n}\n', "zig", ">=0.13.0"),
        ("cpanfile", "requires 'perl', '5.036';\nrequires 'Moo';\n", "perl", ">=5.036"),
        (
            "Makefile.PL",
            "WriteMakefile(\n    MIN_PERL_VERSION => '5.020',\n);\n",
            "perl",
            ">=5.020",
        ),
        (
            "deps.edn",
            '{:deps {org.clojure/clojure {:mvn/version "1.11.3"}}}\n',
            "clojure",
            "1.11.3",
        ),
        (
            "project.clj",
            '(defproject k "0.1.0"\n :dependencies [[org.clojure/clojure "1.12.0"]])\n',
            "clojure",
            "1.12.0",
        ),
        ("cabal.project", "packages: .\nwith-compiler: ghc-9.6.5\n", "haskell", "9.6.5"),
        (
            "pubspec.yaml",
            "name: a\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\n",
            "dart",
            ">=3.3.0 <4.0.0",
        ),
        ("gleam.toml", 'name = "a"\ngleam = ">= 1.4.0"\n', "gleam", ">= 1.4.0"),
        (
            "dune-project",
            "(lang dune 3.14)\n(package\n (name a)\n (depends\n  (ocaml (>= 5.1))))\n",
            "ocaml",
            ">=5.1",
        ),
        ("build.gradle.kts", "kotlin {\n    jvmToolchain(21)\n}\n", "jvm", "21"),
        (
            "build.gradle",
            "java {\n    sourceCompatibility = JavaVersion.VERSION_1_8\n}\n",
            "jvm",
            "1.8",
        ),
    ],
)
def test_a_manifest_of_each_ecosystem_gives_the_language_version_it_asks_for(
    path: str, text: str, ecosystem: str, version: str
) -> None:
    out = _read(path, text)

    assert [(t.ecosystem, t.version) for t in out.toolchains] == [(ecosystem, version)]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # a version held in a variable, a compiler named without one, a constraint of no number
        ("build.sbt", 'val scala3Version = "3.4.1"\nscalaVersion := scala3Version\n'),
        ("cabal.project", "packages: .\nwith-compiler: ghc\n"),
        ("pubspec.yaml", "name: a\nenvironment:\n  sdk: any\n"),
        ("Package.swift", 'import PackageDescription\nlet package = Package(name: "A")\n'),
        ("deps.edn", '{:deps {org.clojure/clojure {:git/sha "abc123"}}}\n'),
        ("dune-project", "(lang dune 3.14)\n(package\n (name a)\n (depends ocaml dream))\n"),
        ("build.gradle.kts", "// jvmToolchain(17) was the old target\nplugins { java }\n"),
    ],
)
def test_a_version_that_is_no_literal_number_says_none(path: str, text: str) -> None:
    assert _read(path, text).toolchains == []


@pytest.mark.parametrize(
    ("path", "text", "runs", "develops"),
    [
        (
            "pubspec.yaml",
            "name: a\ndependencies:\n  provider: ^6.1.2\ndev_dependencies:\n  mocktail: ^1.0.3\n",
            {"provider"},
            {"mocktail"},
        ),
        (
            "gleam.toml",
            'name = "a"\n[dependencies]\nwisp = "1.0.0"\n[dev-dependencies]\ngleeunit = "1.0.0"\n',
            {"wisp"},
            {"gleeunit"},
        ),
        (
            "a.cabal",
            "name: a\nlibrary\n    build-depends: base, scotty\n\ntest-suite a-test\n"
            "    type: exitcode-stdio-1.0\n    build-depends: base, hspec\n",
            {"base", "scotty"},
            {"base", "hspec"},
        ),
        (
            "dune-project",
            "(package\n (name a)\n (depends\n  (dream (and (>= 1.0) (< 2.0)))\n"
            "  (alcotest :with-test)\n  (odoc :with-doc)))\n",
            {"dream"},
            {"alcotest", "odoc"},
        ),
        (
            "build.sbt",
            'libraryDependencies ++= Seq(\n  "org.http4s" %% "http4s-dsl" % "0.23.27",\n'
            '  "org.scalameta" %% "munit" % "1.0.0" % Test\n)\n',
            {"org.http4s:http4s-dsl"},
            {"org.scalameta:munit"},
        ),
        (
            "cpanfile",
            "requires 'Mojolicious';\ntest_requires 'Test::Deep';\non 'develop' => sub {\n"
            "    requires 'Perl::Tidy';\n};\nrequires 'DBI';\n",
            {"Mojolicious", "DBI"},
            {"Test::Deep", "Perl::Tidy"},
        ),
        (
            "project.clj",
            '(defproject a "0.1.0"\n  :dependencies [[compojure "1.7.1"]]\n'
            '  :profiles {:dev {:dependencies [[ring/ring-mock "0.4.0"]]}})\n',
            {"compojure/compojure"},
            {"ring/ring-mock"},
        ),
        (
            "deps.edn",
            '{:deps {metosin/reitit {:mvn/version "0.7.0"}}\n :aliases {:test '
            '{:extra-deps {lambdaisland/kaocha {:mvn/version "1.9"}}}}}\n',
            {"metosin/reitit"},
            {"lambdaisland/kaocha"},
        ),
    ],
)
def test_dependencies_of_the_tests_or_development_are_marked_so(
    path: str, text: str, runs: set[str], develops: set[str]
) -> None:
    out = _read(path, text)

    assert {d.name for d in out.dependencies if not d.dev} == runs
    assert {d.name for d in out.dependencies if d.dev} == develops


SWIFT = (
    "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n"
    '  name: "Moorings",\n  dependencies: [\n'
    '    .package(url: "https://github.com/vapor/vapor.git", from: "4.99.0"),\n'
    '    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.3.0"),\n'
    '    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", '
    'from: "1.15.0"),\n  ],\n  targets: [\n'
    '    .executableTarget(name: "App", dependencies: [.product(name: "Vapor", package: "vapor")]),\n'
    '    .executableTarget(name: "Demo", dependencies: [.product(name: "ArgumentParser", '
    'package: "swift-argument-parser")], path: "Examples/Demo"),\n'
    '    .testTarget(name: "AppTests", dependencies: ["App", .product(name: "SnapshotTesting", '
    'package: "swift-snapshot-testing")]),\n  ]\n)\n'
)


def test_a_swift_package_counts_only_when_the_packages_own_target_uses_it() -> None:
    out = _read("Package.swift", SWIFT)

    # an example's and a test target's packages are declared for the manifest, not the app
    assert [(d.name, d.version) for d in out.dependencies] == [("vapor", "4.99.0")]


@pytest.mark.parametrize(
    ("path", "text", "frameworks"),
    [
        (
            "mix.exs",
            'defmodule A.MixProject do\n  defp deps do\n    [{:phoenix, "~> 1.7"},\n'
            '     {:ecto_sqlite3, "~> 0.15"}]\n  end\nend\n',
            ["Phoenix"],
        ),
        (
            "composer.json",
            '{"require": {"php": "^8.2", "laravel/framework": "^11.0"}}',
            ["Laravel"],
        ),
        ("Gemfile", 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\n', ["Rails"]),
        ("pubspec.yaml", "name: a\ndependencies:\n  flutter:\n    sdk: flutter\n", ["Flutter"]),
        ("Package.swift", SWIFT, ["Vapor"]),
        ("cpanfile", "requires 'Mojolicious', '9.35';\n", ["Mojolicious"]),
        (
            "project.clj",
            '(defproject a "0.1.0"\n  :dependencies [[compojure "1.7.1"]])\n',
            ["Compojure"],
        ),
        ("gleam.toml", 'name = "a"\n[dependencies]\nwisp = "1.0.0"\n', ["Wisp"]),
    ],
)
def test_a_manifest_of_any_ecosystem_declares_its_framework(
    path: str, text: str, frameworks: list[str]
) -> None:
    assert declared_frameworks(path, text) == frameworks


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # for development or tests only
        (
            "mix.exs",
            "defmodule A.MixProject do\n  defp deps do\n"
            '    [{:phoenix, "~> 1.7", only: :test}]\n  end\nend\n',
        ),
        ("composer.json", '{"require-dev": {"laravel/framework": "^11.0"}}'),
        ("pubspec.yaml", "name: a\ndev_dependencies:\n  flutter:\n    sdk: flutter\n"),
        ("Gemfile", 'group :development do\n  gem "sinatra"\nend\n'),
        # a fragment that does not parse, a manifest whose libraries another table reads
        ("composer.json", '"laravel/framework": "^11.0",'),
        ("package.json", '{"dependencies": {"express": "^4"}}'),
        # a file that is no manifest
        ("README.md", "Built with Phoenix.\n"),
    ],
)
def test_no_framework_is_declared_by_what_only_develops_or_is_no_manifest(
    path: str, text: str
) -> None:
    assert declared_frameworks(path, text) == []


@pytest.mark.parametrize(
    "path",
    [
        ".build/checkouts/vapor/Package.swift",
        "_opam/lib/dream/opam",
        ".zig-cache/o/1f/build.zig.zon",
        ".stack-work/dist/x/build.cabal",
        "dist-newstyle/src/a/a.cabal",
        ".cpcache/1234.cp",
        ".gradle/8.8/x.bin",
    ],
)
def test_the_dependency_and_build_folders_of_each_ecosystem_are_not_the_project(path: str) -> None:
    assert is_excluded(path)
    assert not in_project(path)


@pytest.mark.parametrize(
    "path", ["builder/Package.swift", "opam/a.opam", "gradle/libs.versions.toml"]
)
def test_a_folder_only_named_like_one_is_the_projects(path: str) -> None:
    assert not is_excluded(path)
    assert in_project(path)


def test_a_makefile_pl_names_the_distribution_and_its_abstract() -> None:
    reader = description_reader("Makefile.PL")
    assert reader is not None
    out = Readings()
    text = (
        "use ExtUtils::MakeMaker;\nWriteMakefile(\n    NAME => 'Almanac::Tides',\n"
        "    ABSTRACT => 'Tide tables for the harbour notice board',\n);\n"
    )

    reader(TextFile.of("Makefile.PL", text), out)

    assert (out.name, out.description) == (
        "Almanac::Tides",
        "Tide tables for the harbour notice board.",
    )


def test_a_makefile_pl_whose_abstract_is_computed_says_nothing_of_it() -> None:
    reader = description_reader("Makefile.PL")
    assert reader is not None
    out = Readings()
    text = "WriteMakefile(\n    NAME => 'Almanac',\n    ABSTRACT_FROM => 'lib/Almanac.pm',\n);\n"

    reader(TextFile.of("Makefile.PL", text), out)

    assert (out.name, out.description) == ("Almanac", "")
