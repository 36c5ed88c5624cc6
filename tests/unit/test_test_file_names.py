"""Test files are named once across the suite: some folders have no `__init__.py`, so pytest
imports their tests by basename, and two files of one name would collide."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def repeated_basenames(root: Path) -> dict[str, list[str]]:
    """Each `test_*.py` basename found more than once below `root`, with its places."""
    places: defaultdict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("test_*.py")):
        places[path.name].append(path.relative_to(root).as_posix())
    return {name: found for name, found in places.items() if len(found) > 1}


def test_no_two_test_files_share_a_basename() -> None:
    assert repeated_basenames(TESTS) == {}


def test_a_repeated_basename_is_found(tmp_path: Path) -> None:
    for folder in ("contract", "unit/cli", "unit/memory"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "contract" / "test_backends.py").write_text("")
    (tmp_path / "unit" / "cli" / "test_backends.py").write_text("")
    (tmp_path / "unit" / "memory" / "test_store.py").write_text("")
    assert repeated_basenames(tmp_path) == {
        "test_backends.py": ["contract/test_backends.py", "unit/cli/test_backends.py"]
    }
