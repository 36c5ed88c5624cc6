"""A small made-up answer key for the answer-key judge and replay tests: a Rust project whose
tests and lint are its two high-importance recipes, plus what each test file adds."""

from __future__ import annotations

import tomllib

from bench.answer_key_gold import AnswerKey, parse_key

RECIPES = r"""
[[item]]
id = "test"
importance = "high"
kind = "recipe"
note = "Run the tests with `cargo test`."
match = [['cargo test', 'cargo nextest']]

[[item]]
id = "lint"
importance = "high"
kind = "recipe"
note = "Lint with `cargo clippy -- -D warnings`."
match = [['clippy'], ['-D warnings', 'deny']]
"""


def key_toml(split: str, session_start: list[str], more: str) -> str:
    """The text of the demo key: its `split`, the items the session-start text must state, the
    two recipes, then `more` (further items, wrong facts, questions)."""
    head = f'project = "demo"\nlanguage = "Rust"\nsplit = "{split}"\n'
    return f"{head}session_start = {session_start!r}\n{RECIPES}{more}"


def demo_key(text: str) -> AnswerKey:
    """The key `text` (written by `key_toml`) as the judge reads it."""
    return parse_key(tomllib.loads(text), "demo.toml")
