"""The browser's pages as HTML: a project's memories, one memory, the views, activity."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Final

from squirrel.v1 import events_pb2, memory_pb2, memory_service_pb2
from squirrel_core.hazards import describe
from squirrel_core.read_shapes import MEMORY_TYPES, writers_note
from squirrel_gateway import messages
from squirrel_gateway.schemas import SearchResponse
from squirrel_gateway.ui.html import (
    age,
    esc,
    hidden,
    href,
    ruler_glyphs,
    select,
    table,
    when,
)
from squirrel_gateway.ui.outcomes import outcome_section, stale_note

TYPE_LABELS: Final = {
    "user_style": "User style",
    "project_fact": "Project facts",
    "pitfall": "Pitfalls",
    "recipe": "Recipes",
}
SOURCE_OPTIONS: Final = (("", "any"), ("rules", "rules"), ("llm", "model"), ("manual", "manual"))
TOOL_OPTIONS: Final = (
    ("", "any"),
    ("claude_code", "Claude Code"),
    ("codex", "Codex CLI"),
    ("gemini_cli", "Gemini CLI"),
    ("cursor", "Cursor"),
    ("git", "git history"),
)


def project_nav(project_id: str) -> str:
    return (
        f"<a href='{href('/ui/project', project=project_id)}'>Memories</a>"
        f"<a href='{href('/ui/views', project=project_id)}'>Views</a>"
    )


def flags_html(item: memory_pb2.MemoryItem) -> str:
    if not item.flags:
        return ""
    note = " (confirmed)" if item.confirmed else ""
    return " ".join(
        f"<span class='flag' title='{esc(describe([f]))}'>⚠ {esc(f)}{esc(note)}</span>"
        for f in item.flags
    )


def type_name(item: memory_pb2.MemoryItem) -> str:
    return messages.memory_type_name(item.type) or "unknown"


def is_stale(item: memory_pb2.MemoryItem, root: str) -> bool:
    """True when a repository file the memory names (`file_paths`, `path:line`) is gone."""
    named = list(item.file_paths) + [
        ref.rsplit(":", 1)[0] for ref in item.source_refs if not ref.startswith("commit:")
    ]
    base = Path(root)
    for name in named:
        if not name or name.startswith("/") or ".." in Path(name).parts:
            continue
        if not (base / name).exists():
            return True
    return False


def index_page(projects: Sequence[str]) -> str:
    if not projects:
        return "<p>No project is registered yet: run <code>sqrl init</code> in a repository.</p>"
    rows = [
        [
            f"<a href='{href('/ui/project', project=p)}'>{esc(p)}</a>",
            f"<a href='{href('/ui/views', project=p)}'>views</a>",
        ]
        for p in projects
    ]
    return table("Registered projects", ["Project", "As the assistant sees it"], rows)


def filter_form(
    project_id: str, chosen: dict[str, str], written_by: Sequence[str], where: str = ""
) -> str:
    types = [("", "any"), *((t, TYPE_LABELS[t]) for t in MEMORY_TYPES)]
    writers = [("", "anyone"), *((w, w) for w in written_by)]
    stale = " checked" if chosen.get("stale") else ""
    return (
        "<form class='bar' method='get' action='/ui/project' role='search'>"
        + hidden("project", project_id)
        + (hidden("where", where) if where else "")
        + f"<label>Search (same as the assistant's) <input type='search' name='q' "
        f"value='{esc(chosen.get('q', ''))}' maxlength='2000'></label>"
        + select("type", "Type", types, chosen.get("type", ""))
        + select("source", "Source", SOURCE_OPTIONS, chosen.get("source", ""))
        + select("tool", "Session tool", TOOL_OPTIONS, chosen.get("tool", ""))
        + select("written_by", "Written by", writers, chosen.get("written_by", ""))
        + f"<label><span>Stale only</span><input type='checkbox' name='stale' value='1'{stale}>"
        "</label><button type='submit'>Show</button></form>"
    )


def memory_link(
    project_id: str, memory_id: str, text: str, handle: str = "", where: str = ""
) -> str:
    """A link to the memory's page, named by its handle where the list has one (shown too);
    `where="team"`: the team server's memory."""
    extra = {"where": where} if where else {}
    url = href("/ui/memory", project=project_id, id=handle or memory_id, **extra)
    link = f"<a href='{url}'>{esc(text)}</a>"
    return link + (f" <code class='muted'>{esc(handle)}</code>" if handle else "")


def memory_tables(
    project_id: str,
    items: Sequence[memory_pb2.MemoryItem],
    total: int,
    now: datetime,
    where: str = "",
) -> str:
    if not items:
        return "<p>No memory matches.</p>"
    out = [f"<p class='muted'>{len(items)} shown of {total}.</p>"]
    for kind in MEMORY_TYPES:
        rows = [
            [
                memory_link(project_id, m.memory_id, m.content, m.handle, where)
                + " "
                + flags_html(m),
                f"{m.importance:.2f}",
                esc(age(m.updated_at, now)),
                esc(_written_by(m)),
                esc(m.key),
            ]
            for m in items
            if type_name(m) == kind
        ]
        if rows:
            out.append(
                table(
                    TYPE_LABELS[kind],
                    ["Memory", "Importance", "Updated", "Written by", "Key"],
                    rows,
                )
            )
    return "".join(out)


def _written_by(m: memory_pb2.MemoryItem) -> str:
    """Who wrote a memory, with how many teammates remembered it when more than one did."""
    note = writers_note(m.writers)
    by = m.written_by or "—"
    return f"{by} ({note})" if note else by


def search_results(project_id: str, found: SearchResponse, where: str = "") -> str:
    if not found.results:
        return f"<p>No memory found for <q>{esc(found.query)}</q>.</p>"
    rows = [
        [
            memory_link(project_id, r.memory_id, r.content, r.handle, where),
            esc(TYPE_LABELS.get(r.type, r.type)),
            f"{r.score:.3f}",
            f"{r.importance:.2f}",
            esc(r.reason),
        ]
        for r in found.results
    ]
    return table(
        f"Search results for “{found.query}” ({found.total})",
        ["Memory", "Type", "Score", "Importance", "Why it matched"],
        rows,
    )


def memory_page(
    project_id: str,
    reply: memory_service_pb2.GetMemoryHistoryResponse,
    csrf: str,
    now: datetime,
    *,
    read_only: bool = False,
) -> str:
    """A memory with its history; `read_only` (the team's memory): no correction forms."""
    m = reply.memory
    state = "forgotten" if m.deleted else "live"
    facts = table(
        "This memory",
        ["Field", "Value"],
        [
            ["Content", f"<div class='content'>{esc(m.content)}</div> {flags_html(m)}"],
            ["Type / key", esc(f"{type_name(m)} / {m.key}")],
            ["State", esc(state) + stale_note(reply)],
            ["Importance", f"{m.importance:.2f}"],
            ["Version", str(m.version)],
            ["Written by", esc(_written_by(m))],
            ["Remembered by", esc(", ".join(m.writers) or "—")],
            ["Updated", esc(f"{when(m.updated_at)} ({age(m.updated_at, now)})")],
            ["Files", esc(", ".join(m.file_paths) or "—")],
            ["Repository sources", esc(", ".join(m.source_refs) or "—")],
        ],
    )
    return (
        facts
        + ("" if read_only else _actions(project_id, m, csrf, stale=reply.stale))
        + _history(project_id, reply, csrf, read_only=read_only)
        + outcome_section(reply)
        + _sources(reply.source_events)
    )


def _form(action: str, project_id: str, memory_id: str, csrf: str, inner: str) -> str:
    return (
        f"<form method='post' action='{esc(action)}' class='bar'>"
        + hidden("project", project_id)
        + hidden("id", memory_id)
        + hidden("csrf", csrf)
        + inner
        + "</form>"
    )


def _actions(project_id: str, m: memory_pb2.MemoryItem, csrf: str, *, stale: bool = False) -> str:
    edit = _form(
        "/ui/memory/edit",
        project_id,
        m.memory_id,
        csrf,
        "<label class='wide'>Corrected text (extraction never overwrites it)"
        f"<textarea name='content' maxlength='4000' required>{esc(m.content)}</textarea></label>"
        "<label>Why this correction <input type='text' name='reason' maxlength='1000'></label>"
        "<button type='submit'>Save correction</button>",
    )
    pin = _form(
        "/ui/memory/pin",
        project_id,
        m.memory_id,
        csrf,
        "<button type='submit'>Pin (importance 1.0)</button>",
    )
    forget = (
        ""
        if m.deleted
        else _form(
            "/ui/memory/forget",
            project_id,
            m.memory_id,
            csrf,
            "<label>Why forget it <input type='text' name='reason' maxlength='1000'></label>"
            "<button type='submit' class='danger'>Forget</button>",
        )
    )
    confirm = ""
    if stale and not m.deleted:
        confirm = _form(
            "/ui/memory/confirm",
            project_id,
            m.memory_id,
            csrf,
            "<button type='submit'>Confirm it still holds (a session contradicted it)</button>",
        )
    elif m.flags and not m.confirmed and not m.deleted:
        confirm = _form(
            "/ui/memory/confirm",
            project_id,
            m.memory_id,
            csrf,
            "<button type='submit'>Confirm this text is safe to hand the assistant</button>",
        )
    return f"<h2>Correct it</h2>{edit}{pin}{confirm}{forget}"


def _history(
    project_id: str,
    reply: memory_service_pb2.GetMemoryHistoryResponse,
    csrf: str,
    *,
    read_only: bool = False,
) -> str:
    current = reply.memory
    rows = []
    for v in reply.versions:
        restore = ""
        if not read_only and v.content and (v.content != current.content or current.deleted):
            restore = _form(
                "/ui/memory/restore",
                project_id,
                current.memory_id,
                csrf,
                hidden("version", str(v.version))
                + f"<button type='submit' aria-label='Restore version {v.version}'>Restore"
                "</button>",
            )
        by = v.written_by or "—"
        rows.append(
            [
                str(v.version),
                esc(v.action),
                esc(when(v.changed_at)),
                esc(f"{by} ({', '.join(v.writers)})" if v.writers else by),
                esc(v.reason or "—"),
                esc(v.content),
                esc(", ".join(v.source_refs) or "—"),
                restore,
            ]
        )
    return "<h2>History</h2>" + table(
        "Every version, oldest first",
        ["Version", "Decision", "When", "Written by", "Why", "Content", "Sources", ""],
        rows,
    )


_ORIGINS: Final = {
    events_pb2.EVENT_ORIGIN_TYPED: "the user (typed)",
    events_pb2.EVENT_ORIGIN_QUEUED: "the user (queued)",
    events_pb2.EVENT_ORIGIN_SLASH_COMMAND: "the user (slash command)",
    events_pb2.EVENT_ORIGIN_ANSWER: "the user (an answer)",
    events_pb2.EVENT_ORIGIN_TOOL_RESULT: "a tool's output",
    events_pb2.EVENT_ORIGIN_HOOK: "a hook",
    events_pb2.EVENT_ORIGIN_HARNESS: "the host",
    events_pb2.EVENT_ORIGIN_PARENT_AGENT: "a parent agent",
    events_pb2.EVENT_ORIGIN_COMPACTION: "a compaction summary",
    events_pb2.EVENT_ORIGIN_ASSISTANT: "the assistant",
    events_pb2.EVENT_ORIGIN_GIT: "git",
}
TOOL_NAMES: Final = {
    value: name.removeprefix("SOURCE_TOOL_").lower()
    for name, value in events_pb2.SourceTool.items()
}
_EVENT_TYPES: Final = {
    value: name.removeprefix("EVENT_TYPE_").lower() for name, value in events_pb2.EventType.items()
}


def _sources(events: Sequence[events_pb2.SourceEventRef]) -> str:
    if not events:
        return (
            "<h2>Session sources</h2><p>No session event: written by hand or read from files.</p>"
        )
    rows = [
        [
            esc(when(e.timestamp)),
            esc(_ORIGINS.get(e.origin, "?") + (" (subagent)" if e.sidechain else "")),
            esc(TOOL_NAMES.get(e.source_tool, "?")),
            esc(_EVENT_TYPES.get(e.event_type, "?")),
            esc(e.session_id or "—"),
            f"<q>{esc(e.excerpt)}</q>" if e.excerpt else "—",
        ]
        for e in events
    ]
    return "<h2>Session sources</h2>" + table(
        "The session events it came from (redacted)",
        ["When", "Who said it", "Tool", "Kind", "Session", "Excerpt"],
        rows,
    )


def views_form(project_id: str, budget: int, task: str) -> str:
    return (
        "<form class='bar' method='get' action='/ui/views'>"
        + hidden("project", project_id)
        + f"<label>Budget (tokens) <input type='number' name='budget' min='48' max='32000' "
        f"value='{budget}'></label>"
        f"<label class='grow'>Task (for the task-context preview) <input type='text' "
        f"name='task' maxlength='4000' value='{esc(task)}'></label>"
        "<button type='submit'>Show</button></form>"
    )


def view_block(title: str, markdown: str, tokens: int, shown: int, total: int) -> str:
    return (
        f"<section><h2>{esc(title)}</h2><p class='muted'>{tokens} tokens, {shown} of {total} "
        f"items</p><pre>{ruler_glyphs(esc(markdown))}</pre></section>"
    )
