"""A summary's list items, read as the assistant wrote them: each sentence of an item on its
own, bold words that open a sentence as its subject (not a label), and a closing report's
sentence that opens with a placement's clause said once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _facts(
    root: str, listing: str, listed: str, reply: str, ask: str = "How is it organised?"
) -> list[str]:
    session = Session(root, "s1", START)
    session.user(ask)
    session.run(listing, 0, listed)
    session.say(reply)
    return [c.content for c in session.extracted() if c.type is MemoryType.PROJECT_FACT]


PHOENIX = (
    "/home/fi/src/bazaar",
    "find lib -maxdepth 2",
    "lib\nlib/bazaar\nlib/bazaar/accounts\nlib/bazaar/orders\nlib/bazaar/repo.ex\n"
    "lib/bazaar_web\nlib/bazaar_web/controllers\nlib/bazaar_web/live\nlib/bazaar_web/router.ex",
)
GO = (
    "/home/gus/w/billing",
    "find . -maxdepth 2 -type d",
    "./cmd\n./cmd/billingd\n./internal\n./internal/http\n./internal/ledger\n./migrations",
)


@pytest.mark.parametrize(
    ("where", "item", "kept"),
    [
        (
            PHOENIX,
            "- **Contexts** live in `lib/bazaar/`: accounts and orders, each with its schemas. "
            "Web code never touches `Repo` directly.",
            "Contexts live in `lib/bazaar/`",
        ),
        (
            GO,
            "- Handlers live in `internal/http/`, one file per resource. They never open a "
            "database connection themselves.",
            "Handlers live in `internal/http/`",
        ),
    ],
)
def test_a_list_items_second_sentence_does_not_rule_out_its_first(
    where: tuple[str, str, str], item: str, kept: str
) -> None:
    facts = _facts(*where, f"Here is the shape of it:\n\n{item}\n")
    assert any(f.startswith(kept) for f in facts), facts


def test_a_list_items_plan_is_still_no_layout() -> None:
    facts = _facts(
        *GO, "Plan:\n\n- I will move the handlers to `internal/http/`. They are in `cmd/` now.\n"
    )
    assert not any("internal/http" in f for f in facts), facts


@pytest.mark.parametrize(
    ("where", "item", "said"),
    [
        (
            PHOENIX,
            "- **Web layer** is `lib/bazaar_web/`: the routes are in `router.ex`.",
            "Web layer is `lib/bazaar_web/`",
        ),
        (
            GO,
            "- **The ledger** lives in `internal/ledger/`, with its rules.",
            "The ledger lives in",
        ),
    ],
)
def test_bold_words_that_open_a_sentence_are_its_subject_not_a_label(
    where: tuple[str, str, str], item: str, said: str
) -> None:
    facts = _facts(*where, f"Overview:\n\n{item}\n")
    assert any(f.startswith(said) for f in facts), facts
    assert not any(": is " in f or ": lives " in f for f in facts), facts


@pytest.mark.parametrize("colon", ["**Storefront pages:**", "**Storefront pages**:"])
def test_a_bold_label_with_its_colon_is_still_a_label(colon: str) -> None:
    facts = _facts(
        *PHOENIX,
        f"Overview:\n\n- {colon} it is in `lib/bazaar_web/live/`, one LiveView per page.\n",
    )
    assert any(f.startswith("Storefront pages: it is in") for f in facts), facts


def test_a_reports_sentence_opening_with_a_placements_clause_is_said_once() -> None:
    facts = _facts(
        *GO,
        "It's a small layered service:\n\n1. `internal/http` holds the handlers; they only "
        "parse requests and call `ledger`.\n2. `internal/ledger` is the domain: invoices and "
        "credits.\n",
        ask="how is this service structured?",
    )
    handlers = [f for f in facts if "holds the handlers" in f]
    assert len(handlers) == 1, facts
