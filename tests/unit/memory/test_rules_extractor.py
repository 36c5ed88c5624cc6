"""The offline rules extractor on realistic event streams (and real transcripts when parsable)."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import SourcePosition
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.activity import normalize_command
from squirrel_memory.extractors.pitfalls import error_fingerprint, fingerprint_key
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.rules import MAX_PREFERENCES, RulesExtractor
from squirrel_memory.models import Episode, MemoryCandidate, MemoryType, Scope, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 3, 3, tzinfo=UTC)
PROJECT = "/home/dev/shop"
FIXTURES = Path(__file__).parents[2] / "fixtures" / "claude" / "claude-code-log-sample"


class Stream:
    """Builds the events one Claude Code session produces, in order."""

    def __init__(self) -> None:
        self.events: list[StoredEvent] = []

    def add(
        self, kind: str, content: dict[str, Any], paths: tuple[str, ...] = (), origin: str = ""
    ) -> str:
        n = len(self.events) + 1
        self.events.append(
            StoredEvent(
                id=f"evt_{n:04d}",
                project_id=PROJECT,
                user_id="dev",
                source_tool="claude_code",
                session_id="sess",
                timestamp=T0 + timedelta(seconds=20 * n),
                event_type=kind,
                content=content,
                file_paths=paths,
                hash=f"h{n}",
                origin=origin,
            )
        )
        return self.events[-1].id

    def user(self, text: str) -> str:
        return self.add("user_message", {"text": text})

    def say(self, text: str = "Done.") -> str:
        return self.add("assistant_response", {"text": text})

    def run(self, command: str, exit_code: int | None = 0, output: str = "") -> str:
        kind = "test_run" if "test" in command else "command_run"
        content: dict[str, Any] = {"command": command, "tool_use_id": f"t{len(self.events)}"}
        if exit_code is not None:
            content.update(exit_code=exit_code, is_error=exit_code != 0, output=output)
        return self.add(kind, content)

    def write(self, path: str, text: str = "", tool: str = "Write") -> str:
        use_id = f"t{len(self.events)}"
        key = "content" if tool == "Write" else "new_string"
        self.add("tool_call", {"tool": tool, "tool_use_id": use_id, "input": {key: text}}, (path,))
        return self.add("code_change", {"tool": tool, "tool_use_id": use_id, "path": path}, (path,))

    def read(self, path: str, output: str = "") -> str:
        use_id = f"t{len(self.events)}"
        self.add("tool_call", {"tool": "Read", "tool_use_id": use_id, "input": {}}, (path,))
        return self.add(
            "tool_result",
            {"tool": "Read", "tool_use_id": use_id, "output": output, "is_error": False},
            (path,),
        )

    def episode(self) -> Episode:
        (episode,) = segment_episodes(self.events, now=NOW)
        return episode


async def extract(stream: Stream) -> list[MemoryCandidate]:
    return await RulesExtractor().extract(stream.episode(), stream.events)


def by_key(candidates: list[MemoryCandidate]) -> dict[str, MemoryCandidate]:
    return {c.key: c for c in candidates}


# --- stated preferences -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "content", "standing"),
    [
        (
            "Always use pytest fixtures for test setup.",
            "pref:pytest_fixture_test_setup",
            "Always use pytest fixtures for test setup.",
            True,
        ),
        ("Please use uv instead of pip.", "pref:package_manager", "Prefers uv over pip.", True),
        ("I prefer black over autopep8", "pref:formatting", "Prefers black over autopep8.", True),
        (
            "Never commit directly to main!",
            "pref:commit_directly_main",
            "Never commit directly to main.",
            True,
        ),
        (
            "don't add comments to obvious code",
            "pref:add_comment_obvious_code",
            "Don't add comments to obvious code.",
            True,  # a kind of thing, picked out: every one of them
        ),
        (
            "stop adding emojis to messages",
            "pref:add_emojis_message",
            "Avoid adding emojis to messages.",
            True,  # a kind of thing, picked out: every one of them
        ),
        (
            "We should always await I/O in handlers.",
            "pref:await_o_handler",
            "Always await I/O in handlers.",
            True,
        ),
        (
            "Never swallow exceptions, it hides bugs.",
            "pref:swallow_exception",
            "Never swallow exceptions.",
            True,
        ),
        ("Never use global state.", "pref:global_state", "Never use global state.", True),
    ],
)
def test_stated_preferences_become_clean_keyed_statements(
    text: str, key: str, content: str, standing: bool
) -> None:
    (pref,) = stated_preferences(text, after_assistant_action=False)

    assert (pref.key, pref.content, pref.scope) == (key, content, Scope.USER)
    assert pref.standing is standing
    assert (pref.importance >= 0.7) is standing


@pytest.mark.parametrize(
    "text",
    [
        "I don't think we need to loop through all items.",
        "Can we always do this?",
        "Never mind! Add a details element instead.",
        "It always fails on CI for some reason.",
        "Please add a delete endpoint for inventory items.",
        "Don't worry about it.",
        "```\n# never do this\nalways_on = True\n```",
        "",
    ],
)
def test_ordinary_requests_state_no_preference(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []


def test_preference_naming_paths_or_this_project_is_project_scoped() -> None:
    (pref,) = stated_preferences(
        "Always put new routes in src/routes/.", after_assistant_action=False
    )

    assert pref.scope == Scope.PROJECT


async def test_no_after_an_assistant_action_is_a_correction() -> None:
    stream = Stream()
    stream.user("Add the dependency.")
    stream.run("npm install left-pad")
    correction = stream.user("No, use pnpm for everything.")

    (pref,) = [c for c in await extract(stream) if c.type == MemoryType.USER_STYLE]

    assert pref.key == "pref:package_manager"
    assert pref.content == "Use pnpm for everything."
    assert "correction" in pref.tags
    assert "standing" in pref.tags  # "for everything" makes it a general rule
    assert pref.source_event_ids == (correction,)


async def test_no_without_a_preceding_action_is_not_a_correction() -> None:
    stream = Stream()
    stream.user("No, use pnpm for everything.")
    stream.say("Sure.")
    stream.say("Anything else?")

    # the rule after the "No," is read, as a rule said plainly: nothing for it to correct
    found = await extract(stream)
    assert [c.content for c in found] == ["Use pnpm for everything."]
    assert all("correction" not in c.tags for c in found)


async def test_hostile_flood_of_preferences_is_capped() -> None:
    stream = Stream()
    stream.user(" ".join(f"Always use tool{i}." for i in range(20_000)))
    stream.say()
    stream.say()

    candidates = await extract(stream)

    assert len([c for c in candidates if c.type == MemoryType.USER_STYLE]) == MAX_PREFERENCES


# --- tool habits ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "side",
    [
        ["npm install -g @mermaid-js/mermaid-cli", "npx mmdc -i docs/arch.mmd"],
        ["npm i --global prettier", "npm install -g tsx"],
        ["yarn global add serve", "yarn global add http-server"],
    ],
)
async def test_a_global_install_or_a_one_off_runner_is_not_the_projects_manager(
    side: list[str],
) -> None:
    stream = Stream()
    stream.user("Render the diagram and run the tests.")
    for command in [*side, "pnpm test", "pnpm run lint"]:
        stream.run(command)

    manager = by_key(await extract(stream))["package_manager"]

    assert manager.content == "Commands in this project run through pnpm, its package manager."


async def test_a_manager_the_project_moved_away_from_is_not_its_manager() -> None:
    stream = Stream()
    stream.user("Switch the project to pnpm.")
    for command in ["npm test", "npm run lint", "pnpm import", "pnpm test", "pnpm run lint"]:
        stream.run(command)

    manager = by_key(await extract(stream))["package_manager"]

    assert manager.content == "Commands in this project run through pnpm, its package manager."


async def test_two_managers_used_side_by_side_are_both_named() -> None:
    stream = Stream()
    stream.user("Run the tests both ways.")
    for command in ["npm test", "pnpm test", "npm run lint", "pnpm run lint"]:
        stream.run(command)

    manager = by_key(await extract(stream))["package_manager"]

    assert "npm" in manager.content.replace("pnpm", "") and "pnpm" in manager.content


@pytest.mark.parametrize(
    ("commands", "said"),
    [
        # run only in one sub-folder: that folder's manager
        (
            ["cd mock-api && npm install", "cd mock-api && npm start", "./gradlew test"],
            "Commands in `mock-api/` run through npm, its package manager.",
        ),
        # a sub-folder's manager beside the root's: the root's alone
        (
            ["cd docs && npm ci", "cd docs && npm run build", "uv run pytest", "uv sync"],
            "Commands in this project run through uv, its package manager.",
        ),
    ],
)
async def test_a_manager_run_only_in_a_sub_folder_is_that_folders(
    commands: list[str], said: str
) -> None:
    stream = Stream()
    stream.user("Start the mock server, build the docs and run the tests.")
    for command in commands:
        stream.run(command)

    assert by_key(await extract(stream))["package_manager"].content == said


async def test_one_off_runs_still_show_the_manager_when_nothing_else_drives_the_project() -> None:
    stream = Stream()
    stream.user("Type-check and run the tests.")
    for command in ["npx tsc --noEmit", "npx vitest run"]:
        stream.run(command)

    manager = by_key(await extract(stream))["package_manager"]

    assert manager.content == "Commands in this project run through npm, its package manager."


async def test_the_assistants_commands_make_no_habit_only_project_knowledge() -> None:
    # DESIGN §7: only the user's own origins make user_style. What the assistant ran says how
    # the project is driven: recipes and the package manager fact, never "the user's habit".
    stream = Stream()
    stream.user("Fix the cart total.")
    for _ in range(2):
        stream.run("uv run pytest tests/test_cart.py -q")
    stream.run("uv run mypy src")
    few = await extract(stream)
    for _ in range(3):
        stream.run("uv run pytest -x")
    many = by_key(await extract(stream))

    assert [c for c in few if c.type == MemoryType.USER_STYLE] == []
    assert by_key(few)["recipe:test"].content.startswith("To run the tests: `uv run pytest")
    manager = by_key(few)["package_manager"]
    assert manager.type == MemoryType.PROJECT_FACT
    assert manager.content == "Commands in this project run through uv, its package manager."
    assert many["package_manager"].importance > manager.importance


async def test_commands_the_user_typed_become_habits() -> None:
    stream = Stream()
    stream.user("Tidy up the UI code.")
    typed = [
        stream.add("user_message", {"text": f"<bash-input>{command}</bash-input>"})
        for command in ("pnpm exec vitest run", "npx prettier --write src", "pnpm exec vitest")
    ]
    typed.append(stream.add("user_message", {"text": "<bash-input>npx prettier -c .</bash-input>"}))
    stream.run("pnpm exec eslint .")
    stream.run("pnpm exec eslint src")

    found = by_key(await extract(stream))

    assert found["pref:test_runner"].content == "Runs tests with vitest (through pnpm)."
    assert found["pref:formatter"].content == "Formats code with prettier (through npm)."
    assert set(found["pref:test_runner"].source_event_ids) <= set(typed)
    assert "pref:linter" not in found  # eslint was only run by the assistant


async def test_typed_commands_from_another_voice_make_no_habit() -> None:
    stream = Stream()
    stream.user("Go.")
    for _ in range(3):
        stream.add(
            "user_message", {"text": "<bash-input>cargo test</bash-input>"}, origin="parent_agent"
        )
    found = await extract(stream)

    assert [c for c in found if c.type == MemoryType.USER_STYLE] == []


# --- project facts --------------------------------------------------------------------------


async def test_manifests_imports_and_commands_become_project_facts() -> None:
    stream = Stream()
    stream.user("Add an inventory delete endpoint.")
    stream.read(
        "pyproject.toml", '[project]\ndependencies = ["fastapi>=0.110", "sqlalchemy[asyncio]"]'
    )
    stream.write("src/inventory/routes.py", "from fastapi import APIRouter\nimport asyncpg\n")
    stream.write("src/inventory/models.py", "from sqlalchemy.orm import Mapped\n", tool="Edit")
    stream.read("src/inventory/__init__.py", '     1→"""Stock rows and their soft deletion."""\n')
    stream.write("alembic/versions/0003_add_deleted.py", "")
    stream.run("uvicorn app.main:app --reload", exit_code=None)
    stream.run("uv run pytest tests/test_inventory.py")

    facts = by_key([c for c in await extract(stream) if c.type == MemoryType.PROJECT_FACT])

    assert facts["language"].content == "Python project (pyproject.toml), built with FastAPI."
    assert facts["framework"].content == "Built with FastAPI."
    assert facts["database"].content == "Data layer: SQLAlchemy, PostgreSQL."
    assert facts["entry_point"].content == "The app starts with `app.main:app` served with uvicorn."
    assert facts["migrations"].content.startswith("Database migrations are managed with Alembic")
    assert facts["test_command"].content == "Tests run with `uv run pytest`."
    # The module says what it does (its package docstring), never which files it has.
    assert (
        facts["module:inventory"].content
        == "Module `inventory`: Stock rows and their soft deletion."
    )
    assert facts["module:inventory"].file_paths == (
        "src/inventory/__init__.py",
        "src/inventory/routes.py",
        "src/inventory/models.py",
    )


async def test_paths_outside_the_project_and_in_virtualenvs_are_ignored() -> None:
    stream = Stream()
    stream.user("Why does this fail?")
    stream.read("/usr/lib/python3.11/json/decoder.py", "import re\n")
    stream.read(".venv/lib/python3.11/site-packages/django/db/models.py", "import django\n")
    stream.read("/home/other/pkg/app.rs", "")

    assert await extract(stream) == []


# --- pitfalls -------------------------------------------------------------------------------

TRACEBACK = """\
============================= test session starts ==============================
Traceback (most recent call last):
  File "/home/dev/shop/src/cart.py", line 42, in <module>
ImportError: cannot import name 'Money' from 'shop.types' (/home/dev/shop/src/types.py)
"""


async def test_failure_fixed_by_a_code_change_becomes_a_pitfall() -> None:
    stream = Stream()
    stream.user("Run the tests.")
    failed = stream.run("uv run pytest tests/test_cart.py -x", exit_code=1, output=TRACEBACK)
    change = stream.write("src/shop/types.py", "class Money: ...")
    passed = stream.run("uv run pytest tests/test_cart.py -q", exit_code=0, output="3 passed")

    (pitfall,) = [c for c in await extract(stream) if c.type == MemoryType.PITFALL]

    fingerprint = "ImportError: cannot import name 'Money' from 'shop.types' (<path>)"
    assert pitfall.key == fingerprint_key(fingerprint)
    assert "failed with `ImportError: cannot import name 'Money' from 'shop.types'" in (
        pitfall.content
    )
    assert "src/shop/types.py" in pitfall.content
    assert pitfall.file_paths == ("src/shop/types.py",)
    assert pitfall.source_event_ids == (failed, change, passed)
    assert "importerror" in pitfall.tags


async def test_outcome_joined_from_the_tool_result_counts() -> None:
    stream = Stream()
    stream.user("Build it.")
    stream.add("command_run", {"command": "make build", "tool_use_id": "b1"})
    stream.add(
        "tool_result",
        {"tool": "Bash", "tool_use_id": "b1", "output": "fatal: missing x.h", "is_error": True},
    )
    stream.write("include/x.h")
    stream.run("make build", exit_code=0)

    (pitfall,) = [c for c in await extract(stream) if c.type == MemoryType.PITFALL]

    assert "fatal: missing x.h" in pitfall.content


async def test_no_pitfall_without_a_later_pass_or_when_nothing_changed() -> None:
    never_fixed = Stream()
    never_fixed.user("Run the tests.")
    never_fixed.run("pytest", exit_code=1, output="E   AssertionError")
    never_fixed.write("src/a.py")
    flaky = Stream()
    flaky.user("Run the tests.")
    flaky.run("pytest", exit_code=1, output="E   TimeoutError")
    flaky.run("pytest", exit_code=0)

    for stream in (never_fixed, flaky):
        assert [c for c in await extract(stream) if c.type == MemoryType.PITFALL] == []


@pytest.mark.parametrize(
    ("output", "fingerprint"),
    [
        (TRACEBACK, "ImportError: cannot import name 'Money' from 'shop.types' (<path>)"),
        (
            "E   assert 3 == 4\nE   AssertionError: totals differ by 0x1f",
            "AssertionError: totals differ by <hex>",
        ),
        (
            '/repo/app/conv.py:184:17 - error: Type of "x" is unknown (reportUnknownVariableType)',
            'error: Type of "x" is unknown (reportUnknownVariableType)',
        ),
        (
            "src/app.ts(3,1): error TS2304: Cannot find name 'foo'.",
            "<path>(<n>,<n>): error TS2304: Cannot find name 'foo'.",
        ),
        ("bash: line 1: pnpm: command not found", "bash: line <n>: pnpm: command not found"),
        ("all good\nnothing here", ""),
        ("", ""),
    ],
)
def test_error_fingerprints_keep_the_first_meaningful_line_normalised(
    output: str, fingerprint: str
) -> None:
    assert error_fingerprint(output) == fingerprint


def test_same_error_at_other_paths_and_lines_shares_a_key() -> None:
    a = error_fingerprint('  File "/a/x.py", line 3\nKeyError: 12')
    b = error_fingerprint('  File "/b/y.py", line 99\nKeyError: 7')

    assert fingerprint_key(a) == fingerprint_key(b)
    assert fingerprint_key(a).startswith("pitfall:keyerror")


@pytest.mark.parametrize(
    ("command", "normalized"),
    [
        ("cd test && uv run pytest /abs/test/test_x.py -xvs", "pytest test_x.py"),
        ("uv run pytest test/test_x.py -v", "pytest test_x.py"),
        ("FOO=1 npx jest --ci 2>&1 | tail -5", "jest"),
        ("(source .venv/bin/activate && ruff check src/)", "source activate ruff check src"),
        # An open quote ends the words with what it read: its quote mark is not a word's.
        ('python -c "unterminated', "python unterminated"),
    ],
)
def test_commands_normalise_so_reruns_compare_equal(command: str, normalized: str) -> None:
    assert normalize_command(command) == normalized


# --- recipes, provenance, chit-chat ---------------------------------------------------------


async def test_working_command_sequences_become_recipes() -> None:
    stream = Stream()
    stream.user("Finish the feature.")
    stream.write("src/a.py")
    for _ in range(2):
        stream.run("uv run pytest -q")
        stream.run("uv run ruff check --fix")
        stream.run("uv run ruff format")

    recipes = by_key([c for c in await extract(stream) if c.type == MemoryType.RECIPE])

    # The command as typed, flags included, when it is what the user ran most of the time.
    assert recipes["recipe:test"].content == "To run the tests: `uv run pytest -q`."
    assert recipes["recipe:lint"].content == "To lint: `uv run ruff check --fix`."
    # Each step of the sequence as it was run, as the single-step recipes say it.
    assert recipes["recipe:verify"].content == (
        "Before finishing a change: `uv run pytest -q` → `uv run ruff check --fix` → "
        "`uv run ruff format`."
    )


async def test_every_candidate_cites_its_episode_and_only_its_events() -> None:
    stream = Stream()
    stream.user("Never use print for logging.")
    stream.read("package.json", '{"dependencies": {"react": "^19", "express": "^5"}}')
    stream.write("src/server/index.ts", "import express from 'express'\n")
    stream.write("src/server/routes.ts", "import { z } from 'zod'\n")
    stream.run("pnpm test", exit_code=0)
    stream.run("pnpm test", exit_code=0)
    episode = stream.episode()

    candidates = await RulesExtractor().extract(episode, stream.events)

    assert {c.type for c in candidates} == set(MemoryType) - {MemoryType.PITFALL}
    for candidate in candidates:
        assert candidate.source_episode_id == episode.id
        assert candidate.source_event_ids
        assert set(candidate.source_event_ids) <= set(episode.event_ids)
        assert 0.0 <= candidate.importance <= 1.0


async def test_chit_chat_yields_nothing() -> None:
    stream = Stream()
    stream.user("hey, how are you?")
    stream.say("Great, thanks! What are we building today?")
    stream.user("nothing yet, just saying hi :)")

    assert await extract(stream) == []


async def test_malformed_event_content_is_skipped_not_fatal() -> None:
    stream = Stream()
    stream.add("user_message", {"text": None})
    stream.add("command_run", {"command": ["rm", "-rf"], "exit_code": "zero"})
    stream.add("code_change", {"path": 7})
    stream.add("tool_call", {"tool": "Write", "input": "not a dict"}, ("",))
    stream.add("tool_result", {"tool": "Read", "output": b"bytes", "is_error": "yes"})

    assert await extract(stream) == []


async def test_events_outside_the_episode_are_ignored() -> None:
    stream = Stream()
    stream.user("Always use pytest.")
    stream.say()
    stream.say()
    episode = stream.episode()
    stream.user("Never use black.")

    (candidate,) = await RulesExtractor().extract(episode, stream.events)

    assert candidate.content == "Always use pytest."


# --- real transcripts -----------------------------------------------------------------------


def _parse_fixture(path: Path) -> list[StoredEvent]:
    claude = pytest.importorskip("squirrel_ingest.parsers.claude")
    parser = claude.ClaudeFileParser(str(path))
    events: list[StoredEvent] = []
    offset = 0
    with path.open("rb") as handle:
        for line in handle:
            offset += len(line)
            for index, event in enumerate(parser.feed(line, SourcePosition(str(path), 1, offset))):
                if event.sidechain:
                    continue
                digest = hashlib.sha256(f"{path.name}:{offset}:{index}".encode()).hexdigest()
                events.append(
                    StoredEvent(
                        id=f"evt_{digest[:16]}",
                        project_id="/Users/dain/workspace/claude-code-log",
                        user_id="dain",
                        source_tool=event.source_tool.value,
                        session_id=event.session_id,
                        timestamp=event.timestamp,
                        event_type=event.event_type.value,
                        content=event.content,
                        file_paths=event.file_paths,
                        hash=digest,
                    )
                )
    return events


async def test_real_claude_code_sessions_yield_sensible_memories() -> None:
    events = [e for f in sorted(FIXTURES.glob("*.jsonl")) for e in _parse_fixture(f)]
    extractor = RulesExtractor()

    candidates = [
        c
        for episode in segment_episodes(events, now=NOW)
        for c in await extractor.extract(episode, events)
    ]

    contents = {(c.key, c.content) for c in candidates}
    assert ("package_manager", "Commands in this project run through uv, its package manager.") in (
        contents
    )
    # The one command the user typed (`<bash-input>uv run ty check`) is not yet a habit.
    assert not any(
        c.type == MemoryType.USER_STYLE and c.key.startswith("pref:") for c in candidates
    )
    # The test recipe names the command; no fact restates it.
    assert any(k == "recipe:test" and "`uv run pytest" in c for k, c in contents)
    assert not any(k == "test_command" for k, _ in contents)
    assert any(k == "language" and c.startswith("Python project") for k, c in contents)
    assert any(k == "recipe:verify" and "ruff" in c for k, c in contents)
    (pitfall,) = [c for c in candidates if c.type == MemoryType.PITFALL]
    assert pitfall.content.startswith("`uv run ty check` failed with `error[call-non-callable]")
    assert pitfall.file_paths == ("test/test_cache.py",)
    assert not any(c.type == MemoryType.USER_STYLE and c.scope == Scope.USER for c in candidates)


async def test_extraction_leaves_the_event_loop_free(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long episode's rules run off the event loop: while they run, the loop still answers
    (here the loop itself releases the extraction; run on the loop, it would wait in vain)."""
    release = threading.Event()
    waited: list[bool] = []

    def slow(self: RulesExtractor, episode: Episode, events: list[StoredEvent]) -> list[Any]:
        waited.append(release.wait(timeout=5.0))
        return []

    monkeypatch.setattr(RulesExtractor, "extract_sync", slow)
    stream = Stream()
    stream.user("Add the dependency.")
    running = asyncio.create_task(extract(stream))
    await asyncio.sleep(0)
    release.set()

    assert await running == []
    assert waited == [True]
