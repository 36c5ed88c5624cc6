"""A command handed over for a role under a lead-in that names it ("Rebuild with:" above a
block) becomes a recipe, in any ecosystem, whoever handed it over (the assistant's reply, a
skill's body, a brief); output in a block, a lead-in that asks, announces, fails or is
negated, a command the session ran, a sub-agent's own reply, another repository and a role the
command's own words contradict do not."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from squirrel_memory.extractors.lead_in_commands import (
    KEY_PREFIX,
    blocks,
    lead_in_commands,
    without_restated,
)
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/feeds"
#: A Rust service: the reply hands the user a release build with a feature flag.
RUST_REPLY = (
    "Done: the parser now keeps the feed's own order.\n\n"
    "Rebuild with:\n```bash\ncargo build --release --features sqlite -p feeds-server\n```\n"
)
#: An Elixir app: a skill's body lists its checks under lead-ins.
ELIXIR_SKILL = (
    "Check the app before a pull request.\n\n"
    "1. Format the code:\n```\nmix format --check-formatted\n```\n"
    "2. Run the tests:\n```shell\nmix test --warnings-as-errors\n```\n"
)


def _said(text: str, *, origin: str = "", ran: str = "", sidechain: bool = False) -> list[str]:
    session = Session(ROOT, "s1", T0)
    session.user("Please make the parser keep the order.")
    if ran:
        session.run(ran, 0)
    if origin == "brief":
        session.add("tool_call", {"tool": "Task", "input": {"prompt": text}})
    elif origin:
        session.add("user_message", {"text": text}, origin=origin)
    else:
        session.add("assistant_response", {"text": text}, sidechain=sidechain)
    return [found.content for found in lead_in_commands(session.events)]


def test_a_rust_reply_gives_its_build_command_under_the_lead_in() -> None:
    assert _said(RUST_REPLY) == [
        "The assistant's reply gives the command to build: "
        "`cargo build --release --features sqlite -p feeds-server`."
    ]


def test_an_elixir_skill_gives_one_recipe_per_role() -> None:
    assert _said(ELIXIR_SKILL, origin="harness") == [
        "Instructions the agent was given give the command to format: "
        "`mix format --check-formatted`.",
        "Instructions the agent was given give the command to run the tests: "
        "`mix test --warnings-as-errors`.",
    ]


def test_a_brief_to_a_subagent_gives_its_commands() -> None:
    brief = "Check your change.\n\nTo run the tests:\n```\nmix test\n```\n"

    assert _said(brief, origin="brief") == [
        "A brief to a subagent gives the command to run the tests: `mix test`."
    ]


def test_the_rules_extractor_keeps_it_as_a_recipe_with_the_rule_named() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Keep the order.")
    session.say(RUST_REPLY)

    found = [c for c in session.extracted() if c.key.startswith(KEY_PREFIX)]

    assert [(c.type.value, c.rule) for c in found] == [("recipe", "lead_in_commands")]
    assert found[0].source_event_ids == (session.events[-1].id,)


def test_output_shown_in_a_block_is_no_command() -> None:
    shown = "The test passes and shows the expected behaviour:\n```\nMoved feed 2 to 3\n```\n"

    assert _said(shown) == []


def test_a_lead_in_that_asks_announces_fails_or_is_negated_says_nothing() -> None:
    for lead in (
        "Should I rebuild with:",
        "Let me rebuild with:",
        "The build failed with:",
        "Do not build with:",
    ):
        assert _said(f"{lead}\n```bash\ncargo build --release\n```\n") == [], lead


def test_a_lead_in_naming_no_role_or_two_roles_says_nothing() -> None:
    assert _said("Then:\n```bash\ncargo build\n```\n") == []
    assert _said("Build and test with:\n```bash\ncargo build\n```\n") == []


def test_a_command_the_session_ran_is_left_to_its_runs() -> None:
    assert _said(RUST_REPLY, ran="cargo build --release --features sqlite -p feeds-server") == []


def test_a_subagents_own_reply_and_another_repository_say_nothing() -> None:
    assert _said(RUST_REPLY, sidechain=True) == []
    elsewhere = "In /home/dev/other the build is:\n\nBuild with:\n```\nmix compile\n```\n"
    assert _said(elsewhere) == []


def test_a_command_whose_own_words_give_another_role_is_not_kept() -> None:
    assert blocks("Build with:\n```bash\nnpm install\n```\n") == []
    assert blocks("Format with:\n```elixir\nIO.puts(:ok)\n```\n") == []


def test_a_path_of_one_machine_is_not_kept() -> None:
    assert blocks("Build with:\n```bash\n/Users/me/bin/cargo build\n```\n") == []


def test_a_command_another_recipe_of_the_episode_gives_is_said_once() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Check the app.")
    session.say(RUST_REPLY)
    found = session.extracted()
    recipe = next(c for c in found if c.key.startswith(KEY_PREFIX))
    step = replace(
        recipe,
        key="command:check",
        content="The command `/check` runs, in order: "
        "build: `cargo build --release --features sqlite -p feeds-server`.",
    )

    assert without_restated([recipe, step]) == [step]
    assert without_restated([recipe]) == [recipe]
