"""The memory browser's checked request arguments: a registered project, a memory id, where
the memory lives, the session's CSRF token."""

from __future__ import annotations

import re
from typing import Final

from squirrel_gateway.ui.calls import BrowserCalls
from squirrel_gateway.ui.http import PageError, Request
from squirrel_gateway.ui.team_view import TEAM, TeamBrowse

#: A memory id, its handle, or a prefix of either (`mem_` may be left out).
MEMORY_ID: Final = re.compile(r"(?:[a-z]{2,10}_)?[0-9A-Za-z]{4,64}")


def project_arg(request: Request, calls: BrowserCalls) -> str:
    """The `project` argument, which must be a registered project (404 otherwise)."""
    project = request.arg("project", 4096)
    if project not in calls.projects():
        raise PageError(404, "no such registered project")
    return project


def memory_id_arg(request: Request) -> str:
    """The `id` argument, which must look like a memory id (400 otherwise)."""
    memory_id = request.arg("id", 80)
    if not MEMORY_ID.fullmatch(memory_id):
        raise PageError(400, "not a memory id")
    return memory_id


def where_arg(request: Request, team: TeamBrowse | None) -> str:
    """The memory asked for: "team" (the team server's) or "" (this laptop's)."""
    where = request.arg("where", 10)
    if where not in ("", TEAM):
        raise PageError(400, "where is the team or this laptop")
    if where and team is None:
        raise PageError(404, "this laptop has not joined a team (`sqrl team join`)")
    return where


def csrf_of(request: Request) -> str:
    """The CSRF token of the request's session ("" without one)."""
    return request.session.csrf if request.session else ""
