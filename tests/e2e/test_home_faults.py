"""The home's own files damaged by hand, a disk fault or a sync tool, through the real `sqrl`:
each command says in one line what is wrong and what to do, never a traceback, and nothing is
lost. `projects.json` not UTF-8 or with `"projects"` not a list (a string was read as one
project per character), a store record whose location is not a word, and an auth token that is
not text or not one word of printable ASCII (which no gRPC call can carry)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr + done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture
def home(sqrl: Sqrl, repo: Path, sqrl_home: Path) -> Path:
    assert sqrl("init", "--no-mcp", cwd=repo).returncode == 0
    return sqrl_home


@pytest.mark.parametrize(
    ("body", "says"),
    [(b"\xff\xfe{}", "not UTF-8"), (b'{"projects": "abc"}', "not a list")],
)
def test_a_damaged_project_list_is_one_line(
    sqrl: Sqrl, repo: Path, home: Path, body: bytes, says: str
) -> None:
    (home / "projects.json").write_bytes(body)
    for args in (("status",), ("init", "--no-mcp"), ("projects",)):
        done = sqrl(*args, cwd=repo)
        assert done.returncode != 0
        assert says in _one_line(done)
    doctor = sqrl("doctor", cwd=repo)
    assert doctor.returncode != 0 and "Traceback" not in doctor.stderr
    assert any(says in line for line in doctor.stdout.splitlines() if "projects.json" in line)
    assert (home / "projects.json").read_bytes() == body  # left for the user to mend


def test_a_store_record_with_a_strange_location_keeps_the_store(
    sqrl: Sqrl, repo: Path, home: Path
) -> None:
    marker = (repo / ".ctx" / "owner.json").read_text()
    record = {"stores": {str(repo): {"store_id": "x", "location": ["repo"]}}}
    (home / "stores.json").write_text(json.dumps(record))
    done = sqrl("init", "--no-mcp", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (repo / ".ctx" / "owner.json").read_text() == marker  # the same store, not set aside
    assert not list(repo.glob(".ctx.foreign-*"))
    assert json.loads((home / "stores.json").read_text())["stores"][str(repo)]["location"] == (
        "repo"
    )


@pytest.mark.parametrize("body", [b"\xff\x00token", b"two words\nand lines"])
def test_a_damaged_token_is_one_line_and_doctor_names_it(
    sqrl: Sqrl, repo: Path, home: Path, body: bytes
) -> None:
    (home / "token").write_bytes(body)
    for args in (("token",), ("search", "routes"), ("up", "--detach")):
        done = sqrl(*args, cwd=repo, timeout=180)
        assert done.returncode != 0
        assert "auth token file" in _one_line(done)
    doctor = sqrl("doctor", cwd=repo)
    assert doctor.returncode != 0
    assert any(line.startswith("✗ token: the auth token") for line in doctor.stdout.splitlines())


def test_init_inside_a_folder_named_in_another_encoding_is_one_line(
    sqrl: Sqrl, tmp_path: Path, sqrl_home: Path
) -> None:
    """A folder whose name is Latin-1 bytes (`caf\\xe9`): `sqrl init` run inside it (`.`) stopped
    with a traceback when the store's id was hashed; it is refused with one line naming it."""
    folder = Path(os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9"))
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    done = sqrl("init", "--no-mcp", cwd=folder)
    assert done.returncode == 2
    assert "caf\\xe9 is not UTF-8 text" in _one_line(done)
    assert not (folder / ".ctx").exists()
