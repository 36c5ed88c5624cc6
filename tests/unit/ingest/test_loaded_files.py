"""Instruction files the host put into the transcript itself: Codex's AGENTS.md message and
Claude Code's `nested_memory` and `instructions` attachments, as host-spoken messages naming
the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from squirrel_core.events import LOADED_FILE, Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import ClaudeFileParser, CodexFileParser, parse_bytes
from squirrel_ingest.parsers.loaded_files import MAX_LISTED_FILES

ROOT = Path(__file__).parents[3]
PEQ = ROOT / "bench/data/transcripts/peq/codex-exec-iso-artifacts-cherry-pick.jsonl"
SKILLS_ONLY = (
    ROOT
    / "tests/fixtures/codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"
)
CWD = "/work/shop"
POSITION = SourcePosition(path="s.jsonl", inode=1, end_offset=0)


def _loaded(events: list[Event]) -> list[tuple[str, str]]:
    return [
        (e.content[LOADED_FILE], e.content["text"])
        for e in events
        if LOADED_FILE in e.content and e.origin is Origin.HARNESS
    ]


def _codex(*texts: str) -> list[Event]:
    parser = CodexFileParser("rollout-x.jsonl")
    meta = {"id": "s1", "cwd": CWD, "cli_version": "0.154.0", "source": "exec"}
    message = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": text} for text in texts],
    }
    lines = [
        {"timestamp": "2026-09-21T06:31:16Z", "type": "session_meta", "payload": meta},
        {"timestamp": "2026-09-21T06:31:17Z", "type": "response_item", "payload": message},
        # The next record: the message is the host's (a pasted one is followed by its text).
        {"timestamp": "2026-09-21T06:31:18Z", "type": "turn_context", "payload": {"cwd": CWD}},
    ]
    return [e for line in lines for e in parser.feed(json.dumps(line).encode(), POSITION)]


def _typed(text: str) -> list[dict[str, Any]]:
    """A message as Codex records what the user typed: the item, then its `user_message`."""
    item = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    return [
        {"timestamp": "2026-09-21T06:40:00Z", "type": "response_item", "payload": item},
        {
            "timestamp": "2026-09-21T06:40:00Z",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": text},
        },
    ]


def test_the_agents_md_codex_0154_puts_among_other_injected_parts_is_the_file_read() -> None:
    events = parse_bytes(CodexFileParser(str(PEQ)), PEQ.read_bytes(), str(PEQ)).events
    ((path, text),) = _loaded(events)
    (event,) = [e for e in events if LOADED_FILE in e.content]
    assert path == "AGENTS.md" and event.file_paths == ("AGENTS.md",)
    assert event.event_type is EventType.USER_MESSAGE
    assert text.startswith("# Agents\n\nA CLI tool that analyzes PHP code dependencies")
    assert text.rstrip().endswith("is not called a fixture.")  # no </INSTRUCTIONS>
    assert "<environment_context>" not in text and "<recommended_plugins>" not in text


def test_codex_skills_list_is_no_instruction_file() -> None:
    events = parse_bytes(CodexFileParser(str(SKILLS_ONLY)), SKILLS_ONLY.read_bytes(), "r").events
    assert _loaded(events) == []
    said = [
        e.content["text"]
        for e in events
        if e.origin is Origin.HARNESS and e.event_type is EventType.USER_MESSAGE
    ]
    assert any(text.startswith("# AGENTS.md instructions for") for text in said)


def test_codex_user_file_and_skills_are_cut_off_the_projects_file() -> None:
    body = (
        "Answer in French.\n\n--- project-doc ---\n\nRun `make check` before you finish.\n\n"
        "## Skills\nThese skills are discovered at startup from multiple local sources.\n- x: y"
    )
    text = f"# AGENTS.md instructions for {CWD}/api\n\n<INSTRUCTIONS>\n{body}\n</INSTRUCTIONS>"
    assert _loaded(_codex(text, "<environment_context>\n</environment_context>")) == [
        ("api/AGENTS.md", "Run `make check` before you finish.")
    ]


def test_older_codex_user_instructions_count_only_with_the_project_doc_line() -> None:
    older = "<user_instructions>\n\nUse tabs.\n\n--- project-doc ---\n\nRun `make`.\n\n</user_instructions>"
    assert _loaded(_codex(older)) == [("AGENTS.md", "Run `make`.")]
    users_own = "<user_instructions>\n\nAnswer in French.\n\n</user_instructions>"
    events = _codex(users_own)
    assert _loaded(events) == [] and [e.origin for e in events] == [Origin.HARNESS]


def test_older_codex_user_instructions_titled_for_the_sessions_folder_are_the_projects() -> None:
    body = "# Shop Development Guidelines\n\nAuto-generated.\n\n## Commands\nmake check"
    assert _loaded(_codex(f"<user_instructions>\n\n{body}\n\n</user_instructions>")) == [
        ("AGENTS.md", body)
    ]


def test_older_codex_user_instructions_titled_otherwise_stay_the_users() -> None:
    for body in (
        "# My global rules\n\nAnswer in French.",  # names no folder
        "# Workshop notes\n\nUse tabs.",  # `shop` inside another word
        "Use tabs.\n\n# Shop\n\nRun `make`.",  # a heading that is not the file's title
        "## Shop\n\nRun `make`.",  # a section, not the title
    ):
        text = f"<user_instructions>\n\n{body}\n\n</user_instructions>"
        assert _loaded(_codex(text)) == [], body


def test_older_codex_user_instructions_titled_with_the_session_folder_are_the_projects() -> None:
    # The session runs in /work/shop: a file titled for that folder is the project's own.
    titled = "<user_instructions>\n\n# Shop Development Guidelines\n\nRun `make`.\n\n</user_instructions>"
    assert _loaded(_codex(titled)) == [
        ("AGENTS.md", "# Shop Development Guidelines\n\nRun `make`.")
    ]


def test_older_codex_user_instructions_titled_for_another_name_are_no_project_file() -> None:
    for body in (
        "# My global rules\n\nAnswer in French.",  # the user's own file
        "Notes on the shop\n\nRun `make`.",  # the folder named, but in no title
        "# Workshop notes\n\n## Shop\n\nRun `make`.",  # a title holding a longer word
    ):
        events = _codex(f"<user_instructions>\n\n{body}\n\n</user_instructions>")
        assert _loaded(events) == [], body


def _attachment(attachment: dict[str, Any]) -> list[Event]:
    record = {
        "type": "attachment",
        "uuid": "a1",
        "parentUuid": None,
        "sessionId": "s1",
        "cwd": CWD,
        "version": "2.1.90",
        "isSidechain": False,
        "timestamp": "2026-09-21T06:31:16.846Z",
        "attachment": attachment,
    }
    return ClaudeFileParser("s1.jsonl").feed(json.dumps(record).encode(), POSITION)


def _nested(path: str, kind: str, text: str = "- Run `pnpm test` in this folder") -> dict[str, Any]:
    return {
        "type": "nested_memory",
        "path": path,
        "content": {"path": path, "type": kind, "content": text, "contentDiffersFromDisk": False},
        "displayPath": path.rsplit("/", 1)[-1],
    }


def test_claude_code_nested_memory_of_a_sub_folder_is_that_folders_file() -> None:
    events = _attachment(_nested(f"{CWD}/web/CLAUDE.md", "Project"))
    assert _loaded(events) == [("web/CLAUDE.md", "- Run `pnpm test` in this folder")]
    assert events[0].file_paths == ("web/CLAUDE.md",)


def test_claude_code_user_managed_and_automatic_memory_are_no_project_file() -> None:
    for kind in ("User", "Managed", "AutoMem"):
        assert _attachment(_nested("/home/me/.claude/CLAUDE.md", kind)) == []
    assert _attachment(_nested(f"{CWD}/CLAUDE.md", "Project", text="  ")) == []


def test_claude_code_instructions_attachment_gives_each_project_file_it_loaded() -> None:
    files = [
        {"path": "/home/me/.claude/CLAUDE.md", "type": "User", "content": "Answer in French."},
        {"path": f"{CWD}/CLAUDE.md", "type": "Project", "content": "Run `make check` first.\n"},
        {"path": f"{CWD}/CLAUDE.local.md", "type": "Local", "content": "Use port 8081."},
        {"path": f"{CWD}/api/CLAUDE.md", "type": "Project", "content": " "},
        "not a file",
    ]
    events = _attachment({"type": "instructions", "files": files, "reason": "compaction"})
    assert _loaded(events) == [
        ("CLAUDE.md", "Run `make check` first."),
        ("CLAUDE.local.md", "Use port 8081."),
    ]
    assert _attachment({"type": "instructions", "content": "CLAUDE.md text, no path"}) == []


def test_an_agents_md_block_the_user_pasted_is_what_they_typed_not_a_loaded_file() -> None:
    block = f"# AGENTS.md instructions for {CWD}\n\n<INSTRUCTIONS>\nRun `make`.\n</INSTRUCTIONS>"
    meta = {"id": "s1", "cwd": CWD, "cli_version": "0.154.0", "source": "cli"}
    lines = [{"timestamp": "2026-09-21T06:31:16Z", "type": "session_meta", "payload": meta}]
    lines += _typed(block) + _typed("now fix the totals")
    parser = CodexFileParser("rollout-x.jsonl")
    events = [e for line in lines for e in parser.feed(json.dumps(line).encode(), POSITION)]
    assert _loaded(events) == []
    assert parser.skipped["pasted_instructions"] == 1
    assert any("now fix the totals" in e.content.get("text", "") for e in events)


def test_a_held_agents_md_message_is_kept_across_a_cursor_and_given_by_the_next_record() -> None:
    block = f"# AGENTS.md instructions for {CWD}\n\n<INSTRUCTIONS>\nRun `make`.\n</INSTRUCTIONS>"
    meta = {"id": "s1", "cwd": CWD, "cli_version": "0.154.0", "source": "cli"}
    first = CodexFileParser("rollout-x.jsonl")
    for line in [
        {"timestamp": "2026-09-21T06:31:16Z", "type": "session_meta", "payload": meta},
        _typed(block)[0],  # the host's message, the last line written so far
    ]:
        assert first.feed(json.dumps(line).encode(), POSITION) == []
    state = json.loads(json.dumps(first.export_state()))
    later = CodexFileParser("rollout-x.jsonl")
    later.restore_state(state)
    events = later.feed(json.dumps(_typed("now fix the totals")[1]).encode(), POSITION)
    assert _loaded(events) == [("AGENTS.md", "Run `make`.")]
    assert "now fix the totals" in events[-1].content["text"]


def _instructions(*files: tuple[str, str, str]) -> dict[str, Any]:
    """Claude Code 2.1.2xx's listing of the instruction files loaded at the session's start."""
    return {
        "type": "instructions",
        "files": [{"path": p, "type": kind, "content": text} for p, kind, text in files],
    }


def test_claude_code_instructions_attachment_without_a_project_file_gives_nothing() -> None:
    assert _attachment(_instructions(("/etc/claude-code/CLAUDE.md", "Managed", "sandbox"))) == []
    assert _attachment(_instructions((f"{CWD}/AGENTS.md", "Project", "   "))) == []
    assert _attachment({"type": "instructions", "files": "AGENTS.md"}) == []
    assert _attachment({"type": "instructions", "files": [None, 3, {"type": "Project"}]}) == []


def test_odd_json_in_a_claude_code_memory_listing_is_skipped_and_its_length_bounded() -> None:
    odd = {"path": f"{CWD}/AGENTS.md", "type": ["Project"], "content": "- Run `make test`"}
    assert _attachment({"type": "instructions", "files": [odd]}) == []
    nested = {"type": "nested_memory", "path": f"{CWD}/AGENTS.md", "content": {**odd, "type": {}}}
    assert _attachment(nested) == []
    many = [(f"{CWD}/d{n}/CLAUDE.md", "Project", "- Run `make test`") for n in range(10_000)]
    assert len(_attachment(_instructions(*many))) == MAX_LISTED_FILES
