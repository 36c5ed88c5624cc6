"""A recipe says what its command does when its words say more than its purpose: a migration
generator creates a migration (its name a placeholder), a line of several tasks runs them all.
Shapes from several ecosystems; what must not change: applying migrations, one task."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.evidence.recipe_forms import migration_template, several_tasks
from squirrel_memory.extractors.rules import evidence_candidates
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/src/app"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _recipes(runs: Sequence[str]) -> dict[str, str]:
    """The recipes of one session whose commands all passed."""
    session = Session(ROOT, "s1", T0)
    for command in runs:
        session.run(command, 0, "ok", cwd=ROOT)
    return {
        c.key: c.content for c in evidence_candidates(session.events) if c.key.startswith("recipe:")
    }


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        ("mix ecto.gen.migration add_published_at", "mix ecto.gen.migration <name>"),
        (
            'alembic revision --autogenerate -m "add due date"',
            'alembic revision --autogenerate -m "<message>"',
        ),
        ("python manage.py makemigrations billing", "python manage.py makemigrations"),
        (
            "python manage.py makemigrations billing --name add_due",
            "python manage.py makemigrations --name <name>",
        ),
        (
            "dotnet ef migrations add AddDue --project src/Billing.Data",
            "dotnet ef migrations add <name> --project src/Billing.Data",
        ),
        ("bin/rails generate migration AddSku sku:string", "bin/rails generate migration <name>"),
        ("rails g migration AddSku", "rails g migration <name>"),
        ("php artisan make:migration add_due_to_invoices", "php artisan make:migration <name>"),
        ("knex migrate:make add_users", "knex migrate:make <name>"),
        ("sqlx migrate add -r add_users", "sqlx migrate add -r <name>"),
        (
            "npx sequelize-cli migration:generate --name add-due",
            "npx sequelize-cli migration:generate --name <name>",
        ),
    ],
)
def test_a_migration_generator_is_shown_with_its_name_as_a_placeholder(
    command: str, shown: str
) -> None:
    assert migration_template(command) == shown


@pytest.mark.parametrize(
    "command",
    [
        "mix ecto.migrate",
        "alembic upgrade head",
        "python manage.py migrate",
        "dotnet ef database update",
        "bin/rails db:migrate",
        "mix ecto.gen.migration add_x && mix ecto.migrate",
    ],
)
def test_applying_migrations_is_no_generator(command: str) -> None:
    assert migration_template(command) is None


@pytest.mark.parametrize(
    ("runs", "key", "content"),
    [
        (
            ["mix ecto.gen.migration add_published_at", "mix test"],
            "recipe:new_migration",
            "To create a migration: `mix ecto.gen.migration <name>`.",
        ),
        (
            ["dotnet ef migrations add AddDue", "dotnet test"],
            "recipe:new_migration",
            "To create a migration: `dotnet ef migrations add <name>`.",
        ),
        (
            ['alembic revision --autogenerate -m "add due"', "alembic upgrade head"],
            "recipe:migrate",
            "To migrate the database: `alembic upgrade head`.",
        ),
    ],
)
def test_a_generator_is_never_said_as_migrating_the_database(
    runs: list[str], key: str, content: str
) -> None:
    found = _recipes(runs)

    assert found.get(key) == content, found
    assert not any(
        v.startswith("To migrate the database") and "<name>" in v for v in found.values()
    ), found
    assert not any(
        v.startswith("To migrate the database")
        and ("gen.migration" in v or "migrations add" in v or "revision" in v)
        for v in found.values()
    ), found


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("sbt scalafmtCheckAll test", "to check the formatting and run the tests"),
        ("make lint test", "to lint and run the tests"),
        ("./gradlew ktlintCheck detekt test", "to lint and run the tests"),
        ("sbt compile test", "to build and run the tests"),
    ],
)
def test_a_line_of_several_tasks_says_them_all(command: str, said: str) -> None:
    assert several_tasks(command) == said


@pytest.mark.parametrize(
    "command",
    [
        "sbt test",
        "make test",
        "cargo test --workspace",
        "npm run lint",
        "pytest tests/a tests/b",
        "mvn clean verify",
        "make lint && make test",
        "zig build test",  # one step: the line is the test run a longer pattern knows
    ],
)
def test_one_task_is_said_as_its_purpose(command: str) -> None:
    assert several_tasks(command) is None


def test_a_recipe_of_several_tasks_is_not_said_as_its_first() -> None:
    found = _recipes(["sbt scalafmtCheckAll test", "sbt scalafmtCheckAll test"])

    assert not any(v.startswith("To lint:") for v in found.values()), found
    assert any(
        v.startswith("To check the formatting and run the tests: `sbt scalafmtCheckAll test`")
        for v in found.values()
    ), found


@pytest.mark.parametrize(
    "command",
    [
        'alembic revision --autogenerate -m "add due date',
        "mix ecto.gen.migration 'add_published_at",
        'dotnet ef migrations add "AddDue --project src/Billing.Data',
        'sbt "scalafmtCheckAll test',
        "make lint 'test",
    ],
)
def test_an_unbalanced_quote_leaves_the_command_as_it_is(command: str) -> None:
    # the words cannot be split as the shell would: no form is read from them, nothing is cut
    assert migration_template(command) is None
    assert several_tasks(command) is None


@pytest.mark.parametrize(
    "command",
    [
        'alembic revision --autogenerate -m "add due date',
        "dotnet ef migrations add 'AddDue",
    ],
)
def test_a_generator_with_an_unbalanced_quote_is_still_no_migrating(command: str) -> None:
    found = _recipes([command, command])

    assert not any(v.startswith("To migrate the database") for v in found.values()), found
    assert found.get("recipe:new_migration", "").startswith("To create a migration: `"), found
    assert all(v.count("`") % 2 == 0 for v in found.values()), found
