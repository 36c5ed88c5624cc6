"""The project's database and stack come from how the code uses a dependency, weighed across
evidence and scoped to where it holds: the same rules in every ecosystem."""

from __future__ import annotations

import pytest

from squirrel_memory.models import MemoryCandidate
from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo

Files = dict[str, str | bytes]
CODE = "# code\n" * 200


def _facts(make_repo: MakeRepo, files: Files) -> dict[str, MemoryCandidate]:
    root = make_repo(files)
    return {c.key: c for c in repository_candidates(read_repository(root))}


MIX = """defmodule Birds.MixProject do
  use Mix.Project

  def project do
    [app: :birds, version: "0.1.0", elixir: "~> 1.17", deps: deps()]
  end

  defp deps do
    [
      {:phoenix, "~> 1.7"},
      {:ecto_sql, "~> 3.12"},
      {:myxql, "~> 0.7"},
      {:ecto_sqlite3, "~> 0.17"}
    ]
  end
end
"""
REPO_EX = "defmodule Birds.Repo do\n  use Ecto.Repo, otp_app: :birds, adapter: Ecto.Adapters.SQLite3\nend\n"

#: One app per ecosystem whose data-access configuration names SQLite while its manifest also
#: declares a client for another database (a side store).
CONFIGURED: dict[str, Files] = {
    "elixir": {
        "mix.exs": MIX,
        "lib/birds/repo.ex": REPO_EX,
        "lib/birds/sightings.ex": "defmodule Birds.Sightings do\nend\n" + CODE,
    },
    "python-django": {
        "pyproject.toml": '[project]\nname = "shop"\ndependencies = ["django>=5", "psycopg2>=2.9"]\n',
        "shop/settings.py": (
            "DATABASES = {\n    'default': {\n        'ENGINE': 'django.db.backends.sqlite3',\n"
            "        'NAME': BASE_DIR / 'db.sqlite3',\n    }\n}\n"
        ),
        "shop/views.py": "def index(request):\n    pass\n" + CODE,
    },
    "python-sqlalchemy": {
        "pyproject.toml": '[project]\nname = "notes"\ndependencies = ["sqlalchemy", "asyncpg"]\n',
        "notes/database.py": 'engine = create_engine("sqlite:///notes.db")\n',
        "notes/app.py": "def main():\n    pass\n" + CODE,
    },
    "js-knex": {
        "package.json": '{"name": "todo", "dependencies": {"express": "^4", "knex": "^3",'
        ' "pg": "^8", "better-sqlite3": "^9"}}\n',
        "knexfile.js": "module.exports = {\n  client: 'better-sqlite3',\n};\n",
        "src/server.js": "const express = require('express')\n" + "// code\n" * 200,
    },
    "php-laravel": {
        "composer.json": '{"name": "acme/blog", "require": {"laravel/framework": "^11"}}\n',
        ".env.example": "APP_NAME=Blog\nDB_CONNECTION=sqlite\n",
        "app/Models/Post.php": "<?php\nclass Post {}\n" + "// code\n" * 200,
    },
    "dotnet": {
        "Api/Api.csproj": (
            '<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup>'
            '<PackageReference Include="Microsoft.EntityFrameworkCore.Sqlite" Version="8.0.0" />'
            '<PackageReference Include="Npgsql" Version="8.0.0" />'
            "</ItemGroup></Project>\n"
        ),
        "Api/Program.cs": "builder.Services.AddDbContext<Db>(o => o.UseSqlite(conn));\n"
        + "// code\n" * 200,
    },
}


@pytest.mark.parametrize("files", CONFIGURED.values(), ids=CONFIGURED.keys())
def test_the_database_the_configuration_names_wins_over_a_declared_client(
    make_repo: MakeRepo, files: Files
) -> None:
    found = _facts(make_repo, files)

    database = found["repo:database"].content
    assert database.startswith("The project's database is SQLite"), database
    assert "database is MySQL" not in database and "database is PostgreSQL" not in database
    assert "SQLite" in found["repo:stack"].content
    assert "MySQL" not in found["repo:stack"].content
    assert "PostgreSQL" not in found["repo:stack"].content


def test_a_side_store_client_is_named_as_such(make_repo: MakeRepo) -> None:
    found = _facts(make_repo, CONFIGURED["elixir"])

    assert found["repo:database"].content == (
        "The project's database is SQLite, used through Ecto; the manifests also declare a"
        " client for MySQL (myxql), which the database configuration does not use."
    )
    assert any(r.startswith("lib/birds/repo.ex:2") for r in found["repo:database"].source_refs)
    assert found["repo:stack"].content.endswith("with SQLite via Ecto.")


def test_conflicting_clients_without_configuration_name_no_database(make_repo: MakeRepo) -> None:
    files = dict(CONFIGURED["elixir"])
    del files["lib/birds/repo.ex"]

    found = _facts(make_repo, files)

    database = found["repo:database"].content
    assert "database is" not in database
    assert "does not say which one the application uses" in database
    assert "MySQL (myxql)" in database and "SQLite (ecto_sqlite3)" in database
    assert "MySQL" not in found["repo:stack"].content
    assert "SQLite" not in found["repo:stack"].content
    assert found["repo:stack"].content.endswith("with Ecto.")


def test_one_declared_client_alone_is_not_the_database(make_repo: MakeRepo) -> None:
    # The driver may serve a script, a side store or nothing yet: only configuration (or a
    # compose file that starts it) says the application uses it.
    files = dict(CONFIGURED["python-sqlalchemy"])
    del files["notes/database.py"]

    found = _facts(make_repo, files)

    assert found["repo:database"].content == (
        "The manifests declare SQLAlchemy and a client for PostgreSQL (asyncpg)."
    )
    assert "PostgreSQL" not in found["repo:stack"].content


def test_a_declared_client_the_compose_file_starts_is_the_database(make_repo: MakeRepo) -> None:
    files = dict(CONFIGURED["python-sqlalchemy"])
    del files["notes/database.py"]
    files["docker-compose.yml"] = "services:\n  db:\n    image: postgres:16\n"

    found = _facts(make_repo, files)

    assert found["repo:database"].content.startswith("The project's database is PostgreSQL")


def test_a_side_url_in_the_environment_example_is_not_the_app_database(
    make_repo: MakeRepo,
) -> None:
    files: Files = {
        "pyproject.toml": '[project]\nname = "feed"\ndependencies = ["sqlalchemy", "pymysql"]\n',
        ".env.example": "DATABASE_URL=sqlite:///feed.db\nLEGACY_MYSQL_URL=mysql://host/db\n",
        "feed/app.py": "def main():\n    pass\n" + CODE,
    }

    found = _facts(make_repo, files)

    assert found["repo:database"].content.startswith("The project's database is SQLite")


def test_the_settings_decide_over_a_stale_environment_example(make_repo: MakeRepo) -> None:
    # A starter's `.env.example` still names MySQL; the settings the app runs with say PostgreSQL.
    files: Files = {
        "pyproject.toml": '[project]\nname = "clinic"\ndependencies = ["django"]\n',
        ".env.example": "DATABASE_URL=mysql://root:root@localhost:3306/app\n",
        "clinic/settings.py": "DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql'}}\n",
        "clinic/app.py": "def main():\n    pass\n" + CODE,
    }

    found = _facts(make_repo, files)

    assert found["repo:database"].content.startswith("The project's database is PostgreSQL")
    assert "MySQL" not in found["repo:stack"].content


def test_an_environment_example_alone_still_names_the_database(make_repo: MakeRepo) -> None:
    files: Files = {
        "pyproject.toml": '[project]\nname = "clinic"\ndependencies = ["django"]\n',
        ".env.example": "DATABASE_URL=mysql://root:root@localhost:3306/app\n",
        "clinic/app.py": "def main():\n    pass\n" + CODE,
    }

    found = _facts(make_repo, files)

    assert found["repo:database"].content.startswith("The project's database is MySQL")


def test_a_sub_package_manifest_does_not_speak_for_the_project(make_repo: MakeRepo) -> None:
    files: Files = {
        "package.json": '{"name": "site", "dependencies": {"next": "14.2.0"}}\n',
        "docs/package.json": '{"name": "docs", "dependencies": {"astro": "^4", "pg": "^8"}}\n',
        "src/app/page.tsx": "export default function Page() { return null }\n" + "// ui\n" * 200,
    }

    found = _facts(make_repo, files)

    assert "repo:database" not in found
    assert "Next.js" in found["repo:stack"].content
    assert "Astro" not in found["repo:stack"].content
    assert "PostgreSQL" not in found["repo:stack"].content


def test_workspace_members_speak_for_the_project_when_they_agree(make_repo: MakeRepo) -> None:
    files: Files = {
        "package.json": '{"name": "mono", "private": true, "workspaces": ["packages/*"]}\n',
        "packages/api/package.json": '{"name": "api", "dependencies": {"fastify": "^4", "pg": "^8"}}\n',
        "packages/api/src/server.ts": "export const x = 1\n" + "// code\n" * 200,
    }

    found = _facts(make_repo, files)

    assert found["repo:database"].content.startswith(
        "The manifests declare a client for PostgreSQL"
    )
    assert "Fastify" in found["repo:stack"].content


def test_a_sub_package_runtime_version_is_not_the_project_one(make_repo: MakeRepo) -> None:
    files: Files = {
        "package.json": '{"name": "site", "dependencies": {"next": "14.2.0"}}\n',
        "docs/package.json": '{"name": "docs", "engines": {"node": ">=16"}}\n',
        "src/app/page.tsx": "export default function Page() { return null }\n" + "// ui\n" * 200,
    }

    found = _facts(make_repo, files)

    assert "Node.js" not in found["repo:stack"].content
    assert "16" not in found["repo:stack"].content


def test_a_root_runtime_version_is_the_project_one(make_repo: MakeRepo) -> None:
    files: Files = {
        "package.json": '{"name": "site", "engines": {"node": ">=20"}, "dependencies": {"next": "14"}}\n',
        "docs/package.json": '{"name": "docs", "engines": {"node": ">=16"}}\n',
        "src/app/page.tsx": "export default function Page() { return null }\n" + "// ui\n" * 200,
    }

    found = _facts(make_repo, files)

    assert "(Node.js 20" in found["repo:stack"].content


@pytest.mark.parametrize(
    ("deps", "dev", "framework"),
    [
        ('"express": "^4", "next": "14.2.0", "react": "18"', "next dev", "Next.js"),
        ('"express": "^4", "next": "14.2.0"', "node server.js", "Express"),  # names no framework
    ],
)
def test_the_framework_the_entry_point_starts_is_the_project_one(
    make_repo: MakeRepo, deps: str, dev: str, framework: str
) -> None:
    files: Files = {
        "package.json": f'{{"name": "web", "scripts": {{"dev": "{dev}"}}, "dependencies": {{{deps}}}}}\n',
        "src/app/page.tsx": "export default function Page() { return null }\n" + "// ui\n" * 200,
    }

    found = _facts(make_repo, files)

    assert found["repo:stack"].content.startswith(f"web is a TypeScript/{framework} app")


def test_a_python_entry_point_picks_among_declared_frameworks(make_repo: MakeRepo) -> None:
    files: Files = {
        "pyproject.toml": '[project]\nname = "site"\ndependencies = ["fastapi", "django"]\n',
        "manage.py": "import django\n",
        "Makefile": "run:\n\tpython manage.py runserver\n",
        "site/views.py": "def index(request):\n    pass\n" + CODE,
    }

    found = _facts(make_repo, files)

    assert found["repo:stack"].content.startswith("site is a Python/Django app")


def test_an_umbrella_apps_repo_names_the_database(make_repo: MakeRepo) -> None:
    files: Files = {
        "mix.exs": 'defmodule Shop.Umbrella do\n  def project, do: [apps_path: "apps", deps: []]\nend\n',
        "apps/shop/mix.exs": MIX,
        "apps/shop/lib/shop/repo.ex": REPO_EX,
        "apps/shop/lib/shop/orders.ex": "defmodule Shop.Orders do\nend\n" + CODE,
    }

    found = _facts(make_repo, files)

    assert found["repo:database"].content.startswith("The project's database is SQLite")


SPRING_SETTINGS = "spring.datasource.url=jdbc:postgresql://localhost:5432/orders\n"


@pytest.mark.parametrize(
    ("module", "read"),
    [
        ("", True),
        ("orders", True),
        # a module as deep as manifests are read: its settings are read as its pom.xml is
        ("services/orders", True),
        ("platform/services/orders", False),
    ],
)
def test_a_modules_conventional_settings_are_read_where_its_manifest_is(
    make_repo: MakeRepo, module: str, read: bool
) -> None:
    home = f"{module}/" if module else ""
    files: Files = {
        f"{home}pom.xml": "<project><artifactId>orders</artifactId></project>\n",
        f"{home}src/main/resources/application.properties": SPRING_SETTINGS,
        f"{home}src/main/java/Orders.java": "class Orders {}\n",
    }

    reading = read_repository(make_repo(files))

    assert (f"{home}pom.xml" in reading.readings.manifests) is read
    configured = {(s.name, s.configured) for s in reading.readings.services}
    assert (("PostgreSQL", True) in configured) is read


@pytest.mark.parametrize(("app", "read"), [("apps/shop", True), ("x/apps/shop", False)])
def test_a_repo_module_is_read_where_its_apps_manifest_is(
    make_repo: MakeRepo, app: str, read: bool
) -> None:
    files: Files = {f"{app}/mix.exs": MIX, f"{app}/lib/shop/repo.ex": REPO_EX}

    reading = read_repository(make_repo(files))

    assert (f"{app}/mix.exs" in reading.readings.manifests) is read
    assert any(s.name == "SQLite" for s in reading.readings.services) is read
