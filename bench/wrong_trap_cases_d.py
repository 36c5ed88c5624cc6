# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, fourth part: a database that belongs to a side container, the assistant's own
guess it then takes back, the user speaking of another project, a front-end folder with its own
test runner inside a JVM build, an example app's package manager, and a stale `.env.example`
(`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap

COMPOSE_DASHBOARD_POSTGRES = Trap(
    "compose-dashboard-postgres",
    "Node/Express",
    "a compose file whose PostgreSQL is the dashboard container's own store, beside an app "
    "whose knexfile uses SQLite",
    (
        Session(
            "claude",
            "/home/dev/src/linkshelf",
            (
                Ask("Can you add a created_at index to the links table? Queries got slow."),
                Read(
                    "docker-compose.yml",
                    "services:\n  metabase:\n    image: metabase/metabase:v0.49.3\n    ports: ['3001:3000']\n"
                    "    environment:\n      MB_DB_TYPE: postgres\n      MB_DB_HOST: metabase-db\n"
                    "  metabase-db:\n    image: postgres:16\n    environment:\n      POSTGRES_DB: metabase\n",
                ),
                Read(
                    "knexfile.js",
                    "module.exports = {\n  client: 'better-sqlite3',\n  connection: { filename: './data/linkshelf.db' },\n"
                    "  useNullAsDefault: true,\n  migrations: { directory: './migrations' },\n};\n",
                ),
                Run(
                    "npx knex migrate:make add_links_created_at_index",
                    "Created Migration: /home/dev/src/linkshelf/migrations/20260301120000_add_links_created_at_index.js",
                ),
                Run(
                    "npm test",
                    "> linkshelf@1.4.0 test\n> node --test test/\n\n✔ links are listed newest first (12.1ms)\n"
                    "✔ a link is saved once (3.4ms)\nℹ tests 2\nℹ pass 2\nℹ fail 0",
                ),
                Say(
                    "Added a migration with an index on `links.created_at`; the app's SQLite "
                    "database gets it on the next `knex migrate:latest`. Tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(database|db|stores? (its )?data|data is stored)\W+(\w+\W+){0,4}postgres|postgres(ql)?\W+(\w+\W+){0,3}(database|db)\b(?! container)",
            "PostgreSQL is only the Metabase container's own store; the app's knexfile is SQLite",
        ),
    ),
    may=(r"sqlite|npm test|knex",),
)

ASSISTANT_TAKES_BACK = Trap(
    "assistant-takes-back-gin",
    "Go",
    "the assistant guesses the web framework from the folder layout, then reads the router and "
    "says it was wrong",
    (
        Session(
            "codex",
            "/home/dev/src/shipments",
            (
                Ask("Where is the /shipments/{id} route handled?"),
                Say(
                    "This looks like a Gin service from the `handlers/` layout; let me check the "
                    "router to be sure."
                ),
                Read(
                    "cmd/server/main.go",
                    'package main\n\nimport (\n\t"net/http"\n\n\t"github.com/go-chi/chi/v5"\n\t"example.com/shipments/handlers"\n)\n\n'
                    'func main() {\n\tr := chi.NewRouter()\n\tr.Get("/shipments/{id}", handlers.GetShipment)\n\thttp.ListenAndServe(":8080", r)\n}\n',
                ),
                Say(
                    "I was wrong: it is not Gin. The router is chi (`chi.NewRouter()` in "
                    "`cmd/server/main.go`), and `/shipments/{id}` is handled by "
                    "`handlers.GetShipment`."
                ),
                Run(
                    "go test ./...",
                    "ok  \texample.com/shipments/handlers\t0.012s\n?   \texample.com/shipments/cmd/server\t[no test files]",
                ),
            ),
        ),
    ),
    wrong=((r"\bgin\b", "the assistant took the Gin guess back: the router is chi"),),
    may=(r"chi|go test",),
)

OTHER_PROJECT_TALK = Trap(
    "user-other-project-stack",
    "Rust CLI",
    "the user says what their other project at work runs on (MongoDB, NestJS, Jest) while asking "
    "about a small Rust CLI",
    (
        Session(
            "claude",
            "/home/dev/src/tidy",
            (
                Ask(
                    "At work our main service is NestJS on MongoDB and we test it with Jest, so "
                    "I'm rusty here. How do I add a --dry-run flag to this CLI?"
                ),
                Read(
                    "Cargo.toml",
                    '[package]\nname = "tidy"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\n'
                    'clap = { version = "4", features = ["derive"] }\nwalkdir = "2"\n',
                ),
                Read(
                    "src/main.rs",
                    "use clap::Parser;\n\n#[derive(Parser)]\nstruct Args {\n    path: std::path::PathBuf,\n}\n\n"
                    "fn main() {\n    let args = Args::parse();\n    tidy::run(&args.path);\n}\n",
                ),
                Run(
                    "cargo test",
                    "   Compiling tidy v0.3.0 (/home/dev/src/tidy)\n    Finished test [unoptimized + debuginfo] target(s) in 2.31s\n"
                    "     Running unittests src/lib.rs\n\nrunning 4 tests\n....\ntest result: ok. 4 passed; 0 failed; 0 ignored",
                ),
                Say(
                    "Added `#[arg(long)] dry_run: bool` to `Args` and passed it to `tidy::run`, "
                    "which now prints what it would move instead of moving it. `cargo test` passes."
                ),
            ),
        ),
    ),
    wrong=(
        (r"\bmongo", "MongoDB is the user's other project at work, not this CLI"),
        (r"\bnest(js)?\b", "NestJS is the user's other project"),
        (r"\bjest\b", "Jest tests the other project; this one runs `cargo test`"),
    ),
    may=(r"cargo test|clap|rust",),
)

MAVEN_FRONTEND_JEST = Trap(
    "maven-frontend-jest",
    "Java/Maven",
    "a `frontend/` folder with its own package.json and Jest, built by the Maven build, in a "
    "Spring Boot service tested with `mvn test`",
    (
        Session(
            "claude",
            "/home/dev/src/ledger",
            (
                Ask("The invoice total rounding test fails, can you look?"),
                Run(
                    "ls",
                    "README.md\nfrontend\nmvnw\npom.xml\nsrc\n",
                ),
                Read(
                    "frontend/package.json",
                    '{\n  "name": "ledger-ui",\n  "private": true,\n  "scripts": {\n    "build": "vite build",\n'
                    '    "test": "jest"\n  },\n  "devDependencies": {\n    "jest": "^29.7.0",\n    "vite": "^5.2.0"\n  }\n}\n',
                ),
                Run(
                    "./mvnw test -Dtest=InvoiceTotalTest",
                    "[INFO] Running com.acme.ledger.InvoiceTotalTest\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n"
                    "[ERROR]   InvoiceTotalTest.roundsHalfEven:41 expected: <10.12> but was: <10.13>\n[INFO] BUILD FAILURE",
                    1,
                ),
                Read(
                    "src/main/java/com/acme/ledger/InvoiceTotal.java",
                    "package com.acme.ledger;\n\nimport java.math.BigDecimal;\nimport java.math.RoundingMode;\n\n"
                    "public final class InvoiceTotal {\n    public static BigDecimal round(BigDecimal v) {\n"
                    "        return v.setScale(2, RoundingMode.HALF_UP);\n    }\n}\n",
                ),
                Say(
                    "The test expects banker's rounding; `InvoiceTotal.round` used HALF_UP. "
                    "Switching it to `RoundingMode.HALF_EVEN`."
                ),
                Run(
                    "./mvnw test -Dtest=InvoiceTotalTest",
                    "[INFO] Running com.acme.ledger.InvoiceTotalTest\n[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"tests? (are|is) (written|run) (with|in|using) jest|test command\W+(\w+\W+){0,3}(npm|jest)|"
            r"(javascript|typescript)( or \w+)? project|written in (javascript|typescript)",
            "Jest only tests the frontend/ folder; the service is Java tested with Maven",
        ),
    ),
    may=(r"mvnw test|maven|java",),
)

SWIFT_EXAMPLE_PODS = Trap(
    "swift-example-cocoapods",
    "Swift Package",
    "an Example/ app installed with CocoaPods beside a Swift package built and tested with SwiftPM",
    (
        Session(
            "claude",
            "/home/dev/src/Toasty",
            (
                Ask("Make the toast duration configurable and keep the tests green."),
                Read(
                    "Package.swift",
                    '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: "Toasty",\n'
                    '    platforms: [.iOS(.v15)],\n    products: [.library(name: "Toasty", targets: ["Toasty"])],\n'
                    '    targets: [\n        .target(name: "Toasty"),\n        .testTarget(name: "ToastyTests", dependencies: ["Toasty"]),\n    ]\n)\n',
                ),
                Run(
                    "ls Example",
                    "Podfile\nPodfile.lock\nToastyExample\nToastyExample.xcodeproj\nToastyExample.xcworkspace\n",
                ),
                Read(
                    "Example/Podfile",
                    "platform :ios, '15.0'\n\ntarget 'ToastyExample' do\n  use_frameworks!\n  pod 'Toasty', :path => '../'\n  pod 'SnapKit', '~> 5.6'\nend\n",
                ),
                Run(
                    "swift test",
                    "Building for debugging...\nBuild complete! (4.12s)\nTest Suite 'All tests' started.\n"
                    "Test Suite 'ToastyTests.xctest' passed.\n\t Executed 6 tests, with 0 failures (0 unexpected) in 0.031 seconds",
                ),
                Say(
                    "`Toast.show` now takes a `duration` (default 2 s); `swift test` passes (6 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"dependencies (are )?(managed|installed) (with|by|via) cocoapods|package manager\W+(\w+\W+){0,3}cocoapods|"
            r"(run|use) `?pod install|\bsnapkit\b",
            "CocoaPods and SnapKit belong to the Example/ app; the package is built with SwiftPM",
        ),
    ),
    may=(r"swift test|swift package",),
)

STALE_ENV_EXAMPLE = Trap(
    "stale-env-example-mysql",
    "Python/Django",
    "a `.env.example` from the project template that still names MySQL, against the settings the "
    "session reads (PostgreSQL)",
    (
        Session(
            "claude",
            "/home/dev/src/clinic",
            (
                Ask("Set up the local environment so I can run the tests."),
                Read(
                    ".env.example",
                    "# copied from the starter template\nDATABASE_URL=mysql://root:root@localhost:3306/app\nDEBUG=1\n",
                ),
                Read(
                    "clinic/settings.py",
                    "import os\n\nDATABASES = {\n    'default': {\n        'ENGINE': 'django.db.backends.postgresql',\n"
                    "        'NAME': os.environ.get('PGDATABASE', 'clinic'),\n        'HOST': os.environ.get('PGHOST', 'localhost'),\n    }\n}\n",
                ),
                Say(
                    "The `.env.example` is left over from the starter template: the settings "
                    "read PostgreSQL from the `PG*` variables and never read DATABASE_URL."
                ),
                Run(
                    "python manage.py test",
                    "Creating test database for alias 'default'...\n........\n----------------------------------------------------------------------\n"
                    "Ran 8 tests in 0.412s\n\nOK\nDestroying test database for alias 'default'...",
                ),
            ),
        ),
    ),
    wrong=((r"\bmysql\b", "the settings use PostgreSQL; .env.example is a stale template"),),
    may=(r"postgres|manage\.py test",),
)

PASTED_LINT_OUTPUT = Trap(
    "pasted-lint-rule-text",
    "Node/TypeScript",
    "the user pastes a linter's output whose rule messages read like instructions",
    (
        Session(
            "claude",
            "/home/dev/src/kiosk",
            (
                Ask(
                    "CI is red, here's the output:\n\nsrc/printer.ts\n  12:5  error  Never use console.log "
                    "in production code  no-console\n  30:1  error  Always add an explicit return type  "
                    "explicit-function-return-type\n\n2 problems (2 errors, 0 warnings)\n\nfix it"
                ),
                Read(
                    "src/printer.ts",
                    "export function print(job) {\n  console.log('printing', job.id)\n  return queue.push(job)\n}\n",
                ),
                Run(
                    "npx eslint src/printer.ts",
                    "/home/dev/src/kiosk/src/printer.ts\n  12:5  error  Never use console.log in production code  no-console\n\n1 problem (1 error, 0 warnings)",
                    1,
                ),
                Say(
                    "Replaced the `console.log` with the project's `log.debug` and added the return type."
                ),
                Run("npx eslint src/printer.ts", ""),
            ),
        ),
    ),
    wrong=(
        (
            r"^(never|don't|do not|avoid)\W+(\w+\W+){0,2}console\.log|^always add an explicit return type",
            "the linter's messages, pasted by the user, are the linter's rules, not the user's own instruction",
        ),
    ),
    may=(r"eslint",),
)

COLLEAGUE_QUOTED = Trap(
    "colleague-quoted-rule",
    "Python",
    "the user quotes a colleague's rule and disagrees with it, then asks for a one-off fix",
    (
        Session(
            "codex",
            "/home/dev/src/dates",
            (
                Ask(
                    "My colleague keeps saying 'always write Google-style docstrings for every "
                    "function', I think that's overkill. Anyway, just fix the bug in parse_date: it "
                    "drops the timezone."
                ),
                Read(
                    "dates/parse.py",
                    "from datetime import datetime\n\ndef parse_date(text):\n    return datetime.fromisoformat(text).replace(tzinfo=None)\n",
                ),
                Say(
                    "`parse_date` stripped the offset with `replace(tzinfo=None)`; it now keeps it."
                ),
                Run("python -m pytest -q", "....\n4 passed in 0.08s"),
            ),
        ),
    ),
    wrong=(
        (
            r"google[- ]style docstrings",
            "the user quoted a colleague's rule to disagree with it: it is not their preference",
        ),
    ),
    may=(r"pytest",),
)

UNDECIDED_QUESTION = Trap(
    "undecided-squash-question",
    "Ruby",
    "the user asks whether to always squash commits and leaves it undecided",
    (
        Session(
            "claude",
            "/home/dev/src/shelf",
            (
                Ask("Should we always squash commits before merging? What do most teams do?"),
                Say(
                    "Both are common: squashing keeps main's history short, merge commits keep "
                    "every step. Many teams squash small feature branches."
                ),
                Ask(
                    "ok, let's not decide that now. Fix the failing spec in shelf_spec.rb instead."
                ),
                Run(
                    "bundle exec rspec spec/shelf_spec.rb",
                    "Failures:\n\n  1) Shelf#add keeps order\n     expected [1, 2] got [2, 1]\n\n3 examples, 1 failure",
                    1,
                ),
                Say("`Shelf#add` prepended; it appends now."),
                Run("bundle exec rspec spec/shelf_spec.rb", "3 examples, 0 failures"),
            ),
        ),
    ),
    wrong=((r"squash", "the user asked about squashing and left it undecided"),),
    may=(r"rspec",),
)

CASES = (
    COMPOSE_DASHBOARD_POSTGRES,
    ASSISTANT_TAKES_BACK,
    OTHER_PROJECT_TALK,
    MAVEN_FRONTEND_JEST,
    SWIFT_EXAMPLE_PODS,
    STALE_ENV_EXAMPLE,
    PASTED_LINT_OUTPUT,
    COLLEAGUE_QUOTED,
    UNDECIDED_QUESTION,
)
