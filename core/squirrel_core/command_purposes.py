"""What one simple command is for: `classify_tokens` reads its tool, purpose and ecosystem
against the command table, past whatever only launches it (`squirrel_core.command_launchers`).

A pattern of the table wins (`ruff check`, `gradle test`); else a task runner's task
(`make test`, `npm run lint`), a script named for what it does (`./run_tests.sh`), a session
runner's named sessions (`nox -s lint`), the program alone, and last the program's own words
(`squirrel_core.command_roles`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import Final

from squirrel_core.command_launchers import (
    SCRIPT_SUFFIXES,
    core_tokens,
    program_name,
    syntax_check,
)
from squirrel_core.command_roles import TASK_KEYWORDS, role_use
from squirrel_core.command_stand_ins import (
    evaluates_code,
    names_side_target,
    names_test_target,
    rehearses,
    sets_up_config,
    skips_build,
)
from squirrel_core.command_table import CommandUse, command_table, task_purpose
from squirrel_core.shell_words import ENV_ASSIGNMENT

#: A script whose name ends in test(s) runs tests (`run_tests.sh`, `runtests.py`,
#: `run-all-tests`), whatever its first word says (`run_server.sh` stays a run command).
_TEST_SCRIPT = re.compile(r"(?:^|[._-]|^run)tests?$")
#: The folders a project keeps its tests in: a script right in one runs them (`lua tests/run.lua`,
#: `./test/run.sh`), whatever its own name says (`test/fixtures/make_data.sh` does not).
_TEST_FOLDERS = frozenset({"test", "tests", "spec", "specs"})
#: A Gradle task that runs tests besides `test` itself: a variant's or a suite's. A task that
#: only builds or compiles the tests (`assembleAndroidTest`, `compileDebugUnitTest`) runs none.
_GRADLE_TEST_TASK = re.compile(
    r"^(?!(?:assemble|compile|bundle|package|process|generate|merge|install|uninstall|pre)"
    r"[A-Z])(?:test[A-Z]\w*Test|[a-z]\w*Test)$"
)


def classify_tokens(tokens: list[str]) -> CommandUse | None:
    """The tool one tokenised simple command runs (`["uv", "run", "pytest"]` → pytest)."""
    words = core_tokens(tokens)
    if not words:
        return None
    use = _classify(words)
    if use is not None and use.purpose in ("release", "deploy") and rehearses(words[1:]):
        return None  # `npm publish --dry-run`: what would be published, nothing published
    if use is not None and use.purpose == "build" and skips_build(words[1:]):
        return None  # `dotnet pack --no-build`: packs what an earlier build made
    if use is not None and use.purpose in _CHECKS and sets_up_config(words[1:]):
        return None  # `eslint --init`: writes the linter's configuration, checks nothing
    return use


#: The purposes of a check, which a configuration written or printed is not.
_CHECKS = frozenset({"test", "lint", "format", "typecheck"})


def _classify(words: list[str]) -> CommandUse | None:
    table = command_table()
    program = program_name(words[0])
    checked = syntax_check(program, words)
    if checked is not None:
        return checked
    rest = _operands(words[1:], table.package_options.get(program, frozenset()))
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
    if best is None and program == "sbt":
        # A quoted command is a task with its arguments (`sbt "testOnly *ParserSpec"`).
        tasks = [w.split()[0] for w in rest if " " in w.strip()]
        best = next(((program, t) for t in tasks if (program, t) in table.patterns), None)
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
        if use.purpose == "run" and names_test_target(_after(words, best)):
            return None  # `cargo run --bin conformance`: a test suite started, not the app
        if use.purpose == "run" and evaluates_code(program, _after(words, best)):
            return None  # `rebar3 shell --eval '…, init:stop().'`: the code given ran
        if use.purpose == "run" and names_side_target(_after(words, best)):
            return None  # `dotnet run --project tools/Seeder`: a tool of the project, not the app
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


def _after(words: list[str], pattern: tuple[str, ...]) -> list[str]:
    """The words after a table pattern's last word (after the program for a program alone)."""
    if len(pattern) == 1:
        return words[1:]
    last = pattern[-1]
    at = next((i for i, w in enumerate(words[1:], 1) if w == last), len(words) - 1)
    return words[at + 1 :]


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


_NO_SESSION = CommandUse("", "", "")


def _session_use(use: CommandUse, program: str, words: list[str]) -> CommandUse | None:
    """What a session runner does when it names its sessions: a session's name gives the
    purpose (`nox -s lint` lints, `tox -e py312` tests); a name that says nothing (`nox -s
    docs`) gives none. `_NO_SESSION` when no session is named (the runner's own purpose)."""
    options = command_table().session_options.get(program)
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


def package_option(program: str, word: str) -> bool:
    """Whether `word` is an option of the package manager `program` whose value picks the
    package or folder a script runs in (`pnpm --filter`, `npm -w`)."""
    return word in command_table().package_options.get(program, frozenset())


def session_option(program: str, word: str) -> bool:
    """Whether `word` is an option of the session runner `program` naming the sessions it runs
    (`nox -s lint`, `tox -e py312`): which session is part of the command."""
    return word.partition("=")[0] in command_table().session_options.get(program, frozenset())


def _operands(words: Sequence[str], valued: frozenset[str]) -> list[str]:
    """The words that are neither options (`-x`, `+x`) nor the value of an option in `valued`
    (`pnpm --filter web test` → `test`, `make -C docs html` → `html`)."""
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
    if "/" in words[0] or words[0].endswith(SCRIPT_SUFFIXES):
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
    return [w for w in _operands(words[1:], _MAKE_VALUED) if not ENV_ASSIGNMENT.match(w)]
