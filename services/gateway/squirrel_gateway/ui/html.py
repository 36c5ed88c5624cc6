"""HTML building blocks: every text goes through `esc`, so memory text is shown, never run."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Final
from urllib.parse import urlencode

from google.protobuf.timestamp_pb2 import Timestamp

from squirrel_core.tokens import COST_GLYPH

STYLESHEET: Final = "/ui/static/ui.css"
PAGE_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-type", b"text/html; charset=utf-8"),
    # No script runs on these pages; styles come from the gateway itself.
    (
        b"content-security-policy",
        b"default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
    (b"x-frame-options", b"DENY"),
)


def esc(value: object) -> str:
    """Text made safe for HTML element content and quoted attributes."""
    return html.escape(str(value), quote=True)


def href(path: str, **params: str | int | None) -> str:
    """A link to a browser page with query parameters (empty ones left out), escaped."""
    clean = {k: v for k, v in params.items() if v not in (None, "")}
    return esc(f"{path}?{urlencode(clean)}" if clean else path)


def when(stamp: Timestamp) -> str:
    """A protobuf time as `2026-11-23 15:49 UTC`, or `—` when unset."""
    if not stamp.seconds and not stamp.nanos:
        return "—"
    return stamp.ToDatetime(tzinfo=UTC).strftime("%Y-%m-%d %H:%M UTC")


def age(stamp: Timestamp, now: datetime) -> str:
    """How long ago, roughly (`3 d`, `5 h`, `12 min`)."""
    if not stamp.seconds:
        return "—"
    seconds = max(0.0, (now - stamp.ToDatetime(tzinfo=UTC)).total_seconds())
    if seconds >= 86400:
        return f"{int(seconds // 86400)} d ago"
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h ago"
    return f"{int(seconds // 60)} min ago"


def page(title: str, body: str, *, nav: str = "", csrf: str = "") -> bytes:
    """A whole page: header with navigation, then `body` (already escaped HTML). With a session's
    form token (`csrf`) the header has a *Sign out* button."""
    sign_out = (
        "<form method='post' action='/ui/logout' class='signout'>"
        + hidden("csrf", csrf)
        + "<button type='submit'>Sign out</button></form>"
        if csrf
        else ""
    )
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{esc(title)} · Squirrel</title>"
        f"<link rel='stylesheet' href='{STYLESHEET}'></head><body>"
        "<a class='skip' href='#main'>Skip to content</a>"
        "<header><nav aria-label='Main'><a href='/ui/'>Squirrel memory</a>"
        f"{nav}<a href='/ui/activity'>Activity</a></nav>{sign_out}</header>"
        f"<main id='main'><h1>{esc(title)}</h1>{body}</main></body></html>"
    ).encode()


def ruler_glyphs(escaped: str) -> str:
    """Escaped text with each `📏` (the token-cost footer) drawn by the stylesheet instead, so the
    page needs no emoji font; screen readers hear "cost"."""
    return escaped.replace(
        COST_GLYPH, "<span class='ruler' role='img' aria-label='cost' title='cost'></span>"
    )


def hidden(name: str, value: str) -> str:
    return f"<input type='hidden' name='{esc(name)}' value='{esc(value)}'>"


def select(name: str, label: str, options: Sequence[tuple[str, str]], chosen: str) -> str:
    """A labelled `<select>`; `options` are (value, text)."""
    items = "".join(
        f"<option value='{esc(v)}'{' selected' if v == chosen else ''}>{esc(t)}</option>"
        for v, t in options
    )
    return f"<label>{esc(label)} <select name='{esc(name)}'>{items}</select></label>"


def table(caption: str, headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table whose cells are already-escaped HTML."""
    head = "".join(f"<th scope='col'>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f"<table><caption>{esc(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def bar_chart(title: str, points: Sequence[tuple[str, int]]) -> str:
    """A small inline SVG bar chart of counts per label, with a text alternative."""
    if not points:
        return f"<p>{esc(title)}: nothing yet.</p>"
    height, gap = 120, 2
    top = max(v for _, v in points) or 1
    bar = max(8, min(40, 480 // len(points) - gap))
    width = max(120, len(points) * (bar + gap))
    bars = []
    for i, (label, value) in enumerate(points):
        h = round((height - 20) * value / top)
        x = i * (bar + gap)
        bars.append(
            f"<rect x='{x}' y='{height - 16 - h}' width='{bar}' height='{h}'>"
            f"<title>{esc(label)}: {value}</title></rect>"
        )
    first, last = esc(points[0][0]), esc(points[-1][0])
    summary = ", ".join(f"{label}: {value}" for label, value in points)
    return (
        f"<figure><figcaption>{esc(title)}</figcaption>"
        f"<svg role='img' aria-label='{esc(title + ': ' + summary)}' viewBox='0 0 {width} {height}'"
        f" width='{width}' height='{height}' class='chart'>{''.join(bars)}"
        f"<text x='0' y='{height - 2}'>{first}</text>"
        + (
            f"<text x='{width}' y='{height - 2}' text-anchor='end'>{last}</text>"
            if len(points) > 1
            else ""
        )
        + "</svg></figure>"
    )
