"""Every host alike for the rules that read what a session wrote: the same session written by
Claude Code, Codex CLI or Gemini CLI, read by each host's real parser, gives the same
environment-file fact, the same naming convention and the same stale-check lesson, in two
ecosystems each; where one host's session gives none, no host's does.

The sessions are built by `test_host_lessons`' writers: Claude Code's `Write` / `Edit`, Codex
CLI's `apply_patch` (an added file, an updated one's hunk), Gemini CLI's `write_file` /
`replace`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from squirrel_core.events import SourceTool
from squirrel_memory.extractors.env_files import env_files
from squirrel_memory.extractors.file_naming import file_naming
from squirrel_memory.extractors.stale_checks import stale_checks
from tests.unit.memory.test_host_lessons import HOSTS, Change, Run, Say, Step, Write, _read


def _facts(host: SourceTool, steps: Sequence[Step]) -> list[str]:
    return [found.content for found in env_files(_read(host, steps))]


def _conventions(host: SourceTool, steps: Sequence[Step]) -> list[tuple[str, str]]:
    return [(found.key, found.content) for found in file_naming(_read(host, steps))]


def _lessons(host: SourceTool, steps: Sequence[Step]) -> list[str]:
    return [found.content for found in stale_checks(_read(host, steps))]


# --- environment files: a template written whole, variables edited in ------------------------

_DJANGO_TEMPLATE = (
    Write(".env.example", "DATABASE_URL=postgres://app:app@localhost/app\nSECRET_KEY=change-me\n"),
    Say("Added a template of the settings."),
)
_NODE_EDIT = (
    Change(".env", "PORT=3000", "PORT=3000\nREDIS_URL=redis://localhost:6379"),
    Say("The cache reads REDIS_URL now."),
)


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize(
    ("steps", "fact"),
    [
        (
            _DJANGO_TEMPLATE,
            "`.env.example` documents the environment variables `DATABASE_URL` and `SECRET_KEY`.",
        ),
        (_NODE_EDIT, "`.env` sets `REDIS_URL`."),
    ],
    ids=["python-template", "node-edit"],
)
def test_every_host_names_the_variables_an_environment_file_was_given(
    host: SourceTool, steps: tuple[Step, ...], fact: str
) -> None:
    (found,) = _facts(host, steps)
    assert found == fact
    assert "postgres://" not in found and "redis://" not in found  # names, never values


@pytest.mark.parametrize("host", list(HOSTS))
def test_no_host_names_a_file_that_is_no_environment_file(host: SourceTool) -> None:
    """Must not fire: settings documented in a markdown file, and an `.envrc` (a shell file)."""
    steps = (
        Write("docs/settings.md", "DATABASE_URL=postgres://localhost/app\n"),
        Write(".envrc", "export DATABASE_URL=postgres://localhost/app\n"),
    )
    assert _facts(host, steps) == []


# --- naming: a new file written among siblings named the same way ------------------------------

_NOTES = (
    Run("ls posts", 0, "2026-04-01-hello.md\n2026-04-20-roadmap.md\n2026-04-28-q2-review.md\n"),
    Write("posts/2026-05-04-release-notes.md", "# Release notes\n"),
)
_R_STEPS = (
    Run("ls analysis", 0, "01_load.R\n02_clean.R\n03_weights.R\n"),
    Write("analysis/04_model.R", "fit <- lm(y ~ x, data = clean)\n"),
)


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize(
    ("steps", "key"), [(_NOTES, "naming:posts"), (_R_STEPS, "naming:analysis")], ids=["md", "r"]
)
def test_every_host_notes_the_naming_of_a_file_it_wrote_whole(
    host: SourceTool, steps: tuple[Step, ...], key: str
) -> None:
    found = _conventions(host, steps)
    assert [k for k, _ in found] == [key]
    assert found == _conventions(SourceTool.CLAUDE_CODE, steps)


@pytest.mark.parametrize("host", list(HOSTS))
def test_no_host_takes_an_edit_of_an_existing_file_for_a_new_one(host: SourceTool) -> None:
    """Must not fire: the file edited was there already; an edit says nothing of new names."""
    steps = (_NOTES[0], Change("posts/2026-04-20-roadmap.md", "# Roadmap", "# Roadmap (Q2)"))
    assert _conventions(host, steps) == []


# --- stale checks: a check that kept its output until one command ran -------------------------

_PIP = ("pip install .", "pip install --force-reinstall --no-cache-dir .", "notes-cli --help")
_CARGO = ("cargo install --path .", "cargo install --path . --force", "todo --help")


def _stale(install: str, again: str, check: str, between: Step | None = None) -> list[Step]:
    steps: list[Step] = [
        Run(install, 0, "Installed.\n"),
        Run(check, 0, "usage: tool [-h] FILE\n"),
        Run(again, 0, "Installed.\n"),
    ]
    if between is not None:
        steps.append(between)
    return [*steps, Run(check, 0, "usage: tool [-h] [--tag TAG] FILE\n")]


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize("commands", [_PIP, _CARGO], ids=["python", "rust"])
def test_every_host_keeps_the_command_that_changed_a_stale_check(
    host: SourceTool, commands: tuple[str, str, str]
) -> None:
    install, again, check = commands
    assert _lessons(host, _stale(install, again, check)) == [
        f"After `{install}`, `{check}` still printed its old output; `{again}` changed it."
    ]


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize("commands", [_PIP, _CARGO], ids=["python", "rust"])
def test_no_host_credits_the_command_when_a_file_was_edited_in_between(
    host: SourceTool, commands: tuple[str, str, str]
) -> None:
    """Must not fire: the edit may be what changed the output."""
    edit = Change("src/cli.txt", "usage: FILE", "usage: [--tag TAG] FILE")
    assert _lessons(host, _stale(*commands, between=edit)) == []
