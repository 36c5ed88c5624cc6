"""Which package manager runs a package.json's scripts, as the session saw it."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.script_managers import (
    managers_used,
    script_manager,
    seen_locks,
)
from tests.unit.memory.test_rules_extractor import PROJECT, Stream

SCRIPTS = {"scripts": {"test": "vitest run", "lint": "eslint ."}}


def test_the_package_manager_field_comes_first() -> None:
    data = {**SCRIPTS, "packageManager": "pnpm@9.1.0"}
    assert script_manager(data, "", {"": "yarn"}, {"bun"}) == "pnpm"


def test_a_lock_file_of_the_folder_or_one_above_it_names_the_manager() -> None:
    assert script_manager(SCRIPTS, "", {"": "bun"}, set()) == "bun"
    assert script_manager(SCRIPTS, "apps/web", {"": "pnpm"}, set()) == "pnpm"
    assert script_manager(SCRIPTS, "apps/web", {"apps/web": "yarn", "": "pnpm"}, set()) == "yarn"


def test_lock_files_of_two_managers_leave_it_unknown() -> None:
    assert script_manager(SCRIPTS, "", {"": ""}, {"npm"}) == ""


def test_the_only_manager_the_commands_used_then_the_scripts_bodies_name_it() -> None:
    assert script_manager(SCRIPTS, "", {}, {"yarn"}) == "yarn"
    bodies = {"scripts": {"check": "npm run lint && npm test", "lint": "eslint ."}}
    assert script_manager(bodies, "", {}, set()) == "npm"
    mixed = {"scripts": {"a": "npm run b", "b": "yarn run c"}}
    assert script_manager(mixed, "", {}, set()) == ""


def test_nothing_seen_names_no_manager() -> None:
    assert script_manager(SCRIPTS, "", {}, set()) == ""
    assert script_manager(SCRIPTS, "", {}, {"bun", "pnpm"}) == ""


def test_a_listing_of_the_root_shows_its_lock_file() -> None:
    stream = Stream()
    stream.run("ls && cat package.json | head -40", 0, 'README.md\nbun.lock\n{\n  "a": 1\n}\n')
    stream.run("ls -a", 0, ".\n..\nyarn.lock\n")

    assert seen_locks(stream.events) == {"": ""}  # two managers at the root: neither


@pytest.mark.parametrize(
    "command",
    [
        "ls web && cat package.json",  # another folder's names
        "cd ../other && ls",  # after a move
    ],
)
def test_a_listing_of_another_folder_places_no_lock_at_the_root(command: str) -> None:
    stream = Stream()
    stream.run(command, 0, "bun.lock\npackage.json\n")

    assert "" not in seen_locks(stream.events)


def test_a_lock_file_an_event_touched_counts_in_its_folder() -> None:
    stream = Stream()
    stream.add("tool_result", {"tool": "Bash", "output": ""}, ("apps/web/pnpm-lock.yaml",))

    assert seen_locks(stream.events) == {"apps/web": "pnpm"}


def test_npm_counts_only_when_typed_as_npm() -> None:
    stream = Stream()
    stream.run("npx prettier --check .", 0, "")
    assert managers_used(stream.events) == set()
    stream.run("npm ci", 0, "")
    stream.run("bun run build", 0, "")
    assert managers_used(stream.events) == {"npm", "bun"}


def test_a_manager_that_failed_to_start_is_not_the_projects() -> None:
    stream = Stream()
    stream.run("pnpm install", 127, "zsh: command not found: pnpm")
    stream.run("yarn install", 0, "Done in 3.2s.")

    assert managers_used(stream.events) == {"yarn"}


def test_a_bare_listing_run_in_a_sub_folder_is_that_folders() -> None:
    stream = Stream()
    stream.add(
        "command_run",
        {
            "command": "ls && cat package.json",
            "cwd": f"{PROJECT}/web",
            "exit_code": 0,
            "output": 'bun.lock\n{\n  "a": 1\n}\n',
        },
    )

    assert "" not in seen_locks(stream.events)
