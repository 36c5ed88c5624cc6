"""An assistant sentence about the project is kept only when every specific term it names is in
what the session's tools returned before it, in any ecosystem (a Go service, an Elixir app); a
narration, a plan, a sentence whose term only the assistant's own edit holds, one about another
repository's file and one that names nothing specific are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bench.corroborated_rule import (
    KEY_PREFIX,
    PITFALL_KEY_PREFIX,
    PREFIX,
    corroborated,
    shown,
    terms,
)
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

GO_ROOT = "/home/dev/gateway"
GO_FILE = "internal/config/config.go"
GO_TEXT = (
    "package config\n\n"
    "func Load() Config {\n"
    '\tport := os.Getenv("GATEWAY_PORT")\n'
    '\tif port == "" {\n\t\tport = "8080"\n\t}\n'
    "\treturn Config{Port: port}\n}\n"
)
GO_SAID = "`Load` in `internal/config/config.go` reads `GATEWAY_PORT` and falls back to 8080."

EX_ROOT = "/home/dev/shop"
EX_FILE = "lib/shop/repo.ex"
EX_TEXT = (
    "defmodule Shop.Repo do\n"
    "  use Ecto.Repo, otp_app: :shop, adapter: Ecto.Adapters.Postgres\nend\n"
)
EX_SAID = "The `Shop.Repo` module uses the `Ecto.Adapters.Postgres` adapter for `:shop`."


def _session(root: str, path: str, text: str, said: str) -> Session:
    session = Session(root, "s1", T0)
    session.user("How is the configuration loaded?")
    session.read(path, text)
    session.say(said)
    return session


@pytest.mark.parametrize(
    ("root", "path", "text", "said", "folder"),
    [
        (GO_ROOT, GO_FILE, GO_TEXT, GO_SAID, "internal/config"),
        (EX_ROOT, EX_FILE, EX_TEXT, EX_SAID, "lib/shop"),
    ],
)
def test_a_sentence_the_tools_back_is_a_scoped_fact(
    root: str, path: str, text: str, said: str, folder: str
) -> None:
    session = _session(root, path, text, said)
    (found,) = corroborated(session.events)
    assert found.content == f"{PREFIX} (`{folder}/`): {said}"
    assert found.key.startswith(KEY_PREFIX)
    assert not found.pitfall
    assert found.event_ids == (session.events[-1].id,)


@pytest.mark.parametrize(
    ("root", "path", "text", "said"),
    [
        # narration of the assistant's own step
        (GO_ROOT, GO_FILE, GO_TEXT, "I added `GATEWAY_PORT` handling to `Load` in `config.go`."),
        (EX_ROOT, EX_FILE, EX_TEXT, "Now let me check how `Shop.Repo` picks its adapter."),
        # a plan and a hedge
        (GO_ROOT, GO_FILE, GO_TEXT, "`Load` will read `GATEWAY_PORT` after the refactor."),
        (
            EX_ROOT,
            EX_FILE,
            EX_TEXT,
            "The `Shop.Repo` module probably uses `Ecto.Adapters.Postgres`.",
        ),
        # a question
        (GO_ROOT, GO_FILE, GO_TEXT, "Does `Load` read `GATEWAY_PORT` before 8080?"),
        # a term no tool showed (the port the sentence says is not the file's)
        (GO_ROOT, GO_FILE, GO_TEXT, "`Load` in `internal/config/config.go` falls back to 9090."),
        (
            EX_ROOT,
            EX_FILE,
            EX_TEXT,
            "The `Shop.Repo` module uses the `Ecto.Adapters.MyXQL` adapter.",
        ),
        # nothing specific named
        (EX_ROOT, EX_FILE, EX_TEXT, "The repository module uses a database adapter from config."),
    ],
)
def test_no_fact_from_narration_a_plan_a_question_or_an_unshown_term(
    root: str, path: str, text: str, said: str
) -> None:
    assert corroborated(_session(root, path, text, said).events) == []


@pytest.mark.parametrize(
    ("root", "written", "content", "path", "text", "said"),
    [
        (
            GO_ROOT,
            "internal/retry/retry.go",
            "package retry\n\nconst MaxRetries = 5\n",
            GO_FILE,
            GO_TEXT,
            "`MaxRetries` in `internal/retry/retry.go` is 5, beside `Load`.",
        ),
        (
            EX_ROOT,
            "lib/shop/mailer.ex",
            "defmodule Shop.Mailer do\n  use Swoosh.Mailer, otp_app: :shop\nend\n",
            EX_FILE,
            EX_TEXT,
            "The `Shop.Mailer` module uses `Swoosh.Mailer` beside `Shop.Repo`.",
        ),
    ],
)
def test_a_term_only_the_assistants_own_edit_holds_is_not_corroborated(
    root: str, written: str, content: str, path: str, text: str, said: str
) -> None:
    session = Session(root, "s1", T0)
    session.user("Add the module.")
    session.write(written, content)
    session.say("Done.")
    session.user("How does it fit with the rest?")
    session.read(path, text)
    session.say(said)
    assert corroborated(session.events) == []
    # The same sentence after the file was read back: now the tools show it.
    session.read(written, content)
    session.say(said)
    assert [f.said for f in corroborated(session.events)] == [said]


def test_a_sentence_about_another_repositorys_file_is_not_kept() -> None:
    session = Session(EX_ROOT, "s1", T0)
    session.user("How does the other service define its repo?")
    session.read(EX_FILE, EX_TEXT)
    session.run("cat /home/dev/billing/lib/billing/repo.ex", 0, "defmodule Billing.Repo do\nend\n")
    session.say("`/home/dev/billing/lib/billing/repo.ex` defines `Billing.Repo` beside this app.")
    assert corroborated(session.events) == []


def test_a_reply_after_the_turns_change_narrates_it() -> None:
    session = Session(GO_ROOT, "s1", T0)
    session.user("Make the port configurable.")
    session.read(GO_FILE, GO_TEXT)
    session.edit_lines(GO_FILE, '"8080"', '"9090"')
    session.say(GO_SAID)
    assert corroborated(session.events) == []


def test_a_cause_after_a_failure_is_a_pitfall() -> None:
    session = Session(EX_ROOT, "s1", T0)
    session.user("Run the tests.")
    session.read(EX_FILE, EX_TEXT)
    session.run(
        "mix test",
        1,
        '** (Mix) The database for Shop.Repo couldn\'t be created: database "shop_test" '
        "does not exist",
    )
    said = "`Shop.Repo` fails because the `shop_test` database does not exist."
    session.say(said)
    (found,) = corroborated(session.events)
    assert found.pitfall
    assert found.key.startswith(PITFALL_KEY_PREFIX)
    assert found.said == said


def test_terms_are_names_not_words() -> None:
    said = "The `Repo` module uses Ecto.Adapters.Postgres on port 8080 via config/dev.exs."
    assert terms(said) == ["Repo", "Ecto.Adapters.Postgres", "8080", "config/dev.exs"]
    # words of the trade and a link's address are not names of the project
    assert terms("The CLI opens a PR, see [the docs](https://example.com/a_b).") == []
    assert shown("8080", "port = 8080\n")
    assert not shown("808", "port = 8080\n")
    assert shown("Postgres", "adapter: postgres")
