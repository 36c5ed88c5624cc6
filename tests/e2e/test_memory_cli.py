"""Manual memory through the real `sqrl` against running services."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PATIENCE_SECONDS
from tests.e2e.started import Started, started

pytestmark = pytest.mark.e2e

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Started]:
    """Services shared by the tests that write only into a project of their own."""
    with started(tmp_path_factory.mktemp("memory-cli")) as services:
        yield services


@pytest.fixture
def live_env(running: Started) -> dict[str, str]:
    """This test's own copy of the environment that reaches the running services."""
    return dict(running.env)


@pytest.fixture
def live(running: Started, live_env: dict[str, str]) -> Sqrl:
    """The real `sqrl` against the running services, with this test's environment."""

    def run(
        *args: str, cwd: Path | None = None, timeout: float = 120.0
    ) -> subprocess.CompletedProcess[str]:
        return running.sqrl(*args, cwd=cwd, env=live_env, timeout=timeout)

    return run


@pytest.fixture
def project(running: Started, tmp_path: Path) -> Path:
    """A repository of this test's own, registered with the running services."""
    return running.project(tmp_path / "repo")


def test_remember_list_history_forget(live: Sqrl, project: Path) -> None:
    made = live(
        "remember",
        "Run tests with `uv run pytest -q`.",
        "--type",
        "recipe",
        "--key",
        "recipe:test",
        "--json",
        cwd=project,
    )
    assert made.returncode == 0, made.stderr
    memory_id = json.loads(made.stdout)["memory"]["memory_id"]
    fixed = live(
        "remember",
        "Run tests with `uv run pytest -q -x`.",
        "--type",
        "recipe",
        "--key",
        "recipe:test",
        "--json",
        cwd=project,
    )
    assert json.loads(fixed.stdout)["updated"] is True
    listed = json.loads(live("memories", "--json", cwd=project).stdout)
    assert [m["memory_id"] for m in listed["memories"]] == [memory_id]
    assert listed["memories"][0]["source"] == "manual"
    history = json.loads(live("history", memory_id, "--json", cwd=project).stdout)
    assert [v["content"] for v in history["versions"]][-1].endswith("-x`.")
    assert len(history["versions"]) == 2
    gone = live("forget", memory_id, cwd=project)
    assert gone.returncode == 0
    assert json.loads(live("memories", "--json", cwd=project).stdout)["memories"] == []
    unknown = live("forget", "mem_does_not_exist", cwd=project)
    assert unknown.returncode == 1 and unknown.stderr.startswith("sqrl: error:")


def test_forgetting_a_forgotten_memory_says_so_and_changes_nothing(
    live: Sqrl, project: Path
) -> None:
    made = live("remember", "Deploys go through `make release`.", "--json", cwd=project)
    memory_id = json.loads(made.stdout)["memory"]["memory_id"]

    first = live("forget", memory_id, "--json", cwd=project)
    again = live("forget", memory_id, "--json", cwd=project)
    said = live("forget", memory_id, cwd=project)

    assert (first.returncode, again.returncode, said.returncode) == (0, 0, 0)
    assert json.loads(first.stdout)["already_forgotten"] is False
    assert json.loads(again.stdout)["already_forgotten"] is True
    assert not said.stdout.startswith("Forgot")
    history = json.loads(live("history", memory_id, "--json", cwd=project).stdout)
    assert [v["action"] for v in history["versions"]].count("forgotten") == 1


def test_memory_commands_outside_a_project_say_how_to_register(live: Sqrl, tmp_path: Path) -> None:
    result = live("memories", cwd=tmp_path)
    assert result.returncode == 1
    assert "sqrl init" in result.stderr and result.stderr.count("\n") == 1


def test_memory_commands_with_services_down_fail_with_one_line(sqrl: Sqrl, repo: Path) -> None:
    assert sqrl("init", cwd=repo).returncode == 0
    result = sqrl("memories", cwd=repo)
    assert result.returncode == 1
    assert "sqrl up" in result.stderr and result.stderr.count("\n") == 1


def test_two_memories_with_the_same_first_six_words_are_both_kept(
    live: Sqrl, project: Path
) -> None:
    first = live("remember", "Run the tests with pytest -x from the repo root", cwd=project)
    second = live("remember", "Run the tests with pytest -x after activating the venv", cwd=project)
    assert first.stdout.startswith("Added ") and second.stdout.startswith("Added "), second
    same = live(
        "remember", "Run the tests with pytest -x after activating the venv.", "--json", cwd=project
    )
    answer = json.loads(same.stdout)
    assert answer["outcome"] == "merged" and answer["merged_ids"] == [answer["memory"]["memory_id"]]
    listed = json.loads(live("memories", "--json", cwd=project).stdout)["memories"]
    assert len(listed) == 2
    expected = {"root": "from the repo root", "venv": "after activating the venv"}
    for word, phrase in expected.items():
        found = live("search", f"pytest {word}", "--json", cwd=project)
        assert found.returncode == 0 and phrase in found.stdout, found.stdout


def test_an_id_prefix_is_accepted_and_an_ambiguous_one_lists_the_candidates(
    live: Sqrl, live_env: dict[str, str], project: Path
) -> None:
    ids = [
        json.loads(live("remember", text, "--json", cwd=project).stdout)["memory"]["memory_id"]
        for text in ("Deploys go through make release", "The API lives in src/api")
    ]
    first_diff = next(i for i, (a, b) in enumerate(zip(*ids, strict=True)) if a != b)
    unique = ids[1][: max(first_diff + 1, 8)]
    history = live("history", unique, "--json", cwd=project)
    assert history.returncode == 0, history.stderr
    assert json.loads(history.stdout)["memory"]["memory_id"] == ids[1]
    bare = live("history", unique.removeprefix("mem_"), "--json", cwd=project)
    assert json.loads(bare.stdout)["memory"]["memory_id"] == ids[1]
    common = ids[0][:first_diff]
    assert len(common) >= 8  # both made within the same ~35 years
    ambiguous = live("forget", common, cwd=project)
    assert ambiguous.returncode == 2 and ambiguous.stderr.count("\n") == 1  # a bad argument
    assert ids[0] in ambiguous.stderr and ids[1] in ambiguous.stderr
    live_env["COLUMNS"] = "60"
    table = live("memories", cwd=project)
    handles = [
        m["handle"] for m in json.loads(live("memories", "--json", cwd=project).stdout)["memories"]
    ]
    assert all(handle in table.stdout for handle in handles), table.stdout
    gone = live("forget", unique, cwd=project)
    assert gone.returncode == 0 and ids[1] in gone.stdout


def _shop(repo: Path) -> None:
    """A small repository with a few manifests, a README and a CI file."""
    (repo / "package.json").write_text(
        json.dumps(
            {
                "name": "shop-web",
                "scripts": {"test": "vitest run", "build": "vite build", "dev": "vite"},
                "dependencies": {"react": "^18.2.0", "express": "^4.19.0"},
                "devDependencies": {"vitest": "^1.6.0", "typescript": "^5.4.0"},
                "engines": {"node": ">=20"},
            }
        )
    )
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "shop-api"\nrequires-python = ">=3.12"\n'
        'dependencies = ["fastapi>=0.110", "sqlalchemy>=2.0"]\n'
        "[tool.ruff]\nline-length = 100\n"
    )
    (repo / "Makefile").write_text("test:\n\tpytest -q\nlint:\n\truff check .\n")
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text(
        "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - run: make lint\n      - run: make test\n"
    )
    (repo / "README.md").write_text(
        "# Shop\n\nA small shop: a React front end and a FastAPI back end.\n\n"
        "Run `make test` before pushing. Deploys go through `make release` on main.\n"
    )
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "shop"], check=True)


def test_a_repository_read_in_one_burst_is_listed_by_short_handles_that_every_command_takes(
    sqrl: Sqrl, sqrl_env: dict[str, str], sqrl_home: Path, repo: Path
) -> None:
    import httpx2  # noqa: PLC0415 - only this test browses

    from squirrel_cli.commands.ui import login_link  # noqa: PLC0415
    from squirrel_core.home import HomeLayout  # noqa: PLC0415

    _shop(repo)
    assert sqrl("init", cwd=repo).returncode == 0
    assert sqrl("up", "--detach").returncode == 0
    try:
        deadline = time.monotonic() + PATIENCE_SECONDS
        listed: list[dict[str, Any]] = []
        while len(listed) < 5 and time.monotonic() < deadline:  # the reading runs at `up`
            time.sleep(0.5)
            listed = json.loads(sqrl("memories", "--json", cwd=repo).stdout)["memories"]
        assert len(listed) >= 5, listed
        ids = [m["memory_id"] for m in listed]
        assert all(m["memory_id"].startswith("mem_01") for m in listed)  # --json: full ids
        # written in one burst: the ids share long starts, the handles do not
        assert max(len(_shared(a, b)) for a in ids for b in ids if a != b) > 12
        handles = [m["handle"] for m in listed]
        assert len(set(handles)) == len(handles)
        assert all(8 <= len(h.removeprefix("mem_")) <= 12 for h in handles), handles
        sqrl_env["COLUMNS"] = "200"
        table = sqrl("memories", cwd=repo).stdout
        assert all(h in table for h in handles) and not any(i in table for i in ids), table
        for memory_id, handle in zip(ids, handles, strict=True):
            seen = sqrl("history", handle, "--json", cwd=repo)
            assert json.loads(seen.stdout)["memory"]["memory_id"] == memory_id, seen.stderr
        short = handles[0].removeprefix("mem_")[:6]
        if sum(h.removeprefix("mem_").startswith(short) for h in handles) == 1:
            bare = json.loads(sqrl("history", short, "--json", cwd=repo).stdout)
            assert bare["memory"]["memory_id"] == ids[0]
        link = login_link(HomeLayout(sqrl_home))
        base = link.split("/ui/")[0]
        with httpx2.Client(timeout=30) as http:
            assert http.get(link).status_code == 303
            project = http.get(f"{base}/ui/project", params={"project": str(repo)})
            assert all(f"id={h}'" in project.text for h in handles), project.text
            page = http.get(f"{base}/ui/memory", params={"project": str(repo), "id": handles[1]})
            assert page.status_code == 200 and ids[1] in page.text
        gone = sqrl("forget", handles[1], cwd=repo)
        assert gone.returncode == 0 and ids[1] in gone.stdout, gone.stderr
        left = json.loads(sqrl("memories", "--json", cwd=repo).stdout)["memories"]
        assert ids[1] not in [m["memory_id"] for m in left]
    finally:
        sqrl("down")


def _shared(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


_PROBE = (
    "import sys\n"
    "from squirrel_cli.main import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)) + '\\n')\n"
    "sys.exit(code)\n"
)
# argv, modules (or packages) it must not load, modules it must have loaded to answer
_IMPORTS: tuple[tuple[list[str], tuple[str, ...], tuple[str, ...]], ...] = (
    (  # into a pipe tables are tab-separated lines: no rich
        ["status"],
        ("mcp", "squirrel_gateway", "rich", "tomli_w", "faiss", "numpy"),
        ("grpc",),
    ),
    (
        ["status", "--json"],
        ("mcp", "squirrel_gateway", "rich", "google.protobuf.json_format", "tomli_w"),
        ("grpc",),
    ),
    (
        ["search", "tests"],
        ("mcp", "squirrel_gateway", "squirrel_memory", "rich", "structlog"),
        ("grpc",),
    ),
    (
        ["search", "tests", "--json"],
        ("mcp", "squirrel_gateway", "squirrel_memory", "rich", "structlog", "tomli_w"),
        ("grpc", "google.protobuf.json_format"),
    ),
    (  # into a pipe the markdown is written as it is: no rich
        ["context", "add an endpoint and its tests"],
        ("mcp", "squirrel_gateway", "squirrel_memory", "structlog", "rich", "tempfile", "tomli_w"),
        ("grpc",),
    ),
    (
        ["memories", "--json"],
        ("mcp", "squirrel_gateway", "rich", "structlog", "tomli_w"),
        ("grpc",),
    ),
)


def test_commands_against_running_services_import_only_what_they_use(
    live: Sqrl, live_env: dict[str, str], project: Path
) -> None:
    """Each command really runs (exit 0, its answer printed) and leaves out what it does not
    use; what it must have loaded to answer keeps the probe honest."""
    remembered = live("remember", "Run the tests with pytest -x from the repo root", cwd=project)
    assert remembered.returncode == 0, remembered.stderr
    for argv, absent, present in _IMPORTS:
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, *argv],
            cwd=project,
            env=live_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, (argv, done.stderr)
        assert done.stdout.strip(), argv
        [line] = [x for x in done.stderr.splitlines() if x.startswith("MODULES ")]
        loaded = set(line.split()[1:])
        unwanted = sorted(m for m in loaded if m in absent or m.split(".")[0] in absent)
        assert not unwanted, (argv, unwanted)
        assert set(present) <= loaded, (argv, sorted(set(present) - loaded))


def test_an_id_too_long_to_be_one_is_refused_in_one_short_line(live: Sqrl, project: Path) -> None:
    """A memory id is 30 characters: one of 100,000 (a paste gone wrong) came back inside the
    NOT_FOUND message, past gRPC's 16 KB metadata limit ("Stream removed"), and one of 5,000
    was printed back whole."""
    made = live("remember", "Deploys go through make release", "--json", cwd=project)
    memory_id = json.loads(made.stdout)["memory"]["memory_id"]
    for command in ("forget", "history", "confirm"):
        for size in (201, 5_000, 100_000):
            done = live(command, "m" * size, cwd=project)
            assert done.returncode == 2, (command, size, done.stderr[:300])
            assert done.stderr == (
                f"sqrl: error: memory_id is {size:,} characters; an id or handle is at most 200"
                " (`sqrl memories` lists them)\n"
            ), (command, size)
    kept = live("history", memory_id, "--json", cwd=project)  # a real id still works
    assert kept.returncode == 0 and json.loads(kept.stdout)["memory"]["memory_id"] == memory_id
    near = live("history", "mem_" + "0" * 196, cwd=project)  # 200: looked up, not found
    assert near.returncode == 1 and "no memory mem_000" in near.stderr
