"""The catalogue of developer tools the rules recognise in commands, and what each run is for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ToolUse:
    """A recognised tool in one simple command: its category, name and purpose."""

    category: str
    tool: str
    purpose: str


#: (category, tool name, purpose) for each (first token, optional second token) pattern.
#: Order matters: the first match wins, so specific two-token forms come first.
_PATTERNS: tuple[tuple[tuple[str, ...], ToolUse], ...] = (
    (("go", "test"), ToolUse("test_runner", "go test", "test")),
    (("cargo", "test"), ToolUse("test_runner", "cargo test", "test")),
    (("cargo", "nextest"), ToolUse("test_runner", "cargo nextest", "test")),
    (("cargo", "fmt"), ToolUse("formatter", "rustfmt", "format")),
    (("cargo", "clippy"), ToolUse("linter", "clippy", "lint")),
    (("cargo", "build"), ToolUse("build_tool", "cargo", "build")),
    (("cargo", "run"), ToolUse("build_tool", "cargo", "run")),
    (("go", "build"), ToolUse("build_tool", "go", "build")),
    (("go", "run"), ToolUse("build_tool", "go", "run")),
    (("go", "vet"), ToolUse("linter", "go vet", "lint")),
    (("ruff", "format"), ToolUse("formatter", "ruff", "format")),
    (("ruff", "check"), ToolUse("linter", "ruff", "lint")),
    (("ruff",), ToolUse("linter", "ruff", "lint")),
    (("ty", "check"), ToolUse("type_checker", "ty", "typecheck")),
    (("biome", "format"), ToolUse("formatter", "biome", "format")),
    (("biome",), ToolUse("linter", "biome", "lint")),
    (("pytest",), ToolUse("test_runner", "pytest", "test")),
    (("py.test",), ToolUse("test_runner", "pytest", "test")),
    (("unittest",), ToolUse("test_runner", "unittest", "test")),
    (("tox",), ToolUse("test_runner", "tox", "test")),
    (("nox",), ToolUse("test_runner", "nox", "test")),
    (("jest",), ToolUse("test_runner", "jest", "test")),
    (("vitest",), ToolUse("test_runner", "vitest", "test")),
    (("mocha",), ToolUse("test_runner", "mocha", "test")),
    (("playwright", "test"), ToolUse("test_runner", "playwright", "test")),
    (("rspec",), ToolUse("test_runner", "rspec", "test")),
    (("phpunit",), ToolUse("test_runner", "phpunit", "test")),
    (("black",), ToolUse("formatter", "black", "format")),
    (("isort",), ToolUse("formatter", "isort", "format")),
    (("prettier",), ToolUse("formatter", "prettier", "format")),
    (("gofmt",), ToolUse("formatter", "gofmt", "format")),
    (("rustfmt",), ToolUse("formatter", "rustfmt", "format")),
    (("eslint",), ToolUse("linter", "eslint", "lint")),
    (("flake8",), ToolUse("linter", "flake8", "lint")),
    (("pylint",), ToolUse("linter", "pylint", "lint")),
    (("golangci-lint",), ToolUse("linter", "golangci-lint", "lint")),
    (("mypy",), ToolUse("type_checker", "mypy", "typecheck")),
    (("dmypy",), ToolUse("type_checker", "mypy", "typecheck")),
    (("pyright",), ToolUse("type_checker", "pyright", "typecheck")),
    (("basedpyright",), ToolUse("type_checker", "basedpyright", "typecheck")),
    (("tsc",), ToolUse("type_checker", "tsc", "typecheck")),
    (("alembic", "upgrade"), ToolUse("migration_tool", "alembic", "migrate")),
    (("alembic", "revision"), ToolUse("migration_tool", "alembic", "migrate")),
    (("manage.py", "migrate"), ToolUse("migration_tool", "django", "migrate")),
    (("manage.py", "makemigrations"), ToolUse("migration_tool", "django", "migrate")),
    (("prisma", "migrate"), ToolUse("migration_tool", "prisma", "migrate")),
    (("uvicorn",), ToolUse("server", "uvicorn", "run")),
    (("gunicorn",), ToolUse("server", "gunicorn", "run")),
    (("hypercorn",), ToolUse("server", "hypercorn", "run")),
    (("docker", "compose"), ToolUse("container", "docker compose", "run")),
    (("docker-compose",), ToolUse("container", "docker compose", "run")),
    (("docker", "build"), ToolUse("container", "docker", "build")),
    (("make",), ToolUse("build_tool", "make", "build")),
    (("vite", "build"), ToolUse("build_tool", "vite", "build")),
)

#: Package managers are recognised from the raw first token, before wrappers are removed.
PACKAGE_MANAGERS: dict[str, str] = {
    "uv": "uv",
    "uvx": "uv",
    "pip": "pip",
    "pip3": "pip",
    "poetry": "poetry",
    "pipenv": "pipenv",
    "pdm": "pdm",
    "conda": "conda",
    "npm": "npm",
    "npx": "npm",
    "pnpm": "pnpm",
    "pnpx": "pnpm",
    "yarn": "yarn",
    "bun": "bun",
    "bunx": "bun",
    "cargo": "cargo",
}

#: Script names that package managers run (`npm test`, `pnpm run build`) and their purpose.
_SCRIPT_PURPOSES = {
    "test": "test",
    "lint": "lint",
    "format": "format",
    "fmt": "format",
    "build": "build",
    "dev": "run",
    "start": "run",
    "serve": "run",
    "typecheck": "typecheck",
    "migrate": "migrate",
}
_INSTALL_WORDS = {"install", "add", "sync", "i", "ci", "lock"}

#: Categories that describe a user's habit (the rest are project facts or recipes only).
HABIT_CATEGORIES = ("test_runner", "package_manager", "formatter", "linter", "type_checker")


def _strip_python(tokens: list[str]) -> list[str]:
    if tokens and tokens[0] in {"python", "python3"} and len(tokens) > 1:
        return tokens[1:]
    return tokens


def classify(tokens: list[str]) -> ToolUse | None:
    """The tool a wrapper-free simple command runs, if the catalogue knows it."""
    tokens = _strip_python(tokens)
    if not tokens:
        return None
    first = tokens[0].rsplit("/", 1)[-1]
    rest = tokens[1:]
    for pattern, use in _PATTERNS:
        if first == pattern[0] and all(
            i < len(rest) and rest[i] == word for i, word in enumerate(pattern[1:])
        ):
            return use
    if first in PACKAGE_MANAGERS and rest:
        words = [w for w in rest if not w.startswith("-")]
        word = words[0] if words else ""
        if word == "run" and len(words) > 1:
            word = words[1]
        if word in _SCRIPT_PURPOSES:
            return ToolUse("script", f"{first} {word}", _SCRIPT_PURPOSES[word])
        if word in _INSTALL_WORDS:
            return ToolUse("package_manager", PACKAGE_MANAGERS[first], "install")
    return None


def package_manager(raw_tokens: list[str]) -> str | None:
    """The package manager a raw simple command goes through (`uv run pytest` → uv)."""
    tokens = [t for t in raw_tokens if "=" not in t or t.startswith("-")]
    if not tokens:
        return None
    first = tokens[0].rsplit("/", 1)[-1]
    if first in {"python", "python3"} and tokens[1:3] == ["-m", "pip"]:
        return "pip"
    return PACKAGE_MANAGERS.get(first)


def known_tools() -> dict[str, str]:
    """Every tool name the catalogue knows, lower-cased, mapped to its category."""
    names: dict[str, str] = {}
    for _, use in _PATTERNS:
        names.setdefault(use.tool.lower(), use.category)
    for name in PACKAGE_MANAGERS.values():
        names.setdefault(name, "package_manager")
    return names
