"""The project's language from the language tools a session ran on it: in every ecosystem,
and never from a task runner, a conflict, a failed run or a run in another folder."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.touched_languages import merged_statement
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 6, 3, tzinfo=UTC)
ROOT = "/home/dev/ledger"
PREFIX = "Commands run on this project in its sessions are "


async def _language(*runs: tuple[str, int]) -> list[str]:
    session = Session(ROOT, "s1", T0)
    session.user("check the formatting and fix what fails")
    for command, code in runs:
        session.run(command, code, "ok\n" if code == 0 else "failed\n")
    found = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(await RulesExtractor().extract(episode, session.events))
    return [c.content for c in found if c.key == "language"]


@pytest.mark.parametrize(
    ("command", "language"),
    [
        ("cargo fmt --check", "Rust"),
        ("go vet ./...", "Go"),
        ("dart test", "Dart"),
        ("swift build", "Swift"),
        ("mix test", "Elixir"),
        ("bundle exec rspec", "Ruby"),
        ("uv run pytest", "Python"),
        ("rebar3 eunit", "Erlang"),
        ("lein test", "Clojure"),
        ("busted", "Lua"),
        ("prove -lr t", "Perl"),
    ],
)
async def test_a_language_tool_checking_the_project_names_its_language(
    command: str, language: str
) -> None:
    assert await _language((command, 0)) == [f"{PREFIX}{language}'s: `{command}`."]


@pytest.mark.parametrize(
    "runs",
    [
        [("cargo build", 0), ("pnpm build", 0)],  # two languages' tools: a conflict
        [("cargo fmt --check", 1)],  # a failed run
        [("cd ../other && cargo test", 0)],  # another folder's
        [("make test", 0)],  # a project task names no language
        [("npm test", 0)],  # JavaScript or TypeScript: no one language
        [("./gradlew test", 0)],  # the JVM's: no one language
        [("docker compose up -d", 0)],  # no language at all
        [("terraform validate", 0)],  # infrastructure, not the code's language
        [("nix flake check", 0)],  # a build of any language
    ],
)
async def test_no_language_from_conflicting_failed_foreign_or_neutral_runs(
    runs: list[tuple[str, int]],
) -> None:
    assert await _language(*runs) == []


def test_any_count_of_files_replaces_the_tools_statement_and_never_the_reverse() -> None:
    tools = f"{PREFIX}Rust's: `cargo fmt --check`."
    touched = "Code worked on in this project's sessions: Swift (4 files) and Rust (3 files)."
    listed = "Code in the files listed by git in this project's sessions: Swift (9 files)."

    assert merged_statement(tools, touched) == touched
    assert merged_statement(touched, tools) == touched
    assert merged_statement(tools, listed) == listed
    assert merged_statement(tools, f"{PREFIX}Go's: `go test ./...`.") == tools


async def test_code_of_another_language_touched_is_a_conflict_and_a_shell_script_is_none() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("format it")
    session.read("lib/post.rb", "code\n")
    session.run("cargo fmt --check", 0, "ok\n")
    beside = Session(ROOT, "s2", T0)
    beside.user("format it")
    beside.read("scripts/release.sh", "code\n")
    beside.run("cargo fmt --check", 0, "ok\n")

    said = {}
    for name, one in (("ruby", session), ("shell", beside)):
        found = []
        for episode in segment_episodes(one.events, now=NOW):
            found.extend(await RulesExtractor().extract(episode, one.events))
        said[name] = [c.content for c in found if c.key == "language"]

    assert said["ruby"] == []
    assert said["shell"] == [f"{PREFIX}Rust's: `cargo fmt --check`."]


async def test_a_run_of_one_spec_shows_the_tool_not_the_file() -> None:
    assert await _language(("bundle exec rspec spec/shelf_spec.rb", 0)) == [
        f"{PREFIX}Ruby's: `bundle exec rspec`."
    ]
    # a whole run later in the session is shown as it was typed
    assert await _language(("mix test test/cart_test.exs:12", 0), ("mix test --cover", 0)) == [
        f"{PREFIX}Elixir's: `mix test --cover`."
    ]


async def test_a_check_of_one_file_shows_how_a_file_is_checked() -> None:
    assert await _language(("ruff check app/cart.py", 0)) == [
        f"{PREFIX}Python's: `ruff check app/cart.py`."
    ]


async def test_a_test_run_that_ran_no_test_is_not_the_command_shown() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("run the tests")
    session.run("bin/rails test", 0, "0 runs, 0 assertions, 0 failures, 0 errors, 0 skips\n")
    session.run("bundle exec rspec", 0, "43 examples, 0 failures\n")
    found = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(await RulesExtractor().extract(episode, session.events))

    assert [c.content for c in found if c.key == "language"] == [
        f"{PREFIX}Ruby's: `bundle exec rspec`."
    ]
