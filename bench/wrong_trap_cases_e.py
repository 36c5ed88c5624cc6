# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, fifth part: the shell's runtime against the version file, a job queue kept
for one old script, a web framework left behind in a `legacy/` folder, an image built with
another installer than the project's own, a test command that ran no test, a database driver
only the test helpers use, a persistence library the user says was replaced, and a database
the user only asks about (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

SHELL_NODE_VERSION = Trap(
    "shell-node-vs-nvmrc",
    "Node",
    "the shell's global Node is 22 while the project's version file pins 20, which `nvm use` "
    "switches to before the tests",
    (
        Session(
            "claude",
            "/home/dev/src/mailroom",
            (
                Ask("npm test fails with a weird fetch error on my machine, can you look?"),
                Read(".nvmrc", "20.11.1\n"),
                Run("node --version", "v22.3.0"),
                Run(
                    "npm test",
                    "> mailroom@2.1.0 test\n> node --test test/\n\n✖ sends the digest (4.2ms)\n"
                    "  TypeError: fetch failed: undici expects a Dispatcher\nℹ tests 6\nℹ pass 5\nℹ fail 1",
                    1,
                ),
                Say(
                    "Your shell runs Node 22, but `.nvmrc` pins 20.11.1; the mock agent in "
                    "`test/helpers.js` only works with Node 20's undici. Switching first:"
                ),
                Run(
                    "source ~/.nvm/nvm.sh && nvm use && npm test",
                    "Found '/home/dev/src/mailroom/.nvmrc' with version <20.11.1>\nNow using node v20.11.1 (npm v10.2.4)\n\n"
                    "> mailroom@2.1.0 test\n> node --test test/\n\n✔ sends the digest (3.9ms)\nℹ tests 6\nℹ pass 6\nℹ fail 0",
                ),
                Say("With Node 20.11.1 from `.nvmrc` all 6 tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"\bnode(\.js)?\s*(version\s*)?v?22\b(?!\.3\.0 (in|from|on) (the|your) shell)",
            "Node 22 is the shell's global Node; the project pins 20.11.1 in `.nvmrc`",
        ),
    ),
    may=(r"20\.11|nvm use|npm test",),
)

LEGACY_SCRIPT_QUEUE = Trap(
    "celery-legacy-script",
    "Python/Flask",
    "Celery in the requirements only for an old backfill script, while the app queues its jobs "
    "with RQ",
    (
        Session(
            "codex",
            "/home/dev/src/invoicer",
            (
                Ask("The PDF render job is slow. Where does it get queued?"),
                Read(
                    "requirements.txt",
                    "flask==3.0.2\nrq==1.16.1\nredis==5.0.3\nweasyprint==61.2\n"
                    "celery==5.3.6  # only scripts/legacy_backfill.py, remove after the Q3 migration\n",
                ),
                Read(
                    "app/jobs.py",
                    "from redis import Redis\nfrom rq import Queue\n\nqueue = Queue('pdf', connection=Redis())\n\n\n"
                    "def enqueue_render(invoice_id: int) -> None:\n    queue.enqueue('app.render.render_pdf', invoice_id)\n",
                ),
                Run(
                    "grep -rn celery --include=*.py .",
                    "./scripts/legacy_backfill.py:3:from celery import Celery",
                ),
                Say(
                    "Render jobs are queued with RQ in `app/jobs.py` (queue `pdf`); Celery only "
                    "appears in the old backfill script. The slow part is `render_pdf` itself."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(job|task) queue\W+(\w+\W+){0,3}celery|celery\W+(\w+\W+){0,2}(is|as) (the )?(project's )?(job|task) queue|(jobs|tasks) (run|are queued|go) (through|with|on) celery|uses celery\b|queued (with|through|by) celery",
            "Celery serves one old script; the app's jobs go through RQ",
        ),
    ),
    may=(r"\brq\b|app/jobs\.py",),
)

LEGACY_WEB_FRAMEWORK = Trap(
    "fastify-with-legacy-express",
    "Node/TypeScript",
    "Express still in the manifest for a `legacy/` admin server, while the service's entry point "
    "starts Fastify",
    (
        Session(
            "claude",
            "/home/dev/src/parcel-api",
            (
                Ask("Add a /healthz route that returns {ok: true}."),
                Read(
                    "package.json",
                    '{\n  "name": "parcel-api",\n  "type": "module",\n  "scripts": {\n    "start": "node dist/server.js",\n'
                    '    "build": "tsc",\n    "test": "vitest run"\n  },\n  "dependencies": {\n    "express": "^4.19.2",\n'
                    '    "fastify": "^4.26.0"\n  },\n  "devDependencies": {\n    "typescript": "^5.4.0",\n    "vitest": "^1.4.0"\n  }\n}\n',
                ),
                Read(
                    "src/server.ts",
                    "import Fastify from 'fastify';\nimport { parcelRoutes } from './routes/parcels.js';\n\n"
                    "const app = Fastify({ logger: true });\napp.register(parcelRoutes);\n\n"
                    "app.listen({ port: 3000 });\n",
                ),
                Run("ls legacy", "admin-server.js\nREADME.md"),
                Write(
                    "src/routes/health.ts",
                    "import type { FastifyInstance } from 'fastify';\n\n"
                    "export async function healthRoutes(app: FastifyInstance) {\n  app.get('/healthz', async () => ({ ok: true }));\n}\n",
                ),
                Run(
                    "npm test",
                    "> parcel-api@0.9.0 test\n> vitest run\n\n ✓ test/parcels.test.ts (5)\n ✓ test/health.test.ts (1)\n\n"
                    " Test Files  2 passed (2)\n      Tests  6 passed (6)",
                ),
                Say(
                    "Added `src/routes/health.ts` and registered it in `src/server.ts`. Express is "
                    "only used by the old admin server under `legacy/`."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"express\W+(\w+\W+){0,2}(app|server|service|framework|api)\b|(web|http) framework\W+(\w+\W+){0,3}express|built (on|with) express|(an|the) express\b|express\.js",
            "Express serves only the `legacy/` admin server; the service runs on Fastify",
        ),
    ),
    may=(r"fastify|vitest",),
)

IMAGE_INSTALLER = Trap(
    "uv-project-pip-image",
    "Python",
    "a project managed with uv (its lockfile, `uv run`), whose Dockerfile still installs with pip",
    (
        Session(
            "claude",
            "/home/dev/src/tallyho",
            (
                Ask("Why does the docker build take so long?"),
                Read(
                    "pyproject.toml",
                    '[project]\nname = "tallyho"\nversion = "0.4.2"\nrequires-python = ">=3.11"\n'
                    'dependencies = ["httpx>=0.27", "pydantic>=2.6"]\n\n[tool.uv]\ndev-dependencies = ["pytest>=8.1", "ruff>=0.4"]\n',
                ),
                Read(
                    "Dockerfile",
                    "FROM python:3.12-slim\nWORKDIR /app\nCOPY . .\nRUN pip install --no-cache-dir .\n"
                    'CMD ["python", "-m", "tallyho"]\n',
                ),
                Run("ls", "Dockerfile\nREADME.md\npyproject.toml\nsrc\ntests\nuv.lock"),
                Run(
                    "uv run pytest -q",
                    "........................                                                 [100%]\n24 passed in 0.81s",
                ),
                Say(
                    "The image copies the whole tree before installing and resolves everything "
                    "again with pip, ignoring `uv.lock`. Copying `pyproject.toml` and `uv.lock` "
                    "first and running `uv sync --frozen` would let Docker cache that layer."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"run through pip\b|\bpip,? its package manager|package manager\W+(\w+\W+){0,3}pip\b|(managed|installed) with pip\b(?!,? ignoring)(?! in the (docker|image))",
            "The project is managed with uv; only the Dockerfile installs with pip",
        ),
    ),
    may=(r"uv run pytest|\buv\b",),
)

EMPTY_TEST_RUN = Trap(
    "rails-test-ran-nothing",
    "Ruby/Rails",
    "`bin/rails test` finishes with 0 runs (the generator's leftover `test/` folder); the specs "
    "run with RSpec",
    (
        Session(
            "codex",
            "/home/dev/src/greenhouse",
            (
                Ask("Run the tests before I push, please."),
                Run(
                    "bin/rails test",
                    "Running 0 tests in a single process (parallelization threshold is 50)\nRun options: --seed 41027\n\n"
                    "# Running:\n\n\n\nFinished in 0.002144s, 0.0000 runs/s, 0.0000 assertions/s.\n0 runs, 0 assertions, 0 failures, 0 errors, 0 skips",
                ),
                Run(
                    "ls test spec",
                    "spec:\nmodels\nrails_helper.rb\nrequests\nspec_helper.rb\n\ntest:\napplication_system_test_case.rb\ntest_helper.rb",
                ),
                Say(
                    "`bin/rails test` ran nothing: `test/` only holds the generator's helpers. The "
                    "specs are under `spec/`, so RSpec it is."
                ),
                Run(
                    "bundle exec rspec",
                    "...........................................\n\nFinished in 2.41 seconds (files took 1.9 seconds to load)\n43 examples, 0 failures",
                ),
                Say("43 examples, 0 failures: good to push."),
            ),
        ),
    ),
    wrong=(
        (
            r"minitest|tests? (are |is )?(run|written) with `?bin/rails test|test command\W+(\w+\W+){0,3}`?bin/rails test|run the tests with `?bin/rails test",
            "`bin/rails test` ran 0 tests; the tests are RSpec specs",
        ),
    ),
    may=(r"rspec",),
)

TEST_HELPER_DRIVER = Trap(
    "go-sqlite-test-helper",
    "Go",
    "an embedded SQLite driver that only the test helper package imports, beside a service on "
    "PostgreSQL through pgx",
    (
        Session(
            "claude",
            "/home/dev/src/ledgerd",
            (
                Ask("Add a memo column to the entries table and expose it in the store."),
                Read(
                    "go.mod",
                    "module example.com/ledgerd\n\ngo 1.22\n\nrequire (\n\tgithub.com/jackc/pgx/v5 v5.5.5\n"
                    "\tgithub.com/pressly/goose/v3 v3.19.2\n\tmodernc.org/sqlite v1.29.5\n)\n",
                ),
                Read(
                    "internal/store/postgres.go",
                    'package store\n\nimport (\n\t"context"\n\n\t"github.com/jackc/pgx/v5/pgxpool"\n)\n\n'
                    "type Store struct{ pool *pgxpool.Pool }\n\nfunc Open(ctx context.Context, url string) (*Store, error) {\n"
                    "\tpool, err := pgxpool.New(ctx, url)\n\treturn &Store{pool: pool}, err\n}\n",
                ),
                Run(
                    "grep -rln modernc.org/sqlite --include=*.go .",
                    "./internal/testdb/testdb.go",
                ),
                Write(
                    "migrations/20260302_entries_memo.sql",
                    "-- +goose Up\nALTER TABLE entries ADD COLUMN memo text NOT NULL DEFAULT '';\n"
                    "-- +goose Down\nALTER TABLE entries DROP COLUMN memo;\n",
                ),
                Run(
                    "go test ./internal/store/...",
                    "ok  \texample.com/ledgerd/internal/store\t0.412s",
                ),
                Say(
                    "Added the goose migration and `Memo` to `Entry` in the PostgreSQL store; the "
                    "SQLite driver is only used by `internal/testdb`."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(database|data layer)( is|:)\W+(\w+\W+){0,3}sqlite|(project|app|service|ledgerd)\W+(\w+\W+){0,3}(uses|runs on|stores (its )?data in) sqlite|data (is )?stored in sqlite",
            "SQLite is only the test helper's; the service's database is PostgreSQL",
        ),
    ),
    may=(r"postgres|pgx|go test",),
)

REPLACED_PERSISTENCE = Trap(
    "room-replaced-by-sqldelight",
    "Kotlin/Android",
    "the assistant says the app persists with Room; the user corrects it: SQLDelight, with Room "
    "left only in an old module",
    (
        Session(
            "claude",
            "/home/dev/src/trailnotes",
            (
                Ask("Where do we cache the downloaded trail maps?"),
                Say(
                    "Android projects like this one usually persist with Room; let me find the "
                    "DAO for the maps."
                ),
                Ask(
                    "no, we moved to SQLDelight last year. Room is only left in the old :legacy "
                    "module, which nothing depends on anymore"
                ),
                Run(
                    "grep -rl androidx.room --include=*.kts .",
                    "./legacy/build.gradle.kts",
                ),
                Read(
                    "shared/build.gradle.kts",
                    'plugins {\n    kotlin("multiplatform")\n    id("app.cash.sqldelight") version "2.0.1"\n}\n\n'
                    'sqldelight {\n    databases {\n        create("TrailDatabase") {\n            packageName.set("app.trailnotes.db")\n        }\n    }\n}\n',
                ),
                Read(
                    "shared/src/commonMain/sqldelight/app/trailnotes/db/MapTile.sq",
                    "CREATE TABLE map_tile (\n  trail_id TEXT NOT NULL,\n  zoom INTEGER NOT NULL,\n  bytes BLOB NOT NULL,\n"
                    "  PRIMARY KEY (trail_id, zoom)\n);\n\nselectForTrail:\nSELECT * FROM map_tile WHERE trail_id = ?;\n",
                ),
                Say(
                    "Downloaded tiles are cached in the SQLDelight table `map_tile` "
                    "(`shared/src/commonMain/sqldelight/.../MapTile.sq`), keyed by trail and zoom."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(persist(s|ence)?|database|data layer|orm|dao)\W+(\w+\W+){0,4}room\b(?! is only)|\broom (library|database|persistence)|(uses|with|on) room\b|androidx\.room",
            "the app persists with SQLDelight; Room is left only in an unused module",
        ),
    ),
    may=(r"sqldelight",),
)

HYPOTHETICAL_DATABASE = Trap(
    "asked-about-mongodb",
    "Python/SQLAlchemy",
    "the user asks what a move to MongoDB would break; the app runs on PostgreSQL through "
    "SQLAlchemy",
    (
        Session(
            "codex",
            "/home/dev/src/rosterly",
            (
                Ask(
                    "Hypothetically, if we moved this to MongoDB, what would break? Just curious, "
                    "not planning it."
                ),
                Read(
                    "app/db.py",
                    "from sqlalchemy import create_engine\nfrom sqlalchemy.orm import sessionmaker\n\n"
                    'engine = create_engine("postgresql+psycopg://rosterly@localhost/rosterly")\n'
                    "SessionLocal = sessionmaker(bind=engine)\n",
                ),
                Run(
                    "grep -rn 'relationship(' app/models | wc -l",
                    "14",
                ),
                Say(
                    "Mostly the relational parts: the 14 `relationship()` mappings and the joins in "
                    "`app/reports.py`, the Alembic migrations, and the unique constraints PostgreSQL "
                    "enforces for shift overlaps. It would be a rewrite of the data layer."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(database|data layer|stores? (its )?data|runs on|uses)\W+(\w+\W+){0,3}mongo|mongo(db)?\W+(\w+\W+){0,2}(database|db|store)\b",
            "MongoDB was only asked about; the app runs on PostgreSQL",
        ),
    ),
    may=(r"postgres|sqlalchemy",),
)

CASES = (
    SHELL_NODE_VERSION,
    LEGACY_SCRIPT_QUEUE,
    LEGACY_WEB_FRAMEWORK,
    IMAGE_INSTALLER,
    EMPTY_TEST_RUN,
    TEST_HELPER_DRIVER,
    REPLACED_PERSISTENCE,
    HYPOTHETICAL_DATABASE,
)
