"""Root manifests weighed by the code the session touched (`language_fact`): a second root
manifest whose language no touched code shows (release tooling's `Gemfile`, a `package.json` of
commit hooks) names no second language; build scripts written in a code language are build
configuration, never the project's code. The same rules in every ecosystem."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.language_fact import language_fact
from squirrel_memory.extractors.manifests import code_language
from squirrel_memory.extractors.touched_languages import touched_code


def _said(files: list[str]) -> str:
    fact = language_fact([(f, f"e{i}") for i, f in enumerate(files)], {})
    assert fact is not None
    return fact.content


@pytest.mark.parametrize(
    ("manifests", "code", "language", "not_said"),
    [
        (["Package.swift", "Gemfile"], ["Sources/App/Store.swift"], "Swift", "Ruby"),
        (["Package.swift", "package.json"], ["Sources/App/Store.swift"], "Swift", "JavaScript"),
        (["Cargo.toml", "package.json"], ["src/main.rs", "src/cli.rs"], "Rust", "JavaScript"),
        (["go.mod", "pyproject.toml"], ["internal/api/server.go"], "Go", "Python"),
        (["mix.exs", "package.json"], ["lib/shop/cart.ex", "lib/shop/order.ex"], "Elixir", "Java"),
        (["pom.xml", "Gemfile"], ["src/main/java/a/Order.java"], "Java", "Ruby"),
        (["composer.json", "Gemfile"], ["src/Order.php"], "PHP", "Ruby"),
        (["build.zig", "package.json"], ["src/main.zig"], "Zig", "JavaScript"),
    ],
)
def test_a_manifest_no_touched_code_shows_names_no_second_language(
    manifests: list[str], code: list[str], language: str, not_said: str
) -> None:
    said = _said([*manifests, *code])
    assert language in said
    assert not_said not in said


@pytest.mark.parametrize(
    ("manifests", "code", "languages"),
    [
        (
            ["composer.json", "package.json"],
            ["app/Order.php", "resources/js/app.js"],
            ("PHP", "JavaScript"),
        ),
        (
            ["pyproject.toml", "package.json"],
            ["api/app.py", "web/src/App.tsx"],
            ("Python", "TypeScript"),
        ),
        (["Cargo.toml", "pyproject.toml"], ["src/lib.rs", "py/wrapper.py"], ("Rust", "Python")),
    ],
)
def test_manifests_whose_code_was_touched_are_all_named(
    manifests: list[str], code: list[str], languages: tuple[str, ...]
) -> None:
    said = _said([*manifests, *code])
    assert all(language in said for language in languages)


@pytest.mark.parametrize(
    ("manifests", "languages"),
    [
        (["Package.swift", "Gemfile"], ("Swift", "Ruby")),
        (["go.mod", "package.json"], ("Go", "JavaScript")),
    ],
)
def test_without_code_touched_every_root_manifest_stands(
    manifests: list[str], languages: tuple[str, ...]
) -> None:
    said = _said(manifests)
    assert all(language in said for language in languages)


def test_kotlin_build_scripts_beside_java_code_make_a_java_project() -> None:
    said = _said(
        ["build.gradle.kts", "settings.gradle.kts", "src/main/java/a/Stock.java",
         "src/main/java/a/StockService.java"]
    )  # fmt: skip
    assert said.startswith("Java project")
    assert "Kotlin" not in said


def test_kotlin_code_beside_its_build_scripts_is_still_kotlin() -> None:
    said = _said(["build.gradle.kts", "settings.gradle.kts", "src/main/kotlin/a/Routes.kt"])
    assert said.startswith("Kotlin project")


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("settings.gradle.kts", None),
        ("app/build.gradle.kts", None),
        ("tools/seed.kts", "Kotlin"),
        ("src/Main.kt", "Kotlin"),
        ("lib/cart.rb", "Ruby"),
        ("README.md", None),
    ],
)
def test_code_language_leaves_build_scripts_out(path: str, language: str | None) -> None:
    assert code_language(path) == language


def test_touched_build_scripts_count_as_no_code() -> None:
    found = touched_code([("settings.gradle.kts", "e1"), ("app/build.gradle.kts", "e2")], {})
    assert found.files == {}


@pytest.mark.parametrize(
    ("manifest", "code", "language", "not_said"),
    [
        ("package.json", ["App/Basket.swift", "AppTests/BasketTests.swift"], "Swift", "JavaScript"),
        ("Gemfile", ["App/Basket.swift", "App/Store.swift"], "Swift", "Ruby"),
        ("requirements.txt", ["src/main.c", "src/map.c"], "C", "Python"),
        ("package.json", ["lib/cart.ex", "lib/order.ex"], "Elixir", "TypeScript"),
    ],
)
def test_a_lone_manifest_of_tools_beside_other_code_leaves_the_code_worked_on(
    manifest: str, code: list[str], language: str, not_said: str
) -> None:
    said = _said([manifest, *code])
    assert said.startswith("Code worked on")
    assert language in said
    assert not_said not in said


@pytest.mark.parametrize(
    ("files", "start"),
    [
        (["Cargo.toml", "py/a.py", "py/b.py"], "Rust and Python project"),
        (["go.mod", "web/a.ts", "web/b.ts"], "Go and TypeScript project"),
        (["Gemfile", "App/Basket.swift"], "Ruby project"),
        (["package.json", "src/a.ts", "App/Basket.swift"], "TypeScript project"),
        (["requirements.txt", "deploy.sh", "entrypoint.sh"], "Python"),
    ],
)
def test_a_lone_manifest_that_builds_code_or_has_its_own_stands(
    files: list[str], start: str
) -> None:
    assert _said(files).startswith(start)


@pytest.mark.parametrize(
    ("read", "listed", "code", "language", "not_said"),
    [
        # a crate's Python bindings: the pyproject read, the Cargo.toml only listed
        (
            ["pyproject.toml"],
            ["Cargo.toml", "pyproject.toml", "src"],
            ["src/lib.rs"],
            "Rust",
            "Python",
        ),
        # a Go service whose package.json of docs tooling was read
        (
            ["package.json"],
            ["go.mod", "package.json"],
            ["internal/api/server.go"],
            "Go",
            "JavaScript",
        ),
        (["Gemfile"], ["mix.exs", "Gemfile"], ["lib/shop/cart.ex"], "Elixir", "Ruby"),
    ],
)
def test_a_listed_root_manifest_of_the_code_worked_on_weighs_with_the_one_read(
    read: list[str], listed: list[str], code: list[str], language: str, not_said: str
) -> None:
    paths = [(f, f"r{i}") for i, f in enumerate([*read, *code])]
    fact = language_fact(paths, {}, searched=[(f, "ls") for f in listed])

    assert fact is not None and language in fact.content and not_said not in fact.content


@pytest.mark.parametrize(
    ("listed", "code"),
    [
        (["Cargo.toml", "pyproject.toml"], ["pkg/core.py"]),  # the code is the one read's
        (["Cargo.toml", "pyproject.toml"], []),  # no code: the manifest read stands
        (["examples/Cargo.toml"], ["examples/demo/src/main.rs"]),  # not at the root
    ],
)
def test_a_listed_manifest_no_code_worked_on_shows_changes_nothing(
    listed: list[str], code: list[str]
) -> None:
    paths = [(f, f"r{i}") for i, f in enumerate(["pyproject.toml", *code])]
    fact = language_fact(paths, {}, searched=[(f, "ls") for f in listed])

    assert fact is not None and "Python" in fact.content and "Rust" not in fact.content
