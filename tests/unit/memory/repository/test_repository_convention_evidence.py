"""Recipes only from evidence: a lint or format convention needs its tool shown, a convention
runs through the repository's wrapper of its tool, and the line that installs the project
itself is how its users get it, not its set-up — in more than one ecosystem, with the cases
where each rule must not fire."""

from __future__ import annotations

import pytest

from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import JAVA, MakeRepo

_GO_BARE = {
    "go.mod": "module github.com/acme/ledger\n\ngo 1.22\n",
    "ledger.go": "package ledger\n" + "// code\n" * 300,
    "ledger_test.go": "package ledger\n" + "// t\n" * 50,
}
_RUST_BARE = {
    "Cargo.toml": '[package]\nname = "tiles"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": "pub fn tile() {}\n" + "// code\n" * 300,
}
_PYTHON_RUFF = {
    "pyproject.toml": '[project]\nname = "ledger-api"\nversion = "0.1.0"\n\n'
    '[dependency-groups]\ndev = ["pytest>=8", "ruff>=0.6"]\n',
    "ledger_api/app.py": "def app():\n    return 1\n" * 100,
}
_NODE = {
    "package.json": '{"name": "@acme/ledger-web", "version": "2.0.0", "scripts": {"test": "vitest"}}',
    "src/index.js": "export const ledger = 1;\n" * 200,
}
_ELIXIR_FORMATTER = {
    "mix.exs": "defmodule Ledger.MixProject do\n  def project do\n    [app: :ledger, "
    'elixir: "~> 1.16"]\n  end\nend\n',
    ".formatter.exs": '[inputs: ["{mix,.formatter}.exs", "{lib,test}/**/*.{ex,exs}"]]\n',
    "lib/ledger.ex": "defmodule Ledger do\nend\n" * 60,
}


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


@pytest.mark.parametrize(
    ("files", "test"), [(_GO_BARE, "go test ./..."), (_RUST_BARE, "cargo test")], ids=["go", "rust"]
)
def test_a_manifest_alone_gives_the_test_convention_but_no_linter_or_formatter(
    make_repo: MakeRepo, files: dict[str, str | bytes], test: str
) -> None:
    found = _found(make_repo, files)
    assert found["repo:recipe:test"].startswith(f"Run the tests with `{test}` (the "), found
    # Which linter or formatter a project uses is a choice nothing here shows.
    assert "repo:recipe:lint" not in found, found
    assert "repo:recipe:format" not in found, found


@pytest.mark.parametrize(
    ("files", "key", "command"),
    [
        (_PYTHON_RUFF, "repo:recipe:lint", "ruff check ."),
        (_ELIXIR_FORMATTER, "repo:recipe:format", "mix format"),
    ],
    ids=["python-ruff-declared", "elixir-formatter-configured"],
)
def test_a_lint_or_format_convention_is_said_when_its_tool_is_declared_or_configured(
    make_repo: MakeRepo, files: dict[str, str | bytes], key: str, command: str
) -> None:
    found = _found(make_repo, files)
    assert f"`{command}` (the " in found[key], found


def test_a_convention_runs_through_the_repositorys_wrapper_of_its_tool(make_repo: MakeRepo) -> None:
    wrapped = _found(make_repo, {**JAVA, "mvnw": "#!/bin/sh\nexec java -jar .mvn/wrapper.jar\n"})
    assert wrapped["repo:recipe:test"].startswith("Run the tests with `./mvnw test` (the "), wrapped
    named = {**JAVA, "README.md": "# Orders\n\nRun it:\n\n```\n./mvnw spring-boot:run\n```\n"}
    assert "`./mvnw test`" in _found(make_repo, named)["repo:recipe:test"]
    # No wrapper anywhere: the tool itself.
    assert "`mvn test`" in _found(make_repo, dict(JAVA))["repo:recipe:test"]


@pytest.mark.parametrize(
    ("files", "readme", "own"),
    [
        (_GO_BARE, "go get github.com/acme/ledger", "go get github.com/acme/ledger"),
        (_NODE, "npm install @acme/ledger-web@2", "npm install @acme/ledger-web"),
        (_PYTHON_RUFF, "pip install ledger-api", "pip install ledger-api"),
    ],
    ids=["go-get-module", "npm-install-name", "pip-install-name"],
)
def test_the_line_that_installs_the_project_itself_is_not_its_set_up(
    make_repo: MakeRepo, files: dict[str, str | bytes], readme: str, own: str
) -> None:
    found = _found(
        make_repo, {**files, "README.md": f"# Ledger\n\n## Install\n\n```\n{readme}\n```\n"}
    )
    assert own not in found.get("repo:recipe:install", ""), found


@pytest.mark.parametrize(
    ("files", "readme", "setup"),
    [
        (_GO_BARE, "go get github.com/other/dependency", "go get github.com/other/dependency"),
        (_PYTHON_RUFF, "pip install -e .", "pip install -e ."),
    ],
    ids=["go-get-another-module", "pip-editable-install"],
)
def test_an_install_line_for_something_else_stays_the_set_up(
    make_repo: MakeRepo, files: dict[str, str | bytes], readme: str, setup: str
) -> None:
    found = _found(
        make_repo, {**files, "README.md": f"# Ledger\n\n## Install\n\n```\n{readme}\n```\n"}
    )
    assert f"`{setup}`" in found.get("repo:recipe:install", ""), found


_JS_CODE = {"web/app.js": "export const a = 1;\n" * 120}
_RUBY_CODE = {"lib/task.rb": "class Task; end\n" * 150}


@pytest.mark.parametrize(
    ("files", "readme", "chosen"),
    [
        # Go with as much JavaScript beside it, no package.json anywhere: the README's `npm
        # test` has nothing to run on, `go test` has go.mod.
        ({**_GO_BARE, **_JS_CODE}, "npm test", "go test ./..."),
        # Python with as much Ruby beside it and no Gemfile: `pytest` (declared) over the
        # README's `bundle exec rspec`.
        ({**_PYTHON_RUFF, **_RUBY_CODE}, "bundle exec rspec", "pytest"),
    ],
    ids=["go-beside-javascript", "python-beside-ruby"],
)
def test_a_command_whose_tool_has_no_manifest_here_is_not_the_projects_recipe(
    make_repo: MakeRepo, files: dict[str, str | bytes], readme: str, chosen: str
) -> None:
    found = _found(make_repo, {**files, "README.md": f"# Ledger\n\nTest:\n\n```\n{readme}\n```\n"})
    assert found["repo:recipe:test"].startswith(f"Run the tests with `{chosen}`"), found


def test_a_readme_command_with_its_manifest_present_still_wins_over_the_convention(
    make_repo: MakeRepo,
) -> None:
    # The package.json is there: the README's command is the project's, not `go test`.
    node = {**_NODE, "README.md": "# Web\n\n```\nnpm run test:unit\n```\n"}
    found = _found(make_repo, node)
    assert "`npm" in found["repo:recipe:test"], found
