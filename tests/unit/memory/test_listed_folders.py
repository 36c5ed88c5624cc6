"""The bare names a listing of a named folder prints are that folder's entries, not the
project root's (`file_reads.printed_paths`)."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.file_reads import printed_paths
from squirrel_memory.extractors.reply_layout import reply_layout
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/gemup"


def test_an_ls_of_a_folder_prints_that_folders_entries() -> None:
    s = Session(ROOT, "s1", T0)
    s.run("ls", 0, "Gemfile\nexe\nlib\nspec\n")
    s.run("ls spec/fixtures/legacy_gem", 0, "bin\nlib\nlegacy_gem.gemspec\n")
    s.run("ls tests/a tests/b", 0, "tests/a:\nx.rb\n\ntests/b:\ny.rb\n")
    s.run("ls -R docs", 0, "docs:\nguide\n\ndocs/guide:\nstart.md\n")
    s.run("ls src/*.rb", 0, "src/a.rb\n")
    found = printed_paths(s.events)
    assert {"Gemfile", "exe", "lib", "spec"} <= found.keys()
    assert "bin" not in found
    assert "legacy_gem.gemspec" not in found
    assert {"spec/fixtures/legacy_gem/bin", "spec/fixtures/legacy_gem/legacy_gem.gemspec"} <= (
        found.keys()
    )
    assert {"tests/a/x.rb", "tests/b/y.rb", "docs/guide", "docs/guide/start.md", "src/a.rb"} <= (
        found.keys()
    )
    assert "x.rb" not in found and "start.md" not in found


def test_a_fixtures_structure_the_assistant_reports_is_not_the_projects_layout() -> None:
    s = Session(ROOT, "s1", T0)
    s.user("Look at the legacy gem fixture and tell me its structure.")
    s.run("ls", 0, "Gemfile\nexe\nlib\nspec\n")
    s.run("ls spec/fixtures/legacy_gem", 0, "bin\nlib\nlegacy_gem.gemspec\n")
    s.say(
        "## Project structure\n\n- `bin/` — the command-line entry points\n"
        "- `lib/` — the library code\n"
    )
    said = [f.content for f in reply_layout(s.events)]
    assert not any("`bin/`" in text for text in said)


def test_a_folder_the_session_made_is_no_layout_whenever_it_is_listed() -> None:
    s = Session("/home/dev/relay", "s1", T0)
    s.user("Scaffold a notifications context.")
    s.write(
        "lib/relay/notifications/notifier.ex", "defmodule Relay.Notifications.Notifier do\nend\n"
    )
    s.say(
        "## Structure\n\n- `lib/relay/notifications/` — the notifications context and its notifier\n"
    )
    s.run("ls lib/relay", 0, "accounts\nnotifications\nrooms\n")
    assert reply_layout(s.events) == []


def test_a_folder_listed_before_the_reply_is_its_layout() -> None:
    s = Session("/home/dev/relay", "s1", T0)
    s.user("What is in lib/relay?")
    s.run("ls lib/relay", 0, "accounts\nnotifications\nrooms\n")
    s.say("## Structure\n\n- `lib/relay/accounts/` — users, their sessions and API tokens\n")
    said = [f.content for f in reply_layout(s.events)]
    assert said == ["`lib/relay/accounts/`: users, their sessions and API tokens."]
