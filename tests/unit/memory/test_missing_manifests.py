"""A manifest the repository root lacks, as a failed read of it at the root showed: a pitfall
per manifest in any ecosystem; nothing for a sub-folder's path, a file that is no manifest, a
run elsewhere, another program's error or a manifest the session then wrote."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.missing_manifests import missing_manifests
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import one_run, the_one

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def test_a_node_monorepos_missing_root_package_json_is_a_pitfall() -> None:
    session = one_run(
        "/home/dev/site",
        T0,
        "ls && echo --- && cat package.json | head -40",
        0,
        "apps\npackages\n---\ncat: package.json: No such file or directory\n",
    )

    pitfall = the_one(session, "pitfall:no-root")

    assert pitfall.type == MemoryType.PITFALL
    assert pitfall.content == (
        "There is no `package.json` at the repository root (`cat package.json`: No such file "
        "or directory)."
    )


def test_a_rust_workspace_read_with_head_is_read_the_same_way() -> None:
    session = one_run(
        "/home/dev/ferry",
        T0,
        "head -20 Cargo.toml",
        1,
        "head: cannot open 'Cargo.toml' (No such file or directory)\n",
    )

    (found,) = missing_manifests(session.events)

    assert found.content == (
        "There is no `Cargo.toml` at the repository root (`head Cargo.toml`: No such file or "
        "directory)."
    )


@pytest.mark.parametrize(
    ("command", "output", "cwd"),
    [
        # a sub-folder's manifest, a file that is no manifest, a shell in a sub-folder
        ("cat web/package.json", "cat: web/package.json: No such file or directory\n", None),
        ("cat notes.txt", "cat: notes.txt: No such file or directory\n", None),
        ("cat package.json", "cat: package.json: No such file or directory\n", "/home/dev/x/web"),
        # another repository, another program's error about a file it was not asked to read
        (
            "cd ../other && cat package.json",
            "cat: package.json: No such file or directory\n",
            None,
        ),
        ("npm run build", "sh: package.json: No such file or directory\n", None),
    ],
)
def test_nothing_else_says_the_root_lacks_a_manifest(
    command: str, output: str, cwd: str | None
) -> None:
    session = one_run("/home/dev/x", T0, command, 1, output, cwd=cwd)

    assert missing_manifests(session.events) == []


def test_a_manifest_the_session_then_writes_is_not_missing() -> None:
    session = one_run(
        "/home/dev/x",
        T0,
        "cat pyproject.toml",
        1,
        "cat: pyproject.toml: No such file or directory\n",
    )
    session.write("pyproject.toml", "[project]\nname = 'x'\n")

    assert missing_manifests(session.events) == []


@pytest.mark.parametrize(
    "command",
    [
        # the shell moved into a sub-folder first: the sub-folder lacks it, not the root
        "cd web && cat package.json",
        "cd crates/core; head -5 Cargo.toml",
        "pushd api && cat composer.json",
    ],
)
def test_a_read_after_moving_into_a_sub_folder_says_nothing_of_the_root(command: str) -> None:
    name = command.rsplit(" ", 1)[1]
    output = f"{command.split()[-2]}: {name}: No such file or directory\n"
    session = one_run("/home/dev/x", T0, command, 1, output)

    assert missing_manifests(session.events) == []
