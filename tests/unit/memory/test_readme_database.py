"""The database a session states when the root README and a root manifest agree on one
(`extractors/readme_database.py`), and its traps: a second database named, clients of two,
a client for development only, a sub-folder's README, a README and manifest that disagree."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

MIX = (
    "defmodule Hub.MixProject do\n  use Mix.Project\n\n"
    '  def project, do: [app: :hub, elixir: "~> 1.17", deps: deps()]\n\n'
    "  defp deps do\n    [\n"
    '      {:phoenix, "~> 1.7"},\n      {:ecto_sql, "~> 3.10"},\n      {:postgrex, ">= 0.0.0"}\n'
    "    ]\n  end\nend\n"
)
MIX_README = (
    "# Hub\n\nThe package index of a team.\n\n## Database\n\n"
    "By default, Hub connects to a localhost PostgreSQL database `hub_dev`.\n"
)
GO_MOD = "module example.com/pocket\n\ngo 1.22\n\nrequire (\n\tmodernc.org/sqlite v1.37.1\n)\n"
GO_README = "# Pocket\n\nA backend in one file, with an embedded database (SQLite).\n"


def _database(files: dict[str, str]) -> list[str]:
    session = Session("/src/project", "s1", T0)
    session.user("Read how this repository is set up.")
    for path, text in files.items():
        session.read(path, text)
    return [c.content for c in session.extracted() if c.key == "database"]


@pytest.mark.parametrize(
    ("files", "said"),
    [
        (
            {"README.md": MIX_README, "mix.exs": MIX},
            "The project's database is PostgreSQL: README.md names it and `mix.exs` declares"
            " its client (postgrex).",
        ),
        (
            {"README.md": GO_README, "go.mod": GO_MOD},
            "The project's database is SQLite: README.md names it and `go.mod` declares its"
            " client (modernc.org/sqlite).",
        ),
    ],
    ids=["elixir", "go"],
)
def test_the_readme_and_the_manifest_agreeing_name_the_database(
    files: dict[str, str], said: str
) -> None:
    assert _database(files) == [said]


POM = (
    "<project><modelVersion>4.0.0</modelVersion><artifactId>clinic</artifactId><dependencies>"
    "<dependency><groupId>com.h2database</groupId><artifactId>h2</artifactId></dependency>"
    "</dependencies></project>\n"
)
PYPROJECT_DEV = (
    '[project]\nname = "shop"\ndependencies = ["flask"]\n\n'
    '[project.optional-dependencies]\ndev = ["psycopg2-binary"]\n'
)


@pytest.mark.parametrize(
    "files",
    [
        # the README names a second database: a profile, a comparison
        {
            "README.md": "# Clinic\n\nUses an in-memory database (H2); MySQL through a profile.\n",
            "pom.xml": POM,
        },
        # clients of two databases declared
        {
            "README.md": GO_README,
            "go.mod": GO_MOD.replace(")", "\tgithub.com/jackc/pgx/v5 v5.5.5\n)"),
        },
        # a client for development only
        {
            "README.md": "# Shop\n\nOrders are kept in PostgreSQL.\n",
            "pyproject.toml": PYPROJECT_DEV,
        },
        # the README is a sub-folder's
        {"docs/README.md": MIX_README, "mix.exs": MIX},
        # the README and the manifest disagree
        {"README.md": GO_README.replace("SQLite", "PostgreSQL"), "go.mod": GO_MOD},
    ],
    ids=["second-database", "two-clients", "dev-only", "sub-folder", "disagree"],
)
def test_nothing_is_said_when_the_two_do_not_agree_on_one(files: dict[str, str]) -> None:
    assert _database(files) == []
