"""Hostile input against the real services: huge and malformed messages, no or wrong tokens,
bad MCP arguments and path traversal, and secrets that must never be stored, logged or shown."""

from __future__ import annotations

import asyncio
import base64
import json
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
from google.protobuf.descriptor import ServiceDescriptor
from grpc_health.v1 import health_pb2, health_pb2_grpc
from mcp import Client

from squirrel.v1 import (
    gateway_service_pb2,
    ingest_service_pb2,
    memory_pb2,
    memory_service_pb2,
)
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.main import main as sqrl_main
from squirrel_core.auth import bearer
from squirrel_core.clients import GatewayClient, MemoryClient, open_channel
from squirrel_core.events import SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.rpc import GrpcService
from squirrel_core.service_info import MAX_MESSAGE_BYTES
from squirrel_core.settings import Settings
from squirrel_gateway import server as gateway_server
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.tools import build_mcp_server
from squirrel_ingest import server as ingest_server
from squirrel_ingest.parsers import parse_file
from squirrel_memory import server as memory_server
from squirrel_memory.bootstrap import init_project_files
from tests.conftest import PATIENCE_SECONDS
from tests.integration.conftest import running
from tests.mcp_host import model_reads

DESCRIPTORS: dict[str, ServiceDescriptor] = {
    "memory": memory_service_pb2.DESCRIPTOR.services_by_name["MemoryService"],
    "ingest": ingest_service_pb2.DESCRIPTOR.services_by_name["IngestService"],
    "gateway": gateway_service_pb2.DESCRIPTOR.services_by_name["GatewayService"],
}
MARKER = "quokkaledger"
"""A word in every hostile message, so the test can see the text did flow through."""


@dataclass
class Stack:
    settings: Settings
    project: Path
    services: dict[str, GrpcService]

    @property
    def token(self) -> str:
        return HomeLayout(self.settings.home).token.read_text()

    def target(self, name: str) -> str:
        return f"127.0.0.1:{self.services[name].port}"


C = TypeVar("C", MemoryClient, GatewayClient)


@asynccontextmanager
async def connected(kind: type[C], target: str, token: str) -> AsyncIterator[C]:
    client = kind(open_channel(target), token, timeout=60)
    try:
        yield client
    finally:
        await client.close()


async def wait_for(predicate: Callable[[], Any], timeout: float = PATIENCE_SECONDS) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if await predicate():
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"condition not met within {timeout}s")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    return root.resolve()


@pytest.fixture
async def stack(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> AsyncIterator[Stack]:
    claude = tmp_path / "claude-projects"
    claude.mkdir()
    settings = make_settings(
        general_user_id="alice",
        ingest_claude_roots=str(claude),
        ingest_codex_roots=str(tmp_path / "none-codex"),
        ingest_gemini_roots=str(tmp_path / "none-gemini"),
        ingest_cursor_roots=str(tmp_path / "none-cursor"),
        ingest_batch_age_seconds="0.05",
        ingest_rescan_seconds="3600",
        ingest_git_poll_seconds="3600",
        processor_min_events="1000000",
    )
    layout = HomeLayout(settings.home).ensure()
    init_project_files(project)
    add_project(layout.projects, project)
    async with (
        running("memory", memory_server.setup, settings) as memory,
        running("ingest", ingest_server.setup, settings) as ingest,
        running("gateway", gateway_server.setup, settings) as gateway,
    ):
        yield Stack(settings, project, {"memory": memory, "ingest": ingest, "gateway": gateway})


async def healthy(target: str) -> bool:
    async with grpc.aio.insecure_channel(target) as channel:
        reply = await health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=60
        )
        return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


async def raw_call(
    channel: grpc.aio.Channel,
    service: ServiceDescriptor,
    method_name: str,
    payload: bytes,
    metadata: tuple[tuple[str, str], ...] | None,
) -> grpc.StatusCode:
    """Sends `payload` as the request bytes of one method; returns the status it ended with."""
    method = service.methods_by_name[method_name]
    path = f"/{service.full_name}/{method.name}"
    try:
        if method.server_streaming:
            call = channel.unary_stream(path, None, None)(payload, metadata=metadata, timeout=30)
            async for _ in call:
                pass
        else:
            await channel.unary_unary(path, None, None)(payload, metadata=metadata, timeout=30)
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


# --- oversized and malformed messages -------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DESCRIPTORS))
async def test_an_oversized_message_is_refused_and_the_service_keeps_serving(
    stack: Stack, name: str
) -> None:
    service = DESCRIPTORS[name]
    first = service.methods[0].name
    huge = b"\x0a" + b"\xff" * 5 + b"x" * (MAX_MESSAGE_BYTES + 1024)
    async with grpc.aio.insecure_channel(stack.target(name)) as channel:
        code = await raw_call(channel, service, first, huge, bearer(stack.token))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert await healthy(stack.target(name))


@pytest.mark.parametrize("name", sorted(DESCRIPTORS))
async def test_malformed_bytes_get_a_clean_status_on_every_method(stack: Stack, name: str) -> None:
    service = DESCRIPTORS[name]
    garbage = [b"\xff\xff\xff\xff", b"\x0a\x7f" + b"short", b"\x08" + b"\x80" * 11]
    async with grpc.aio.insecure_channel(stack.target(name)) as channel:
        for method in service.methods:
            for payload in garbage:
                code = await raw_call(channel, service, method.name, payload, bearer(stack.token))
                assert code == grpc.StatusCode.INVALID_ARGUMENT, (method.name, code)
    assert await healthy(stack.target(name))
    async with connected(MemoryClient, stack.target("memory"), stack.token) as client:
        reply = await client.call(client.stub.ListProjects, pb.ListProjectsRequest())
    assert [p.project_id for p in reply.projects] == [str(stack.project)]


# --- authentication -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DESCRIPTORS))
async def test_every_rpc_without_or_with_a_wrong_token_is_unauthenticated(
    stack: Stack, name: str
) -> None:
    service = DESCRIPTORS[name]
    wrong = [
        None,
        bearer("not-the-token"),
        bearer(stack.token + "x"),
        (("authorization", stack.token),),
        (("authorization", "Basic " + stack.token),),
    ]
    async with grpc.aio.insecure_channel(stack.target(name)) as channel:
        for method in service.methods:
            for metadata in wrong:
                code = await raw_call(channel, service, method.name, b"", metadata)
                assert code == grpc.StatusCode.UNAUTHENTICATED, (method.name, metadata)
    async with connected(MemoryClient, stack.target("memory"), stack.token) as client:
        reply = await client.call(client.stub.ListProjects, pb.ListProjectsRequest())
    assert [p.project_id for p in reply.projects] == [str(stack.project)]


# --- MCP arguments --------------------------------------------------------------------------------


@pytest.fixture
async def mcp_backend(stack: Stack) -> AsyncIterator[GrpcMemoryBackend]:
    client = MemoryClient(open_channel(stack.target("memory")), stack.token)
    try:
        yield GrpcMemoryBackend(client, lambda: [str(stack.project)], default_user_id="alice")
    finally:
        await client.close()


async def test_mcp_arguments_of_the_wrong_type_are_tool_errors(
    stack: Stack, mcp_backend: GrpcMemoryBackend
) -> None:
    root = str(stack.project)
    task = {"project_root": root, "task_description": "x"}
    search = {"project_root": root, "query": "x"}
    calls: list[tuple[str, dict[str, Any]]] = [
        ("get_task_context", {"project_root": 42, "task_description": "x"}),
        ("get_task_context", {"project_root": root, "task_description": ["a", "b"]}),
        ("get_task_context", {**task, "context_budget_tokens": "lots"}),
        ("get_task_context", {**task, "active_file_paths": "src"}),
        ("search_project_memory", {"project_root": root, "query": {"q": 1}}),
        ("search_project_memory", {**search, "top_k": -3}),
        ("search_project_memory", {**search, "cursor": "not-a-cursor"}),
        ("get_pitfalls_view", {"project_root": root, "scope_paths": {"a": 1}}),
        ("get_user_style_view", {"project_root": root, "mode": "everything"}),
        ("remember", {"project_root": root, "content": "x", "importance": "very"}),
        ("forget", {"project_root": root, "memory_id": None}),
    ]
    async with Client(build_mcp_server(mcp_backend, allow_writes=True)) as mcp:
        for tool, args in calls:
            result = await mcp.call_tool(tool, args)
            assert result.is_error, (tool, args)
        ok = await mcp.call_tool("get_user_style_view", {"project_root": root})
        assert not ok.is_error


async def test_path_traversal_reads_nothing_outside_the_project(
    stack: Stack, mcp_backend: GrpcMemoryBackend, tmp_path: Path
) -> None:
    canary = "canary" + uuid.uuid4().hex
    outside = tmp_path / "outside"
    (outside / ".ctx").mkdir(parents=True)
    (outside / "notes.md").write_text(canary)
    (outside / ".ctx" / "data.db").write_text(canary)
    root = str(stack.project)
    escapes = [
        f"{root}/../outside",
        f"{root}/src/../../outside",
        str(outside),
        "/etc",
        "/",
        "../../../../etc",
        f"{root}\x00/etc",
    ]
    scope_escapes = [["../outside/notes.md"], ["/etc/passwd"], ["src/../../outside"]]
    async with Client(build_mcp_server(mcp_backend, allow_writes=True)) as mcp:
        outputs: list[str] = []
        for escape in escapes:
            for tool, extra in (
                ("get_task_context", {"task_description": "read the notes"}),
                ("search_project_memory", {"query": "notes"}),
                ("get_project_brief_view", {}),
                ("remember", {"content": "written outside"}),
            ):
                result = await mcp.call_tool(tool, {"project_root": escape, **extra})
                assert result.is_error, (tool, escape)
                outputs.append(str(result.content))
        for paths in scope_escapes:
            for tool, extra in (
                ("get_pitfalls_view", {}),
                ("search_project_memory", {"query": "notes"}),
            ):
                args = {"project_root": root, "scope_paths": paths, **extra}
                result = await mcp.call_tool(tool, args)
                assert result.is_error, (tool, paths)
                outputs.append(str(result.content))
    assert not any(canary in text for text in outputs)
    assert (outside / ".ctx" / "data.db").read_text() == canary
    assert sorted(p.name for p in outside.iterdir()) == [".ctx", "notes.md"]


# --- secrets ---------------------------------------------------------------------------------------


def _joined(*parts: str) -> str:
    return "".join(parts)


def secret_corpus() -> dict[str, str]:
    """Made-up secrets, assembled at run time so no scanner sees a real-looking one in source."""
    body = "Q7vXk2Lm9Pz4Rt8Wn3Yb6Hc1Jd5Fg0Ks"
    b64 = base64.urlsafe_b64encode

    def part(text: str) -> str:
        return b64(text.encode()).decode().rstrip("=")

    jwt = ".".join(
        [
            _joined("ey", "J", part('{"alg":"HS256","typ":"JWT"}')[3:]),
            _joined("ey", "J", part('{"sub":"1234567890","name":"Mallory"}')[3:]),
            "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        ]
    )
    pem_head = _joined("-----BEGIN ", "RSA PRIVATE", " KEY-----")
    pem_tail = _joined("-----END ", "RSA PRIVATE", " KEY-----")
    pem_body = "MIIEowIBAAKCAQEA" + body * 2
    return {
        "aws_access_key": _joined("AK", "IA", "Z7QX4MPLW2R6TY3V"),
        "aws_secret": _joined("wJalrXUtnFEMI", "/K7MDENG/", "bPxRfiCYzq8Lm2Nt5Rs"),
        "github_pat": _joined("gh", "p_", body, "abcd"),
        "github_fine": _joined("github", "_pat_", "11ABCDEFG0", body, "_", body),
        "slack": _joined("xo", "xb-", "2981734561-", "4812390123-", body[:24]),
        "stripe": _joined("sk", "_live_", body),
        "anthropic": _joined("sk-", "ant-", "api03-", body, body),
        "openai": _joined("sk-", "proj-", body, body[:12]),
        "jwt": jwt,
        "pem": pem_body,
        "pem_block": f"{pem_head}\n{pem_body}\n{pem_tail}",
        "url_password": _joined("Hunter", "2Pass", "wordZ9"),
        "env_value": _joined("Xy9", "Env", "SecretValue", "42qq"),
        "private_span": _joined("my", "private", "diary", "entry77"),
    }


def hostile_messages(secrets: dict[str, str]) -> list[str]:
    s = secrets
    return [
        f"{MARKER}: deploy with AWS_ACCESS_KEY_ID={s['aws_access_key']} and "
        f"AWS_SECRET_ACCESS_KEY={s['aws_secret']} — always use the staging profile.",
        f"{MARKER} tokens: github {s['github_pat']} / {s['github_fine']}, slack {s['slack']}, "
        f"stripe {s['stripe']}",
        f"{MARKER}: never commit the key {s['anthropic']} or {s['openai']} to the repo.",
        f"{MARKER}: the api sends Authorization: Bearer {s['jwt']}",
        f"{MARKER}: the deploy key is\n{s['pem_block']}\nkeep it out of git.",
        f"{MARKER}: the database is postgres://admin:{s['url_password']}@db.internal:5432/app",
        f"{MARKER}: .env has\nDATABASE_PASSWORD={s['env_value']}\nDEBUG=true",
        f"{MARKER}: remember <private>{s['private_span']}</private> is off the record.",
    ]


def claude_transcript(cwd: str, texts: list[str]) -> str:
    """A Claude Code session: each text as a user turn, echoed by the assistant and a Bash call."""
    session = str(uuid.uuid4())
    start = datetime.now(UTC) - timedelta(hours=3)
    lines: list[dict[str, Any]] = []
    parent: str | None = None

    def record(kind: str, message: dict[str, Any], step: int) -> None:
        nonlocal parent
        this = str(uuid.uuid4())
        lines.append(
            {
                "parentUuid": parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": cwd,
                "sessionId": session,
                "version": "2.1.7",
                "type": kind,
                "message": message,
                "uuid": this,
                "timestamp": (start + timedelta(seconds=10 * step)).isoformat(),
            }
        )
        parent = this

    for i, text in enumerate(texts):
        record("user", {"role": "user", "content": text}, 4 * i)
        tool_id = f"toolu_{i:04d}"
        record(
            "assistant",
            {
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "text", "text": f"Noted. {text}"},
                    {
                        "type": "tool_use",
                        "id": tool_id,
                        "name": "Bash",
                        "input": {"command": f"echo '{text}' >> notes.txt"},
                    },
                ],
            },
            4 * i + 1,
        )
        record(
            "user",
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": tool_id, "content": f"ran: {text}"}
                ],
            },
            4 * i + 2,
        )
    return "".join(json.dumps(line) + "\n" for line in lines)


def leaks(secrets: dict[str, str], blobs: dict[str, bytes]) -> list[tuple[str, str]]:
    """(where, which) for every secret found as is or JSON-escaped in any blob."""
    found = []
    for where, blob in blobs.items():
        for name, secret in secrets.items():
            forms = {secret.encode(), json.dumps(secret)[1:-1].encode()}
            if any(form in blob for form in forms):
                found.append((where, name))
    return found


def files_under(*roots: Path) -> dict[str, bytes]:
    return {
        str(path): path.read_bytes()
        for root in roots
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


async def test_secrets_in_a_transcript_appear_nowhere_downstream(
    stack: Stack,
    mcp_backend: GrpcMemoryBackend,
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secrets = secret_corpus()
    texts = hostile_messages(secrets)
    folder = tmp_path / "claude-projects" / ("-" + str(stack.project).strip("/").replace("/", "-"))
    folder.mkdir(parents=True)
    transcript = folder / "session.jsonl"
    transcript.write_text(claude_transcript(str(stack.project), texts))
    assert leaks(secrets, {"transcript": transcript.read_bytes()}) == [
        ("transcript", name) for name in secrets
    ]
    expected = len(
        parse_file(SourceTool.CLAUDE_CODE, str(transcript), transcript.read_bytes()).events
    )
    outputs: list[str] = []
    root = str(stack.project)
    async with (
        connected(MemoryClient, stack.target("memory"), stack.token) as memory,
        connected(GatewayClient, stack.target("gateway"), stack.token) as gateway,
    ):

        async def all_stored() -> bool:
            reply = await memory.call(
                memory.stub.GetProcessingStatus, pb.GetProcessingStatusRequest(project_id=root)
            )
            return reply.projects[0].events_total >= expected

        await wait_for(all_stored)
        await memory.call(memory.stub.ProcessNow, pb.ProcessNowRequest(project_id=root, drain=True))
        for text in texts:
            remembered = await memory.call(
                memory.stub.Remember,
                pb.RememberRequest(
                    project_id=root,
                    type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
                    content=text,
                    key="",
                ),
            )
            outputs.append(str(remembered))
        listed = await memory.call(
            memory.stub.ListMemories, pb.ListMemoriesRequest(project_id=root, page_size=500)
        )
        outputs.append(str(listed))
        assert any(MARKER in m.content for m in listed.memories)
        for memory_item in listed.memories:
            history = await memory.call(
                memory.stub.GetMemoryHistory,
                pb.GetMemoryHistoryRequest(project_id=root, memory_id=memory_item.memory_id),
            )
            outputs.append(str(history))
        searched = await gateway.call(
            gateway.stub.SearchMemory,
            gateway_service_pb2.GatewaySearchMemoryRequest(
                project_root=root, query=f"{MARKER} deploy key token", top_k=50
            ),
        )
        assert searched.search.results
        outputs.append(str(searched))
        context = await gateway.call(
            gateway.stub.GetTaskContext,
            gateway_service_pb2.GatewayGetTaskContextRequest(
                project_root=root,
                task_description=f"deploy to staging ({MARKER})",
                context_budget_tokens=4000,
            ),
        )
        outputs.append(str(context))
    async with Client(build_mcp_server(mcp_backend, allow_writes=False)) as mcp:
        for tool, args in (
            ("get_task_context", {"task_description": f"deploy with the {MARKER} key"}),
            ("search_project_memory", {"query": f"{MARKER} token"}),
            ("get_project_brief_view", {"mode": "full"}),
            ("get_pitfalls_view", {}),
            ("get_user_style_view", {"mode": "full"}),
        ):
            result = await mcp.call_tool(tool, {"project_root": root, **args})
            assert not result.is_error, tool
            outputs.append(model_reads(result))
    monkeypatch.setenv("SQRL_HOME", str(stack.settings.home))
    for argv in (
        ["search", f"{MARKER} key", "--project", root],
        ["context", f"deploy {MARKER}", "--project", root],
        ["memories", "--project", root, "--json"],
    ):
        assert await asyncio.to_thread(sqrl_main, argv) == 0
    await memory_server_indexes_saved(stack)
    captured = capfd.readouterr()
    blobs = files_under(stack.project / ".ctx", stack.settings.home)
    blobs["terminal"] = (captured.out + captured.err).encode()
    blobs["logs"] = caplog.text.encode()  # what the services in this process logged
    blobs["outputs"] = "\n".join(outputs).encode()
    assert any(name.endswith(".faiss") for name in blobs)
    assert any(name.endswith("data.db-wal") or name.endswith("data.db") for name in blobs)
    assert MARKER.encode() in blobs[str(stack.project / ".ctx" / "data.db")] + blobs.get(
        str(stack.project / ".ctx" / "data.db-wal"), b""
    )
    assert leaks(secrets, blobs) == []


async def memory_server_indexes_saved(stack: Stack) -> None:
    """Waits until the vector index on disk holds every live memory (saves are debounced)."""
    index = stack.project / ".ctx" / "index" / "memories.faiss"
    meta = index.with_name("memories.meta.json")
    async with connected(MemoryClient, stack.target("memory"), stack.token) as memory:
        listed = await memory.call(
            memory.stub.ListMemories,
            pb.ListMemoriesRequest(project_id=str(stack.project), page_size=500),
        )
    live = {m.memory_id for m in listed.memories}

    async def saved() -> bool:
        if not meta.exists():
            return False
        ids = {pair[0] for pair in json.loads(meta.read_text())["ids"]}
        return ids == live

    await wait_for(saved, timeout=120)
