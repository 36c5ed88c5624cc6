"""The rules' view of the shared command table (squirrel_core.commands): tools and habits."""

from __future__ import annotations

from dataclasses import dataclass

from squirrel_core import commands


@dataclass(frozen=True, slots=True)
class ToolUse:
    """A recognised tool in one simple command: its category, name, purpose and ecosystem.

    Project-defined tasks (`make test`, `npm run lint`) have the category `script`: they say
    how the project is driven, not which tool the user prefers.
    """

    category: str
    tool: str
    purpose: str
    ecosystem: str = "any"


#: Categories that describe a user's habit (the rest are project facts or recipes only).
HABIT_CATEGORIES = ("test_runner", "package_manager", "formatter", "linter", "type_checker")


def classify(tokens: list[str]) -> ToolUse | None:
    """The tool a tokenised simple command runs, if the command table knows it."""
    use = commands.classify_tokens(tokens)
    if use is None:
        return None
    if use.task is not None:
        return ToolUse("script", f"{use.tool} {use.task}".strip(), use.purpose, use.ecosystem)
    return ToolUse(use.category, use.tool, use.purpose, use.ecosystem)


def package_manager(raw_tokens: list[str]) -> str | None:
    """The package manager a raw simple command goes through (`uv run pytest` → uv)."""
    found = commands.package_manager(raw_tokens)
    return found[0] if found else None


def known_tools() -> dict[str, str]:
    """Every tool name the command table knows, lower-cased, mapped to its category."""
    return commands.known_tools()
