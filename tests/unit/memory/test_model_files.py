"""The embedding model's files: found without importing anything heavy, and the fix named."""

from __future__ import annotations

import sys

from squirrel_memory import model_files


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
