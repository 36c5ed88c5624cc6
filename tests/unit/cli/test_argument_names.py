"""A service's refusal in the words of the command that sent the value: only a refused value
(`InvalidArgumentError`) whose message starts with a field the command fills is renamed."""

from __future__ import annotations

from squirrel_cli.argument_names import said_by_command
from squirrel_core.errors import InvalidArgumentError, NotFoundError


def test_a_refused_field_is_named_as_the_argument_it_came_in() -> None:
    refused = InvalidArgumentError("scope_paths entry '../x' climbs out of the project")
    assert said_by_command("search", refused) == "--paths entry '../x' climbs out of the project"
    assert said_by_command(
        "context", InvalidArgumentError("task_description must not be empty.")
    ) == ("task must not be empty.")


def test_other_messages_are_left_as_they_are() -> None:
    # A field of another command, a longer word that starts with a field, another error.
    assert said_by_command("memories", InvalidArgumentError("scope_paths x")) == "scope_paths x"
    assert said_by_command("search", InvalidArgumentError("cursors x")) == "cursors x"
    assert said_by_command("search", NotFoundError("cursor x")) == "cursor x"
    assert said_by_command(None, InvalidArgumentError("cursor x")) == "cursor x"
