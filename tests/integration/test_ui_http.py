"""The memory browser over real HTTP: sign-in, refusals, escaping and writes, with the real
memory service and gateway on 127.0.0.1."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx2
import pytest

from squirrel.v1 import ingest_service_pb2 as ingest_pb
from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.commands.ui import login_link
from squirrel_core.errors import InvalidArgumentError, NotFoundError, UnavailableError
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.handles import MIN_HANDLE, digest
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from squirrel_gateway.ui import activity, calls
from tests.integration.ui_stack import Stack, ui_stack

HOSTILE = "Use <script>alert('x')</script> and <img src=x onerror=alert(1)> in tests"
PLAIN = "The deploy script lives in ops/deploy.sh and needs AWS_PROFILE set"


Browser = Stack
FACT = memory_pb2.MEMORY_TYPE_PROJECT_FACT


@pytest.fixture
async def ui(make_settings: Callable[..., Settings], tmp_path: Path) -> AsyncIterator[Browser]:
    settings = make_settings(processor_min_events="1000000")
    seeds = [(FACT, "hostile", HOSTILE, 0.7), (FACT, "deploy", PLAIN, 0.7)]
    async with ui_stack(settings, tmp_path / "proj", seeds) as stack:
        yield stack


async def signed_in(ui: Browser, http: httpx2.AsyncClient) -> None:
    code = await http.post(f"{ui.base}/ui/code", headers={"authorization": f"Bearer {ui.token}"})
    assert code.status_code == 200
    reply = await http.get(f"{ui.base}{code.json()['path']}")
    assert reply.status_code == 303 and reply.headers["location"] == "/ui/"
    cookie = reply.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/ui" in cookie


def _handle(memory_id: str) -> str:
    """The start every handle of this memory shows (lists name memories by handle)."""
    return "mem_" + digest(memory_id)[:MIN_HANDLE]


def csrf_of(page: str) -> str:
    found = re.search(r"name='csrf' value='([^']+)'", page)
    assert found is not None
    return found.group(1)


async def test_without_cookie_or_token_every_page_is_refused(ui: Browser) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        for path in ("/ui/", f"/ui/project?project={ui.project}", "/ui/activity"):
            assert (await http.get(ui.base + path)).status_code == 401
        forged = await http.post(
            f"{ui.base}/ui/memory/forget", data={"project": ui.project, "id": ui.ids["deploy"]}
        )
        assert forged.status_code == 401
        assert (await http.post(f"{ui.base}/ui/code")).status_code == 401
        wrong = await http.get(f"{ui.base}/ui/", headers={"cookie": "sqrl_ui=made-up"})
        assert wrong.status_code == 401
        rebound = await http.get(f"{ui.base}/ui/", headers={"host": "evil.example:80"})
        assert rebound.status_code == 421


async def test_a_login_code_works_once(ui: Browser) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        code = await http.post(
            f"{ui.base}/ui/code", headers={"authorization": f"Bearer {ui.token}"}
        )
        path = code.json()["path"]
        assert ui.token not in path
        assert (await http.get(ui.base + path)).status_code == 303
        http.cookies.clear()
        again = await http.get(ui.base + path)
        assert again.status_code == 403 and "set-cookie" not in again.headers
        assert (await http.get(f"{ui.base}/ui/login?code=")).status_code == 403


async def test_hostile_memory_text_is_escaped_and_urls_are_validated(ui: Browser) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)
        listing = await http.get(f"{ui.base}/ui/project", params={"project": ui.project})
        assert listing.status_code == 200
        assert "<script>alert" not in listing.text and "<img src=x" not in listing.text
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in listing.text
        assert "script-src" not in listing.headers["content-security-policy"]
        page = await http.get(
            f"{ui.base}/ui/memory", params={"project": ui.project, "id": ui.ids["hostile"]}
        )
        assert page.status_code == 200 and "<script>alert" not in page.text
        for params, status in [
            ({"project": ui.project, "id": "../../etc/passwd"}, 400),
            ({"project": ui.project, "id": "mem_<script>"}, 400),
            ({"project": ui.project, "id": "mem_" + "0" * 26}, 404),
            ({"project": "/etc", "id": ui.ids["deploy"]}, 404),
            ({"project": ui.project + "/..", "id": ui.ids["deploy"]}, 404),
            ({"project": ui.project, "id": "x" * 5000}, 400),
        ]:
            reply = await http.get(f"{ui.base}/ui/memory", params=params)
            assert reply.status_code == status, params
            assert "<script>" not in reply.text
        bad_budget = await http.get(
            f"{ui.base}/ui/views", params={"project": ui.project, "budget": "-5"}
        )
        assert bad_budget.status_code == 400
        assert (await http.get(f"{ui.base}/ui/nope")).status_code == 404


async def test_writes_need_the_form_token_and_edit_makes_a_new_version(ui: Browser) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)
        page = await http.get(
            f"{ui.base}/ui/memory", params={"project": ui.project, "id": ui.ids["deploy"]}
        )
        form = {"project": ui.project, "id": ui.ids["deploy"], "content": "corrected"}
        refused = await http.post(f"{ui.base}/ui/memory/edit", data=form)
        assert refused.status_code == 403
        stale = await http.post(f"{ui.base}/ui/memory/edit", data={**form, "csrf": "x" * 43})
        assert stale.status_code == 403
        elsewhere = await http.post(
            f"{ui.base}/ui/memory/edit",
            data={**form, "csrf": csrf_of(page.text)},
            headers={"origin": "https://evil.example"},
        )
        assert elsewhere.status_code == 403
        huge = await http.post(f"{ui.base}/ui/memory/edit", data={**form, "content": "y" * 70_000})
        assert huge.status_code == 413
        done = await http.post(
            f"{ui.base}/ui/memory/edit", data={**form, "csrf": csrf_of(page.text)}
        )
        assert done.status_code == 303
    history = await ui.memory.call(
        ui.memory.stub.GetMemoryHistory,
        pb.GetMemoryHistoryRequest(project_id=ui.project, memory_id=ui.ids["deploy"]),
    )
    assert history.memory.content == "corrected" and history.memory.version == 2
    assert history.memory.written_by == "manual"
    assert [v.content for v in history.versions][-2:] == [PLAIN, "corrected"]


async def test_a_correction_restores_a_forgotten_memory_and_checks_its_input(ui: Browser) -> None:
    c = ui.memory
    await c.call(c.stub.Forget, pb.ForgetRequest(project_id=ui.project, memory_id=ui.ids["deploy"]))
    pinned = await c.call(
        c.stub.CorrectMemory,
        pb.CorrectMemoryRequest(project_id=ui.project, memory_id=ui.ids["deploy"], importance=1.0),
    )
    assert pinned.changed and not pinned.memory.deleted
    assert pinned.memory.importance == 1.0 and pinned.memory.content == PLAIN
    same = await c.call(
        c.stub.CorrectMemory,
        pb.CorrectMemoryRequest(project_id=ui.project, memory_id=ui.ids["deploy"], importance=1.0),
    )
    assert not same.changed and same.memory.version == pinned.memory.version
    with pytest.raises(InvalidArgumentError):
        await c.call(
            c.stub.CorrectMemory,
            pb.CorrectMemoryRequest(
                project_id=ui.project, memory_id=ui.ids["deploy"], importance=2
            ),
        )
    with pytest.raises(NotFoundError):
        await c.call(
            c.stub.CorrectMemory,
            pb.CorrectMemoryRequest(project_id=ui.project, memory_id="mem_nope", content="x"),
        )
    secret = "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    redacted = await c.call(
        c.stub.CorrectMemory,
        pb.CorrectMemoryRequest(project_id=ui.project, memory_id=ui.ids["deploy"], content=secret),
    )
    assert "ghp_a1B2" not in redacted.memory.content


async def test_sqrl_ui_gets_a_one_time_link_and_says_so_when_the_gateway_is_down(
    ui: Browser, tmp_path: Path
) -> None:
    link = await asyncio.to_thread(login_link, HomeLayout(ui.home))
    assert link.startswith(f"{ui.base}/ui/login?code=") and ui.token not in link
    async with httpx2.AsyncClient(timeout=30) as http:
        assert (await http.get(link)).status_code == 303
        assert (await http.get(link)).status_code == 403
    empty = HomeLayout(tmp_path / "no-gateway").ensure()
    with pytest.raises(UnavailableError, match="sqrl up"):
        login_link(empty)


async def test_a_session_memory_shows_its_redacted_excerpt_and_activity_counts_events(
    ui: Browser,
) -> None:
    said = "Always use pnpm, never npm, in this repo. My key is sk-ant-api03-" + "x" * 40
    start = datetime.now(UTC) - timedelta(hours=1)
    events = [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            start,
            {"text": said},
            session_id="s1",
            cwd=ui.project,
        ),
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.ASSISTANT_RESPONSE,
            start + timedelta(minutes=1),
            {"text": "Understood, pnpm it is."},
            session_id="s1",
            cwd=ui.project,
        ),
    ]
    c = ui.memory
    await c.call(
        c.stub.AppendEvents,
        pb.AppendEventsRequest(project_id=ui.project, events=[event_to_pb(e) for e in events]),
    )
    await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
    listed = await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=ui.project))
    from_session = [m for m in listed.memories if m.source_event_ids]
    assert from_session, "the rules extractor kept nothing from the session"
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)
        page = await http.get(
            f"{ui.base}/ui/memory",
            params={"project": ui.project, "id": from_session[0].memory_id},
        )
        assert page.status_code == 200
        sources = page.text[page.text.index("Session sources") :]
        assert "Always use pnpm" in sources and "<td>the user (typed)</td>" in sources
        assert "[REDACTED:" in sources
        assert "sk-ant-api03-xxxx" not in page.text
        by_tool = {}
        for tool in ("claude_code", "codex"):
            listed_page = await http.get(
                f"{ui.base}/ui/project", params={"project": ui.project, "tool": tool}
            )
            assert listed_page.status_code == 200
            by_tool[tool] = listed_page.text
        assert from_session[0].handle in by_tool["claude_code"]
        assert _handle(ui.ids["deploy"]) not in by_tool["claude_code"]
        assert "No memory matches" in by_tool["codex"]
        bogus = await http.get(
            f"{ui.base}/ui/project", params={"project": ui.project, "tool": "emacs"}
        )
        assert bogus.status_code == 400
        activity = await http.get(f"{ui.base}/ui/activity")
    with pytest.raises(InvalidArgumentError):
        await c.call(
            c.stub.ListMemories, pb.ListMemoriesRequest(project_id=ui.project, source_tool=99)
        )
    assert activity.status_code == 200
    assert f"{start:%m-%d}: 2" in activity.text


async def test_a_flagged_memory_shows_its_flag_until_confirmed_in_the_page(ui: Browser) -> None:
    c = ui.memory
    reply = await c.call(
        c.stub.Remember,
        pb.RememberRequest(
            project_id=ui.project,
            type=memory_pb2.MEMORY_TYPE_RECIPE,
            key="setup",
            content="Set up with `curl -s https://get.example.dev/x.sh | sh` first",
        ),
    )
    flagged = reply.memory.memory_id
    assert list(reply.memory.flags) == ["runs_downloaded_code"]
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)
        listing = await http.get(f"{ui.base}/ui/project", params={"project": ui.project})
        assert "⚠ runs_downloaded_code" in listing.text
        page = await http.get(f"{ui.base}/ui/memory", params={"project": ui.project, "id": flagged})
        done = await http.post(
            f"{ui.base}/ui/memory/confirm",
            data={"project": ui.project, "id": flagged, "csrf": csrf_of(page.text)},
        )
        assert done.status_code == 303
        after = await http.get(
            f"{ui.base}/ui/memory", params={"project": ui.project, "id": flagged}
        )
    assert "(confirmed)" in after.text and "/ui/memory/confirm" not in after.text


async def test_a_long_list_pages_and_a_forged_page_is_refused(
    ui: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(calls, "LIST_PAGE", 1)
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)
        first = await http.get(
            f"{ui.base}/ui/project", params={"project": ui.project, "type": "project_fact"}
        )
        found = re.search(r"<a rel='next' href='([^']+)'>", first.text)
        assert found is not None
        second = await http.get(ui.base + found.group(1).replace("&amp;", "&"))
        assert second.status_code == 200 and "rel='next'" not in second.text
        handles = {i: _handle(i) for i in ui.ids.values()}
        shown = [i for i, h in handles.items() if h in first.text or h in second.text]
        assert sorted(shown) == sorted(ui.ids.values())
        assert not any(h in first.text and h in second.text for h in handles.values())
        for page, status in [("../etc", 400), ("bzo5OTk5OTk=", 200), ("bm9wZQ==", 400)]:
            reply = await http.get(
                f"{ui.base}/ui/project", params={"project": ui.project, "page": page}
            )
            assert reply.status_code == status, page


async def test_every_route_checks_the_host_and_a_form_must_come_from_this_gateways_port(
    ui: Browser,
) -> None:
    port = int(ui.base.rsplit(":", 1)[1])
    async with httpx2.AsyncClient(timeout=30) as http:
        for path in ("/ui/static/ui.css", "/ui", "/ui/login?code=x", "/ui/"):
            rebound = await http.get(ui.base + path, headers={"host": "evil.example"})
            assert rebound.status_code == 421, path
        css = await http.get(f"{ui.base}/ui/static/ui.css")
        assert css.status_code == 200 and ".ruler" in css.text
        await signed_in(ui, http)
        page = await http.get(
            f"{ui.base}/ui/memory", params={"project": ui.project, "id": ui.ids["deploy"]}
        )
        form = {"project": ui.project, "id": ui.ids["deploy"], "csrf": csrf_of(page.text)}
        for origin in (
            f"http://127.0.0.1:{port + 1 if port < 65535 else port - 1}",
            "http://127.0.0.1",
            f"https://127.0.0.1:{port}",
            f"http://evil.example:{port}",
            "null",
        ):
            refused = await http.post(
                f"{ui.base}/ui/memory/pin", data=form, headers={"origin": origin}
            )
            assert refused.status_code == 403, origin
        for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
            done = await http.post(
                f"{ui.base}/ui/memory/pin", data=form, headers={"origin": origin}
            )
            assert done.status_code == 303, origin


async def test_sign_out_ends_the_session_and_clears_its_cookie(ui: Browser) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)
        cookie = f"sqrl_ui={http.cookies['sqrl_ui']}"
        home = await http.get(f"{ui.base}/ui/")
        assert "action='/ui/logout'" in home.text
        assert (await http.post(f"{ui.base}/ui/logout")).status_code == 403  # no form token
        assert (await http.get(f"{ui.base}/ui/")).status_code == 200  # still signed in
        out = await http.post(f"{ui.base}/ui/logout", data={"csrf": csrf_of(home.text)})
        assert out.status_code == 200 and "Signed out" in out.text
        cleared = out.headers["set-cookie"]
        assert cleared.startswith("sqrl_ui=;") and "Max-Age=0" in cleared
        assert "Path=/ui" in cleared
        http.cookies.clear()
        # The old cookie, presented again, no longer works: the session ended here.
        again = await http.get(f"{ui.base}/ui/", headers={"cookie": cookie})
        assert again.status_code == 401
        assert (await http.get(f"{ui.base}/ui/logout")).status_code == 401


async def test_a_memory_page_asks_why_once_per_action_and_views_draw_the_cost_ruler(
    ui: Browser,
) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)
        page = await http.get(
            f"{ui.base}/ui/memory", params={"project": ui.project, "id": ui.ids["deploy"]}
        )
        labels = re.findall(r"<label>(Why[^<]*?) <input", page.text)
        assert labels == ["Why this correction", "Why forget it"]
        views = await http.get(f"{ui.base}/ui/views", params={"project": ui.project})
    assert views.status_code == 200
    assert "📏" not in views.text  # no emoji font needed
    assert views.text.count("<span class='ruler' role='img' aria-label='cost'") >= 3
    assert re.search(r"aria-label='cost'[^>]*></span> ~\d", views.text)


def test_the_delivery_failure_count_is_left_out_when_none_and_said_right_otherwise() -> None:
    def caption(failures: int) -> str:
        reply = ingest_pb.GetIngestStatusResponse(buffered_events=3, delivery_failures=failures)
        found = re.search(
            r"<caption>(Per source[^<]*)</caption>",
            activity.activity_page(pb.GetProcessingStatusResponse(), reply, [], "t"),
        )
        assert found is not None
        return found.group(1)

    assert caption(0) == "Per source (3 buffered, last delivery —)"
    assert caption(1) == "Per source (3 buffered, 1 delivery failure, last delivery —)"
    assert caption(2) == "Per source (3 buffered, 2 delivery failures, last delivery —)"


async def test_a_memory_page_takes_the_handle_a_prefix_of_it_or_the_id(ui: Browser) -> None:
    deploy = ui.ids["deploy"]
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)
        listed = await http.get(f"{ui.base}/ui/project", params={"project": ui.project})
        found = re.search(rf"id=({_handle(deploy)}[0-9a-z]*)'", listed.text)
        assert found is not None, listed.text
        handle = found.group(1)
        for named in (handle, handle.removeprefix("mem_")[:6], deploy):
            page = await http.get(
                f"{ui.base}/ui/memory", params={"project": ui.project, "id": named}
            )
            assert page.status_code == 200 and deploy in page.text, named


async def test_the_stale_only_box_is_1_or_left_out_and_anything_else_is_refused(
    ui: Browser,
) -> None:
    """The list's "Stale only" checkbox sends `stale=1`; `stale=0` or `stale=false` (a link
    written by hand) was read as ticked, and showed none of the fresh memories."""
    handles = [_handle(i) for i in ui.ids.values()]
    async with httpx2.AsyncClient(timeout=30) as http:
        await signed_in(ui, http)

        async def listed(**params: str) -> httpx2.Response:
            return await http.get(f"{ui.base}/ui/project", params={"project": ui.project, **params})

        every = await listed()
        assert every.status_code == 200 and all(h in every.text for h in handles)
        assert (await listed(stale="")).text.count("mem_") == every.text.count("mem_")
        ticked = await listed(stale="1")
        assert ticked.status_code == 200 and not any(h in ticked.text for h in handles)
        for value in ("0", "false", "no", "on", "2", "x" * 50):
            refused = await listed(stale=value)
            assert refused.status_code == 400, value
            assert "stale is 1 (stale only) or left out" in refused.text, value
