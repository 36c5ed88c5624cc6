# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, first half: side stores, sub-folders with their own stack, monorepos whose
packages disagree, migrations in the middle of a session (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

_PY_SETTINGS = """from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
INSTALLED_APPS = ["django.contrib.admin", "django.contrib.auth", "shop"]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "shop",
        "HOST": "localhost",
    }
}
"""

DJANGO_SIDE_STORE = Trap(
    "django-side-store",
    "Python/Django",
    "a side store's client (MongoDB for an analytics export) beside the real database",
    (
        Session(
            "claude",
            "/home/dev/src/shop",
            (
                Ask("The nightly analytics export is slow. Look at how it writes."),
                Read(
                    "requirements.txt",
                    "Django==5.0.6\npsycopg[binary]==3.1.19\npymongo==4.7.2\npytest-django==4.8.0\n",
                ),
                Read("shop/settings.py", _PY_SETTINGS),
                Read(
                    "shop/analytics/export.py",
                    "from pymongo import MongoClient\n\nfrom shop.models import Order\n\n\n"
                    "def export(url: str) -> int:\n    client = MongoClient(url)\n"
                    "    rows = [o.as_row() for o in Order.objects.all()]\n"
                    "    client.analytics.orders.insert_many(rows)\n    return len(rows)\n",
                ),
                Read(
                    "shop/models.py",
                    "from django.db import models\n\n\nclass Order(models.Model):\n"
                    "    total = models.DecimalField(max_digits=9, decimal_places=2)\n",
                ),
                Run("pytest shop/tests -q", "12 passed in 1.84s"),
                Say(
                    "The export pushes every order to the analytics MongoDB in one call; the "
                    "app's own data stays in PostgreSQL through the Django ORM."
                ),
            ),
        ),
    ),
    wrong=((r"(data layer|database)[^.\n]*mongo", "MongoDB is an analytics export target only"),),
    may=(r"postgres",),
)

RAILS_SIDE_STORE = Trap(
    "rails-side-store",
    "Ruby/Rails",
    "a MySQL client in the Gemfile for a legacy import, beside the PostgreSQL the app runs on",
    (
        Session(
            "codex",
            "/home/dev/src/library",
            (
                Ask("Fix the legacy import task, it crashes on empty titles."),
                Read(
                    "Gemfile",
                    'source "https://rubygems.org"\n\ngem "rails", "~> 7.1"\ngem "pg", "~> 1.5"\n'
                    'gem "mysql2", "~> 0.5" # legacy catalogue import only\ngem "puma"\n\n'
                    'group :test do\n  gem "rspec-rails"\nend\n',
                ),
                Read(
                    "config/database.yml",
                    "default: &default\n  adapter: postgresql\n  encoding: unicode\n\n"
                    "development:\n  <<: *default\n  database: library_development\n",
                ),
                Read(
                    "lib/tasks/legacy_import.rake",
                    'require "mysql2"\n\nnamespace :legacy do\n  task import: :environment do\n'
                    '    client = Mysql2::Client.new(url: ENV.fetch("LEGACY_URL"))\n'
                    '    client.query("SELECT title FROM books").each { |r| Book.create!(title: r["title"]) }\n'
                    "  end\nend\n",
                ),
                Run("bundle exec rspec spec/tasks", "3 examples, 0 failures"),
                Say(
                    "The import now skips rows with an empty title; the app itself runs on PostgreSQL."
                ),
            ),
        ),
    ),
    wrong=((r"(data layer|database)[^.\n]*mysql", "MySQL is only the legacy import's source"),),
    may=(r"postgres",),
)

LARAVEL_SIDE_STORE = Trap(
    "laravel-side-store",
    "PHP/Laravel",
    "a MongoDB package for audit logs beside the SQLite connection the app is configured with",
    (
        Session(
            "claude",
            "/home/dev/src/invoices",
            (
                Ask("Audit log entries are missing the user id; please fix."),
                Read(
                    "composer.json",
                    '{\n  "name": "acme/invoices",\n  "require": {\n    "php": "^8.2",\n'
                    '    "laravel/framework": "^11.0",\n    "mongodb/laravel-mongodb": "^4.3"\n  },\n'
                    '  "require-dev": {\n    "phpunit/phpunit": "^11.0"\n  }\n}\n',
                ),
                Read(
                    ".env.example",
                    "APP_NAME=Invoices\nDB_CONNECTION=sqlite\nDB_DATABASE=database/database.sqlite\n"
                    "AUDIT_MONGO_URI=mongodb://localhost:27017\n",
                ),
                Read(
                    "app/Audit/AuditLog.php",
                    "<?php\n\nnamespace App\\Audit;\n\nuse MongoDB\\Laravel\\Eloquent\\Model;\n\n"
                    "class AuditLog extends Model\n{\n    protected $connection = 'audit';\n}\n",
                ),
                Run("php artisan test", "Tests:    14 passed (31 assertions)"),
                Say("Audit entries go to a separate MongoDB connection; invoices live in SQLite."),
            ),
        ),
    ),
    wrong=((r"(data layer:|database is)[^.\n]*mongo", "MongoDB holds only the audit log"),),
    may=(r"sqlite|laravel",),
)

NEXT_DOCS_VITEST = Trap(
    "next-docs-vitest",
    "Node/Next.js",
    "a docs/ site with its own package.json and Vitest, beside the app tested with Jest",
    (
        Session(
            "claude",
            "/home/dev/src/storefront",
            (
                Ask("Fix the cart total rounding and fix the docs build warning too."),
                Read(
                    "package.json",
                    '{\n  "name": "storefront",\n  "scripts": {"dev": "next dev", "test": "jest"},\n'
                    '  "dependencies": {"next": "14.2.3", "react": "18.3.1"},\n'
                    '  "devDependencies": {"jest": "29.7.0", "@testing-library/react": "15.0.7"}\n}\n',
                ),
                Read(
                    "src/cart/total.test.ts",
                    "import { total } from './total';\n\ntest('rounds to cents', () => {\n"
                    "  expect(total([0.1, 0.2])).toBe(0.3);\n});\n",
                ),
                Run(
                    "npm test -- src/cart", "PASS src/cart/total.test.ts\nTests: 4 passed, 4 total"
                ),
                Read(
                    "docs/package.json",
                    '{\n  "name": "storefront-docs",\n  "scripts": {"test": "vitest run"},\n'
                    '  "devDependencies": {"vitest": "1.6.0", "vitepress": "1.2.2"}\n}\n',
                ),
                Read(
                    "docs/tests/links.test.ts",
                    "import { describe, it, expect } from 'vitest';\n\n"
                    "describe('links', () => { it('resolve', () => expect(1).toBe(1)); });\n",
                ),
                Run(
                    "cd docs && npx vitest run",
                    "Test Files  1 passed (1)\n     Tests  1 passed (1)",
                ),
                Say("Cart total fixed; the docs site's link check passes too."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?!.*docs/)[^\n]*tests? (are )?written with[^.\n]*vitest",
            "Vitest only tests the docs site; the app's tests use Jest",
        ),
        (
            r"(built with|framework)[^.\n]*vitepress(?![^\n]*docs/)",
            "VitePress builds the docs site only",
        ),
    ),
    may=(r"jest", r"next"),
)

PHOENIX_EXAMPLES = Trap(
    "phoenix-examples",
    "Elixir/Phoenix",
    "an examples/ app with its own mix.exs on SQLite, beside the Phoenix app's Postgres Repo",
    (
        Session(
            "codex",
            "/home/dev/src/ledger",
            (
                Ask("Add a balance column to accounts, and keep the example app compiling."),
                Read(
                    "mix.exs",
                    "defmodule Ledger.MixProject do\n  use Mix.Project\n\n  defp deps do\n    [\n"
                    '      {:phoenix, "~> 1.7"},\n      {:ecto_sql, "~> 3.11"},\n'
                    '      {:postgrex, ">= 0.0.0"}\n    ]\n  end\nend\n',
                ),
                Read(
                    "lib/ledger/repo.ex",
                    "defmodule Ledger.Repo do\n  use Ecto.Repo,\n    otp_app: :ledger,\n"
                    "    adapter: Ecto.Adapters.Postgres\nend\n",
                ),
                Read(
                    "examples/embedded/mix.exs",
                    "defmodule Embedded.MixProject do\n  use Mix.Project\n\n  defp deps do\n"
                    '    [{:ecto_sqlite3, "~> 0.15"}, {:ledger, path: "../.."}]\n  end\nend\n',
                ),
                Read(
                    "examples/embedded/lib/embedded/repo.ex",
                    "defmodule Embedded.Repo do\n  use Ecto.Repo, otp_app: :embedded, adapter: Ecto.Adapters.SQLite3\nend\n",
                ),
                Run("mix test", "Finished in 0.9 seconds\n41 tests, 0 failures"),
                Say("Migration added; the embedded example still compiles against the new schema."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?!.*examples/)[^\n]*(data layer|database)[^.\n]*sqlite",
            "SQLite is the example app's database, not the project's",
        ),
    ),
    may=(r"postgres", r"mix test"),
)

GO_VENDOR = Trap(
    "go-vendor-gin",
    "Go",
    "a vendor/ tree holding a web framework the service does not import",
    (
        Session(
            "claude",
            "/home/dev/src/shortlinks",
            (
                Ask("Why does the redirect handler return 500 on unknown slugs?"),
                Read(
                    "go.mod",
                    "module github.com/acme/shortlinks\n\ngo 1.22\n\nrequire github.com/go-chi/chi/v5 v5.0.12\n",
                ),
                Read(
                    "internal/http/router.go",
                    'package http\n\nimport (\n\t"net/http"\n\n\t"github.com/go-chi/chi/v5"\n)\n\n'
                    "func Router() http.Handler {\n\tr := chi.NewRouter()\n\treturn r\n}\n",
                ),
                Read(
                    "vendor/github.com/gin-gonic/gin/gin.go",
                    'package gin\n\nimport "net/http"\n\n// Engine is the framework\'s instance.\ntype Engine struct{}\n',
                ),
                Read(
                    "vendor/github.com/gin-gonic/gin/go.mod",
                    "module github.com/gin-gonic/gin\n\ngo 1.20\n",
                ),
                Run("go test ./...", "ok  \tgithub.com/acme/shortlinks/internal/http\t0.011s"),
                Say("Unknown slugs now return 404; the handler no longer panics on a nil link."),
            ),
        ),
    ),
    wrong=(
        (r"(built with|framework)[^.\n]*\bgin\b", "gin is vendored, not imported by the service"),
        (r"go 1\.20", "1.20 is the vendored module's go line"),
    ),
    may=(r"chi", r"go test"),
)

RUST_WORKSPACE = Trap(
    "rust-workspace-split",
    "Rust workspace",
    "a workspace whose crates use different web frameworks (one legacy crate on another)",
    (
        Session(
            "codex",
            "/home/dev/src/relay",
            (
                Ask("Add a health endpoint to the gateway crate."),
                Read(
                    "Cargo.toml",
                    '[workspace]\nmembers = ["crates/gateway", "crates/legacy-admin", "crates/core"]\nresolver = "2"\n',
                ),
                Read(
                    "crates/gateway/Cargo.toml",
                    '[package]\nname = "gateway"\nedition = "2021"\n\n[dependencies]\naxum = "0.7"\ntokio = { version = "1", features = ["full"] }\n',
                ),
                Read(
                    "crates/gateway/src/main.rs",
                    "use axum::{routing::get, Router};\n\n#[tokio::main]\nasync fn main() {\n"
                    '    let app = Router::new().route("/", get(|| async { "ok" }));\n}\n',
                ),
                Read(
                    "crates/legacy-admin/Cargo.toml",
                    '[package]\nname = "legacy-admin"\nedition = "2021"\n\n[dependencies]\nactix-web = "4"\n',
                ),
                Read(
                    "crates/legacy-admin/src/main.rs",
                    "use actix_web::{web, App, HttpServer};\n\n#[actix_web::main]\nasync fn main() -> std::io::Result<()> {\n"
                    '    HttpServer::new(|| App::new()).bind(("127.0.0.1", 8081))?.run().await\n}\n',
                ),
                Run("cargo test -p gateway", "test result: ok. 6 passed; 0 failed"),
                Say(
                    "Added GET /health to the gateway (axum); the legacy admin crate is untouched."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?!.*legacy-admin)[^\n]*(built with|framework)[^.\n]*actix",
            "actix-web is one legacy crate's framework, not the project's",
        ),
    ),
    may=(r"axum", r"cargo test"),
)

NODE_MONOREPO = Trap(
    "node-monorepo-split",
    "Node monorepo",
    "packages that disagree: the API on Fastify, an old admin package still on Express",
    (
        Session(
            "claude",
            "/home/dev/src/tickets",
            (
                Ask("Add rate limiting to the API package."),
                Read("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n"),
                Read(
                    "packages/api/package.json",
                    '{\n  "name": "@tickets/api",\n  "dependencies": {"fastify": "4.27.0"},\n'
                    '  "devDependencies": {"vitest": "1.6.0"}\n}\n',
                ),
                Read(
                    "packages/api/src/server.ts",
                    "import Fastify from 'fastify';\n\nexport const app = Fastify({ logger: true });\n",
                ),
                Read(
                    "packages/admin/package.json",
                    '{\n  "name": "@tickets/admin",\n  "dependencies": {"express": "4.19.2"},\n'
                    '  "devDependencies": {"mocha": "10.4.0"}\n}\n',
                ),
                Read(
                    "packages/admin/src/index.js",
                    "const express = require('express');\nconst app = express();\nmodule.exports = app;\n",
                ),
                Run("pnpm --filter @tickets/api test", "Test Files  3 passed (3)"),
                Say("Rate limiting added to the Fastify API; the admin package was left alone."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?!.*packages/admin)[^\n]*(built with|framework)[^.\n]*express",
            "Express is the admin package's only",
        ),
        (
            r"^(?!.*packages/admin)[^\n]*tests? (are )?written with[^.\n]*mocha",
            "Mocha tests only the admin package",
        ),
    ),
    may=(r"fastify",),
)

FLASK_TO_FASTAPI = Trap(
    "flask-to-fastapi",
    "Python/FastAPI",
    "a migration away from Flask in the middle of the session, Flask still in the lockfile",
    (
        Session(
            "claude",
            "/home/dev/src/weather",
            (
                Ask("We're moving the API off Flask to FastAPI today. Port app.py."),
                Read(
                    "app.py",
                    "from flask import Flask, jsonify\n\napp = Flask(__name__)\n\n\n"
                    '@app.get("/forecast")\ndef forecast():\n    return jsonify({"ok": True})\n',
                ),
                Read("requirements.lock", "flask==3.0.3\nwerkzeug==3.0.3\nrequests==2.32.3\n"),
                Write(
                    "app.py",
                    "from fastapi import FastAPI\n\napp = FastAPI()\n\n\n"
                    '@app.get("/forecast")\ndef forecast() -> dict[str, bool]:\n    return {"ok": True}\n',
                ),
                Run(
                    "pip install fastapi uvicorn",
                    "Successfully installed fastapi-0.111.0 uvicorn-0.30.1",
                ),
                Run("pytest -q", "5 passed in 0.62s"),
                Say("Ported to FastAPI; the lockfile still pins Flask until we regenerate it."),
            ),
        ),
    ),
    wrong=((r"(built with|framework)[^.\n]*flask", "the session moved the API off Flask"),),
    may=(r"fastapi", r"pytest"),
)

JEST_TO_VITEST = Trap(
    "jest-to-vitest",
    "Node/TypeScript",
    "a test-runner migration mid-session: Jest still in the lockfile, Vitest runs at the end",
    (
        Session(
            "codex",
            "/home/dev/src/ui-kit",
            (
                Ask("Switch the test suite from Jest to Vitest and make it pass."),
                Read(
                    "package.json",
                    '{\n  "name": "ui-kit",\n  "scripts": {"test": "jest"},\n'
                    '  "devDependencies": {"jest": "29.7.0", "ts-jest": "29.1.4"}\n}\n',
                ),
                Read(
                    "src/button.test.ts",
                    "import { render } from './render';\n\ntest('renders', () => {\n  expect(render()).toBeTruthy();\n});\n",
                ),
                Write(
                    "package.json",
                    '{\n  "name": "ui-kit",\n  "scripts": {"test": "vitest run"},\n'
                    '  "devDependencies": {"vitest": "1.6.0"}\n}\n',
                ),
                Write(
                    "src/button.test.ts",
                    "import { expect, test } from 'vitest';\nimport { render } from './render';\n\n"
                    "test('renders', () => {\n  expect(render()).toBeTruthy();\n});\n",
                ),
                Run("npm install", "added 41 packages, removed 212 packages"),
                Run("npx vitest run", " Test Files  9 passed (9)\n      Tests  27 passed (27)"),
                Say("The suite runs on Vitest now; package-lock.json was regenerated."),
            ),
        ),
    ),
    wrong=(
        (r"tests? (are )?written with[^.\n]*\bjest\b", "the session moved the tests to Vitest"),
        (r"\bnpx jest\b|run (the )?tests? with `?jest|runs `jest`", "Jest is no longer the runner"),
    ),
    may=(r"vitest",),
)

CASES = (
    DJANGO_SIDE_STORE,
    RAILS_SIDE_STORE,
    LARAVEL_SIDE_STORE,
    NEXT_DOCS_VITEST,
    PHOENIX_EXAMPLES,
    GO_VENDOR,
    RUST_WORKSPACE,
    NODE_MONOREPO,
    FLASK_TO_FASTAPI,
    JEST_TO_VITEST,
)
