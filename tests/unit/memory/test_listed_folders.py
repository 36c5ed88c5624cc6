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


def test_the_names_a_listing_prints_after_a_cd_are_that_folders() -> None:
    s = Session(ROOT, "s1", T0)
    s.run("ls", 0, "Gemfile\nexe\nlib\nspec\n")
    s.run("cd spec/fixtures/site && ls", 0, "blog\nmanage.py\ntemplates\n")
    s.run("cd ./web && ls src", 0, "app.ts\n")
    s.run(f"cd {ROOT}/api && ls", 0, "handlers.rb\n")
    s.run(f"cd {ROOT} && ls", 0, "Rakefile\n")
    # A move out of the project, or to a folder named by a variable, places nothing.
    s.run("cd /tmp && ls", 0, "scratch\n")
    s.run("cd $HOME && ls", 0, "notes\n")
    found = printed_paths(s.events)
    assert {"spec/fixtures/site/blog", "spec/fixtures/site/manage.py"} <= found.keys()
    assert "blog" not in found and "manage.py" not in found and "templates" not in found
    assert {"web/src/app.ts", "api/handlers.rb", "Rakefile"} <= found.keys()
    assert "scratch" not in found and "notes" not in found


def test_a_fixtures_tree_listed_from_inside_it_is_not_the_projects_layout() -> None:
    s = Session(ROOT, "s1", T0)
    s.user("The linter misses the include in the fixture site's base template. Look at it.")
    s.run("ls", 0, "Gemfile\nexe\nlib\nspec\n")
    s.run("cd spec/fixtures/site && ls", 0, "blog\nmanage.py\ntemplates\n")
    s.say(
        "Layout:\n- `blog/` — the app: its models and views\n"
        "- `templates/` — the base template and the blog's"
    )
    assert [f.path for f in reply_layout(s.events)] == []
