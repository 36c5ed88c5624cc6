# ruff: noqa: E501  (transcript text: file contents and replies are kept as one string a line)
"""Made-up sessions in which the project's layout or a design decision is said in words: the
assistant sums up the architecture after reading files, or the user states where things go or
how the project is built (`bench/layout_probe.py` runs them). Every probe, its patterns
included, was written before any rule ran on it.

A `fires` probe should give one project_fact memory that matches every pattern of `expect`; a
must-not-fire probe (`fires=False`: a plan, a hedge, another repository's layout, a statement
the session takes back, the assistant's account of its own change, a question, a suggestion)
should give no project_fact that matches any of its `never` patterns. On every probe no memory
of any type may match `never` (a stack claim the summary makes in passing, above all).
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.trap_transcripts import Ask, Read, Run, Say, Session, one_session


@dataclass(frozen=True)
class Probe:
    """One probe: its shape, ecosystem, sessions, whether a fact is due, the regexes the fact
    must all match (`expect`) and those no memory may match (`never`, each with why)."""

    name: str
    shape: str
    ecosystem: str
    sessions: tuple[Session, ...]
    fires: bool = True
    expect: tuple[str, ...] = ()
    never: tuple[tuple[str, str], ...] = ()


PHOENIX_ROUTES = Probe(
    "phoenix-routes-contexts",
    "the assistant sums up where routes and schemas live after reading",
    "Elixir/Phoenix",
    one_session(
        "/home/ana/src/shelf",
        Ask("I'm new to this codebase. Where do I add a new page for listing loans?"),
        Read(
            "lib/shelf_web/router.ex",
            'defmodule ShelfWeb.Router do\n  use ShelfWeb, :router\n\n  scope "/", ShelfWeb do\n    pipe_through :browser\n    live "/books", BookLive.Index, :index\n  end\nend\n',
        ),
        Read(
            "lib/shelf/catalog.ex",
            "defmodule Shelf.Catalog do\n  alias Shelf.Catalog.Book\n  def list_books, do: Repo.all(Book)\nend\n",
        ),
        Read(
            "lib/shelf/catalog/book.ex",
            'defmodule Shelf.Catalog.Book do\n  use Ecto.Schema\n  schema "books" do\n    field :title, :string\n  end\nend\n',
        ),
        Say(
            'Routes live in `lib/shelf_web/router.ex`; each context under `lib/shelf/` owns its schemas (`Shelf.Catalog` owns `Book` in `lib/shelf/catalog/book.ex`).\n\nFor a loans page, add a `live "/loans", LoanLive.Index, :index` line to the router and a `LoanLive.Index` module under `lib/shelf_web/live/`.'
        ),
    ),
    expect=(r"lib/shelf_web/router\.ex", r"[Rr]outes"),
)

GO_LAYERS = Probe(
    "go-three-layers",
    "the assistant names the layers and their folders after reading",
    "Go",
    one_session(
        "/home/kofi/code/tally",
        Ask("Give me a quick overview of how this service is structured."),
        Run(
            "ls cmd internal",
            "cmd:\napi\n\ninternal:\nservice\nstore\n",
        ),
        Read(
            "cmd/api/main.go",
            'package main\n\nimport "example.com/tally/internal/service"\n\nfunc main() {\n\tsvc := service.New(store.Open())\n\thttp.ListenAndServe(":8080", routes(svc))\n}\n',
        ),
        Read(
            "internal/service/ledger.go",
            "package service\n\ntype Ledger struct{ store Store }\n\nfunc (l *Ledger) Post(e Entry) error { return l.store.Insert(e) }\n",
        ),
        Read(
            "internal/store/entries.go",
            'package store\n\nfunc (s *Store) Insert(e Entry) error {\n\t_, err := s.db.Exec("INSERT INTO entries ...")\n\treturn err\n}\n',
        ),
        Say(
            "The app has three layers: handlers in `cmd/api/`, services in `internal/service/`, repositories in `internal/store/`. Handlers only call services, and only the store touches the database."
        ),
    ),
    expect=(r"internal/service", r"internal/store"),
)

ASPNET_ENDPOINTS_USER = Probe(
    "aspnet-endpoints-user",
    "the user states where endpoints go, with a task",
    "C#/ASP.NET",
    one_session(
        "/home/ines/src/Depot",
        Ask(
            "Add a GET /api/suppliers/{id} endpoint. We keep one endpoint class per resource under Endpoints/, each a static class mapped in Program.cs."
        ),
        Read(
            "Endpoints/ProductEndpoints.cs",
            'public static class ProductEndpoints\n{\n    public static void MapProductEndpoints(this WebApplication app)\n    {\n        app.MapGet("/api/products/{id}", GetById);\n    }\n}\n',
        ),
        Say(
            "Added `Endpoints/SupplierEndpoints.cs` with `MapSupplierEndpoints` and wired it in `Program.cs`."
        ),
    ),
    expect=(r"Endpoints/", r"one endpoint class per resource|per resource"),
)

KOTLIN_MODULES_USER = Probe(
    "kotlin-feature-modules-user",
    "the user states a design rule between modules",
    "Kotlin/Android",
    one_session(
        "/home/lena/dev/trailmap",
        Ask(
            "FYI: every module under `feature/` depends only on `core/`, never on another feature module. Now add a `feature/settings` module with an empty SettingsScreen."
        ),
        Read(
            "settings.gradle.kts",
            'include(":app")\ninclude(":core")\ninclude(":feature:map")\ninclude(":feature:routes")\n',
        ),
        Say(
            "Created `feature/settings` with `SettingsScreen.kt` and registered it in `settings.gradle.kts`; it depends on `:core` only."
        ),
    ),
    expect=(r"feature/", r"core/?", r"another feature|other feature"),
)

RAILS_SERVICES = Probe(
    "rails-service-objects",
    "the assistant sums up where business logic lives after reading",
    "Ruby/Rails",
    one_session(
        "/home/raj/work/pantry",
        Ask("How is the ordering logic organised here?"),
        Read(
            "app/controllers/orders_controller.rb",
            "class OrdersController < ApplicationController\n  def create\n    result = Orders::Place.call(order_params)\n    redirect_to result.order\n  end\nend\n",
        ),
        Read(
            "app/services/orders/place.rb",
            "module Orders\n  class Place\n    def self.call(params) = new(params).call\n  end\nend\n",
        ),
        Read(
            "app/services/orders/cancel.rb",
            "module Orders\n  class Cancel\n    def self.call(order) = new(order).call\n  end\nend\n",
        ),
        Say(
            "Business logic lives in service objects under `app/services/`, one class per action with a single `.call` entry point; controllers stay thin and only call them.\n\nThe ordering flow is `Orders::Place` and `Orders::Cancel`."
        ),
    ),
    expect=(r"app/services/", r"service objects?|one class per action"),
)

AXUM_HANDLERS = Probe(
    "axum-handlers-state",
    "the assistant sums up where handlers and shared state are after reading",
    "Rust/Axum",
    one_session(
        "/home/tom/src/beacon",
        Ask("Before we add the webhook route, explain how routing is set up."),
        Read(
            "src/app.rs",
            'pub fn router(state: AppState) -> Router {\n    Router::new()\n        .nest("/sites", routes::sites::router())\n        .with_state(state)\n}\n',
        ),
        Read(
            "src/routes/sites.rs",
            'pub fn router() -> Router<AppState> {\n    Router::new().route("/", get(list))\n}\n',
        ),
        Read(
            "src/state.rs",
            "#[derive(Clone)]\npub struct AppState {\n    pub pool: Pool,\n}\n",
        ),
        Say(
            "Handlers live in `src/routes/`, one module per resource, and each module's `router()` is nested in `src/app.rs`. Shared state is `AppState` in `src/state.rs`.\n\nSo the webhook goes in a new `src/routes/webhooks.rs`."
        ),
    ),
    expect=(r"src/routes/", r"[Hh]andlers"),
)

SWIFT_FEATURES = Probe(
    "swift-feature-folders",
    "the assistant sums up the feature folders after reading",
    "Swift",
    one_session(
        "/Users/mika/Developer/Tide",
        Ask("What's the structure of the app target?"),
        Run(
            "ls Sources/Features Sources/App",
            "Sources/App:\nAppCoordinator.swift\nTideApp.swift\n\nSources/Features:\nForecast\nSettings\nStations\n",
        ),
        Read(
            "Sources/Features/Forecast/ForecastView.swift",
            "struct ForecastView: View {\n    @StateObject var model: ForecastViewModel\n}\n",
        ),
        Read(
            "Sources/App/AppCoordinator.swift",
            "final class AppCoordinator {\n    func show(_ route: FeatureRoute) { }\n}\n",
        ),
        Say(
            "Each feature is a folder under `Sources/Features/` with its View and ViewModel; navigation goes through `AppCoordinator` in `Sources/App/AppCoordinator.swift`."
        ),
    ),
    expect=(r"Sources/Features/", r"feature"),
)

DJANGO_GATEWAY_USER = Probe(
    "django-auth-gateway-user",
    "the user states a design decision (where auth is handled)",
    "Python/Django",
    one_session(
        "/home/oli/code/invoicing",
        Ask(
            "Add a view that returns the invoices of an account. Auth is handled by the gateway, not the services, so don't add any permission classes here."
        ),
        Read(
            "invoices/views.py",
            "from django.http import JsonResponse\n\ndef invoice_detail(request, pk):\n    return JsonResponse(Invoice.objects.get(pk=pk).as_dict())\n",
        ),
        Say(
            "Added `account_invoices` to `invoices/views.py` and routed it in `invoices/urls.py`, without permission classes."
        ),
    ),
    expect=(r"[Aa]uth", r"gateway"),
)

FLUTTER_LAYOUT = Probe(
    "flutter-screens-layout",
    "the assistant sums up screens and the API client after reading",
    "Dart/Flutter",
    one_session(
        "/home/sara/dev/harvest_app",
        Ask("Walk me through the project structure."),
        Run(
            "ls lib lib/screens lib/data",
            "lib:\ndata\nmain.dart\nscreens\n\nlib/data:\napi_client.dart\n\nlib/screens:\nfarm\nhome\n",
        ),
        Read(
            "lib/data/api_client.dart",
            "class ApiClient {\n  Future<List<Farm>> farms() async { ... }\n}\n",
        ),
        Read(
            "lib/screens/farm/farm_screen.dart",
            "class FarmScreen extends StatelessWidget {\n  @override\n  Widget build(BuildContext context) => const FarmList();\n}\n",
        ),
        Say(
            "Screens are under `lib/screens/`, one folder per screen with its widgets beside it, and every API call goes through `ApiClient` in `lib/data/api_client.dart`."
        ),
    ),
    expect=(r"lib/screens/", r"[Ss]creens"),
)

PLUGIN_HOST = Probe(
    "plugin-host-manifest",
    "the assistant sums up how plugins are registered after reading",
    "Rust",
    one_session(
        "/home/eli/src/loom",
        Ask("How do plugins get loaded?"),
        Read(
            "plugins/markdown/plugin.toml",
            '[plugin]\nname = "markdown"\nentry = "libloom_markdown.so"\n',
        ),
        Read(
            "src/host/plugin_host.rs",
            "pub struct PluginHost { plugins: Vec<Plugin> }\n\nimpl PluginHost {\n    pub fn discover(dir: &Path) -> Self { /* reads */ plugin.toml }\n}\n",
        ),
        Say(
            "Plugins register themselves through a `plugin.toml` in their folder under `plugins/` and are loaded by `PluginHost` (`src/host/plugin_host.rs`) at start."
        ),
        host="codex",
    ),
    expect=(r"plugin\.toml", r"PluginHost"),
)

GO_LISTED_LAYOUT = Probe(
    "go-listed-layout",
    "the assistant lists the top-level folders and their roles",
    "Go",
    one_session(
        "/home/dan/code/relay",
        Ask("What's in this repo?"),
        Run("ls", "api\ngo.mod\npkg\nworker\n"),
        Read(
            "api/server.go",
            "package api\n\nfunc NewServer() *Server { return &Server{} }\n",
        ),
        Read(
            "worker/jobs.go",
            "package worker\n\nfunc Run(q Queue) { for j := range q.Jobs() { j.Do() } }\n",
        ),
        Say(
            "The repository has three parts:\n\n- `api/` — the HTTP server and its handlers\n- `worker/` — the background job runner\n- `pkg/` — code shared by both"
        ),
    ),
    expect=(r"worker/", r"background job"),
)

PHOENIX_LIVE_USER = Probe(
    "phoenix-live-folders-user",
    "the user states where LiveViews go",
    "Elixir/Phoenix",
    one_session(
        "/home/ana/src/shelf",
        Ask(
            "LiveViews go under lib/shelf_web/live/, one folder per page with its components. Please add an empty members page that way."
        ),
        Run("ls lib/shelf_web/live", "book_live\n"),
        Say("Added `lib/shelf_web/live/member_live/index.ex` and its route."),
    ),
    expect=(r"lib/shelf_web/live/", r"one folder per page"),
)

# --- must not fire -------------------------------------------------------------------------

GO_PLAN = Probe(
    "go-plan",
    "a plan of what the assistant will create",
    "Go",
    one_session(
        "/home/kofi/code/tally",
        Ask("Add a billing endpoint."),
        Read("cmd/api/main.go", "package main\n\nfunc main() {}\n"),
        Say(
            "I'll put the billing handler in `cmd/api/billing.go`, the service in `internal/billing/service.go`, and the repository in `internal/billing/repo.go`."
        ),
    ),
    fires=False,
    never=((r"internal/billing", "a plan of files to create, not the layout"),),
)

RAILS_HEDGE = Probe(
    "rails-hedge",
    "a hedged summary",
    "Ruby/Rails",
    one_session(
        "/home/raj/work/pantry",
        Ask("Where is the admin area?"),
        Run("ls app/controllers", "admin\napplication_controller.rb\norders_controller.rb\n"),
        Say(
            "The admin controllers probably live in `app/controllers/admin/`, and the admin routes seem to be in a separate `config/routes/admin.rb`, but I haven't opened them yet."
        ),
    ),
    fires=False,
    never=((r"routes/admin\.rb|app/controllers/admin", "a guess, not a finding"),),
)

OTHER_REPO = Probe(
    "axum-other-repo",
    "the layout of another repository, read as an example",
    "Rust/Axum",
    one_session(
        "/home/tom/src/beacon",
        Ask("How does the realworld example app organise its routes? I want ideas."),
        Read(
            "/home/tom/src/realworld-axum/src/http/mod.rs",
            "pub fn api_router() -> Router { Router::new().merge(users::router()) }\n",
        ),
        Say(
            "In `realworld-axum`, routes live in `src/http/`, one module per resource, and `src/http/mod.rs` merges them into `api_router()`."
        ),
    ),
    fires=False,
    never=((r"src/http", "the layout of another repository"),),
)

ASPNET_CHANGED = Probe(
    "aspnet-layout-changed",
    "a layout the user states and then takes back",
    "C#/ASP.NET",
    one_session(
        "/home/ines/src/Depot",
        Ask(
            "We keep one endpoint class per resource under Endpoints/. Add an endpoint for warehouses."
        ),
        Read(
            "Program.cs",
            "var app = builder.Build();\napp.MapProductEndpoints();\napp.Run();\n",
        ),
        Say("Added `Endpoints/WarehouseEndpoints.cs` and mapped it in `Program.cs`."),
        Ask(
            "Actually, scrap that: we're moving everything to controllers under Controllers/ this sprint, so put it in a WarehousesController instead."
        ),
        Say("Moved it to `Controllers/WarehousesController.cs` and removed the endpoint class."),
    ),
    fires=False,
    never=((r"Endpoints/", "a layout the user took back"),),
)

OWN_CHANGE = Probe(
    "phoenix-own-change",
    "the assistant's account of its own change",
    "Elixir/Phoenix",
    one_session(
        "/home/ana/src/shelf",
        Ask("Add a health check endpoint."),
        Read("lib/shelf_web/router.ex", "defmodule ShelfWeb.Router do\nend\n"),
        Say(
            "I added the `/health` route to `lib/shelf_web/router.ex` and a `HealthController` under `lib/shelf_web/controllers/`; it returns 200 with `ok`."
        ),
    ),
    fires=False,
    never=((r"HealthController|/health", "the change the session made, not the layout"),),
)

QUESTION = Probe(
    "go-question",
    "a question about the layout, by the user and by the assistant",
    "Go",
    one_session(
        "/home/dan/code/relay",
        Ask("Do handlers live in `api/handlers/` or in `internal/http/`? I can never remember."),
        Run("ls api", "server.go\nroutes.go\n"),
        Say(
            "Neither: there is no `api/handlers/` folder here. Where should the new repository code go: `internal/store/` or `pkg/store/`?"
        ),
    ),
    fires=False,
    never=(
        (r"api/handlers|internal/http|internal/store|pkg/store", "a question, not a statement"),
    ),
)

SUGGESTION = Probe(
    "django-suggestion",
    "a layout the assistant recommends, not one the project has",
    "Python/Django",
    one_session(
        "/home/oli/code/invoicing",
        Ask("The views file is getting long. Any ideas?"),
        Read("invoices/views.py", "def invoice_detail(request, pk): ...\n" * 3),
        Say(
            "You could split it: put the read-only views in `invoices/views/queries.py` and the ones that change data in `invoices/views/commands.py`, with a `views/__init__.py` re-exporting them."
        ),
    ),
    fires=False,
    never=((r"views/queries\.py|views/commands\.py", "a suggestion, not the layout"),),
)

STACK_IN_SUMMARY = Probe(
    "go-stack-in-summary",
    "a layout summary that names a database and a library in passing",
    "Go",
    one_session(
        "/home/kofi/code/ledger",
        Ask("How is the persistence layer organised?"),
        Read(
            "internal/store/store.go",
            "package store\n\ntype Store struct{ db *DB }\n\nfunc Open(url string) (*Store, error) { return &Store{}, nil }\n",
        ),
        Say(
            "Persistence is all in `internal/store/`: it's backed by Postgres via sqlx, one file per table, and nothing outside that folder runs SQL."
        ),
    ),
    fires=False,
    never=(
        (r"Postgres|PostgreSQL", "a database named in a summary sentence, with no manifest"),
        (r"sqlx", "a library named in a summary sentence, with no manifest"),
    ),
)

CASES: tuple[Probe, ...] = (
    PHOENIX_ROUTES,
    GO_LAYERS,
    ASPNET_ENDPOINTS_USER,
    KOTLIN_MODULES_USER,
    RAILS_SERVICES,
    AXUM_HANDLERS,
    SWIFT_FEATURES,
    DJANGO_GATEWAY_USER,
    FLUTTER_LAYOUT,
    PLUGIN_HOST,
    GO_LISTED_LAYOUT,
    PHOENIX_LIVE_USER,
    GO_PLAN,
    RAILS_HEDGE,
    OTHER_REPO,
    ASPNET_CHANGED,
    OWN_CHANGE,
    QUESTION,
    SUGGESTION,
    STACK_IN_SUMMARY,
)
