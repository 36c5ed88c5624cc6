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


@pytest.mark.parametrize(
    "command",
    ["/init", "/review", "/security-review", "/compact", "/superpowers:brainstorm", "/user:kb"],
)
def test_the_assistant_tools_own_and_a_plugins_commands_are_not_the_projects(
    command: str,
) -> None:
    assert command_steps(_ran(command, STATUS).events) == []


def test_the_older_project_form_of_a_command_is_the_projects() -> None:
    (found,) = command_steps(_ran("/project:kb-status", STATUS).events)
    assert found.content.startswith("The command `/project:kb-status` (Status Check) runs")


@pytest.mark.parametrize(
    "expansion",
    [
        "# Deploy\n\nDeploy the app to staging and tell me when it is done.\n",
        "# Plan\n\n1. Read the code.\n",
        "# Steps\n\n2. Read the code.\n3. Write the plan.\n",
        "# Long\n\n1. " + "x " * 100 + "\n2. Then stop.\n",
        "# Cut\n\n1. Run `make\n2. Then stop.\n",
        "# Idea\n\nWrite the plan as:\n1. [Step 1 — what it produces]\n2. [Step 2 — builds on "
        "step 1]\n3. [Step 3 — etc.]\n",
        "# Release\n\n1. <first step>\n2. <second step>: the command\n",
        "# Fill in\n\n1. Run `make lint`.\n2. {your check}\n",
    ],
    ids=[
        "no-steps",
        "one-step",
        "not-from-one",
        "step-too-long",
        "cut-code-span",
        "bracketed-placeholders",
        "angle-placeholders",
        "one-braced-placeholder",
    ],
)
def test_a_prompt_without_a_clear_list_of_steps_says_nothing(expansion: str) -> None:
    assert command_steps(_ran("/deploy", expansion).events) == []


def test_a_step_that_starts_with_a_bracketed_tag_is_still_a_step() -> None:
    expansion = "# Ship\n\n1. [optional] Run `cargo fmt`.\n2. Run `cargo test`.\n"
    (found,) = command_steps(_ran("/ship", expansion).events)
    assert found.content == (
        "The command `/ship` (Ship) runs, in order: [optional] Run `cargo fmt`; run `cargo test`."
    )


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


CHECK_SKILL = """Style, document and check the package, then propose fixes.

## Steps

Run the following commands **in sequence**:

1. Format code:
```sh
fmt-tool format .
```

2. Regenerate documentation:
```sh
doc-tool build
```

3. Run the package check:
```sh
check-tool --strict
```

## Important rules

- Never modify a file without the user's approval.
"""


def _launched(skill: str, text: str, *, failed: bool = False, loaded: bool = True) -> Stream:
    stream = Stream()
    stream.user("lint the package")
    call = {"tool": "Skill", "tool_use_id": "s1", "input": {"skill": skill}}
    stream.add("tool_call", call, origin="assistant")
    output = "Unknown skill" if failed else f"Launching skill: {skill}"
    result = {"tool": "Skill", "tool_use_id": "s1", "output": output, "is_error": failed}
    stream.add("tool_result", result, origin="tool_result")
    if loaded:
        stream.add("user_message", {"text": text}, origin="harness")
    stream.run("fmt-tool format .")
    return stream


def test_a_skill_the_assistant_launched_gives_its_steps_with_their_commands() -> None:
    (found,) = command_steps(_launched("pkg-check", CHECK_SKILL).events)
    assert found.content == (
        "The skill `pkg-check` runs, in order: format code: `fmt-tool format .`; regenerate "
        "documentation: `doc-tool build`; run the package check: `check-tool --strict`."
    )
    assert found.key == "command:pkg-check"


def test_a_slash_command_and_the_same_skill_meet_on_one_key() -> None:
    (ran,) = command_steps(_ran("/pkg-check", CHECK_SKILL).events)
    (launched,) = command_steps(_launched("pkg-check", CHECK_SKILL).events)
    assert ran.key == launched.key
    assert ran.content.startswith("The command `/pkg-check` runs, in order: format code: `fmt")
    # the skill's steps are marked as a skill's: no session opens with them
    assert launched.skill and not ran.skill


@pytest.mark.parametrize(
    ("skill", "failed", "loaded"),
    [
        ("plugin:pkg-check", False, True),
        ("pkg-check", True, True),
        ("pkg-check", False, False),
    ],
    ids=["plugin-namespaced", "launch-failed", "text-not-loaded"],
)
def test_a_plugins_skill_or_one_not_loaded_says_nothing(
    skill: str, *, failed: bool, loaded: bool
) -> None:
    stream = _launched(skill, CHECK_SKILL, failed=failed, loaded=loaded)
    assert command_steps(stream.events) == []


@pytest.mark.parametrize(
    "block",
    ["```sh\nfirst --step\nsecond --step\n```", "```sh\nfirst --step\n", "Then run it by hand."],
    ids=["two-lines", "unclosed", "no-block"],
)
def test_a_step_without_one_whole_command_is_stated_alone(block: str) -> None:
    text = f"# Check\n\n1. Format code:\n{block}\n\n2. Run the check.\n"
    (found,) = command_steps(_ran("/check", text).events)
    assert (
        found.content == "The command `/check` (Check) runs, in order: format code; run the check."
    )


GATES = """# Ship It

## Purpose
- Quality checks before a commit

## What Happens
- Formatting: `cargo fmt --all` (applied automatically)
- Zero warnings: `cargo clippy --all-features -- -D warnings`
- Never run `cargo update` here
- 100% passing: `cargo test --all`
- Then `git push`

## Failure Handling

If anything fails:
1. **Identifies** the issue type
2. **Delegates** to a helper
3. **Re-validates** everything
"""


def test_a_numbered_list_under_a_failure_heading_is_not_the_commands_steps() -> None:
    text = "# Release\n\n## Error handling\n1. Read the log\n2. Retry the step\n"
    assert command_steps(_ran("/release", text).events) == []


def test_a_failure_heading_inside_a_code_block_ends_no_section() -> None:
    text = "# Release\n\n```bash\n# if it fails\n```\n1. Build the wheel\n2. Upload it\n"
    (found,) = command_steps(_ran("/release", text).events)
    assert (
        found.content
        == "The command `/release` (Release) runs, in order: build the wheel; upload it."
    )


def test_a_text_without_steps_gives_the_commands_its_items_name_for_a_known_purpose() -> None:
    (found,) = command_steps(_ran("/ship", GATES).events)
    assert found.content == (
        "The command `/ship` (Ship It) runs: `cargo fmt --all` (format); "
        "`cargo clippy --all-features -- -D warnings` (lint); `cargo test --all` (tests)."
    )
    assert "Identifies" not in found.content and "cargo update" not in found.content


def test_one_known_command_or_commands_only_in_prose_or_code_blocks_give_nothing() -> None:
    one = "# Check\n\n- Tests: `pytest -q`\n- Then `git push`\n"
    prose = "# Check\n\nRun `pytest -q` and then `ruff check .` before you push.\n"
    block = "# Check\n\n```\n- `pytest -q`\n- `ruff check .`\n```\n"
    failing = "# Check\n\n## When tests fail\n- `pytest -q --lf`\n- `ruff check .`\n"
    for text in (one, prose, block, failing):
        assert command_steps(_ran("/check", text).events) == [], text
