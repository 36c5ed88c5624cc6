"""`sqrl status`, `search`, `context`, `view` and `memories` without a gRPC client: at once.

The gateway serves what these commands need as JSON on its loopback HTTP endpoint (`/cli/<route>`,
behind the install's bearer token; `squirrel_gateway.cli_http`). This client posts there with the
standard library only and prints the answer with the same code as the full CLI, so output, exit
codes and `--json` are the same. Whenever it cannot answer that way — the arguments need the full
parser (a mistake, `--help`), no endpoint is recorded yet (`sqrl up` still starting, an older
gateway), the connection is refused, the token is refused — `run` returns None and the full CLI
runs the command over gRPC, with its own messages. Nothing is printed before the answer is in.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NoReturn

from squirrel_cli import read_args
from squirrel_cli.argument_names import said_by_command
from squirrel_cli.exits import configured, exit_code, reader_gone
from squirrel_core.errors import (
    SquirrelError,
    UnavailableError,
    error_named,
)
from squirrel_core.service_info import pid_alive

if TYPE_CHECKING:
    from squirrel_cli.console import Console
    from squirrel_core.settings import Settings
    from squirrel_core.terminal import Drawing

COMMANDS: Final = frozenset({"status", "search", "context", "view", "memories"})
READ_TIMEOUT: Final = 65.0
"""Seconds to wait for an answer: the CLI's gRPC reads allow 60 end to end."""
CONNECT_TIMEOUT: Final = 2.0
MAX_ANSWER_BYTES: Final = 64_000_000
INFO_FILE: Final = "gateway-mcp.json"


class FallBackError(Exception):
    """This client cannot answer; the full CLI should run the command."""


class _Parser(argparse.ArgumentParser):
    """argparse that hands any mistake (and its message) to the full CLI instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise FallBackError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise FallBackError(message or "")


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = _Parser(prog="sqrl", add_help=False)
    sub = parser.add_subparsers(dest="command")
    adders: dict[str, Callable[[Any], argparse.ArgumentParser]] = {
        "status": read_args.add_status,
        "search": read_args.add_search,
        "context": read_args.add_context,
        "view": read_args.add_view,
        "memories": read_args.add_memories,
    }
    adders[argv[0]](sub)
    return parser.parse_args(argv)


def run(argv: Sequence[str]) -> int | None:
    """The command's exit code, or None: the full CLI should run it."""
    if not argv or argv[0] not in COMMANDS or "-h" in argv or "--help" in argv:
        return None
    try:
        args = _parse(argv)
    except FallBackError:
        return None
    from squirrel_cli.console import Console  # noqa: PLC0415 - after the cheap checks
    from squirrel_core.settings import load_settings  # noqa: PLC0415

    console = Console(deferred=True)
    try:
        settings = configured(lambda: load_settings(os.environ))
        code = _HANDLERS[args.command](args, settings, console)
        console.finish(_renderer(settings.home) if console.drawings() else None)
    except FallBackError:
        console.discard()
        return None
    except SquirrelError as exc:
        console.discard()
        console.error(said_by_command(args.command, exc))
        return exit_code(exc)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return reader_gone()
    except OSError as exc:
        console.error(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
        return 1
    return code


def _renderer(home: Path) -> Callable[[list[Drawing]], list[str]]:
    """Has the gateway draw the tables and markdown for this terminal (rich is not loaded here)."""

    def render(drawings: list[Drawing]) -> list[str]:
        from squirrel_core.terminal import Terminal  # noqa: PLC0415

        body = {"drawings": drawings, "terminal": Terminal.of(sys.stdout).as_json()}
        drawn = call(home, "render", body)["drawn"]
        if not isinstance(drawn, list) or not all(isinstance(d, str) for d in drawn):
            raise FallBackError("the drawings are not text")
        return drawn

    return render


# --- the gateway's endpoint -------------------------------------------------------------------


def _endpoint(home: Path) -> tuple[str, int, str]:
    """Host, port and token of the gateway's HTTP endpoint; FallBackError when there is none."""
    try:
        info = json.loads((home / "run" / INFO_FILE).read_text())
        token = (home / "token").read_text().strip()
        host, port, pid = str(info["host"]), int(info["port"]), int(info["pid"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise FallBackError("no gateway endpoint recorded") from exc
    if not token or pid <= 0 or not pid_alive(pid):
        raise FallBackError("the recorded gateway is gone")
    return host, port, token


def call(home: Path, route: str, body: dict[str, Any]) -> dict[str, Any]:
    """POSTs `body` to `/cli/<route>`; the answer, or the domain error it reports (raised).

    FallBackError when the endpoint is not there or refuses the request as such (no route, no
    token, a request it cannot read): the full CLI then runs the command. When the answer had to
    leave the team server out, the reason (`team_away`) is said on stderr, one line each.
    """
    answer = answer_of(post(home, route, body))
    for line in answer.pop("team_away", None) or ():
        sys.stderr.write(f"sqrl: {line}\n")
    return answer


def post(home: Path, route: str, body: dict[str, Any]) -> socket.socket:
    """Sends the request and returns the connection its answer comes on (`answer_of`), so the
    caller can work while the gateway does."""
    host, port, token = _endpoint(home)
    payload = json.dumps(body).encode()
    request = (
        f"POST /cli/{route} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode("latin-1") + payload
    try:
        conn = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT)
    except OSError as exc:
        raise FallBackError("the gateway endpoint does not answer") from exc
    try:
        conn.sendall(request)
    except OSError as exc:
        conn.close()
        raise FallBackError("the connection to the gateway broke") from exc
    return conn


def answer_of(conn: socket.socket) -> dict[str, Any]:
    """The answer to the request sent on `conn` (closed after)."""
    with conn:
        try:
            conn.settimeout(READ_TIMEOUT)
            answer = _receive(conn)
        except TimeoutError:
            raise UnavailableError(
                f"the gateway did not answer within {READ_TIMEOUT:.0f}s"
            ) from None
        except OSError as exc:
            raise FallBackError("the connection to the gateway broke") from exc
    return _decode(answer)


def _receive(conn: socket.socket) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while chunk := conn.recv(262144):
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise FallBackError("the answer is too large")
    return b"".join(chunks)


def _decode(answer: bytes) -> dict[str, Any]:
    head, _, payload = answer.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = lines[0].split()
    headers = dict(
        (k.strip().lower(), v.strip()) for k, _, v in (line.partition(b":") for line in lines[1:])
    )
    length = headers.get(b"content-length", b"")
    if len(status) < 2 or not length.isdigit() or int(length) != len(payload):
        raise FallBackError("the answer is not a complete HTTP response")
    try:
        data = json.loads(payload)
    except ValueError as exc:
        raise FallBackError("the answer is not JSON") from exc
    if not isinstance(data, dict):
        raise FallBackError("the answer is not a JSON object")
    code = status[1]
    if code == b"200":
        return data
    error = data.get("error")
    if code in (b"422", b"500") and isinstance(error, dict) and "message" in error:
        # The domain error the gateway named (its status), so the exit code is the full CLI's.
        raise error_named(str(error.get("status", "")), str(error["message"]))
    raise FallBackError(f"the gateway answered {code.decode(errors='replace')}")


# --- the commands -----------------------------------------------------------------------------


def _project(args: argparse.Namespace) -> str:
    from squirrel_core.projects import canonical_root  # noqa: PLC0415

    return str(canonical_root(args.project))


def _context(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from squirrel_cli.read_view import print_context  # noqa: PLC0415

    body = {
        "project_root": _project(args),
        "user_id": args.user or "",
        "task_description": args.task,
        "active_file_paths": args.files,
        "context_budget_tokens": read_args.budget(args),
        "preferred_memory_types": args.types or [],
        "local": args.local,
        "json": args.json,
    }
    print_context(call(settings.home, "context", body), console)
    return 0


def _search(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from squirrel_cli.read_view import print_search  # noqa: PLC0415

    body = {
        "project_root": _project(args),
        "query": args.query,
        "top_k": read_args.top_k(args),
        "types": args.types or [],
        "scope_paths": args.paths,
        "context_budget_tokens": read_args.budget(args),
        "cursor": args.cursor or "",
        "local": args.local,
        "json": args.json,
    }
    print_search(args.query, call(settings.home, "search", body), console)
    return 0


def _view(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from squirrel_cli.read_view import print_view  # noqa: PLC0415

    body = {
        "which": args.which,
        "project_root": _project(args),
        "mode": args.mode,
        "user_id": args.user or "",
        "scope_paths": args.paths,
        "task_description": args.task or "",
        "local": args.local,
        "context_budget_tokens": read_args.budget(args),
        "json": args.json,
    }
    print_view(call(settings.home, "view", body), console)
    return 0


def _memories(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from squirrel_cli.read_view import print_memories  # noqa: PLC0415

    body = {
        "project": str(Path(args.project).absolute()),
        "types": args.types,
        "source": args.source,
        "include_deleted": args.deleted,
        "page_size": read_args.limit(args),
        "page_token": read_args.page_token(args),
        "local": args.local,
    }
    answer = call(settings.home, "memories", body)
    project = str(answer.pop("project"))
    where = answer.pop("where", None)
    print_memories(project, answer, console, as_json=args.json, where=where)
    return 0


def _status(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from squirrel_cli.status_view import (  # noqa: PLC0415
        home_status,
        print_status,
        service_rows,
        status_data,
    )
    from squirrel_cli.supervisor_state import supervisor_running  # noqa: PLC0415
    from squirrel_core.home import HomeLayout  # noqa: PLC0415

    sessions = read_args.outcome_sessions(args)
    layout = HomeLayout(settings.home)
    state = supervisor_running(layout)
    services, ports = service_rows(layout, state)
    counts: dict[str, dict[str, Any]] = {}
    ingest: dict[str, Any] | None = None
    asked = None
    if ports or state is not None:
        body = {"ports": ports, "counts": state is not None, "sessions": sessions}
        asked = post(settings.home, "status", body)
    try:
        home = home_status(settings)  # while the gateway asks the services
    except BaseException:
        if asked is not None:
            asked.close()
        raise
    if asked is not None:
        answer = answer_of(asked)
        health, counts, ingest = answer["health"], answer["counts"], answer["ingest"]
        for row in services:
            row["health"] = health.get(row["service"], "DOWN")
    data = status_data(settings, state, services, counts, ingest, home=home)
    if args.json:
        console.json(data)
    else:
        print_status(data, counts, console)
    return 0


_HANDLERS: Final[dict[str, Callable[[argparse.Namespace, Settings, Console], int]]] = {
    "status": _status,
    "search": _search,
    "context": _context,
    "view": _view,
    "memories": _memories,
}
