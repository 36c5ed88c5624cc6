"""A JSON task file's text as a session saw it cut short or among other output."""

from __future__ import annotations

import json

import pytest

from squirrel_memory.extractors.printed_tasks import (
    PrintedTasks,
    completed_json,
    printed_json_task,
    tasks_cut,
)
from tests.unit.memory.test_rules_extractor import PROJECT, Stream

CUT = """{
  "name": "trailhead",
  "scripts": {
    "check": "bun run lint && bun run test",
    "lint": "eslint ."
  },
  "devDependencies": {
    "eslint": "^9.6.0",
    "prettier": "^3.3.2","""


def _placed(raw: str, project_id: str) -> str | None:
    assert project_id == PROJECT
    return raw if "/" not in raw else None


def _printed(command: str, output: str, exit_code: int = 0) -> PrintedTasks | None:
    stream = Stream()
    stream.run(command, exit_code, output)
    return printed_json_task(stream.events[0], _placed)


def test_a_json_file_cut_after_its_scripts_is_completed_with_them() -> None:
    cut = completed_json(CUT)

    assert cut is not None
    assert not tasks_cut("package.json", cut)
    data = json.loads(cut.text)
    assert data["scripts"] == {"check": "bun run lint && bun run test", "lint": "eslint ."}
    assert data["devDependencies"] == {"eslint": "^9.6.0", "prettier": "^3.3.2"}
    assert cut.open_keys == {"devDependencies"}


def test_a_line_cut_in_its_middle_is_left_out() -> None:
    cut = completed_json('{\n  "name": "x",\n  "description": "a long line cut in the mid')

    assert cut is not None
    assert json.loads(cut.text) == {"name": "x"}


def test_a_task_table_the_cut_left_open_keeps_its_whole_entries_and_says_so() -> None:
    cut = completed_json('{\n  "name": "x",\n  "scripts": {\n    "test": "vitest run",\n    "li')

    assert cut is not None
    assert json.loads(cut.text) == {"name": "x", "scripts": {"test": "vitest run"}}
    assert tasks_cut("package.json", cut) and not tasks_cut("deno.json", cut)


@pytest.mark.parametrize(
    "text",
    [
        '{\n  "name": "x",\n<<<<<<< HEAD\n  "scripts": {\n    "test": "jest"\n  }\n}',
        "[1, 2,",
        "not json at all\nnor this",
    ],
)
def test_a_text_broken_before_the_cut_is_nothing(text: str) -> None:
    assert completed_json(text) is None


def test_a_manifest_printed_after_a_listing_and_cut_by_head_is_read() -> None:
    output = "README.md\nbun.lock\npackage.json\nsrc\n" + CUT

    shown = _printed("ls && cat package.json | head -10; ls rules", output + "\nrules:\na.js\n")

    assert shown is not None
    assert shown.path == "package.json" and not shown.cut
    assert json.loads(shown.text)["scripts"]["lint"] == "eslint ."


def test_a_head_cut_inside_the_scripts_keeps_the_lines_it_counts() -> None:
    output = "bun.lock\n" + CUT.split('    "lint"', maxsplit=1)[0] + "docs:\nrules\n"

    shown = _printed("ls && cat package.json | head -4 && ls docs", output)

    assert shown is not None and shown.cut
    assert json.loads(shown.text)["scripts"] == {"check": "bun run lint && bun run test"}


def test_a_manifest_printed_whole_among_other_output_is_read_to_its_end() -> None:
    output = 'src\n{\n  "name": "x",\n  "scripts": {"test": "jest"}\n}\nDone in 0.1s\n'

    shown = _printed("ls; cat package.json; echo done", output)

    assert shown is not None
    assert json.loads(shown.text) == {"name": "x", "scripts": {"test": "jest"}}


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # Another folder's manifest.
        ("cd ../sdk && cat package.json", '{\n  "scripts": {"test": "jest"}\n}\n'),
        # Two JSON files printed: which object is which is not known.
        ("cat package.json tsconfig.json", '{\n  "scripts": {"test": "jest"}\n}\n'),
        # A file not placed in the project.
        ("cat node_modules/x/package.json | head", '{\n  "scripts": {"test": "jest"}\n}\n'),
        # Two objects in the output.
        ("ls && cat package.json", '{\n  "a": 1\n}\n{\n  "b": 2\n}\n'),
        # Piped into a program that prints something else.
        ("cat package.json | jq .scripts", '{\n  "test": "jest"\n}\n'),
        # Not a task file.
        ("cat tsconfig.json", '{\n  "compilerOptions": {}\n}\n'),
        # A whole print whose JSON is broken.
        ("ls && cat package.json", '{\n  "name": "x",\n<<<<<<< HEAD\n  "scripts": {}\n}\n'),
    ],
)
def test_what_is_not_one_placed_json_task_file_says_nothing(command: str, output: str) -> None:
    assert _printed(command, output) is None
