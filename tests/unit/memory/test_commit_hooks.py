"""A git hook the session wrote becomes a project fact naming what it runs and when."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/notes"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=2)

FORMAT_HOOK = (
    "#!/bin/bash\nset -euo pipefail\n\n# format the changelog when it is staged\n\n"
    'if git diff --cached --name-only | grep -q "^CHANGELOG.md$"; then\n'
    "  mdformat CHANGELOG.md\n  git add CHANGELOG.md\nfi\n"
)


async def _said(session: Session) -> list[MemoryCandidate]:
    found: list[MemoryCandidate] = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(await RulesExtractor().extract(episode, session.events))
    return [c for c in found if c.key.startswith("git_hook:")]


def _session() -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("can we add this as a git hook?")
    return session


async def test_a_local_pre_commit_hook_says_what_runs_before_each_commit() -> None:
    session = _session()
    session.write(".git/hooks/pre-commit", FORMAT_HOOK)
    session.run(f"chmod +x {ROOT}/.git/hooks/pre-commit")

    [hook] = await _said(session)
    assert hook.content == (
        "The git hook `.git/hooks/pre-commit` (local to this clone: git keeps no copy of "
        "`.git/hooks/`) runs `mdformat CHANGELOG.md` before each commit when `CHANGELOG.md` "
        "is staged."
    )
    assert hook.type.value == "project_fact" and len(hook.source_event_ids) == 2


@pytest.mark.parametrize(
    ("path", "text", "says"),
    [
        (".husky/pre-commit", "npx lint-staged\n", "runs `npx lint-staged` before each commit."),
        (
            ".husky/pre-push",
            "#!/usr/bin/env sh\nmake test\nmake lint\n",
            "runs `make test` then `make lint` before each push.",
        ),
        (
            ".pre-commit-config.yaml",
            "repos:\n  - repo: https://example.org/hooks\n    hooks:\n      - id: ruff\n"
            "      - id: ruff-format\n",
            "`.pre-commit-config.yaml` lists the pre-commit hooks `ruff`, `ruff-format`, run "
            "before each commit in a clone where `pre-commit install` was run.",
        ),
    ],
)
async def test_tracked_hooks_name_their_commands(path: str, text: str, says: str) -> None:
    session = _session()
    session.write(path, text)

    [hook] = await _said(session)
    assert hook.content.endswith(says) and "local" not in hook.content


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("scripts/pre-commit.md", "mdformat CHANGELOG.md\n"),  # not a hook's place
        (".git/hooks/pre-commit.sample", "mdformat CHANGELOG.md\n"),  # not a hook's name
        (".git/hooks/pre-commit", "#!/bin/sh\n# nothing yet\nexit 0\n"),  # runs nothing
        (".pre-commit-config.yaml", "repos: []\n"),  # names no hook
    ],
)
async def test_other_files_or_empty_hooks_say_nothing(path: str, text: str) -> None:
    session = _session()
    session.write(path, text)

    assert await _said(session) == []


async def test_a_hook_under_git_hooks_never_made_executable_says_nothing() -> None:
    """git skips a hook file it may not execute: written alone, it runs before no commit."""
    session = _session()
    session.write(".git/hooks/pre-commit", FORMAT_HOOK)

    assert await _said(session) == []


@pytest.mark.parametrize(
    ("mode", "said"), [("+x", 1), ("u+x", 1), ("755", 1), ("0755", 1), ("644", 0), ("g+x", 0)]
)
async def test_any_chmod_that_lets_its_owner_run_it_counts(mode: str, said: int) -> None:
    session = _session()
    session.write(".git/hooks/pre-commit", FORMAT_HOOK)
    session.run(f"chmod {mode} .git/hooks/pre-commit")

    assert len(await _said(session)) == said
