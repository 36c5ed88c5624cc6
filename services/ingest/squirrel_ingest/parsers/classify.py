"""Which shell commands are test runs, and which tools change code."""

from __future__ import annotations

import posixpath
import re
import shlex

from squirrel_core.events import EventType

#: Claude Code, Gemini CLI and Codex tools whose successful use changes files.
CODE_CHANGE_TOOLS = frozenset(
    {"Edit", "Write", "MultiEdit", "NotebookEdit", "write_file", "replace", "edit", "apply_patch"}
)

#: Tool input keys that name a file or folder the tool works on.
PATH_KEYS = ("file_path", "notebook_path", "path", "dir_path", "absolute_path")

_SEGMENT_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\||\n)\s*")
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_WRAPPERS = frozenset({"sudo", "time", "env", "nice", "command", "exec", "xvfb-run", "timeout"})
_RUNNERS = {
    ("uv", "run"),
    ("poetry", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("pipenv", "run"),
    ("rye", "run"),
    ("pnpm", "exec"),
    ("yarn", "exec"),
    ("bundle", "exec"),
    ("npm", "exec"),
}
_PREFIX_RUNNERS = frozenset({"npx", "bunx", "pnpx"})
_TEST_PROGRAMS = frozenset(
    {
        "pytest",
        "py.test",
        "tox",
        "nox",
        "jest",
        "vitest",
        "mocha",
        "ava",
        "tap",
        "phpunit",
        "rspec",
        "ctest",
        "nextest",
        "karma",
        "playwright",
        "cypress",
    }
)
_TEST_SUBCOMMANDS = {
    "go": {"test"},
    "cargo": {"test", "nextest"},
    "mvn": {"test", "verify"},
    "mvnw": {"test", "verify"},
    "gradle": {"test", "check"},
    "gradlew": {"test", "check"},
    "npm": {"test", "t"},
    "yarn": {"test"},
    "pnpm": {"test", "t"},
    "bun": {"test"},
    "deno": {"test"},
    "make": {"test", "check", "tests"},
    "dotnet": {"test"},
    "swift": {"test"},
    "mix": {"test"},
    "bazel": {"test"},
    "flutter": {"test"},
    "rake": {"test", "spec"},
    "zig": {"test"},
}
_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_PYTHON_TEST_MODULES = frozenset({"pytest", "unittest", "tox", "nox"})
_RUN_SCRIPT_MANAGERS = frozenset({"npm", "yarn", "pnpm", "bun"})


def command_event_type(command: str) -> EventType:
    """`test_run` when any part of `command` runs a test suite, else `command_run`."""
    return EventType.TEST_RUN if is_test_command(command) else EventType.COMMAND_RUN


def is_test_command(command: str) -> bool:
    """Whether a shell command line runs tests (pytest, npm test, go test, cargo test, …)."""
    return any(_segment_runs_tests(segment) for segment in _SEGMENT_SPLIT.split(command[:4_000]))


def _segment_runs_tests(segment: str) -> bool:
    words = _words(segment)
    while words and (_ENV_ASSIGNMENT.match(words[0]) or _program(words[0]) in _WRAPPERS):
        words = _skip_wrapper(words)
    while len(words) >= 2 and (_program(words[0]), words[1]) in _RUNNERS:
        words = words[2:]
    if words and _program(words[0]) in _PREFIX_RUNNERS:
        words = [w for w in words[1:] if not w.startswith("-")]
    if not words:
        return False
    program = _program(words[0])
    rest = [word for word in words[1:] if not word.startswith("-")]
    if _PYTHON.match(program) and len(words) >= 3 and words[1] == "-m":
        return words[2] in _PYTHON_TEST_MODULES
    if program in _TEST_PROGRAMS:
        return True
    if not rest:
        return False
    if rest[0] in _TEST_SUBCOMMANDS.get(program, ()):
        return True
    return (
        program in _RUN_SCRIPT_MANAGERS
        and rest[0] == "run"
        and len(rest) >= 2
        and rest[1].split(":")[0] in {"test", "tests", "e2e", "unit"}
    )


def _skip_wrapper(words: list[str]) -> list[str]:
    head = _program(words[0])
    words = words[1:]
    if head == "timeout" and words:
        words = words[1:]
    while words and words[0].startswith("-"):
        words = words[1:]
    return words


def _words(segment: str) -> list[str]:
    try:
        return shlex.split(segment, posix=True)
    except ValueError:
        return segment.split()


def _program(word: str) -> str:
    return posixpath.basename(word.strip("()"))
