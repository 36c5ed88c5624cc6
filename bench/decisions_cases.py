# ruff: noqa: E501  (transcript text: replies and outputs are kept as one string a line)
"""The decisions study's cases: made-up sessions where the assistant lays out options in its
reply (numbered, lettered, "Option A/B", "two ways: … or …", a recommendation) and the user picks
one in their next message ("B", "go with option 2", "vamos con la opción B", "nimm Variante 2"),
or settles the open question the assistant raised ("keep it", "drop the tiebreaker"). Each says
what a senior engineer's notes keep (the option chosen, and what it was chosen over when the
options say so) and what must never be said. The traps: the user asks a question back instead
of choosing, picks and then takes it back, picks the assistant's immediate next step ("run the
tests now or after?"), the assistant chooses alone, the user picks an item of a command-line
menu, pastes someone else's list of options, or declines every option. Every case, its facts
and its `never` patterns included, was written before any rule ran on it
(`bench/decisions_study.py` runs them)."""

from __future__ import annotations

import re

from bench.facts_study import Never
from bench.facts_study_session_cases import Case, fact
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, one_session

#: The memory types a decision can be kept as; wrong is judged over every type.
FOUND_IN = ("project_fact", "user_style")


def never(pattern: str, reason: str) -> Never:
    """What no memory may say."""
    return Never(re.compile(pattern, re.IGNORECASE), reason)


def picked(word: str) -> Never:
    """No memory may say `word`'s option was the one chosen (named as chosen, not as what the
    choice was made over)."""
    return never(
        rf"\b(?:chose|chosen|decided|picked|went with|settled on|go with)\b(?:(?!\bover\b|\binstead of\b|\brather than\b)[^\n])*?{word}",
        f"{word} was not chosen",
    )


RUST_OUTPUT_FORMAT = Case(
    "rust-output-format",
    "Rust",
    one_session(
        "/home/ana/src/tallyctl",
        Ask("Users keep asking for machine-readable output from `tallyctl`. How should we add it?"),
        Read(
            "src/cli.rs",
            "#[derive(Parser)]\npub struct Cli {\n    #[command(subcommand)]\n    pub command: Command,\n}\n\n#[derive(Subcommand)]\npub enum Command {\n    List(ListArgs),\n    Show(ShowArgs),\n    Export(ExportArgs),\n}\n",
        ),
        Say(
            "There are two shapes for this:\n\n**Option A:** a `--json` flag on each subcommand (`list`, `show`, `export`), each serialising its own struct.\n\n**Option B:** one global `--format <table|json>` option on `Cli`, with every subcommand rendering through a shared `Render` trait.\n\nB is a bit more work now but keeps the subcommands uniform. Which do you prefer?"
        ),
        Ask("B"),
        Edit(
            "src/cli.rs",
            "pub struct Cli {\n",
            "pub struct Cli {\n    #[arg(long, global = true, value_enum, default_value_t = Format::Table)]\n    pub format: Format,\n",
        ),
        Say("Added the global `--format` option and the `Render` trait; `list` and `show` use it."),
    ),
    (
        fact("global --format option chosen", r"--format|global"),
        fact("over a --json flag per subcommand", r"--format|global", r"--json"),
    ),
    (picked(r"--json"),),
)

GO_SESSION_STORE = Case(
    "go-session-store",
    "Go",
    one_session(
        "/home/ravi/code/portald",
        Ask("Sessions are lost every time portald restarts. Fix it."),
        Read(
            "internal/session/store.go",
            "package session\n\ntype MemoryStore struct {\n\tmu sync.Mutex\n\tbyID map[string]Session\n}\n",
        ),
        Say(
            "Sessions live in an in-process map, so a restart drops them. Two ways to persist them:\n\n1. Store sessions in Redis with an expiry per key (new dependency, new service in docker-compose).\n2. Keep them in PostgreSQL, in a `sessions` table with an `expires_at` column and a sweeper goroutine.\n\nWhich way should I go?"
        ),
        Ask("go with option 2, we already run postgres"),
        Say("Understood, PostgreSQL it is."),
        Edit(
            "internal/session/store.go",
            "type MemoryStore struct {",
            "type PgStore struct {\n\tdb *sql.DB\n}\n\ntype MemoryStore struct {",
        ),
        Say(
            "Added `PgStore` backed by the `sessions` table, with a sweeper deleting expired rows every minute."
        ),
        host="codex",
    ),
    (
        fact("sessions kept in PostgreSQL", r"postgres", r"session|expires_at"),
        fact("over Redis", r"postgres", r"redis"),
    ),
    (picked(r"redis"),),
)

TS_VALIDATION = Case(
    "ts-request-validation",
    "TypeScript",
    one_session(
        "/home/mei/work/orders-api",
        Ask("We need request body validation on the orders API routes."),
        Read(
            "package.json",
            '{\n  "name": "orders-api",\n  "dependencies": {\n    "fastify": "^4.26.0",\n    "zod": "^3.23.0"\n  }\n}\n',
        ),
        Say(
            "A few options:\n\nA) Zod schemas per route, parsed in a `preValidation` hook (zod is already a dependency).\nB) Fastify's built-in JSON Schema validation with hand-written schemas.\nC) TypeBox, generating JSON Schema and types from one definition.\n\nI'd lean to A or C."
        ),
        Ask("A, zod is already a dep"),
        Edit(
            "src/routes/orders.ts",
            "export async function createOrder(",
            "const CreateOrder = z.object({ sku: z.string(), qty: z.number().int().positive() })\n\nexport async function createOrder(",
        ),
        Say("Validation added with Zod in a `preValidation` hook on the orders routes."),
        host="gemini",
    ),
    (fact("Zod schemas per route chosen", r"\bzod\b"),),
    (picked(r"typebox"), picked(r"json schema")),
)

PY_FIRST_BUT = Case(
    "py-config-loader",
    "Python",
    one_session(
        "/home/lena/dev/harvest",
        Ask("The config loading is a mess, we read env vars in six places. Clean it up."),
        Read(
            "harvest/config.py",
            "import os\n\nDB_URL = os.environ.get('HARVEST_DB')\nDEBUG = os.environ.get('HARVEST_DEBUG') == '1'\n",
        ),
        Say(
            "Two ways to consolidate this:\n\n1. One `Settings` class with pydantic-settings, read once at startup and passed down.\n2. A TOML config file (`harvest.toml`) with env vars only as overrides.\n\nI'd recommend option 2 since ops asked for a file. Note that option 1 would drop the old `--env-file` flag."
        ),
        Ask("the first one, but keep the old flag"),
        Edit(
            "harvest/config.py",
            "import os\n",
            "from pydantic_settings import BaseSettings\n\n\nclass Settings(BaseSettings):\n    db_url: str\n    debug: bool = False\n",
        ),
        Say("`Settings` now holds the configuration; `--env-file` still works and feeds it."),
    ),
    (
        fact(
            "one Settings class with pydantic-settings", r"pydantic|Settings` class|Settings class"
        ),
        fact("over a TOML config file", r"pydantic|Settings", r"toml"),
        fact("keeping the --env-file flag", r"env-file|old flag", unsure=True),
    ),
    (picked(r"toml"),),
)

ELIXIR_SPANISH = Case(
    "elixir-job-queue",
    "Elixir",
    one_session(
        "/home/diego/src/cobra",
        Ask("Necesitamos reintentos para los envíos de webhooks que fallan."),
        Read(
            "lib/cobra/webhooks.ex",
            "defmodule Cobra.Webhooks do\n  def deliver(hook, payload) do\n    Req.post!(hook.url, json: payload)\n  end\nend\n",
        ),
        Say(
            "Hay dos opciones:\n\n**Opción A:** usar Oban con una cola `webhooks` y backoff exponencial (añade la dependencia y una migración).\n\n**Opción B:** un GenServer propio con `Process.send_after` para los reintentos, sin persistencia.\n\n¿Cuál prefieres?"
        ),
        Ask("vamos con la opción A"),
        Edit("mix.exs", '{:req, "~> 0.4"}', '{:req, "~> 0.4"},\n      {:oban, "~> 2.17"}'),
        Say("Oban añadido con la cola `webhooks`; los envíos fallidos se reintentan con backoff."),
    ),
    (
        fact("Oban queue for webhook retries", r"\boban\b"),
        fact("over a hand-written GenServer", r"\boban\b", r"genserver"),
    ),
    (picked(r"genserver"),),
)

KOTLIN_GERMAN = Case(
    "kotlin-image-cache",
    "Kotlin",
    one_session(
        "/home/jonas/projekte/fotobox",
        Ask("Die Bilder in der Galerie laden bei jedem Scrollen neu. Kannst du das beheben?"),
        Read(
            "app/build.gradle.kts",
            'dependencies {\n    implementation("androidx.compose.ui:ui:1.6.0")\n    implementation("io.coil-kt:coil-compose:2.6.0")\n}\n',
        ),
        Say(
            "Es gibt zwei Varianten:\n\nVariante 1: Coils Speicher-Cache vergrößern und einen Disk-Cache von 100 MB einrichten.\nVariante 2: Die Thumbnails beim Import selbst erzeugen und in `files/thumbs/` ablegen.\n\nWelche soll ich umsetzen?"
        ),
        Ask("nimm Variante 2"),
        Edit(
            "app/src/main/java/de/fotobox/Import.kt",
            "fun importPhoto(uri: Uri) {",
            "fun importPhoto(uri: Uri) {\n    writeThumbnail(uri)",
        ),
        Say(
            "Thumbnails werden jetzt beim Import unter `files/thumbs/` erzeugt und in der Galerie verwendet."
        ),
        host="gemini",
    ),
    (
        fact("thumbnails generated at import", r"thumb"),
        fact("over a bigger Coil cache", r"thumb", r"coil|cache"),
    ),
    (picked(r"coil"),),
)

RUBY_SIMPLER = Case(
    "ruby-digest-mailer",
    "Ruby",
    one_session(
        "/home/sam/apps/gazette",
        Ask("Send users a weekly digest email."),
        Say(
            "There are two approaches:\n\n- **Simpler approach:** a `rake digest:send` task run by cron every Monday at 08:00.\n- **More robust approach:** a Sidekiq scheduled job with sidekiq-cron, retries and a dashboard.\n\nThe simpler one is fine unless you expect thousands of users."
        ),
        Ask("let's do the simpler approach"),
        Edit(
            "lib/tasks/digest.rake",
            "",
            "namespace :digest do\n  task send: :environment do\n    User.find_each { |u| DigestMailer.weekly(u).deliver_now }\n  end\nend\n",
        ),
        Say("Added `rake digest:send` and the crontab line in `config/schedule.rb`."),
        host="codex",
    ),
    (
        fact("rake task run by cron", r"rake|cron"),
        fact("over Sidekiq scheduled job", r"rake|cron", r"sidekiq"),
    ),
    (picked(r"sidekiq"),),
)

JAVA_TIEBREAKER = Case(
    "java-ranking-tiebreaker",
    "Java",
    one_session(
        "/home/kofi/code/leaderboard",
        Ask("Refactor RankingService so the scoring rules live in one place."),
        Read(
            "src/main/java/io/lb/RankingService.java",
            "public List<Entry> rank(List<Entry> entries) {\n    entries.sort(comparing(Entry::score).reversed().thenComparing(Entry::joinedAt));\n    return entries;\n}\n",
        ),
        Say(
            "I moved the scoring into `ScoringRules`. One open question before I finish: the current sort breaks ties by `joinedAt`. Should we keep that tiebreaker, or drop it and let equal scores share a rank? Dropping it changes the public ranks of about 3% of entries."
        ),
        Ask("drop the tiebreaker, no data changes"),
        Edit("src/main/java/io/lb/RankingService.java", ".thenComparing(Entry::joinedAt)", ""),
        Say("Tiebreaker removed; equal scores now share a rank. No migration or data change."),
    ),
    (
        fact(
            "ties no longer broken by joinedAt",
            r"tiebreaker|joinedAt|tie",
            r"drop|share a rank|no longer|removed",
        ),
    ),
    (
        never(
            r"keep (?:that|the) tiebreaker[^\n]*(?:chose|decided|→)|(?:chose|decided)[^\n]*keep (?:that|the) tiebreaker",
            "the tiebreaker was dropped",
        ),
    ),
)

PHP_KEEP_ENDPOINTS = Case(
    "php-v1-endpoints",
    "PHP",
    one_session(
        "/home/ines/www/shopfront",
        Ask("Bump the API to v2 and clean up the routes file."),
        Read(
            "routes/api.php",
            "Route::prefix('v1')->group(function () {\n    Route::get('/products', [ProductController::class, 'index']);\n});\n",
        ),
        Say(
            "The v2 routes are in place. The old `/api/v1/*` endpoints are still registered: should I keep the deprecated v1 endpoints for now, or remove them in this release?"
        ),
        Ask("keep them until the mobile app is updated"),
        Say("Kept the v1 routes and added a `Deprecation` header to their responses."),
    ),
    (fact("v1 endpoints kept for now", r"\bv1\b", r"keep|kept"),),
    (never(r"(?:chose|decided)[^\n]*remove them", "v1 was kept"),),
)

CPP_FETCHCONTENT = Case(
    "cpp-fmt-dependency",
    "C++",
    one_session(
        "/home/yuki/src/raytrace",
        Ask("Replace the printf calls with fmt."),
        Read(
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.24)\nproject(raytrace CXX)\nadd_executable(raytrace src/main.cpp)\n",
        ),
        Say(
            "fmt isn't available yet. Option A: vendor fmt 10.2 under `third_party/fmt` and `add_subdirectory` it. Option B: fetch it at configure time with CMake's `FetchContent`, pinned to tag 10.2.1. Which do you want?"
        ),
        Ask("B please"),
        Edit(
            "CMakeLists.txt",
            "add_executable(raytrace src/main.cpp)",
            "include(FetchContent)\nFetchContent_Declare(fmt GIT_REPOSITORY https://github.com/fmtlib/fmt GIT_TAG 10.2.1)\nFetchContent_MakeAvailable(fmt)\nadd_executable(raytrace src/main.cpp)",
        ),
        Say("fmt is fetched with FetchContent at 10.2.1 and the printf calls are gone."),
        host="codex-shell",
    ),
    (
        fact("fmt fetched with FetchContent", r"fetchcontent"),
        fact("over vendoring under third_party", r"fetchcontent", r"vendor|third_party"),
    ),
    (picked(r"vendor"),),
)

SWIFT_SECOND = Case(
    "swift-offline-storage",
    "Swift",
    one_session(
        "/Users/noa/dev/Trailhead",
        Ask("The app should work offline: keep the saved trails on device."),
        Say(
            "I see two ways: store the trails as JSON files in the app's Documents folder, or move them into SwiftData models with a `@Model Trail` and let the views query them. The JSON files are quicker to write; SwiftData gives us queries and migrations."
        ),
        Ask("the second"),
        Edit(
            "Trailhead/Models/Trail.swift", "struct Trail: Codable {", "@Model\nfinal class Trail {"
        ),
        Say("Trails are now SwiftData models; the list view uses `@Query`."),
    ),
    (
        fact("SwiftData models for saved trails", r"swiftdata"),
        fact("over JSON files in Documents", r"swiftdata", r"json"),
    ),
    (picked(r"json files"),),
)

DART_HEADINGS = Case(
    "dart-state-management",
    "Dart",
    one_session(
        "/home/amir/flutter/budgetly",
        Ask("The settings screen state is getting out of hand. What should we do?"),
        Read("pubspec.yaml", "dependencies:\n  flutter:\n    sdk: flutter\n  provider: ^6.1.1\n"),
        Say(
            "### Option A — Riverpod\nMigrate the settings screen to Riverpod `Notifier`s; later the rest of the app.\n\n### Option B — keep Provider\nSplit `SettingsModel` into three smaller `ChangeNotifier`s and keep Provider.\n\nBoth work; A is the bigger change."
        ),
        Ask("A"),
        Edit(
            "pubspec.yaml",
            "  provider: ^6.1.1\n",
            "  provider: ^6.1.1\n  flutter_riverpod: ^2.5.1\n",
        ),
        Say("Settings now use Riverpod notifiers; other screens still on Provider for now."),
    ),
    (
        fact("Riverpod for state", r"riverpod"),
        fact("over keeping Provider", r"riverpod", r"provider"),
    ),
    (picked(r"keep provider"),),
)

DJANGO_THREE = Case(
    "django-file-uploads",
    "Python",
    one_session(
        "/srv/dev/atlas",
        Ask("Uploads over 50 MB time out. Fix it."),
        Say(
            "The request goes through gunicorn with a 30 s timeout. Options:\n\n1. Raise gunicorn's `--timeout` to 300.\n2. Stream uploads to disk with a custom `FileUploadHandler`.\n3. Upload straight to S3 from the browser with presigned POST URLs, so Django only records the key.\n\nOption 3 removes the problem at the source."
        ),
        Ask("3"),
        Edit(
            "atlas/uploads/views.py",
            "def upload(request):",
            "def presign(request):\n    return JsonResponse(s3.generate_presigned_post(BUCKET, key))\n\n\ndef upload(request):",
        ),
        Say("Added a `presign` view; the upload form posts to S3 directly."),
        host="codex",
    ),
    (fact("direct S3 uploads with presigned POST", r"presign|s3"),),
    (picked(r"timeout"), picked(r"FileUploadHandler")),
)

SCALA_OPTION_EXTRA = Case(
    "scala-json-codecs",
    "Scala",
    one_session(
        "/home/ola/src/tidewatch",
        Ask("We have three JSON libraries in the build. Pick one."),
        Read(
            "build.sbt",
            'libraryDependencies ++= Seq(\n  "io.circe" %% "circe-generic" % "0.14.6",\n  "com.typesafe.play" %% "play-json" % "2.10.4",\n  "com.lihaoyi" %% "upickle" % "3.1.3"\n)\n',
        ),
        Say(
            "Option 1: standardise on circe (most of the codecs already use it).\nOption 2: standardise on jsoniter-scala for speed; every codec gets rewritten.\n\nWhich one?"
        ),
        Ask("Option 1. Also rename the `json` package to `codecs` while you're at it."),
        Edit(
            "build.sbt",
            '  "com.typesafe.play" %% "play-json" % "2.10.4",\n  "com.lihaoyi" %% "upickle" % "3.1.3"\n',
            "",
        ),
        Say("Removed play-json and upickle; all codecs are circe now, in the `codecs` package."),
    ),
    (
        fact("circe as the one JSON library", r"circe"),
        fact("over jsoniter-scala", r"circe", r"jsoniter"),
    ),
    (picked(r"jsoniter"),),
)

GO_FRENCH = Case(
    "go-config-reload",
    "Go",
    one_session(
        "/home/claire/go/src/relais",
        Ask("Il faut recharger la config sans redémarrer le proxy."),
        Say(
            "Deux options :\n\nOption A : recharger sur SIGHUP, en relisant `relais.yaml`.\nOption B : surveiller le fichier avec fsnotify et recharger à chaque écriture.\n\nLaquelle préfères-tu ?"
        ),
        Ask("on part sur l'option A"),
        Edit(
            "cmd/relais/main.go",
            "signal.Notify(stop, os.Interrupt)",
            "signal.Notify(stop, os.Interrupt)\n\tsignal.Notify(reload, syscall.SIGHUP)",
        ),
        Say("Le proxy relit `relais.yaml` sur SIGHUP."),
        host="gemini",
    ),
    (
        fact("reload on SIGHUP", r"sighup"),
        fact("over fsnotify watching", r"sighup", r"fsnotify"),
    ),
    (picked(r"fsnotify"),),
)

CSHARP_PAREN = Case(
    "csharp-id-generation",
    "C#",
    one_session(
        "/home/tom/repos/Ledgerly",
        Ask("Invoice numbers collide when two app instances run. How do we fix numbering?"),
        Say(
            "Two possibilities: (a) a database sequence `invoice_no_seq` read with `NEXT VALUE FOR`, or (b) a Hi/Lo allocator in the app handing out blocks of 100. (a) is simplest and gap-tolerant."
        ),
        Ask("(a)"),
        Edit(
            "src/Ledgerly.Data/InvoiceRepository.cs",
            "var next = _db.Invoices.Max(i => i.Number) + 1;",
            "var next = await _db.NextInvoiceNumberAsync();",
        ),
        Say("Invoice numbers now come from the `invoice_no_seq` sequence."),
    ),
    (
        fact("database sequence for invoice numbers", r"sequence|invoice_no_seq"),
        fact("over a Hi/Lo allocator", r"sequence|invoice_no_seq", r"hi/?lo"),
    ),
    (picked(r"hi/?lo"),),
)

REVERSED_PICK = Case(
    "ts-monorepo-tool",
    "TypeScript",
    one_session(
        "/home/pia/code/atelier",
        Ask("Builds across our packages are slow. Can we cache them?"),
        Say(
            "Option A: add Turborepo with a `turbo.json` pipeline and remote caching later.\nOption B: switch the workspace to Nx and use its computation cache.\n\nA is the lighter change."
        ),
        Ask("B"),
        Say("Setting up Nx: I'll start with `nx.json`."),
        Ask("actually, A. We don't want to move the whole workspace."),
        Edit("package.json", '"scripts": {', '"scripts": {\n    "build": "turbo run build",'),
        Say("Turborepo added; `turbo run build` caches per package."),
    ),
    (
        fact("Turborepo chosen", r"turbo"),
        fact("over Nx", r"turbo", r"\bnx\b"),
    ),
    (picked(r"\bnx\b"),),
)

ASK_BACK = Case(
    "rust-parser-choice",
    "Rust",
    one_session(
        "/home/ana/src/quill",
        Ask("Our hand-rolled markdown parser keeps breaking on nested lists."),
        Say(
            "Option A: replace it with `pulldown-cmark`.\nOption B: keep ours and rewrite the list handling with a proper block stack.\n\nWhich do you prefer?"
        ),
        Ask("what's the binary size difference between A and B?"),
        Say("pulldown-cmark adds roughly 180 KB to the release binary; B adds nothing measurable."),
    ),
    (),
    (
        picked(r"pulldown"),
        picked(r"block stack"),
        never(r"\bchose\b|\bdecided\b", "nothing was chosen"),
    ),
)

NEXT_STEP_TESTS = Case(
    "py-next-step",
    "Python",
    one_session(
        "/home/lena/dev/harvest",
        Ask("Split `harvest/pipeline.py` into stages."),
        Say(
            "I've split out `fetch.py` and `parse.py`. Should I run the tests now or after the refactor is finished?"
        ),
        Ask("now"),
        Run(".venv/bin/pytest -q", "........................ [100%]\n24 passed in 1.92s\n"),
        Say("24 passed. Continuing with `store.py`."),
    ),
    (),
    (never(r"tests? now|after the refactor", "the next step decides nothing lasting"),),
)

NEXT_STEP_MENU = Case(
    "go-next-step-menu",
    "Go",
    one_session(
        "/home/ravi/code/portald",
        Ask("Add rate limiting to the login endpoint."),
        Say(
            "The limiter is in place and `go test ./...` passes. What next?\n\n1. Commit this now.\n2. Keep going and add the same limiter to `/signup` first."
        ),
        Ask("1"),
        Run(
            'git commit -am "Rate-limit the login endpoint"',
            "[main 4c1e2aa] Rate-limit the login endpoint\n 2 files changed, 41 insertions(+)\n",
        ),
        Say("Committed."),
        host="codex",
    ),
    (),
    (never(r"commit this now|signup", "the next step decides nothing lasting"),),
)

OWN_CHOICE = Case(
    "java-own-choice",
    "Java",
    one_session(
        "/home/kofi/code/leaderboard",
        Ask("Add caching to the leaderboard endpoint."),
        Say(
            "Option A: Caffeine in-process cache, 30 s TTL.\nOption B: Redis shared across instances.\n\nWe run a single instance, so I'll go with A."
        ),
        Edit(
            "build.gradle",
            "dependencies {",
            'dependencies {\n    implementation "com.github.ben-manes.caffeine:caffeine:3.1.8"',
        ),
        Say("Caffeine cache added with a 30 s TTL."),
        Ask("now add a changelog entry for it"),
        Edit(
            "CHANGELOG.md", "## Unreleased\n", "## Unreleased\n- Cache the leaderboard for 30 s.\n"
        ),
        Say("Done."),
    ),
    (),
    (
        never(
            r"\buser\b[^\n]*(?:chose|decided|picked)[^\n]*caffeine|(?:chose|decided|picked)[^\n]*caffeine[^\n]*\buser\b",
            "the assistant chose, not the user",
        ),
        picked(r"redis"),
    ),
)

CLI_MENU = Case(
    "js-cli-menu",
    "JavaScript",
    one_session(
        "/home/zoe/code/sketchpad",
        Ask(
            "I ran the scaffolder and it asked me this:\n\n? Select a variant: › - Use arrow-keys. Return to submit.\n    1) TypeScript\n    2) TypeScript + SWC\n    3) JavaScript\n    4) JavaScript + SWC\n\nI picked 3 and now `npm run dev` fails with EACCES on port 80. Why?"
        ),
        Say(
            "Ports below 1024 need root. Set `server.port` to 5173 in `vite.config.js` or drop the `--port 80` from the dev script."
        ),
        Ask("ok, 5173"),
        Edit("vite.config.js", "port: 80", "port: 5173"),
        Say("The dev server now listens on 5173."),
    ),
    (),
    (picked(r"javascript"), never(r"\bvariant\b", "a command-line menu pick")),
)

PASTED_OPTIONS = Case(
    "py-pasted-options",
    "Python",
    one_session(
        "/srv/dev/atlas",
        Ask(
            "My colleague wrote this in the design doc:\n\nOption 1: Celery with RabbitMQ for the report jobs.\nOption 2: RQ with the Redis we already have.\n\nWhat are the trade-offs?"
        ),
        Say(
            "Celery is heavier but has retries, chords and rate limits; RQ is simpler and reuses Redis. For a handful of nightly reports RQ is enough."
        ),
        Ask("ok thanks, I'll bring it up at the sync"),
    ),
    (),
    (picked(r"\bRQ\b"), picked(r"celery"), never(r"\bchose\b|\bdecided\b", "nothing was chosen")),
)

NEITHER = Case(
    "kotlin-neither",
    "Kotlin",
    one_session(
        "/home/jonas/projekte/fotobox",
        Ask("Should we move the network layer off Retrofit?"),
        Say(
            "Option A: Ktor client, multiplatform-ready.\nOption B: OkHttp directly, fewer layers.\n\nWhich one should I migrate to?"
        ),
        Ask("neither, leave it as is for now"),
        Say("Okay, leaving Retrofit in place."),
        host="gemini",
    ),
    (fact("keep Retrofit, no migration", r"retrofit", unsure=True),),
    (picked(r"ktor"), picked(r"okhttp")),
)

HESITANT_PICK = Case(
    "php-hesitant-pick",
    "PHP",
    one_session(
        "/home/ines/www/shopfront",
        Ask("Prices are stored as floats and the totals drift. Fix it."),
        Say(
            "Option A: store prices as integer cents in the existing columns.\nOption B: switch the columns to DECIMAL(10,2) and use brick/money.\n\nWhich one?"
        ),
        Ask("B? wouldn't that break the old mobile clients that read the raw column?"),
        Say(
            "No: the API serialises prices as strings, so the column type is not visible to clients."
        ),
    ),
    (),
    (picked(r"decimal|brick"), picked(r"cents")),
)

CASES: tuple[Case, ...] = (
    RUST_OUTPUT_FORMAT,
    GO_SESSION_STORE,
    TS_VALIDATION,
    PY_FIRST_BUT,
    ELIXIR_SPANISH,
    KOTLIN_GERMAN,
    RUBY_SIMPLER,
    JAVA_TIEBREAKER,
    PHP_KEEP_ENDPOINTS,
    CPP_FETCHCONTENT,
    SWIFT_SECOND,
    DART_HEADINGS,
    DJANGO_THREE,
    SCALA_OPTION_EXTRA,
    GO_FRENCH,
    CSHARP_PAREN,
    REVERSED_PICK,
    ASK_BACK,
    NEXT_STEP_TESTS,
    NEXT_STEP_MENU,
    OWN_CHOICE,
    CLI_MENU,
    PASTED_OPTIONS,
    NEITHER,
    HESITANT_PICK,
)

__all__ = ["CASES", "FOUND_IN", "Case"]
