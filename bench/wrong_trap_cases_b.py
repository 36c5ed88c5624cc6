# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, second half: stale READMEs, commands that always fail, tools the user does
not use, dev-only dependencies, generated or vendored languages, sibling checkouts, versions
printed for another project (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap

STALE_README = Trap(
    "stale-readme-go",
    "Go",
    "a README that says MySQL and `make test`, against the Postgres config and a Makefile without it",
    (
        Session(
            "claude",
            "/home/dev/src/billing",
            (
                Ask("Set up the project and run the tests."),
                Read(
                    "README.md",
                    "# billing\n\nA billing service backed by MySQL.\n\n## Tests\n\nRun `make test`.\n",
                ),
                Read(
                    "go.mod",
                    "module github.com/acme/billing\n\ngo 1.22\n\nrequire github.com/jackc/pgx/v5 v5.6.0\n",
                ),
                Read(
                    "internal/store/db.go",
                    'package store\n\nimport (\n\t"context"\n\n\t"github.com/jackc/pgx/v5/pgxpool"\n)\n\n'
                    "func Open(ctx context.Context, url string) (*pgxpool.Pool, error) {\n"
                    "\treturn pgxpool.New(ctx, url)\n}\n",
                ),
                Run("make test", "make: *** No rule to make target 'test'.  Stop.", 2),
                Read("Makefile", "build:\n\tgo build ./...\n\nlint:\n\tgolangci-lint run\n"),
                Run("go test ./...", "ok  \tgithub.com/acme/billing/internal/store\t0.020s"),
                Say(
                    "The README is out of date: the store uses PostgreSQL through pgx, and the "
                    "Makefile has no test target; `go test ./...` runs the tests."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(data layer|database)[^.\n]*mysql|backed by mysql",
            "the code opens PostgreSQL through pgx",
        ),
        (
            r"(run|runs|with|command)[^.\n]*`make test`(?![^\n]*(fail|no rule))",
            "the Makefile has no test target",
        ),
    ),
    may=(r"go test", r"postgres|pgx"),
)

NPM_TEST_FAILS = Trap(
    "npm-test-always-fails",
    "Node",
    "a test command that failed every time (no test script), then another runner that passed",
    (
        Session(
            "codex",
            "/home/dev/src/csv-tools",
            (
                Ask("Add a --delimiter flag and test it."),
                Read(
                    "package.json",
                    '{\n  "name": "csv-tools",\n  "type": "module",\n'
                    '  "scripts": {"test": "echo \\"Error: no test specified\\" && exit 1"}\n}\n',
                ),
                Run(
                    "npm test",
                    '> csv-tools@1.0.0 test\n> echo "Error: no test specified" && exit 1\n\nError: no test specified',
                    1,
                ),
                Run("npm test -- test/delimiter.test.js", "Error: no test specified", 1),
                Run("node --test test/", "# tests 5\n# pass 5\n# fail 0"),
                Say(
                    "`npm test` is a placeholder that always fails; the tests run with `node --test test/`."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(run|runs|with|command)[^.\n]*`npm test`(?![^\n]*(fail|placeholder|instead|rather))",
            "`npm test` failed every time: the script is a placeholder",
        ),
    ),
    may=(r"node --test",),
)

NO_DOCKER = Trap(
    "declined-docker",
    "PHP/Laravel",
    "the user says they do not use Docker; the repository ships a Dockerfile and compose file",
    (
        Session(
            "claude",
            "/home/dev/src/clinic",
            (
                Ask("Get the app running so I can try the booking form."),
                Read(
                    "docker-compose.yml",
                    "services:\n  app:\n    build: .\n    ports: ['8000:8000']\n  db:\n    image: mysql:8\n",
                ),
                Read("Dockerfile", "FROM php:8.3-fpm\nRUN docker-php-ext-install pdo_mysql\n"),
                Say("I can start it with `docker compose up -d`."),
                Ask("No, we don't use Docker here. Run it locally with artisan and the sqlite db."),
                Read(".env", "DB_CONNECTION=sqlite\nDB_DATABASE=database/database.sqlite\n"),
                Run(
                    "php artisan migrate --force",
                    "INFO  Running migrations.\n  2024_01_01_000000_create_bookings ... DONE",
                ),
                Run("php artisan serve", "INFO  Server running on [http://127.0.0.1:8000]."),
                Say("Running locally on port 8000 with the SQLite database."),
            ),
        ),
    ),
    wrong=(
        (r"docker compose up|docker-compose up|run with docker", "the user does not use Docker"),
        (r"(data layer|database)[^.\n]*mysql", "MySQL is only the unused compose file's image"),
    ),
    may=(r"artisan",),
)

NOT_YARN = Trap(
    "declined-yarn",
    "Node/React",
    "a stale yarn.lock beside the pnpm lockfile; the user says they use pnpm, not yarn",
    (
        Session(
            "codex",
            "/home/dev/src/dashboard",
            (
                Ask("Install deps and fix the type errors in the chart component."),
                Run("ls", "package.json\npnpm-lock.yaml\nyarn.lock\nsrc\ntsconfig.json"),
                Run("yarn install", "yarn install v1.22.22\n[1/4] Resolving packages...", 130),
                Ask("don't use yarn, that lockfile is stale. we use pnpm."),
                Run("pnpm install", "Packages: +312\nDone in 6.1s"),
                Run(
                    "pnpm tsc --noEmit",
                    "src/chart.tsx(14,7): error TS2322: Type 'string' is not assignable to type 'number'.",
                    2,
                ),
                Run("pnpm tsc --noEmit", ""),
                Say("Installed with pnpm and fixed the chart's type error."),
            ),
        ),
    ),
    wrong=(
        (
            r"(package manager|install)[^.\n]*\byarn\b(?![^\n]*(not|instead|stale))",
            "the user uses pnpm",
        ),
        (r"^[^\n]*`yarn (install|add|test)`(?![^\n]*(not|instead|stale|pnpm))", "yarn is not used"),
    ),
    may=(r"pnpm",),
)

OPTIONAL_EXTRA = Trap(
    "optional-extra-db",
    "Python library",
    "a database driver only in an optional extra of a library that stores nothing itself",
    (
        Session(
            "claude",
            "/home/dev/src/retry-kit",
            (
                Ask("Add jitter to the backoff and a test."),
                Read(
                    "pyproject.toml",
                    '[project]\nname = "retry-kit"\nrequires-python = ">=3.11"\ndependencies = []\n\n'
                    '[project.optional-dependencies]\npostgres = ["psycopg>=3.1"]\n'
                    'redis = ["redis>=5"]\n\n[dependency-groups]\ndev = ["pytest>=8", "sqlalchemy>=2"]\n',
                ),
                Read(
                    "src/retry_kit/backoff.py",
                    "import random\n\n\ndef delay(attempt: int, base: float = 0.1) -> float:\n"
                    "    return base * 2**attempt * random.uniform(0.5, 1.5)\n",
                ),
                Run("pytest -q", "9 passed in 0.21s"),
                Say("Jitter added; the backoff stays pure Python with no dependencies."),
            ),
        ),
    ),
    wrong=(
        (
            r"(data layer|database)[^.\n]*(postgres|redis|sqlalchemy)",
            "the drivers are optional extras",
        ),
        (r"(built with|framework)[^.\n]*sqlalchemy", "SQLAlchemy is a dev-group dependency only"),
    ),
    may=(r"pytest",),
)

DEV_ONLY_DB = Trap(
    "dev-only-db",
    "Node/Prisma",
    "in-memory MongoDB and SQLite in devDependencies for tests, Prisma on PostgreSQL for the app",
    (
        Session(
            "codex",
            "/home/dev/src/orders-api",
            (
                Ask("Add an index on orders.created_at."),
                Read(
                    "package.json",
                    '{\n  "name": "orders-api",\n  "dependencies": {"@prisma/client": "5.14.0", "hono": "4.4.0"},\n'
                    '  "devDependencies": {"mongodb-memory-server": "9.2.0", "better-sqlite3": "11.0.0",'
                    ' "vitest": "1.6.0", "prisma": "5.14.0"}\n}\n',
                ),
                Read(
                    "prisma/schema.prisma",
                    'datasource db {\n  provider = "postgresql"\n  url      = env("DATABASE_URL")\n}\n\n'
                    "model Order {\n  id        Int      @id @default(autoincrement())\n"
                    "  createdAt DateTime @default(now())\n}\n",
                ),
                Run(
                    "npx prisma migrate dev --name orders_created_at",
                    "Applying migration `20240601_orders_created_at`",
                ),
                Run("npx vitest run", "Test Files  4 passed (4)"),
                Say("Index added through a Prisma migration."),
            ),
        ),
    ),
    wrong=(
        (r"(data layer|database)[^.\n]*(mongo|sqlite)", "the dev-only stores are test doubles"),
    ),
    may=(r"postgres|prisma",),
)

GENERATED_LANGUAGE = Trap(
    "generated-python-stubs",
    "Go",
    "Python seen only in generated protobuf stubs of a Go service",
    (
        Session(
            "claude",
            "/home/dev/src/geo",
            (
                Ask("The generated Python client lost a field; regenerate and check."),
                Read(
                    "go.mod",
                    "module github.com/acme/geo\n\ngo 1.22\n\nrequire google.golang.org/grpc v1.64.0\n",
                ),
                Read(
                    "gen/python/geo/v1/geo_pb2.py",
                    "# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\n"
                    "from google.protobuf import descriptor as _descriptor\n",
                ),
                Read(
                    "gen/python/geo/v1/geo_pb2_grpc.py",
                    "# Generated by the gRPC Python protocol compiler plugin. DO NOT EDIT!\nimport grpc\n",
                ),
                Run("buf generate", ""),
                Run("go test ./...", "ok  \tgithub.com/acme/geo/internal/server\t0.031s"),
                Say("Regenerated; the field is back in geo_pb2.py."),
            ),
        ),
    ),
    wrong=(
        (
            r"(written in|language is|languages?:)[^.\n]*python|python project",
            "Python is only generated stubs",
        ),
        (r"\bpytest\b", "no Python test ran"),
    ),
    may=(r"\bgo\b",),
)

VENDORED_LANGUAGE = Trap(
    "vendored-lua-c",
    "C/CMake",
    "a vendored scripting library (Lua sources and a JS test harness) inside a C project",
    (
        Session(
            "codex",
            "/home/dev/src/tinydb",
            (
                Ask("Fix the page cache eviction bug."),
                Read(
                    "CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.20)\nproject(tinydb C)\n"
                    "add_library(tinydb src/pager.c)\nadd_subdirectory(third_party/lua)\nenable_testing()\n",
                ),
                Read(
                    "src/pager.c",
                    '#include "pager.h"\n\nint pager_evict(Pager *p) {\n  return p->lru_tail;\n}\n',
                ),
                Read(
                    "third_party/lua/test/all.lua",
                    "-- vendored upstream test driver\nprint('testing lua')\n",
                ),
                Read(
                    "third_party/lua/etc/bench.js",
                    "// upstream's benchmark harness\nconsole.log('bench');\n",
                ),
                Run(
                    "cmake -B build && cmake --build build && ctest --test-dir build",
                    "100% tests passed, 0 tests failed out of 12",
                ),
                Say("Eviction now drops the least recently used page."),
            ),
        ),
    ),
    wrong=(
        (r"(written in|language is|languages?:)[^.\n]*(lua|javascript)", "Lua and JS are vendored"),
    ),
    may=(r"ctest|cmake",),
)

SIBLING_CHECKOUT = Trap(
    "sibling-checkout-cmd",
    "Rust",
    "a test command run in a sibling checkout (another project) during the session",
    (
        Session(
            "claude",
            "/home/dev/src/parser-rs",
            (
                Ask("Make the parser accept trailing commas; the web client depends on that."),
                Read(
                    "Cargo.toml",
                    '[package]\nname = "parser-rs"\nedition = "2021"\n\n[dependencies]\nnom = "7"\n',
                ),
                Run("cargo test", "test result: ok. 31 passed; 0 failed"),
                Run(
                    "cd /home/dev/src/web-client && npm test",
                    "PASS src/parse.test.ts\nTests: 12 passed",
                ),
                Run("cd /home/dev/src/web-client && npx playwright test", "12 passed (8.1s)"),
                Say("Trailing commas parse now; the web client's tests pass against it."),
            ),
        ),
    ),
    wrong=(
        (
            r"`npm test`|`npx playwright test`|playwright|through npm",
            "those ran in another checkout",
        ),
        (
            r"(written in|language)[^.\n]*typescript",
            "the TypeScript belongs to the sibling project",
        ),
    ),
    may=(r"cargo test",),
)

OTHER_VERSION = Trap(
    "other-project-version",
    "Python",
    "a runtime version printed by a tool for another project's environment",
    (
        Session(
            "codex",
            "/home/dev/src/notes-app",
            (
                Ask("Is the old importer compatible? Check its Python, then add type hints here."),
                Read(
                    "pyproject.toml",
                    '[project]\nname = "notes-app"\nrequires-python = ">=3.12"\ndependencies = ["typer>=0.12"]\n',
                ),
                Run("cd ../legacy-importer && .venv/bin/python --version", "Python 3.8.18"),
                Run("cd ../legacy-importer && node --version", "v16.20.2"),
                Run("python --version", "Python 3.12.4"),
                Run("pytest -q", "22 passed in 0.48s"),
                Say("The old importer runs Python 3.8; this project needs 3.12."),
            ),
        ),
    ),
    wrong=(
        (r"python[^.\n]*3\.8", "3.8 is the other project's interpreter"),
        (r"node[^.\n]*(v?16|\b16\.)", "Node 16 is the other project's"),
    ),
    may=(r"3\.12",),
)

TEMPLATES_FOLDER = Trap(
    "templates-scaffold",
    "Python CLI",
    "a project generator's templates/ folder holding a React app with Jest",
    (
        Session(
            "claude",
            "/home/dev/src/scaffold",
            (
                Ask("The React template's package.json has an outdated React version; bump it."),
                Read(
                    "pyproject.toml",
                    '[project]\nname = "scaffold"\ndependencies = ["click>=8", "jinja2>=3"]\n\n'
                    '[dependency-groups]\ndev = ["pytest>=8"]\n',
                ),
                Read(
                    "src/scaffold/cli.py",
                    "import click\nfrom jinja2 import Environment\n\n\n@click.command()\ndef main() -> None:\n    pass\n",
                ),
                Read(
                    "templates/react-app/package.json",
                    '{\n  "name": "{{ name }}",\n  "dependencies": {"react": "17.0.2", "next": "12.3.4"},\n'
                    '  "devDependencies": {"jest": "29.7.0"}\n}\n',
                ),
                Read(
                    "templates/react-app/src/App.test.jsx",
                    "import { render } from '@testing-library/react';\nimport App from './App';\n\n"
                    "test('renders', () => { render(<App />); });\n",
                ),
                Run("pytest -q", "17 passed in 0.9s"),
                Say("Bumped React to 18.3 in the template; the generator's own tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?!.*templates/)[^\n]*(built with|framework)[^.\n]*(react|next)",
            "React is a template's",
        ),
        (r"^(?!.*templates/)[^\n]*tests? (are )?written with[^.\n]*jest", "Jest is a template's"),
    ),
    may=(r"click|pytest",),
)

FIXTURES_FOLDER = Trap(
    "fixtures-symfony",
    "PHP/Laravel",
    "a test fixture app with its own composer.json on another framework",
    (
        Session(
            "codex",
            "/home/dev/src/upgrader",
            (
                Ask("The upgrader misreads composer files with a platform section; fix it."),
                Read(
                    "composer.json",
                    '{\n  "name": "acme/upgrader",\n  "require": {"php": "^8.2", "laravel/framework": "^11.0"},\n'
                    '  "require-dev": {"pestphp/pest": "^2.34"}\n}\n',
                ),
                Read(
                    "tests/fixtures/sample-app/composer.json",
                    '{\n  "require": {"symfony/framework-bundle": "^6.4", "doctrine/orm": "^2.19"},\n'
                    '  "config": {"platform": {"php": "8.1"}}\n}\n',
                ),
                Read(
                    "app/Composer/Reader.php",
                    "<?php\n\nnamespace App\\Composer;\n\nuse Illuminate\\Support\\Arr;\n\nclass Reader\n{\n}\n",
                ),
                Run("vendor/bin/pest", "Tests:    23 passed (58 assertions)"),
                Say("The reader now ignores the platform section."),
            ),
        ),
    ),
    wrong=(
        (r"(built with|framework)[^.\n]*symfony", "Symfony is a fixture app's"),
        (r"(data layer|database|orm)[^.\n]*doctrine", "Doctrine is a fixture app's"),
    ),
    may=(r"laravel|pest",),
)

CMAKE_EXAMPLES = Trap(
    "cmake-examples-gtest",
    "C/CMake",
    "an examples/ folder using SDL2 and GoogleTest beside a library tested with ctest and Unity",
    (
        Session(
            "claude",
            "/home/dev/src/ringbuf",
            (
                Ask("Add a peek function and a unit test."),
                Read(
                    "CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.20)\nproject(ringbuf C)\nadd_library(ringbuf src/ringbuf.c)\n"
                    "enable_testing()\nadd_subdirectory(tests)\n",
                ),
                Read(
                    "tests/test_ringbuf.c",
                    '#include "unity.h"\n#include "ringbuf.h"\n\nvoid test_peek(void) {\n  TEST_ASSERT_EQUAL(1, 1);\n}\n',
                ),
                Read(
                    "examples/sdl_viewer/CMakeLists.txt",
                    "project(sdl_viewer CXX)\nfind_package(SDL2 REQUIRED)\nfind_package(GTest REQUIRED)\n",
                ),
                Read(
                    "examples/sdl_viewer/viewer_test.cpp",
                    "#include <gtest/gtest.h>\n#include <SDL2/SDL.h>\n\nTEST(Viewer, Opens) { EXPECT_TRUE(true); }\n",
                ),
                Run(
                    "cmake -B build && cmake --build build && ctest --test-dir build",
                    "100% tests passed, 0 tests failed out of 7",
                ),
                Say("Added rb_peek and its Unity test."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?!.*examples/)[^\n]*tests? (are )?written with[^.\n]*(googletest|gtest)",
            "GoogleTest is an example's",
        ),
        (
            r"^(?!.*examples/)[^\n]*(written in|language)[^.\n]*c\+\+",
            "C++ is only the example viewer",
        ),
        (
            r"^(?!.*examples/)[^\n]*(built with|framework|libraries)[^.\n]*sdl",
            "SDL2 is an example's",
        ),
    ),
    may=(r"ctest",),
)

ELIXIR_SIDE_STORE = Trap(
    "phoenix-side-store",
    "Elixir/Phoenix",
    "a Redis client and a MongoDB driver for a cache and an import job beside the Postgres Repo",
    (
        Session(
            "claude",
            "/home/dev/src/roster",
            (
                Ask("The cache keeps stale team names after a rename."),
                Read(
                    "mix.exs",
                    "defmodule Roster.MixProject do\n  use Mix.Project\n\n  defp deps do\n    [\n"
                    '      {:phoenix, "~> 1.7"},\n      {:ecto_sql, "~> 3.11"},\n      {:postgrex, ">= 0.0.0"},\n'
                    '      {:redix, "~> 1.5"},\n      {:mongodb_driver, "~> 1.4"}\n    ]\n  end\nend\n',
                ),
                Read(
                    "config/dev.exs",
                    'import Config\n\nconfig :roster, Roster.Repo,\n  username: "postgres",\n'
                    '  hostname: "localhost",\n  database: "roster_dev"\n',
                ),
                Read(
                    "lib/roster/cache.ex",
                    'defmodule Roster.Cache do\n  def get(key), do: Redix.command(:cache, ["GET", key])\nend\n',
                ),
                Read(
                    "lib/roster/import/legacy.ex",
                    'defmodule Roster.Import.Legacy do\n  def run(conn), do: Mongo.find(conn, "teams", %{})\nend\n',
                ),
                Run("mix test", "58 tests, 0 failures"),
                Say("Renames now evict the cached name."),
            ),
        ),
    ),
    wrong=((r"(data layer|database)[^.\n]*mongo", "MongoDB is only read by a one-off import"),),
    may=(r"postgres|phoenix",),
)

GRADLE_TEST_ONLY_DB = Trap(
    "gradle-test-h2",
    "Java/Gradle",
    "an in-memory database only on the test runtime classpath of a Spring Boot app on Postgres",
    (
        Session(
            "codex",
            "/home/dev/src/fleet",
            (
                Ask("Add a mileage column to vehicles with a Flyway migration."),
                Read(
                    "build.gradle.kts",
                    'plugins {\n  id("org.springframework.boot") version "3.3.0"\n  java\n}\n\n'
                    "dependencies {\n"
                    '  implementation("org.springframework.boot:spring-boot-starter-data-jpa")\n'
                    '  runtimeOnly("org.postgresql:postgresql")\n'
                    '  implementation("org.flywaydb:flyway-core")\n'
                    '  testRuntimeOnly("com.h2database:h2")\n'
                    '  testImplementation("org.springframework.boot:spring-boot-starter-test")\n}\n',
                ),
                Read(
                    "src/main/resources/application.yml",
                    "spring:\n  datasource:\n    url: jdbc:postgresql://localhost:5432/fleet\n",
                ),
                Read(
                    "src/test/resources/application.yml",
                    "spring:\n  datasource:\n    url: jdbc:h2:mem:fleet\n",
                ),
                Run("./gradlew test", "BUILD SUCCESSFUL in 41s\n7 actionable tasks: 7 executed"),
                Say("Migration V7 adds vehicles.mileage."),
            ),
        ),
    ),
    wrong=((r"(data layer|database)[^.\n]*\bh2\b", "H2 is the tests' in-memory stand-in"),),
    may=(r"postgres|spring", r"gradlew test"),
)

STALE_README_FRAMEWORK = Trap(
    "stale-readme-flask",
    "Python/FastAPI",
    "a README naming Flask while the code the assistant read is FastAPI",
    (
        Session(
            "codex",
            "/home/dev/src/pricing",
            (
                Ask("Add a /healthz route."),
                Read(
                    "README.md",
                    "# pricing\n\nA small Flask service that quotes prices.\n\nRun it with `flask run`.\n",
                ),
                Read(
                    "pricing/main.py",
                    'from fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get("/quote")\n'
                    'def quote() -> dict[str, int]:\n    return {"price": 1}\n',
                ),
                Read(
                    "pyproject.toml",
                    '[project]\nname = "pricing"\ndependencies = ["fastapi>=0.110", "uvicorn>=0.29"]\n',
                ),
                Run(
                    "uvicorn pricing.main:app --port 8001 &",
                    "INFO:     Uvicorn running on http://127.0.0.1:8001",
                ),
                Run("pytest -q", "8 passed in 0.4s"),
                Say("Added /healthz. Note the README still says Flask; the service is FastAPI."),
            ),
        ),
    ),
    wrong=(
        (
            r"(built with|framework)[^.\n]*flask|flask service",
            "the code is FastAPI; the README is stale",
        ),
        (r"`flask run`", "the service runs with uvicorn"),
    ),
    may=(r"fastapi",),
)

CASES = (
    STALE_README,
    NPM_TEST_FAILS,
    NO_DOCKER,
    NOT_YARN,
    OPTIONAL_EXTRA,
    DEV_ONLY_DB,
    GENERATED_LANGUAGE,
    VENDORED_LANGUAGE,
    SIBLING_CHECKOUT,
    OTHER_VERSION,
    TEMPLATES_FOLDER,
    FIXTURES_FOLDER,
    CMAKE_EXAMPLES,
    ELIXIR_SIDE_STORE,
    GRADLE_TEST_ONLY_DB,
    STALE_README_FRAMEWORK,
)
