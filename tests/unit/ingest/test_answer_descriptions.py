"""An answer to Claude Code's AskUserQuestion keeps what the chosen option means: the option's
`description` beside its `label` rides in the answer event; a typed answer has none."""

from __future__ import annotations

import json
from typing import Any

from squirrel_core.events import Event, Origin, SourcePosition
from squirrel_ingest.parsers import ClaudeFileParser

QUESTIONS: list[dict[str, Any]] = [
    {
        "question": "Which package manager should the build use?",
        "header": "Package manager",
        "options": [
            {"label": "npm", "description": "Keep npm and package-lock.json"},
            {"label": "pnpm", "description": "Switch to pnpm with a workspace file"},
        ],
        "multiSelect": False,
    },
    {
        "question": "Which checks gate a release?",
        "header": "Checks",
        "options": [
            {"label": "lint", "description": "The linter over the whole tree"},
            {"label": "test", "description": "The unit tests"},
            {"label": "e2e", "description": "The browser tests"},
        ],
        "multiSelect": True,
    },
    {
        "question": "Where do release notes go?",
        "header": "Notes",
        "options": [{"label": "CHANGELOG.md", "description": "One file at the root"}],
        "multiSelect": False,
    },
]


def _record(kind: str, n: int, **fields: object) -> bytes:
    base: dict[str, object] = {
        "type": kind,
        "sessionId": "s1",
        "uuid": f"00000000-0000-4000-8000-{n:012d}",
        "timestamp": f"2026-01-08T21:05:{n:02d}.000Z",
        "cwd": "/home/dev/site",
    }
    base.update(fields)
    return json.dumps(base).encode()


def _answer(answers: dict[str, str], questions: list[dict[str, Any]]) -> Event:
    parser = ClaudeFileParser("/p/projects/-home-dev-site/s1.jsonl")
    asked = {"type": "tool_use", "id": "toolu_1", "name": "AskUserQuestion"}
    asked["input"] = {"questions": questions}  # type: ignore[assignment]
    lines = [
        _record("assistant", 1, message={"role": "assistant", "content": [asked]}),
        _record(
            "user",
            2,
            message={
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "answered"}
                ],
            },
            toolUseResult={"questions": questions, "answers": answers},
        ),
    ]
    events: list[Event] = []
    for n, line in enumerate(lines):
        events.extend(parser.feed(line, SourcePosition("/p/projects/-x/s1.jsonl", 1, n)))
    (answer,) = [e for e in events if e.origin == Origin.ANSWER]
    return answer


def test_each_chosen_option_carries_its_description_beside_its_question() -> None:
    answer = _answer(
        {
            "Which package manager should the build use?": "pnpm",
            "Which checks gate a release?": "lint, test",
            "Where do release notes go?": "In the GitHub release only",
        },
        QUESTIONS,
    )

    assert answer.content["text"] == "pnpm\nlint, test\nIn the GitHub release only"
    assert answer.content["descriptions"] == [
        "Switch to pnpm with a workspace file",
        "The linter over the whole tree; The unit tests",
        "",  # typed by the user: no option's meaning
    ]


def test_a_typed_answer_or_options_without_descriptions_add_nothing() -> None:
    typed = _answer({"Which package manager should the build use?": "yarn, please"}, QUESTIONS)
    bare = [{"question": "Which runner?", "options": [{"label": "vitest"}, {"label": "jest"}]}]
    plain = _answer({"Which runner?": "vitest"}, bare)

    assert "descriptions" not in typed.content
    assert "descriptions" not in plain.content
    assert plain.content["text"] == "vitest"
