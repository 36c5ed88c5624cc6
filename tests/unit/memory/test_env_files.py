"""The settings an environment file names, by name only: the same rule in every ecosystem, and
where it must not speak (a dependency's, an example's or test data's file, a partial read,
lower-case keys, values)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.env_files import is_env_file, variables
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"
SECRET = "s3cr3t-value-9f8e7d"


def _session() -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("Where does the app get its database from?")
    return session


def _env_facts(session: Session) -> dict[str, str]:
    return {c.key: c.content for c in session.extracted() if c.key.startswith("env_file:")}


# A Rust server's local `.env`, a Rails app's `.env_sample`, a Node app's `.env.example`,
# a Python service's `.env.local` with `export` lines.
FILES = [
    (".env", "WEB_URL=http://127.0.0.1:8080\nDATABASE_URL=postgresql://localhost\n"),
    (".env_sample", 'HONEYBADGER_API_KEY="Optional"\n# BETTERSTACK_SOURCE_TOKEN=\n'),
    (".env.example", "API_URL=\nLOG_LEVEL=info\n"),
    ("api/.env.local", f"export SECRET_KEY={SECRET}\nexport DEBUG=1\n"),
]


@pytest.mark.parametrize(("path", "text"), FILES, ids=[p for p, _ in FILES])
async def test_a_whole_read_names_the_files_variables_and_never_their_values(
    path: str, text: str
) -> None:
    session = _session()
    session.read(path, text)

    said = _env_facts(session)[f"env_file:{path}"]

    set_names, commented = variables(text)
    assert all(f"`{name}`" in said for name in set_names + commented)
    assert "=" not in said
    assert SECRET not in said and "localhost" not in said and "info" not in said


async def test_a_template_documents_and_a_local_file_sets() -> None:
    session = _session()
    session.read(".env.example", "API_URL=\n# SENTRY_DSN=\n")
    session.read(".env", "API_URL=http://localhost\n")

    found = _env_facts(session)

    assert found["env_file:.env.example"] == (
        "`.env.example` documents the environment variables `API_URL`; "
        "commented out (optional): `SENTRY_DSN`."
    )
    assert found["env_file:.env"] == "`.env` sets `API_URL`."


async def test_an_edit_names_only_the_variables_it_added() -> None:
    session = _session()
    session.edit_lines(
        ".env_sample",
        'HONEYBADGER_JS_API_KEY="Optional"\n',
        'HONEYBADGER_JS_API_KEY="Optional"\n\n# Better Stack logs.\n# BETTERSTACK_SOURCE_TOKEN=\n',
    )

    said = _env_facts(session)["env_file:.env_sample"]

    assert "`BETTERSTACK_SOURCE_TOKEN`" in said and "commented out" in said
    assert "HONEYBADGER" not in said


async def test_a_write_names_what_it_wrote() -> None:
    session = _session()
    session.write(".env.development", "PORT=3000\nMIX_ENV=dev\n")

    assert "`PORT` and `MIX_ENV`" in _env_facts(session)["env_file:.env.development"]


@pytest.mark.parametrize(
    "path",
    [
        "node_modules/dep/.env.example",
        "vendor/lib/.env",
        "examples/demo/.env",
        "tests/fixtures/app/.env",
        "docs/.env.example",
        "environment.py",
        ".envrc",
        "config/.envs",
    ],
)
async def test_files_of_dependencies_examples_test_data_and_other_names_say_nothing(
    path: str,
) -> None:
    session = _session()
    session.read(path, "API_URL=http://x\nLOG_LEVEL=info\n")

    assert _env_facts(session) == {}


async def test_lower_case_keys_comments_and_prose_are_no_variables() -> None:
    session = _session()
    session.read(".env", "# Set these before running\nport=3000\nsome text\n")

    assert _env_facts(session) == {}


async def test_a_partial_read_says_nothing() -> None:
    session = _session()
    use = "t99"
    full = f"{ROOT}/.env"
    session.add("tool_call", {"tool": "Read", "tool_use_id": use, "input": {}}, (full,))
    session.add(
        "tool_result",
        {
            "tool": "Read",
            "tool_use_id": use,
            "output": "    85→API_URL=http://x\n",
            "is_error": False,
        },
        (full,),
    )

    assert _env_facts(session) == {}


def test_env_file_names() -> None:
    assert is_env_file(".env") and is_env_file("server/.env.production")
    assert is_env_file(".env_sample") and is_env_file(".env-template")
    assert not is_env_file("env.py") and not is_env_file(".envrc")
    assert not is_env_file("site-packages/x/.env")


async def test_a_variable_set_below_its_commented_out_alternatives_is_set() -> None:
    text = (
        '# DATABASE_URL="sqlite:///var/data.db"\n'
        '# DATABASE_URL="mysql://app@127.0.0.1:3306/app"\n'
        'DATABASE_URL="postgresql://app@127.0.0.1:5432/app"\n# MAILER_DSN=null://null\n'
    )
    assert variables(text) == (["DATABASE_URL"], ["MAILER_DSN"])
    session = _session()
    session.read(".env", text)
    assert _env_facts(session) == {
        "env_file:.env": "`.env` sets `DATABASE_URL`; commented out (optional): `MAILER_DSN`."
    }
