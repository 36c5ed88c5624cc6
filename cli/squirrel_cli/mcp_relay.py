"""The relay `sqrl mcp` runs while the gateway serves: one host's MCP session, relayed to the
gateway's streamable-HTTP endpoint.

It reads newline-delimited JSON-RPC on stdin, POSTs each message to the gateway's endpoint
(`<home>/run/gateway-mcp.json`, the install's bearer token, the `Mcp-Session-Id` the gateway
gave), and writes what comes back — JSON or server-sent events — to stdout, one message a line.

- While the services start, `initialize`, `ping` and the tool, prompt and resource lists are
  answered here from `mcp_manifest.json` (`mcp_local`); the first other call opens the gateway
  session (by replaying the host's `initialize`); a tool call that finds no gateway within
  `CALL_WAIT_SECONDS` is answered with a tool error saying to call again. The gateway
  restarting mid-session: the next call finds the new endpoint, opens a
  new MCP session (replaying the host's `initialize`) and is sent again; a call cut off while
  the gateway was answering it gets an error saying to call again, never a second run.
- A request for a method the gateway's MCP server does not answer (`server/discover`, which
  hosts probe before `initialize`, a later protocol's method, a misspelt one) gets JSON-RPC's
  "Method not found" at once, before `initialize` or after, whether the gateway serves or not.
- A line that is not JSON (or nested deeper than the parser follows) gets a JSON-RPC parse
  error, a refused token a JSON-RPC error naming it; neither ends the server. At end of stdin
  it waits briefly for calls in flight, ends the MCP session (`DELETE`) and exits.
- stdout carries MCP messages only; logs are JSON lines on stderr.

What it speaks on either side (error codes, log lines, a reply's messages) is `relay_wire`'s.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from typing import IO, Any, Final

from squirrel_cli.mcp_local import LocalAnswers, load_manifest, served_methods
from squirrel_cli.relay_wire import (
    GATEWAY_ERROR,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    NotServingError,
    RelayError,
    answers,
    is_request,
    log_event,
    memory_running,
)
from squirrel_core.home import HomeLayout
from squirrel_core.mcp_profile import read_profile
from squirrel_core.service_info import ServiceInfo, pid_alive, read_service_info

MCP_PATH: Final = "/mcp"
ENDPOINT_FILE: Final = "gateway-mcp.json"
RECONNECT_SECONDS: Final = 20.0
"""How long a call waits for a restarting gateway before it is answered with an error."""
CALL_WAIT_SECONDS: Final = 20.0
"""How long a call that arrives while the services start waits for the gateway before it is
answered with an error saying to call again. On a loaded laptop the start takes tens of seconds
(34 s at a 1-minute load of 24 on 2 cores), and a model that calls again every few seconds
makes one identical call after another: the Gemini CLI stops a session as a loop at the fifth.
Within the tool timeouts of the hosts (Codex 60 s by default, the Gemini CLI the 30 s
docs/hosts.md sets)."""
CALL_TIMEOUT_SECONDS: Final = 600.0
DRAIN_SECONDS: Final = 10.0
"""At end of stdin, how long calls in flight may still take."""
_POLL_SECONDS: Final = 0.05


class Relay:
    """Relays one host's MCP session to the gateway's streamable-HTTP endpoint.

    Requests other than `initialize` are sent from their own thread, so a slow call does not
    hold up the next one (or a cancellation); notifications and `initialize` go in order.
    """

    def __init__(
        self,
        layout: HomeLayout,
        token: str,
        profile: str,
        out: IO[bytes],
        local: LocalAnswers | None = None,
        *,
        methods: frozenset[str] | None = None,
    ) -> None:
        self._layout = layout
        self._methods = served_methods(load_manifest()) if methods is None else methods
        """The request methods the gateway answers (`mcp_manifest.json`)."""
        self._local = local
        """While the gateway session is not open: the answers given without it (None: every
        message goes to the gateway, which is serving)."""
        self._token = token
        self._profile = profile
        self._out = out
        self._write_lock = threading.Lock()
        self._session_lock = threading.Lock()
        self._endpoint: ServiceInfo | None = None
        self._session: str | None = None
        self._protocol: str | None = None
        self._initialize: dict[str, Any] | None = None
        self._calls: list[threading.Thread] = []

    @property
    def session(self) -> str | None:
        """The gateway's `Mcp-Session-Id` for this host's session, once initialized."""
        return self._session

    # -- stdin -----------------------------------------------------------------------------------
    def serve(self, stdin: IO[bytes]) -> None:
        """Relays every line of `stdin`; at its end, finishes the calls in flight and the
        session."""
        for raw in stdin:
            self.handle_line(raw)
        self.close()

    def handle_line(self, raw: bytes) -> None:
        text = raw.strip()
        if not text:
            return
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):  # also UnicodeDecodeError; nested too deep
            self._write_error(None, PARSE_ERROR, "Parse error: the line is not JSON")
            return
        if not isinstance(message, dict) or not isinstance(message.get("method", ""), str):
            self._write_error(
                message.get("id") if isinstance(message, dict) else None,
                INVALID_REQUEST,
                "Invalid Request: send one JSON-RPC object per line, its method a string",
            )
            return
        if is_request(message) and message["method"] not in self._methods:
            method = message["method"]
            self._write_error(message["id"], METHOD_NOT_FOUND, "Method not found", method)
            log_event("mcp_method_not_found", method=message["method"][:100])
            return
        if is_request(message) and self._initialize is None and message["method"] != "initialize":
            self._before_initialize(message)
            return
        if self._local is not None and self._session is None and self._answer_locally(message):
            return
        if is_request(message) and message["method"] != "initialize":
            self._calls = [t for t in self._calls if t.is_alive()]
            call = threading.Thread(target=self.forward, args=(message,), daemon=True)
            call.start()
            self._calls.append(call)
        else:
            self.forward(message)

    def close(self) -> None:
        deadline = time.monotonic() + DRAIN_SECONDS
        for call in self._calls:
            call.join(max(0.0, deadline - time.monotonic()))
        session, endpoint = self._session, self._endpoint
        if session is None or endpoint is None:
            return
        conn = http.client.HTTPConnection(endpoint.host, endpoint.port, timeout=2)
        try:
            conn.request("DELETE", MCP_PATH, headers=self._headers(session))
            conn.getresponse().read()
        except (OSError, http.client.HTTPException):
            pass  # the gateway is gone, and the session with it
        finally:
            conn.close()
        log_event("mcp_session_closed")

    def _before_initialize(self, message: dict[str, Any]) -> None:
        """A request before the host's `initialize`: there is no session to send it in (the
        gateway said "Bad Request: Missing session ID"). A `ping`, which MCP allows then, is
        answered; anything else is told to initialize first."""
        if message["method"] == "ping":
            self._write({"jsonrpc": "2.0", "id": message["id"], "result": {}})
            return
        self._write_error(
            message["id"],
            INVALID_REQUEST,
            f"Invalid Request: {message['method'][:100]} before initialize; send initialize first",
        )

    def _answer_locally(self, message: dict[str, Any]) -> bool:
        """Answers what needs no gateway while its session is not open; False to forward."""
        assert self._local is not None
        method = message.get("method")
        if method == "initialize" and is_request(message):
            self._initialize = message
            result = self._local.initialize(message.get("params"))
            self._protocol = result["protocolVersion"]
            self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})
            log_event("mcp_answered_locally", method=method)
            return True
        listing = self._local.listing(method) if is_request(message) else None
        if listing is not None:
            self._write({"jsonrpc": "2.0", "id": message["id"], "result": listing})
            log_event("mcp_answered_locally", method=method)
            return True
        if method == "ping" and is_request(message):
            self._write({"jsonrpc": "2.0", "id": message["id"], "result": {}})
            return True
        # Opening the gateway session sends its own `initialized`; nothing there to cancel.
        return not is_request(message) and self._initialize is not None

    # -- one message -----------------------------------------------------------------------------
    def forward(self, message: dict[str, Any]) -> None:
        """Sends `message` and writes the answers; a failed request is answered with an error
        (a tool call that found no gateway, with a tool error the model reads)."""
        try:
            self._exchange(message)
        except RelayError as exc:
            waited = {"wait_seconds": exc.wait_seconds} if isinstance(exc, NotServingError) else {}
            log_event(
                "mcp_relay_failed",
                "warning",
                method=message.get("method"),
                reason=str(exc),
                **waited,
            )
            if not is_request(message):
                return
            if (
                isinstance(exc, NotServingError)
                and self._local is not None
                and message.get("method") == "tools/call"
            ):
                text = self._local.not_serving()
                result = {"content": [{"type": "text", "text": text}], "isError": True}
                self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})
                return
            self._write_error(message["id"], GATEWAY_ERROR, str(exc))

    def _exchange(self, message: dict[str, Any]) -> None:
        opening = message.get("method") == "initialize"
        if opening:
            self._initialize = message
        for _ in range(2):
            if not opening and self._session is None and self._local is not None:
                # Started before the gateway served: this is the first call that needs it.
                self._open_session(None, CALL_WAIT_SECONDS)
            session = None if opening else self._session
            conn, reply = self._post(message, session)
            try:
                if reply.status == 404 and session is not None:
                    reply.read()  # the gateway restarted (or expired the session): a new one
                    conn.close()
                    self._open_session(session, RECONNECT_SECONDS)
                    continue
                self._deliver(message, reply, opening=opening)
                return
            finally:
                conn.close()
        raise RelayError("the gateway lost the MCP session again; call again")

    def _post(
        self, message: dict[str, Any], session: str | None, wait: float | None = None
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        """POSTs `message` on a fresh connection. A gateway that cannot be reached is waited
        for up to `wait` seconds (default `RECONNECT_SECONDS`, read at the call): it may be
        restarting, and nothing was sent, so sending later is safe."""
        body = json.dumps(message).encode()
        budget = RECONNECT_SECONDS if wait is None else wait
        deadline = time.monotonic() + budget
        refused_token = False
        while True:
            endpoint = self._endpoint or self._find_endpoint(deadline, budget)
            conn = http.client.HTTPConnection(
                endpoint.host, endpoint.port, timeout=CALL_TIMEOUT_SECONDS
            )
            try:
                conn.connect()
            except OSError:
                conn.close()
                self._endpoint = None
                if time.monotonic() >= deadline:
                    raise NotServingError(
                        "the gateway is not answering; check `sqrl status` (`sqrl up` starts it)",
                        budget,
                    ) from None
                time.sleep(_POLL_SECONDS)
                continue
            try:
                conn.request("POST", MCP_PATH, body, self._headers(session))
                reply = conn.getresponse()
            except (OSError, http.client.HTTPException):
                conn.close()
                self._endpoint = None
                raise RelayError(
                    "the connection to the gateway was lost during the call (it may have"
                    " restarted); call again"
                ) from None
            if reply.status == 401 and not refused_token:
                reply.read()
                conn.close()
                refused_token = True
                if self._reload_token():
                    continue
            if reply.status == 401:
                reply.read()
                conn.close()
                raise RelayError(
                    "the gateway refused this install's token (HTTP 401); `sqrl token` shows"
                    " where it is, and `sqrl down && sqrl up` restarts the gateway with it"
                )
            return conn, reply

    def _reload_token(self) -> bool:
        """Re-reads the token file (it may have been recreated); True when it changed."""
        try:
            token = self._layout.token.read_text().strip()
        except OSError:
            return False
        changed = bool(token) and token != self._token
        self._token = token or self._token
        return changed

    def _find_endpoint(self, deadline: float, budget: float) -> ServiceInfo:
        """The gateway's endpoint as recorded in the home, waiting for it until `deadline`
        (`budget` seconds from the call's start)."""
        while True:
            info = read_service_info(self._layout.run / ENDPOINT_FILE)
            # Started before the services served: the gateway answers before the memory
            # service does (it loads its models), and a call then would fail.
            waiting = self._local is not None and not memory_running(self._layout)
            if info is not None and pid_alive(info.pid) and not waiting:
                recorded = read_profile(self._layout.run)
                if recorded is not None and recorded == (info.pid, self._profile):
                    self._endpoint = info
                    return info
                if recorded is not None and recorded[0] == info.pid:
                    raise RelayError(
                        "the gateway now runs with other settings than this MCP server"
                        " (user, writes, team); restart the MCP server in your assistant"
                    )
            if time.monotonic() >= deadline:
                raise NotServingError(
                    "the gateway's MCP endpoint is not running; check `sqrl status`"
                    " (`sqrl up` starts it)",
                    budget,
                )
            time.sleep(_POLL_SECONDS)

    def _open_session(self, stale: str | None, wait: float) -> None:
        """Opens a gateway MCP session by replaying the host's `initialize`, once for all the
        calls that found `stale` gone (None: the session was never opened, `initialize` having
        been answered here), waiting up to `wait` seconds for the gateway."""
        with self._session_lock:
            if self._session != stale:
                return
            if self._initialize is None:
                raise RelayError("the MCP session is gone and there is no initialize to replay")
            conn, reply = self._post(self._initialize, None, wait)
            try:
                session = reply.getheader("mcp-session-id")
                if reply.status != 200 or not session:
                    raise RelayError(
                        f"the gateway did not open a new session (HTTP {reply.status})"
                    )
                for _ in answers(reply):
                    pass  # the host has its initialize answer already
            finally:
                conn.close()
            self._session = session
            conn, reply = self._post(
                {"jsonrpc": "2.0", "method": "notifications/initialized"}, session
            )
            reply.read()
            conn.close()
            log_event("mcp_session_renewed" if stale else "mcp_session_opened")

    def _deliver(
        self, message: dict[str, Any], reply: http.client.HTTPResponse, *, opening: bool
    ) -> None:
        """Writes the gateway's answers to `message` on stdout."""
        if reply.status == 202:
            reply.read()
            return
        if opening and reply.status == 200:
            self._session = reply.getheader("mcp-session-id") or self._session
        answered = False
        for answer in answers(reply):
            if opening and isinstance(answer.get("result"), dict):
                version = answer["result"].get("protocolVersion")
                self._protocol = str(version) if version else None
            if "error" in answer and is_request(message) and answer.get("id") != message["id"]:
                self._write({**answer, "id": message["id"]})  # HTTP-level errors name no call
            else:
                self._write(answer)
            answered = True
        if reply.status >= 400 and not answered:
            raise RelayError(f"the gateway answered HTTP {reply.status} ({reply.reason})")

    def _headers(self, session: str | None) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Authorization": f"Bearer {self._token}",
            "Connection": "close",
        }
        if session is not None:
            headers["Mcp-Session-Id"] = session
        if self._protocol is not None:
            headers["Mcp-Protocol-Version"] = self._protocol
        return headers

    # -- stdout ----------------------------------------------------------------------------------
    def _write(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        with self._write_lock:
            try:
                self._out.write(line)
                self._out.flush()
            except (OSError, ValueError):
                pass  # the host closed its end; stdin's end follows

    def _write_error(self, request_id: object, code: int, text: str, data: object = None) -> None:
        error = {"code": code, "message": text} | ({} if data is None else {"data": data})
        self._write({"jsonrpc": "2.0", "id": request_id, "error": error})
