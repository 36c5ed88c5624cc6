"""The test run caches bytecode even where PYTHONDONTWRITEBYTECODE is set (tests/conftest.py):
the processes its tests start then read Squirrel's modules compiled instead of compiling them."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest


def test_a_module_imported_during_a_test_leaves_its_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    (tmp_path / "cached_probe_module.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "cached_probe_module", raising=False)
    assert importlib.import_module("cached_probe_module").VALUE == 1
    assert list((tmp_path / "__pycache__").glob("cached_probe_module.*.pyc"))
