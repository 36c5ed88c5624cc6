"""One session written as each host writes it (`bench.trap_transcripts`) is read by ingest
as the same session: the same prompts and replies, the same commands with their exit codes,
outputs and folders, the same file reads and the same files changed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bench.fixture_pipeline import parse
from bench.trap_transcripts import HOSTS, Ask, Edit, Read, Run, Say, Session, write_sessions
from squirrel_core.events import Event, EventType, Origin
from squirrel_memory.extractors.file_reads import READ_TOOLS

ROOT = "/home/ana/code/shopfront"
STEPS = (
    Ask("Always run mix format before you say it is done. Add a slug to Product."),
    Read("mix.exs", "defmodule Shopfront.MixProject do\n  use Mix.Project\nend\n"),
    Read("lib/product.ex", "defmodule Product do\n  field :name, :string\nend\n"),
    Edit("lib/product.ex", "  field :name, :string\n", "  field :name, :string\n  field :slug\n"),
    Run("mix deps.get", "All dependencies are up to date"),
    Run("mix test", "** (DBConnection.ConnectionError) tcp connect: connection refused", 1),
    Say("The tests need Postgres; `docker compose up -d db` starts it."),
    Run("docker compose up -d db", "Container shopfront-db-1  Started"),
    Run("mix test", "42 tests, 0 failures"),
    Say("Added the slug; all 42 tests pass."),
)
# Claude Code opens a failed command's result with its own line; the command did not print it.
_CLAUDE_EXIT = re.compile(r"\AExit code \d+\n")


def _view(events: list[Event]) -> dict[str, list[Any]]:
    said = [
        (e.event_type.value, e.content.get("text"))
        for e in events
        if e.event_type in (EventType.USER_MESSAGE, EventType.ASSISTANT_RESPONSE)
        and e.origin is not Origin.HARNESS
    ]
    runs = [
        (
            e.event_type.value,
            e.content["command"],
            e.content["exit_code"],
            e.content["is_error"],
            _CLAUDE_EXIT.sub("", e.content["output"]),
            e.content["cwd"],
        )
        for e in events
        if "command" in e.content and "exit_code" in e.content
    ]
    reads = [
        (e.file_paths, e.content["output"])
        for e in events
        if e.event_type is EventType.TOOL_RESULT and e.content.get("tool") in READ_TOOLS
    ]
    changed = [e.content.get("path") for e in events if e.event_type is EventType.CODE_CHANGE]
    return {"said": said, "runs": runs, "reads": reads, "changed": changed}


def _read(host: str, tmp_path: Path) -> dict[str, list[Any]]:
    paths = write_sessions(tmp_path, host, [Session(host, ROOT, STEPS)])
    return _view(parse(paths, "/home/dev/app"))


@pytest.mark.parametrize("host", [h for h in HOSTS if h != "claude"])
def test_a_session_reads_the_same_whichever_host_wrote_it(host: str, tmp_path: Path) -> None:
    claude = _read("claude", tmp_path)
    other = _read(host, tmp_path)

    assert other == claude
    assert [r[1:3] for r in claude["runs"]] == [
        ("mix deps.get", 0),
        ("mix test", 1),
        ("docker compose up -d db", 0),
        ("mix test", 0),
    ]
    assert {r[5] for r in claude["runs"]} == {"/home/dev/app"}
    assert [paths for paths, _ in claude["reads"]] == [("mix.exs",), ("lib/product.ex",)]
    assert claude["changed"] == ["lib/product.ex"]
