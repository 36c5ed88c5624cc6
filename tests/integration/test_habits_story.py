"""The user's habits first: two workflow instructions repeated across sessions in other words
(how far to carry a batch of tasks, what finishing means) lead the style view and the
session-start text, whichever host wrote the sessions.

Each session is a real transcript of its host (Claude Code JSONL, a Codex CLI rollout) read by
the ingest parsers, sent to the real memory service, processed, and the session-start text is
the gateway hook's at its default budget. What must not come out: a one-off request ("fix this
test") as a standing preference, and a choice the user later reversed as one still held.
A reason the user gives while declining one of the assistant's calls ("use uv instead of
pip"), which the host relays inside the call's result, reaches the session start as the user's
own instruction, without the host's words around it. On real sessions nobody tuned the rules on
(the habits study's), corrections said once as the assistant worked reach the session start, a
rule the user stressed leads the core style view, and a user who writes in Chinese is answered
in Chinese, whichever host wrote the session.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bench.fixture_pipeline import relocate
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.events import Event
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from squirrel_gateway import hook_context
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_ingest.parsers import ClaudeFileParser, CodexFileParser, parse_bytes
from squirrel_memory import server as memory_server
from squirrel_memory.extractors.repeated_requests import PREFIX as REQUEST_PREFIX
from squirrel_memory.extractors.workflow_habits import CARRY_KEY, DONE_KEY
from tests.integration.conftest import memory_client, running

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
#: The hooks' default session-start budget (`hooks.session_budget`).
SESSION_BUDGET = 600

#: (the user's request, the assistant's report, the user's reply) per session: the two habits
#: said again in other words each time, a one-off request in every session, a choice said in
#: the first session that the user reverses in the third, and a rule stated once, firmly, in
#: the last.
SESSIONS = [
    (
        "Use pnpm instead of npm. Port the handlers to the new router.",
        "Ported the first handler.",
        "keep going until all of them are done. Done means the tests pass and it's committed.",
    ),
    (
        "The login test fails, fix this test.",
        "Fixed one warning in the login test.",
        "don't stop after the first one, do the whole list. Before you say finished, run the "
        "tests and commit.",
    ),
    (
        "Use npm instead of pnpm, pnpm broke the lockfile. Add the metrics.",
        "Added the counter.",
        "continue with the remaining ones; it's not done until it's committed.",
    ),
    (
        "fix this test please, the signup one.",
        "Moved the loader.",
        "do all the steps in one go. A task is only complete when the tests are green. From "
        "now on, NEVER add a dependency without asking me!!",
    ),
]


def _at(session: int, step: int) -> str:
    return (START + timedelta(days=2 * session, minutes=step)).isoformat().replace("+00:00", "Z")


def _claude(root: Path, n: int, turn: tuple[str, str, str]) -> list[Event]:
    """One Claude Code session as its JSONL transcript, read by the Claude Code parser."""
    session = f"5f1c0a7e-0000-4000-8000-00000000000{n}"
    lines: list[dict[str, Any]] = []
    parent: str | None = None
    said = [("user", turn[0]), ("assistant", turn[1]), ("user", turn[2])]
    for step, (kind, text) in enumerate(said):
        uuid = f"{session[:-2]}{n}{step}"
        message: dict[str, Any] = (
            {"role": "user", "content": text}
            if kind == "user"
            else {
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": text}],
            }
        )
        lines.append(
            {
                "parentUuid": parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": str(root),
                "sessionId": session,
                "version": "2.1.7",
                "type": kind,
                "message": message,
                "uuid": uuid,
                "timestamp": _at(n, step),
            }
        )
        parent = uuid
    path = f"/home/dev/.claude/projects/-app/{session}.jsonl"
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    return parse_bytes(ClaudeFileParser(path), data, path).events


def _codex(root: Path, n: int, turn: tuple[str, str, str]) -> list[Event]:
    """One Codex CLI session as its rollout, read by the Codex parser."""
    session = f"019b7f94-51b4-7593-922e-ba12b5b73b5{n}"
    meta = {"id": session, "cwd": str(root), "cli_version": "0.154.0", "source": "cli"}
    lines: list[dict[str, Any]] = [
        {"timestamp": _at(n, 0), "type": "session_meta", "payload": meta},
        {"timestamp": _at(n, 0), "type": "turn_context", "payload": {"cwd": str(root)}},
    ]
    said = [("user", turn[0]), ("assistant", turn[1]), ("user", turn[2])]
    for step, (role, text) in enumerate(said, 1):
        kind = "input_text" if role == "user" else "output_text"
        item = {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}
        lines.append({"timestamp": _at(n, step), "type": "response_item", "payload": item})
        if role == "user":  # what the user typed, as Codex records it
            typed = {"type": "user_message", "message": text}
            lines.append({"timestamp": _at(n, step), "type": "event_msg", "payload": typed})
    path = f"/home/dev/.codex/sessions/2026/11/02/rollout-2026-11-02T09-00-00-{session}.jsonl"
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    return parse_bytes(CodexFileParser(path), data, path).events


HOSTS: dict[str, Callable[[Path, int, tuple[str, str, str]], list[Event]]] = {
    "claude": _claude,
    "codex": _codex,
}


@pytest.mark.parametrize("host", sorted(HOSTS))
async def test_habits_repeated_across_sessions_lead_the_style_view_and_the_session_start(
    make_settings: Callable[..., Settings], tmp_path: Path, host: str
) -> None:
    root = (tmp_path / "app").resolve()
    root.mkdir()
    (root / "README.md").write_text("# app\n", encoding="utf-8")
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        for n, turn in enumerate(SESSIONS):
            events = HOSTS[host](root, n, turn)
            assert sum(1 for e in events if e.event_type == "user_message") >= 2, events
            await c.call(
                c.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(root), events=[event_to_pb(e) for e in events]
                ),
            )
            await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(root), drain=True))
        backend = GrpcMemoryBackend(c, lambda: [str(root)])
        view = await backend.get_user_style_view(
            str(root), user_id=None, mode="core", budget=SESSION_BUDGET
        )
        start = await hook_context.session_start(
            backend, project_id=str(root), user_id=None, budget=SESSION_BUDGET
        )

    # both habits, one memory each, first in the core style view
    keys = [item.key for item in view.items]
    assert set(keys[:2]) == {CARRY_KEY, DONE_KEY}, keys
    # and in the session-start text, under the user's style, before anything else of theirs
    assert "### Your coding style" in start.text, start.text
    style = start.text.split("### Your coding style\n", 1)[1].split("\n\n", 1)[0].lower()
    first_two = "\n".join(style.splitlines()[:2])
    assert "keep going" in first_two or "don't stop" in first_two, style
    assert "done" in first_two or "complete" in first_two or "finished" in first_two, style
    assert "no coding-style preferences" not in start.text.lower()
    # a rule stated once, however firmly, comes after what the user keeps saying
    assert "dependency" not in first_two, style
    # must not: a one-off request as a standing preference, nor the choice the user reversed
    assert "fix this test" not in start.text.lower()
    assert not any("fix" in key and "test" in key for key in keys), keys
    assert "pnpm instead of npm" not in start.text and "pnpm over npm" not in start.text


#: How Claude Code words the result of a call the user declined with a reason.
DECLINED_WITH_REASON = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). The user provided the "
    "following reason for the rejection:  use uv instead of pip"
)


def _declined_session(root: Path) -> list[Event]:
    """One Claude Code session: a request, an install the user declines with a reason (the host
    relays the reason in the call's result), the assistant's acknowledgement."""
    session = "5f1c0a7e-0000-4000-8000-0000000000d1"
    call = "toolu_01DeclinedInstall"
    records: list[tuple[str, Any]] = [
        ("user", "Add the requests dependency."),
        (
            "assistant",
            [
                {
                    "type": "tool_use",
                    "id": call,
                    "name": "Bash",
                    "input": {"command": "pip install requests"},
                }
            ],
        ),
        (
            "user",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": call,
                    "content": DECLINED_WITH_REASON,
                    "is_error": True,
                }
            ],
        ),
        ("assistant", [{"type": "text", "text": "Understood, I will not use pip."}]),
    ]
    lines: list[dict[str, Any]] = []
    parent: str | None = None
    for step, (kind, content) in enumerate(records):
        uuid = f"{session[:-2]}d{step}"
        message: dict[str, Any] = {"role": kind, "content": content}
        if kind == "assistant":
            message["model"] = "claude-sonnet-4-5"
        lines.append(
            {
                "parentUuid": parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": str(root),
                "sessionId": session,
                "version": "2.1.7",
                "type": kind,
                "message": message,
                "uuid": uuid,
                "timestamp": _at(0, step),
            }
        )
        parent = uuid
    path = f"/home/dev/.claude/projects/-app/{session}.jsonl"
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    return parse_bytes(ClaudeFileParser(path), data, path).events


async def test_a_reason_given_while_declining_a_call_reaches_the_session_start(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    root = (tmp_path / "app").resolve()
    root.mkdir()
    (root / "README.md").write_text("# app\n", encoding="utf-8")
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        events = _declined_session(root)
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(project_id=str(root), events=[event_to_pb(e) for e in events]),
        )
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(root), drain=True))
        backend = GrpcMemoryBackend(c, lambda: [str(root)])
        start = await hook_context.session_start(
            backend, project_id=str(root), user_id=None, budget=SESSION_BUDGET
        )

    assert "### Your coding style" in start.text, start.text
    style = start.text.split("### Your coding style\n", 1)[1].split("\n\n", 1)[0]
    assert "uv" in style and "pip" in style, style
    # the host's own words around the user's are never the user's instruction
    assert "proceed" not in start.text and "rejection" not in start.text, start.text


#: (the user's request, the assistant's report, the user's reply) per session of a user who
#: writes in Spanish and never says "always": the same request in other words after a
#: different task each time, and a one-off task in each session.
SPANISH_SESSIONS = [
    (
        "Agrega el endpoint de usuarios al servidor.",
        "Agregué el handler y su prueba.",
        "Antes de hacer commit ejecuta las pruebas y el linter.",
    ),
    (
        "Migra la configuración del registro a la nueva biblioteca.",
        "Cambié la configuración del registro.",
        "Ejecuta las pruebas y el linter antes de hacer el commit, por favor.",
    ),
]


@pytest.mark.parametrize("host", sorted(HOSTS))
async def test_a_request_said_again_in_another_language_reaches_the_session_start(
    make_settings: Callable[..., Settings], tmp_path: Path, host: str
) -> None:
    root = (tmp_path / "app").resolve()
    root.mkdir()
    (root / "README.md").write_text("# app\n", encoding="utf-8")
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        for n, turn in enumerate(SPANISH_SESSIONS):
            events = HOSTS[host](root, n, turn)
            await c.call(
                c.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(root), events=[event_to_pb(e) for e in events]
                ),
            )
            await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(root), drain=True))
        backend = GrpcMemoryBackend(c, lambda: [str(root)])
        view = await backend.get_user_style_view(
            str(root), user_id=None, mode="core", budget=SESSION_BUDGET
        )
        start = await hook_context.session_start(
            backend, project_id=str(root), user_id=None, budget=SESSION_BUDGET
        )

    keys = [item.key for item in view.items]
    assert keys and keys[0].startswith(REQUEST_PREFIX), keys
    assert "### Your coding style" in start.text, start.text
    style = start.text.split("### Your coding style\n", 1)[1].split("\n\n", 1)[0]
    first = style.splitlines()[0]
    assert "2 sessions" in first and "antes de hacer el commit" in first, style
    # must not: a one-off task of either session as the user's style
    assert "endpoint" not in style and "Migra" not in style, style


#: Real sessions nobody tuned the rules on (bench/data/habits_study/SOURCES.md: the prompts of
#: Entire CLI developers' Claude Code sessions, verbatim, with the assistant's turns reduced).
STUDY = Path(__file__).parents[2] / "bench" / "data" / "habits_study" / "sessions"


async def _start_of(
    make_settings: Callable[..., Settings], root: Path, events: list[Event], host: str = "claude"
) -> tuple[list[str], str]:
    """The core style view's keys and the session-start text after `events` are processed."""
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(project_id=str(root), events=[event_to_pb(e) for e in events]),
        )
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(root), drain=True))
        backend = GrpcMemoryBackend(c, lambda: [str(root)])
        view = await backend.get_user_style_view(
            str(root), user_id=None, mode="core", budget=SESSION_BUDGET
        )
        start = await hook_context.session_start(
            backend, project_id=str(root), user_id=None, budget=SESSION_BUDGET
        )
    return [item.summary for item in view.items], start.text


def _study_session(name: str, root: Path) -> list[Event]:
    path = STUDY / name / "session.jsonl"
    data = path.read_bytes()
    events = parse_bytes(ClaudeFileParser(str(path)), data, str(path)).events
    return relocate(events, str(root))


async def test_corrections_in_a_real_session_nobody_tuned_on_reach_the_session_start(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    root = (tmp_path / "cli").resolve()
    root.mkdir()
    (root / "go.mod").write_text("module example.com/cli\n\ngo 1.23\n", encoding="utf-8")
    _, text = await _start_of(make_settings, root, _study_session("entire-worktree-branches", root))

    assert "### Your coding style" in text, text
    style = text.split("### Your coding style\n", 1)[1].split("\n\n", 1)[0].lower()
    # "oh, please don't amend commits - …", "yeah it doesn't make sense to commit in a broken
    # state": both said once, as the assistant worked, and both in the session's opening
    assert "amend commits" in style, style
    assert "broken state" in style, style
    # must not: the session's own questions and tasks as the user's style
    assert "worktree" not in style and "shadow branch" not in style, style


async def test_an_emphasised_rule_in_a_real_session_leads_the_core_style_view(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    root = (tmp_path / "cli").resolve()
    root.mkdir()
    (root / "go.mod").write_text("module example.com/cli\n\ngo 1.23\n", encoding="utf-8")
    items, text = await _start_of(
        make_settings, root, _study_session("entire-status-sessions", root)
    )

    # "please please fix up any code quality issues you notice …": stressed, a rule for every
    # such issue, first in the view and in the session's opening
    assert items and "code quality issues you notice" in items[0], items
    style = text.split("### Your coding style\n", 1)[1].split("\n\n", 1)[0]
    assert "code quality issues" in style.splitlines()[0], style
    # must not: "commit this", "launch a draft PR please" (requests of the moment)
    assert "draft PR" not in style and "commit this" not in style.lower(), style


#: A user who writes to Codex CLI in Chinese: a request, a report, a follow-up, per session.
CHINESE_SESSIONS = [
    (
        "帮我看看为什么登录测试失败了",
        "The login test failed because the fixture user has no password.",
        "好的，把夹具里的用户加上密码，然后再运行一次测试",
    ),
]


@pytest.mark.parametrize("host", sorted(HOSTS))
async def test_the_language_the_user_writes_in_reaches_the_session_start(
    make_settings: Callable[..., Settings], tmp_path: Path, host: str
) -> None:
    root = (tmp_path / "app").resolve()
    root.mkdir()
    (root / "README.md").write_text("# app\n", encoding="utf-8")
    events = HOSTS[host](root, 0, CHINESE_SESSIONS[0])
    _, text = await _start_of(make_settings, root, events, host)

    assert "### Your coding style" in text, text
    style = text.split("### Your coding style\n", 1)[1].split("\n\n", 1)[0]
    assert "Chinese" in style and "reply in Chinese" in style, style
    # must not: the task of the session as the user's style
    assert "密码" not in style and "登录" not in style, style
