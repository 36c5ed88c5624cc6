"""The memory browser in a real headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright): sign in with a one-time link, search, correct, forget, and see MCP follow at once.

Set SQRL_UI_SCREENSHOTS=<folder> to also save PNGs of the main pages (docs/ has them).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from tests.integration.ui_stack import Stack, ui_stack
from tests.mcp_host import model_reads

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium (`apt-get install chromium`; .ci/run installs it)",
    ),
]
# Without the networking flags Chromium keeps calling home, refused on a closed network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEPLOY = "The deploy script lives in ops/deploy.sh and needs AWS_PROFILE set"
CORRECTED = "The deploy script lives in ops/release.sh and needs AWS_PROFILE set"
HOSTILE = "Never <script>document.title='pwned'</script> trust <b onmouseover=alert(1)>bold</b>"
MEMORIES = [
    (memory_pb2.MEMORY_TYPE_PROJECT_FACT, "deploy", DEPLOY, 0.8),
    (memory_pb2.MEMORY_TYPE_PROJECT_FACT, "hostile", HOSTILE, 0.5),
    (
        memory_pb2.MEMORY_TYPE_PITFALL,
        "migrations",
        "Run migrations before the tests or they fail",
        0.9,
    ),
    (memory_pb2.MEMORY_TYPE_USER_STYLE, "pref:tests", "Prefers pytest with plain asserts", 0.7),
    (
        memory_pb2.MEMORY_TYPE_RECIPE,
        "lint",
        "Lint with `ruff check . && ruff format --check .`",
        0.6,
    ),
]


Served = Stack


@pytest.fixture
async def served(make_settings: Callable[..., Settings], tmp_path: Path) -> AsyncIterator[Served]:
    settings = make_settings(processor_min_events="1000000")
    async with ui_stack(settings, tmp_path / "shop", MEMORIES) as stack:
        yield stack


async def append_sessions(served: Served) -> None:
    """A few user and assistant messages on each of the last four days."""
    now = datetime.now(UTC)
    events = [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE if i % 2 == 0 else EventType.ASSISTANT_RESPONSE,
            now - timedelta(days=day, minutes=30 - i),
            {"text": f"message {i} of day {day}"},
            session_id=f"s{day}",
            cwd=served.project,
        )
        for day in range(4)
        for i in range(2 + 2 * day)
    ]
    await served.memory.call(
        served.memory.stub.AppendEvents,
        pb.AppendEventsRequest(project_id=served.project, events=[event_to_pb(e) for e in events]),
    )


async def login_link(served: Served) -> str:
    async with httpx2.AsyncClient(timeout=60) as http:
        reply = await http.post(
            f"{served.base}/ui/code", headers={"authorization": f"Bearer {served.token}"}
        )
    reply.raise_for_status()
    return served.base + reply.json()["path"]


async def mcp_search(served: Served, query: str) -> str:
    headers = {"authorization": f"Bearer {served.token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(f"{served.base}/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool(
            "search_project_memory",
            {"project_root": served.project, "query": query, "context_budget_tokens": 2000},
        )
    assert not result.is_error
    return model_reads(result)


async def test_the_browser_signs_in_once_finds_corrects_and_forgets(
    served: Served, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright  # noqa: PLC0415 - only with chromium

    shots = os.environ.get("SQRL_UI_SCREENSHOTS")
    dialogs: list[str] = []
    link = await login_link(served)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            context = await browser.new_context(viewport={"width": 1280, "height": 800})
            page = await context.new_page()
            page.on("dialog", lambda d: dialogs.append(d.message))

            async def shot(name: str) -> None:
                if shots:
                    await page.screenshot(path=str(Path(shots) / f"ui-{name}.png"))

            # The one-time link signs in and lands on the projects page.
            await page.goto(link)
            assert page.url == f"{served.base}/ui/"
            assert "code=" not in page.url
            await page.get_by_role("link", name=served.project).click()

            # The listing shows hostile text as text: no script ran, no element was made.
            await page.get_by_text(
                "<script>document.title='pwned'</script>", exact=False
            ).wait_for()
            assert await page.title() != "pwned"
            assert await page.locator("main b").count() == 0
            await shot("memories")

            # Search (the MCP search) finds the memory; its page has the history.
            await page.get_by_label("Search (same as the assistant's)").fill("deploy script")
            await page.keyboard.press("Enter")
            await page.get_by_role("link", name=DEPLOY).click()
            assert "id=mem_" in page.url  # linked by its handle
            await page.get_by_text(served.ids["deploy"]).first.wait_for()  # the page names it

            # Editing makes version 2, visible in the history with version 1 kept.
            await page.get_by_label("Corrected text (extraction never overwrites it)").fill(
                CORRECTED
            )
            await page.get_by_role("button", name="Save correction").click()
            await page.get_by_role("status").filter(has_text="Saved").wait_for()
            history = page.locator("table", has=page.locator("caption", has_text="Every version"))
            rows = await history.locator("tbody tr").all_inner_texts()
            assert len(rows) == 2 and DEPLOY in rows[0] and CORRECTED in rows[1]
            assert "manual" in rows[1]
            await shot("memory")

            # Forget: gone from the assistant's search at once.
            assert served.ids["deploy"] in await mcp_search(served, "deploy script release")
            await page.get_by_role("button", name="Forget").click()
            await page.get_by_role("status").filter(has_text="Forgotten").wait_for()
            assert served.ids["deploy"] not in await mcp_search(served, "deploy script release")

            # The views at a chosen budget and the task-context preview.
            await page.goto(f"{served.base}/ui/views?" + _query(served.project))
            await page.get_by_label("Budget (tokens)").fill("300")
            await page.get_by_label("Task (for the task-context preview)").fill("run the tests")
            await page.get_by_role("button", name="Show").click()
            await page.get_by_role("heading", name="Task context preview").wait_for()
            assert "migrations" in (await page.locator("main").inner_text()).lower()
            # The token footer's ruler is drawn by the stylesheet: no emoji font needed.
            assert "📏" not in await page.locator("main").inner_text()
            # The stylesheet may still be loading on a busy machine: wait for it, not a time.
            await page.wait_for_load_state("load")
            await page.wait_for_function(
                "() => [...document.querySelectorAll('main .ruler')]"
                ".some(r => r.getBoundingClientRect().width > 4)",
                timeout=120_000,
            )
            ruler = page.get_by_role("img", name="cost").first
            box = await ruler.bounding_box()
            assert box is not None and box["width"] > 4 and box["height"] > 2
            await shot("views")
            await append_sessions(served)
            await page.goto(f"{served.base}/ui/activity")
            await page.get_by_role("heading", name="Processing per project").wait_for()
            await shot("activity")

            # Sign out: the session ends; its pages are refused afterwards.
            await page.get_by_role("button", name="Sign out").click()
            await page.get_by_role("status").filter(has_text="Signed out").wait_for()
            after = await page.goto(f"{served.base}/ui/")
            assert after is not None and after.status == 401

            # The same link again, in a fresh browser: refused. No cookie: refused.
            fresh = await browser.new_context()
            other = await fresh.new_page()
            again = await other.goto(link)
            assert again is not None and again.status == 403
            assert "used already" in await other.locator("main").inner_text()
            bare = await other.goto(f"{served.base}/ui/project?" + _query(served.project))
            assert bare is not None and bare.status == 401
            await fresh.close()
        finally:
            await browser.close()
    assert dialogs == []


def _query(project: str, **extra: Any) -> str:
    from urllib.parse import urlencode  # noqa: PLC0415

    return urlencode({"project": project, **extra})
