"""How a change is put into effect, as the assistant advised after making it."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.apply_steps import apply_steps
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import Stream

CLOSING = (
    "Fixed. The filter was missing its `if`.\n\n"
    "**To apply the fix:** Since the worker is already running with the old script, "
    "you'll need to restart it:\n\n```bash\n# Stop the old process\n"
    "kill $(cat /tmp/worker.pid)\nrm /tmp/worker.pid\n\n# Start again\n./scripts/start.sh\n```"
)


def _turn(closing: str = CLOSING, *, edit: bool = True, user_after_edit: bool = False) -> Stream:
    stream = Stream()
    stream.user("fix the worker script")
    stream.say("Let me read it.")
    if edit:
        stream.add("code_change", {"tool": "Edit", "path": "scripts/worker.sh"}, ("x",))
    if user_after_edit:
        stream.user("also rename it")
    stream.say(closing)
    stream.user("thanks")
    return stream


def test_the_closing_advice_after_an_edit_is_a_recipe_for_the_file() -> None:
    (found,) = apply_steps(_turn().events)
    assert found.key == "apply:scripts/worker.sh"
    assert found.content == (
        "To put a change to `scripts/worker.sh` into effect (the assistant's advice after "
        "editing it): since the worker is already running with the old script, you'll need "
        "to restart it; run `kill $(cat /tmp/worker.pid)`, then `rm /tmp/worker.pid`, then "
        "`./scripts/start.sh`."
    )


def test_no_recipe_without_an_edit_an_apply_sentence_or_a_short_block() -> None:
    assert apply_steps(_turn(edit=False).events) == []
    # The advice answers a later request, not the edit's turn.
    assert apply_steps(_turn(user_after_edit=True).events) == []
    # A plan, a listing and a progress report are not how to apply a change.
    plan = "Next, I'll restart it:\n\n```bash\n./scripts/start.sh\n```"
    listing = "The files I changed:\n\n```\nscripts/worker.sh\nscripts/start.sh\n```"
    progress = "Restarting now, this takes a minute:\n\nsome text\n\nmore text"
    # Too many commands to be one step.
    long = "To apply it, restart everything:\n\n```bash\n" + "echo a\n" * 6 + "```"
    for closing in (plan, listing, progress, long):
        assert apply_steps(_turn(closing).events) == [], closing


async def test_the_rules_extractor_keeps_it_as_a_recipe() -> None:
    stream = _turn()
    found = await RulesExtractor().extract(stream.episode(), stream.events)
    (recipe,) = [c for c in found if "apply" in c.tags]
    assert recipe.type is MemoryType.RECIPE
    assert recipe.file_paths == ("scripts/worker.sh",)


def test_a_sentence_tying_the_change_to_a_restart_is_the_recipe_without_a_block() -> None:
    closing = (
        "Done. The handler supports GET and POST.\n\n"
        "It'll be auto-discovered on next server restart. Skills can call it by name."
    )
    (found,) = apply_steps(_turn(closing).events)
    assert found.content == (
        "To put a change to `scripts/worker.sh` into effect (the assistant's word after "
        "editing it): it'll be auto-discovered on next server restart."
    )


@pytest.mark.parametrize(
    "closing",
    [
        "Done. You might need to restart the server before it is picked up.",  # a hedge
        "Done. Should I restart the server so the change is loaded?",  # a question
        "Done. Next, I'll restart the worker so the new script is loaded.",  # a plan
        "Done. I restarted the server earlier today.",  # no effect of the change
        "Done. The handler is loaded at start-up.",  # no restart
    ],
)
def test_no_recipe_from_a_hedge_a_question_a_plan_or_a_restart_alone(closing: str) -> None:
    assert apply_steps(_turn(closing).events) == []


def test_a_restart_sentence_without_an_edit_is_no_recipe() -> None:
    closing = "It'll be auto-discovered on next server restart."
    assert apply_steps(_turn(closing, edit=False).events) == []
