"""Team commands: `sqrl serve` runs a team server; `sqrl team` issues tokens and joins one."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any, Final

from squirrel_cli.console import Console
from squirrel_core.errors import FailedPreconditionError
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import ServiceInfo, write_service_info
from squirrel_core.settings import Settings, lookup, unset_setting, write_setting
from squirrel_core.team_client import (
    READ_ONLY,
    REFUSED_REASON,
    TeamLink,
    TokenSeen,
    check_link,
    checked_token,
    machine_name,
    save_team_token,
)
from squirrel_core.team_grants import DEFAULT_MAX_PROJECTS, Role, check_project_id
from squirrel_core.team_listen import split_address, team_listener
from squirrel_core.team_tokens import TeamTokens, TokenRecord

TEAM_SERVICES = ("memory", "gateway")
"""What a team server runs: no transcripts are read there, so no ingest."""


def add_commands(sub: Any) -> None:
    serve = sub.add_parser(
        "serve", help="run a team server: the memory service over TLS for laptops, and a gateway"
    )
    serve.add_argument("--address", help="host:port for laptops (setting serve.address)")
    serve.add_argument("--tls-cert", help="PEM certificate chain (setting serve.tls_cert)")
    serve.add_argument("--tls-key", help="PEM private key (setting serve.tls_key)")
    serve.set_defaults(handler=cmd_serve)

    team = sub.add_parser("team", help="team tokens (on the server); join or leave a team server")
    team_sub = team.add_subparsers(dest="action", metavar="ACTION")
    team_sub.required = True
    token = team_sub.add_parser("token", help="issue, list or revoke team users' tokens")
    token_sub = token.add_subparsers(dest="token_action", metavar="ACTION")
    token_sub.required = True
    add = token_sub.add_parser(
        "add", help="issue a token for a user, granted projects and a role (printed once)"
    )
    add.add_argument("user")
    _grant_arguments(add, required=True)
    add.add_argument("--json", action="store_true", help="print JSON")
    add.set_defaults(handler=cmd_token_add)
    grant = token_sub.add_parser(
        "grant", help="change a token's projects, role or project limit (effective at once)"
    )
    grant.add_argument("id")
    _grant_arguments(grant, required=False)
    grant.add_argument("--json", action="store_true", help="print JSON")
    grant.set_defaults(handler=cmd_token_grant)
    listp = token_sub.add_parser(
        "list", help="every token issued: id, user, role, projects, when, revoked"
    )
    listp.add_argument("--json", action="store_true", help="print JSON")
    listp.set_defaults(handler=cmd_token_list)
    revoke = token_sub.add_parser("revoke", help="revoke a token by its id (effective at once)")
    revoke.add_argument("id")
    revoke.add_argument("--json", action="store_true", help="print JSON")
    revoke.set_defaults(handler=cmd_token_revoke)
    project = team_sub.add_parser(
        "project", help="create or list the team server's projects (on the server, while it runs)"
    )
    project_sub = project.add_subparsers(dest="project_action", metavar="ACTION")
    project_sub.required = True
    padd = project_sub.add_parser(
        "add", help="create a team project: github.com/acme/shop or local:<machine>:<path>"
    )
    padd.add_argument("project_id")
    padd.add_argument("--json", action="store_true", help="print JSON")
    padd.set_defaults(handler=cmd_project_add)
    plist = project_sub.add_parser("list", help="the team server's projects")
    plist.add_argument("--json", action="store_true", help="print JSON")
    plist.set_defaults(handler=cmd_project_list)
    join = team_sub.add_parser(
        "join", help="share this laptop's memory with a team server (reads the token on stdin)"
    )
    join.add_argument("server", help="host:port of the team server")
    join.add_argument(
        "--ca-file",
        help="PEM of the CA that signed the server's certificate (default: the saved team.ca_file)",
    )
    join.add_argument(
        "--no-check",
        action="store_true",
        help="save without asking the server first (it is not reachable from here yet)",
    )
    join.set_defaults(handler=cmd_join)
    leave = team_sub.add_parser("leave", help="stop sharing; local memory only (token deleted)")
    leave.set_defaults(handler=cmd_leave)


def _grant_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument(
        "--projects",
        action="append",
        required=required,
        metavar="PATTERNS",
        help="project ids or patterns, comma-separated or repeated: github.com/acme/shop, "
        "'github.com/acme/*', '*'",
    )
    parser.add_argument(
        "--role",
        choices=[r.label for r in Role],
        default="read" if required else None,
        help="read; write (also deliver and remember); admin (also create projects)"
        + (" (default read)" if required else ""),
    )
    parser.add_argument(
        "--max-projects",
        type=int,
        default=DEFAULT_MAX_PROJECTS if required else None,
        help="how many projects the token may create"
        + (f" (default {DEFAULT_MAX_PROJECTS})" if required else ""),
    )


def _record_json(record: TokenRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "user": record.user,
        "role": record.role.label,
        "projects": list(record.projects),
        "max_projects": record.max_projects,
        "created_at": record.created_at,
        "revoked_at": record.revoked_at,
    }


def _tokens(settings: Settings) -> TeamTokens:
    return TeamTokens(HomeLayout(settings.home).team_tokens)


def cmd_token_add(args: argparse.Namespace, console: Console) -> int:
    record, token = _tokens(args.settings).issue(
        args.user, args.projects, Role.parse(args.role), args.max_projects
    )
    if args.json:
        console.json({**_record_json(record), "token": token})
        return 0
    console.line(
        f"Token {record.id} for {record.user}, {record.role.label} on "
        f"{', '.join(record.projects) or 'no project'} (shown once; give it to them privately):"
    )
    console.line(token)
    return 0


def cmd_token_grant(args: argparse.Namespace, console: Console) -> int:
    record = _tokens(args.settings).grant(
        args.id,
        args.projects,
        None if args.role is None else Role.parse(args.role),
        args.max_projects,
    )
    if args.json:
        console.json(_record_json(record))
        return 0
    console.line(
        f"Token {record.id} of {record.user}: {record.role.label} on "
        f"{', '.join(record.projects) or 'no project'}, may create {record.max_projects} "
        "(from its next request)."
    )
    return 0


def cmd_token_list(args: argparse.Namespace, console: Console) -> int:
    records = _tokens(args.settings).list()
    if args.json:
        console.json([_record_json(r) for r in records])
        return 0
    console.table(
        "Team tokens",
        ["id", "user", "role", "projects", "may create", "created", "revoked"],
        [
            [
                r.id,
                r.user,
                r.role.label,
                ", ".join(r.projects) or "-",
                str(r.max_projects),
                r.created_at,
                r.revoked_at or "-",
            ]
            for r in records
        ],
        whole=("id",),
    )
    return 0


def cmd_token_revoke(args: argparse.Namespace, console: Console) -> int:
    record = _tokens(args.settings).revoke(args.id)
    if args.json:
        console.json({"id": record.id, "user": record.user, "revoked_at": record.revoked_at})
        return 0
    console.line(f"Revoked token {record.id} of {record.user}.")
    return 0


def cmd_project_add(args: argparse.Namespace, console: Console) -> int:
    from squirrel.v1 import memory_service_pb2 as pb  # noqa: PLC0415 - gRPC only here
    from squirrel_cli.commands.memory import with_memory  # noqa: PLC0415

    project_id = check_project_id(args.project_id)

    async def work(client: Any) -> Any:
        return await client.call(
            client.stub.RegisterProject, pb.RegisterProjectRequest(root=project_id)
        )

    reply = with_memory(args.settings, work)
    if args.json:
        console.json({"project_id": reply.project_id, "created": reply.created})
        return 0
    done = "Created" if reply.created else "Already had"
    console.line(f"{done} team project {reply.project_id}.")
    return 0


def cmd_project_list(args: argparse.Namespace, console: Console) -> int:
    from squirrel.v1 import memory_service_pb2 as pb  # noqa: PLC0415 - gRPC only here
    from squirrel_cli.commands.memory import with_memory  # noqa: PLC0415

    async def work(client: Any) -> Any:
        return await client.call(client.stub.ListProjects, pb.ListProjectsRequest())

    reply = with_memory(args.settings, work)
    ids = [p.project_id for p in reply.projects]
    if args.json:
        console.json(ids)
        return 0
    for project_id in ids:
        console.line(project_id)
    return 0


def cmd_join(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    layout = HomeLayout(settings.home).ensure()
    lookup("team.server")
    split_address(args.server, "the team server")
    token = checked_token(sys.stdin.readline())
    saved_ca = settings.str_("team.ca_file").strip()
    # Without --ca-file the services will use the saved team.ca_file: the check tries that one.
    ca_file = Path(args.ca_file).resolve() if args.ca_file else Path(saved_ca) if saved_ca else None
    seen: TokenSeen | None = None
    if not args.no_check:  # the token and the CA, tried on the server before anything is saved
        link = TeamLink(args.server, token, ca_file, machine_name(settings))
        try:
            seen = asyncio.run(check_link(link))
        except FailedPreconditionError as exc:
            raise FailedPreconditionError(f"{exc}; {_not_joined(str(exc))}") from None
    path = save_team_token(layout, token)
    write_setting(settings.home, "team.server", args.server)
    if args.ca_file:
        write_setting(settings.home, "team.ca_file", str(ca_file))
    checked = "" if seen is None else f"; the server accepted the token{_taken(seen)}"
    console.line(
        f"Sharing with {args.server} (token in {path}){checked}; {_next_step(layout, args.server)}"
    )
    return 0


def _not_joined(reason: str) -> str:
    """What a join the server did not take leaves, and the way on for a server not reachable
    from here yet."""
    if REFUSED_REASON in reason or "TLS" in reason:
        return "nothing was saved"
    return (
        "nothing was saved (`--no-check` saves it without asking, for a server not reachable yet)"
    )


def _taken(seen: TokenSeen) -> str:
    """Who the server takes the token for (the name teammates see beside what this laptop
    contributes), its role, and what it shares; a `read` token says what stays local."""
    shared = _shared(seen.projects)
    said = f" of {seen.user} ({seen.role}; {shared})" if seen.user and seen.role else f" ({shared})"
    return f"{said}, but {READ_ONLY}" if seen.role == "read" else said


SHOWN_PROJECTS: Final = 3
"""How many of the projects the token sees a join names."""


def _shared(projects: list[str]) -> str:
    """The team projects the token sees there, or why none is the normal start."""
    if not projects:
        return (
            "no project of its grants is there yet, as before any laptop delivered: the first "
            "delivery of a token that may create one makes it, or `sqrl team project add` on "
            "the server"
        )
    names = ", ".join(projects[:SHOWN_PROJECTS])
    more = len(projects) - SHOWN_PROJECTS
    return f"it shares {names}" + (f" and {more} more" if more > 0 else "")


def _next_step(layout: HomeLayout, server: str) -> str:
    """What the services need after a join: nothing when they already use this server (they
    take a new token at once), a restart when they use another memory, a start when none runs."""
    from squirrel_core.team_in_use import teams_in_use  # noqa: PLC0415 - join only

    running = teams_in_use(layout.run)
    if not running:
        return "start delivering with `sqrl up -d`."
    if all(t.server == server for t in running):
        return "the running services use the new token at once (no restart)."
    return "restart the services to start delivering: `sqrl down && sqrl up -d`."


def cmd_leave(args: argparse.Namespace, console: Console) -> int:
    from squirrel_core.outbox_count import queued_remembers  # noqa: PLC0415 - leave only
    from squirrel_core.team_in_use import teams_in_use  # noqa: PLC0415 - leave only

    settings: Settings = args.settings
    layout = HomeLayout(settings.home)
    unset_setting(settings.home, "team.server")
    unset_setting(settings.home, "team.ca_file")
    layout.team_token.unlink(missing_ok=True)
    queued = queued_remembers(layout.team_outbox) or 0
    kept = (
        f"; {queued} remember{'s' * (queued != 1)} queued for the team server stay queued"
        " (already in local memory) and are sent if this laptop joins again"
        if queued
        else ""
    )
    running = any(t.server for t in teams_in_use(layout.run))
    then = "; restart the services to stop delivering: `sqrl down && sqrl up -d`" if running else ""
    console.line(f"Local memory only{kept}{then}.")
    return 0


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    from squirrel_cli.commands.local import prepare_home  # noqa: PLC0415 - storage only here
    from squirrel_cli.supervisor import Supervisor  # noqa: PLC0415
    from squirrel_core.logs import configure_logging  # noqa: PLC0415 - the supervisor logs

    environ = dict(os.environ)
    overrides = {"address": args.address, "tls_cert": args.tls_cert, "tls_key": args.tls_key}
    updates = {f"serve__{k}": v for k, v in overrides.items() if v is not None}
    for key, value in overrides.items():
        if value is not None:
            environ[lookup(f"serve.{key}").env] = value
    settings: Settings = args.settings.with_values(**updates)
    listener = team_listener(settings)  # refuses plain text off loopback before anything starts
    if listener is None:
        console.error("a team server needs an address: --address host:port (or serve.address)")
        return 2
    if listener.tls:
        listener.credentials()  # a missing or non-PEM file: one line, before anything starts
    prepare_home(settings)
    configure_logging("supervisor", settings.str_("general.log_level"))
    console.line(
        f"Team server on {listener.address} ({'TLS' if listener.tls else 'plain text, loopback'})"
    )
    layout = HomeLayout(settings.home)
    # `sqrl status` says this home serves a team from now on, not only once memory serves.
    record = ServiceInfo("serve", os.getpid(), listener.host, listener.port, time.time())
    write_service_info(layout.serve_file, record)
    try:
        return asyncio.run(Supervisor(settings, environ, TEAM_SERVICES).run())
    finally:
        layout.serve_file.unlink(missing_ok=True)
