"""The rules behind the ecosystem matrix, one by one, with where each must not fire."""

from __future__ import annotations

import pytest

from squirrel_core.commands import classify_command
from squirrel_memory.extractors.evidence.attempts import command_base
from squirrel_memory.extractors.manifests import manifest_language
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.manifests import manifest_reader
from squirrel_memory.repository.snapshot import TextFile


@pytest.mark.parametrize(
    ("output", "line"),
    [
        (
            "     NoMethodError:\n       undefined method `x' for nil\n",
            "NoMethodError: undefined method `x' for nil",
        ),
        (
            "[ERROR] COMPILATION ERROR :\n[ERROR] /a/B.java:[3,9] cannot find symbol\n",
            "[ERROR] /a/B.java:[3,9] cannot find symbol",
        ),
        (
            'There was 1 error:\n\n1) Tests\\ATest::test_a\nError: Class "A" not found\n',
            'Error: Class "A" not found',
        ),
        (
            "src/A.hs:3:9: error: [GHC-88464]\n    Variable not in scope: f\n",
            "src/A.hs:3:9: error: [GHC-88464] Variable not in scope: f",
        ),
        (
            "> Task :compileKotlin FAILED\ne: file:///a/B.kt:3:9 Unresolved reference: x\n",
            "e: file:///a/B.kt:3:9 Unresolved reference: x",
        ),
        (
            'Error in `f(x)`: could not find function "f"\n',
            'Error in `f(x)`: could not find function "f"',
        ),
    ],
)
def test_a_heading_error_line_takes_the_explanation_after_it(output: str, line: str) -> None:
    assert first_error_line(output) == line


@pytest.mark.parametrize(
    ("output", "line"),
    [
        # A heading with nothing after it stays as it is.
        ("NoMethodError:\n", "NoMethodError:"),
        # A line with its own message is not a heading.
        (
            "error: could not compile `shop` due to 2 previous errors\nnext line\n",
            "error: could not compile `shop` due to 2 previous errors",
        ),
        ("> Task :test FAILED\n", "> Task :test FAILED"),
        ("Error in the docs is not R\n", ""),
        ("Compiling 14 files (.ex)\nResolving dependencies...\n==> ledger\n", ""),
        ("e: this is not kotlin\n", ""),
    ],
)
def test_lines_that_are_no_heading_or_no_error_stay_as_they_are(output: str, line: str) -> None:
    assert first_error_line(output) == line


@pytest.mark.parametrize(
    ("command", "base"),
    [
        ("./gradlew test --tests LedgerTest", "./gradlew test"),
        ("vendor/bin/phpunit tests/Unit/BooksTest.php", "vendor/bin/phpunit"),
        # An interpreter running a program the table knows by its path: the program is the head.
        ("php bin/phpunit tests/Unit/BooksTest.php", "php bin/phpunit"),
        ("ruby bin/rails test test/models", "ruby bin/rails test"),
        ("Rscript -e 'devtools::test()'", "Rscript -e 'devtools::test()'"),
        # Must not fire: a script with spaces, an absolute program path, a path argument.
        ("python -c 'import sys; print(sys.path)'", "python"),
        ("/usr/bin/make test", ""),
        ("pytest tests/test_a.py -q", "pytest"),
        # A script or test file an interpreter runs is no program of the table.
        ("perl t/ledger.t", "perl"),
        ("bash scripts/test.sh", "bash"),
        ("git diff bin/rails", "git diff"),
        # A runner whose prefix ends with an option: the head of the command it runs follows.
        ("mise exec -- test/bats/bin/bats test/hooks.bats", "mise exec -- test/bats/bin/bats"),
        ("nix develop -c cargo test --workspace", "nix develop -c cargo test"),
        ("opam exec -- dune runtest test/", "opam exec -- dune runtest"),
        # Must not fire: the prefix with nothing after it.
        ("mise exec --", "mise exec"),
        # A recursive package pattern is what the run covers: it stays with the head.
        ("go test ./cmd/app/... -run Explain -v", "go test ./cmd/app/..."),
        ("go build ./cmd/entire/cli/...", "go build ./cmd/entire/cli/..."),
        ("go test ./... -count=1", "go test ./..."),
        # Must not fire: one package's folder, an option's value.
        ("go test ./internal/zone -run TestX", "go test ./internal/zone"),
        ("go test -run=Foo/...", "go test"),
    ],
)
def test_command_heads(command: str, base: str) -> None:
    assert command_base(command) == base


@pytest.mark.parametrize(
    ("command", "tool", "purpose", "ecosystem"),
    [
        ("zig build test --summary all", "zig", "test", "zig"),
        ("zig build -Doptimize=ReleaseFast", "zig", "build", "zig"),
        ("cabal test --test-show-details=direct", "cabal", "test", "haskell"),
        ("stack test", "stack", "test", "haskell"),
        ("gleam test", "gleam", "test", "gleam"),
        ("dune runtest", "dune", "test", "ocaml"),
        ('Rscript -e "devtools::test()"', "devtools", "test", "r"),
        ("R CMD check .", "R CMD check", "test", "r"),
        # Shell test runners, in any project (a vendored runner is known by its name too).
        ("test/bats/bin/bats test/hooks.bats", "bats", "test", "any"),
        ("shellspec spec/", "shellspec", "test", "any"),
        ("shfmt -w scripts/", "shfmt", "format", "any"),
    ],
)
def test_more_ecosystems_test_commands(
    command: str, tool: str, purpose: str, ecosystem: str
) -> None:
    use = classify_command(command)

    assert use is not None
    assert (use.tool, use.purpose, use.ecosystem) == (tool, purpose, ecosystem)


def test_other_scripts_given_inline_are_no_test() -> None:
    assert classify_command('Rscript -e "print(1)"') is None


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("ledger.cabal", "Haskell"),
        ("stack.yaml", "Haskell"),
        ("gleam.toml", "Gleam"),
        ("dune-project", "OCaml"),
        ("deno.json", "TypeScript"),
        ("Ledger.csproj", "C#"),
        ("DESCRIPTION", "R"),
        ("requirements-dev.txt", "Python"),
        # Must not fire: a lower-case `description`, a file merely ending like a manifest.
        ("description", None),
        ("notes.txt", None),
        ("cabal", None),
    ],
)
def test_manifest_languages(name: str, language: str | None) -> None:
    assert manifest_language(name) == language


def _read(path: str, text: str) -> Readings:
    reader = manifest_reader(path)
    assert reader is not None
    out = Readings()
    reader(TextFile.of(path, text), out)
    return out


def test_an_r_description_names_the_package_and_its_imports() -> None:
    out = _read(
        "DESCRIPTION",
        "Package: ledger\nTitle: Books\nDescription: Double-entry bookkeeping\n"
        "    for small shops.\nImports:\n    dplyr (>= 1.1.0),\n    rlang\nDepends: R (>= 4.1)\n",
    )

    assert (out.name, out.description) == ("ledger", "Double-entry bookkeeping for small shops.")
    assert [(d.name, d.version) for d in out.dependencies] == [("dplyr", ">= 1.1.0"), ("rlang", "")]


def test_a_description_file_that_is_no_r_package_says_nothing() -> None:
    out = _read("DESCRIPTION", "Unnamed repository; edit this file to name it for gitweb.\n")

    assert (out.name, out.description, out.dependencies, out.manifests) == ("", "", [], {})


def test_a_cabal_file_names_its_synopsis_and_dependencies() -> None:
    out = _read(
        "ledger.cabal",
        "name:          ledger\nsynopsis:      Double-entry bookkeeping\nlibrary\n"
        "  build-depends: base ^>=4.18,\n                 text\n",
    )

    assert (out.name, out.description) == ("ledger", "Double-entry bookkeeping.")
    assert [d.name for d in out.dependencies] == ["base", "text"]


def test_dune_pubspec_gleam_and_cmake_descriptions() -> None:
    dune = _read(
        "dune-project",
        '(lang dune 3.14)\n(name ledger)\n(package\n (name ledger)\n (synopsis "Books kept twice")\n'
        " (depends ocaml (alcotest :with-test) lwt))\n",
    )
    pubspec = _read(
        "pubspec.yaml",
        "name: ledger\ndescription: Books kept twice\ndependencies:\n  provider: ^6.1.2\n",
    )
    gleam = _read(
        "gleam.toml",
        'name = "ledger"\ndescription = "Books kept twice"\n[dependencies]\nwisp = ">= 0.14.0"\n',
    )
    cmake = _read(
        "CMakeLists.txt",
        'project(ledger VERSION 1.0 DESCRIPTION "Books kept twice" LANGUAGES CXX)\n',
    )

    for out in (dune, pubspec, gleam, cmake):
        assert (out.name, out.description) == ("ledger", "Books kept twice.")
    # `ocaml` in `depends` is the compiler, not a dependency; `:with-test` is for the tests.
    assert [(d.name, d.dev) for d in dune.dependencies] == [("alcotest", True), ("lwt", False)]
    assert [d.name for d in pubspec.dependencies] == ["provider"]
    assert [d.name for d in gleam.dependencies] == ["wisp"]


def test_a_cmake_file_without_a_project_says_nothing() -> None:
    out = _read("CMakeLists.txt", "add_subdirectory(src)\n")

    assert (out.name, out.description, out.manifests) == ("", "", {})
