"""The answer key's judgement of the session-start text: each line as the memory it renders.

The text's sections (services/gateway/squirrel_gateway/hook_context.py) give each line's memory
type; a key's `session_start` items must each be stated by one line (those a host loads itself
aside: `AnswerKey.start_items`), a line matching a `[[wrong]]` pattern is a wrong line, and a
recipe line whose command is not a command (bench/recipe_commands.py) states nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.answer_key_gold import AnswerKey
from bench.answer_key_score import Memory, finds
from bench.recipe_commands import recipe_problem


@dataclass(frozen=True)
class HookScore:
    """What the session-start text says of a key: the needed items it states, and its lines that
    state a wrong fact."""

    needed: tuple[str, ...]
    covered: tuple[str, ...]
    wrong: tuple[str, ...]
    junk: tuple[str, ...] = ()
    """Recipe lines whose command is not a command (`recipe_commands`): they state nothing."""

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(i for i in self.needed if i not in self.covered)


# -- the lines --------------------------------------------------------------------

# The session-start text's sections (services/gateway/squirrel_gateway/hook_context.py) and the
# memory type each one's lines come from.
HOOK_SECTIONS = {
    "### Project": "project_fact",
    "### How things are run here": "recipe",
    "### Your coding style": "user_style",
    "### Known pitfalls": "pitfall",
}


def hook_memories(text: str) -> list[Memory]:
    """The session-start text's lines as the memories they render (type from their section)."""
    out: list[Memory] = []
    kind = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line in HOOK_SECTIONS:
            kind = HOOK_SECTIONS[line]
        elif line.startswith("#"):
            kind = ""
        elif kind and line.startswith("- "):
            out.append(Memory(kind, "hook", line[2:]))
    return out


def score_hook(key: AnswerKey, text: str, host: str = "claude") -> HookScore:
    """Which of the key's `session_start` items the text states (one line must state the whole
    item, and a recipe line whose command is not a command, or a line that matches a
    `[[wrong]]` pattern, states nothing), which lines match a `[[wrong]]` pattern, and which
    recipe lines are junk. The items needed are `host`'s
    (`AnswerKey.start_items`)."""
    lines = hook_memories(text)
    junk = tuple(m.content for m in lines if m.kind == "recipe" and recipe_problem(m.content))
    wrong = tuple(m.content for m in lines if any(p.matches(m.kind, m.content) for p in key.wrong))
    # A wrong line states no needed item, as a wrong memory covers no gold item.
    usable = [m for m in lines if m.content not in junk and m.content not in wrong]
    needed = key.start_items(host)
    covered = tuple(i for i in needed if any(finds(key.item(i), m.kind, m.content) for m in usable))
    return HookScore(needed, covered, wrong, junk)
