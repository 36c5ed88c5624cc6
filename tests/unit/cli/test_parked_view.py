"""Parked work is shown one line per reason, with the command that fixes it."""

from __future__ import annotations

from squirrel_cli.parked_view import parked_lines


def test_the_same_reason_is_counted_once_and_each_line_names_a_fix() -> None:
    letters = [
        ("model:codex_cli", "PermanentExtractionError: codex failed: Error: boom"),
        ("model:codex_cli", "PermanentExtractionError: codex failed: Error: boom"),
        ("model:gemini_cli", "RetryableExtractionError: `gemini` timed out after 120 s"),
        ("model:claude_cli", "PermanentExtractionError: `claude` was not found on PATH; install"),
    ]
    lines = parked_lines("/p", letters)
    assert lines == [
        "/p: 2 episodes parked for codex_cli (the rules' part is written): codex failed: "
        "Error: boom; fix: `sqrl doctor` checks the backend; `sqrl process` retries now",
        "/p: 1 episode parked for gemini_cli (the rules' part is written): `gemini` timed out "
        "after 120 s; fix: retried automatically with back-off; `sqrl process` retries now",
        "/p: 1 episode parked for claude_cli (the rules' part is written): `claude` was not "
        "found on PATH; install; fix: install it or `sqrl config set extractor.backend rules`, "
        "then `sqrl process`",
    ]
