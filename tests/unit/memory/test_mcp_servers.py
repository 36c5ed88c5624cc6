"""The MCP servers a project's own configuration declares, read or written in a session: what
is stated, and the files, folders and writes that must state nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.mcp_servers import json_servers, toml_servers
from squirrel_memory.extractors.rules import RulesExtractor
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/atlas"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=2)

TOML = (
    'model = "some-model"\n\n[mcp_servers.db]\ncommand = "uv"\n'
    'args = ["run", "db-mcp", "--read-only"]\nstartup_timeout_sec = 60\n\n'
    '[mcp_servers.db.env]\nDB_URL = "postgres://localhost/dev"\n\n'
    '[mcp_servers."docs-search"]\ncommand = "npx"\nargs = ["-y", "docs-search-mcp"]\n\n'
    '[profiles.fast]\ncommand = "not-a-server"\n'
)
JSON = json.dumps(
    {"mcpServers": {"browser": {"command": "npx", "args": ["browser-mcp@1.2", "--headless"]}}}
)


async def _said(session: Session) -> list[str]:
    found: list[str] = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(
            c.content
            for c in await RulesExtractor().extract(episode, session.events)
            if c.key.startswith("mcp_servers:")
        )
    return found


def _session() -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("the database server does not start, can you look?")
    return session


def test_toml_tables_name_each_server_and_how_it_starts() -> None:
    assert toml_servers(TOML) == {
        "db": "uv run db-mcp --read-only",
        "docs-search": "npx -y docs-search-mcp",
    }


def test_a_json_object_names_each_server_and_how_it_starts() -> None:
    assert json_servers(".mcp.json", JSON) == {
        "browser": "npx browser-mcp@1.2 --headless",
    }
    vscode = json.dumps({"servers": {"tracker": {"command": "tracker-mcp"}}})
    assert json_servers(".vscode/mcp.json", vscode) == {"tracker": "tracker-mcp"}
    assert json_servers("settings.json", vscode) == {}  # `servers` only in an mcp.json


async def test_a_config_read_whole_states_its_servers() -> None:
    session = _session()
    session.read(".agent/config.toml", TOML)

    assert await _said(session) == [
        "`.agent/config.toml` (in the repository) declares the MCP servers `db`, started with "
        "`uv run db-mcp --read-only`; `docs-search`, started with `npx -y docs-search-mcp`."
    ]


async def test_an_edit_restates_the_server_it_shows() -> None:
    session = _session()
    session.read(".agent/config.toml", TOML)
    session.edit_lines(
        ".agent/config.toml",
        '[mcp_servers.db]\ncommand = "uv"\nargs = ["run", "db-mcp", "--read-only"]',
        '[mcp_servers.db]\ncommand = ".venv/bin/db-mcp"\nargs = ["--read-only"]',
    )

    [said] = await _said(session)
    assert "`db`, started with `.venv/bin/db-mcp --read-only`; `docs-search`" in said


async def test_a_json_config_written_whole_states_its_server() -> None:
    session = _session()
    session.write(".mcp.json", JSON)

    assert await _said(session) == [
        "`.mcp.json` (in the repository) declares the MCP server `browser`, started with "
        "`npx browser-mcp@1.2 --headless`."
    ]


async def test_a_server_without_a_plain_command_is_named_alone() -> None:
    session = _session()
    session.write(".mcp.json", json.dumps({"mcpServers": {"remote": {"url": "https://x"}}}))

    assert await _said(session) == [
        "`.mcp.json` (in the repository) declares the MCP server `remote`."
    ]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("tests/fixtures/config.toml", TOML),  # test data
        ("examples/agent/.mcp.json", JSON),  # an example's configuration
        ("docs/setup/config.toml", TOML),
        ("node_modules/pkg/.mcp.json", JSON),  # a dependency's
        ("config.toml", '[servers.db]\ncommand = "uv"\n'),  # no MCP table
        ("package.json", json.dumps({"name": "x", "servers": {"db": {"command": "y"}}})),
        ("notes.md", '[mcp_servers.db]\ncommand = "uv"\n'),  # not a configuration file
    ],
)
async def test_files_that_are_not_the_project_s_own_configuration_state_nothing(
    path: str, text: str
) -> None:
    session = _session()
    session.read(path, text)
    session.write(path, text)

    assert await _said(session) == []


async def test_a_write_the_host_did_not_apply_or_a_file_elsewhere_states_nothing() -> None:
    session = _session()
    full = f"{ROOT}/.mcp.json"
    session.add(  # the call alone: rejected, nothing was written
        "tool_call",
        {"tool": "Write", "tool_use_id": "w1", "input": {"file_path": full, "content": JSON}},
        (full,),
    )
    session.read_elsewhere(
        "/home/dev/.agent/config.toml", TOML
    )  # the user's own, not the project's

    assert await _said(session) == []


async def test_a_partial_json_edit_states_nothing() -> None:
    session = _session()
    session.edit_lines(".mcp.json", '"args": []', '"mcpServers": {"db": {"command": "x"}}')

    assert await _said(session) == []


async def test_an_edit_that_removes_a_server_s_table_drops_it() -> None:
    session = _session()
    session.read(".agent/config.toml", TOML)
    session.edit_lines(
        ".agent/config.toml",
        '[mcp_servers."docs-search"]\ncommand = "npx"\nargs = ["-y", "docs-search-mcp"]\n',
        "",
    )

    assert await _said(session) == [
        "`.agent/config.toml` (in the repository) declares the MCP server `db`, started with "
        "`uv run db-mcp --read-only`."
    ]


async def test_an_edit_of_a_json_config_read_whole_leaves_its_servers_unknown() -> None:
    session = _session()
    session.read(".mcp.json", JSON)
    session.edit_lines(".mcp.json", '"browser"', '"browser-old"')

    assert await _said(session) == []
