"""A task runner's list of the project's tasks, seen in a pasted log or a command's output,
becomes one fact; short lists, prose and other listings say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.listed_tasks import listed_in, listed_tasks
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/sim"
T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)

PASTED = """[134/140] Compiling C++ object client/main.cpp.obj
ninja: build stopped: subcommand failed.
Available tasks:
    build-sim
    setup-sim
    docs
Error: Process completed with exit code 127.
Using pre-installed pixi at C:\\tools\\pixi.EXE
"""


def test_a_pasted_ci_logs_task_list_is_one_fact_with_its_runner() -> None:
    session = Session(ROOT, "s1", T0)
    session.user(f"fix it\n\n{PASTED}")

    (found,) = listed_tasks(session.events)

    assert found.key == "tasks:listed:pixi"
    assert found.content == (
        "The project's pixi tasks (as pixi listed them): `build-sim`, `setup-sim`, `docs`."
    )


@pytest.mark.parametrize(
    ("output", "runner", "names"),
    [
        ("Available recipes:\n    lint  # run the linters\n    test\n", "just", ["lint", "test"]),
        (
            "task: Available tasks for this project:\n* build:  Build it\n* deploy: Ship it\n",
            "task",
            ["build", "deploy"],
        ),
        (
            "$ deno task\nAvailable tasks:\n- dev\n    deno run main.ts\n- fmt\n",
            "deno",
            ["dev", "fmt"],
        ),
        ("Available tasks:\n  seed\n  migrate\n", "", ["seed", "migrate"]),
    ],
)
def test_each_runners_list_is_read(output: str, runner: str, names: list[str]) -> None:
    found = listed_in(output)

    assert found[0][0] == runner
    assert found[0][1] == names


def test_a_command_output_gives_it_too_and_the_unknown_runner_is_said_plainly() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("./run.sh help", 0, "Available tasks:\n  seed\n  migrate\n")

    (found,) = listed_tasks(session.events)

    assert (
        found.content == "The project's tasks (as its task runner listed them): `seed`, `migrate`."
    )


@pytest.mark.parametrize(
    "text",
    [
        "Available tasks:\n    only-one\nError: nothing\n",  # one name is no list
        "Available tasks:\nbuild\ntest\n",  # not indented: not a listing
        "The available tasks: build and test.\n",  # prose
        "Available tasks:\n    build the docs first, then\n    run the tests\n",  # sentences
        "Available services:\n    db\n    cache\n",  # another listing
    ],
)
def test_no_fact_without_a_runners_task_list(text: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.user(text)

    assert listed_tasks(session.events) == []


LIST = "Available tasks:\n    seed\n    migrate\n"


@pytest.mark.parametrize(
    ("where", "kept"),
    [
        ("user", True),
        ("command", True),
        ("parent agent", False),
        ("notification", False),
        ("subagent report", False),
        ("command elsewhere", False),
        ("read elsewhere", False),
        ("web page", False),
    ],
)
def test_only_the_users_words_and_output_seen_in_the_project_give_the_tasks(
    where: str, kept: bool
) -> None:
    session = Session(ROOT, "s1", T0)
    if where == "user":
        session.user(f"it says\n{LIST}")
    elif where == "command":
        session.run("pixi task list", 0, LIST)
    elif where == "parent agent":
        session.add("user_message", {"text": f"Run these:\n{LIST}"}, origin="parent_agent")
    elif where == "notification":
        note = f"<task-notification><result>{LIST}</result></task-notification>"
        session.add("user_message", {"text": note}, origin="harness")
    elif where == "subagent report":
        report = {"tool": "Agent", "tool_use_id": "ta", "output": LIST, "is_error": False}
        session.add("tool_result", report)
    elif where == "command elsewhere":
        session.run("cd ../other-repo && pixi task list", 0, LIST)
        session.add("tool_result", {"tool": "Bash", "tool_use_id": "t0", "output": LIST})
    elif where == "read elsewhere":
        path = "/home/dev/other-repo/tasks.log"
        session.add("tool_result", {"tool": "Read", "output": LIST}, (path,))
    else:
        session.add("tool_result", {"tool": "WebFetch", "output": LIST})

    assert bool(listed_tasks(session.events)) is kept


RECIPES = "Available recipes:\n    build\n    test  # run the suite\n"


def test_a_command_the_user_typed_gives_the_tasks_its_output_listed() -> None:
    session = Session(ROOT, "s1", T0)
    session.typed("just --list", RECIPES)

    (found,) = listed_tasks(session.events)

    assert found.content == "The project's just tasks (as just listed them): `build`, `test`."
    assert found.event_ids == (session.events[-1].id,)


@pytest.mark.parametrize(
    "command", ["cd ../other-repo && just --list", "cd /srv/other; just --list", "pushd ~/x"]
)
def test_a_typed_command_run_in_another_folder_gives_no_tasks(command: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.typed(command, RECIPES)

    assert listed_tasks(session.events) == []


def test_an_echoed_output_without_its_typed_command_gives_no_tasks() -> None:
    session = Session(ROOT, "s1", T0)
    session.typed("just --list", "")
    session.add("user_message", {"text": f"<bash-stdout>{RECIPES}</bash-stdout>"}, origin="harness")

    assert listed_tasks(session.events) == []
