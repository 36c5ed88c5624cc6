"""An instruction whose only object points back at what was said before it ("make a local
one") is no rule kept alone; one that names its object is."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.working_habits import refers_back_only, user_instructions


@pytest.mark.parametrize(
    "said", ["Make a local one.", "Use that.", "Fix it.", "Keep them.", "Use a new one instead."]
)
def test_an_object_that_only_points_back_is_no_rule(said: str) -> None:
    assert refers_back_only(said)


@pytest.mark.parametrize(
    "said",
    [
        "Make a local opam switch.",
        "Never push to main.",
        "Use pnpm.",
        "Keep it simple.",
        "Run it with uv.",
    ],
)
def test_an_instruction_that_names_what_it_is_about_stays(said: str) -> None:
    assert not refers_back_only(said)


def test_a_refusals_reason_keeps_its_rule_and_drops_the_bare_pointer() -> None:
    found = user_instructions(
        "no, don't install into my default switch. make a local one", after_assistant_action=True
    )
    said = [p.content for p in found]
    assert "Don't install into my default switch." in said
    assert not any("local one" in s for s in said)
