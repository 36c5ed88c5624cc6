"""The memory browser's sign-in: codes work once and expire, sessions expire, forms carry tokens;
its HTML helpers escape whatever they are given."""

from __future__ import annotations

from squirrel_gateway.ui.auth import (
    CODE_TTL_SECONDS,
    MAX_CODES,
    SESSION_TTL_SECONDS,
    UiSessions,
    cookie_header,
    cookie_value,
    form_token_ok,
)
from squirrel_gateway.ui.html import bar_chart, href


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_code_signs_in_once_and_not_after_it_expires() -> None:
    clock = Clock()
    sessions = UiSessions(clock)
    code = sessions.issue_code()
    session = sessions.redeem(code)
    assert session is not None and sessions.session(session.session_id) == session
    assert sessions.redeem(code) is None
    late = sessions.issue_code()
    clock.now += CODE_TTL_SECONDS + 1
    assert sessions.redeem(late) is None
    for bad in ("", "x" * 5000, code + "x", code[:-1]):
        assert sessions.redeem(bad) is None


def test_sessions_expire_and_old_codes_make_room() -> None:
    clock = Clock()
    sessions = UiSessions(clock)
    first = sessions.issue_code()
    codes = [sessions.issue_code() for _ in range(MAX_CODES)]
    assert sessions.redeem(first) is None
    session = sessions.redeem(codes[-1])
    assert session is not None
    clock.now += SESSION_TTL_SECONDS + 1
    assert sessions.session(session.session_id) is None
    assert sessions.session(None) is None and sessions.session("y" * 1000) is None


def test_form_tokens_and_cookies() -> None:
    sessions = UiSessions(Clock())
    session = sessions.redeem(sessions.issue_code())
    assert session is not None
    assert form_token_ok(session, session.csrf)
    assert not form_token_ok(session, None) and not form_token_ok(session, session.csrf + "a")
    header = cookie_header(session).decode()
    assert "HttpOnly" in header and "SameSite=Strict" in header and "Path=/ui" in header
    assert cookie_value(f"a=1; sqrl_ui={session.session_id}; b=2") == session.session_id
    assert cookie_value("a=1") is None and cookie_value(None) is None


def test_chart_and_links_escape_what_they_show() -> None:
    chart = bar_chart("<b>t</b>", [("<i>", 3), ("x'", 0)])
    assert "<b>" not in chart and "<i>" not in chart and "&lt;i&gt;: 3" in chart
    assert bar_chart("none", []) == "<p>none: nothing yet.</p>"
    assert href("/ui/memory", project="/a b/'<x>", id="mem_1") == (
        "/ui/memory?project=%2Fa+b%2F%27%3Cx%3E&amp;id=mem_1"
    )
