"""A program the command table does not know, read by its own words: a subcommand or task
name that says a role (`tool test`, `tool run lint`, `tool fmt --check`, `tool -X:test`), or the
one call of a one-liner given to an interpreter (`R -e 'pkg::document()'`), which installs
when a name of its call says so (`R -e 'install.packages("x")'`).
"""

from __future__ import annotations

import re
from functools import cache

from squirrel_core.command_table import CommandUse, command_table, task_purpose

#: Purposes a command's own words give it when the table does not know its program: the roles
#: of a project's checks and deliveries (starting, installing and migrating need the table).
ROLE_PURPOSES = frozenset(
    {"test", "lint", "format", "typecheck", "build", "docs", "release", "deploy"}
)
#: Roles read from a bare subcommand only (`tool deploy`, `tool doc --open`): with more words
#: the command is a one-off (`tool release create v2`) or a look-up (`tool doc some.name`).
_BARE_ROLES = frozenset({"docs", "release", "deploy"})
TASK_KEYWORDS = frozenset({"run", "run-script", "task"})
#: Options that hand an interpreter its program as text (`R -e '…'`, `node --eval '…'`).
_INLINE_OPTIONS = frozenset({"-e", "-c", "--eval", "-r", "--command", "--execute"})
_COMMAND_NAME = re.compile(r"^[A-Za-z][\w.+-]*$")
#: An option that names a project-defined alias to run (`-X:test`, `-M:lint:ci`): the first
#: alias is read as a task's name would be.
_ALIAS_OPTION = re.compile(r"^-[A-Za-z]{1,2}:([A-Za-z][\w.-]*)")
#: A one-liner's last statement when it is one call and nothing else: `pkg::document()`,
#: `Quux.test()`, `require("x").build()` (names joined by `.` or `::`, each maybe called), the
#: last name's call ending the statement; arguments may hold a call of their own
#: (`devtools::test(filter = c("a"))`). Possessive names keep a long word from backtracking.
_ARGUMENTS = r"\((?:[^()]++|\([^()]*+\))*+\)"
_ONE_CALL = re.compile(rf"(?:\w++\s*+(?:{_ARGUMENTS})?+\s*+(?:\.|::)\s*+)*+(\w++)\s*+{_ARGUMENTS}")
#: A name in a one-liner's call that installs packages: `install.packages`, `install_deps`,
#: `pkg_install`, `BiocManager::install`.
_INSTALLING = re.compile(r"^(?:install(?:_\w+)?|\w+_install)$", re.IGNORECASE)
#: The names a call is made of, before its arguments: `remotes::install_deps` of the call.
_CALL_NAMES = re.compile(r"^[\w.:\s]*")
#: Statements that only load what the call needs, allowed before it.
_LOADING = re.compile(r"^(?:using|import|from|library|require|requireNamespace)\b")


def role_use(program: str, words: list[str]) -> CommandUse | None:
    """A program the table does not know, by its own words: the subcommand (or the task after
    `run`/`task`) that names a role, else the one call of an inline one-liner (`-e '…'`).

    Programs whose arguments are files or text (`ls`, `echo`, `git`) and package managers
    (whose tasks the table reads) are never read so."""
    table = command_table()
    if (
        program in table.plain_programs
        or program in table.package_managers  # their words are their own (`pip check`)
        or not _COMMAND_NAME.match(program)
    ):
        return None
    ecosystem = program_ecosystems().get(program, "any")
    for i, word in enumerate(words[1:], start=1):
        if word in _INLINE_OPTIONS and i + 1 < len(words):
            name = _inline_call(words[i + 1])
            if name and _installs(words[i + 1]):
                return CommandUse(program, "install", ecosystem, task=name)
            purpose = task_purpose(name) if name and len(name) >= 3 else None
            if purpose in ROLE_PURPOSES:
                return CommandUse(program, purpose, ecosystem, task=name)
            return None
    positional = [w for w in words[1:] if not w.startswith(("-", "+"))]
    if positional and positional[0] in TASK_KEYWORDS:
        positional = positional[1:]
    if not positional:
        aliases = [m.group(1) for w in words[1:2] if (m := _ALIAS_OPTION.match(w))]
        positional = aliases[:1]
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
    match = _ONE_CALL.fullmatch(statements[-1])
    return match.group(1) if match else None


def _installs(code: str) -> bool:
    """Whether a one-liner's last statement (one call, as `_inline_call` reads it) is named
    for installing (`install.packages(…)`, `remotes::install_deps()`)."""
    last = [s.strip() for s in re.split(r"[;\n]", code.strip()) if s.strip()][-1]
    names = re.split(r"[.:\s]+", _CALL_NAMES.match(last).group(0))  # type: ignore[union-attr]
    return any(_INSTALLING.match(n) for n in names if n)


@cache
def program_ecosystems() -> dict[str, str]:
    """The ecosystem of each program the table names in a pattern (`cargo` → rust)."""
    found: dict[str, str] = {}
    for words, use in command_table().patterns.items():
        if use.ecosystem not in ("any", "containers", "docs"):
            found.setdefault(words[0], use.ecosystem)
    return found
