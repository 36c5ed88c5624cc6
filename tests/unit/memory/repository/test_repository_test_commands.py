"""The test command a repository's conventions give, by what the repository shows it runs
its tests with (a test framework declared, the framework's own runner, a solution that builds
its projects), and where each must not be said; the test folder whatever its case; every
Ecto Repo read, not only the first."""

from __future__ import annotations

import pytest

from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


def _composer(dev: str) -> str:
    return (
        '{"name": "acme/ledger", "require": {"php": "^8.2", "laravel/framework": "^11.0"},'
        f' "require-dev": {{{dev}}}}}'
    )


_PHP_CODE = {"app/Models/Invoice.php": "<?php\nclass Invoice {}\n" * 40}
_PEST = '"phpunit/phpunit": "^11.0", "pestphp/pest": "^2.34"'
_PHPUNIT = '"phpunit/phpunit": "^11.0"'


@pytest.mark.parametrize(
    ("files", "command"),
    [
        ({"composer.json": _composer(_PEST), **_PHP_CODE}, "vendor/bin/pest"),
        ({"composer.json": _composer(_PHPUNIT), **_PHP_CODE}, "vendor/bin/phpunit"),
        (
            {"composer.json": _composer(_PEST), "artisan": "#!/usr/bin/env php\n", **_PHP_CODE},
            "php artisan test",
        ),
    ],
    ids=["pest-declared", "phpunit-only", "artisan-runs-either"],
)
def test_php_tests_run_with_the_runner_the_tests_are_written_for(
    make_repo: MakeRepo, files: dict[str, str | bytes], command: str
) -> None:
    found = _found(make_repo, files)
    assert found["repo:recipe:test"].startswith(f"Run the tests with `{command}` (the "), found


def test_php_without_a_test_framework_gets_no_test_command(make_repo: MakeRepo) -> None:
    found = _found(make_repo, {"composer.json": _composer(""), **_PHP_CODE})
    assert "repo:recipe:test" not in found, found


_GEM_RSPEC = {
    "Gemfile": "source 'https://rubygems.org'\ngemspec\ngroup :development do\n"
    "  gem 'rspec', '~> 3.13'\nend\n",
    "lib/tern.rb": "module Tern; end\n" * 40,
}
_RAILS = "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\ngem 'pg'\n"
_RAILS_CODE = {
    "app/models/order.rb": "class Order; end\n" * 40,
    "bin/rails": "#!/usr/bin/env ruby\n",
}


@pytest.mark.parametrize(
    ("files", "command"),
    [
        (_GEM_RSPEC, "bundle exec rspec"),
        ({"Gemfile": _RAILS, **_RAILS_CODE}, "bin/rails test"),
        (
            {"Gemfile": _RAILS + "group :test do\n  gem 'rspec-rails'\nend\n", **_RAILS_CODE},
            "bundle exec rspec",
        ),
    ],
    ids=["gem-with-rspec", "rails-minitest", "rails-with-rspec-rails"],
)
def test_ruby_tests_run_with_the_declared_framework_or_rails_own_runner(
    make_repo: MakeRepo, files: dict[str, str | bytes], command: str
) -> None:
    found = _found(make_repo, files)
    assert found["repo:recipe:test"].startswith(f"Run the tests with `{command}` (the "), found


def test_rails_declared_without_its_bin_rails_gets_no_rails_test_command(
    make_repo: MakeRepo,
) -> None:
    # A gem that depends on Rails (an engine, a plugin) has no `bin/rails` to run.
    found = _found(make_repo, {"Gemfile": _RAILS, "lib/engine.rb": "module Engine; end\n" * 40})
    assert "repo:recipe:test" not in found, found


_DJANGO = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'atlas.settings')\n",
    "atlas/settings.py": "INSTALLED_APPS = []\n" * 20,
}


@pytest.mark.parametrize(
    ("requirements", "command"),
    [
        ("Django==5.0.4\n", "python manage.py test"),
        ("Django==5.0.4\npytest-django==4.8\npytest==8.1\n", "pytest"),
    ],
    ids=["django-own-runner", "pytest-declared"],
)
def test_django_tests_run_with_manage_py_unless_pytest_is_declared(
    make_repo: MakeRepo, requirements: str, command: str
) -> None:
    found = _found(make_repo, {"requirements.txt": requirements, **_DJANGO})
    assert found["repo:recipe:test"].startswith(f"Run the tests with `{command}` (the "), found


_CSPROJ = (
    '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup><TargetFramework>net8.0'
    "</TargetFramework></PropertyGroup>\n</Project>\n"
)
_DOTNET = {
    "src/Shop.Api/Shop.Api.csproj": _CSPROJ,
    "src/Shop.Api/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\n" * 20,
}


def test_a_root_solution_tests_and_builds_the_projects_in_its_folders(make_repo: MakeRepo) -> None:
    found = _found(make_repo, {**_DOTNET, "Shop.sln": "Microsoft Visual Studio Solution File\n"})
    assert found["repo:recipe:test"].startswith("Run the tests with `dotnet test` (the "), found
    assert "Shop.sln:1" in found["repo:recipe:test"], found
    assert found["repo:recipe:build"].startswith("Build the project with `dotnet build`"), found
    # The solution does not hide what the project is.
    assert "ASP.NET Core" in found["repo:stack"], found


def test_projects_in_folders_without_a_root_solution_get_no_dotnet_command(
    make_repo: MakeRepo,
) -> None:
    found = _found(make_repo, dict(_DOTNET))
    assert "repo:recipe:test" not in found, found
    # A solution in a folder is that folder's, not the repository's.
    found = _found(
        make_repo, {**_DOTNET, "src/Shop.sln": "Microsoft Visual Studio Solution File\n"}
    )
    assert "repo:recipe:test" not in found, found


def test_a_capitalised_tests_folder_is_tests_not_application_code(make_repo: MakeRepo) -> None:
    found = _found(
        make_repo,
        {
            "Package.swift": "// swift-tools-version:5.10\nimport PackageDescription\n",
            "Sources/Prism/Prism.swift": "public struct Prism {}\n" * 40,
            "Tests/PrismTests/PrismTests.swift": "import Testing\n@Test func works() {}\n" * 20,
        },
    )
    layout = found["repo:layout"]
    assert "application code is in `Sources/`" in layout, layout
    assert "tests are in `Tests/`" in layout, layout
    assert "`Tests/` and" not in layout and "and `Tests/`" not in layout, layout


_MIX = (
    "defmodule Notes.MixProject do\n  use Mix.Project\n  def project, do: [app: :notes, deps: deps()]\n"
    '  defp deps do\n    [{:phoenix, "~> 1.7.12"}, {:ecto_sql, "~> 3.11"}, {:ecto_sqlite3, "~> 0.15"},'
    ' {:postgrex, ">= 0.0.0"}]\n  end\nend\n'
)
_REPO = "defmodule Notes.Repo do\n  use Ecto.Repo, otp_app: :notes, adapter: Ecto.Adapters.SQLite3\nend\n"


def test_a_second_ecto_repo_is_read_and_its_database_not_called_unused(
    make_repo: MakeRepo,
) -> None:
    second = (
        "defmodule Notes.AnalyticsRepo do\n"
        "  use Ecto.Repo, otp_app: :notes, adapter: Ecto.Adapters.Postgres, read_only: true\nend\n"
    )
    found = _found(
        make_repo,
        {"mix.exs": _MIX, "lib/notes/repo.ex": _REPO, "lib/notes/analytics_repo.ex": second},
    )
    database = found["repo:database"]
    assert "does not use" not in database, database
    assert "The project's database is SQLite" not in database, database
    # One Repo: its adapter is the database, and the other client is declared but unused.
    alone = _found(make_repo, {"mix.exs": _MIX, "lib/notes/repo.ex": _REPO})
    assert alone["repo:database"].startswith("The project's database is SQLite"), alone


def test_a_ktor_server_engine_names_ktor(make_repo: MakeRepo) -> None:
    gradle = (
        'plugins { kotlin("jvm") version "1.9.23" }\ndependencies {\n'
        '  implementation("io.ktor:ktor-server-netty:2.3.10")\n}\n'
    )
    found = _found(
        make_repo,
        {"build.gradle.kts": gradle, "src/main/kotlin/App.kt": "fun main() {}\n" * 40},
    )
    assert "Kotlin/Ktor app" in found["repo:stack"], found


_WEB = '{"name": "web", "scripts": {"dev": "next dev", "test": "vitest"}}'


@pytest.mark.parametrize(
    ("root", "runner"),
    [
        ({"pnpm-workspace.yaml": "packages:\n  - apps/*\n", "pnpm-lock.yaml": "v: 9\n"}, "pnpm"),
        (
            {"package.json": '{"name": "o", "private": true, "packageManager": "yarn@4.1.0"}'},
            "yarn",
        ),
        ({"package.json": '{"name": "o", "private": true}', "package-lock.json": "{}"}, "npm"),
        ({"package.json": '{"name": "o", "private": true}'}, "npm"),
    ],
    ids=["pnpm-workspace", "root-package-manager-field", "root-npm-lock", "no-lock-anywhere"],
)
def test_a_workspace_member_without_a_lock_file_runs_with_the_managers_above_it(
    make_repo: MakeRepo, root: dict[str, str | bytes], runner: str
) -> None:
    files = {**root, "apps/web/package.json": _WEB, "apps/web/src/page.ts": "export {}\n" * 40}
    found = _found(make_repo, files)
    test = found["repo:recipe:test@apps/web"]
    assert f"run the tests with `{runner} test`" in test, found


def test_a_member_with_its_own_lock_file_keeps_its_manager(make_repo: MakeRepo) -> None:
    files = {
        "pnpm-workspace.yaml": "packages:\n  - apps/*\n",
        "pnpm-lock.yaml": "v: 9\n",
        "apps/web/package.json": _WEB,
        "apps/web/package-lock.json": "{}",
        "apps/web/src/page.ts": "export {}\n" * 40,
    }
    assert "`npm test`" in _found(make_repo, files)["repo:recipe:test@apps/web"]
    # Lock files of two managers above a member: no command rather than a wrong one.
    files = {
        "package.json": '{"name": "o", "private": true}',
        "yarn.lock": "",
        "package-lock.json": "{}",
        "apps/web/package.json": _WEB,
        "apps/web/src/page.ts": "export {}\n" * 40,
    }
    assert "repo:recipe:test@apps/web" not in _found(make_repo, files)
