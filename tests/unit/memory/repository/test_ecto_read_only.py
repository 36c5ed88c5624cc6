"""An Ecto Repo names the project's database by its adapter; one declared `read_only: true`
reads another system's data (a legacy source an import reads, a replica) and names none."""

from __future__ import annotations

from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.services import config_reader
from squirrel_memory.repository.snapshot import TextFile

REPO = "defmodule Tally.Repo do\n  use Ecto.Repo, otp_app: :tally, adapter: Ecto.Adapters.SQLite3\nend\n"
LEGACY = (
    "defmodule Tally.LegacyRepo do\n  # the old shop's orders, for the import\n"
    "  use Ecto.Repo, otp_app: :tally, adapter: Ecto.Adapters.MyXQL, read_only: true\nend\n"
)


def _databases(path: str, text: str) -> set[str]:
    reader = config_reader(path)
    assert reader is not None
    out = Readings()
    reader(TextFile.of(path, text), out)
    return {s.name for s in out.services if s.kind == "database" and s.configured}


def test_the_repos_adapter_is_the_database() -> None:
    assert _databases("lib/tally/repo.ex", REPO) == {"SQLite"}


def test_a_read_only_repo_names_no_database_of_the_project() -> None:
    assert _databases("lib/tally/legacy_repo.ex", LEGACY) == set()
