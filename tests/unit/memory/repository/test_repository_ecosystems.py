"""A repository of an ecosystem the other tests do not build: its code is counted in its own
language, and the ecosystem is named by the language most of its code is written in."""

from __future__ import annotations

import pytest

from squirrel_memory.repository import language_shares, read_repository, repository_candidates
from squirrel_memory.repository.snapshot import TrackedFile
from tests.unit.memory.repository.conftest import JAVA, MakeRepo


def _shares(paths: dict[str, int]) -> list[tuple[str, str]]:
    files = [TrackedFile(path, size, "0" * 40) for path, size in paths.items()]
    return [(s.language, s.ecosystem) for s in language_shares(files)]


@pytest.mark.parametrize(
    ("path", "language", "ecosystem"),
    [
        ("src/Ledger/Books.hs", "Haskell", "haskell"),
        ("lib/books.ml", "OCaml", "ocaml"),
        ("src/ledger/books.clj", "Clojure", "clojure"),
        ("include/books.hrl", "Erlang", "erlang"),
        ("src/ledger.gleam", "Gleam", "gleam"),
        ("R/books.R", "R", "r"),
        ("src/Ledger.jl", "Julia", "julia"),
        ("lib/Ledger/Books.pm", "Perl", "perl"),
        ("infra/main.tf", "HCL", "terraform"),
        ("src/Books.fsx", "F#", "dotnet"),
    ],
)
def test_code_of_each_ecosystem_is_counted_in_its_language(
    path: str, language: str, ecosystem: str
) -> None:
    assert _shares({path: 100}) == [(language, ecosystem)]


@pytest.mark.parametrize("path", ["t/books.t", "src/books.m", "test/fixtures.edn", "TEST"])
def test_files_of_no_one_language_are_not_counted(path: str) -> None:
    assert _shares({path: 100}) == []


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


def _kotlin(java_bytes: int) -> dict[str, str | bytes]:
    files = {k: v for k, v in JAVA.items() if not k.endswith(".java")}
    files["src/main/kotlin/com/acme/orders/App.kt"] = "package com.acme.orders\nclass App\n" * 40
    if java_bytes:
        files["src/main/java/com/acme/orders/Old.java"] = "x" * java_bytes
    return files


def test_a_jvm_project_of_kotlin_is_named_kotlin(make_repo: MakeRepo) -> None:
    assert _found(make_repo, _kotlin(0))["repo:stack"].startswith(
        "orders is a Kotlin/Spring Boot app (Java 21"
    )


def test_a_jvm_project_of_more_java_than_kotlin_stays_java(make_repo: MakeRepo) -> None:
    assert _found(make_repo, _kotlin(9_000))["repo:stack"].startswith(
        "orders is a Java/Spring Boot app"
    )


_SWIFT = {
    "Package.swift": "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = "
    'Package(name: "Ledger", targets: [.target(name: "Ledger")])\n',
    "Sources/Ledger/Books.swift": "public struct Books {}\n" * 30,
}
_ZIG = {
    "build.zig": 'const std = @import("std");\npub fn build(b: *std.Build) void {}\n',
    "src/main.zig": "pub fn main() void {}\n" * 30,
}
_CLOJURE = {
    "project.clj": '(defproject ledger "0.1.0"\n  :dependencies [[org.clojure/clojure "1.11.1"]])\n',
    "src/ledger/books.clj": "(ns ledger.books)\n(defn total [xs] (reduce + xs))\n" * 20,
}
_SCALA = {
    "build.sbt": 'name := "ledger"\nscalaVersion := "3.4.1"\n',
    "src/main/scala/Books.scala": "object Books { def total(xs: Seq[Int]) = xs.sum }\n" * 20,
}
_FLUTTER = {
    "pubspec.yaml": "name: ledger\ndependencies:\n  flutter:\n    sdk: flutter\n"
    "dev_dependencies:\n  flutter_test:\n    sdk: flutter\n",
    "lib/main.dart": "void main() {}\n" * 30,
}
_OCAML = {
    "dune-project": "(lang dune 3.14)\n(name ledger)\n",
    "bin/main.ml": 'let () = print_endline "ledger"\n' * 30,
}
_HASKELL_STACK = {
    "stack.yaml": "resolver: lts-22.7\npackages:\n- .\n",
    "ledger.cabal": "cabal-version: 2.4\nname: ledger\nversion: 0.1.0\n",
    "src/Ledger.hs": "module Ledger where\ntotal :: [Int] -> Int\ntotal = sum\n" * 20,
}


@pytest.mark.parametrize(
    ("files", "test", "build"),
    [
        (_SWIFT, "swift test", "swift build"),
        (_CLOJURE, "lein test", None),
        (_SCALA, "sbt test", None),
        (_FLUTTER, "flutter test", None),
        (_OCAML, "dune test", "dune build"),
        (_HASKELL_STACK, "stack test", None),
    ],
    ids=["swift", "clojure", "scala", "flutter", "ocaml", "haskell-stack"],
)
def test_an_ecosystems_conventions_give_its_commands(
    make_repo: MakeRepo, files: dict[str, str | bytes], test: str, build: str | None
) -> None:
    found = _found(make_repo, files)
    assert found["repo:recipe:test"].startswith(f"Run the tests with `{test}` (the "), found
    if build is not None:
        assert f"`{build}`" in found["repo:recipe:build"]


def test_a_zig_build_without_a_test_step_is_built_but_not_tested(make_repo: MakeRepo) -> None:
    # `build.zig` names its own steps: with none declared, `zig build test` does not exist.
    found = _found(make_repo, _ZIG)
    assert "repo:recipe:test" not in found
    assert found["repo:recipe:build"].startswith("Build the project with `zig build` (the ")


def test_a_convention_needs_what_it_runs_on(make_repo: MakeRepo) -> None:
    # A Dart package without Flutter is tested by `dart test` only when it declares `test`;
    # a Clojure project of `deps.edn` has no `lein`; an sbt file beside no Scala code says
    # nothing of a JavaScript project.
    dart = {**_FLUTTER, "pubspec.yaml": "name: ledger\ndependencies:\n  path: ^1.9.0\n"}
    assert "repo:recipe:test" not in _found(make_repo, dart)
    deps_edn = {
        "deps.edn": '{:paths ["src"]}\n',
        "src/ledger/books.clj": _CLOJURE["src/ledger/books.clj"],
    }
    assert "repo:recipe:test" not in _found(make_repo, deps_edn)
    beside = {"build.sbt": _SCALA["build.sbt"], "web/app.js": "export const a = 1;\n" * 40}
    assert "sbt" not in " ".join(_found(make_repo, beside).values())


def test_a_docker_stack_file_is_no_haskell_project(make_repo: MakeRepo) -> None:
    # `stack.yaml` is also the name of a Docker stack file: only a snapshot makes it Stack's.
    docker = {
        "stack.yaml": "version: '3.8'\nservices:\n  web:\n    image: shop:latest\n",
        "deploy.sh": "docker stack deploy -c stack.yaml shop\n" * 20,
    }
    found = _found(make_repo, docker)
    assert "Haskell" not in " ".join(found.values()), found
    assert "stack test" not in " ".join(found.values()), found
