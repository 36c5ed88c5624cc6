"""The user's standing rules in the instruction files a session read (`CLAUDE.md`, CONTRIBUTING)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from squirrel_core.host_files import LOADED_TAG, SKILL_TAG, WRITTEN_TAG
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.about import session_about
from squirrel_memory.extractors.read_instructions import read_rules
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.loaded_sources import only_from
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope, StoredEvent
from squirrel_memory.views.blocks import merge_style
from squirrel_memory.views.core_style import SAID_ONCE_PREFIX, core_style
from tests.unit.memory.test_rules_extractor import T0, Stream
from tests.unit.memory.test_session_about import _numbered, _reads

AGENT_NOTES = """# Notes for the assistant

- Be careful with path handling - use Path objects consistently
- Always run the linter before committing
- The service talks to a message queue.
"""

CONTRIBUTING = """# Contributing

## Development Setup

1. Clone the repository
2. Install the dependencies

## Adding New Features

1. Update the specification in `docs/spec.md`
2. Write tests first
3. Implement the feature
4. Ensure all tests pass

## Fixing Bugs

1. Write a test that reproduces the bug
2. Fix the bug

- Keep pull requests small
"""


def test_rule_lines_of_an_instructions_file_read_are_kept_with_their_file() -> None:
    found = read_rules(_reads(("AGENTS.md", _numbered(AGENT_NOTES))))

    assert [(r.content, r.ref) for r in found] == [
        (
            "Be careful with path handling - use Path objects consistently (AGENTS.md).",
            "AGENTS.md:3",
        ),
        ("Always run the linter before committing (AGENTS.md).", "AGENTS.md:4"),
    ]


def test_procedures_for_changing_the_project_are_one_rule_each() -> None:
    found = read_rules(_reads(("CONTRIBUTING.md", _numbered(CONTRIBUTING))))

    assert [r.content for r in found] == [
        "Adding New Features (CONTRIBUTING.md): update the specification in `docs/spec.md`; "
        "write tests first; implement the feature; ensure all tests pass.",
        "Fixing Bugs (CONTRIBUTING.md): write a test that reproduces the bug; fix the bug.",
    ]  # set-up steps are no rule of work, nor a bullet of CONTRIBUTING's


def test_instruction_files_in_their_fixed_places_from_the_root_are_read_too() -> None:
    for path in (".claude/CLAUDE.md", ".github/copilot-instructions.md", ".cursor/rules/py.mdc"):
        found = read_rules(_reads((path, _numbered(AGENT_NOTES))))
        assert [r.ref for r in found] == [f"{path}:3", f"{path}:4"], path
    assert read_rules(_reads(("web/.claude/CLAUDE.md", _numbered(AGENT_NOTES)))) == []
    # A path through `..` leaves the folder it names: not the project's rulebook.
    assert read_rules(_reads((".cursor/rules/../../x.md", _numbered(AGENT_NOTES)))) == []


def test_files_elsewhere_or_failed_reads_say_nothing() -> None:
    assert read_rules(_reads(("vendor/lib/CLAUDE.md", _numbered(AGENT_NOTES)))) == []
    assert read_rules(_reads(("notes.md", _numbered(AGENT_NOTES)))) == []
    assert read_rules(_reads(("CLAUDE.md", "File not found"), is_error=True)) == []


def test_a_rule_a_later_edit_replaced_is_not_kept_the_file_is_read_as_it_stands() -> None:
    events = _reads(("CLAUDE.md", _numbered(AGENT_NOTES)))
    stream = Stream()
    stream.events = list(events)
    stream.add(
        "tool_call",
        {
            "tool": "Edit",
            "input": {
                "file_path": "CLAUDE.md",
                "old_string": "- Always run the linter before committing\n",
                "new_string": "- Run the formatter before committing\n",
            },
        },
        ("CLAUDE.md",),
    )

    found = read_rules(stream.events)

    assert [r.ref for r in found] == ["CLAUDE.md:3", "CLAUDE.md:4"]
    assert not any("linter" in r.content for r in found)
    assert "Run the formatter before committing" in found[1].content


def test_the_rules_extractor_keeps_them_as_project_style() -> None:
    events = _reads(("CLAUDE.md", _numbered(AGENT_NOTES)))
    [episode] = segment_episodes(events, now=T0 + timedelta(days=1))

    found = [
        c
        for c in RulesExtractor().extract_sync(episode, events)
        if c.type is MemoryType.USER_STYLE and WRITTEN_TAG in c.tags
    ]

    assert len(found) == 2
    assert all("standing" in c.tags and c.source_refs for c in found)
    assert all(SKILL_TAG not in c.tags for c in found)  # a file's rules are no skill's


def _style(key: str, tags: tuple[str, ...], importance: float, n: int) -> MemoryItem:
    when = T0 + timedelta(minutes=n)
    return MemoryItem(
        id=f"m{n}",
        project_id="/p",
        user_id="u",
        scope=Scope.PROJECT,
        type=MemoryType.USER_STYLE,
        key=key,
        content=f"Rule {key}.",
        tags=tags,
        importance=importance,
        created_at=when,
        updated_at=when,
        source=MemorySource.RULES,
    )


def test_a_session_opens_with_what_the_user_said_before_rules_read_from_a_file() -> None:
    read = _style("pref:paths", ("preference", "standing", WRITTEN_TAG), 0.5, 1)
    said = _style("pref:push", ("preference", "tentative", "correction"), 0.3, 2)

    assert [m.key for m in core_style([read, said])] == ["pref:push"]
    assert core_style([read, said])[0].content.startswith(SAID_ONCE_PREFIX)


def test_rules_read_from_a_file_open_a_session_when_nothing_else_is_on_record() -> None:
    read = _style("pref:paths", ("preference", "standing", WRITTEN_TAG), 0.5, 1)

    assert [m.key for m in core_style([read])] == ["pref:paths"]


def _loaded(path: str, text: str, origin: str = "harness") -> list[StoredEvent]:
    """The instruction file a host loaded itself (Codex's AGENTS.md message, a `nested_memory`
    attachment), as ingest stores it: a host-spoken message naming the file."""
    stream = Stream()
    stream.add("user_message", {"text": text, "loaded_file": path}, (path,), origin=origin)
    stream.user("fix the failing test")
    return stream.events


def test_an_instruction_file_the_host_loaded_gives_the_rules_a_read_gives() -> None:
    read = read_rules(_reads(("AGENTS.md", _numbered(AGENT_NOTES))))
    loaded = read_rules(_loaded("AGENTS.md", AGENT_NOTES))

    assert [(r.content, r.ref) for r in loaded] == [(r.content, r.ref) for r in read]
    assert len(loaded) == 2


def test_no_rules_from_another_folders_file_a_reminder_or_a_paste() -> None:
    assert read_rules(_loaded("../other/AGENTS.md", AGENT_NOTES)) == []
    assert read_rules(_loaded("/elsewhere/AGENTS.md", AGENT_NOTES)) == []
    stream = Stream()
    stream.add("user_message", {"text": AGENT_NOTES}, (), origin="harness")  # a reminder
    assert read_rules(stream.events) == []
    assert read_rules(_loaded("AGENTS.md", AGENT_NOTES, origin="typed")) == []


def test_what_only_the_loaded_file_says_is_left_to_the_host_that_loads_it() -> None:
    events = _loaded("AGENTS.md", AGENT_NOTES)
    [episode] = segment_episodes(events, now=T0 + timedelta(days=1))

    found = [c for c in RulesExtractor().extract_sync(episode, events) if WRITTEN_TAG in c.tags]

    assert len(found) == 2 and all(LOADED_TAG in c.tags for c in found)
    items = [_item(c.content, c.source_refs, c.source_event_ids, c.tags) for c in found]
    assert all(only_from(i, ["AGENTS.md", "AGENTS.override.md"]) for i in items)  # Codex
    assert not any(only_from(i, ["CLAUDE.md"]) for i in items)  # Claude Code is given them


def test_a_rule_read_with_a_tool_is_not_marked_loaded() -> None:
    events = _reads(("AGENTS.md", _numbered(AGENT_NOTES)))
    [episode] = segment_episodes(events, now=T0 + timedelta(days=1))

    found = [c for c in RulesExtractor().extract_sync(episode, events) if WRITTEN_TAG in c.tags]

    assert len(found) == 2 and not any(LOADED_TAG in c.tags for c in found)
    # read or loaded, the file's lines are left to the host that loads it, given to the others
    items = [_item(c.content, c.source_refs, c.source_event_ids, c.tags) for c in found]
    assert all(only_from(i, ["AGENTS.md"]) for i in items)
    assert not any(only_from(i, ["CLAUDE.md"]) for i in items)


def _item(
    content: str, refs: tuple[str, ...], event_ids: tuple[str, ...], tags: tuple[str, ...]
) -> MemoryItem:
    now = T0
    return MemoryItem(
        "m1", "/p", None, Scope.PROJECT, MemoryType.USER_STYLE, "pref:x", content, tags, 0.5,
        now, now, MemorySource.RULES, source_event_ids=event_ids, source_refs=refs,
    )  # fmt: skip


WRAPPED = """# Notes

What a new reporter must not do is decide where the walk stops. The level bound is
`Expansion`'s decision; a reporter chooses what to draw.

- Always run the equivalence tests after a change to either
  engine, because both must build the same graph.
"""


def test_a_hard_wrapped_rule_is_read_whole_from_its_first_line() -> None:
    found = read_rules(_loaded("AGENTS.md", WRAPPED))

    assert [(r.content, r.ref) for r in found] == [
        (
            "What a new reporter must not do is decide where the walk stops. The level bound is "
            "`Expansion`'s decision; a reporter chooses what to draw (AGENTS.md).",
            "AGENTS.md:3",
        ),
        (
            "Always run the equivalence tests after a change to either engine, because both "
            "must build the same graph (AGENTS.md).",
            "AGENTS.md:6",
        ),
    ]


def test_a_sub_folders_file_the_host_loaded_holds_for_that_folder() -> None:
    found = read_rules(_loaded("web/CLAUDE.md", AGENT_NOTES))

    assert [r.ref for r in found] == ["web/CLAUDE.md:3", "web/CLAUDE.md:4"]
    assert found[1].content == "Always run the linter before committing (web/CLAUDE.md)."
    assert read_rules(_reads(("web/CLAUDE.md", _numbered(AGENT_NOTES)))) == []
    assert read_rules(_loaded("web/../../x/CLAUDE.md", AGENT_NOTES)) == []


def test_the_loaded_files_overview_says_what_the_project_is_but_never_an_instruction() -> None:
    describes = (
        "# Agents\n\nA CLI tool that analyzes PHP code dependencies and shows the blast radius.\n"
    )
    asks = (
        "# Codebase Knowledge Graph\n\nThis project uses codebase-memory-mcp to maintain a "
        "knowledge graph. ALWAYS prefer MCP graph tools over grep for code discovery.\n"
    )

    about = session_about(_loaded("AGENTS.md", describes))

    assert about is not None and "analyzes PHP code dependencies" in about[0]
    assert about[1] == "AGENTS.md"
    assert session_about(_loaded("AGENTS.md", asks)) is None


def test_a_property_said_with_never_or_always_is_still_what_the_project_is() -> None:
    describes = (
        "# Agents\n\nA zero-copy JSON parser that never allocates and always returns views.\n"
    )
    about = session_about(_loaded("AGENTS.md", describes))
    assert about is not None and "never allocates" in about[0]
    asks = "# Agents\n\nA zero-copy JSON parser. Never allocate in the hot loop.\n"
    assert session_about(_loaded("AGENTS.md", asks)) is None


SKILL = """Check the package, then propose fixes.

## Important rules

- **Never modify a file without the user's explicit approval.**
- Always show the diff and ask before applying a fix.
- The check takes a few minutes.
"""


def _skill(name: str, text: str, *, origin: str = "harness") -> Stream:
    stream = Stream()
    stream.user("check the package")
    call = {"tool": "Skill", "tool_use_id": "s1", "input": {"skill": name}}
    stream.add("tool_call", call, origin="assistant")
    result = {"tool": "Skill", "tool_use_id": "s1", "output": f"Launching skill: {name}"}
    stream.add("tool_result", {**result, "is_error": False}, origin="tool_result")
    stream.add("user_message", {"text": text}, origin=origin)
    stream.say("Running the check.")
    return stream


def test_a_launched_skills_rules_are_said_of_the_skill() -> None:
    rules = read_rules(_skill("pkg-check", SKILL).events)
    assert [r.content for r in rules] == [
        "While running the skill `pkg-check`: Never modify a file without the user's explicit "
        "approval.",
        "While running the skill `pkg-check`: Always show the diff and ask before applying a fix.",
    ]
    assert all(r.ref == "" for r in rules)


def test_a_plugins_skill_or_a_skill_text_the_host_did_not_load_gives_no_rule() -> None:
    assert read_rules(_skill("plugin:pkg-check", SKILL).events) == []
    assert read_rules(_skill("pkg-check", SKILL, origin="typed").events) == []


async def test_a_skills_rule_is_a_written_instruction_without_a_file() -> None:
    stream = _skill("pkg-check", SKILL)
    (episode,) = segment_episodes(stream.events, now=T0 + timedelta(days=1))
    found = {c.key: c for c in await RulesExtractor().extract(episode, stream.events)}
    rule = found["pref:never_modify_a_file"]
    assert rule.type is MemoryType.USER_STYLE
    assert WRITTEN_TAG in rule.tags
    assert rule.file_paths == ()
    assert SKILL_TAG in rule.tags


def test_a_skills_rules_never_open_a_session_the_user_said_nothing_in() -> None:
    # the host loads the skill's text whenever it runs, the only time its rules hold
    skill = _style("pref:diff_first", ("preference", "standing", WRITTEN_TAG, SKILL_TAG), 0.5, 1)
    read = _style("pref:paths", ("preference", "standing", WRITTEN_TAG), 0.5, 2)

    assert core_style([skill]) == []
    assert [m.key for m in core_style([skill, read])] == ["pref:paths"]


def test_rules_of_one_file_that_tie_keep_the_files_order() -> None:
    # one read of the file: same importance and time; the keys sort otherwise than the lines
    lines = {"pref:work_on_main": 15, "pref:always_squash": 19, "pref:keep_errors_short": 23}
    rules = [
        replace(
            _style(key, ("preference", "standing", WRITTEN_TAG), 0.5, 1),
            id=f"m{line}",
            source_refs=(f"AGENTS.md:{line}",),
        )
        for key, line in lines.items()
    ]

    merged = merge_style(rules, [], None)

    assert [i.key for i in merged] == [
        "pref:work_on_main",
        "pref:always_squash",
        "pref:keep_errors_short",
    ]


#: Numbered procedures as three kinds of instruction file write them: steps hard-wrapped
#: (indented or not), an abbreviation and a file name's dot inside a step, a placeholder in a
#: code span, and a paragraph after a step that is no part of it.
WRAPPED_STEPS = {
    "AGENTS.md": (
        "## For all changes\n\n"
        "1. Sign off every commit you create with an `Assisted-by: <tool> (<model>)` trailer "
        "naming both the\n"
        "   tool and the model behind it. Do not use `Co-authored-by:` for tools.\n"
        "2. Agents can only open PRs once the user gives them explicit permission.\n",
        "For all changes (AGENTS.md): sign off every commit you create with an "
        "`Assisted-by: <tool> (<model>)` trailer naming both the tool and the model behind it; "
        "agents can only open PRs once the user gives them explicit permission.",
    ),
    "CLAUDE.md": (
        "## Before committing\n\n"
        "1. Run the linter, e.g. `ruff check .`, and fix\n"
        "   what it reports.\n"
        "2. Run the test suite. It takes a minute.\n\n"
        "Nobody reviews a red build.\n",
        "Before committing (CLAUDE.md): run the linter, e.g. `ruff check .`, and fix what it "
        "reports; run the test suite.",
    ),
    "CONTRIBUTING.md": (
        "## Pull requests\n\n"
        "1. Bump the version in `pkg/version.go`\n"
        "and note it in the changelog.\n"
        "2. Open the pull request against `main`.\n",
        "Pull requests (CONTRIBUTING.md): bump the version in `pkg/version.go` and note it in "
        "the changelog; open the pull request against `main`.",
    ),
}


@pytest.mark.parametrize("path", sorted(WRAPPED_STEPS))
def test_a_hard_wrapped_step_is_read_whole_and_said_by_its_first_sentence(path: str) -> None:
    text, content = WRAPPED_STEPS[path]

    found = read_rules(_reads((path, _numbered(text))))

    assert found[0].content == content
