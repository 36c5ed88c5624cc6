"""Manual memory from the terminal: remember, forget, memories, history, process, reindex."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli import read_args
from squirrel_cli.console import Console
from squirrel_cli.read_view import print_memories
from squirrel_core.auth import load_token
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.errors import InvalidArgumentError, UnavailableError
from squirrel_core.hazards import describe
from squirrel_core.home import HomeLayout
from squirrel_core.memory_shapes import forget_output, history_output, remember_output
from squirrel_core.projects import read_projects, require_project
from squirrel_core.read_shapes import memories_output, memory_row
from squirrel_core.settings import Settings

T = TypeVar("T")

TYPES = {
    "user_style": memory_pb2.MEMORY_TYPE_USER_STYLE,
    "project_fact": memory_pb2.MEMORY_TYPE_PROJECT_FACT,
    "pitfall": memory_pb2.MEMORY_TYPE_PITFALL,
    "recipe": memory_pb2.MEMORY_TYPE_RECIPE,
}
TYPE_NAMES = {v: k for k, v in TYPES.items()}
SOURCE_NAMES = {
    memory_pb2.MEMORY_SOURCE_RULES: "rules",
    memory_pb2.MEMORY_SOURCE_LLM: "llm",
    memory_pb2.MEMORY_SOURCE_MANUAL: "manual",
}
SOURCES = {v: k for k, v in SOURCE_NAMES.items()}


def add_commands(sub: Any) -> None:
    remember = sub.add_parser(
        "remember", help="save a memory by hand (never overwritten by extraction)"
    )
    remember.add_argument("content", help="the memory, as a sentence")
    remember.add_argument("--type", choices=sorted(TYPES), default="project_fact")
    remember.add_argument(
        "--key",
        default=None,
        help="update the memory on this key (default: a new key from the content, unless the same"
        " memory exists: then it is merged); never empty",
    )
    remember.add_argument("--tag", action="append", default=[], dest="tags", help="repeatable")
    remember.add_argument("--importance", type=float, default=0.0, help="0-1 (default 0.8)")
    read_args.with_project(remember)
    read_args.with_local(remember)
    remember.set_defaults(handler=cmd_remember)

    forget = sub.add_parser("forget", help="forget a memory (kept in its history)")
    forget.add_argument("memory_id")
    forget.add_argument("--reason", default="")
    read_args.with_project(forget)
    read_args.with_local(forget)
    forget.set_defaults(handler=cmd_forget)

    read_args.add_memories(sub).set_defaults(handler=cmd_memories)

    history = sub.add_parser("history", help="every version of a memory and its source events")
    history.add_argument("memory_id")
    read_args.with_project(history)
    read_args.with_local(history)
    history.set_defaults(handler=cmd_history)

    confirm = sub.add_parser(
        "confirm",
        help="vouch for a flagged memory so views and hooks may use it (binds to its content)",
    )
    confirm.add_argument("memory_id")
    read_args.with_project(confirm)
    read_args.with_local(confirm)
    confirm.set_defaults(handler=cmd_confirm)

    process = sub.add_parser("process", help="process waiting events now instead of on the timer")
    process.add_argument(
        "--consolidate",
        action="store_true",
        help="also let the model backend tidy this project's memories now",
    )
    read_args.with_project(process)
    process.set_defaults(handler=cmd_process)


def project_of(settings: Settings, path: str) -> str:
    """The registered project containing `path`, or a clear error saying how to register it."""
    roots = read_projects(HomeLayout(settings.home).projects)
    return require_project(Path(path).absolute(), roots)


def with_memory(settings: Settings, work: Callable[[MemoryClient], Awaitable[T]]) -> T:
    layout = HomeLayout(settings.home)

    async def run() -> T:
        client = MemoryClient(
            open_channel(target_of(layout.service_file("memory"))),
            load_token(layout.token),
            service="memory",
        )
        try:
            return await work(client)
        finally:
            await client.close()

    return asyncio.run(run())


def joined(settings: Settings, args: argparse.Namespace) -> bool:
    """Whether this command goes to the team server (through the gateway): the laptop is joined
    to one and `--local` was not given."""
    return bool(settings.str_("team.server").strip()) and not getattr(args, "local", False)


def through_gateway(settings: Settings, route: str, body: dict[str, Any]) -> dict[str, Any]:
    """The gateway's answer to `route` (it asks the team server, else local memory, and says
    on stderr when it had to leave the team out)."""
    from squirrel_cli import quick  # noqa: PLC0415 - only on a joined laptop

    try:
        return quick.call(settings.home, route, body)
    except quick.FallBackError:
        raise UnavailableError(
            "this laptop is joined to a team server and the gateway that reaches it is not "
            "running: start it with `sqrl up` (or add --local for this laptop's memory only)"
        ) from None


def cmd_remember(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    if not 0.0 <= args.importance <= 1.0:
        raise InvalidArgumentError("--importance must be between 0 and 1")
    if args.key is not None and not args.key.strip():
        raise InvalidArgumentError(
            "--key must not be empty; leave --key out to have a key made from the content"
        )
    key = args.key or ""
    if joined(settings, args):
        answer = through_gateway(
            settings,
            "remember",
            {
                "project": str(Path(args.project).absolute()),
                "user_id": settings.user_id,
                "type": args.type,
                "key": key,
                "content": args.content,
                "tags": args.tags,
                "importance": args.importance,
            },
        )
    else:
        project = project_of(settings, args.project)
        request = pb.RememberRequest(
            project_id=project,
            user_id=settings.user_id,
            type=TYPES[args.type],
            key=key,
            content=args.content,
            tags=args.tags,
            importance=args.importance,
        )
        answer = remember_output(with_memory(settings, lambda c: c.call(c.stub.Remember, request)))
    if args.json:
        console.json({k: answer[k] for k in ("memory", "outcome", "merged_ids", "updated")})
        return 0
    memory, outcome = answer["memory"], answer["outcome"]
    memory_id, key = memory["memory_id"], memory["key"]
    merged: list[str] = answer["merged_ids"]
    others = [i for i in merged if i != memory_id]
    if outcome == "updated":
        text = f"Updated {memory_id} (key {key}; previous version: `sqrl history`)"
    elif outcome == "merged" and memory_id in merged:
        text = f"Merged with {memory_id} (key {key}), which now says this"
    elif outcome == "merged":
        text = f"Added {memory_id} (key {key}), merged with {', '.join(others)}"
    elif outcome == "unchanged":
        text = f"Unchanged: {memory_id} (key {key}) already says this"
    else:
        text = f"Added {memory_id} ({args.type}, key {key})"
    if others and outcome == "merged" and memory_id in merged:
        text += f"; superseded {', '.join(others)}"
    console.line(text + _where(answer))
    return 0


def _where(answer: dict[str, Any]) -> str:
    """ " on the team server" when the gateway wrote there."""
    return " on the team server" if answer.get("where") == "team" else ""


def _by_id(
    args: argparse.Namespace, route: str, request: Callable[[str], Any], call: str
) -> dict[str, Any]:
    """`route` for one memory id: through the gateway on a joined laptop, else local memory."""
    settings: Settings = args.settings
    if joined(settings, args):
        body = {
            "project": str(Path(args.project).absolute()),
            "memory_id": args.memory_id,
            "reason": getattr(args, "reason", ""),
        }
        return through_gateway(settings, route, body)
    message = request(project_of(settings, args.project))
    reply = with_memory(settings, lambda c: c.call(getattr(c.stub, call), message))
    if route == "history":
        return history_output(reply)
    if route == "forget":
        return forget_output(reply)
    return {"memory": memory_row(reply.memory)}


def cmd_forget(args: argparse.Namespace, console: Console) -> int:
    answer = _by_id(
        args,
        "forget",
        lambda p: pb.ForgetRequest(project_id=p, memory_id=args.memory_id, reason=args.reason),
        "Forget",
    )
    already = bool(answer.get("already_forgotten"))
    if args.json:
        console.json({"memory": answer["memory"], "already_forgotten": already})
    else:
        said = "Already forgotten:" if already else "Forgot"
        console.line(
            f"{said} {answer['memory']['memory_id']}{_where(answer)} (its history is kept: "
            "`sqrl history`)"
        )
    return 0


def cmd_memories(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    read_args.limit(args)
    read_args.page_token(args)
    if joined(settings, args):
        answer = through_gateway(
            settings,
            "memories",
            {
                "project": str(Path(args.project).absolute()),
                "types": args.types,
                "source": args.source,
                "include_deleted": args.deleted,
                "page_size": args.limit,
                "page_token": args.page_token,
            },
        )
        project = str(answer.pop("project"))
        where = answer.pop("where", None)
        print_memories(project, answer, console, as_json=args.json, where=where)
        return 0
    project = project_of(settings, args.project)
    request = pb.ListMemoriesRequest(
        project_id=project,
        types=[TYPES[t] for t in args.types],
        include_deleted=args.deleted,
        page_size=args.limit,
        page_token=args.page_token,
        source=SOURCES[args.source] if args.source else memory_pb2.MEMORY_SOURCE_UNSPECIFIED,
    )
    reply = with_memory(settings, lambda c: c.call(c.stub.ListMemories, request))
    print_memories(project, memories_output(reply), console, as_json=args.json)
    return 0


def _provenance(refs: list[str], event_ids: list[str]) -> str:
    """The history table's source column: `path:line` / `commit:<sha>` refs, then event count."""
    parts = list(refs[:3]) + ([f"+{len(refs) - 3} more"] if len(refs) > 3 else [])
    if event_ids:
        parts.append(f"{len(event_ids)} event{'s' if len(event_ids) != 1 else ''}")
    return ", ".join(parts) or "-"


def cmd_history(args: argparse.Namespace, console: Console) -> int:
    answer = _by_id(
        args,
        "history",
        lambda p: pb.GetMemoryHistoryRequest(project_id=p, memory_id=args.memory_id),
        "GetMemoryHistory",
    )
    memory: dict[str, Any] = answer["memory"]
    versions: list[dict[str, Any]] = answer["versions"]
    sources: list[dict[str, Any]] = answer["source_events"]
    if args.json:
        console.json({"memory": memory, "versions": versions, "source_events": sources})
        return 0
    console.line(f"{memory['memory_id']}  {memory['type']}  key {memory['key']}{_where(answer)}")
    console.table(
        "History (oldest first)",
        ["v", "action", "when", "content", "reason", "by", "source"],
        [
            [
                str(v["version"]),
                str(v["action"]),
                str(v["changed_at"])[:19],
                str(v["content"])[:90],
                str(v["reason"])[:40],
                _by(v),
                _provenance(v["source_refs"], v["source_event_ids"]),
            ]
            for v in versions
        ],
    )
    if sources:
        console.table(
            "Source events (who said it)",
            ["event", "when", "type", "origin", "session", "contributed by"],
            [
                [
                    str(e["event_id"]),
                    str(e["timestamp"])[:19],
                    str(e["event_type"]),
                    f"{e['origin']} (subagent)" if e["sidechain"] else str(e["origin"]),
                    str(e["session_id"] or "")[:12],
                    _contributor(e),
                ]
                for e in sources
            ],
        )
    return 0


def _by(version: dict[str, Any]) -> str:
    """Who wrote a version, and the users who had remembered it by then (when any)."""
    by = str(version["written_by"] or "-")
    writers = version.get("writers") or []
    return f"{by} ({', '.join(writers)})" if writers else by


def _contributor(event: dict[str, Any]) -> str:
    """`user@machine` of a source event (the machine only when a team server recorded one)."""
    user = str(event["user_id"] or "-")
    return f"{user}@{event['machine']}" if event["machine"] else user


def cmd_confirm(args: argparse.Namespace, console: Console) -> int:
    answer = _by_id(
        args,
        "confirm",
        lambda p: pb.ConfirmMemoryRequest(project_id=p, memory_id=args.memory_id),
        "ConfirmMemory",
    )
    row = answer["memory"]
    if args.json:
        console.json({"memory": row})
    elif row["flags"]:
        console.line(
            f"Confirmed {row['memory_id']}{_where(answer)} ({describe(row['flags'])}): views "
            "and hooks may use it until its content changes"
        )
    else:
        console.line(f"{row['memory_id']} carries no flag; it was already used everywhere")
    return 0


def cmd_process(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    project = project_of(settings, args.project)
    request = pb.ProcessNowRequest(
        project_id=project, drain=True, consolidate=bool(getattr(args, "consolidate", False))
    )
    reply = with_memory(settings, lambda c: c.call(c.stub.ProcessNow, request, timeout=600))
    if args.json:
        console.json(
            {
                "events_processed": reply.events_processed,
                "episodes_created": reply.episodes_created,
                "memories_added": reply.memories_added,
                "memories_updated": reply.memories_updated,
                "memories_deleted": reply.memories_deleted,
                "dead_lettered": reply.dead_lettered,
            }
        )
    else:
        console.line(
            f"Processed {reply.events_processed} events into {reply.episodes_created} episodes: "
            f"{reply.memories_added} memories added, {reply.memories_updated} updated, "
            f"{reply.memories_deleted} superseded, {reply.dead_lettered} parked."
        )
    return 0
