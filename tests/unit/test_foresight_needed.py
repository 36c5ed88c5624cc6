"""The foresight replay's list of what a session needed and no answer gave it."""

from __future__ import annotations

from bench.foresight_needed import Held, given_otherwise, needed
from squirrel_gateway.hook_context import Served
from tests.unit.test_foresight_score import ROOT, Session

TESTS = Held("m1", "recipe", "recipe:test", "To run the tests: `uv run pytest`.")
LINT = Held("m2", "recipe", "recipe:lint", "To lint: `ruff check .`.")
MODULE = Held("m3", "project_fact", "module:billing", "Module `billing`: invoices (`app/bill.py`).")


def worked() -> Session:
    return Session("s2").run(1, "uv run pytest -q").edit(2, "app/bill.py")


def test_a_memory_the_session_used_and_no_answer_gave_is_needed() -> None:
    assert needed([TESTS, LINT, MODULE], worked().facts(), [], ROOT) == [TESTS, MODULE]


def test_a_memory_given_by_id_or_by_its_text_is_not_needed() -> None:
    by_id = Served("recipe", "recipe:test", "m1", "To run the tests: `uv run pytest`.")
    # a brief's line carries no id: its text says it
    by_text = Served("project_fact", "", "", "Module `billing`: invoices (`app/bill.py`).")
    assert needed([TESTS, LINT, MODULE], worked().facts(), [by_id, by_text], ROOT) == []


def test_what_the_session_never_ran_nor_opened_is_not_needed() -> None:
    # trap: a failed test run and a file only named in a message use nothing
    failed = Session("s3").run(1, "uv run pytest", 1, "FAILED tests/test_a.py").say(2, "bill.py?")
    assert needed([TESTS, LINT, MODULE], failed.facts(), [], ROOT) == []


def test_a_module_whose_text_names_no_file_is_needed_by_its_files() -> None:
    """Trap: its text is what the module says of itself; the files it holds say where."""
    said = Held("m4", "project_fact", "module:billing", "Module `billing`: invoices.")
    held = Held(said.memory_id, said.type, said.key, said.content, ("app/bill.py",))
    assert needed([said, held], worked().facts(), [], ROOT) == [held]


def test_a_needed_memory_whose_commands_a_served_item_gave_adds_nothing() -> None:
    """A CI recipe the session would have used through `uv run pytest`, which the start's test
    recipe had given: its use was given another way."""
    ci = Held("m5", "recipe", "recipe:ci", "CI runs the tests with `uv run pytest`.")
    served = [Served("recipe", "recipe:test", "m1", "To run the tests: `uv run pytest`.")]
    assert given_otherwise(ci, worked().facts(), served, ROOT) == ("uv run pytest",)
    # not given: no served item gave the command, or the memory also names a file touched
    assert given_otherwise(ci, worked().facts(), [], ROOT) == ()
    lint = [Served("recipe", "recipe:lint", "m2", "To lint: `ruff check .`.")]
    assert given_otherwise(ci, worked().facts(), lint, ROOT) == ()
    named = Held("m6", "recipe", "recipe:ci", "CI runs `uv run pytest` on `app/bill.py`.")
    assert given_otherwise(named, worked().facts(), served, ROOT) == ()
    module = Held("m7", "project_fact", "module:billing", "Module `billing`: `uv run pytest`.")
    held = Held(module.memory_id, module.type, module.key, module.content, ("app/bill.py",))
    assert given_otherwise(module, worked().facts(), served, ROOT) == ("uv run pytest",)
    assert given_otherwise(held, worked().facts(), served, ROOT) == ()


def test_a_search_of_the_project_root_is_no_file_a_needed_memory_names() -> None:
    """Trap: every text holds a "." — a session that searched `.` touched no file by it."""
    ci = Held("m5", "recipe", "recipe:ci", "CI runs the tests with `uv run pytest`.")
    served = [Served("recipe", "recipe:test", "m1", "To run the tests: `uv run pytest`.")]
    searched = Session("s4").run(1, "uv run pytest -q").edit(2, ".")
    assert given_otherwise(ci, searched.facts(), served, ROOT) == ("uv run pytest",)
