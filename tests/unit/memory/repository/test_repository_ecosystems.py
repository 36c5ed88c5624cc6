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


def _kotlin(java_bytes: int) -> dict[str, str | bytes]:
    files = {k: v for k, v in JAVA.items() if not k.endswith(".java")}
    files["src/main/kotlin/com/acme/orders/App.kt"] = "package com.acme.orders\nclass App\n" * 40
    if java_bytes:
        files["src/main/java/com/acme/orders/Old.java"] = "x" * java_bytes
    return files


def test_a_jvm_project_of_kotlin_is_named_kotlin(make_repo: MakeRepo) -> None:
    found = {c.key: c for c in repository_candidates(read_repository(make_repo(_kotlin(0))))}
    assert found["repo:stack"].content.startswith("orders is a Kotlin/Spring Boot app (Java 21")


def test_a_jvm_project_of_more_java_than_kotlin_stays_java(make_repo: MakeRepo) -> None:
    found = {c.key: c for c in repository_candidates(read_repository(make_repo(_kotlin(9_000))))}
    assert found["repo:stack"].content.startswith("orders is a Java/Spring Boot app")
