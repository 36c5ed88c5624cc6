"""A command's expanded body is the host's text: it never makes user_style; the user's arguments
do, and so does an ordinary prompt, headings and all. Transcripts on disk, the real parsers, the
real rules extractor."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.stored_events import stored
from squirrel_core.events import Event, EventType, Origin
from squirrel_ingest.parsers import ClaudeFileParser, line_parser_for, parse_bytes
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType

T0 = datetime(2026, 3, 8, 19, 55, tzinfo=UTC)

#: A command file's body: instructions to the assistant, with a style line of its own.
BODY = (
    "## Input\n\n$ARGUMENTS\n\n## Outline\n\nYou are updating the release notes file. Fill the "
    "template from the repository's history.\n\n1. Read the existing notes.\n2. Add the new "
    "entries.\n\nFormatting Requirements:\n\n- Avoid trailing whitespace.\n- Keep a single "
    "blank line between sections.\n"
)
#: What a user types when they mean it.
OWN = "Always run the linter before committing."


def _styles(path: Path) -> tuple[list[Event], list[str]]:
    parser = line_parser_for(str(path)) or ClaudeFileParser(str(path))
    events = parse_bytes(parser, path.read_bytes(), str(path)).events
    rows = stored(events, "/home/dev/app", "t")
    (episode,) = segment_episodes(rows, now=T0 + timedelta(days=1))
    found = RulesExtractor().extract_sync(episode, rows)
    return events, [c.content for c in found if c.type is MemoryType.USER_STYLE]


def _said(events: list[Event]) -> list[tuple[Origin | None, str]]:
    return [
        (e.origin, str(e.content.get("text"))[:20])
        for e in events
        if e.event_type == EventType.USER_MESSAGE
    ]


def _claude(tmp_path: Path, text: str) -> Path:
    record = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s1",
        "cwd": "/home/dev/app",
        "version": "1.0.40",
        "timestamp": T0.isoformat().replace("+00:00", "Z"),
        "message": {"role": "user", "content": text},
    }
    path = tmp_path / "projects" / "-home-dev-app" / "s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def _codex(tmp_path: Path, message: str, prompt: str | None) -> Path:
    home = tmp_path / "codex-home"
    if prompt is not None:
        (home / "prompts").mkdir(parents=True)
        (home / "prompts" / "notes.md").write_text(
            "---\ndescription: Update the release notes\n---\n" + prompt, encoding="utf-8"
        )
    stamp = T0.isoformat().replace("+00:00", "Z")
    records = [
        {
            "timestamp": stamp,
            "type": "session_meta",
            "payload": {"id": "s2", "timestamp": stamp, "cwd": "/home/dev/app"},
        },
        {
            "timestamp": stamp,
            "type": "event_msg",
            "payload": {"type": "user_message", "message": message, "images": []},
        },
    ]
    path = home / "sessions" / "2026" / "03" / "08" / "rollout-2026-03-08T19-55-42-s2.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _markup(args: str) -> str:
    return (
        "<command-message>notes is running…</command-message>\n<command-name>/notes</command-name>"
        f"\n<command-args>{args}</command-args>"
    )


def test_a_claude_command_body_beside_its_markup_makes_no_style(tmp_path: Path) -> None:
    text = _markup("") + "\n" + BODY.replace("$ARGUMENTS", "")
    events, styles = _styles(_claude(tmp_path, text))
    assert [origin for origin, _ in _said(events)] == [Origin.HARNESS, Origin.SLASH_COMMAND]
    assert styles == []


def test_a_claude_commands_arguments_still_give_the_users_preference(tmp_path: Path) -> None:
    text = _markup(OWN) + "\n" + BODY.replace("$ARGUMENTS", OWN)
    events, styles = _styles(_claude(tmp_path, text))
    assert (Origin.SLASH_COMMAND, OWN[:20]) in _said(events)
    assert styles == [OWN]


def test_a_codex_custom_prompt_body_makes_no_style(tmp_path: Path) -> None:
    expanded = BODY.replace("$ARGUMENTS", "")
    events, styles = _styles(_codex(tmp_path, "\n" + expanded, BODY))
    assert _said(events) == [
        (Origin.HARNESS, expanded[:20]),
        (Origin.SLASH_COMMAND, "/prompts:notes"),
    ]
    assert styles == []


def test_a_codex_custom_prompts_arguments_still_give_the_users_preference(
    tmp_path: Path,
) -> None:
    events, styles = _styles(_codex(tmp_path, BODY.replace("$ARGUMENTS", OWN), BODY))
    assert (Origin.SLASH_COMMAND, OWN[:20]) in _said(events)
    assert styles == [OWN]


def test_without_its_prompt_file_a_codex_turn_stays_typed(tmp_path: Path) -> None:
    events, _ = _styles(_codex(tmp_path, BODY.replace("$ARGUMENTS", ""), None))
    assert [origin for origin, _ in _said(events)] == [Origin.TYPED]


def test_an_ordinary_prompt_with_a_heading_still_gives_its_preference(tmp_path: Path) -> None:
    typed = "## Lint\n\nAlways run the linter before committing.\n\nThen fix the login page."
    for path in (_claude(tmp_path / "c", typed), _codex(tmp_path / "x", typed, BODY)):
        events, styles = _styles(path)
        assert [origin for origin, _ in _said(events)] == [Origin.TYPED]
        assert styles == [OWN]
