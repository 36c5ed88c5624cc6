"""The project's layout said in words: a lead-in that lists where each layer is, a folder per
feature, the folders the assistant's own reply lists, the layout or a design decision the user
states in a prompt; never a plan, a guess, another repository, a layout the user takes back, a
question, or a stack named in passing that no tool of the session showed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.closing_reports import closing_reports
from squirrel_memory.extractors.placements import placements
from squirrel_memory.extractors.reply_layout import reply_layout
from squirrel_memory.extractors.stack_mentions import stack_names_in, unshown_stack
from squirrel_memory.extractors.told_layout import told_layout
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/app"


def _session(ask: str, reads: dict[str, str], *replies: str, listing: str = "") -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": ask}, origin="typed")
    if listing:
        session.run("ls", 0, listing)
    for path, text in reads.items():
        session.read(path, text)
    for reply in replies:
        session.say(reply)
    return session


GO_READS = {
    "cmd/api/main.go": "package main\n",
    "internal/service/ledger.go": "package service\n",
    "internal/store/entries.go": "package store\n",
}
DOTNET_READS = {
    "src/Web/Program.cs": "var app = builder.Build();\n",
    "src/Application/Orders/PlaceOrder.cs": "public sealed class PlaceOrder {}\n",
    "src/Infrastructure/Db/OrdersRepository.cs": "public class OrdersRepository {}\n",
}


@pytest.mark.parametrize(
    ("reads", "reply", "want"),
    [
        (
            GO_READS,
            "The app has three layers: handlers in `cmd/api/`, services in "
            "`internal/service/`, repositories in `internal/store/`.",
            "The app has three layers: handlers in `cmd/api/`, services in "
            "`internal/service/`, repositories in `internal/store/`.",
        ),
        (
            DOTNET_READS,
            "The solution is split into three projects: the web host in `src/Web/`, use cases "
            "in `src/Application/` and data access in `src/Infrastructure/`.",
            "The solution is split into three projects: the web host in `src/Web/`, use cases "
            "in `src/Application/` and data access in `src/Infrastructure/`.",
        ),
    ],
)
def test_a_lead_in_that_lists_where_each_layer_is_is_one_placement(
    reads: dict[str, str], reply: str, want: str
) -> None:
    found = placements(_session("How is this structured?", reads, reply).events)
    assert [p.content for p in found] == [want]


@pytest.mark.parametrize(
    "reply",
    [
        # A plan: the folders are to be made.
        "The change will have three layers: handlers in `cmd/api/`, services in "
        "`internal/service/`, repositories in `internal/store/`.",
        # A guess.
        "The app probably has three layers: handlers in `cmd/api/`, services in "
        "`internal/service/`, repositories in `internal/store/`.",
        # A part in a folder the session never saw.
        "The app has three layers: handlers in `cmd/api/`, services in "
        "`internal/service/`, repositories in `internal/repo/`.",
        # Not a layout lead-in.
        "Two things stood out: handlers in `cmd/api/`, services in `internal/service/`.",
    ],
)
def test_a_lead_in_list_that_plans_guesses_or_names_unseen_folders_is_not_kept(
    reply: str,
) -> None:
    assert placements(_session("How is this structured?", GO_READS, reply).events) == []


@pytest.mark.parametrize(
    ("reads", "reply", "want"),
    [
        (
            {"Sources/Features/Forecast/ForecastView.swift": "struct ForecastView {}\n"},
            "Each feature is a folder under `Sources/Features/` with its View and ViewModel.",
            "Each feature is a folder under `Sources/Features/` with its View and ViewModel.",
        ),
        (
            {"lib/data/api_client.dart": "class ApiClient {}\n"},
            "Every API call goes through `ApiClient` in `lib/data/api_client.dart`.",
            "Every API call goes through `ApiClient` in `lib/data/api_client.dart`.",
        ),
    ],
)
def test_a_folder_per_feature_and_what_goes_through_a_file_are_placements(
    reads: dict[str, str], reply: str, want: str
) -> None:
    found = placements(_session("Overview please.", reads, reply).events)
    assert [p.content for p in found] == [want]


@pytest.mark.parametrize(
    "reply",
    [
        "Persistence is all in `internal/store/`: it's backed by Postgres via sqlx, one file "
        "per table.",
        "Models are defined in `app/models/`, all of them SQLAlchemy declarative classes.",
    ],
)
def test_a_layout_sentence_naming_a_stack_no_tool_showed_is_not_quoted(reply: str) -> None:
    reads = {"internal/store/store.go": "package store\n", "app/models/user.py": "class U: ...\n"}
    session = _session("How is persistence organised?", reads, reply)
    assert placements(session.events) == []
    assert closing_reports(session.events) == []


def test_a_layout_sentence_naming_a_stack_the_session_showed_stays() -> None:
    reads = {"app/models/user.py": "from sqlalchemy.orm import DeclarativeBase\n"}
    reply = "Models are defined in `app/models/`, all of them SQLAlchemy declarative classes."
    found = placements(_session("Where are the models?", reads, reply).events)
    assert [p.path for p in found] == ["app/models"]


def test_stack_names_are_read_as_whole_words_and_everyday_words_are_not_names() -> None:
    text = "Backed by Postgres via sqlx and Next.js; the next step is to react to pytest runs."
    assert stack_names_in(text) == ["Postgres", "sqlx", "Next.js", "pytest"]
    assert unshown_stack(text, "import postgres\nnext.js\n[dev] pytest") == ["sqlx"]


LISTED_GO = (
    "The repository has three parts:\n\n"
    "- `api/` — the HTTP server and its handlers\n"
    "- `worker/` — the background job runner\n"
)
LISTED_ELIXIR = (
    "## Structure\n\n"
    "- `lib/relay/` — the business contexts, one module per context\n"
    "- `lib/relay_web/` — controllers, LiveViews and the router\n"
)


@pytest.mark.parametrize(
    ("listing", "reads", "reply", "want"),
    [
        (
            "api\ngo.mod\nworker\n",
            {"api/server.go": "package api\n"},
            LISTED_GO,
            ["`api/`: the HTTP server and its handlers.", "`worker/`: the background job runner."],
        ),
        (
            "",
            {
                "lib/relay/rooms.ex": "defmodule Relay.Rooms do\nend\n",
                "lib/relay_web/router.ex": "",
            },
            LISTED_ELIXIR,
            [
                "`lib/relay/`: the business contexts, one module per context.",
                "`lib/relay_web/`: controllers, LiveViews and the router.",
            ],
        ),
    ],
)
def test_the_folders_the_assistants_reply_lists_are_placements(
    listing: str, reads: dict[str, str], reply: str, want: list[str]
) -> None:
    session = _session("What's in this repo?", reads, reply, listing=listing)
    assert [p.content for p in reply_layout(session.events)] == want


def test_a_listed_file_whose_name_a_listing_printed_is_no_folder() -> None:
    # `ls` printed `SKILL.md` and `agents` beside each other: the first is a file.
    session = _session(
        "What's in this repo?",
        {"agents/reader.md": "# Reader\n"},
        "The repository has two parts:\n\n"
        "- `SKILL.md` — the orchestrator with intent routing\n"
        "- `agents/` — the six agent files\n",
        listing="SKILL.md\nagents\n",
    )
    assert [p.content for p in reply_layout(session.events)] == ["`agents/`: the six agent files."]


def test_a_listed_structure_of_folders_the_session_made_or_plans_is_not_the_layout() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Scaffold a billing module."}, origin="typed")
    session.write("internal/billing/service.go", "package billing\n")
    session.say("## Structure\n\n- `internal/billing/` — the billing service and its store\n")
    assert reply_layout(session.events) == []
    plan = _session(
        "Add billing.",
        {"api/server.go": "package api\n"},
        "I'll create this structure:\n\n- `api/billing/` — the billing handlers\n",
    )
    assert reply_layout(plan.events) == []


def test_a_listed_layout_the_user_says_is_wrong_is_not_kept() -> None:
    session = _session(
        "What's in this repo?",
        {"api/server.go": "package api\n"},
        LISTED_GO,
        listing="api\nworker\n",
    )
    session.add(
        "user_message", {"text": "no, worker/ is dead code, api/ is all there is"}, origin="typed"
    )
    assert reply_layout(session.events) == []


def _told(*messages: str, reads: dict[str, str] | None = None) -> list[str]:
    session = Session(ROOT, "s1", T0)
    for text in messages:
        session.add("user_message", {"text": text}, origin="typed")
        for path, content in (reads or {}).items():
            session.read(path, content)
        session.say("Done.")
    return [t.content for t in told_layout(session.events)]


@pytest.mark.parametrize(
    ("message", "reads", "want"),
    [
        (
            "Add a suppliers endpoint. We keep one endpoint class per resource under "
            "Endpoints/, each a static class mapped in Program.cs.",
            {"Endpoints/ProductEndpoints.cs": "public static class ProductEndpoints {}\n"},
            "Layout the user stated: one endpoint class per resource under `Endpoints/`, each "
            "a static class mapped in Program.cs.",
        ),
        (
            "FYI we put one service object per action in `app/services/`. Add a refund one.",
            {"app/services/orders/place.rb": "class Place; end\n"},
            "Layout the user stated: one service object per action in `app/services/`.",
        ),
        (
            "Add the invoices view. Auth is handled by the gateway, not the services, so don't "
            "add permission classes.",
            {},
            "Design decision the user stated: auth is handled by the gateway, not the services.",
        ),
        (
            "Rate limiting is enforced at the edge proxy, not in the app.",
            {},
            "Design decision the user stated: rate limiting is enforced at the edge proxy, "
            "not in the app.",
        ),
    ],
)
def test_the_layout_or_a_design_decision_the_user_states_is_a_project_fact(
    message: str, reads: dict[str, str], want: str
) -> None:
    assert _told(message, reads=reads) == [want]


@pytest.mark.parametrize(
    ("messages", "reads"),
    [
        # A question.
        (("Do we keep the endpoints under Endpoints/?",), {"Endpoints/A.cs": "x\n"}),
        # A hedge and a plan.
        (("I think we keep the endpoints under Endpoints/.",), {"Endpoints/A.cs": "x\n"}),
        (("We will keep the endpoints under Endpoints/ from now on.",), {"Endpoints/A.cs": "x\n"}),
        # A folder nothing shows.
        (("We keep the endpoints under Endpoints/.",), {}),
        # Taken back later in the session.
        (
            (
                "We keep one endpoint class per resource under Endpoints/.",
                "Actually, scrap that: we're moving everything to controllers.",
            ),
            {"Endpoints/A.cs": "x\n"},
        ),
        # A framework named: a stack claim, not a design between parts.
        (("Auth is handled by the gateway, not Django.",), {}),
        (("Sessions are handled by Redis, not the app.",), {}),
        # An example, not this project.
        (("If auth is handled by the gateway, not the services, what changes?",), {}),
    ],
)
def test_a_question_hedge_plan_unseen_folder_or_taken_back_layout_is_not_kept(
    messages: tuple[str, ...], reads: dict[str, str]
) -> None:
    assert _told(*messages, reads=reads) == []


@pytest.mark.parametrize(
    "reply",
    [
        "The layout probably looks like this:\n\n- `api/` — the HTTP server\n- `worker/` — jobs\n",
        "## Structure (roughly, I guess)\n\n- `api/` — the HTTP server\n- `worker/` — jobs\n",
    ],
)
def test_a_hedged_layout_heading_lists_no_layout(reply: str) -> None:
    session = _session("What's in the repo?", {}, reply, listing="api\nworker\n")
    assert reply_layout(session.events) == []


@pytest.mark.parametrize(
    ("path", "reply"),
    [
        ("lib/relay/notifications/notifier.ex", "- `lib/relay/notifications/` — the notifier\n"),
        ("internal/billing/service.go", "- `internal/billing/` -- the billing service\n"),
    ],
)
def test_a_closing_reports_listing_item_is_not_a_statement(path: str, reply: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Scaffold it."}, origin="typed")
    session.write(path, "x\n")
    session.say(reply)
    assert closing_reports(session.events) == []


@pytest.mark.parametrize(
    "message",
    [
        "We put a workaround in `lib/relay/rooms.ex` yesterday.",
        "We keep the fix in lib/relay/rooms.ex for now.",
        "This is done by the deploy script, not by hand.",
    ],
)
def test_one_thing_put_somewhere_once_or_a_pronoun_subject_is_no_layout(message: str) -> None:
    assert _told(message, reads={"lib/relay/rooms.ex": "defmodule Relay.Rooms do\nend\n"}) == []
