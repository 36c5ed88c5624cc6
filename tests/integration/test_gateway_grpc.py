"""The gateway's gRPC API over a fake memory service: budgets, reports, errors, paging, CLI reads."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from fake_memory import (  # type: ignore[import-not-found]
    FakeMemoryServicer,
    register_projects,
    running_fake_memory,
    selected,
)
from mcp import Client

from squirrel.v1 import gateway_service_pb2, memory_pb2, memory_service_pb2, views_pb2
from squirrel_core.clients import GatewayClient, MemoryClient, open_channel
from squirrel_core.errors import (
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
    UnavailableError,
)
from squirrel_core.home import HomeLayout
from squirrel_core.rpc import GrpcService
from squirrel_core.settings import Settings
from squirrel_core.tokens import estimate_tokens
from squirrel_gateway import server as gateway_server
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.responses import fetch_budget
from squirrel_gateway.tools import build_mcp_server
from tests.integration.conftest import running
from tests.mcp_host import model_reads

FOOTER = re.compile(r"📏 ~([\d,]+) tokens\Z")
ALL_TYPES = [
    memory_pb2.MEMORY_TYPE_USER_STYLE,
    memory_pb2.MEMORY_TYPE_PROJECT_FACT,
    memory_pb2.MEMORY_TYPE_PITFALL,
    memory_pb2.MEMORY_TYPE_RECIPE,
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    return root.resolve()


@pytest.fixture
def settings(make_settings: Callable[..., Settings], project: Path) -> Settings:
    made = make_settings(general_user_id="alice")
    register_projects(made, [str(project)])
    return made


@pytest.fixture
async def fake(settings: Settings) -> AsyncIterator[tuple[FakeMemoryServicer, GrpcService]]:
    async with running_fake_memory(settings) as pair:
        yield pair


@pytest.fixture
async def gateway(
    settings: Settings, fake: tuple[FakeMemoryServicer, GrpcService]
) -> AsyncIterator[GatewayClient]:
    async with running("gateway", gateway_server.setup, settings) as service:
        token = HomeLayout(settings.home).token.read_text()
        client = GatewayClient(open_channel(f"127.0.0.1:{service.port}"), token, timeout=60)
        try:
            yield client
        finally:
            await client.close()


def servicer_of(fake: tuple[FakeMemoryServicer, GrpcService]) -> FakeMemoryServicer:
    return fake[0]


async def task_context(
    client: GatewayClient, project: Path, **fields: Any
) -> views_pb2.TaskContext:
    request = gateway_service_pb2.GatewayGetTaskContextRequest(
        project_root=str(project), task_description="Add a delete endpoint", **fields
    )
    reply = await client.call(client.stub.GetTaskContext, request)
    return reply.context


# --- budgets and reports ----------------------------------------------------------------------


async def test_task_context_fits_its_budget_and_reports_what_was_cut(
    gateway: GatewayClient, project: Path
) -> None:
    context = await task_context(gateway, project, context_budget_tokens=120)
    assert estimate_tokens(context.markdown) <= context.token_estimate <= 120
    assert FOOTER.search(context.markdown)
    assert "⚡ Budget:" in context.markdown
    report = context.budget
    assert report.budget_tokens == 120
    assert report.token_estimate == context.token_estimate
    assert report.items_shown == len(context.selected_memories) < report.items_total == 12
    assert report.capped
    assert [m.memory_id for m in context.selected_memories] == [
        f"mem_{i}" for i in range(report.items_shown)
    ]


async def test_unset_budget_and_types_reach_memory_as_the_spec_defaults(
    gateway: GatewayClient, project: Path, fake: tuple[FakeMemoryServicer, GrpcService]
) -> None:
    context = await task_context(gateway, project)
    sent = servicer_of(fake).calls("GetTaskContext")[-1]
    assert sent.context_budget_tokens == fetch_budget(400)  # room for the budget to shape
    assert list(sent.preferred_memory_types) == ALL_TYPES
    assert sent.user_id == "alice"
    assert sent.project_id == str(project)
    assert context.budget.budget_tokens == 400
    assert context.budget.capped == (context.budget.items_shown < 12)


async def test_every_view_carries_budgeted_markdown_and_its_report(
    gateway: GatewayClient, project: Path
) -> None:
    root = str(project)
    style = await gateway.call(
        gateway.stub.GetUserStyleView,
        gateway_service_pb2.GatewayGetUserStyleViewRequest(
            project_root=root, mode=views_pb2.VIEW_MODE_FULL, context_budget_tokens=100
        ),
    )
    brief = await gateway.call(
        gateway.stub.GetProjectBriefView,
        gateway_service_pb2.GatewayGetProjectBriefViewRequest(
            project_root=root, context_budget_tokens=100
        ),
    )
    pitfalls = await gateway.call(
        gateway.stub.GetPitfallsView,
        gateway_service_pb2.GatewayGetPitfallsViewRequest(
            project_root=root, scope_paths=["src/auth.py"], context_budget_tokens=100
        ),
    )
    assert style.view.mode == views_pb2.VIEW_MODE_FULL
    assert brief.view.mode == views_pb2.VIEW_MODE_CORE
    assert pitfalls.view.has_relevant_pitfalls
    for view, shown in (
        (style.view, len(style.view.items)),
        (brief.view, len(brief.view.key_facts) + len(brief.view.modules)),
        (pitfalls.view, len(pitfalls.view.items)),
    ):
        assert estimate_tokens(view.markdown) <= view.budget.token_estimate <= 100
        assert FOOTER.search(view.markdown)
        assert view.budget.items_shown == shown
        assert view.budget.capped == (shown < view.budget.items_total)


async def test_grpc_and_mcp_give_the_same_markdown_for_the_same_request(
    gateway: GatewayClient,
    project: Path,
    settings: Settings,
    fake: tuple[FakeMemoryServicer, GrpcService],
) -> None:
    context = await task_context(gateway, project, context_budget_tokens=150)
    token = HomeLayout(settings.home).token.read_text()
    memory = MemoryClient(open_channel(f"127.0.0.1:{fake[1].port}"), token)
    backend = GrpcMemoryBackend(memory, lambda: [str(project)], default_user_id="alice")
    try:
        async with Client(build_mcp_server(backend, allow_writes=False)) as mcp:
            result = await mcp.call_tool(
                "get_task_context",
                {
                    "project_root": str(project),
                    "task_description": "Add a delete endpoint",
                    "context_budget_tokens": 150,
                },
            )
    finally:
        await memory.close()
    assert not result.is_error
    assert model_reads(result) == context.markdown


async def test_search_cursors_visit_every_result_once_in_order(
    gateway: GatewayClient, project: Path
) -> None:
    seen: list[str] = []
    cursor = ""
    for _ in range(30):
        reply = await gateway.call(
            gateway.stub.SearchMemory,
            gateway_service_pb2.GatewaySearchMemoryRequest(
                project_root=str(project),
                query="JWT login",
                top_k=5,
                context_budget_tokens=150,
                cursor=cursor,
            ),
        )
        assert estimate_tokens(reply.markdown) <= reply.budget.token_estimate <= 150
        assert reply.budget.items_shown == len(reply.search.results)
        assert reply.search.next_page_token == reply.next_cursor
        seen.extend(r.memory_id for r in reply.search.results)
        cursor = reply.next_cursor
        if not cursor:
            break
    assert seen == [f"mem_{i}" for i in range(23)]


async def test_a_budget_of_zero_means_the_default_and_search_top_k_zero_means_five(
    gateway: GatewayClient, project: Path, fake: tuple[FakeMemoryServicer, GrpcService]
) -> None:
    reply = await gateway.call(
        gateway.stub.SearchMemory,
        gateway_service_pb2.GatewaySearchMemoryRequest(project_root=str(project), query="jwt"),
    )
    assert reply.budget.budget_tokens == 400
    assert len(reply.search.results) == 5
    assert servicer_of(fake).calls("SearchMemory")[-1].top_k == 5


# --- errors -----------------------------------------------------------------------------------


async def test_an_unregistered_project_is_permission_denied(
    gateway: GatewayClient, tmp_path: Path
) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    with pytest.raises(PermissionDeniedError):
        await task_context(gateway, other)


async def test_a_project_registered_after_start_is_served(
    gateway: GatewayClient, settings: Settings, project: Path, tmp_path: Path
) -> None:
    late = (tmp_path / "late").resolve()
    late.mkdir()
    with pytest.raises(PermissionDeniedError):
        await task_context(gateway, late)
    register_projects(settings, [str(project), str(late)])
    context = await task_context(gateway, late / "sub")
    assert context.project_id == str(late)


@pytest.mark.parametrize(
    "fields",
    [
        {"context_budget_tokens": -1},
        {"context_budget_tokens": 10},
        {"context_budget_tokens": 100_000},
        {"task_description": "   "},
        {"task_description": "x" * 5000},
        {"task_description": "bad\x00byte"},
        {"project_root": "relative/path"},
        {"project_root": ""},
        {"preferred_memory_types": [99]},
        {"preferred_memory_types": [memory_pb2.MEMORY_TYPE_UNSPECIFIED]},
        {"active_file_paths": ["../../etc/passwd"]},
    ],
)
async def test_bad_task_context_arguments_are_invalid_and_reach_no_memory(
    gateway: GatewayClient,
    project: Path,
    fake: tuple[FakeMemoryServicer, GrpcService],
    fields: dict[str, Any],
) -> None:
    request = gateway_service_pb2.GatewayGetTaskContextRequest(
        project_root=str(project), task_description="Add a delete endpoint"
    )
    for name, value in fields.items():
        if isinstance(value, list):
            getattr(request, name).extend(value)
        else:
            setattr(request, name, value)
    with pytest.raises(InvalidArgumentError):
        await gateway.call(gateway.stub.GetTaskContext, request)
    assert servicer_of(fake).calls("GetTaskContext") == []


@pytest.mark.parametrize(
    "fields",
    [
        {"top_k": 51},
        {"top_k": -3},
        {"query": ""},
        {"cursor": "not-a-cursor"},
        {"types": [42]},
    ],
)
async def test_bad_search_arguments_are_invalid(
    gateway: GatewayClient, project: Path, fields: dict[str, Any]
) -> None:
    request = gateway_service_pb2.GatewaySearchMemoryRequest(project_root=str(project), query="jwt")
    for name, value in fields.items():
        if isinstance(value, list):
            getattr(request, name).extend(value)
        else:
            setattr(request, name, value)
    with pytest.raises(InvalidArgumentError):
        await gateway.call(gateway.stub.SearchMemory, request)


async def test_an_unknown_view_mode_is_invalid(gateway: GatewayClient, project: Path) -> None:
    with pytest.raises(InvalidArgumentError):
        await gateway.call(
            gateway.stub.GetUserStyleView,
            gateway_service_pb2.GatewayGetUserStyleViewRequest(
                project_root=str(project),
                mode=7,  # type: ignore[arg-type]
            ),
        )


async def test_a_stopped_memory_service_is_unavailable(
    gateway: GatewayClient, project: Path, fake: tuple[FakeMemoryServicer, GrpcService]
) -> None:
    await fake[1].stop(grace=0)
    with pytest.raises(UnavailableError):
        await task_context(gateway, project)


async def test_memory_errors_keep_their_status_through_the_gateway(
    gateway: GatewayClient, project: Path, fake: tuple[FakeMemoryServicer, GrpcService]
) -> None:
    servicer_of(fake).fail_with = NotFoundError("gone")
    with pytest.raises(NotFoundError):
        await task_context(gateway, project)


async def test_memories_of_a_type_this_build_lacks_are_left_out(
    gateway: GatewayClient, project: Path, fake: tuple[FakeMemoryServicer, GrpcService]
) -> None:
    strange = selected(99)
    strange.type = 42
    servicer_of(fake).selected = [selected(0), strange, selected(1)]
    context = await task_context(gateway, project, context_budget_tokens=4000)
    assert [m.memory_id for m in context.selected_memories] == ["mem_0", "mem_1"]


# --- writes -----------------------------------------------------------------------------------


async def test_remember_then_forget_passes_through_and_forgets_once(
    gateway: GatewayClient, project: Path, fake: tuple[FakeMemoryServicer, GrpcService]
) -> None:
    memory = memory_service_pb2.RememberRequest(
        type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
        key="db",
        content="  The database is Postgres 16.  ",
        tags=["db", " "],
        file_paths=[str(project / "src" / "db.py")],
        project_id="ignored",
    )
    first = await gateway.call(
        gateway.stub.Remember,
        gateway_service_pb2.GatewayRememberRequest(project_root=str(project), memory=memory),
    )
    again = await gateway.call(
        gateway.stub.Remember,
        gateway_service_pb2.GatewayRememberRequest(project_root=str(project), memory=memory),
    )
    sent = servicer_of(fake).calls("Remember")[0]
    assert sent.project_id == str(project)
    assert sent.content == "The database is Postgres 16."
    assert list(sent.tags) == ["db"]
    assert list(sent.file_paths) == ["src/db.py"]
    assert not first.updated and again.updated
    assert first.outcome == memory_service_pb2.REMEMBER_OUTCOME_ADDED
    assert again.outcome == memory_service_pb2.REMEMBER_OUTCOME_UPDATED
    assert again.memory.memory_id == first.memory.memory_id
    forget = gateway_service_pb2.GatewayForgetRequest(
        project_root=str(project), memory_id=first.memory.memory_id, reason="moved to MySQL"
    )
    gone = await gateway.call(gateway.stub.Forget, forget)
    repeat = await gateway.call(gateway.stub.Forget, forget)
    assert gone.memory.deleted and repeat.memory.deleted
    assert len(servicer_of(fake).calls("Forget")) == 1


@pytest.mark.parametrize(
    "memory",
    [
        memory_service_pb2.RememberRequest(type=memory_pb2.MEMORY_TYPE_PITFALL, content=" "),
        memory_service_pb2.RememberRequest(content="No type given."),
        memory_service_pb2.RememberRequest(
            type=memory_pb2.MEMORY_TYPE_PITFALL, content="x", importance=1.5
        ),
        memory_service_pb2.RememberRequest(
            type=memory_pb2.MEMORY_TYPE_PITFALL, content="x", tags=[str(i) for i in range(30)]
        ),
        memory_service_pb2.RememberRequest(
            type=memory_pb2.MEMORY_TYPE_PITFALL, content="x", file_paths=["/etc/passwd"]
        ),
    ],
)
async def test_remember_refuses_bad_memories(
    gateway: GatewayClient,
    project: Path,
    fake: tuple[FakeMemoryServicer, GrpcService],
    memory: memory_service_pb2.RememberRequest,
) -> None:
    with pytest.raises(InvalidArgumentError):
        await gateway.call(
            gateway.stub.Remember,
            gateway_service_pb2.GatewayRememberRequest(project_root=str(project), memory=memory),
        )
    assert servicer_of(fake).calls("Remember") == []


async def test_forgetting_an_unknown_memory_is_not_found(
    gateway: GatewayClient, project: Path
) -> None:
    with pytest.raises(NotFoundError):
        await gateway.call(
            gateway.stub.Forget,
            gateway_service_pb2.GatewayForgetRequest(project_root=str(project), memory_id="nope"),
        )


# --- the CLI over the gateway -----------------------------------------------------------------


async def sqrl(settings: Settings, cwd: Path, *args: str) -> tuple[int, str, str]:
    """Runs the real `sqrl` in a subprocess while this loop keeps serving."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "squirrel_cli",
        *args,
        cwd=cwd,
        env={"SQRL_HOME": str(settings.home), "PATH": "/usr/bin:/bin", "COLUMNS": "200"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_sqrl_context_prints_the_memories_and_json_on_request(
    gateway: GatewayClient, settings: Settings, project: Path
) -> None:
    code, out, err = await sqrl(settings, project / "src", "context", "Add an endpoint")
    assert code == 0, err
    assert "Prefers async/await" in out and "📏" in out
    code, out, err = await sqrl(
        settings, project, "context", "Add an endpoint", "--budget", "100", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["budget"]["budget_tokens"] == 100
    assert data["project_id"] == str(project)


async def test_sqrl_search_and_view_read_through_the_gateway(
    gateway: GatewayClient, settings: Settings, project: Path
) -> None:
    code, out, err = await sqrl(settings, project, "search", "JWT", "-k", "3")
    assert code == 0, err
    assert "mem_0" in out and "--cursor" in out
    code, out, err = await sqrl(settings, project, "search", "JWT", "-k", "3", "--json")
    assert code == 0, err
    assert len(json.loads(out)["search"]["results"]) == 3
    for which in ("style", "brief", "pitfalls"):
        code, out, err = await sqrl(settings, project, "view", which, "--budget", "120")
        assert code == 0, err
        assert "📏" in out


async def test_sqrl_reads_outside_a_project_fail_with_one_line(
    gateway: GatewayClient, settings: Settings, tmp_path: Path
) -> None:
    code, _, err = await sqrl(settings, tmp_path, "context", "anything")
    assert code == 1
    assert err.startswith("sqrl: error:") and err.count("\n") == 1


async def test_sqrl_reads_without_a_gateway_fail_with_one_line(
    settings: Settings, project: Path
) -> None:
    code, _, err = await sqrl(settings, project, "search", "jwt")
    assert code == 1
    assert err.startswith("sqrl: error:") and err.count("\n") == 1
