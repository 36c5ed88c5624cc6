"""The memory browser's routes at `/ui/…`, in front of the bearer-guarded MCP app.

`POST /ui/code` (bearer token) issues a one-time login code; `GET /ui/login?code=…` trades it
for a session cookie; every other `/ui` page needs that cookie (or the bearer token), and every
write needs the session's form token too. Reads and writes go through the same backend and
response code as the MCP tools, so the page shows what the assistant gets.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from importlib import resources
from typing import Final

import structlog
from starlette.types import ASGIApp, Receive, Scope, Send

from squirrel_core.auth import token_matches
from squirrel_core.budget_limits import MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS
from squirrel_core.errors import (
    InvalidArgumentError,
    NotFoundError,
    SquirrelError,
    UnavailableError,
)
from squirrel_core.read_shapes import MEMORY_TYPES
from squirrel_gateway import messages, responses
from squirrel_gateway.arguments import MAX_QUERY_CHARS
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.team_backend import TeamMemoryBackend
from squirrel_gateway.ui import activity, pages
from squirrel_gateway.ui.arguments import csrf_of, memory_id_arg, project_arg, where_arg
from squirrel_gateway.ui.auth import (
    Session,
    UiSessions,
    cleared_cookie_header,
    cookie_header,
    cookie_value,
    form_token_ok,
)
from squirrel_gateway.ui.calls import SOURCES, TOOLS, BrowserCalls, list_request
from squirrel_gateway.ui.html import PAGE_HEADERS, esc, href, page
from squirrel_gateway.ui.http import (
    Handler,
    PageError,
    Redirect,
    Request,
    header,
    loopback_host,
    own_origin,
    parse_form,
    read_form,
    redirect,
    send_page,
)
from squirrel_gateway.ui.team_view import TEAM, TeamBrowse, away_notice, switch
from squirrel_gateway.ui.writes import BrowserWrites

log = structlog.get_logger()

UI_PATH: Final = "/ui"
SIGN_OUT_PATH: Final = "/ui/logout"
PAGE_TOKEN: Final = re.compile(r"[A-Za-z0-9_=-]{0,64}")
DEFAULT_BUDGET: Final = 800
SEARCH_TOP_K: Final = 25
SEARCH_BUDGET: Final = 8000


class UiRoutes:
    """ASGI: `/ui/…` served here; everything else goes to `app` (the bearer-guarded MCP app)."""

    def __init__(
        self,
        app: ASGIApp,
        token: str,
        backend: GrpcMemoryBackend,
        calls: BrowserCalls,
        sessions: UiSessions | None = None,
        *,
        team: TeamMemoryBackend | None = None,
    ) -> None:
        self._team = TeamBrowse(team) if team is not None else None
        self._app = app
        self._token = token
        self._backend = backend
        self._calls = calls
        self.sessions = sessions or UiSessions()
        self._gets: dict[str, Handler] = {
            "/ui/": self._index,
            "/ui/project": self._project,
            "/ui/memory": self._memory,
            "/ui/views": self._views,
            "/ui/activity": self._activity,
        }
        writes = BrowserWrites(backend, calls)
        self._posts: dict[str, Handler] = {
            "/ui/memory/edit": writes.edit,
            "/ui/memory/pin": writes.pin,
            "/ui/memory/forget": writes.forget,
            "/ui/memory/restore": writes.restore,
            "/ui/memory/confirm": writes.confirm,
            "/ui/activity/retry": writes.retry,
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or not (path == UI_PATH or path.startswith(UI_PATH + "/")):
            await self._app(scope, receive, send)
            return
        method = str(scope.get("method", "GET"))
        try:
            await self._route(scope, receive, send, path, method)
        except PageError as exc:
            await send_page(send, exc.status, _error_page(exc.status, exc.message), PAGE_HEADERS)

    async def _route(
        self, scope: Scope, receive: Receive, send: Send, path: str, method: str
    ) -> None:
        if not loopback_host(header(scope, b"host")):
            # A page reached under another name (DNS rebinding) is not ours to answer: on every
            # route, the stylesheet and the redirect too.
            raise PageError(421, "the memory browser answers on 127.0.0.1 or localhost only")
        if path == UI_PATH:
            await redirect(send, "/ui/")
            return
        if path == "/ui/static/ui.css":
            css = resources.files("squirrel_gateway.ui").joinpath("ui.css").read_bytes()
            await send_page(send, 200, css, ((b"content-type", b"text/css"),))
            return
        bearer = token_matches(header(scope, b"authorization"), self._token)
        if path == "/ui/code" and method == "POST":
            if not bearer:
                raise PageError(401, "the bearer token is required to issue a login code")
            code = self.sessions.issue_code()
            code_json = json.dumps({"code": code, "path": f"/ui/login?code={code}"}).encode()
            await send_page(send, 200, code_json, ((b"content-type", b"application/json"),))
            return
        query = parse_form(bytes(scope.get("query_string", b"")))
        if path == "/ui/login" and method == "GET":
            session = self.sessions.redeem(query.get("code", ""))
            if session is None:
                log.info("ui_login_refused")
                raise PageError(
                    403, "this link was used already or has expired: run `sqrl ui` again"
                )
            log.info("ui_login")
            await redirect(send, "/ui/", ((b"set-cookie", cookie_header(session)),))
            return
        session = self.sessions.session(cookie_value(header(scope, b"cookie")))
        if session is None and not bearer:
            log.info("ui_refused", status=401)
            raise PageError(401, "not signed in: run `sqrl ui` to open the memory browser")
        handler = (self._gets if method == "GET" else self._posts if method == "POST" else {}).get(
            path
        )
        signing_out = path == SIGN_OUT_PATH and method == "POST"
        if handler is None and not signing_out:
            raise PageError(404 if method in ("GET", "POST") else 405, "no such page")
        form: dict[str, str] = {}
        if method == "POST":
            origin = header(scope, b"origin")
            if origin is not None and not own_origin(origin, scope):
                log.info("ui_refused", status=403, why="origin")
                raise PageError(403, "this form was sent from another site")
            form = parse_form(await read_form(receive))
            if not bearer and (session is None or not form_token_ok(session, form.get("csrf"))):
                log.info("ui_refused", status=403, why="form_token")
                raise PageError(403, "this form is stale or came from elsewhere: reload the page")
        if handler is None:  # only the sign-out gets here without one
            await self._sign_out(send, session)
            return
        request = Request(scope, query, form)
        request.session = session
        try:
            answer = await handler(request)
        except (InvalidArgumentError, NotFoundError) as exc:
            raise PageError(
                404 if isinstance(exc, NotFoundError) else 400, str(exc)[:300]
            ) from None
        except UnavailableError as exc:
            raise PageError(503, f"a service is not running: {str(exc)[:200]}") from None
        except SquirrelError as exc:
            raise PageError(400, str(exc)[:300]) from None
        if isinstance(answer, Redirect):
            await redirect(send, answer.location)
            return
        await send_page(send, 200, answer, PAGE_HEADERS)

    async def _sign_out(self, send: Send, session: Session | None) -> None:
        """Ends the session (its cookie stops working here at once) and clears the cookie."""
        if session is not None:
            self.sessions.end(session)
        log.info("ui_signed_out")
        body = page(
            "Signed out",
            "<p class='notice' role='status'>Signed out. Run <code>sqrl ui</code> to open the "
            "memory browser again.</p>",
        )
        await send_page(send, 200, body, (*PAGE_HEADERS, (b"set-cookie", cleared_cookie_header())))

    # --- pages --------------------------------------------------------------------------------

    async def _index(self, request: Request) -> bytes:
        return page("Projects", pages.index_page(self._calls.projects()), csrf=csrf_of(request))

    async def _project(self, request: Request) -> bytes:
        project_id = project_arg(request, self._calls)
        chosen = {
            name: request.arg(name, MAX_QUERY_CHARS)
            for name in ("q", "type", "source", "tool", "written_by", "stale", "page")
        }
        if chosen["type"] and chosen["type"] not in MEMORY_TYPES:
            raise PageError(400, "unknown memory type")
        if chosen["source"] and chosen["source"] not in SOURCES:
            raise PageError(400, "unknown source")
        if chosen["tool"] and chosen["tool"] not in TOOLS:
            raise PageError(400, "unknown session tool")
        if not PAGE_TOKEN.fullmatch(chosen["page"]):
            raise PageError(400, "not a page of this list")
        if chosen["stale"] not in ("", "1"):  # the checkbox sends 1; `stale=0` is no "off"
            raise PageError(400, "stale is 1 (stale only) or left out")
        where = where_arg(request, self._team)
        asked = list_request(
            project_id,
            types=[messages.memory_type_value(chosen["type"])] if chosen["type"] else [],
            source=chosen["source"] or None,
            include_deleted=False,
            tool=chosen["tool"] or None,
            page=chosen["page"],
        )
        top = switch(project_id, "/ui/project", where, self._team is not None)
        if self._team is not None and where == TEAM:
            team_listed, notes = await self._team.list_memories(project_id, asked)
            if team_listed is None:
                return page(
                    f"Team memories of {project_id}",
                    top + away_notice(notes),
                    nav=pages.project_nav(project_id),
                    csrf=csrf_of(request),
                )
            listed = team_listed
        else:
            listed = await self._calls.list_memories(
                project_id,
                types=list(asked.types),
                source=chosen["source"] or None,
                include_deleted=False,
                tool=chosen["tool"] or None,
                page=chosen["page"],
            )
        writers = sorted({m.written_by for m in listed.memories if m.written_by})
        body = top + pages.filter_form(project_id, chosen, writers, where)
        if chosen["q"].strip():
            found = await responses.search(
                self._team.backend if self._team is not None and where else self._backend,
                project_root=project_id,
                query=chosen["q"],
                top_k=SEARCH_TOP_K,
                types=[chosen["type"]] if chosen["type"] else None,
                scope_paths=None,
                cursor=None,
                budget=SEARCH_BUDGET,
            )
            body += pages.search_results(project_id, found.output, where)
        else:
            items = [
                m
                for m in listed.memories
                if (not chosen["written_by"] or m.written_by == chosen["written_by"])
                and (not chosen["stale"] or pages.is_stale(m, project_id))
            ]
            body += pages.memory_tables(project_id, items, listed.total_count, _now(), where)
            if listed.next_page_token:
                more = {k: v for k, v in {**chosen, "where": where}.items() if v and k != "page"}
                body += (
                    "<p><a rel='next' href='"
                    + href("/ui/project", project=project_id, page=listed.next_page_token, **more)
                    + "'>Next page</a></p>"
                )
        return page(
            f"Memories of {project_id}",
            body,
            nav=pages.project_nav(project_id),
            csrf=csrf_of(request),
        )

    async def _memory(self, request: Request) -> bytes:
        project_id = project_arg(request, self._calls)
        memory_id = memory_id_arg(request)
        where = where_arg(request, self._team)
        if self._team is not None and where == TEAM:
            team_reply, notes = await self._team.history(project_id, memory_id)
            if team_reply is None:
                return page(
                    "Team memory",
                    away_notice(notes),
                    nav=pages.project_nav(project_id),
                    csrf=csrf_of(request),
                )
            body = pages.memory_page(
                project_id, team_reply, csrf_of(request), _now(), read_only=True
            )
            return page(
                f"Team memory {team_reply.memory.memory_id}",
                body,
                nav=pages.project_nav(project_id),
                csrf=csrf_of(request),
            )
        reply = await self._calls.history(project_id, memory_id)
        done = request.arg("done", 40)
        notice = f"<p class='notice' role='status'>{esc(done)}.</p>" if done.isalpha() else ""
        body = notice + pages.memory_page(project_id, reply, csrf_of(request), _now())
        return page(
            f"Memory {reply.memory.memory_id}",
            body,
            nav=pages.project_nav(project_id),
            csrf=csrf_of(request),
        )

    async def _views(self, request: Request) -> bytes:
        project_id = project_arg(request, self._calls)
        raw = request.arg("budget", 10) or str(DEFAULT_BUDGET)
        if not raw.isdigit() or not MIN_BUDGET_TOKENS <= int(raw) <= MAX_BUDGET_TOKENS:
            raise PageError(400, f"budget must be {MIN_BUDGET_TOKENS}-{MAX_BUDGET_TOKENS} tokens")
        budget = int(raw)
        task = request.arg("task", 4000)
        style = await responses.user_style_view(
            self._backend, project_root=project_id, mode="core", user_id=None, budget=budget
        )
        brief = await responses.project_brief_view(
            self._backend, project_root=project_id, mode="core", budget=budget
        )
        pitfalls = await responses.pitfalls_view(
            self._backend,
            project_root=project_id,
            scope_paths=None,
            task_description=task or None,
            budget=budget,
        )
        blocks = [
            pages.view_block(
                "User style", style.output.markdown, style.token_estimate, style.shown, style.total
            ),
            pages.view_block(
                "Project brief",
                brief.output.markdown,
                brief.token_estimate,
                brief.shown,
                brief.total,
            ),
            pages.view_block(
                "Pitfalls",
                pitfalls.output.markdown,
                pitfalls.token_estimate,
                pitfalls.shown,
                pitfalls.total,
            ),
        ]
        if task.strip():
            context = await responses.task_context(
                self._backend,
                project_root=project_id,
                task_description=task,
                active_file_paths=None,
                preferred_memory_types=None,
                user_id=None,
                budget=budget,
            )
            blocks.insert(
                0,
                pages.view_block(
                    "Task context preview",
                    context.output.markdown,
                    context.token_estimate,
                    context.shown,
                    context.total,
                ),
            )
        body = pages.views_form(project_id, budget, task) + (
            "<div class='views'>" + "".join(blocks) + "</div>"
        )
        return page(
            "As the assistant sees it",
            body,
            nav=pages.project_nav(project_id),
            csrf=csrf_of(request),
        )

    async def _activity(self, request: Request) -> bytes:
        status = await self._calls.processing()
        try:
            ingest = await self._calls.ingest_status()
        except SquirrelError:
            ingest = None
        created: list[datetime] = []
        for project in status.projects[:20]:
            listed = await self._calls.list_memories(
                project.project_id, types=[], source=None, include_deleted=True
            )
            created.extend(m.created_at.ToDatetime(tzinfo=UTC) for m in listed.memories)
        body = activity.activity_page(status, ingest, created, csrf_of(request))
        done = request.arg("done", 40)
        if done.isalpha():
            body = f"<p class='notice' role='status'>{esc(done)}.</p>" + body
        return page("Activity", body, csrf=csrf_of(request))


def _now() -> datetime:
    return datetime.now(UTC)


def _error_page(status: int, message: str) -> bytes:
    return page(f"Error {status}", f"<p class='error' role='alert'>{esc(message)}</p>")
