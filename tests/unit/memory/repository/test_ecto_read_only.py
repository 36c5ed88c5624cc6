"""An Ecto Repo names the project's database by its adapter; one declared `read_only: true`
is marked as only read (a legacy source an import reads, a replica), and a session that read
it states no data layer of it."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.services import config_reader
from squirrel_memory.repository.snapshot import TextFile
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)

REPO = "defmodule Tally.Repo do\n  use Ecto.Repo, otp_app: :tally, adapter: Ecto.Adapters.SQLite3\nend\n"
LEGACY = (
    "defmodule Tally.LegacyRepo do\n  # the old shop's orders, for the import\n"
    "  use Ecto.Repo, otp_app: :tally, adapter: Ecto.Adapters.MyXQL, read_only: true\nend\n"
)


def _databases(path: str, text: str) -> set[tuple[str, bool]]:
    reader = config_reader(path)
    assert reader is not None
    out = Readings()
    reader(TextFile.of(path, text), out)
    return {(s.name, s.read_only) for s in out.services if s.kind == "database" and s.configured}


def test_the_repos_adapter_is_the_database() -> None:
    assert _databases("lib/tally/repo.ex", REPO) == {("SQLite", False)}


def test_a_read_only_repo_is_marked_as_only_read() -> None:
    assert _databases("lib/tally/legacy_repo.ex", LEGACY) == {("MySQL", True)}


def test_a_session_that_read_both_repos_states_the_written_one_as_its_data_layer() -> None:
    session = Session("/home/mo/code/tally", "s1", T0)
    session.user("Import last month's orders from the old shop.")
    session.read("lib/tally/repo.ex", REPO)
    session.read("lib/tally/legacy_repo.ex", LEGACY)
    session.run("mix test", 0, "Finished in 0.5 seconds\n38 tests, 0 failures")
    facts = [c.content for c in session.extracted() if c.key == "database"]
    assert facts == ["Data layer: SQLite."]
