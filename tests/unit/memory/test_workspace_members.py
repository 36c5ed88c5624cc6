"""The packages of a monorepo, as the commands of a session address them."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.workspace_members import KEY, named_members, workspace_members
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import PROJECT, Stream
from tests.unit.memory.test_session_about import _numbered


@pytest.mark.parametrize(
    ("command", "found"),
    [
        ("pnpm --filter @acme/web build", [("@acme/web", "pnpm --filter <name>")]),
        ("pnpm -F=api test", [("api", "pnpm -F <name>")]),
        ("npm run test -w packages-ui", [("packages-ui", "npm -w <name>")]),
        ("yarn workspace @acme/ui add left-pad", [("@acme/ui", "yarn workspace <name>")]),
        (
            "cargo test -p parser && cargo build --package cli",
            [
                ("parser", "cargo -p <name>"),
                ("cli", "cargo --package <name>"),
            ],
        ),
        ("uv run --package worker pytest", [("worker", "uv --package <name>")]),
        ("      run: pnpm --filter @acme/crypto build", [("@acme/crypto", "pnpm --filter <name>")]),
    ],
)
def test_each_workspace_tool_names_its_members(command: str, found: list[tuple[str, str]]) -> None:
    assert named_members(command) == found


@pytest.mark.parametrize(
    "command",
    [
        "pnpm --filter './packages/*' build",  # a path glob, not a member
        "pnpm --filter ...[origin/main] test",  # a change filter
        "pnpm install --frozen-lockfile",
        "uv pip install -p 3.12 x",  # uv's -p is the interpreter
        "cargo test",
        "echo pnpm is fast",
        "ls packages/web packages/api",  # a listing names folders, not members
        "cargo update -p tokio",  # the dependency graph's package: a dependency, most often
        "cargo tree -p serde --depth 1",
        "cargo +nightly doc -p serde --open",
    ],
)
def test_no_member_where_the_command_names_none(command: str) -> None:
    assert named_members(command) == []


def test_two_members_make_the_monorepo_fact_from_commands_and_read_run_lines() -> None:
    stream = Stream()
    stream.user("why does CI fail?")
    stream.run("pnpm --filter @acme/web build")
    workflow = "steps:\n  - run: pnpm --filter @acme/crypto build\n"
    stream.read(f"{PROJECT}/.github/workflows/ci.yml", _numbered(workflow))
    found = workspace_members(stream.events)
    assert found is not None and found.key == KEY
    assert found.content == (
        "The project is a monorepo; its members named in sessions: `@acme/web`, `@acme/crypto` "
        "(addressed with `pnpm --filter <name>`)."
    )


def test_one_member_or_a_file_outside_the_project_says_nothing() -> None:
    stream = Stream()
    stream.run("pnpm --filter @acme/web build")
    assert workspace_members(stream.events) is None
    readme = "Run `cargo test -p foo` and `cargo test -p bar`.\n"
    stream.read("/home/dev/.cargo/registry/src/x/README.md", _numbered(readme))
    stream.read(f"{PROJECT}/node_modules/x/README.md", _numbered(readme))
    assert workspace_members(stream.events) is None


async def test_the_rules_extractor_keeps_it_as_a_project_fact() -> None:
    stream = Stream()
    stream.user("build both")
    stream.run("cargo build -p server && cargo build -p client")
    found = {c.key: c for c in await RulesExtractor().extract(stream.episode(), stream.events)}
    assert found[KEY].type is MemoryType.PROJECT_FACT
