"""The command table: what a developer command is for, in every mainstream ecosystem.

The table itself is data (`commands.toml`, shipped with this package and read once). Two
functions answer everything the rest of the code asks about a shell line:

- `classify_command(text)`: the first recognised tool of a line as a `CommandUse`
  (tool, purpose, ecosystem), or None. `command_uses(text)` gives every recognised one.
- `typed_commands(line, cwd=..., project_root=...)`: the line as the commands a user would
  type, one `TypedCommand` per simple command, with shell redirections, pipes into pagers,
  `cd … &&` steps and launch wrappers (`timeout 60`) removed, and the folder each command ran
  in (`scope`, relative to the project root) kept apart. An environment prefix changes what
  the command does (`GOOS=linux GOARCH=amd64 go build`, `CGO_ENABLED=0`) and stays, but for an
  assignment of a secret (a name with TOKEN, KEY, SECRET, PASS, PAT, DSN …, or a value ingest
  redacted), of a path of one
  machine (`/abs/path`, `~/…`) or of a value read from its environment (`$HOME/…`, `$X`),
  which would not hold elsewhere. A word the user
  quoted keeps its quotes (`-destination 'platform=macOS'`, `--filter "a b"`), so the command
  can be pasted and run as it was.

Purposes are `test`, `lint`, `format`, `typecheck`, `build`, `migrate`, `run` (start the app or
its dev server), `install` (dependencies), `docs` (build the documentation), `release` and
`deploy`. The table's data and `CommandUse` live in `squirrel_core.command_table`; a program
the table does not know is read by its own words in `squirrel_core.command_roles`. Their public
names are importable from here as well, and so is `join_words` of `squirrel_core.shell_words`
(words back into a line that pastes and runs), which also splits a line into simple commands.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final

from squirrel_core.command_roles import ROLE_PURPOSES, TASK_KEYWORDS, role_use
from squirrel_core.command_table import (
    CATEGORIES,
    PURPOSES,
    CommandUse,
    command_table,
    ecosystems,
    known_tools,
    task_purpose,
)
from squirrel_core.container_runs import inside_container
from squirrel_core.redaction import REDACTED_PREFIX
from squirrel_core.shell_words import (
    ENV_ASSIGNMENT,
    MAX_LINE_CHARS,
    join_words,
    simple_commands,
)

#: Lines up to this long are remembered once read (the same commands recur all the time).
_CACHED_LINE_CHARS = 2_000
_SHELL_STATE = frozenset({"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "alias"})
#: An environment assignment left out of a typed command: a secret's name, or a value that is
#: a path of one machine (absolute, in a home folder) or read from its environment (`$X`).
_SECRET_NAME = re.compile(
    r"TOKEN|SECRET|PASSW|PASSPHRASE|(?:^|_)PWD$|API_?KEY|AUTH|CREDENTIAL|COOKIE|PRIVATE"
    r"|(?:^|_)(?:KEY|PASS|PAT|DSN)(?:_|$)",
    re.IGNORECASE,
)
_MACHINE_PATH = re.compile(r"^(?:/|~|\$\{?HOME\b|\$\{?USERPROFILE\b|[A-Za-z]:[\\/])")
_PYTHON = re.compile(r"^(?:python|pypy)(?:\d+(?:\.\d+)?)?$")
_INTERPRETERS = frozenset(
    {"node", "ruby", "bash", "sh", "zsh", "deno", "bun", "perl", "lua", "Rscript", "elixir"}
    | {"luajit", "php"}
)
#: Programs that load variables (from a file, a secrets store) and run the command after `--`.
_ENV_LOADERS = frozenset({"dotenv", "dotenvx", "doppler", "infisical"})
#: A Lua interpreter named with its version (`lua5.4`, `lua54`).
_VERSIONED_LUA = re.compile(r"^lua\d[\d.]*$")
_SCRIPT_SUFFIXES = (
    *(".sh", ".bash", ".py", ".js", ".mjs", ".ts", ".rb", ".exs"),
    *(".pl", ".lua", ".R", ".jl", ".php"),
)
#: A script whose name ends in test(s) runs tests (`run_tests.sh`, `runtests.py`,
#: `run-all-tests`), whatever its first word says (`run_server.sh` stays a run command).
_TEST_SCRIPT = re.compile(r"(?:^|[._-]|^run)tests?$")
#: The folders a project keeps its tests in: a script right in one runs them (`lua tests/run.lua`,
#: `./test/run.sh`), whatever its own name says (`test/fixtures/make_data.sh` does not).
_TEST_FOLDERS = frozenset({"test", "tests", "spec", "specs"})


@dataclass(frozen=True, slots=True)
class TypedCommand:
    """One simple command as a user would type it, where it ran, and what it is for.

    `scope` is the folder relative to the project root ("" for the root itself); it is an
    absolute path when the command ran outside the project, and "" when nothing is known.
    """

    text: str
    scope: str
    use: CommandUse | None
    #: The command's words after its environment prefix (quotes removed), for callers that
    #: look at the program and its arguments.
    words: tuple[str, ...] = ()
    #: The environment assignments `text` starts with (`GOOS=linux`), as typed.
    env: tuple[str, ...] = ()

    @property
    def bare(self) -> str:
        """`text` without its environment prefix: the command itself."""
        prefix = " ".join(self.env)
        return self.text[len(prefix) :].lstrip() if prefix else self.text


def package_manager(tokens: list[str]) -> tuple[str, str] | None:
    """(package manager, ecosystem) a tokenised simple command goes through, if any."""
    words = [t for t in tokens if not ENV_ASSIGNMENT.match(t)]
    if not words:
        return None
    first = _program(words[0])
    if _PYTHON.match(first) and words[1:3] == ["-m", "pip"]:
        return "pip", "python"
    first = {"uvx": "uv", "npx": "npm", "pnpx": "pnpm", "bunx": "bun", "pip3": "pip"}.get(
        first, first
    )
    ecosystem = command_table().package_managers.get(first)
    return (first, ecosystem) if ecosystem else None


def core_tokens(tokens: list[str]) -> list[str]:
    """A simple command's tokens without env assignments, wrappers and runner prefixes."""
    return list(_core_tokens(tuple(tokens)))


@lru_cache(maxsize=8192)
def _core_tokens(tokens: tuple[str, ...]) -> tuple[str, ...]:
    table = command_table()
    runners = _runners_by_program()
    words = tokens
    changed = True
    while changed and words:
        changed = False
        while words and ENV_ASSIGNMENT.match(words[0]):
            words = words[1:]
            changed = True
        if not words:
            break
        program = _program(words[0])
        if program in table.wrappers:
            words = tuple(_skip_wrapper(list(words), table.wrappers[program]))
            changed = True
            continue
        if program in _ENV_LOADERS and "--" in words:
            # `dotenv -e .env.test -- tsx scripts/x.ts`: the command after `--` runs, with the
            # file's variables (the typed form keeps the loader: which file matters)
            words = words[words.index("--") + 1 :]
            changed = True
            continue
        if _syntax_check(program, words) is not None:
            break  # `php -l a.php`: the interpreter is the tool, not a launcher
        for prefix in runners.get(program, ()):
            if len(words) > len(prefix) and all(
                words[i] == prefix[i] for i in range(1, len(prefix))
            ):
                words = words[len(prefix) :]
                while words and words[0].startswith("-") and prefix[-1] in {"npx", "uvx"}:
                    words = words[1:]
                if prefix[-1] == "run" and program in _ENV_RUNNERS:
                    words = _without_runner_options(words)
                changed = True
                break
        if changed:
            continue
        inside = inside_container(words)
        if inside is not None:
            words = inside
            changed = True
        elif len(words) >= 3 and _PYTHON.match(program) and words[1] == "-m":
            words = words[2:]
            changed = True
        elif len(words) >= 2 and _is_script_launch(list(words)):
            words = words[1:]
            changed = True
    return words


@cache
def _runners_by_program() -> dict[str, tuple[tuple[str, ...], ...]]:
    found: dict[str, list[tuple[str, ...]]] = {}
    for prefix in command_table().runners:
        found.setdefault(prefix[0], []).append(prefix)
    return {program: tuple(prefixes) for program, prefixes in found.items()}


def _is_script_launch(words: list[str]) -> bool:
    """`python manage.py …`, `bash scripts/check`: the interpreter only launches the script."""
    program = _program(words[0])
    if _PYTHON.match(program):
        return words[1].endswith(".py")
    interpreter = program in _INTERPRETERS or bool(_VERSIONED_LUA.match(program))
    return interpreter and ("/" in words[1] or words[1].endswith(_SCRIPT_SUFFIXES))


#: Environment managers whose `run` starts a command in the project's environment, and the
#: options of that `run` whose value comes next (`uv run --extra test pytest` runs pytest).
_ENV_RUNNERS = frozenset({"uv", "poetry", "pdm", "hatch", "rye", "pixi", "conda"})
_RUNNER_VALUED = frozenset(
    {
        "--extra",
        "--with",
        "--with-editable",
        "--with-requirements",
        "--python",
        "-p",
        "--group",
        "--only-group",
        "--no-group",
        "--package",
        "--env-file",
        "--directory",
        "--project",
        "--index",
        "-n",
        "--name",
        "--prefix",
        "-e",
        "--environment",
    }
)


def _without_runner_options(words: tuple[str, ...]) -> tuple[str, ...]:
    """The command an environment runner starts, past the runner's own options."""
    while words and words[0].startswith("-") and words[0] != "--":
        valued = words[0] in _RUNNER_VALUED
        words = words[2:] if valued else words[1:]
    return words[1:] if words[:1] == ("--",) else words


def _skip_wrapper(words: list[str], arguments: int) -> list[str]:
    words = words[1:]
    while words and (words[0].startswith("-") or ENV_ASSIGNMENT.match(words[0])):
        words = words[1:]
    return words[arguments:]


#: A Gradle task that runs tests besides `test` itself: a variant's or a suite's. A task that
#: only builds or compiles the tests (`assembleAndroidTest`, `compileDebugUnitTest`) runs none.
_GRADLE_TEST_TASK = re.compile(
    r"^(?!(?:assemble|compile|bundle|package|process|generate|merge|install|uninstall|pre)"
    r"[A-Z])(?:test[A-Z]\w*Test|[a-z]\w*Test)$"
)


def _program(word: str) -> str:
    return posixpath.basename(word.strip("()"))


def classify_tokens(tokens: list[str]) -> CommandUse | None:
    """The tool one tokenised simple command runs (`["uv", "run", "pytest"]` → pytest)."""
    words = core_tokens(tokens)
    if not words:
        return None
    table = command_table()
    program = _program(words[0])
    checked = _syntax_check(program, words)
    if checked is not None:
        return checked
    rest = _without_option_values(program, words[1:])
    best: tuple[str, ...] | None = None
    for length in range(min(4, len(rest) + 1), 1, -1):
        key = (program, *rest[: length - 1])
        if key in table.patterns:
            best = key
            break
    # Build tools whose action may follow options and their values (`gradle -p app test`,
    # `xcodebuild -scheme App -destination … test`): the first action word the table names.
    if best is None and len(rest) > 1 and words[1].startswith("-") and "=" not in words[1]:
        # `nix --extra-experimental-features 'nix-command flakes' flake check`, `go -C api test`:
        # the program's option took the first word as its value; its subcommand comes after
        for length in range(min(4, len(rest)), 1, -1):
            key = (program, *rest[1:length])
            if key in table.patterns:
                best = key
                break
    if best is None and program in ("mvn", "mvnw", "gradle", "gradlew", "sbt", "xcodebuild"):
        best = next(((program, w) for w in rest if (program, w) in table.patterns), None)
    if best is None and program in ("gradle", "gradlew"):
        # A task of one project (`:app:test`) or a variant's test task (`testDebugUnitTest`,
        # `connectedAndroidTest`, `integrationTest`) runs the tests.
        tasks = [w.rsplit(":", 1)[-1] for w in rest]
        best = next(((program, t) for t in tasks if (program, t) in table.patterns), None)
        if best is None and any(_GRADLE_TEST_TASK.match(t) for t in tasks):
            best = (program, "test")
    if best is not None:
        use = table.patterns[best]
        if use.tool == "docker compose" and use.purpose == "run" and _backing_only(rest):
            return None  # starts what the app uses (its database), not the app
        if best in _PACKAGE_EXECUTABLE_RUNS and _names_executable(rest[len(best) - 1 :]):
            return (
                None  # `dart run build_runner build`: a package's tool (a generator), not the app
            )
        return use
    task = _task_use(program, words, rest)
    if task is not None:
        return task
    if (program,) in table.patterns:
        session = _session_use(table.patterns[(program,)], program, words)
        if session is not _NO_SESSION:
            return session
        return _named_use(table.patterns[(program,)], program, rest)
    return role_use(program, words)


#: `run` subcommands that start either the project's own entry point or, given a bare name,
#: an executable of a dependency (`dart run build_runner build` generates code).
_PACKAGE_EXECUTABLE_RUNS = frozenset(
    {("dart", "run"), ("dart", "pub", "run"), ("flutter", "pub", "run")}
)


def _names_executable(words: Sequence[str]) -> bool:
    """Whether the first word after a `run` is a dependency's executable: a bare name, not a
    file (`bin/main.dart`) nor an option."""
    first = next((w for w in words if not w.startswith("-")), "")
    return bool(first) and "/" not in first and "." not in first


#: Session runners and the options naming the sessions to run (`nox -s lint`, `tox -e py312`).
_SESSION_OPTIONS = {
    "nox": frozenset({"-s", "--session", "--sessions", "-e"}),
    "tox": frozenset({"-e", "--envlist"}),
}
_NO_SESSION = CommandUse("", "", "")


def _session_use(use: CommandUse, program: str, words: list[str]) -> CommandUse | None:
    """What a session runner does when it names its sessions: a session's name gives the
    purpose (`nox -s lint` lints, `tox -e py312` tests); a name that says nothing (`nox -s
    docs`) gives none. `_NO_SESSION` when no session is named (the runner's own purpose)."""
    options = _SESSION_OPTIONS.get(program)
    if options is None:
        return _NO_SESSION
    names: list[str] = []
    for i, word in enumerate(words[1:], 1):
        flag, eq, value = word.partition("=")
        if flag in options:
            given = value if eq else (words[i + 1] if i + 1 < len(words) else "")
            names.extend(n for n in given.split(",") if n)
    if not names:
        return _NO_SESSION
    purposes = {_session_purpose(n) for n in names}
    if len(purposes) != 1 or None in purposes:
        return None
    return CommandUse(use.tool, purposes.pop() or "", use.ecosystem)


def _session_purpose(name: str) -> str | None:
    """A session's purpose by its name; an interpreter's name (`py312`, `3.12`) runs the tests."""
    if re.fullmatch(r"(?:py|pypy)?3?\.?\d*(?:-\w+)?", name.lower()):
        return "test"
    return task_purpose(name)


#: Options of the JavaScript package managers whose value (a package, a folder) comes next:
#: `pnpm --filter web test` runs the `test` script of `web`.
_VALUED = {
    "npm": frozenset({"-w", "--workspace", "--prefix", "-C"}),
    "pnpm": frozenset({"--filter", "-F", "-C", "--dir"}),
    "yarn": frozenset({"--cwd"}),
    "bun": frozenset({"--filter", "--cwd"}),
}


def package_option(program: str, word: str) -> bool:
    """Whether `word` is an option of the package manager `program` whose value picks the
    package or folder a script runs in (`pnpm --filter`, `npm -w`)."""
    return word in _VALUED.get(program, frozenset())


def session_option(program: str, word: str) -> bool:
    """Whether `word` is an option of the session runner `program` naming the sessions it runs
    (`nox -s lint`, `tox -e py312`): which session is part of the command."""
    return word.partition("=")[0] in _SESSION_OPTIONS.get(program, frozenset())


def runner_launch(words: Sequence[str]) -> int:
    """How many of `words` launch the tool through an environment runner, the runner's own
    options included (`uv run --extra test pytest` → 4); 0 when no such runner starts it."""
    if len(words) < 3 or _program(words[0]) not in _ENV_RUNNERS or words[1] != "run":
        return 0
    rest = _without_runner_options(tuple(words[2:]))
    return len(words) - len(rest) if rest else 0


def _without_option_values(program: str, words: Sequence[str]) -> list[str]:
    """The words after the program that are neither options nor, for a package manager, an
    option's value (`pnpm --filter web test` → `test`)."""
    valued = _VALUED.get(program, frozenset())
    rest: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith(("-", "+")):
            skip = word in valued
        else:
            rest.append(word)
    return rest


#: Services an app uses rather than is: databases, caches, queues, mail catchers, stores.
_BACKING = re.compile(
    r"^(?:[\w-]+[-_])?(?:db|database|postgres(?:ql)?|pg|mysql|mariadb|mongo(?:db)?|redis|valkey|"
    r"memcached?|cache|rabbitmq|rabbit|kafka|zookeeper|nats|elasticsearch|opensearch|es|minio|"
    r"localstack|mailhog|mailpit|smtp|mail|queue|broker|clickhouse|cassandra|neo4j|influxdb|"
    r"sqlserver|mssql|oracle|dynamodb|azurite|vault|consul|etcd)(?:[-_]?\d+)?(?:[-_][\w-]+)?$",
    re.IGNORECASE,
)


def _backing_only(rest: Sequence[str]) -> bool:
    """Whether `docker compose up <services>` names services, each one an app uses (`db`,
    `postgres`, `redis`, `test-db`): it starts those, not the app."""
    if "up" not in rest:
        return False
    services = list(rest[rest.index("up") + 1 :])
    return bool(services) and all(_BACKING.match(s) for s in services)


def _syntax_check(program: str, words: Sequence[str]) -> CommandUse | None:
    """An interpreter asked only to check a file's syntax (`php -l a.php`, `bash -n x.sh`): a
    lint. Only the options before the first other word are the interpreter's own."""
    check = command_table().syntax_checks.get(program)
    if check is None:
        return None
    flags, ecosystem = check
    for word in words[1:]:
        if not word.startswith("-"):
            return None
        if word in flags:
            return CommandUse(f"{program} {word}", "lint", ecosystem)
    return None


def _named_use(use: CommandUse, program: str, rest: list[str]) -> CommandUse:
    """A tool known by its name alone, unless its first argument says otherwise.

    A server or app runner takes an entry point (`uvicorn app:main`), never a purpose word:
    `air format .` is another ecosystem's tool of the same name, formatting. It keeps the
    argument's purpose and belongs to no ecosystem, rather than being called the app's runner.
    """
    if use.purpose != "run" or not rest:
        return use
    other = command_table().task_names.get(rest[0].lower())
    if other is None or other == "run":
        return use
    return CommandUse(program, other, "any")


def _task_use(program: str, words: list[str], rest: list[str]) -> CommandUse | None:
    table = command_table()
    if program in table.task_runners:
        names = _make_targets(words) if program == "make" else list(rest)
        if names and names[0] in TASK_KEYWORDS and program != "make":
            names = names[1:]
        for name in names[:3] if program in ("make", "just", "rake", "task") else names[:1]:
            purpose = task_purpose(name)
            if purpose:
                return CommandUse(program, purpose, table.task_runners[program], task=name)
        if program == "make" and not names:
            return CommandUse("make", "build", "any", task="")
        if program == "make" and _MAKE_ALL in names[:3]:
            # make's conventional default target builds the whole program (`make all`,
            # `make clean all`), as `make` alone does.
            return CommandUse("make", "build", "any", task=_MAKE_ALL)
        return None
    if "/" in words[0] or words[0].endswith(_SCRIPT_SUFFIXES):
        stem = program.rsplit(".", 1)[0] if "." in program else program
        purpose = task_purpose(stem)
        folder = posixpath.basename(posixpath.dirname(words[0])).lower()
        if purpose in (None, "run") and (
            _TEST_SCRIPT.search(stem.lower()) or folder in _TEST_FOLDERS
        ):
            purpose = "test"
        if purpose:
            return CommandUse(words[0], purpose, "any", task=stem)
    return None


#: The target make's conventions name for building everything.
_MAKE_ALL: Final = "all"
#: make's options whose value is the next word (`make -C test/plugins`, `make -f ci.mk`).
_MAKE_VALUED = frozenset({"-C", "-f", "-I", "-o", "-W", "--directory", "--file", "--makefile"})


def _make_targets(words: list[str]) -> list[str]:
    """The targets of a make line: neither options, their values (`-C dir`), nor variable
    assignments (`V=1`)."""
    targets: list[str] = []
    skip = False
    for word in words[1:]:
        if skip:
            skip = False
        elif word in _MAKE_VALUED:
            skip = True
        elif not word.startswith(("-", "+")) and not ENV_ASSIGNMENT.match(word):
            targets.append(word)
    return targets


def command_uses(text: str) -> list[CommandUse]:
    """Every recognised tool in a shell line, in order (`ruff check . && mypy src` → two)."""
    return [use for tokens in simple_commands(text) if (use := classify_tokens(tokens))]


def classify_command(text: str) -> CommandUse | None:
    """The first recognised tool of a shell line: `cd a && MIX_ENV=test mix test` → mix test."""
    uses = command_uses(text)
    return uses[0] if uses else None


#: Names of a task that runs the project's checks as one gate (`make check`, `mix precommit`,
#: `just ci`, `npm run check`, `mvn verify`): it may run the tests, but it is more than them.
GATE_TASKS = frozenset({"precommit", "pre-commit", "pre_commit", "check", "checks", "ci", "verify"})


def runs_a_gate(command: str) -> bool:
    """Whether a command runs a gate task: its last word but for options is one of
    `GATE_TASKS`, after a program (`make check`; not `check` alone, nor `check.sh`)."""
    words = [w for w in command.split() if not w.startswith("-")]
    return len(words) >= 2 and words[-1].lower() in GATE_TASKS


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


def _with_substitutions(words: list[str], line: str) -> str:
    """`words` joined back with each command substitution as it was typed: the shell's
    tokens split `$(git ls-files '*.hs')` into `$`, `git`, `ls-files`, `*.hs`."""
    shown: list[str] = []
    start = 0
    i = 0
    while i < len(words):
        at = line.find("$(", start) if words[i] == "$" else -1
        end = _closing(line, at + 2) if at >= 0 else -1
        if end < 0:
            shown.append(join_words([words[i]], typed=line))
            i += 1
            continue
        inner = [w for part in simple_commands(line[at + 2 : end]) for w in part]
        shown.append(line[at : end + 1])
        start = end + 1
        i += 1 + len(inner)
    return " ".join(shown)


def _closing(line: str, start: int) -> int:
    """Where the parenthesis opened just before `start` closes, outside quotes (-1 if never)."""
    depth, quote = 1, ""
    for n in range(start, len(line)):
        char = line[n]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return n
    return -1


def _typed(line: str, cwd: str | None, project_root: str | None) -> list[TypedCommand]:
    root = posixpath.normpath(project_root) if project_root else None
    here = posixpath.normpath(cwd) if cwd else root
    found: list[TypedCommand] = []
    read = line[:MAX_LINE_CHARS]
    for tokens in simple_commands(line):
        env, words = _strip_launchers(tokens)
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
        kept = tuple(join_words([e], typed=read) for e in env)
        text = join_words([*env, *shown], typed=read)
        if "$" in shown and "$(" in read:
            text = join_words(env, typed=read) + " " if env else ""
            text += _with_substitutions(shown, read)
        found.append(
            TypedCommand(text, _scope(here, root), classify_tokens(tokens), tuple(shown), kept)
        )
    return found


def _strip_launchers(tokens: list[str]) -> tuple[list[str], list[str]]:
    """(environment prefix kept, the command's words): wrappers (`timeout 60`, `time`) dropped,
    runners like `uv run` kept; an assignment of a secret or of one machine's path dropped."""
    table = command_table()
    env: list[str] = []
    words = list(tokens)
    while words:
        if ENV_ASSIGNMENT.match(words[0]):
            if _kept_assignment(words[0]):
                env.append(words[0])
            words = words[1:]
        elif _program(words[0]) in table.wrappers and _program(words[0]) != "sudo":
            words = _skip_wrapper(words, table.wrappers[_program(words[0])])
        else:
            break
    return env, words


def _kept_assignment(word: str) -> bool:
    """Whether an environment assignment belongs in a command kept for other machines."""
    name, _, value = word.partition("=")
    if "$" in value or "`" in value:  # read from this machine's environment or a command
        return False
    if REDACTED_PREFIX in value:  # a secret ingest redacted: the command no longer runs
        return False
    machine = any(_MACHINE_PATH.match(part) for part in value.split(":") if len(part) > 1)
    return not _SECRET_NAME.search(name) and not machine and not _MACHINE_PATH.match(value)


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


__all__ = [
    "CATEGORIES",
    "MAX_LINE_CHARS",
    "PURPOSES",
    "ROLE_PURPOSES",
    "CommandUse",
    "TypedCommand",
    "classify_command",
    "classify_tokens",
    "command_uses",
    "core_tokens",
    "ecosystems",
    "is_test_command",
    "join_words",
    "known_tools",
    "package_manager",
    "runner_launch",
    "session_option",
    "task_purpose",
    "typed_commands",
]
