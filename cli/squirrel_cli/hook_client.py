"""`sqrl hook <host> <event>`: the process a host runs for each hook. Fails open, fast.

It reads the host's JSON on stdin, posts it to the gateway's `/hooks/<host>/<event>` on
loopback with the install's token, and prints the answer — the host's own output format —
or nothing. Whatever goes wrong (services down, a slow answer, a broken config, bad input) it
prints nothing and exits 0 within the deadline (`hooks.deadline_ms`, default 1 s), so a hook can
never block or break the user's session; one JSON line on stderr (`hook_unanswered`, a reason)
says why, as hosts keep a hook's stderr for their logs. Only the standard library is imported
up front (two small `squirrel_core` modules later, where a session start needs them): a hook
runs on every prompt, and importing the whole CLI would cost more than the answer.

A session start while `sqrl up` is still starting the services (its `run/supervisor.json` names
a live supervisor and the memory service or the gateway not serving yet) prints at once the text
the gateway kept for this host, event and folder when nothing it was made from changed (see
below; `hook_answered_kept`, late `services_starting`); without one it waits for them, at most
`hooks.start_wait_ms` (default 3 s, so the whole hook stays inside the 5 s hosts are told to
allow), and then asks as usual within the deadline; a line on stderr (`hook_waited_for_start`)
says how long. With the services down (no live supervisor) it never waits.

A session start whose gateway is running but has not answered in the last quarter of the
deadline prints the text the gateway kept for this host, event and folder, when nothing it was
made from changed (`squirrel_core.start_texts`, itself standard library only); a line on stderr
(`hook_answered_kept`) says so.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Final

DEFAULT_DEADLINE_MS: Final = 1000
DEFAULT_START_WAIT_MS: Final = 3000
START_WAIT_MAX_MS: Final = 3500
"""The most a session start waits for services still starting: with the deadline's 1 s this
stays inside the 5 s hosts are told to allow a hook (`hook_config.HOST_TIMEOUT_SECONDS`)."""
START_EVENTS: Final = frozenset({"SessionStart"})
"""The hosts' session-start events (the same name in Claude Code, Codex and Gemini CLI)."""
STARTING: Final = "services_starting"
"""Why a kept session-start text was printed while `sqrl up` starts the services."""
WAITED_FOR: Final = ("memory", "gateway")
"""The services a session-start answer needs."""
MAX_INPUT_BYTES: Final = 1_000_000
MAX_ANSWER_BYTES: Final = 1_000_000
_POLL_SECONDS: Final = 0.02
KEPT_RESERVE_SECONDS: Final = 0.2
"""Least time before the deadline at which a hook stops waiting for the gateway and prints the
session-start text kept for it, when there is a valid one: a quarter of the budget, at least
this, at most half."""
_pause = time.sleep
_NAME_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class _DeadlinePassedError(Exception):
    """The hook's time is up: print nothing."""


class Reason:
    """Why a hook printed nothing, as reported on stderr."""

    BAD_INPUT: Final = "bad_input"
    GATEWAY_NOT_RUNNING: Final = "gateway_not_running"
    UNREACHABLE: Final = "gateway_unreachable"
    REFUSED: Final = "gateway_refused"  # an error status or a malformed answer
    DEADLINE: Final = "deadline_passed"


def _report(reason: str) -> None:
    """One JSON line on stderr naming why nothing was printed (never the input or the answer)."""
    try:
        sys.stderr.write(json.dumps({"event": "hook_unanswered", "reason": reason}) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _home() -> Path:
    configured = os.environ.get("SQRL_HOME")
    return Path(configured).expanduser() if configured else Path("~/.sqrl").expanduser()


def deadline_ms(home: Path) -> int:
    """`hooks.deadline_ms` from the environment or config.toml; the default when unreadable."""
    return _hooks_ms(home, "deadline_ms", DEFAULT_DEADLINE_MS, 50, 60_000)


def start_wait_ms(home: Path) -> int:
    """`hooks.start_wait_ms` from the environment or config.toml; the default when unreadable."""
    return _hooks_ms(home, "start_wait_ms", DEFAULT_START_WAIT_MS, 0, START_WAIT_MAX_MS)


def _hooks_ms(home: Path, key: str, default: int, low: int, high: int) -> int:
    """A `hooks.<key>` setting in milliseconds: `SQRL_HOOKS_<KEY>`, else config.toml, else (also
    when unreadable or outside `low`..`high`) `default`."""
    raw: object = os.environ.get(f"SQRL_HOOKS_{key.upper()}")
    if raw is None:
        try:
            text = (home / "config.toml").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        if key in text:  # parse only when the setting is there (tomllib costs ~10 ms)
            import tomllib  # noqa: PLC0415

            try:
                raw = tomllib.loads(text).get("hooks", {}).get(key)
            except (tomllib.TOMLDecodeError, AttributeError, RecursionError):
                raw = None
    try:
        value = int(str(raw)) if raw is not None else default
    except ValueError:
        return default
    return value if low <= value <= high else default


def services_starting(home: Path) -> bool:
    """Whether `sqrl up` is starting the services a session-start answer needs: its record
    names a live supervisor and one of them not serving yet. False when there is no record or
    its supervisor is gone (the services are down: nothing to wait for)."""
    try:
        state = json.loads((home / "run" / "supervisor.json").read_text())
        pid = int(state["pid"])
        services = state.get("services") or {}
        states = [str((services.get(name) or {}).get("state", "starting")) for name in WAITED_FOR]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    # Imported here, by a session start that found a supervisor record (standard library
    # only). A supervisor that exited and was not reaped yet is gone.
    from squirrel_core.process_alive import pid_alive  # noqa: PLC0415

    if not pid_alive(pid):
        return False
    return any(state != "serving" for state in states)


def start_wait_s(home: Path, event: str) -> float:
    """How long this hook may wait for services still starting: `hooks.start_wait_ms` for a
    session start while the supervisor says they are starting, else 0.0."""
    if event not in START_EVENTS or not services_starting(home):
        return 0.0
    return start_wait_ms(home) / 1000


def wait_for_start(home: Path, wait_s: float) -> float:
    """Waits up to `wait_s` seconds while the services are starting; the seconds waited."""
    if wait_s <= 0:
        return 0.0
    started = time.monotonic()
    deadline = started + wait_s
    while time.monotonic() < deadline and services_starting(home):
        _pause(_POLL_SECONDS)
    waited = time.monotonic() - started
    try:
        sys.stderr.write(
            json.dumps({"event": "hook_waited_for_start", "waited_ms": round(waited * 1000)}) + "\n"
        )
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return waited


def _endpoint(home: Path, budget_s: float) -> tuple[str, int, str] | None:
    """Host, port and token of the gateway's HTTP endpoint, or None when it is not running.

    The gateway records the endpoint a moment after it reports SERVING; while it is serving
    and the record is not there yet, this waits for it (within the hook's budget)."""
    deadline = time.monotonic() + budget_s
    while True:
        found = _recorded_endpoint(home)
        if found is not None or time.monotonic() >= deadline:
            return found
        if not (home / "run" / "gateway-service.json").exists():
            return None
        _pause(_POLL_SECONDS)


def _recorded_endpoint(home: Path) -> tuple[str, int, str] | None:
    try:
        info = json.loads((home / "run" / "gateway-mcp.json").read_text())
        token = (home / "token").read_text().strip()
        return str(info["host"]), int(info["port"]), token
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _post(host: str, port: int, path: str, token: str, *, body: bytes, timeout: float) -> bytes:
    """A minimal HTTP/1.1 POST over one loopback connection: the body of a 200."""
    request = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode("latin-1") + body
    with socket.create_connection((host, port), timeout=timeout) as conn:
        conn.sendall(request)
        chunks: list[bytes] = []
        size = 0
        while chunk := conn.recv(65536):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise _UnansweredError(Reason.REFUSED)
    head, _, payload = b"".join(chunks).partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0].split()
    if len(status) < 2 or status[1] != b"200":
        # 400: the gateway refused what it was given (the host's JSON, a host or event name it
        # does not know), not the gateway failing
        raise _UnansweredError(Reason.BAD_INPUT if status[1:2] == [b"400"] else Reason.REFUSED)
    if b"transfer-encoding: chunked" in head.lower():
        return _unchunk(payload)
    return payload


def _unchunk(payload: bytes) -> bytes:
    out: list[bytes] = []
    while payload:
        size_line, _, rest = payload.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        payload = rest[size + 2 :]
    return b"".join(out)


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _DeadlinePassedError


class _UnansweredError(Exception):
    """Nothing to print, for a reason worth reporting."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def answer(host: str, event: str, stdin: bytes, home: Path, budget_s: float) -> bytes:
    """What to print for this hook call (b"" when the gateway answered nothing).

    Raises `_UnansweredError` for a bad host or event name or a gateway that is not running,
    `OSError` on a failed or lost connection."""
    if not (set(host) <= _NAME_CHARS and set(event) <= _NAME_CHARS and host and event):
        raise _UnansweredError(Reason.BAD_INPUT)
    started = time.monotonic()
    endpoint = _endpoint(home, budget_s)
    if endpoint is None:
        raise _UnansweredError(Reason.GATEWAY_NOT_RUNNING)
    address, port, token = endpoint
    left = max(0.01, budget_s - (time.monotonic() - started))
    return _post(address, port, f"/hooks/{host}/{event}", token, body=stdin or b"{}", timeout=left)


def _run(argv: Sequence[str], home: Path, budget_s: float, wait_s: float = 0.0) -> bytes:
    """The answer within `budget_s`; a session start while the services start (`wait_s` > 0)
    prints the text kept for it at once when there is a valid one, else first waits for them
    (at most `wait_s`, not counted in `budget_s`)."""
    started = time.monotonic()
    if len(argv) != 2:
        raise _UnansweredError(Reason.BAD_INPUT)
    data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise _UnansweredError(Reason.BAD_INPUT)
    if wait_s > 0:
        kept = _kept(argv[0], argv[1], data, home)
        if kept is not None:
            _report_kept(STARTING)
            return kept
        started += wait_for_start(home, wait_s)
    left = max(0.01, budget_s - (time.monotonic() - started))
    reserve = min(left / 2, max(KEPT_RESERVE_SECONDS, left / 4))
    try:
        return answer(argv[0], argv[1], data, home, left - reserve)
    except (_UnansweredError, TimeoutError) as slow:
        reason = slow.reason if isinstance(slow, _UnansweredError) else Reason.DEADLINE
        late = reason == Reason.DEADLINE or (
            reason == Reason.GATEWAY_NOT_RUNNING
            and ((home / "run" / "gateway-service.json").exists() or wait_s > 0)
        )
        kept = _kept(argv[0], argv[1], data, home) if late else None
        if kept is None:
            raise
        _report_kept(reason)
        return kept


def _kept(host: str, event: str, stdin: bytes, home: Path) -> bytes | None:
    """The session-start text the gateway kept for this host, event and project, when nothing
    it was made from has changed (`squirrel_core.start_texts`); None otherwise."""
    if not (set(host) <= _NAME_CHARS and set(event) <= _NAME_CHARS and host and event):
        return None
    try:
        cwd = json.loads(stdin or b"{}").get("cwd")
    except (ValueError, AttributeError, RecursionError):
        return None
    if not isinstance(cwd, str) or not cwd:
        return None
    from squirrel_core.start_texts import (  # noqa: PLC0415 - only when late
        kept_start_text,
        start_folder,
    )

    run = home / "run"
    kept = kept_start_text(run, host, event, start_folder(run, cwd))
    return kept.encode("utf-8") if kept else None


def _report_kept(reason: str) -> None:
    """One JSON line on stderr: the gateway was late, a kept session-start text was printed."""
    try:
        sys.stderr.write(json.dumps({"event": "hook_answered_kept", "late": reason}) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str]) -> int:
    """`sqrl hook HOST EVENT`: always exits 0; prints the host's answer, or nothing and the
    reason on stderr."""
    started = time.monotonic()
    home = _home()
    limit_s = deadline_ms(home) / 1000
    wait_s = start_wait_s(home, argv[1]) if len(argv) == 2 else 0.0
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit_s + wait_s)
    try:
        try:
            out = _run(argv, home, limit_s - (time.monotonic() - started), wait_s)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)  # an alarm before this raises below
    except _UnansweredError as unanswered:
        reason = unanswered.reason
    except (_DeadlinePassedError, TimeoutError):  # the socket's timeout is the time left
        reason = Reason.DEADLINE
    except OSError:
        reason = Reason.UNREACHABLE
    except ValueError:  # a malformed answer
        reason = Reason.REFUSED
    else:
        if out:
            try:
                sys.stdout.buffer.write(out.rstrip(b"\n") + b"\n")
                sys.stdout.flush()
            except OSError:  # the host stopped reading
                pass
        return 0
    finally:
        signal.signal(signal.SIGALRM, previous)
    _report(reason)
    return 0
