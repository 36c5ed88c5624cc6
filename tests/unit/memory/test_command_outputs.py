"""Where a custom command puts what it produces: the slotted path its prompt names, kept when
the session's run of it wrote a file there; every kind of project alike, with the runs that
must say nothing."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.command_outputs import command_outputs
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import PROJECT, Stream, by_key, extract

PLAN = """You are turning "{args}" into a structured plan document.

## PHASE 1 — INTERROGATE THE IDEA
Ask clarifying questions one at a time.

## PHASE 2 — PRODUCE THE PLAN DOCUMENT
Save to `{template}` where slug is a short dash-case name derived from the idea.
"""

#: (command, the path its prompt gives, the file a run wrote)
CASES = [
    ("/idea", ".claude/plans/[slug].md", ".claude/plans/weapons-hud-combat.md"),
    ("/adr", "docs/adr/NNNN-<title>.md", "docs/adr/0007-use-sqlite.md"),
    ("/spec", "specs/{feature}.yaml", "specs/invoice-export.yaml"),
]


def _ran(command: str, template: str, *, origin: str = "slash_command") -> Stream:
    stream = Stream()
    stream.add("user_message", {"text": command, "command": command, "args": "x"}, origin=origin)
    stream.add("user_message", {"text": PLAN.format(args="x", template=template)}, origin="harness")
    stream.say("Let me read the code first.")
    stream.run("find src -type f | head -30", 0, "src/main.rs\nsrc/lib.rs\n")
    stream.say("One question: should the export include drafts?")
    stream.user("yes")
    return stream


@pytest.mark.parametrize(("command", "template", "wrote"), CASES, ids=["plan", "adr", "spec"])
async def test_a_commands_slotted_path_is_kept_when_its_run_wrote_there(
    command: str, template: str, wrote: str
) -> None:
    stream = _ran(command, template)
    stream.write(f"{PROJECT}/{wrote}", "# Plan\n")
    stream.say(f"Saved to `{wrote}`.")

    found = by_key(await extract(stream))[f"command_output:{command.lstrip('/')}"]

    assert found.type == MemoryType.RECIPE
    assert found.content == (
        f"The command `{command}` saves what it produces as `{template}` (a run wrote `{wrote}`)."
    )


@pytest.mark.parametrize(
    ("template", "wrote"),
    [
        (".claude/plans/[slug].md", "notes/weapons-hud-combat.md"),  # another folder
        (".claude/plans/[slug].md", ".claude/plans/sub/weapons.md"),  # a folder below it
        (".claude/plans/[slug].md", ".claude/plans/weapons.txt"),  # another suffix
        ("docs/adr/0001-use-sqlite.md", "docs/adr/0007-use-sqlite.md"),  # no slot: an example
        ("~/notes/[slug].md", "notes/weapons.md"),  # not the project's
        ("../shared/[slug].md", "shared/weapons.md"),
    ],
)
def test_a_run_that_did_not_write_where_the_prompt_says_says_nothing(
    template: str, wrote: str
) -> None:
    stream = _ran("/idea", template)
    stream.write(f"{PROJECT}/{wrote}", "# Plan\n")

    assert command_outputs(stream.events) == []


def test_a_run_that_wrote_nothing_says_nothing() -> None:
    stream = _ran("/idea", ".claude/plans/[slug].md")
    stream.say("Here is the plan: …")

    assert command_outputs(stream.events) == []


def test_a_write_after_the_next_command_is_not_this_commands() -> None:
    stream = _ran("/idea", ".claude/plans/[slug].md")
    stream.add("user_message", {"text": "/develop", "command": "/develop"}, origin="slash_command")
    stream.write(f"{PROJECT}/.claude/plans/weapons.md", "# Plan\n")

    assert command_outputs(stream.events) == []


@pytest.mark.parametrize("command", ["/init", "/review", "/superpowers:write-plan"])
def test_the_hosts_own_and_a_plugins_commands_say_nothing(command: str) -> None:
    stream = _ran(command, ".claude/plans/[slug].md")
    stream.write(f"{PROJECT}/.claude/plans/weapons.md", "# Plan\n")

    assert command_outputs(stream.events) == []


def test_the_same_text_typed_by_the_user_is_no_command() -> None:
    stream = _ran("/idea", ".claude/plans/[slug].md", origin="typed")
    stream.write(f"{PROJECT}/.claude/plans/weapons.md", "# Plan\n")

    assert command_outputs(stream.events) == []
