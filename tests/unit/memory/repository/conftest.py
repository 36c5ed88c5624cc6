"""Small, realistic git repositories in five languages, built in tmp_path by the tests."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

Files = Mapping[str, str | bytes]
_GIT_ENV = {
    "GIT_AUTHOR_NAME": "Dev",
    "GIT_AUTHOR_EMAIL": "dev@example.com",
    "GIT_COMMITTER_NAME": "Dev",
    "GIT_COMMITTER_EMAIL": "dev@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **_GIT_ENV},
    )
    return done.stdout


def commit(root: Path, files: Files, *, remove: tuple[str, ...] = (), message: str = "c") -> str:
    """Write `files`, delete `remove`, commit everything; return the new HEAD."""
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)
    for path in remove:
        (root / path).unlink()
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


MakeRepo = Callable[[Files], Path]


@pytest.fixture
def make_repo(tmp_path: Path) -> MakeRepo:
    """Build a git repository with one commit holding `files`."""
    counter = [0]

    def build(files: Files) -> Path:
        counter[0] += 1
        root = (tmp_path / f"repo{counter[0]}").resolve()
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        commit(root, files, message="initial")
        return root

    return build


ELIXIR: dict[str, str | bytes] = {
    "mix.exs": """defmodule Heron.MixProject do
  use Mix.Project

  def project do
    [
      app: :heron,
      version: "0.1.0",
      elixir: "~> 1.17",
      elixirc_paths: elixirc_paths(Mix.env()),
      start_permanent: Mix.env() == :prod,
      aliases: aliases(),
      deps: deps()
    ]
  end

  def application do
    [mod: {Heron.Application, []}, extra_applications: [:logger, :runtime_tools]]
  end

  defp elixirc_paths(:test), do: ["lib", "test/support"]
  defp elixirc_paths(_), do: ["lib"]

  defp deps do
    [
      {:phoenix, "~> 1.7.14"},
      {:phoenix_ecto, "~> 4.5"},
      {:ecto_sql, "~> 3.10"},
      {:postgrex, ">= 0.0.0"},
      {:phoenix_live_view, "~> 1.0.0"},
      {:oban, "~> 2.18"},
      {:credo, "~> 1.7", only: [:dev, :test], runtime: false},
      {:esbuild, "~> 0.8", runtime: Mix.env() == :dev},
      {:jason, "~> 1.2"},
      {:bandit, "~> 1.5"}
    ]
  end

  defp aliases do
    [
      setup: ["deps.get", "ecto.setup", "assets.setup", "assets.build"],
      "ecto.setup": ["ecto.create", "ecto.migrate", "run priv/repo/seeds.exs"],
      "ecto.reset": ["ecto.drop", "ecto.setup"],
      test: ["ecto.create --quiet", "ecto.migrate --quiet", "test"],
      "assets.setup": ["tailwind.install --if-missing", "esbuild.install --if-missing"],
      precommit: [
        "compile --warnings-as-errors",
        "deps.unlock --unused",
        "format",
        "test"
      ]
    ]
  end
end
""",
    "mix.lock": """%{
  "bandit": {:hex, :bandit, "1.5.7", "6856b1e1df4f2b0cb3df1377eab7891bec2da6a7fd69dc78594ad3e152363a50", [:mix], [], "hexpm", "x"},
  "ecto_sql": {:hex, :ecto_sql, "3.12.1", "c0d0d60e85d9ff4631f12bafa454bc392ce8b9ec83531a412c12a0d415a3a4d0", [:mix], [], "hexpm", "x"},
  "oban": {:hex, :oban, "2.18.3", "1608c04f8856c108555c379f2f56bc0759149d35fa9d3b825cb8a6769f8ae926", [:mix], [], "hexpm", "x"},
  "phoenix": {:hex, :phoenix, "1.7.14", "a7d0b3f1bc95987044ddada111e77bd7f75646a08518942c72a8440278ae7825", [:mix], [], "hexpm", "x"},
}
""",
    ".formatter.exs": '[import_deps: [:ecto, :phoenix], inputs: ["*.{ex,exs}", "{config,lib,test}/**/*.{ex,exs}"]]\n',
    "config/config.exs": "import Config\n\nconfig :heron, Oban, repo: Heron.Repo\n",
    "config/dev.exs": """import Config

config :heron, Heron.Repo,
  username: "postgres",
  password: "postgres",
  hostname: "localhost",
  database: "heron_dev",
  pool_size: 10

config :heron, HeronWeb.Endpoint,
  http: [ip: {127, 0, 0, 1}, port: 4000],
  check_origin: false,
  code_reloader: true,
  secret_key_base: "Yw3Kx0mJ2bq8s1V9uQpL5nTzR7cAeHdG4fIoWjXyZ6kNlM8vBsUaPqEtCrDgFh12"
""",
    "lib/heron.ex": "defmodule Heron do\n  @moduledoc false\nend\n" + "# code\n" * 400,
    "lib/heron/repo.ex": "defmodule Heron.Repo do\n  use Ecto.Repo, otp_app: :heron\nend\n"
    + "# code\n" * 300,
    "lib/heron_web/router.ex": "defmodule HeronWeb.Router do\nend\n" + "# code\n" * 500,
    "lib/heron_web/components/core.html.heex": "<div></div>\n" * 50,
    "test/heron_test.exs": "defmodule HeronTest do\n  use ExUnit.Case\nend\n" + "# t\n" * 200,
    "priv/repo/migrations/20240101000000_create_users.exs": "defmodule M do\nend\n",
    "assets/package.json": """{
  "name": "heron-assets",
  "private": true,
  "scripts": {
    "test": "vitest run",
    "build": "esbuild js/app.js --bundle"
  },
  "devDependencies": {
    "vitest": "^2.1.0"
  }
}
""",
    "assets/js/app.js": "import topbar from '../vendor/topbar'\n" + "// js\n" * 100,
    "assets/vendor/topbar.js": "/* vendored */\n" + "var x = 1;\n" * 5000,
    "CLAUDE.md": """# Working on Heron

- Always run `mix precommit` before finishing a task and fix every warning it reports.
- Never edit the files under `priv/static/` by hand; they are built by esbuild.
- Use `Req` for HTTP requests, not HTTPoison.

## Tests
Run `mix test` for the whole suite or `mix test test/heron_test.exs` for one file.
""",
    "README.md": """# Heron

[![CI](https://github.com/acme/heron/actions/workflows/ci.yml/badge.svg)](https://github.com/acme/heron)

Heron tracks bird sightings reported by volunteers and shows them on a live map.

## Getting started

```bash
mix setup
mix phx.server
```
""",
    ".github/workflows/ci.yml": """name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    services:
      db:
        image: postgres:16
        ports: ["5432:5432"]
    steps:
      - uses: actions/checkout@v4
      - uses: erlef/setup-beam@v1
      - run: mix deps.get
      - run: mix format --check-formatted
      - run: mix credo --strict
      - run: mix test --warnings-as-errors
""",
}

PYTHON: dict[str, str | bytes] = {
    "pyproject.toml": """[project]
name = "ledger-api"
version = "0.3.0"
requires-python = ">=3.12"
dependencies = [
    "fastapi>=0.115",
    "sqlalchemy[asyncio]>=2.0",
    "asyncpg>=0.29",
    "alembic>=1.13",
    "celery[redis]>=5.4",
]

[dependency-groups]
dev = ["pytest>=8", "ruff>=0.6", "mypy>=1.11"]

[tool.pytest.ini_options]
testpaths = ["tests"]

[tool.ruff]
line-length = 100
""",
    "uv.lock": """version = 1

[[package]]
name = "fastapi"
version = "0.115.4"

[[package]]
name = "sqlalchemy"
version = "2.0.36"
""",
    "Makefile": """.PHONY: test lint dev

test:
\tuv run pytest -q

lint:
\tuv run ruff check .
\tuv run mypy src

dev:
\tuv run uvicorn ledger.main:app --reload --port 8000

worker:
\tuv run celery -A ledger.tasks worker
""",
    "docker-compose.yml": """services:
  db:
    image: postgres:16-alpine
    environment:
      POSTGRES_PASSWORD: example-password-123
    ports:
      - "5432:5432"
  cache:
    image: redis:7
    ports:
      - "6379:6379"
""",
    ".env.example": "DATABASE_URL=postgresql://ledger:s3cr3t-P4ssw0rd@localhost:5432/ledger\n"
    "SECRET_KEY=change-me-9f8e7d6c5b4a\nPORT=8000\n",
    "src/ledger/__init__.py": "",
    "src/ledger/main.py": "from fastapi import FastAPI\napp = FastAPI()\n" + "# code\n" * 300,
    "src/ledger/models.py": "# models\n" * 200,
    "tests/test_main.py": "def test_ok():\n    assert True\n" + "# t\n" * 100,
    "alembic/versions/0001_init.py": "# migration\n",
    "AGENTS.md": """# Agent notes

* Prefer `uv run` over calling python directly.
* Do not commit generated OpenAPI clients.
""",
}

JS: dict[str, str | bytes] = {
    "package.json": """{
  "name": "storefront",
  "version": "1.0.0",
  "private": true,
  "engines": { "node": ">=20" },
  "scripts": {
    "dev": "next dev -p 3001",
    "build": "next build",
    "test": "vitest run",
    "lint": "eslint .",
    "typecheck": "tsc --noEmit",
    "postinstall": "prisma generate"
  },
  "dependencies": {
    "next": "14.2.15",
    "react": "18.3.1",
    "@prisma/client": "5.20.0",
    "bullmq": "5.21.0"
  },
  "devDependencies": {
    "vitest": "2.1.3",
    "typescript": "5.6.3",
    "eslint": "9.12.0"
  }
}
""",
    "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    "tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    "prisma/schema.prisma": 'datasource db {\n  provider = "postgresql"\n  url = env("DATABASE_URL")\n}\n',
    "src/app/page.tsx": "export default function Page() { return null }\n" + "// ui\n" * 300,
    "src/lib/cart.ts": "export const cart = []\n" + "// code\n" * 200,
    "src/lib/cart.test.ts": "import { test } from 'vitest'\n" + "// t\n" * 50,
    ".cursor/rules/style.mdc": "---\ndescription: style\n---\n- Always use named exports for components.\n",
}

GO: dict[str, str | bytes] = {
    "go.mod": """module github.com/acme/ledger

go 1.22

require (
\tgithub.com/gin-gonic/gin v1.10.0
\tgithub.com/jackc/pgx/v5 v5.7.1
\tgolang.org/x/text v0.18.0 // indirect
)
""",
    "cmd/server/main.go": "package main\n\nfunc main() {}\n" + "// code\n" * 300,
    "internal/ledger/ledger.go": "package ledger\n" + "// code\n" * 400,
    "internal/ledger/ledger_test.go": "package ledger\n" + "// t\n" * 100,
    ".golangci.yml": "linters:\n  enable: [errcheck]\n",
    "justfile": """# tasks
test:
    go test -race ./...

lint:
    golangci-lint run ./...
""",
    "Dockerfile": "FROM golang:1.22\nEXPOSE 8080\n",
}

RUST: dict[str, str | bytes] = {
    "Cargo.toml": """[package]
name = "tiles"
version = "0.1.0"
edition = "2021"
rust-version = "1.80"

[dependencies]
axum = "0.7"
tokio = { version = "1", features = ["full"] }
sqlx = { version = "0.8", features = ["postgres", "runtime-tokio"] }

[dev-dependencies]
insta = "1"
""",
    "Cargo.lock": """version = 3

[[package]]
name = "axum"
version = "0.7.7"

[[package]]
name = "tokio"
version = "1.40.0"
""",
    "src/main.rs": "fn main() {}\n" + "// code\n" * 400,
    "src/routes.rs": "// routes\n" * 200,
    ".github/workflows/ci.yml": """on: push
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: cargo fmt --check
      - run: cargo clippy --all-targets -- -D warnings
      - run: cargo test --locked
""",
    ".pre-commit-config.yaml": """repos:
  - repo: local
    hooks:
      - id: cargo-fmt
        name: cargo fmt
        entry: cargo fmt --
        language: system
      - id: clippy
        name: clippy
        entry: cargo clippy
        language: system
""",
}

RUBY: dict[str, str | bytes] = {
    "Gemfile": """source "https://rubygems.org"

ruby "3.3.4"

gem "rails", "~> 7.2.1"
gem "pg", "~> 1.5"
gem "sidekiq", "~> 7.3"

group :development, :test do
  gem "rspec-rails", "~> 7.0"
  gem "rubocop", require: false
end
""",
    "Gemfile.lock": """GEM
  remote: https://rubygems.org/
  specs:
    rails (7.2.1)
    sidekiq (7.3.2)

PLATFORMS
  ruby
""",
    "config/database.yml": "default: &default\n  adapter: postgresql\n  encoding: unicode\n",
    "config/sidekiq.yml": ":concurrency: 5\n",
    "app/models/user.rb": "class User < ApplicationRecord\nend\n" * 40,
    "spec/models/user_spec.rb": "RSpec.describe User do\nend\n" * 10,
    "db/migrate/20240101000000_create_users.rb": "class CreateUsers < ActiveRecord::Migration[7.2]\nend\n",
}

PHP: dict[str, str | bytes] = {
    "composer.json": """{
    "name": "acme/shop",
    "require": {
        "php": "^8.3",
        "laravel/framework": "^11.0"
    },
    "require-dev": {
        "phpunit/phpunit": "^11.0"
    },
    "scripts": {
        "test": "phpunit",
        "lint": "pint --test"
    }
}
""",
    "artisan": "#!/usr/bin/env php\n<?php\n",
    "app/Models/User.php": "<?php\nclass User {}\n" * 40,
}

JAVA: dict[str, str | bytes] = {
    "pom.xml": """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.3.4</version>
  </parent>
  <artifactId>orders</artifactId>
  <properties>
    <java.version>21</java.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId>
    </dependency>
    <dependency>
      <groupId>org.postgresql</groupId>
      <artifactId>postgresql</artifactId>
    </dependency>
  </dependencies>
</project>
""",
    "src/main/java/com/acme/orders/App.java": "package com.acme.orders;\nclass App {}\n" * 40,
    "src/main/resources/application.properties": "server.port=8081\n"
    "spring.datasource.url=jdbc:postgresql://localhost:5432/orders\n"
    "spring.datasource.password=hunter2-very-secret\n",
}

DOTNET: dict[str, str | bytes] = {
    "Api/Api.csproj": """<Project Sdk="Microsoft.NET.Sdk.Web">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Npgsql.EntityFrameworkCore.PostgreSQL" Version="8.0.8" />
    <PackageReference Include="Microsoft.EntityFrameworkCore" Version="8.0.8" />
  </ItemGroup>
</Project>
""",
    "Api/Program.cs": "var app = WebApplication.Create();\n" * 60,
}
