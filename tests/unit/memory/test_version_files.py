"""One version written in several files, as a bump in one session changed it in each, is a
pitfall naming the files; a bump of one file, a dependency's version, a language version, a
failed edit and bumps to different versions are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.version_files import bumped, version_files
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 2, 9, 0, tzinfo=UTC)
PY = "/home/dev/recall"  # a Python package with a manifest and a module version
JS = "/home/dev/plugin"  # a plugin with a package file and a manifest


@pytest.mark.parametrize(
    ("before", "after", "change"),
    [
        ('version = "0.16.0"', 'version = "0.16.1"', ("version", "0.16.0", "0.16.1")),
        ("__version__ = '1.2.3'", "__version__ = '1.3.0'", ("__version__", "1.2.3", "1.3.0")),
        ('  "version": "2.0.0",', '  "version": "2.1.0-rc.1",', ("version", "2.0.0", "2.1.0-rc.1")),
        ("<version>4.1.0</version>", "<version>4.2.0</version>", ("<version>", "4.1.0", "4.2.0")),
        ('VERSION = "3.4.5"', 'VERSION = "3.4.6"', ("VERSION", "3.4.5", "3.4.6")),
    ],
)
def test_a_version_line_changed_is_a_bump(
    before: str, after: str, change: tuple[str, str, str]
) -> None:
    assert bumped(before, after) == change


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('  "react": "18.2.0",', '  "react": "18.3.0",'),  # a dependency
        ('python_version = "3.11.4"', 'python_version = "3.12.1"'),  # a language version
        ('target-version = "0.1.0"', 'target-version = "0.2.0"'),
        ('version = "0.16.0"', 'version = "0.16.0"\nname = "recall"'),  # unchanged
        ('version = "1"', 'version = "2"'),  # no release version
    ],
)
def test_other_lines_are_no_bump(before: str, after: str) -> None:
    assert bumped(before, after) is None


def _bump(session: Session, path: str, line: str, old: str, new: str) -> None:
    session.edit_lines(path, line.format(old), line.format(new))


def test_one_version_bumped_in_two_files_is_a_pitfall() -> None:
    session = Session(PY, "s1", T0)
    session.user("cut a patch release")
    _bump(session, "pyproject.toml", 'version = "{}"', "0.16.0", "0.16.1")
    _bump(session, "src/recall/__init__.py", '__version__ = "{}"', "0.16.0", "0.16.1")

    (found,) = version_files(session.events)

    assert found.content == (
        "The version is written in 2 files, which a bump changed together (0.16.0 → 0.16.1): "
        "`pyproject.toml` (`version`), `src/recall/__init__.py` (`__version__`); a bump that "
        "misses one leaves them disagreeing."
    )
    assert found.files == ("pyproject.toml", "src/recall/__init__.py")
    kept = [c for c in session.extracted() if c.key == "pitfall:version_files"]
    assert [c.type for c in kept] == [MemoryType.PITFALL]


def test_a_bump_of_one_file_is_no_pitfall() -> None:
    session = Session(JS, "s1", T0)
    _bump(session, "package.json", '  "version": "{}",', "1.4.0", "1.5.0")
    _bump(session, "package.json", '  "version": "{}",', "1.5.0", "1.5.1")

    assert version_files(session.events) == []


def test_bumps_to_different_versions_are_no_pitfall() -> None:
    # Two packages of a workspace, each on its own version.
    session = Session(JS, "s1", T0)
    _bump(session, "packages/core/package.json", '  "version": "{}",', "1.4.0", "1.5.0")
    _bump(session, "packages/cli/package.json", '  "version": "{}",', "0.9.0", "0.9.1")

    assert version_files(session.events) == []


def test_two_manifests_bumping_one_dependency_are_no_pitfall() -> None:
    session = Session(JS, "s1", T0)
    _bump(session, "packages/core/package.json", '  "zod": "{}",', "3.22.0", "3.23.0")
    _bump(session, "packages/cli/package.json", '  "zod": "{}",', "3.22.0", "3.23.0")

    assert version_files(session.events) == []


def test_a_failed_edit_does_not_count() -> None:
    session = Session(PY, "s1", T0)
    use = "t-failed"
    session.add(
        "tool_call",
        {
            "tool": "Edit",
            "tool_use_id": use,
            "input": {
                "file_path": f"{PY}/pyproject.toml",
                "old_string": 'version = "0.16.0"',
                "new_string": 'version = "0.16.1"',
            },
        },
    )
    session.add(
        "tool_result",
        {
            "tool": "Edit",
            "tool_use_id": use,
            "output": "File has not been read yet.",
            "is_error": True,
        },
    )
    _bump(session, "src/recall/__init__.py", '__version__ = "{}"', "0.16.0", "0.16.1")

    assert version_files(session.events) == []
