"""Each brief line a session starts with carries the memory it was rendered from, so the served
log records it and the session judges it like any served memory; with the team, each line keeps
the id its own side gave it. Made-up projects: a Python service and a Rust crate."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_gateway import hook_context
from squirrel_gateway.backend import ProjectBriefData
from squirrel_gateway.schemas import ModuleSummary
from squirrel_gateway.team_merge import merged_brief
from tests.unit.gateway.fakes import FakeBackend

# (facts, a module), each with its memory id.
PYTHON = (
    [("Framework: Built with FastAPI; routes live in app/routes/.", "mem_py1")],
    ("billing", "Charges customers and issues refunds.", "billing/core.py", "mem_py2"),
)
RUST = (
    [("Framework: The HTTP server is built on axum (src/server.rs).", "mem_rs1")],
    ("parser", "Parses the TOML manifests.", "src/parser/mod.rs", "mem_rs2"),
)
T0 = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.mark.parametrize("project", [PYTHON, RUST], ids=["python", "rust"])
async def test_a_start_serves_each_brief_line_with_its_memory(
    tmp_path: Path,
    project: tuple[list[tuple[str, str]], tuple[str, str, str, str]],
) -> None:
    facts, (name, summary, path, module_id) = project
    backend = FakeBackend(
        roots=[str(tmp_path)],
        key_facts=[text for text, _ in facts],
        modules=[ModuleSummary(name=name, paths=[path], summary=summary)],
        brief_memory_ids=[*(i for _, i in facts), module_id],
    )
    start = await hook_context.session_start(
        backend, project_id=str(tmp_path), user_id=None, budget=600
    )
    served = {s.memory_id: s.content for s in start.served if s.type == "project_fact"}
    assert set(served) == {*(i for _, i in facts), module_id}
    assert served[facts[0][1]] == facts[0][0]
    assert path in served[module_id]


async def test_a_brief_that_names_no_memory_serves_lines_without_one(tmp_path: Path) -> None:
    backend = FakeBackend(roots=[str(tmp_path)], key_facts=[PYTHON[0][0][0]])
    start = await hook_context.session_start(
        backend, project_id=str(tmp_path), user_id=None, budget=600
    )
    assert [s.memory_id for s in start.served] == [""]


def _brief(facts: list[tuple[str, str]], module: tuple[str, str, str, str]) -> ProjectBriefData:
    name, summary, path, module_id = module
    return ProjectBriefData(
        mode="core",
        project_id="p",
        generated_at=T0,
        modules=[ModuleSummary(name=name, paths=[path], summary=summary)],
        key_facts=[text for text, _ in facts],
        key_fact_memory_ids=[i for _, i in facts],
        module_memory_ids=[module_id],
    )


def test_the_team_brief_keeps_each_line_s_memory() -> None:
    mine, shared = _brief(*PYTHON), _brief(*RUST)
    merged = merged_brief(mine, shared)
    assert [merged.memory_id_of(f) for f in merged.key_facts] == ["mem_py1", "mem_rs1"]
    assert [merged.memory_id_of(m) for m in merged.modules] == ["mem_py2", "mem_rs2"]
    # The same fact on both sides is shown once, with local memory's id.
    same = merged_brief(mine, _brief(PYTHON[0], RUST[1]))
    assert list(same.key_facts) == [PYTHON[0][0][0]]
    assert same.memory_id_of(PYTHON[0][0][0]) == "mem_py1"
