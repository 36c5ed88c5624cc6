"""Outcomes of served memories: used, missed, contradicted or unused, from what came after."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from squirrel_memory.extractors.pitfalls import error_fingerprint, fingerprint_key
from squirrel_memory.models import StoredEvent
from squirrel_memory.outcomes.verdict import (
    Outcome,
    ServedMemory,
    SessionActivity,
    negative,
    outcome_of,
    session_activity,
    stated_commands,
)

ROOT = "/work/app"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
NOT_FOUND = "/bin/bash: line 1: pytest: command not found"
PITFALL = ServedMemory(
    "pitfall",
    fingerprint_key(error_fingerprint(NOT_FOUND)),
    f"`pytest` failed with `{NOT_FOUND}`; re-running it as "
    "`source .venv/bin/activate && pytest` worked.",
)
RECIPE = ServedMemory("recipe", "recipe:lint", "To lint: `ruff check src`.")
STYLE = ServedMemory("user_style", "pref:push_main", "Never push to main.")


def at(minute: int) -> datetime:
    return START + timedelta(minutes=minute)


class Events:
    def __init__(self) -> None:
        self.events: list[StoredEvent] = []

    def _add(self, minute: int, kind: str, content: dict[str, Any], paths: tuple[str, ...] = ()):
        self.events.append(
            StoredEvent(
                id=f"e{len(self.events):03d}",
                project_id=ROOT,
                user_id="",
                source_tool="claude_code",
                session_id="s",
                timestamp=at(minute),
                event_type=kind,
                content=content,
                file_paths=paths,
                hash="",
            )
        )
        return self

    def say(self, minute: int, text: str) -> Events:
        return self._add(minute, "assistant_response", {"text": "Done."})._add(
            minute, "user_message", {"text": text}
        )

    def run(self, minute: int, command: str, code: int = 0, output: str = "ok") -> Events:
        content = {"command": command, "exit_code": code, "is_error": code != 0, "output": output}
        return self._add(minute, "command_run", content)

    def read(self, minute: int, path: str) -> Events:
        return self._add(minute, "tool_result", {"output": "…"}, (f"{ROOT}/{path}",))

    def activity(self) -> SessionActivity:
        return session_activity("s", self.events, ROOT)


def served_at(memory: ServedMemory, minute: int) -> ServedMemory:
    return ServedMemory(memory.type, memory.key, memory.content, at(minute))


def test_a_served_pitfall_whose_error_happens_anyway_is_missed() -> None:
    session = (
        Events().run(5, "pytest", 127, NOT_FOUND).run(6, "source .venv/bin/activate && pytest")
    )
    assert outcome_of(PITFALL, session.activity(), ROOT) is Outcome.MISSED


def test_a_pitfall_whose_trigger_ran_without_its_error_was_used() -> None:
    session = Events().run(5, "source .venv/bin/activate && pytest", 0, "3 passed")
    assert outcome_of(PITFALL, session.activity(), ROOT) is Outcome.USED


def test_an_error_before_the_pitfall_was_served_does_not_make_it_missed() -> None:
    session = Events().run(5, "pytest", 127, NOT_FOUND)
    assert outcome_of(served_at(PITFALL, 10), session.activity(), ROOT) is Outcome.UNUSED


def test_a_recipe_that_ran_is_used_and_one_that_always_failed_is_contradicted() -> None:
    assert outcome_of(RECIPE, Events().run(3, "ruff check src").activity()) is Outcome.USED
    through_uv = Events().run(3, "uv run ruff check --fix").activity()
    assert outcome_of(RECIPE, through_uv) is Outcome.USED  # the same tool for the same purpose
    failing = Events().run(3, "ruff check src", 2, "error: unknown option").activity()
    assert outcome_of(RECIPE, failing) is Outcome.CONTRADICTED
    flaky = Events().run(3, "ruff check src", 1, "E501").run(4, "ruff check src").activity()
    assert outcome_of(RECIPE, flaky) is Outcome.USED
    assert outcome_of(RECIPE, Events().run(3, "mypy src").activity()) is Outcome.UNUSED


def test_an_instruction_stated_again_is_missed_and_its_opposite_contradicts_it() -> None:
    again = Events().say(4, "No, never push to main.").activity()
    assert outcome_of(STYLE, again) is Outcome.MISSED
    opposite = Events().say(4, "Always push to main.").activity()
    assert outcome_of(STYLE, opposite) is Outcome.CONTRADICTED
    # Said with the very message whose answer served it: not after it was served.
    assert outcome_of(served_at(STYLE, 4), again) is Outcome.UNUSED


def test_a_memory_naming_a_file_the_session_touched_after_it_was_served_is_used() -> None:
    fact = ServedMemory("project_fact", "", "The parser lives in src/parser.py.")
    session = Events().read(6, "src/parser.py").activity()
    assert outcome_of(fact, session) is Outcome.USED
    assert outcome_of(served_at(fact, 8), session) is Outcome.UNUSED


def test_a_search_of_the_project_root_uses_no_memory() -> None:
    # A session that searched `.` (the root, as a Grep without a path reports it) and touched
    # nothing else used neither a fact nor a preference, whatever their text.
    fact = ServedMemory("project_fact", "", "Framework: Built with Textual.")
    style = ServedMemory("user_style", "pref:simple", "The user asks for the simplest way.")
    session = Events().read(6, ".").read(7, "..").activity()
    assert outcome_of(fact, session) is Outcome.UNUSED
    assert outcome_of(style, session) is Outcome.UNUSED
    named = ServedMemory("project_fact", "", "The parser lives in src/parser.py.")
    assert outcome_of(named, Events().read(6, ".").read(7, "src/parser.py").activity()) is (
        Outcome.USED
    )


def test_the_readers_of_commands_and_polarity() -> None:
    stated = stated_commands("Run `uv run pytest -x` then `cd web && npm test`.", ROOT)
    assert [s.base for s in stated] == ["uv run pytest", "npm test"]
    assert (stated[0].tool, stated[0].purpose) == ("pytest", "test")
    assert negative("Don't add notes.") and negative("never push") and not negative("Use uv.")


def test_a_pitfall_s_failed_command_running_again_is_no_use_of_it() -> None:
    """A pitfall of a failing test fixed by an edit: the suite running again later, without
    the error, is what every session does, not the warning heeded."""
    edited = ServedMemory(
        "pitfall",
        "pitfall:assert-total",
        "`uv run pytest tests/test_cart.py -v` failed with `AssertionError: 3 != 4`; "
        "changing `round(total)` to `total` in cart.py fixed it.",
    )
    session = Events().run(5, "uv run pytest tests/test_cart.py -v", 0, "9 passed")
    assert outcome_of(edited, session.activity(), ROOT) is Outcome.UNUSED
    typecheck = ServedMemory(
        "pitfall",
        "pitfall:tsc-any",
        "`npx tsc --noEmit` failed with `TS7006: Parameter 'e' implicitly has an 'any' type`; "
        "it passed after editing src/events.ts, named in the error.",
    )
    again = Events().run(5, "npx tsc --noEmit", 0, "")
    assert outcome_of(typecheck, again.activity(), ROOT) is Outcome.UNUSED


def test_a_pitfall_s_remedy_that_ran_is_a_use_of_it() -> None:
    """Trap: the command the pitfall says worked, run after it was served, is its advice taken."""
    folder = ServedMemory(
        "pitfall",
        "pitfall:cargo-root",
        "`cargo test` failed with `could not find Cargo.toml`; running it in `crates/core` "
        "as `cargo test -p core` worked.",
    )
    session = Events().run(5, "cargo test -p core", 0, "ok")
    assert outcome_of(folder, session.activity(), ROOT) is Outcome.USED
    assert outcome_of(PITFALL, Events().run(5, "pytest", 0, "3 passed").activity(), ROOT) is (
        Outcome.USED  # the remedy `source .venv/bin/activate && pytest` runs `pytest`
    )


def test_a_file_written_in_a_folder_a_memory_names_uses_it() -> None:
    """`tests/` or `spec/` named as where the tests live: a session that then works on a test
    there went where the memory said."""
    python = ServedMemory("project_fact", "tests_folder", "Tests live in `tests/` (`tests/a.py`).")
    assert outcome_of(python, Events().read(6, "tests/test_cart.py").activity()) is Outcome.USED
    ruby = ServedMemory("project_fact", "tests_folder", "Specs live in `spec/requests/`.")
    session = Events().read(6, "spec/requests/orders_spec.rb").activity()
    assert outcome_of(ruby, session) is Outcome.USED


def test_a_folder_a_memory_does_not_name_so_uses_nothing() -> None:
    """Traps: a file beside the folder, a folder named without its slash in backticks, the
    root, and a touch before the memory was served."""
    fact = ServedMemory("project_fact", "tests_folder", "Tests live in `tests/`.")
    assert outcome_of(fact, Events().read(6, "tests_old/a.py").activity()) is Outcome.UNUSED
    assert outcome_of(fact, Events().read(6, "src/tests.py").activity()) is Outcome.UNUSED
    plain = ServedMemory("project_fact", "", "The tests folder holds the suite.")
    assert outcome_of(plain, Events().read(6, "tests/test_a.py").activity()) is Outcome.UNUSED
    root = ServedMemory("recipe", "", "Run from `./`: `make`.")
    assert outcome_of(root, Events().read(6, "src/a.c").activity()) is Outcome.UNUSED
    late = ServedMemory("project_fact", "tests_folder", "Tests live in `tests/`.", at(8))
    assert outcome_of(late, Events().read(6, "tests/test_a.py").activity()) is Outcome.UNUSED


def test_a_file_name_counts_only_whole() -> None:
    """A touched file whose name ends another file's name (`cache.py` in `test_cache.py`,
    `test.ts` in `app.test.ts`) is not the file the memory names; the file itself is."""
    python = ServedMemory("project_fact", "tests_folder", "Tests cover `test/test_cache.py`.")
    assert outcome_of(python, Events().read(6, "lib/cache.py").activity()) is Outcome.UNUSED
    assert outcome_of(python, Events().read(6, "test/test_cache.py").activity()) is Outcome.USED
    script = ServedMemory("project_fact", "", "The entry is src/app.test.ts, run by vitest.")
    assert outcome_of(script, Events().read(6, "lib/test.ts").activity()) is Outcome.UNUSED
    assert outcome_of(script, Events().read(6, "src/app.test.ts").activity()) is Outcome.USED


def test_a_searched_folder_names_no_memory_that_only_goes_through_it() -> None:
    """A session that searched `src` or `test` (a Grep or Glob over a folder) did not use every
    memory quoting a path under it, nor one where the folder's name is part of a word."""
    module = ServedMemory("project_fact", "module:agents", "Module `agents`: `src/agents/a.ts`.")
    assert outcome_of(module, Events().read(6, "src").activity()) is Outcome.UNUSED
    go = ServedMemory("project_fact", "module:store", "Module `store`: internal/store/db.go.")
    assert outcome_of(go, Events().read(6, "internal").activity()) is Outcome.UNUSED
    framework = ServedMemory("project_fact", "testing", "Tests are written with pytest.")
    assert outcome_of(framework, Events().read(6, "test").activity()) is Outcome.UNUSED
    # Traps: a memory that names the folder itself is used by a search of it.
    specs = ServedMemory("project_fact", "tests_folder", "Specs live in `spec/`.")
    assert outcome_of(specs, Events().read(6, "spec").activity()) is Outcome.USED
    plain = ServedMemory("project_fact", "", "Generated code goes to internal/gen, never edit.")
    assert outcome_of(plain, Events().read(6, "internal/gen").activity()) is Outcome.USED


def test_a_command_a_pitfall_shows_with_its_error_is_no_remedy() -> None:
    """`X` → `E` in a pitfall shows a command that failed: the everyday test command running
    again later is not the advice ("run commands from the root") taken."""
    shell = ServedMemory(
        "pitfall",
        "pitfall:shell-folder:test",
        "Paths written from the repository root do not resolve while the shell is still in "
        "`test/` after a `cd`: run commands from the root (`ruff check app/a.py` → `E902 No "
        "such file`; `uv run pytest test/t.py -v` → `ERROR: file or directory not found`).",
    )
    assert outcome_of(shell, Events().run(5, "uv run pytest", 0, "3 passed").activity(), ROOT) is (
        Outcome.UNUSED
    )
    node = ServedMemory(
        "pitfall",
        "pitfall:shell-folder:web",
        "Paths do not resolve while the shell is still in `web/`; from there (`npx eslint "
        "web/a.ts` → `No files matching`), run from the root: `npm run lint`.",
    )
    session = Events().run(5, "npx eslint web/a.ts", 0, "").activity()
    assert outcome_of(node, session, ROOT) is Outcome.UNUSED
    # Trap: the remedy it states, run, is still a use.
    assert outcome_of(node, Events().run(5, "npm run lint", 0, "").activity(), ROOT) is (
        Outcome.USED
    )


def test_the_source_a_memory_cites_is_no_use_of_it() -> None:
    """Reading the README a fact was read from, or running the `--help` it quotes, is the
    session going to the source, not using the memory."""
    about = ServedMemory(
        "project_fact",
        "about",
        "What this project (tally) is and does, per its README.md: counts words.",
    )
    assert outcome_of(about, Events().read(6, "README.md").activity()) is Outcome.UNUSED
    cargo = ServedMemory(
        "project_fact",
        "about",
        "What this project (tally) is and does, per its Cargo.toml: counts words.",
    )
    assert outcome_of(cargo, Events().read(6, "Cargo.toml").activity()) is Outcome.UNUSED
    helped = ServedMemory(
        "project_fact",
        "about",
        "What this project (tally) is and does, per `tally --help`: counts words.",
    )
    assert outcome_of(helped, Events().run(6, "tally --help").activity(), ROOT) is (Outcome.UNUSED)
    # Trap: a file a memory names as what it is about, not as its source, is still used.
    config = ServedMemory("project_fact", "", "Settings live in config/settings.toml.")
    assert outcome_of(config, Events().read(6, "config/settings.toml").activity()) is (Outcome.USED)


def test_a_module_memory_is_used_by_a_session_working_in_one_of_its_files() -> None:
    """A module's text is what the file that speaks for it says of itself, and names no file:
    the files it holds (`MemoryItem.file_paths`) are what it is about."""
    files = (f"{ROOT}/app/renderer.py", "app/templates/page.html")
    module = ServedMemory(
        "project_fact", "module:renderer", "Module `renderer`: Render data to HTML.", files=files
    )
    assert outcome_of(module, Events().read(6, "app/renderer.py").activity(), ROOT) is (
        Outcome.USED
    )
    assert outcome_of(module, Events().read(6, "app/templates/page.html").activity(), ROOT) is (
        Outcome.USED
    )
    # only after it was served, and only its own files
    assert outcome_of(served_at(module, 8), Events().read(6, "app/renderer.py").activity()) is (
        Outcome.UNUSED
    )
    assert outcome_of(module, Events().read(6, "app/parser.py").activity(), ROOT) is (
        Outcome.UNUSED
    )


def test_the_files_of_a_memory_other_than_a_module_are_no_use_of_it() -> None:
    """Trap: a recipe's or a fact's files are where it was read (`package.json`, the README):
    the session reading them again did not follow the memory."""
    recipe = ServedMemory(
        "recipe", "recipe:test", "To run the tests: `npm test`.", files=("package.json",)
    )
    fact = ServedMemory("project_fact", "about", "A word counter.", files=("README.md",))
    session = Events().read(6, "package.json").read(7, "README.md").activity()
    assert outcome_of(recipe, session, ROOT) is Outcome.UNUSED
    assert outcome_of(fact, session, ROOT) is Outcome.UNUSED


def test_a_module_memory_counts_only_the_files_its_line_shows() -> None:
    """A module's line shows its first five files: a sixth, never shown, is no use of it."""
    files = tuple(f"lib/part{n}.py" for n in range(6))
    module = ServedMemory("project_fact", "module:lib", "Module `lib`: Helpers.", files=files)
    assert outcome_of(module, Events().read(6, "lib/part4.py").activity(), ROOT) is Outcome.USED
    assert outcome_of(module, Events().read(6, "lib/part5.py").activity(), ROOT) is (Outcome.UNUSED)
