"""Who said it: every user-role record of Claude Code, Codex and Gemini gets its origin once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import ClaudeFileParser, line_parser_for, parse_bytes
from squirrel_ingest.parsers.speaker import Utterance, answers, split_user_text
from tests.one_pass import finishes

FIXTURES = Path(__file__).parents[2] / "fixtures"
CLAUDE = FIXTURES / "claude" / "speakers"
CLAUDE_MAIN = CLAUDE / "5d1e0a52-8c1b-4f7e-9a43-2b6f0c9d7e11.jsonl"
CLAUDE_SUB = CLAUDE / "5d1e0a52-8c1b-4f7e-9a43-2b6f0c9d7e11" / "subagents"
CODEX = FIXTURES / "codex" / "speakers"
GEMINI = FIXTURES / "gemini" / "speakers" / "tmp" / "shop" / "chats"


def _said(path: Path) -> list[tuple[Origin | None, str]]:
    """(origin, start of text) of every event not written by the assistant or git."""
    parser = line_parser_for(str(path)) or ClaudeFileParser(str(path))
    events = parse_bytes(parser, path.read_bytes(), str(path)).events
    return [
        (e.origin, _text(e)[:40])
        for e in events
        if e.origin not in (Origin.ASSISTANT, Origin.GIT, Origin.TOOL_RESULT)
    ]


def _text(event: Event) -> str:
    for key in ("text", "output", "command"):
        value = event.content.get(key)
        if isinstance(value, str):
            return value
    return ""


def test_claude_user_records_each_get_their_speaker() -> None:
    assert _said(CLAUDE_MAIN) == [
        (Origin.HARNESS, "Caveat: The messages below were generate"),
        (Origin.SLASH_COMMAND, "/clear"),
        (Origin.TYPED, "add a health check endpoint"),
        (Origin.HARNESS, "<system-reminder>\nAs you answer the user"),
        (Origin.TYPED, "the build fails on CI, can you look?"),
        (Origin.HOOK, "lint-staged: eslint found 2 problems"),
        (Origin.ANSWER, "Always use pnpm in this repository."),
        (Origin.QUEUED, "always run the linter before committing"),
        (Origin.QUEUED, "from now on, never push directly to main"),
        (Origin.SLASH_COMMAND, "always check error handling first"),
        (Origin.HARNESS, "Review the pending changes. Always repor"),
        (Origin.HARNESS, "[Request interrupted by user]"),
        (Origin.HOOK, "check-todos: 3 TODO items left in src/ap"),
        (Origin.COMPACTION, "This session is being continued from a p"),
        (Origin.TYPED, "thanks, please also add a test for the e"),
    ]


def test_claude_subagent_prompts_are_the_parent_agents_and_its_work_is_the_sessions() -> None:
    agent = CLAUDE_SUB / "agent-a4ca7529859c158c2.jsonl"
    parser = ClaudeFileParser(str(agent))
    events = parse_bytes(parser, agent.read_bytes(), str(agent)).events
    assert [(e.event_type, e.origin) for e in events] == [
        (EventType.USER_MESSAGE, Origin.PARENT_AGENT),
        (EventType.TOOL_CALL, Origin.ASSISTANT),
        (EventType.TOOL_RESULT, Origin.TOOL_RESULT),
        (EventType.COMMAND_RUN, Origin.ASSISTANT),
        (EventType.ASSISTANT_RESPONSE, Origin.ASSISTANT),
    ]
    assert {(e.session_id, e.sidechain, e.agent_id) for e in events} == {
        ("5d1e0a52-8c1b-4f7e-9a43-2b6f0c9d7e11", True, "a4ca7529859c158c2")
    }


def test_claude_compaction_agent_writes_a_summary_not_a_second_conversation() -> None:
    agent = CLAUDE_SUB / "agent-acompact-3f9a1c.jsonl"
    events = parse_bytes(ClaudeFileParser(str(agent)), agent.read_bytes(), str(agent)).events
    assert [(e.event_type, e.origin) for e in events] == [
        (EventType.USER_MESSAGE, Origin.PARENT_AGENT),
        (EventType.ASSISTANT_RESPONSE, Origin.COMPACTION),
    ]


def test_codex_injected_context_typed_words_subagent_prompt_and_compaction() -> None:
    main, child = sorted(CODEX.glob("rollout-*.jsonl"))
    assert _said(main) == [
        (Origin.HARNESS, "Always run `make check` before you finis"),  # the AGENTS.md it loaded
        (Origin.HARNESS, "<environment_context>\n  <cwd>/Users/Samp"),
        (Origin.TYPED, "Always use type hints in new Python code"),
        (Origin.COMPACTION, "Summary: the user asked to always use ty"),
        (Origin.TYPED, "now update the README"),
    ]
    assert _said(child) == [(Origin.PARENT_AGENT, "Always prefer dataclasses over dicts. Re")]
    parser = line_parser_for(str(child))
    assert parser is not None
    events = parse_bytes(parser, child.read_bytes(), str(child)).events
    # the subagent's commands count as the parent session's work
    assert {e.session_id for e in events} == {"019e1625-789d-76c0-80ab-3724b5ddb799"}
    assert all(e.sidechain and e.agent_id == "reviewer" for e in events)


def test_gemini_typed_words_and_subagent_prompt() -> None:
    main = GEMINI / "session-2026-04-29T21-39-8f2c1d3e.jsonl"
    child = (
        GEMINI
        / "8f2c1d3e-5b6a-4c7d-9e8f-0a1b2c3d4e5f"
        / "c71e9a20-4d3b-4e5f-8a6b-7c8d9e0f1a2b.jsonl"
    )
    assert _said(main) == [(Origin.TYPED, "Never commit generated files. Add a CHAN")]
    assert _said(child) == [(Origin.PARENT_AGENT, "Always keep CHANGELOG entries under 80 c")]


# --- splitting one user text -----------------------------------------------------------------


def test_a_reminder_first_never_hides_the_words_typed_after_it() -> None:
    text = "<system-reminder>Always use tabs.</system-reminder>\nplease fix the login bug"
    assert split_user_text(text) == [
        Utterance(Origin.HARNESS, "<system-reminder>Always use tabs.</system-reminder>"),
        Utterance(Origin.TYPED, "please fix the login bug"),
    ]


def test_slash_command_arguments_are_the_users_words() -> None:
    text = (
        "<command-message>review</command-message>\n<command-name>/review</command-name>\n"
        "<command-args>always check error handling first</command-args>"
    )
    (said,) = split_user_text(text)
    assert said == Utterance(Origin.SLASH_COMMAND, "always check error handling first", "/review")
    assert said.content() == {
        "text": "always check error handling first",
        "command": "/review",
        "args": "always check error handling first",
    }
    (bare,) = split_user_text("<command-name>/clear</command-name><command-args></command-args>")
    assert bare.content() == {"text": "/clear", "command": "/clear", "args": ""}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("   \n ", []),
        ("<system-reminder></system-reminder>", []),
        ("<system-reminder>never closed, always tabs", [Origin.HARNESS]),
        ("<ide_selection>x</ide_selection> why is this slow?", [Origin.HARNESS, Origin.TYPED]),
        ("<user-prompt-submit-hook>lint ok</user-prompt-submit-hook>", [Origin.HOOK]),
        # a SessionStart hook's output as older Claude Code hosts wrap it
        ("<session-start-hook>Git branch: main\n# CLAUDE.md</session-start-hook>", [Origin.HOOK]),
        (
            "<session-start-hook>Always use uv.</session-start-hook> fix it",
            [Origin.HOOK, Origin.TYPED],
        ),
        # a hook's output cut before its closing tag is still the hook's
        ("<session-start-hook>Session started at: 2025-08-13", [Origin.HOOK]),
        # not a hook's tag: a word before `-hook` is needed, and the markup is the user's text
        ("<-hook>x</-hook> hi", [Origin.TYPED]),
        ("This session is being continued from a previous conversation …", [Origin.COMPACTION]),
        ("<bash-input>npm test</bash-input>", [Origin.TYPED]),
        ("<SYSTEM-REMINDER>x</SYSTEM-REMINDER>ok", [Origin.HARNESS, Origin.TYPED]),
        ("<command-name>/x</command-name> and more", [Origin.HARNESS, Origin.SLASH_COMMAND]),
    ],
)
def test_odd_and_malformed_texts(text: str, expected: list[Origin]) -> None:
    assert [u.origin for u in split_user_text(text)] == expected


def test_a_hostile_huge_text_is_split_in_one_pass() -> None:
    probe = (
        "from squirrel_ingest.parsers.speaker import split_user_text\n"
        "text = '<system-reminder>' * 200_000 + 'typed' + '<ide_x>' * 100_000\n"
        "print(' '.join(u.origin for u in split_user_text(text)))\n"
    )
    assert finishes(probe).split() == [Origin.HARNESS]


def test_answers_come_from_the_structured_result_or_the_result_text() -> None:
    structured = {"questions": [], "answers": {"Which?": "pnpm", "Where?": "  "}}
    assert answers(structured, "") == [("Which?", "pnpm")]
    text = 'User has answered your questions: "A?"="yes", "B \\"q\\"?"="no". You can now continue'
    assert answers(None, text) == [("A?", "yes"), ('B \\"q\\"?', "no")]
    assert answers({"answers": "odd"}, "nothing here") == []


# --- records that only make sense in order ---------------------------------------------------


def _record(kind: str, **fields: object) -> bytes:
    base: dict[str, object] = {
        "type": kind,
        "sessionId": "s1",
        "timestamp": "2026-01-08T21:05:48.469Z",
    }
    base.update(fields)
    return json.dumps(base).encode()


def _feed(parser: ClaudeFileParser, *lines: bytes) -> list[Event]:
    events: list[Event] = []
    for n, line in enumerate(lines):
        events.extend(parser.feed(line, SourcePosition("/p/projects/-x/s1.jsonl", 1, n)))
    return events


def test_a_queued_prompt_survives_a_cursor_restart() -> None:
    first = ClaudeFileParser("/p/projects/-x/s1.jsonl")
    user = {"role": "user", "content": "go"}
    assert [e.origin for e in _feed(first, _record("user", uuid="u1", cwd="/r", message=user))] == [
        Origin.TYPED
    ]
    assert (
        _feed(first, _record("queue-operation", operation="enqueue", content="always lint")) == []
    )
    state = json.loads(json.dumps(first.export_state()))
    second = ClaudeFileParser("/p/projects/-x/s1.jsonl")
    second.restore_state(state)
    (event,) = _feed(second, _record("queue-operation", operation="remove"))
    assert (event.origin, event.content["text"], event.cwd) == (Origin.QUEUED, "always lint", "/r")


def test_a_dequeued_or_recalled_prompt_is_not_counted_twice() -> None:
    parser = ClaudeFileParser("/p/projects/-x/s1.jsonl")
    events = _feed(
        parser,
        _record("queue-operation", operation="enqueue", content="fix it"),
        _record("queue-operation", operation="dequeue"),
        _record("user", uuid="u1", cwd="/r", message={"role": "user", "content": "fix it"}),
        _record("queue-operation", operation="enqueue", content="draft"),
        _record("queue-operation", operation="popAll"),
        _record("queue-operation", operation="remove"),
        _record("queue-operation", operation="remove"),
    )
    assert [(e.origin, e.content["text"]) for e in events] == [(Origin.TYPED, "fix it")]


def test_queued_text_from_another_session_or_a_task_is_not_the_users() -> None:
    parser = ClaudeFileParser("/p/projects/-x/s1.jsonl")
    peer = {"type": "queued_command", "prompt": "always X", "origin": {"kind": "peer"}}
    task = {"type": "queued_command", "prompt": "<task-notification/>", "commandMode": "task"}
    events = _feed(
        parser,
        _record("attachment", uuid="a1", cwd="/r", attachment=peer),
        _record("attachment", uuid="a2", cwd="/r", attachment=task),
    )
    assert [e.origin for e in events] == [Origin.HARNESS, Origin.HARNESS]


@pytest.mark.parametrize(
    "line",
    [
        _record("queue-operation", operation=7, content={"x": 1}),
        _record("queue-operation"),
        _record("attachment", uuid="a", attachment="hook_success"),
        _record("attachment", uuid="b", attachment={"type": 3}),
        _record("attachment", uuid="c", attachment={"type": "hook_blocking_error", "stderr": 5}),
        _record("attachment", uuid="d", attachment={"type": "queued_command", "prompt": None}),
        _record("system", uuid="e", subtype="stop_hook_summary", hookErrors="boom"),
        _record("system", uuid="f", subtype="stop_hook_summary", hookErrors=[{"x": 1}, 3]),
        _record("user", uuid="g", isMeta=True, message={"role": "user", "content": [7, None]}),
    ],
)
def test_malformed_side_records_are_counted_not_raised(line: bytes) -> None:
    parser = ClaudeFileParser("/p/projects/-x/s1.jsonl")
    events = _feed(parser, line)
    assert parser.skipped["internal_error"] == 0
    assert all(e.origin in (Origin.HOOK, Origin.HARNESS) for e in events)


def test_the_gemini_cli_session_context_is_the_hosts_not_the_users() -> None:
    """Gemini CLI 0.61 writes its set-up text as the session's first user message."""
    opening = (
        "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat."
        "\n</session_context>"
    )
    assert [u.origin for u in split_user_text(opening)] == [Origin.HARNESS]
    mixed = split_user_text(f"{opening}\nRun the tests")
    assert [(u.origin, u.text) for u in mixed][-1] == (Origin.TYPED, "Run the tests")


def test_the_gemini_cli_hook_context_is_the_hooks_not_the_users() -> None:
    """Gemini CLI 0.61 puts its hooks' context before the prompt, in `<hook_context>`."""
    said = split_user_text(
        "<hook_context>Squirrel memory: notes remembered earlier.\n\n📏 ~82 tokens"
        "</hook_context>\n\nRun the tests again, this time with coverage"
    )
    assert [(u.origin, u.text[:15]) for u in said] == [
        (Origin.HOOK, "<hook_context>S"),
        (Origin.TYPED, "Run the tests a"),
    ]


def test_the_codex_ide_context_is_the_hosts_and_the_request_under_it_the_users() -> None:
    text = (
        "# Context from my IDE setup:\n\n## Active file: src/app.ts\n\n## Open tabs:\n"
        "- app.ts: src/app.ts\n\n## My request for Codex:\nplease don't add new dependencies"
    )
    assert split_user_text(text) == [
        Utterance(
            Origin.HARNESS,
            "# Context from my IDE setup:\n\n## Active file: src/app.ts\n\n## Open tabs:\n"
            "- app.ts: src/app.ts",
        ),
        Utterance(Origin.TYPED, "please don't add new dependencies"),
    ]
    (mentioned, typed) = split_user_text(
        "# Files mentioned by the user:\n\n## notes.vtt: /home/u/notes.vtt\n\n"
        "## My request for Codex:\nsummarize the action items"
    )
    assert (mentioned.origin, typed) == (
        Origin.HARNESS,
        Utterance(Origin.TYPED, "summarize the action items"),
    )


@pytest.mark.parametrize(
    "text",
    [
        # a user's own markdown that merely has the heading, without the IDE's context first
        "## My request for Codex:\nkeep it short",
        # the IDE's opening with no request heading: nothing to cut at, the text stays whole
        "# Files mentioned by the user: none, just use the README",
    ],
)
def test_text_without_the_whole_ide_wrapper_stays_the_users(text: str) -> None:
    assert split_user_text(text) == [Utterance(Origin.TYPED, text)]


def test_a_plan_handed_over_by_the_host_is_not_the_users_words() -> None:
    plan = "Implement the following plan:\n\n# Plan: fix errors\n\n1. **Always** → exit with 1"
    assert [u.origin for u in split_user_text(plan)] == [Origin.HARNESS]
    record = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s1",
        "timestamp": "2026-02-13T23:54:51.866Z",
        "cwd": "/w/app",
        "planContent": "# Plan: fix errors",
        "message": {"role": "user", "content": "Go on with the plan we agreed: always log"},
    }
    events = parse_bytes(
        ClaudeFileParser("/x/s1.jsonl"), (json.dumps(record) + "\n").encode(), "/x/s1.jsonl"
    ).events
    assert [e.origin for e in events] == [Origin.HARNESS]
    # the words "implement the following plan" typed inside a message stay the user's
    (typed,) = split_user_text("ok. Implement the following plan: the one in PLAN.md")
    assert typed.origin == Origin.TYPED


def test_a_real_codex_rollout_gives_the_rules_the_request_not_the_ide_context() -> None:
    rollout = (
        Path(__file__).parents[4]
        / "shared"
        / "fixtures"
        / "codex"
        / "codemie-code"
        / "rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"
    )
    if not rollout.exists():
        pytest.skip(f"no shared fixture at {rollout}")
    said = _said(rollout)
    typed = [text for origin, text in said if origin == Origin.TYPED]
    assert typed[0].startswith("analyze trascript and summarzie")
    assert not any("Files mentioned" in text for text in typed)
    assert any(o == Origin.HARNESS and t.startswith("# Files mentioned") for o, t in said)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the lines the host sends on its own to keep a turn going
        (
            "Continue if you have next steps, or stop and ask for clarification if you are "
            "unsure how to proceed.",
            [Origin.HARNESS],
        ),
        ("Summarize the task tool output above and continue with your task.", [Origin.HARNESS]),
        ("summarize the task tool output above and continue with your task", [Origin.HARNESS]),
        # the user's own words that say something like them, or more than the line
        ("Continue if you have next steps.", [Origin.TYPED]),
        ("stop and ask for clarification if you are unsure, always", [Origin.TYPED]),
        (
            "Summarize the task tool output above and continue with your task. Also use pnpm.",
            [Origin.TYPED],
        ),
    ],
)
def test_a_hosts_own_continuation_line_is_the_hosts(text: str, expected: list[Origin]) -> None:
    assert [u.origin for u in split_user_text(text)] == expected
