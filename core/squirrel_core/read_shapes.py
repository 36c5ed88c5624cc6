"""What `sqrl search`, `context`, `view` and `memories` print, made from the services' replies.

Both ways the CLI reads — its own gRPC call, or the gateway's loopback HTTP routes for the CLI
(`squirrel_gateway.cli_http`) — turn a reply into the same plain data here, and the CLI prints
that data the same way, so the two ways cannot drift apart. Only JSON types come out (str, int,
float, bool, None, lists and dicts): they cross HTTP as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, get_args

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from squirrel.v1 import (
        gateway_service_pb2,
        memory_pb2,
        memory_service_pb2,
        views_pb2,
    )

_ENUM_FIELDS: Final = {"type": "MEMORY_TYPE_", "mode": "VIEW_MODE_", "scope": "MEMORY_SCOPE_"}

MemoryTypeName = Literal["user_style", "project_fact", "pitfall", "recipe"]
"""The spec's memory types as JSON, the CLI and MCP tools name them (`MEMORY_TYPE_<NAME>` in the
protocol)."""
MEMORY_TYPES: Final[tuple[MemoryTypeName, ...]] = get_args(MemoryTypeName)
"""Every `MemoryTypeName`, in the spec's order."""
MEMORY_SOURCES: Final = ("rules", "llm", "manual")
"""Memory sources as the CLI names them (`MEMORY_SOURCE_<NAME>` in the protocol)."""


TEAM_MARK = "(team)"
"""Before the text of a memory from the team's memory (a teammate's), not the user's own,
wherever a memory is shown: `sqrl search`'s rows here, the gateway's markdown lines."""

MAX_CONTRIBUTOR_CHARS = 40
"""A contributor's name is shown to this many characters (it is in every line of theirs)."""
_NOT_IN_NAMES = str.maketrans("", "", "()[]`*_\\")


def contributor_name(user: str) -> str:
    """A team user's name as a line shows it: one line, without the brackets, parentheses and
    markdown characters that would read as the line's own marks, at most
    `MAX_CONTRIBUTOR_CHARS` (the name comes from a server, so it is never trusted as markup)."""
    flat = " ".join(user.split()).translate(_NOT_IN_NAMES)
    return flat[:MAX_CONTRIBUTOR_CHARS].strip()


def team_mark_text(from_team: bool, contributor: str = "") -> str:
    """`(team)`, or `(team: alice)` naming the teammate who contributed it, for a memory from
    the team's memory; "" for the user's own."""
    if not from_team:
        return ""
    name = contributor_name(contributor)
    return f"(team: {name})" if name else TEAM_MARK


def spec_names(value: Any) -> Any:
    """Enum names as the spec's JSON spells them: MEMORY_TYPE_USER_STYLE → user_style."""
    if isinstance(value, list):
        return [spec_names(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        prefix = _ENUM_FIELDS.get(key)
        if prefix and isinstance(item, str) and item.startswith(prefix):
            out[key] = item.removeprefix(prefix).lower()
        else:
            out[key] = spec_names(item)
    return out


def spec_dict(message: Message) -> dict[str, Any]:
    """A reply as `--json` prints it: every field, proto names, enums as the spec names them."""
    from google.protobuf.json_format import MessageToDict  # noqa: PLC0415 - --json only

    data = MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    result: dict[str, Any] = spec_names(data)
    return result


def budget_line(report: views_pb2.BudgetReport) -> str:
    capped = " (capped by the budget)" if report.capped else ""
    return (
        f"{report.items_shown} of {report.items_total} shown; ~{report.token_estimate:,}"
        f"/{report.budget_tokens:,} tokens{capped}"
    )


def context_output(
    reply: gateway_service_pb2.GatewayGetTaskContextResponse, *, as_json: bool
) -> dict[str, Any]:
    """`sqrl context`: {"json": ...} with `as_json`, else {"markdown": ...}."""
    if as_json:
        return {"json": spec_dict(reply.context)}
    return {"markdown": reply.context.markdown}


def view_output(view: Message, markdown: str, *, as_json: bool) -> dict[str, Any]:
    """`sqrl view`: {"json": ...} (the view message) with `as_json`, else {"markdown": ...}."""
    if as_json:
        return {"json": spec_dict(view)}
    return {"markdown": markdown}


def search_output(
    reply: gateway_service_pb2.GatewaySearchMemoryResponse, *, as_json: bool
) -> dict[str, Any]:
    """`sqrl search`: {"json": ...} with `as_json`, else the table's rows (score, type, memory,
    content, why), the budget line and the next page's cursor."""
    if as_json:
        return {"json": spec_dict(reply)}
    from squirrel.v1 import memory_pb2  # noqa: PLC0415 - the caller has loaded it already

    return {
        "rows": [
            [
                f"{r.score:.2f}",
                memory_pb2.MemoryType.Name(r.type).removeprefix("MEMORY_TYPE_").lower(),
                r.handle or r.memory_id,
                (
                    f"{team_mark_text(True, r.contributor)} {r.content}"
                    if r.from_team
                    else r.content
                ),
                r.reason,
            ]
            for r in reply.search.results
        ],
        "budget_line": budget_line(reply.budget),
        "next_cursor": reply.next_cursor,
    }


def memory_row(m: memory_pb2.MemoryItem) -> dict[str, Any]:
    """One memory as `sqrl memories --json` (and `remember`, `forget`, `history`) print it."""
    from squirrel.v1 import memory_pb2  # noqa: PLC0415 - the caller has loaded it already

    source = _name(memory_pb2.MemorySource, m.source, "MEMORY_SOURCE_", MEMORY_SOURCES)
    return {
        "memory_id": m.memory_id,
        "handle": m.handle or m.memory_id,
        "type": _name(memory_pb2.MemoryType, m.type, "MEMORY_TYPE_", MEMORY_TYPES),
        "key": m.key,
        "content": m.content,
        "tags": list(m.tags),
        "importance": round(m.importance, 2),
        "source": source,
        "version": m.version,
        "deleted": m.deleted,
        "superseded_by": m.superseded_by or None,
        "file_paths": list(m.file_paths),
        "source_refs": list(m.source_refs),
        "written_by": m.written_by or source,
        "writers": list(m.writers),
        "updated_at": m.updated_at.ToDatetime().isoformat() + "Z",
        "flags": list(m.flags),
        "confirmed": m.confirmed,
    }


def writers_note(writers: Sequence[str]) -> str:
    """How many people remembered a memory, when more than one did ("3 teammates"), else ""."""
    count = len(set(writers))
    return f"{count} teammates" if count > 1 else ""


def _name(enum: Any, value: int, prefix: str, known: tuple[str, ...]) -> str:
    """One of the `known` names (lower case, no prefix), or "?" for any other value."""
    try:
        short = str(enum.Name(value)).removeprefix(prefix).lower()
    except ValueError:
        return "?"
    return short if short in known else "?"


def memories_output(reply: memory_service_pb2.ListMemoriesResponse) -> dict[str, Any]:
    """`sqrl memories`: the rows, the total and the next page's token (the `--json` shape)."""
    return {
        "memories": [memory_row(m) for m in reply.memories],
        "total": reply.total_count,
        "next_page_token": reply.next_page_token,
    }


OUTCOME_SESSIONS: Final = 20
"""`sqrl status` counts the outcomes of the memories served in each project's last this many
served sessions, unless `--sessions` says otherwise."""
MAX_OUTCOME_SESSIONS: Final = 1000
"""The most sessions `--sessions` (and `GetProcessingStatusRequest.outcome_sessions`) takes."""
SEARCH_TOP_K_MAX: Final = 50
"""The most results one page of a search holds (`top_k`, `sqrl search -k`)."""
MAX_PAGE_SIZE: Final = 500
"""The most memories one page of a listing holds (`page_size`, `sqrl memories --limit`)."""
