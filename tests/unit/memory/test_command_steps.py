"""What a custom slash command the user ran does, from the numbered steps of its prompt."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.command_steps import command_steps
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import Stream, by_key, extract

STATUS = """# Status Check

## Action
1.  Call `kb_status` to get the current phase.
2.  Count records in each layer by listing `.kb/L0/`, `L1/`.
3.  **Proactive check:** Call `kb_check_decay` to surface expired evidence.
4.  Report to user:
    -   Current Phase
"""


def _ran(command: str, expansion: str, *, expanded: bool = True) -> Stream:
    stream = Stream()
    stream.add(
        "user_message", {"text": command, "command": command, "args": ""}, origin="slash_command"
    )
    if expanded:
        stream.add("user_message", {"text": expansion}, origin="harness")
    else:
        stream.user(expansion)
    stream.say("Phase: IDLE.")
    return stream


def test_a_custom_commands_numbered_steps_are_its_workflow() -> None:
    (found,) = command_steps(_ran("/kb-status", STATUS).events)
    assert found.content == (
        "The command `/kb-status` (Status Check) runs, in order: call `kb_status` to get the "
        "current phase; count records in each layer by listing `.kb/L0/`, `L1/`; proactive "
        "check: Call `kb_check_decay` to surface expired evidence; report to user."
    )
    assert found.key == "command:kb-status"


@pytest.mark.parametrize("command", ["/init", "/review", "/security-review", "/compact"])
def test_the_assistant_tools_own_commands_are_not_the_projects(command: str) -> None:
    assert command_steps(_ran(command, STATUS).events) == []


@pytest.mark.parametrize(
    "expansion",
    [
        "# Deploy\n\nDeploy the app to staging and tell me when it is done.\n",
        "# Plan\n\n1. Read the code.\n",
        "# Steps\n\n2. Read the code.\n3. Write the plan.\n",
        "# Long\n\n1. " + "x " * 100 + "\n2. Then stop.\n",
        "# Cut\n\n1. Run `make\n2. Then stop.\n",
    ],
    ids=["no-steps", "one-step", "not-from-one", "step-too-long", "cut-code-span"],
)
def test_a_prompt_without_a_clear_list_of_steps_says_nothing(expansion: str) -> None:
    assert command_steps(_ran("/deploy", expansion).events) == []


def test_the_users_own_message_after_a_command_is_not_its_prompt() -> None:
    assert command_steps(_ran("/kb-status", STATUS, expanded=False).events) == []


def test_a_prompt_too_long_to_state_is_not_kept() -> None:
    steps = "".join(
        f"{n}. Follow the workflow file section {n} exactly as written here\n" for n in range(1, 7)
    )
    assert command_steps(_ran("/flow", f"# Flow\n\n{steps}").events) == []


async def test_the_rules_extractor_keeps_it_as_a_recipe() -> None:
    found = by_key(await extract(_ran("/kb-status", STATUS)))
    assert found["command:kb-status"].type is MemoryType.RECIPE
