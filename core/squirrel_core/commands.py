"""The command table: what a developer command is for, in every mainstream ecosystem.

The table itself is data (`commands.toml`, shipped with this package and read once). Two
functions answer everything the rest of the code asks about a shell line:

- `classify_command(text)`: the first recognised tool of a line as a `CommandUse`
  (tool, purpose, ecosystem), or None. `command_uses(text)` gives every recognised one.
- `typed_commands(line, cwd=..., project_root=...)`: the line as the commands a user would
  type, one `TypedCommand` per simple command, with shell redirections, pipes into pagers,
  `cd … &&` steps, environment prefixes and launch wrappers (`timeout 60`) removed, and the
  folder each command ran in (`scope`, relative to the project root) kept apart.

Purposes are `test`, `lint`, `format`, `typecheck`, `build`, `migrate`, `run` (start the app or
its dev server), `install` (dependencies), `docs` (build the documentation), `release` and
`deploy`. A program the table does not know is read by its own words: a subcommand or task
name that says a role (`tool test`, `tool run lint`, `tool fmt --check`), or the one call of a
one-liner given to an interpreter (`R -e 'pkg::document()'`).
"""

from __future__ import annotations

import posixpath
import re
import shlex
import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

PURPOSES = (
    "test",
    "lint",
    "format",
    "typecheck",
    "build",
    "migrate",
    "run",
    "install",
    "docs",
    "release",
    "deploy",
)
#: Purposes a command's own words give it when the table does not know its program: the roles
#: of a project's checks and deliveries (starting, installing and migrating need the table).
ROLE_PURPOSES = frozenset(
    {"test", "lint", "format", "typecheck", "build", "docs", "release", "deploy"}
)
#: Roles read from a bare subcommand only (`tool deploy`, `tool doc --open`): with more words
#: the command is a one-off (`tool release create v2`) or a look-up (`tool doc some.name`).
_BARE_ROLES = frozenset({"docs", "release", "deploy"})
#: Purpose → the habit category a tool with that purpose belongs to.
CATEGORIES = {
    "test": "test_runner",
    "lint": "linter",
    "format": "formatter",
    "typecheck": "type_checker",
    "build": "build_tool",
    "migrate": "migration_tool",
    "run": "server",
    "install": "package_manager",
}
#: Longest shell line read; longer input is cut (commands are capped upstream anyway).
MAX_LINE_CHARS = 8_000
#: Lines up to this long are remembered once read (the same commands recur all the time).
_CACHED_LINE_CHARS = 2_000
_SHELL_STATE = frozenset({"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "alias"})
_PUNCTUATION = frozenset(";&|<>()\n")
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"^(?:python|pypy)(?:\d+(?:\.\d+)?)?$")
_INTERPRETERS = frozenset({"node", "ruby", "bash", "sh", "zsh", "deno", "bun", "perl"})
_SCRIPT_SUFFIXES = (".sh", ".bash", ".py", ".js", ".mjs", ".ts", ".rb", ".exs")
#: A script whose name ends in test(s) runs tests (`run_tests.sh`, `runtests.py`,
#: `run-all-tests`), whatever its first word says (`run_server.sh` stays a run command).
_TEST_SCRIPT = re.compile(r"(?:^|[._-]|^run)tests?$")
_TASK_KEYWORDS = frozenset({"run", "run-script", "task"})
#: Options that hand an interpreter its program as text (`R -e '…'`, `node --eval '…'`).
_INLINE_OPTIONS = frozenset({"-e", "-c", "--eval", "-r", "--command", "--execute"})
_COMMAND_NAME = re.compile(r"^[A-Za-z][\w.+-]*$")
#: The call a one-liner's last statement ends with: `pkg::document()`, `require("x").build()`
#: (tried from the start of a word only: from inside one it would backtrack along it).
_LAST_CALL = re.compile(r"(?<!\w)(\w+)\s*\([^()]*\)$")
#: Statements that only load what the call needs, allowed before it.
_LOADING = re.compile(r"^(?:using|import|from|library|require|requireNamespace)\b")


@dataclass(frozen=True, slots=True)
class CommandUse:
    """What one simple command is: the tool, its purpose, and the ecosystem it belongs to.

    `task` is set when the command runs a project-defined task (`make test`, `npm run lint`,
    a mix alias); `tool` is then the task runner.
    """

    tool: str
    purpose: str
    ecosystem: str
    task: str | None = None

    @property
    def category(self) -> str:
        """The habit category (`test_runner`, `linter`, …) of this use."""
        return CATEGORIES.get(self.purpose, "tool")


@dataclass(frozen=True, slots=True)
class TypedCommand:
    """One simple command as a user would type it, where it ran, and what it is for.

    `scope` is the folder relative to the project root ("" for the root itself); it is an
    absolute path when the command ran outside the project, and "" when nothing is known.
    """

    text: str
    scope: str
    use: CommandUse | None
    #: `text` as words (quotes removed), for callers that look at arguments.
    words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Table:
    patterns: dict[tuple[str, ...], CommandUse]
    task_runners: dict[str, str]
    task_names: dict[str, str]
    plain_programs: frozenset[str]
    runners: tuple[tuple[str, ...], ...]
    wrappers: dict[str, int]
    package_managers: dict[str, str]


@cache
def _table() -> _Table:
    raw = tomllib.loads(resources.files("squirrel_core").joinpath("commands.toml").read_text())
    return _parse_table(raw)


def _parse_table(raw: dict[str, Any]) -> _Table:
    patterns: dict[tuple[str, ...], CommandUse] = {}
    for ecosystem, entries in raw["commands"].items():
        for pattern, value in entries.items():
            spec = value if isinstance(value, dict) else {"purpose": value}
            purpose = spec["purpose"]
            if purpose not in PURPOSES:
                raise ValueError(f"commands.toml: unknown purpose {purpose!r} for {pattern!r}")
            words = tuple(pattern.split())
            patterns[words] = CommandUse(spec.get("tool", pattern), purpose, ecosystem)
    for name, purpose in raw["task_names"].items():
        if purpose not in PURPOSES:
            raise ValueError(f"commands.toml: unknown purpose {purpose!r} for task {name!r}")
    return _Table(
        patterns=patterns,
        task_runners=dict(raw["task_runners"]),
        task_names=dict(raw["task_names"]),
        plain_programs=frozenset(raw.get("plain_programs", {}).get("names", ())),
        runners=tuple(tuple(p.split()) for p in raw["runners"]["prefixes"]),
        wrappers={k: int(v) for k, v in raw["runners"]["wrappers"].items()},
        package_managers=dict(raw["package_managers"]),
    )


def ecosystems() -> list[str]:
    """Every ecosystem the table names, sorted."""
    return sorted({use.ecosystem for use in _table().patterns.values()})


def known_tools() -> dict[str, str]:
    """Every tool name the table knows, lower-cased, mapped to its habit category."""
    names: dict[str, str] = {}
    for use in _table().patterns.values():
        names.setdefault(use.tool.lower(), use.category)
    for name in _table().package_managers:
        names.setdefault(name, "package_manager")
    return names


def task_purpose(name: str) -> str | None:
    """The purpose a task, script or target name usually has (`test:unit` → test)."""
    table = _table()
    name = name.strip().lower()
    if name in table.task_names:
        return table.task_names[name]
    if name.startswith(":"):
        name = name.rsplit(":", 1)[-1]
        return table.task_names.get(name)
    head = re.split(r"[:._\-/]", name, maxsplit=1)[0]
    return table.task_names.get(head)


def package_manager(tokens: list[str]) -> tuple[str, str] | None:
    """(package manager, ecosystem) a tokenised simple command goes through, if any."""
    words = [t for t in tokens if not _ENV_ASSIGNMENT.match(t)]
    if not words:
        return None
    first = _program(words[0])
    if _PYTHON.match(first) and words[1:3] == ["-m", "pip"]:
        return "pip", "python"
    first = {"uvx": "uv", "npx": "npm", "pnpx": "pnpm", "bunx": "bun", "pip3": "pip"}.get(
        first, first
    )
    ecosystem = _table().package_managers.get(first)
    return (first, ecosystem) if ecosystem else None


def core_tokens(tokens: list[str]) -> list[str]:
    """A simple command's tokens without env assignments, wrappers and runner prefixes."""
    return list(_core_tokens(tuple(tokens)))


@lru_cache(maxsize=8192)
def _core_tokens(tokens: tuple[str, ...]) -> tuple[str, ...]:
    table = _table()
    runners = _runners_by_program()
    words = tokens
    changed = True
    while changed and words:
        changed = False
        while words and _ENV_ASSIGNMENT.match(words[0]):
            words = words[1:]
            changed = True
        if not words:
            break
        program = _program(words[0])
        if program in table.wrappers:
            words = tuple(_skip_wrapper(list(words), table.wrappers[program]))
            changed = True
            continue
        for prefix in runners.get(program, ()):
            if len(words) > len(prefix) and all(
                words[i] == prefix[i] for i in range(1, len(prefix))
            ):
                words = words[len(prefix) :]
                while words and words[0].startswith("-") and prefix[-1] in {"npx", "uvx"}:
                    words = words[1:]
                changed = True
                break
        if changed:
            continue
        if len(words) >= 3 and _PYTHON.match(program) and words[1] == "-m":
            words = words[2:]
            changed = True
        elif len(words) >= 2 and _is_script_launch(list(words)):
            words = words[1:]
            changed = True
    return words


@cache
def _runners_by_program() -> dict[str, tuple[tuple[str, ...], ...]]:
    found: dict[str, list[tuple[str, ...]]] = {}
    for prefix in _table().runners:
        found.setdefault(prefix[0], []).append(prefix)
    return {program: tuple(prefixes) for program, prefixes in found.items()}


def _is_script_launch(words: list[str]) -> bool:
    """`python manage.py …`, `bash scripts/check`: the interpreter only launches the script."""
    program = _program(words[0])
    if _PYTHON.match(program):
        return words[1].endswith(".py")
    return program in _INTERPRETERS and ("/" in words[1] or words[1].endswith(_SCRIPT_SUFFIXES))


def _skip_wrapper(words: list[str], arguments: int) -> list[str]:
    words = words[1:]
    while words and (words[0].startswith("-") or _ENV_ASSIGNMENT.match(words[0])):
        words = words[1:]
    return words[arguments:]


def _program(word: str) -> str:
    return posixpath.basename(word.strip("()"))


def classify_tokens(tokens: list[str]) -> CommandUse | None:
    """The tool one tokenised simple command runs (`["uv", "run", "pytest"]` → pytest)."""
    words = core_tokens(tokens)
    if not words:
        return None
    table = _table()
    program = _program(words[0])
    rest = [w for w in words[1:] if not w.startswith(("-", "+"))]
    best: tuple[str, ...] | None = None
    for length in range(min(4, len(rest) + 1), 1, -1):
        key = (program, *rest[: length - 1])
        if key in table.patterns:
            best = key
            break
    if best is None and program in ("mvn", "mvnw", "gradle", "gradlew", "sbt"):
        best = next(((program, w) for w in rest if (program, w) in table.patterns), None)
    if best is not None:
        return table.patterns[best]
    task = _task_use(program, words, rest)
    if task is not None:
        return task
    if (program,) in table.patterns:
        return _named_use(table.patterns[(program,)], program, rest)
    return _role_use(program, words)


def _role_use(program: str, words: list[str]) -> CommandUse | None:
    """A program the table does not know, by its own words: the subcommand (or the task after
    `run`/`task`) that names a role, else the one call of an inline one-liner (`-e '…'`).

    Programs whose arguments are files or text (`ls`, `echo`, `git`) and package managers
    (whose tasks the table reads) are never read so."""
    table = _table()
    if (
        program in table.plain_programs
        or program in table.package_managers  # their words are their own (`pip check`)
        or not _COMMAND_NAME.match(program)
    ):
        return None
    ecosystem = _program_ecosystems().get(program, "any")
    for i, word in enumerate(words[1:], start=1):
        if word in _INLINE_OPTIONS and i + 1 < len(words):
            name = _inline_call(words[i + 1])
            purpose = task_purpose(name) if name and len(name) >= 3 else None
            if purpose in ROLE_PURPOSES:
                return CommandUse(program, purpose, ecosystem, task=name)
            return None
    positional = [w for w in words[1:] if not w.startswith(("-", "+"))]
    if positional and positional[0] in _TASK_KEYWORDS:
        positional = positional[1:]
    if not positional:
        return None
    word = positional[0].lower()
    if len(word.split(":", 1)[0]) < 3:
        return None  # `prove -l t`: a folder or a letter, not a task's name
    purpose = table.task_names.get(word) or table.task_names.get(word.split(":", 1)[0])
    if purpose not in ROLE_PURPOSES or (purpose in _BARE_ROLES and len(positional) > 1):
        return None
    return CommandUse(program, purpose, ecosystem, task=positional[0])


def _inline_call(code: str) -> str | None:
    """The function a one-liner calls (`devtools::document()` → document): its last statement
    is one call and every statement before it only loads something; None otherwise."""
    statements = [s.strip() for s in re.split(r"[;\n]", code.strip()) if s.strip()]
    if not statements or not all(_LOADING.match(s) for s in statements[:-1]):
        return None
    match = _LAST_CALL.search(statements[-1])
    return match.group(1) if match else None


@cache
def _program_ecosystems() -> dict[str, str]:
    """The ecosystem of each program the table names in a pattern (`cargo` → rust)."""
    found: dict[str, str] = {}
    for words, use in _table().patterns.items():
        if use.ecosystem not in ("any", "containers", "docs"):
            found.setdefault(words[0], use.ecosystem)
    return found


def _named_use(use: CommandUse, program: str, rest: list[str]) -> CommandUse:
    """A tool known by its name alone, unless its first argument says otherwise.

    A server or app runner takes an entry point (`uvicorn app:main`), never a purpose word:
    `air format .` is another ecosystem's tool of the same name, formatting. It keeps the
    argument's purpose and belongs to no ecosystem, rather than being called the app's runner.
    """
    if use.purpose != "run" or not rest:
        return use
    other = _table().task_names.get(rest[0].lower())
    if other is None or other == "run":
        return use
    return CommandUse(program, other, "any")


def _task_use(program: str, words: list[str], rest: list[str]) -> CommandUse | None:
    table = _table()
    if program in table.task_runners:
        names = list(rest)
        if names and names[0] in _TASK_KEYWORDS and program != "make":
            names = names[1:]
        for name in names[:3] if program in ("make", "just", "rake", "task") else names[:1]:
            purpose = task_purpose(name)
            if purpose:
                return CommandUse(program, purpose, table.task_runners[program], task=name)
        if program == "make" and not rest:
            return CommandUse("make", "build", "any", task="")
        return None
    if "/" in words[0] or words[0].endswith(_SCRIPT_SUFFIXES):
        stem = program.rsplit(".", 1)[0] if "." in program else program
        purpose = task_purpose(stem)
        if purpose in (None, "run") and _TEST_SCRIPT.search(stem.lower()):
            purpose = "test"
        if purpose:
            return CommandUse(words[0], purpose, "any", task=stem)
    return None


def _tokens(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>()\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:
        spaced = re.sub(r"(&&|\|\||[;|\n]|\d?>>?&?\d?|<)", r" \1 ", line)
        return [t if t != "\n" else "\n" for t in spaced.replace("\n", " \n ").split(" ") if t]


def _simple_commands(line: str) -> list[list[str]]:
    """Split a shell line into simple commands; pipes' right-hand sides and redirections go."""
    found: list[list[str]] = []
    current: list[str] = []
    piped = False
    skip_next = False
    for token in _tokens(line[:MAX_LINE_CHARS]):
        if skip_next:
            skip_next = False
            continue
        punct = token.strip("()") if token and set(token) <= _PUNCTUATION else None
        if punct == "":
            continue
        if punct is None:
            if not piped:
                current.append(token)
            continue
        if "<" in punct or ">" in punct:
            if current and current[-1].isdigit():
                current.pop()
            skip_next = True
        elif "|" in punct and punct != "||":
            piped = True
        else:
            if current:
                found.append(current)
            current, piped = [], False
    if current:
        found.append(current)
    return found


def command_uses(text: str) -> list[CommandUse]:
    """Every recognised tool in a shell line, in order (`ruff check . && mypy src` → two)."""
    return [use for tokens in _simple_commands(text) if (use := classify_tokens(tokens))]


def classify_command(text: str) -> CommandUse | None:
    """The first recognised tool of a shell line: `cd a && MIX_ENV=test mix test` → mix test."""
    uses = command_uses(text)
    return uses[0] if uses else None


def is_test_command(text: str) -> bool:
    """Whether any part of a shell line runs a test suite."""
    return any(use.purpose == "test" for use in command_uses(text))


def typed_commands(
    line: str, *, cwd: str | None = None, project_root: str | None = None
) -> list[TypedCommand]:
    """The simple commands of `line` as a user would type them, with the folder each ran in.

    `cwd` is where the shell started (absolute), `project_root` the project's folder; absolute
    paths inside the project become relative to the command's own folder.
    """
    if len(line) <= _CACHED_LINE_CHARS:
        return list(_typed_cached(line, cwd, project_root))
    return _typed(line, cwd, project_root)


@lru_cache(maxsize=4096)
def _typed_cached(line: str, cwd: str | None, project_root: str | None) -> tuple[TypedCommand, ...]:
    return tuple(_typed(line, cwd, project_root))


def _typed(line: str, cwd: str | None, project_root: str | None) -> list[TypedCommand]:
    root = posixpath.normpath(project_root) if project_root else None
    here = posixpath.normpath(cwd) if cwd else root
    found: list[TypedCommand] = []
    for tokens in _simple_commands(line):
        words = _strip_launchers(tokens)
        if not words:
            continue
        program = _program(words[0])
        if program in _SHELL_STATE:
            if program in ("cd", "pushd") and len(words) == 2 and here is not None:
                here = posixpath.normpath(posixpath.join(here, words[1]))
            elif program in ("cd", "pushd") and len(words) == 2 and not words[1].startswith("/"):
                here = words[1]
            continue
        shown = [_relative(word, here) for word in words]
        found.append(
            TypedCommand(
                join_words(shown), _scope(here, root), classify_tokens(tokens), tuple(shown)
            )
        )
    return found


def join_words(words: list[str]) -> str:
    """Words back into a shell line, quoted only where needed, preferring the usual quotes."""
    shown: list[str] = []
    for word in words:
        quoted = shlex.quote(word)
        if quoted != word and "'" in word:
            escaped = word.replace("\\", "\\\\").replace('"', '\\"')
            quoted = f'"{escaped}"'
        shown.append(quoted)
    return " ".join(shown)


def _strip_launchers(tokens: list[str]) -> list[str]:
    """Drop env assignments and wrappers (`timeout 60`, `time`), keeping runners like `uv run`."""
    table = _table()
    words = list(tokens)
    while words:
        if _ENV_ASSIGNMENT.match(words[0]):
            words = words[1:]
        elif _program(words[0]) in table.wrappers and _program(words[0]) != "sudo":
            words = _skip_wrapper(words, table.wrappers[_program(words[0])])
        else:
            break
    return words


def _relative(word: str, here: str | None) -> str:
    if here and word.startswith("/") and here.startswith("/"):
        if word == here:
            return "."
        if word.startswith(here + "/"):
            return word[len(here) + 1 :]
    return word


def _scope(here: str | None, root: str | None) -> str:
    if here is None:
        return ""
    if root is None:
        return "" if here.startswith("/") else here.strip("/")
    if here == root:
        return ""
    if here.startswith(root + "/"):
        return here[len(root) + 1 :]
    if not here.startswith("/"):
        return posixpath.normpath(here).lstrip("./") if here not in (".", "") else ""
    return here
