"""A convention run in the environment a lock file manages (`uv run pytest` beside `uv.lock`),
and a repository that is a project template; and where each rule must not fire."""

from __future__ import annotations

import pytest

from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


_PY = {
    "pyproject.toml": '[project]\nname = "s"\nrequires-python = ">=3.12"\n'
    '[project.optional-dependencies]\ntest = ["pytest"]\n',
    "s/__init__.py": "def f():\n    return 1\n" * 20,
    "tests/test_s.py": "def test_f():\n    assert True\n",
}


@pytest.mark.parametrize(
    ("lock", "typed"),
    [
        ("uv.lock", "uv run pytest"),
        ("poetry.lock", "poetry run pytest"),
        ("pdm.lock", "pdm run pytest"),
    ],
)
def test_a_lock_file_s_runner_runs_the_convention(
    make_repo: MakeRepo, lock: str, typed: str
) -> None:
    found = _found(make_repo, {**_PY, lock: "# lock\n"})
    assert found["repo:recipe:test"].startswith(f"Run the tests with `{typed}` (the ")


def test_no_lock_file_or_two_leave_the_convention_as_it_is(make_repo: MakeRepo) -> None:
    assert "`pytest`" in _found(make_repo, dict(_PY))["repo:recipe:test"]
    both = {**_PY, "uv.lock": "#\n", "poetry.lock": "#\n"}
    assert "`pytest`" in _found(make_repo, both)["repo:recipe:test"]


def test_a_lock_file_in_another_folder_does_not_wrap_the_root_s_convention(
    make_repo: MakeRepo,
) -> None:
    found = _found(make_repo, {**_PY, "tools/uv.lock": "#\n"})
    assert "`pytest`" in found["repo:recipe:test"]


def test_a_named_command_is_kept_as_named(make_repo: MakeRepo) -> None:
    files = {**_PY, "uv.lock": "#\n", "Makefile": "test:\n\tpytest -q\n"}
    assert "uv run make" not in _found(make_repo, files)["repo:recipe:test"]


@pytest.mark.parametrize(
    ("marker", "tool"), [("cookiecutter.json", "Cookiecutter"), ("copier.yml", "Copier")]
)
def test_a_template_marker_at_the_root_says_the_repository_is_a_template(
    make_repo: MakeRepo, marker: str, tool: str
) -> None:
    files = {marker: "{}\n", "README.md": "# t\n\nA template.\n", "hooks/post.py": "print(1)\n"}
    assert _found(make_repo, files)["repo:template"].startswith(
        f"This repository is a {tool} template ({marker})"
    )


def test_a_template_marker_in_a_sub_folder_is_no_template_repository(make_repo: MakeRepo) -> None:
    files = {**_PY, "templates/svc/cookiecutter.json": "{}\n"}
    assert "repo:template" not in _found(make_repo, files)


_FLAKE = (
    "{\n  outputs = { self, nixpkgs }: {\n    devShells.default = pkgs.mkShell { packages = [ pkgs.go ]; };\n  };\n}\n"
    * 12
)
_GO_SMALL = {
    "go.mod": "module example.com/l\n\ngo 1.22\n",
    "main.go": "package main\n\nfunc main() {}\n" * 4,
}


def test_a_dev_shell_flake_is_not_the_project_s_language(make_repo: MakeRepo) -> None:
    found = _found(make_repo, {**_GO_SMALL, "flake.nix": _FLAKE})
    assert found["repo:stack"].startswith("example.com/l is a Go project")
    assert "Nix" in found["repo:languages"]  # its size is still counted


def test_nix_code_beyond_the_environment_files_is_the_project_s(make_repo: MakeRepo) -> None:
    files = {**_GO_SMALL, "flake.nix": _FLAKE, "hosts/web.nix": _FLAKE, "hosts/db.nix": _FLAKE}
    assert "Nix" in _found(make_repo, files)["repo:stack"]


def test_a_template_tool_s_hooks_are_no_application_code(make_repo: MakeRepo) -> None:
    files = {"cookiecutter.json": "{}\n", "hooks/post_gen_project.py": "print(1)\n" * 20}
    files["tests/test_bake.py"] = "def test_bake():\n    assert True\n"
    assert "hooks" not in _found(make_repo, files).get("repo:layout", "")


def test_a_hooks_folder_outside_a_template_is_still_code(make_repo: MakeRepo) -> None:
    files = {**_PY, "hooks/use_thing.py": "def use():\n    return 2\n" * 40}
    assert "`hooks/`" in _found(make_repo, files)["repo:layout"]
