"""A check that kept its old output until one command ran becomes a pitfall naming that
command; a check re-run after an edit, after two commands, with only numbers changed, or with
no look-alike tried before does not."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.stale_checks import stale_checks
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/notes"
CHECK = "notes-cli --help"
OLD = "usage: notes-cli [-h] FILE\n"
NEW = "usage: notes-cli [-h] [--tag TAG] FILE\n"


def _session() -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Reinstall the tool and check the help."}, origin="typed")
    return session


def _stale(between: list[tuple[str, int]] | None = None, new: str = NEW) -> Session:
    session = _session()
    session.run("pip install .", 0, "Successfully installed notes-cli-1.0\n")
    session.run(CHECK, 0, OLD)
    for command, code in between or [("pip install --force-reinstall --no-cache-dir .", 0)]:
        session.run(command, code, "done\n")
    session.run(CHECK, 0, new)
    return session


def test_the_command_that_changed_a_stale_check_is_the_lesson() -> None:
    found = stale_checks(_stale().events)

    assert [f.content for f in found] == [
        "After `pip install .`, `notes-cli --help` still printed its old output; "
        "`pip install --force-reinstall --no-cache-dir .` changed it."
    ]
    assert len(found[0].event_ids) == 4


def test_the_rules_extractor_keeps_it_as_a_pitfall() -> None:
    kept = [c for c in _stale().extracted() if "stale" in c.tags]

    assert [c.type for c in kept] == [MemoryType.PITFALL]


def test_a_declined_call_in_between_never_ran() -> None:
    session = _session()
    session.run("pip install .", 0, "Successfully installed notes-cli-1.0\n")
    session.run(CHECK, 0, OLD)
    session.run(
        "rm -rf build",
        None,
        "The user doesn't want to proceed with this tool use. The tool use was rejected.",
    )
    session.run("pip install --force-reinstall --no-cache-dir .", 0, "done\n")
    session.run(CHECK, 0, NEW)

    assert len(stale_checks(session.events)) == 1


def test_two_commands_in_between_or_a_failed_one_say_nothing() -> None:
    assert (
        stale_checks(
            _stale(
                [("rm -rf build", 0), ("pip install --force-reinstall --no-cache-dir .", 0)]
            ).events
        )
        == []
    )
    assert (
        stale_checks(_stale([("pip install --force-reinstall --no-cache-dir .", 1)]).events) == []
    )


def test_an_edit_in_between_is_what_changed_it() -> None:
    session = _session()
    session.run("pip install .", 0, "Successfully installed notes-cli-1.0\n")
    session.run(CHECK, 0, OLD)
    session.edit_lines("cli.py", "FILE", "[--tag TAG] FILE")
    session.run("pip install --force-reinstall --no-cache-dir .", 0, "done\n")
    session.run(CHECK, 0, NEW)

    assert stale_checks(session.events) == []


def test_only_numbers_changed_is_no_difference() -> None:
    session = _stale(new="usage: notes-cli [-h] FILE\n")
    timed = _session()
    timed.run("pytest -x", 0, "3 passed in 0.41s\n")
    timed.run("pytest tests/test_cli.py", 0, "3 passed in 0.41s\n")
    timed.run("pytest --lf", 0, "ok\n")
    timed.run("pytest tests/test_cli.py", 0, "3 passed in 0.57s\n")

    assert stale_checks(session.events) == []
    assert stale_checks(timed.events) == []


def test_without_a_look_alike_tried_before_there_is_no_surprise() -> None:
    session = _session()
    session.run("git log --oneline -1", 0, "abc123 first\n")
    session.run("git status --short", 0, "")
    session.run("git add notes.md", 0, "")
    session.run("git status --short", 0, "A  notes.md\n")

    assert stale_checks(session.events) == []
