"""A shell line as the commands a user would type, each with the folder it ran in.

One `TypedCommand` per simple command, with shell redirections, pipes into pagers, `cd … &&`
steps and launch wrappers (`timeout 60`) removed, and the folder each command ran in (`scope`,
relative to the project root) kept apart. A variable given a command's output (`x=$(cmd …)`,
`local x=$(cmd …)`, `export X="$(cmd …)"`) is that command. An environment prefix changes what
the command does (`GOOS=linux GOARCH=amd64 go build`, `CGO_ENABLED=0`) and stays, but for an
assignment of a secret (a name with TOKEN, KEY, SECRET, PASS, PAT, DSN …, or a value ingest
redacted), of a path of one machine (`/abs/path`, `~/…`) or of a value read from its environment
(`$HOME/…`, `$X`), which would not hold elsewhere. A word the user quoted keeps its quotes
(`-destination 'platform=macOS'`, `--filter "a b"`), so the command can be pasted and run as it
was.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache

from squirrel_core.command_launchers import program_name, skip_wrapper
from squirrel_core.command_purposes import classify_tokens
from squirrel_core.command_table import CommandUse, command_table
from squirrel_core.redaction import REDACTED_PREFIX
from squirrel_core.secret_assignments import SECRET_NAME
from squirrel_core.shell_words import (
    ENV_ASSIGNMENT,
    MAX_LINE_CHARS,
    join_words,
    simple_commands,
)

#: Lines up to this long are remembered once read (the same commands recur all the time).
_CACHED_LINE_CHARS = 2_000
#: Command substitutions of one line shown as typed (a line of thousands, each never closed,
#: would be read to its end once for each).
MAX_SUBSTITUTIONS = 32
_SHELL_STATE = frozenset({"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "alias"})
#: Keywords that declare a variable (`local x=$(cmd …)`): the command substituted is what ran.
_DECLARES = frozenset({"local", "export", "declare", "readonly", "typeset"})
#: An environment assignment left out of a typed command: a value that is a path of one machine
#: (absolute, in a home folder) or read from its environment (`$X`), besides a secret's.
_MACHINE_PATH = re.compile(r"^(?:/|~|\$\{?HOME\b|\$\{?USERPROFILE\b|[A-Za-z]:[\\/])")


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
    tokens split `$(git ls-files '*.hs')` into `$`, `git`, `ls-files`, `*.hs`. Past
    `MAX_SUBSTITUTIONS` (each looked for to the line's end when it never closes) the words are
    joined one by one."""
    shown: list[str] = []
    start = 0
    i = 0
    tried = 0
    while i < len(words):
        looked = words[i] == "$" and tried < MAX_SUBSTITUTIONS
        tried += looked
        at = line.find("$(", start) if looked else -1
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


#: A Windows drive path (`C:\\Users\\ann`, `C:/Users/ann`), as Claude Code on Windows records
#: its folder and Git Bash commands write it.
_DRIVE_PATH = re.compile(r"^(?P<drive>[A-Za-z]):[\\/]")


def posix_form(path: str) -> str:
    """`path` with a Windows drive written as Git Bash writes it (`C:\\Users\\ann` and
    `C:/Users/ann` → `/c/Users/ann`), so the spellings of one folder compare equal; any other
    path unchanged."""
    found = _DRIVE_PATH.match(path)
    if found is None:
        return path
    return "/" + found.group("drive").lower() + "/" + path[found.end() :].replace("\\", "/")


def _typed(line: str, cwd: str | None, project_root: str | None) -> list[TypedCommand]:
    root = posixpath.normpath(posix_form(project_root)) if project_root else None
    here = posixpath.normpath(posix_form(cwd)) if cwd else root
    found: list[TypedCommand] = []
    read = line[:MAX_LINE_CHARS]
    for given in simple_commands(line):
        tokens = substituted(given)
        env, words = _strip_launchers(tokens)
        if not words:
            continue
        program = program_name(words[0])
        if program in _SHELL_STATE:
            if program in ("cd", "pushd") and len(words) == 2 and here is not None:
                here = posixpath.normpath(posixpath.join(here, posix_form(words[1])))
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


def substituted(words: list[str]) -> list[str]:
    """A simple command's words without the assignment from a command substitution they open
    with (`x=$(cmd …)`, `local x=$(cmd …)`, `export X=$(cmd …)`, `x="$(cmd …)"`): the command
    substituted is what ran; any other words as they are."""
    declared = len(words) > 1 and words[0] in _DECLARES and ENV_ASSIGNMENT.match(words[1])
    if declared and (words[1].endswith("=$") or "=$(" in words[1]):
        words = words[1:]
    if not words or not ENV_ASSIGNMENT.match(words[0]):
        return words
    value = words[0].partition("=")[2]
    if value == "$" and len(words) > 1:
        return words[1:]
    if len(words) == 1 and value.startswith("$(") and value.endswith(")"):
        inner = simple_commands(value[2:-1])
        return inner[0] if inner else words
    return words


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
        elif program_name(words[0]) in table.wrappers and program_name(words[0]) != "sudo":
            words = list(skip_wrapper(tuple(words), table.wrappers[program_name(words[0])]))
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
    return not SECRET_NAME.search(name) and not machine and not _MACHINE_PATH.match(value)


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
