"""The project's tasks, from the task-runner files the assistant read in a session."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import timedelta
from pathlib import Path

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.session_tasks import session_tasks
from squirrel_memory.models import MemoryType, StoredEvent
from tests.gitrepos import git, make_repo
from tests.unit.memory.test_session_about import T0, _event, _numbered, _reads

PACKAGE = """{
  "name": "blog",
  "scripts": {
    "dev": "next dev",
    "build": "next build",
    "lint": "next lint --fix",
    "postinstall": "husky install",
    "analyze": "ANALYZE=true next build"
  }
}"""
MIX = """defmodule Spotter.MixProject do
  use Mix.Project

  defp aliases do
    [
      setup: ["deps.get", "ecto.setup"],
      test: ["ecto.create --quiet", "ecto.migrate --quiet", "test"]
    ]
  end
end
"""


def test_package_scripts_read_in_a_session_are_one_recipe() -> None:
    (found,) = session_tasks(_reads(("package.json", _numbered(PACKAGE))))
    assert found.key == "tasks:package.json"
    assert found.content == (
        "Tasks in package.json: `npm run lint` lints the code (runs `next lint --fix`); "
        "`npm run dev` starts the dev server (runs `next dev`); `npm run build` builds the "
        "project (runs `next build`)."
    )


def test_the_lock_file_the_session_touched_names_the_package_manager() -> None:
    events = _reads(("package.json", _numbered(PACKAGE)))
    lock = _event("tool_result", {"tool": "Bash", "output": ""}, ("yarn.lock",))
    events.append(dataclasses.replace(lock, id="evt_lock"))
    (found,) = session_tasks(events)
    assert "`yarn dev` starts the dev server" in found.content


def test_mix_aliases_read_in_a_session() -> None:
    (found,) = session_tasks(_reads(("mix.exs", _numbered(MIX))))
    assert found.content.startswith("Tasks in mix.exs: `mix test` runs the tests (runs ")
    assert "`mix setup` sets the project up" in found.content


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("assets/package.json", PACKAGE),  # a sub-folder's tasks are not the project's
        ("package.json", '{"scripts": {"dev": "next dev"'),  # a partial read
        ("package.json", '{"scripts": {"release": "np", "prepare": "husky"}}'),  # no purpose
        ("package.json", '{"name": "x"}'),
        ("Makefile", ""),
    ],
)
def test_no_recipe_without_tasks_of_a_known_purpose(path: str, text: str) -> None:
    assert session_tasks(_reads((path, _numbered(text)))) == []


def _episode_candidates(events: list[StoredEvent]) -> dict[str, MemoryType]:
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))
    found = asyncio.run(RulesExtractor().extract(episode, events))
    return {c.key: c.type for c in found}


def test_the_rules_extractor_keeps_it_as_a_recipe_without_a_repository() -> None:
    found = _episode_candidates(_reads(("package.json", _numbered(PACKAGE))))
    assert found["tasks:package.json"] is MemoryType.RECIPE


def test_a_read_repository_gives_its_own_task_recipes(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    (root / "index.js").write_text("console.log('hi')\n" * 40)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "code")
    events = [
        dataclasses.replace(e, project_id=str(root))
        for e in _reads(("package.json", _numbered(PACKAGE)))
    ]
    assert "tasks:package.json" not in _episode_candidates(events)
