"""Realistic memory text for benches: memories of all four types built from templates, the
vocabulary of the hand-written memories beside the fixtures and a mix of code areas
(`MemoryGenerator`, deterministic for a seed), and the questions a developer asks
(`DEVELOPER_QUESTIONS`)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from squirrel_memory.models import MemoryCandidate, MemoryType, Scope

QUERIES_FILE = Path(__file__).resolve().parent / "data" / "retrieval_queries.json"

_AREAS = {
    "auth": ("src/auth/tokens.py", "src/auth/login.py", "tests/test_auth.py"),
    "api": ("src/api/routes.py", "src/api/handlers.py", "src/api/schemas.py"),
    "db": ("src/db/models.py", "src/db/session.py", "migrations/env.py"),
    "cache": ("src/cache/redis_cache.py", "src/cache/keys.py"),
    "cli": ("src/cli/main.py", "src/cli/commands.py"),
    "render": ("src/render/html.py", "templates/transcript.html", "templates/base.html"),
    "parser": ("src/parser/lexer.py", "src/parser/transcript.py", "src/parser/models.py"),
    "worker": ("src/worker/queue.py", "src/worker/tasks.py"),
    "search": ("src/search/index.py", "src/search/embed.py", "src/search/ranking.py"),
    "config": ("src/config/settings.py", "config/default.toml"),
    "ci": (".github/workflows/ci.yml", ".github/workflows/release.yml"),
    "deploy": ("deploy/Dockerfile", "deploy/compose.yml", "deploy/helm/values.yaml"),
    "tests": ("tests/conftest.py", "tests/fixtures/__init__.py", "pyproject.toml"),
    "frontend": ("web/src/App.tsx", "web/src/api.ts", "web/package.json"),
}
_LIBS = (
    "pydantic",
    "sqlalchemy",
    "alembic",
    "fastapi",
    "click",
    "textual",
    "jinja2",
    "mistune",
    "pygments",
    "redis",
    "celery",
    "pytest",
    "playwright",
    "ruff",
    "mypy",
    "uv",
    "docker",
    "grpc",
    "protobuf",
    "numpy",
    "faiss",
    "structlog",
    "httpx",
    "aiosqlite",
    "dateparser",
    "react",
    "vite",
    "typescript",
)
_PURPOSES = (
    "request validation",
    "database migrations",
    "HTML rendering",
    "background jobs",
    "caching sessions",
    "parsing transcripts",
    "command-line parsing",
    "syntax highlighting",
    "dependency management",
    "structured logging",
    "HTTP calls",
    "vector search",
    "snapshot tests",
    "type checking",
    "packaging",
)
_PROBLEMS = (
    "raises TypeError",
    "times out",
    "returns stale data",
    "leaks file handles",
    "deadlocks",
    "double-counts entries",
    "breaks on Windows paths",
    "fails with a validation error",
    "loses the timezone",
    "silently drops the last line",
    "re-renders the whole page",
)
_CONDITIONS = (
    "the cache version is not bumped",
    "two workers write at once",
    "the input ends in Z",
    "a transcript has no timestamp",
    "the session is larger than 50 MB",
    "tests run under xdist",
    "the token is expired",
    "the config file is missing",
    "the migration runs twice",
    "a path contains dashes",
    "the queue is empty",
)
_FIXES = (
    "bump CACHE_VERSION",
    "take the advisory lock first",
    "replace Z with +00:00",
    "sort with a None-safe key",
    "stream the file instead of loading it",
    "mark the test serial",
    "refresh the token before retrying",
    "fall back to the defaults",
    "guard it with IF NOT EXISTS",
    "encode the path with a separator map",
)
_ACTIONS = (
    "run the tests",
    "update the snapshots",
    "regenerate the HTML",
    "apply the migrations",
    "publish a release",
    "rebuild the index",
    "lint the code",
    "type check",
    "start the dev server",
    "reset the local database",
    "record a new fixture",
    "profile a slow request",
)
_COMMANDS = (
    "uv run pytest -q",
    "uv run pytest --snapshot-update",
    "make html",
    "alembic upgrade head",
    "git tag vX.Y.Z && git push --tags",
    "python -m app.reindex",
    "uv run ruff check .",
    "uv run mypy src",
    "npm run dev",
    "rm -f dev.db && make seed",
    "uv run pytest --record-mode=once",
    "py-spy record -o profile.svg -- python -m app",
)
_STYLE = (
    "full type hints and mypy strict",
    "small pure functions",
    "dataclasses over dicts",
    "pathlib over os.path",
    "f-strings",
    "early returns",
    "explicit imports",
    "logging over print",
    "pytest fixtures over setUp",
    "conventional commit messages",
    "short docstrings",
    "tabs-free YAML",
)
_OTHER = (
    "untyped code",
    "large classes",
    "bare tuples",
    "string paths",
    "percent formatting",
    "nested ifs",
    "star imports",
    "print debugging",
    "unittest classes",
    "free-form commits",
    "long docstrings",
    "anchors",
)

DEVELOPER_QUESTIONS: tuple[str, ...] = (
    "how do I run the tests",
    "add a delete endpoint for inventory items",
    "why does the cache return stale data after changing the models",
    "fix the flaky login test",
    "where are the database migrations and how do I apply them",
    "add a new field to the transcript entry models",
    "the worker deadlocks when two jobs write at once",
    "publish a new version to PyPI",
    "which python versions does CI test",
    "render markdown with syntax highlighting in messages",
    "parse ISO timestamps that end in Z",
    "speed up rendering of very large sessions",
    "refresh an expired JWT token before retrying the request",
    "configure redis caching for sessions",
    "what coding style does the user prefer for functions",
    "rebuild the vector search index",
    "update the HTML snapshot tests",
    "deploy with docker compose",
    "where is the CLI entry point defined",
    "TypeError when sorting entries without a timestamp",
)


def fixture_vocabulary() -> list[str]:
    """Words of the hand-written memories beside the fixture transcripts (bench/data)."""
    data = json.loads(QUERIES_FILE.read_text(encoding="utf-8"))
    words: set[str] = set()
    for memory in data["memories"]:
        for word in memory["content"].replace("`", " ").split():
            cleaned = word.strip(".,;:()'\"")
            if len(cleaned) > 3 and cleaned.isascii():
                words.add(cleaned)
    return sorted(words)


class MemoryGenerator:
    """Memories of all four types with keys, tags and file paths, built from templates, the
    vocabulary of the fixture project and a mix of areas; deterministic for a seed."""

    def __init__(self, seed: int = 7) -> None:
        self._rng = random.Random(seed)
        self._words = fixture_vocabulary()

    def _detail(self) -> str:
        return " ".join(self._rng.sample(self._words, self._rng.randint(3, 9)))

    def candidate(self, n: int) -> MemoryCandidate:
        rng = self._rng
        area = rng.choice(list(_AREAS))
        paths = tuple(rng.sample(_AREAS[area], rng.randint(1, min(2, len(_AREAS[area])))))
        lib = rng.choice(_LIBS)
        kind = rng.choices(list(MemoryType), weights=(2, 4, 3, 2))[0]
        importance = round(rng.uniform(0.3, 0.9), 2)
        if kind is MemoryType.PROJECT_FACT:
            content = (
                f"The {area} code in {paths[0]} uses {lib} for {rng.choice(_PURPOSES)}; "
                f"{self._detail()}."
            )
            return MemoryCandidate(
                kind, f"{area}_{lib}_{n}", content, (area, lib), importance, paths
            )
        if kind is MemoryType.PITFALL:
            content = (
                f"{lib} in {paths[0]} {rng.choice(_PROBLEMS)} when {rng.choice(_CONDITIONS)}; "
                f"{rng.choice(_FIXES)}. {self._detail()}."
            )
            return MemoryCandidate(
                kind, f"pitfall_{area}_{n}", content, (area, lib, "bug"), importance, paths
            )
        if kind is MemoryType.RECIPE:
            action = rng.choice(_ACTIONS)
            content = f"To {action} for {area}: `{rng.choice(_COMMANDS)}` ({self._detail()})."
            return MemoryCandidate(
                kind, f"recipe_{area}_{n}", content, (area, "howto"), importance, paths
            )
        pick = rng.randrange(len(_STYLE))
        content = f"Prefers {_STYLE[pick]} over {_OTHER[pick]} in {area} code; {self._detail()}."
        return MemoryCandidate(
            kind,
            f"style_{area}_{n}",
            content,
            ("style", area),
            importance,
            (),
            scope=Scope.USER,
        )

    def candidates(self, count: int) -> list[MemoryCandidate]:
        return [self.candidate(n) for n in range(count)]
