"""The embedding model's files: found without importing anything heavy, and the fix named."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from squirrel_core import model_files


def test_the_installed_model_is_found_with_its_files() -> None:
    folder = model_files.packaged_model_dir()
    if folder is None:  # a plain install: the state is named, not an error
        assert "not installed" in (model_files.model_problem() or "")
        return
    assert model_files.model_problem() is None
    assert all((folder / name).is_file() for name in model_files.REQUIRED_FILES)


def test_the_fix_installs_the_torch_free_way_into_this_environment() -> None:
    argv = model_files.install_argv()
    assert "--no-deps" in argv and model_files.MODEL_REQUIREMENT in argv
    assert sys.executable in argv
    assert model_files.install_command() == " ".join(argv)


def _model_folder(folder: Path, names: tuple[str, ...] = model_files.REQUIRED_FILES) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_bytes(b"{}")
    return folder


def test_the_model_in_squirrels_wheel_comes_first_and_a_broken_one_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundled = _model_folder(tmp_path / "minilm_model")
    package = _model_folder(tmp_path / "gt" / "model")
    monkeypatch.setattr(model_files, "BUNDLED_MODEL_DIR", bundled)
    monkeypatch.setattr(model_files, "_model_package_dir", lambda: package)
    assert model_files.packaged_model_dir() == bundled
    assert model_files.model_problem() is None

    (bundled / "model.safetensors").unlink()  # a damaged copy: the complete package is used
    assert model_files.packaged_model_dir() == package

    monkeypatch.setattr(model_files, "_model_package_dir", lambda: None)
    assert model_files.packaged_model_dir() == bundled
    assert "model.safetensors missing" in (model_files.model_problem() or "")

    monkeypatch.setattr(model_files, "BUNDLED_MODEL_DIR", tmp_path / "absent")
    assert model_files.packaged_model_dir() is None
    assert "not installed" in (model_files.model_problem() or "")
