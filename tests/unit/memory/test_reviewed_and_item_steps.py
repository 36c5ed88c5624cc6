"""Procedures seen in one session: a change generated, reviewed by the user, then applied; an
item taken through a tool's verbs in order. Several ecosystems, and where each must stay silent."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.item_steps import item_steps
from squirrel_memory.extractors.reviewed_changes import reviewed_changes
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 3, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/shop"


def _reviewed(session: Session) -> list[str]:
    return [c.content for c in reviewed_changes(session.events)]


def _items(session: Session) -> list[str]:
    return [c.content for c in item_steps(session.events)]


def _generated_then(reply: str, answer: str) -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("Orders need a status column; generate the migration and show me.")
    session.run(
        "bin/rails generate migration AddStatusToOrders status:string",
        0,
        "create db/migrate/1_add_status.rb",
    )
    session.say(reply)
    session.user(answer)
    session.run("bin/rails db:migrate", 0, "== AddStatusToOrders: migrated (0.0042s)")
    return session


def test_a_change_generated_reviewed_and_applied_is_a_procedure() -> None:
    session = _generated_then("Here's the migration. OK to run it?", "add a default, then go")
    assert _reviewed(session) == [
        "Changes are reviewed by the user before they are applied: `bin/rails generate "
        "migration <name>` → the user reviews → `bin/rails db:migrate`."
    ]


def test_a_plan_reviewed_then_applied_is_a_procedure() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Add the CNAME; show me the plan first.")
    session.run("terraform plan -out tfplan", 0, "Plan: 1 to add, 0 to change, 0 to destroy.")
    session.say("Plan: 1 to add. Apply?")
    session.user("apply")
    session.run("terraform apply tfplan", 0, "Apply complete! Resources: 1 added.")
    assert _reviewed(session) == [
        "Changes are reviewed by the user before they are applied: `terraform plan -out tfplan` "
        "→ the user reviews → `terraform apply tfplan`."
    ]


def test_no_procedure_when_the_user_declines_or_asks() -> None:
    assert _reviewed(_generated_then("OK to run it?", "no, wait")) == []
    assert _reviewed(_generated_then("OK to run it?", "what does the default do?")) == []


def test_no_procedure_without_a_pause_for_review() -> None:
    assert _reviewed(_generated_then("Generated the migration and ran it.", "thanks")) == []


def test_no_procedure_when_only_checks_ran_before_the_pause() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Fix the spec.")
    session.run("bundle exec rspec", 0, "148 examples, 0 failures")
    session.say("All green. Shall I deploy?")
    session.user("yes")
    session.run("bin/rails db:migrate", 0, "migrated")
    assert _reviewed(session) == []


def test_an_item_taken_through_a_tool_s_verbs_is_a_procedure() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Work the next ticket.")
    session.run("tk list --status open", 0, "T-41 open Trim titles")
    session.run("tk start T-41", 0, "T-41 -> in_progress")
    session.edit("src/entries.ts", "export const x = 1;\n")
    session.run("tk note T-41 'trimmed titles; tests pass'", 0, "note added")
    session.run("tk done T-41", 0, "T-41 -> done")
    assert _items(session) == [
        "With `tk`, an item goes through these steps in order: `tk start <id>` → "
        '`tk note <id> "<text>"` → `tk done <id>`.'
    ]


def test_an_issue_closed_after_a_comment_is_a_procedure() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("gh issue comment 42 --body 'Fixed in 1a2b3c4'", 0, "")
    session.run("gh issue close 42", 0, "Closed issue #42")
    assert _items(session) == [
        "With `gh`, an item goes through these steps in order: `gh issue comment <id> --body "
        '"<text>"` → `gh issue close <id>`.'
    ]


def test_only_looking_at_an_item_is_no_procedure() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("gh issue view 42", 0, "title: Trim titles")
    session.run("gh issue list", 0, "42 Trim titles")
    session.run("gh pr view 42", 0, "title: Trim")
    assert _items(session) == []


def test_known_tools_and_git_name_no_item() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("git show 1234", 0, "")
    session.run("git revert 1234", 0, "")
    session.run("docker stop 1234", 0, "")
    session.run("docker rm 1234", 0, "")
    assert _items(session) == []


def test_a_service_started_before_the_pause_is_no_generated_change() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Add the column.")
    session.edit("alembic/versions/1_add.py", "def upgrade(): ...\n")
    session.run("docker compose up -d db", 0, " Container shop-db-1  Started")
    session.say("The database is up. OK to run the migration?")
    session.user("yes")
    session.run("alembic upgrade head", 0, "Running upgrade -> 1, add column")
    assert _reviewed(session) == []


def test_an_id_carrying_the_tool_s_name_is_an_item() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("bd ready", 0, "bd-a1b2  Trim titles")
    session.run("bd update bd-a1b2 --status in_progress", 0, "Updated bd-a1b2")
    session.edit("src/entries.ts", "export const x = 1;\n")
    session.run("bd close bd-a1b2 --reason 'trimmed titles'", 0, "Closed bd-a1b2")
    assert _items(session) == [
        "With `bd`, an item goes through these steps in order: `bd update <id> --status "
        'in_progress` → `bd close <id> --reason "<text>"`.'
    ]


def test_a_name_with_the_tool_s_prefix_but_no_digit_is_no_item() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("kit add kit-core", 0, "")
    session.run("kit remove kit-core", 0, "")
    assert _items(session) == []
