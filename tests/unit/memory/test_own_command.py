"""What the project is when its sessions show it is a command-line program of its own name,
with a command-line module in its code: every ecosystem alike, and where it must not fire."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import T0, _extract, _said

#: (ecosystem, the project's folder, its files git listed, the user's question)
PROGRAMS = [
    ("rust", "tally", ["src/cli/mod.rs", "src/cli/export.rs", "src/main.rs"], "tally export"),
    ("go", "ferry", ["cmd/ferry/main.go", "internal/sync.go", "internal/pull.go"], "ferry pull"),
    ("python", "ledgerctl", ["ledgerctl/commands/post.py", "ledgerctl/books.py"], "ledgerctl post"),
]


def _session(folder: str, files: list[str], asked: str) -> Session:
    session = Session(f"/home/dev/{folder}", "s1", T0 + timedelta(days=1))
    session.user(f"Should `{asked} --dry-run` print the plan first?")
    session.run("git status --short", 0, "".join(f" M {path}\n" for path in files))
    return session


@pytest.mark.parametrize(
    ("eco", "folder", "files", "asked"), PROGRAMS, ids=[p[0] for p in PROGRAMS]
)
async def test_the_program_of_the_folder_s_name_with_a_cli_module_is_what_the_project_is(
    eco: str, folder: str, files: list[str], asked: str
) -> None:
    said = _said(await _extract(_session(folder, files, asked)), "about")

    assert len(said) == 1
    assert said[0].startswith(f"The project `{folder}` (its folder's name) is a command-line")
    assert f"`{asked} --dry-run`" in said[0]


async def test_a_tool_of_the_folder_s_name_with_no_cli_module_says_nothing() -> None:
    # A folder of Terraform configurations named after the tool that applies them.
    files = ["modules/net/main.tf", "scripts/plan.py", "scripts/apply.py"]

    assert _said(await _extract(_session("terraform", files, "terraform plan")), "about") == []


async def test_another_program_s_command_or_an_option_says_nothing() -> None:
    files = ["src/cli/mod.rs", "src/cli/export.rs"]
    other = _said(await _extract(_session("tally", files, "cargo build")), "about")
    option = _said(await _extract(_session("tally", files, "tally --version")), "about")

    assert not any("command-line program" in text for text in other + option)
