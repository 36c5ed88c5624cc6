"""Every read at its default budget shows something when memories exist, even very long ones."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import load_token
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.home import HomeLayout

pytestmark = pytest.mark.e2e

INDEX_WAIT_SECONDS = 180.0

Sqrl = Callable[..., subprocess.CompletedProcess[str]]

LONG = (
    "git push says the current branch has no upstream branch: the new branch was never pushed, "
    "so the first push must set the upstream with `git push -u origin <branch>`; after that a "
    "plain push works. The error text mentions `--set-upstream`, which is the same flag. "
)


def memories() -> list[pb.RememberRequest]:
    files = [f"services/deep/folder/name/module_{i}.py" for i in range(7)]
    made = [
        pb.RememberRequest(
            type=memory_pb2.MEMORY_TYPE_PITFALL,
            key=f"pitfall:{n}",
            content=f"Pitfall {n}: " + LONG * 6,
            file_paths=files,
        )
        for n in range(4)
    ]
    made += [
        pb.RememberRequest(
            type=memory_pb2.MEMORY_TYPE_USER_STYLE,
            key=f"style:{n}",
            content=f"Style {n}: prefers small pure functions with docstrings; " + LONG * 4,
        )
        for n in range(3)
    ]
    made += [
        pb.RememberRequest(
            type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
            key=f"fact:{n}",
            content=f"Fact {n}: the deploy pipeline pushes branches to origin; " + LONG * 5,
        )
        for n in range(3)
    ]
    return made


def remember_all(home: Path, project: Path) -> None:
    layout = HomeLayout(home)

    async def run() -> None:
        client = MemoryClient(
            open_channel(target_of(layout.service_file("memory"))), load_token(layout.token)
        )
        try:
            for request in memories():
                request.project_id = str(project)
                await client.call(client.stub.Remember, request)
            # Reads are judged with vectors: until the model has loaded and embedded these
            # (seconds on a loaded machine), task context has lexical relevance only.
            deadline = time.monotonic() + INDEX_WAIT_SECONDS
            while True:
                status = await client.call(
                    client.stub.GetProcessingStatus,
                    pb.GetProcessingStatusRequest(project_id=str(project)),
                )
                loaded = not status.embedder_loading
                if loaded and status.projects and status.projects[0].vectors_pending == 0:
                    break
                assert time.monotonic() < deadline, "the vector index never took the memories in"
                await asyncio.sleep(0.2)
        finally:
            await client.close()

    asyncio.run(run())


@pytest.fixture
def services(sqrl: Sqrl, repo: Path, sqrl_home: Path) -> Iterator[None]:
    assert sqrl("init", cwd=repo).returncode == 0
    started = sqrl("up", "--detach")
    assert started.returncode == 0, started.stderr
    try:
        remember_all(sqrl_home, repo)
        yield
    finally:
        sqrl("down")


def read(sqrl: Sqrl, repo: Path, *args: str) -> dict[str, Any]:
    done = sqrl(*args, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_every_read_shows_items_at_default_and_small_budgets(
    services: None, sqrl: Sqrl, repo: Path
) -> None:
    query = "git push says the current branch has no upstream branch"
    search = read(sqrl, repo, "search", query)
    assert len(search["search"]["results"]) >= 2
    assert "0 of" not in search["markdown"]
    pitfalls = read(sqrl, repo, "view", "pitfalls")
    assert len(pitfalls["items"]) >= 2
    assert "…" in pitfalls["markdown"] and "⚡ Budget:" in pitfalls["markdown"]
    style = read(sqrl, repo, "view", "style")
    assert len(style["items"]) >= 2
    brief = read(sqrl, repo, "view", "brief")
    assert len(brief["key_facts"]) >= 2
    context = read(sqrl, repo, "context", "fix git push with no upstream branch")
    assert len(context["selected_memories"]) >= 1

    # Smaller budgets, down to the least allowed, still show one item each.
    for budget in ("48", "256"):
        small = read(sqrl, repo, "search", "git push upstream branch", "--budget", budget)
        assert small["search"]["results"], small["markdown"]
        for which, field in (("pitfalls", "items"), ("style", "items"), ("brief", "key_facts")):
            view = read(sqrl, repo, "view", which, "--budget", budget)
            assert view[field], (which, view["markdown"])
            assert "items shown" in view["markdown"]
    plain = sqrl("search", query, "--budget", "48", cwd=repo)
    assert plain.returncode == 0 and "0 of" not in plain.stdout
