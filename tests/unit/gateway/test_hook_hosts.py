"""Hook inputs of Claude Code, Codex and Gemini are read right; answers match each host's schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_gateway.hook_hosts import (
    EVENTS,
    MAX_CONTEXT_CHARS,
    Host,
    Moment,
    parse_input,
    render_output,
)

FIXTURES = Path(__file__).parents[2] / "fixtures" / "hooks"
INPUTS: dict[str, dict[str, dict[str, Any]]] = json.loads((FIXTURES / "inputs.json").read_text())
SCHEMAS: dict[str, dict[str, Any]] = json.loads((FIXTURES / "output-schemas.json").read_text())
CASES = [(host, event) for host, events in INPUTS.items() for event in events]


def recorded(host: str, event: str, **fill: str) -> dict[str, Any]:
    values = {"CWD": "/work/repo", "TRANSCRIPT": "/home/u/t.jsonl", "PROMPT": "add a test"}
    values.update(fill)
    return {
        k: values.get(v, v) if isinstance(v, str) else v for k, v in INPUTS[host][event].items()
    }


def test_every_answered_event_has_a_recorded_input() -> None:
    assert {(h.value, e) for h, events in EVENTS.items() for e in events} == set(CASES)


@pytest.mark.parametrize(("host", "event"), CASES)
def test_recorded_inputs_are_read(host: str, event: str) -> None:
    hook = parse_input(host, event, recorded(host, event))
    assert hook.host is Host(host)
    assert hook.cwd == "/work/repo"
    assert hook.session_id
    assert hook.transcript_path == "/home/u/t.jsonl"
    if hook.moment is Moment.PROMPT:
        assert hook.prompt == "add a test"


@pytest.mark.parametrize(("host", "event"), CASES)
def test_answers_validate_against_the_hosts_schema(host: str, event: str) -> None:
    hook = parse_input(host, event, recorded(host, event))
    out = render_output(hook, "## Memory\n- uses `pytest -x` ✓")
    if hook.moment in (Moment.SESSION_START, Moment.PROMPT):
        data = json.loads(out)
        jsonschema.validate(data, SCHEMAS[host])
        assert data["hookSpecificOutput"]["additionalContext"].endswith("✓")
    else:
        assert out == ""  # turn and session ends take no context


@pytest.mark.parametrize(("host", "event"), CASES)
def test_nothing_to_say_prints_nothing(host: str, event: str) -> None:
    assert render_output(parse_input(host, event, recorded(host, event)), "") == ""


def test_long_context_is_cut_below_the_hosts_preview_limit() -> None:
    hook = parse_input("claude", "SessionStart", recorded("claude", "SessionStart"))
    data = json.loads(render_output(hook, "x" * 50_000))
    assert len(data["hookSpecificOutput"]["additionalContext"]) <= MAX_CONTEXT_CHARS


@pytest.mark.parametrize(
    ("host", "event", "payload"),
    [
        ("cursor", "SessionStart", {}),
        ("claude", "BeforeAgent", {}),
        ("gemini", "UserPromptSubmit", {}),
        ("claude", "SessionStart", ["not", "an", "object"]),
        ("claude", "SessionStart", "text"),
    ],
)
def test_unknown_hosts_events_and_shapes_are_refused(host: str, event: str, payload: Any) -> None:
    with pytest.raises(InvalidArgumentError):
        parse_input(host, event, payload)


def test_missing_and_wrongly_typed_fields_read_as_empty() -> None:
    hook = parse_input("claude", "UserPromptSubmit", {"cwd": 7, "prompt": None, "extra": {"a": 1}})
    assert (hook.cwd, hook.prompt, hook.session_id) == ("", "", "")


@pytest.mark.parametrize(
    ("prompt", "typed"),
    [
        (
            "<hook_context>Squirrel memory: notes.\n### Known pitfalls\n- generated files are"
            " rewritten</hook_context>\n\nRun the tests again, this time with coverage\n"
            "<hook_context>## Relevant memory for this task\n- [recipe] x</hook_context>",
            "Run the tests again, this time with coverage",
        ),
        ("<HOOK_CONTEXT>x</HOOK_CONTEXT>add a test", "add a test"),
        (
            "Explain what <hook_context> means in the Gemini CLI",
            "Explain what <hook_context> means in the Gemini CLI",
        ),
        ("<hook_context>" + "y" * 20_000 + "</hook_context> add a test", "add a test"),
        ("add a test for the <context> parser", "add a test for the <context> parser"),
    ],
)
def test_a_prompt_is_the_users_words_without_the_hook_output_the_host_put_in_it(
    prompt: str, typed: str
) -> None:
    hook = parse_input("gemini", "BeforeAgent", recorded("gemini", "BeforeAgent", PROMPT=prompt))
    assert hook.prompt == typed
