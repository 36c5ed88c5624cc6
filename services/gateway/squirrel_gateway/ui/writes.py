"""The memory browser's writes: correct, pin, forget, restore, confirm a memory; retry parked
work. Each answers with a redirect to the page that shows the outcome."""

from __future__ import annotations

import structlog

from squirrel_gateway import responses
from squirrel_gateway.arguments import MAX_MEMORY_CHARS, MAX_REASON_CHARS
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.ui.arguments import memory_id_arg, project_arg
from squirrel_gateway.ui.calls import BrowserCalls
from squirrel_gateway.ui.html import href
from squirrel_gateway.ui.http import PageError, Redirect, Request

log = structlog.get_logger()


class BrowserWrites:
    """The POST handlers of the memory browser, over the memory backend and its calls."""

    def __init__(self, backend: GrpcMemoryBackend, calls: BrowserCalls) -> None:
        self._backend = backend
        self._calls = calls

    async def edit(self, request: Request) -> Redirect:
        project_id, memory_id = project_arg(request, self._calls), memory_id_arg(request)
        content = request.arg("content", MAX_MEMORY_CHARS)
        if not content.strip():
            raise PageError(400, "the corrected text is empty")
        await self._calls.correct(
            project_id,
            memory_id,
            content=content,
            reason=request.arg("reason", MAX_REASON_CHARS) or "corrected by the user",
        )
        log.info("ui_memory_corrected", memory_id=memory_id)
        return _to(href("/ui/memory", project=project_id, id=memory_id, done="Saved"))

    async def pin(self, request: Request) -> Redirect:
        project_id, memory_id = project_arg(request, self._calls), memory_id_arg(request)
        await self._calls.correct(
            project_id, memory_id, importance=1.0, reason="pinned by the user"
        )
        log.info("ui_memory_pinned", memory_id=memory_id)
        return _to(href("/ui/memory", project=project_id, id=memory_id, done="Pinned"))

    async def forget(self, request: Request) -> Redirect:
        project_id, memory_id = project_arg(request, self._calls), memory_id_arg(request)
        await responses.forget(
            self._backend,
            project_root=project_id,
            memory_id=memory_id,
            reason=request.arg("reason", MAX_REASON_CHARS) or "forgotten in the memory browser",
        )
        return _to(href("/ui/memory", project=project_id, id=memory_id, done="Forgotten"))

    async def restore(self, request: Request) -> Redirect:
        project_id, memory_id = project_arg(request, self._calls), memory_id_arg(request)
        raw = request.arg("version", 10)
        if not raw.isdigit():
            raise PageError(400, "not a version number")
        reply = await self._calls.history(project_id, memory_id)
        version = next((v for v in reply.versions if v.version == int(raw)), None)
        if version is None or not version.content:
            raise PageError(404, "no such version")
        await self._calls.correct(
            project_id,
            memory_id,
            content=version.content,
            importance=version.importance if version.importance > 0 else 0.0,
            reason=f"restored version {version.version}",
        )
        log.info("ui_memory_restored", memory_id=memory_id, version=version.version)
        return _to(href("/ui/memory", project=project_id, id=memory_id, done="Restored"))

    async def confirm(self, request: Request) -> Redirect:
        project_id, memory_id = project_arg(request, self._calls), memory_id_arg(request)
        await self._calls.confirm(project_id, memory_id)
        log.info("ui_memory_confirmed", memory_id=memory_id)
        return _to(href("/ui/memory", project=project_id, id=memory_id, done="Confirmed"))

    async def retry(self, request: Request) -> Redirect:
        project_id = project_arg(request, self._calls)
        await self._calls.retry(project_id)
        return Redirect("/ui/activity?done=Retried")


def _to(escaped: str) -> Redirect:
    return Redirect(escaped.replace("&amp;", "&"))
