# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `t`: the layout or a design decision said in words where stating it
would be wrong: a stack a layout summary names in passing that nothing showed, a test runner
a summary names against the manifest, layers that are a plan, a folder list the session itself
made or hedged, a layout the user takes back, another service's layout, a design decision
that names a library (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

STORE_IN_PASSING = Trap(
    "layout-names-unseen-database",
    "Python",
    "a layout summary after reading two files names a database and an ORM no file showed",
    (
        Session(
            "claude",
            "/home/vi/code/atlas",
            (
                Ask("Where do the models live?"),
                Run("ls atlas/models", "__init__.py\nuser.py\n"),
                Read(
                    "atlas/models/user.py",
                    "class User:\n    def __init__(self, name: str) -> None:\n        self.name = name\n",
                ),
                Read("atlas/models/__init__.py", "from .user import User\n"),
                Say(
                    "Models are defined in `atlas/models/`, one file per table, all of them SQLAlchemy classes on MySQL."
                ),
            ),
        ),
    ),
    wrong=(
        (r"MySQL", "a database named in passing that no file, manifest or output showed"),
        (r"SQLAlchemy", "an ORM named in passing that no file, manifest or output showed"),
    ),
)

RUNNER_AGAINST_MANIFEST = Trap(
    "layout-names-other-test-runner",
    "Node",
    "a closing summary of the test layout names a runner the manifest does not use",
    (
        Session(
            "claude",
            "/home/vi/code/parcel-api",
            (
                Ask("How are the tests organised?"),
                Read(
                    "package.json",
                    '{\n  "name": "parcel-api",\n  "scripts": { "test": "jest" },\n  "devDependencies": { "jest": "^29.7.0" }\n}\n',
                ),
                Run("ls test", "routes\nservices\n"),
                Say(
                    "Tests are split by layer: route tests in `test/routes/`, service tests in `test/services/`, all run by Vitest in watch mode."
                ),
            ),
        ),
    ),
    wrong=((r"Vitest", "a test runner the summary names against the manifest's jest"),),
    may=(r"jest",),
)

PLANNED_LAYERS = Trap(
    "layers-planned",
    "Go",
    "the assistant lists the layers a module it is about to build will have",
    (
        Session(
            "claude",
            "/home/vi/code/tally",
            (
                Ask("Add a billing module."),
                Run("ls internal", "config\n"),
                Read("cmd/api/main.go", "package main\n\nfunc main() {}\n"),
                Say(
                    "The billing module will have three layers: handlers in `internal/billing/http/`, the service in `internal/billing/service/`, storage in `internal/billing/store/`. Let me start with the store."
                ),
            ),
        ),
    ),
    wrong=((r"internal/billing", "layers a plan names, before any exists"),),
)

MADE_AND_LISTED = Trap(
    "folders-made-then-listed",
    "Elixir",
    "the assistant scaffolds folders, then lists them under a structure heading, and hedges another listing",
    (
        Session(
            "claude",
            "/home/vi/code/relay",
            (
                Ask("Scaffold a notifications context."),
                Write(
                    "lib/relay/notifications/notifier.ex",
                    "defmodule Relay.Notifications.Notifier do\nend\n",
                ),
                Say(
                    "## Structure\n\n- `lib/relay/notifications/` — the notifications context and its notifier\n"
                ),
                Ask("And what's in the rest of lib/?"),
                Run("ls lib/relay", "accounts\nnotifications\nrooms\n"),
                Say(
                    "The layout probably looks like this:\n\n- `lib/relay/accounts/` — users and their tokens\n- `lib/relay/rooms/` — chat rooms and membership\n"
                ),
            ),
        ),
    ),
    wrong=(
        (r"lib/relay/notifications", "a folder the session itself made, listed as the layout"),
        (r"lib/relay/(?:accounts|rooms)", "a hedged listing of folders it had not read"),
    ),
)

LAYOUT_TAKEN_BACK = Trap(
    "user-layout-taken-back",
    "C#",
    "the user states where endpoints go, then moves everything to controllers",
    (
        Session(
            "claude",
            "/home/vi/src/Depot",
            (
                Ask(
                    "We keep one endpoint class per resource under Endpoints/. Add one for warehouses."
                ),
                Read("Endpoints/ProductEndpoints.cs", "public static class ProductEndpoints { }\n"),
                Run("dotnet build", "Build succeeded.\n    0 Warning(s)\n    0 Error(s)\n"),
                Say("Added `Endpoints/WarehouseEndpoints.cs`."),
                Ask(
                    "Never mind, we're moving to controllers under Controllers/ this sprint; put it in a WarehousesController."
                ),
                Say("Moved it to `Controllers/WarehousesController.cs`."),
            ),
        ),
    ),
    wrong=((r"Endpoints/", "a layout the user took back"),),
)

OTHER_SERVICE = Trap(
    "user-layout-of-other-service",
    "Ruby",
    "the user describes another service's layout and a design decision that names a library",
    (
        Session(
            "claude",
            "/home/vi/code/pantry",
            (
                Ask(
                    "In the billing service we keep one job class per queue under app/jobs/, but this app is different. Auth is handled by Devise, not the controllers. Add a /health route."
                ),
                Run("ls app", "controllers\nmodels\nviews\n"),
                Say("Added `get '/health'` to `config/routes.rb`."),
            ),
        ),
    ),
    wrong=(
        (r"app/jobs", "the layout of another service"),
        (r"Devise", "a library named in a design sentence, with no manifest"),
    ),
)

CASES: tuple[Trap, ...] = (
    STORE_IN_PASSING,
    RUNNER_AGAINST_MANIFEST,
    PLANNED_LAYERS,
    MADE_AND_LISTED,
    LAYOUT_TAKEN_BACK,
    OTHER_SERVICE,
)
