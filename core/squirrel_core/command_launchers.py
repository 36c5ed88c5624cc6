"""What only launches a command: environment assignments, wrappers (`timeout 60`), environment
runners (`uv run`), variable loaders (`dotenv --`), containers and interpreters running a script.

`core_tokens` strips them all down to the tool that runs; `past_options` is the one way their
options are skipped. Which programs launch is data of `commands.toml` (`[runners]`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from functools import cache, lru_cache

from squirrel_core.command_table import CommandUse, command_table
from squirrel_core.container_runs import inside_container
from squirrel_core.shell_words import ENV_ASSIGNMENT

_PYTHON = re.compile(r"^(?:python|pypy)(?:\d+(?:\.\d+)?)?$")
_INTERPRETERS = frozenset(
    {"node", "ruby", "bash", "sh", "zsh", "deno", "bun", "perl", "lua", "Rscript", "elixir"}
    | {"luajit", "php"}
)
#: A Lua interpreter named with its version (`lua5.4`, `lua54`).
_VERSIONED_LUA = re.compile(r"^lua\d[\d.]*$")
#: The endings of a script's name: given to an interpreter, it only launches the script.
SCRIPT_SUFFIXES = (
    *(".sh", ".bash", ".py", ".js", ".mjs", ".ts", ".rb", ".exs"),
    *(".pl", ".lua", ".R", ".jl", ".php"),
)
#: Programs that run another package manager's package (`npx vitest` goes through npm).
_EXECUTORS = {"uvx": "uv", "npx": "npm", "pnpx": "pnpm", "bunx": "bun", "pip3": "pip"}


def program_name(word: str) -> str:
    """The program a command's first word names: its base name (`./gradlew` is `gradlew`)."""
    return posixpath.basename(word.strip("()"))


def package_manager(tokens: list[str]) -> tuple[str, str] | None:
    """(package manager, ecosystem) a tokenised simple command goes through, if any."""
    words = [t for t in tokens if not ENV_ASSIGNMENT.match(t)]
    if not words:
        return None
    first = program_name(words[0])
    if _PYTHON.match(first) and words[1:3] == ["-m", "pip"]:
        return "pip", "python"
    first = _EXECUTORS.get(first, first)
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
        program = program_name(words[0])
        if program in table.wrappers:
            words = skip_wrapper(words, table.wrappers[program])
            changed = True
            continue
        if program in table.loaders and "--" in words:
            # `dotenv -e .env.test -- tsx scripts/x.ts`: the command after `--` runs, with the
            # file's variables (the typed form keeps the loader: which file matters)
            words = words[words.index("--") + 1 :]
            changed = True
            continue
        if syntax_check(program, words) is not None:
            break  # `php -l a.php`: the interpreter is the tool, not a launcher
        for prefix in runners.get(program, ()):
            if len(words) > len(prefix) and all(
                words[i] == prefix[i] for i in range(1, len(prefix))
            ):
                words = words[len(prefix) :]
                if prefix[-1] in {"npx", "uvx"}:
                    words = past_options(words)
                if prefix[-1] == "run" and program in table.environment_runners:
                    words = past_options(words, table.environment_options, dashes_end=True)
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
        elif len(words) >= 2 and _is_script_launch(words):
            words = words[1:]
            changed = True
    return words


@cache
def _runners_by_program() -> dict[str, tuple[tuple[str, ...], ...]]:
    found: dict[str, list[tuple[str, ...]]] = {}
    for prefix in command_table().runners:
        found.setdefault(prefix[0], []).append(prefix)
    return {program: tuple(prefixes) for program, prefixes in found.items()}


def _is_script_launch(words: Sequence[str]) -> bool:
    """`python manage.py …`, `bash scripts/check`: the interpreter only launches the script."""
    program = program_name(words[0])
    if _PYTHON.match(program):
        return words[1].endswith(".py")
    interpreter = program in _INTERPRETERS or bool(_VERSIONED_LUA.match(program))
    return interpreter and ("/" in words[1] or words[1].endswith(SCRIPT_SUFFIXES))


def past_options(
    words: tuple[str, ...],
    valued: frozenset[str] = frozenset(),
    *,
    assignments: bool = False,
    dashes_end: bool = False,
) -> tuple[str, ...]:
    """`words` past their leading options, an option in `valued` with the word after it.

    With `assignments`, environment assignments among the options are skipped too (`env -i
    A=1 cmd`); with `dashes_end`, `--` ends the options and is dropped (`uv run -- cmd`),
    where otherwise it is skipped as one more option.
    """
    while words:
        word = words[0]
        if dashes_end and word == "--":
            return words[1:]
        if not (word.startswith("-") or (assignments and ENV_ASSIGNMENT.match(word))):
            break
        words = words[2:] if word in valued else words[1:]
    return words


def skip_wrapper(words: tuple[str, ...], arguments: int) -> tuple[str, ...]:
    """The command a wrapper (`timeout 60`, `env -i A=1`, `nice -n 10`) runs: past the wrapper,
    its options (with the value of those that take one), the assignments it makes and its
    `arguments` positional arguments. `command -v x` (or `-V`) only looks the program up, as
    `which x` does: it runs nothing."""
    if program_name(words[0]) == "command" and words[1:2] in (("-v",), ("-V",)):
        return ()
    valued = command_table().wrapper_options.get(program_name(words[0]), frozenset())
    return past_options(words[1:], valued, assignments=True)[arguments:]


def runner_launch(words: Sequence[str]) -> int:
    """How many of `words` launch the tool through an environment runner, the runner's own
    options included (`uv run --extra test pytest` → 4); 0 when no such runner starts it."""
    table = command_table()
    if len(words) < 3 or program_name(words[0]) not in table.environment_runners:
        return 0
    if words[1] != "run":
        return 0
    rest = past_options(tuple(words[2:]), table.environment_options, dashes_end=True)
    return len(words) - len(rest) if rest else 0


def syntax_check(program: str, words: Sequence[str]) -> CommandUse | None:
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
