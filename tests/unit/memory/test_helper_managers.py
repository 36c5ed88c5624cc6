"""A package manager that only added packages or ran one-off tools while the project's checks
ran through another ecosystem's tools (`npm install -D husky` beside `./gradlew test`) is a
helper of the project, not its package manager; a manager that ran the project's own work, or
the only ecosystem seen, still is. And a command that sets something up (`npx husky init`) is
no step of the test routine the user asked for."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.asked_routines import asked_routines
from squirrel_memory.extractors.command_evidence import evidence_candidates
from tests.unit.memory.session_builder import Session, scripted_session

ROOT = "/home/dev/ledger-svc"
T0 = datetime(2026, 6, 1, tzinfo=UTC)
MANAGER = "package_manager"


def _manager_facts(steps: Sequence[tuple[str, Any]]) -> list[str]:
    events = scripted_session(ROOT, T0, "s", steps)
    return [c.content for c in evidence_candidates(events) if c.key.endswith(MANAGER)]


@pytest.mark.parametrize(
    ("added", "checked"),
    [
        ("npm install --save-dev @commitlint/cli husky", "./gradlew test"),
        ("pip install -r docs/requirements.txt", "cargo test"),
        ("npm ci", "go test ./..."),
    ],
)
def test_a_manager_that_only_added_packages_beside_another_ecosystems_checks_is_no_fact(
    added: str, checked: str
) -> None:
    facts = _manager_facts(
        [
            ("run", (added, 0, "added 104 packages")),
            ("run", ("npx husky init", 0, "")),
            ("run", (checked, 0, "ok")),
        ]
    )
    assert not any(f"through {added.split(maxsplit=1)[0]}" in f for f in facts)


@pytest.mark.parametrize(
    "steps",
    [
        # the manager ran the project's own tests
        [("npm ci", "added 10 packages"), ("npm test", "Tests: 4 passed")],
        # only installs, and no check of another ecosystem ran
        [("npm ci", "added 10 packages"), ("npm ci", "added 10 packages")],
    ],
)
def test_a_manager_that_drives_the_project_is_still_the_fact(
    steps: list[tuple[str, str]],
) -> None:
    facts = _manager_facts([("run", (command, 0, output)) for command, output in steps])
    assert any("run through npm" in f for f in facts)


def test_a_setup_command_is_no_step_of_the_test_routine() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Add commitlint with husky, then run the tests.")
    session.run("npx husky init", 0, "")
    session.run("./gradlew test", 0, "BUILD SUCCESSFUL")
    session.say("Done.")
    found = {c.key: c.content for c in asked_routines(session.events)}
    assert found == {"recipe:asked:test": "To run the tests (as asked): `./gradlew test`."}


@pytest.mark.parametrize(
    ("manager", "steps"),
    [
        # only asked a helper server for its usage, twice, the first after looking it up
        (
            "bun",
            [
                ("command -v bun && bun run docs-server --help 2>&1 | head -5", "error: no cache"),
                ("TMP=/tmp/x bun run docs-server --help | tail -3", "Usage: docs-server"),
            ],
        ),
        # only versions printed, whatever else ran
        ("uv", [("uv run lookup-tool --version", "1.0"), ("uv --version", "uv 0.5")]),
        # started a program the table does not know while another ecosystem built the project
        (
            "bun",
            [
                ("bun run lens-server", "listening"),
                ("go build ./...", ""),
                ("bun run lens-server", "listening"),
                ("go test ./...", "ok"),
            ],
        ),
    ],
)
def test_a_manager_through_which_no_project_work_went_is_no_fact(
    manager: str, steps: list[tuple[str, str]]
) -> None:
    facts = _manager_facts([("run", (command, 0, output)) for command, output in steps])
    assert not any(f"through {manager}" in f for f in facts)


@pytest.mark.parametrize(
    "steps",
    [
        # a script of the manager's own, its manifest listed, beside another ecosystem's build
        [
            ("ls", "package.json\nsrc\n"),
            ("npm run dev", "ready"),
            ("cargo build", ""),
            ("npm run dev", "ready"),
        ],
        # a help probe beside the project's tests through the manager
        [("npm run lint -- --help", "usage"), ("npm test", "Tests: 4 passed")],
    ],
)
def test_a_manager_with_work_of_its_own_is_still_the_fact(steps: list[tuple[str, str]]) -> None:
    facts = _manager_facts([("run", (command, 0, output)) for command, output in steps])
    assert any("run through npm" in f for f in facts)


def test_a_manager_that_only_started_unknown_programs_needs_its_manifest_at_the_root() -> None:
    started = [
        ("run", ("bun run docs-server", 0, "listening on 4000")),
        ("run", ("bun run docs-server --port 4001", 0, "listening on 4001")),
    ]
    assert not any("through bun" in f for f in _manager_facts(started))
    # a listing of the root shows its manifest or lock file: the project's own programs
    listed = [("run", ("ls", 0, "bun.lock\npackage.json\nsrc\n")), *started]
    assert any("run through bun" in f for f in _manager_facts(listed))
    # a run of the project's own script by its path is the project's work
    script = [("run", ("bun run tsx scripts/migrate.ts", 0, "done")), *started]
    assert any("run through bun" in f for f in _manager_facts(script))
    # another ecosystem's manifest is no backing
    other = [("run", ("ls", 0, "go.mod\nmain.go\n")), *started]
    assert not any("through bun" in f for f in _manager_facts(other))
