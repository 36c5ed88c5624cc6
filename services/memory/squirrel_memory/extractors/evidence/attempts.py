"""Commands as evidence: each simple command of a run (`Attempt`), and what the evidence finds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import PurePosixPath

from squirrel_core.command_table import command_table
from squirrel_core.commands import (
    CommandUse,
    core_tokens,
    package_option,
    runner_launch,
    session_option,
    typed_commands,
)
from squirrel_core.container_runs import inside_container
from squirrel_memory.code_files import path_ecosystem
from squirrel_memory.extractors.activity import CommandRun, in_folder
from squirrel_memory.extractors.pitfalls import nothing_ran
from squirrel_memory.extractors.stack_evidence import sample_folder

#: Tag on candidates weighed from command evidence: the project pass replaces the batch's,
#: and an update replaces the stored statement instead of appending to it.
EVIDENCE_TAG = "evidence"
CHECK_PURPOSES = ("test", "lint", "format", "typecheck")
NEUTRAL_ECOSYSTEMS = frozenset({"any", "containers"})
#: Ecosystems that sit beside a project's code (its docs site) rather than being its main one:
#: they never outvote the code, and lead only when nothing else ran or was edited.
SIDE_ECOSYSTEMS = frozenset({"docs"})
#: A word that can be a subcommand or a target: no spaces, no quotes.
_SUBCOMMAND = re.compile(r"^[\w@./:+=-]+$")


@dataclass(frozen=True, slots=True)
class Finding:
    """A memory the evidence supports, before it becomes a candidate."""

    kind: str  # "recipe", "habit" or "fact"
    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    event_ids: tuple[str, ...]
    file_paths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One simple command of a run, as a user would type it, where it ran and what it is for."""

    run: CommandRun
    text: str
    scope: str
    use: CommandUse | None
    base: str
    tokens: tuple[str, ...]

    @property
    def program(self) -> str:
        return PurePosixPath(self.tokens[0]).name if self.tokens else ""

    @property
    def intent(self) -> tuple[str, ...]:
        """What the command tries to do, whatever its arguments: (`git`, `push`), (test, pytest).

        Only a word that reads as a subcommand (`push`, `db:migrate`, `ecto.gen.migration`)
        names the intent: free text (a prompt, a message) given to a program is an argument,
        so `tool --task "Sum 1 and 2"` and `tool --profile x --task "Add 3"` try the same."""
        if self.use is not None and self.use.purpose in CHECK_PURPOSES:
            return (self.use.purpose, self.use.tool, self.scope)
        return (self.program, _subcommand(self.tokens[1:]), self.scope)

    @property
    def ran_no_test(self) -> bool:
        """A test run whose output says no test ran ("0 runs, 0 assertions"), even if it
        passed: it shows no way to run the tests."""
        use = self.use
        return use is not None and use.purpose == "test" and bool(nothing_ran(self.run.output))


def _subcommand(words: tuple[str, ...]) -> str:
    """The first word that is neither an option nor an option's value (`-C dir`, `--task
    "…"`), when it reads as a subcommand; "" otherwise."""
    after_option = False
    for word in words:
        if word.startswith("-"):
            after_option = "=" not in word
            continue
        if after_option:
            after_option = False
            continue
        return word if _SUBCOMMAND.match(word) else ""
    return ""


def attempts(runs: list[CommandRun], project_root: str) -> list[Attempt]:
    """Every simple command of `runs`, typed form and scope included, in order."""
    found: list[Attempt] = []
    root = project_root.rstrip("/")
    for run in runs:
        # A shell folder outside the project (another checkout of it, a symlinked path) says
        # nothing about where in the project the command ran: the root is assumed.
        inside = run.cwd is not None and in_folder(run.cwd, root)
        base = project_root if inside or run.cwd is None else run.cwd
        cwd = run.cwd if run.cwd is not None else project_root
        for typed in typed_commands(run.command, cwd=cwd, project_root=base):
            tokens = tuple(core_tokens(list(typed.words)))
            found.append(
                Attempt(run, typed.text, typed.scope, typed.use, command_base(typed.bare), tokens)
            )
    return found


#: One call given inline, its arguments without spaces (the other kind of quote allowed):
#: `'devtools::test()'`, `'testthat::test_dir("tests")'`.
_INLINE_CALL = re.compile(r"""^(['"])[\w.:]+\((?:(?!\1)\S)*\)\1$""")


def _option_ended_runner(tokens: list[str]) -> int:
    """How many of `tokens` are a runner prefix that ends with an option (`mise exec --`,
    `nix develop -c`) with a command after it; 0 otherwise. (A prefix of plain words, `bundle
    exec`, is read as part of the head.)"""
    for prefix in command_table().runners:
        size = len(prefix)
        if prefix[-1].startswith("-") and len(tokens) > size and tuple(tokens[:size]) == prefix:
            return size
    return 0


def command_base(text: str) -> str:
    """The stable head of a typed command: `uv run pytest test/x.py -v` → `uv run pytest`;
    a command run in a container keeps its launch (`docker compose exec app pytest`)."""
    tokens = text.split()
    inside = inside_container(tuple(tokens))
    if inside is not None:
        launch = tokens[: len(tokens) - len(inside)]
        return " ".join([*launch, command_base(" ".join(inside))])
    # A one-word script given inline is the command itself: `Rscript -e 'devtools::test()'`,
    # `R -q -e 'testthat::test_dir("tests")'` (options before the script kept).
    for i, token in enumerate(tokens[1:4], start=1):
        if token in ("-e", "-c") and i + 1 < len(tokens) and _INLINE_CALL.match(tokens[i + 1]):
            return " ".join(tokens[: i + 2])
        if not token.startswith("-"):
            break
    started = runner_launch(tokens) or _option_ended_runner(tokens)
    if started >= 2:
        # `uv run --extra test pytest`: the runner's own options say how the tool runs
        return " ".join([*tokens[:started], command_base(" ".join(tokens[started:]))])
    words: list[str] = []
    picked = False
    cap = 4
    for n, token in enumerate(tokens):
        if picked:
            picked = False
            continue  # the package the option before picked, already in `words`
        if (
            (words and words[-1] in {"python", "python3"} and token == "-m")  # noqa: S105
            or token in ("./...", "...")
            # `go test ./cmd/app/...`: the packages the run covers, without which the head
            # would be another command (a bare `go test` tests the current folder's only)
            or (token.endswith("/...") and not token.startswith("-"))
        ):
            words.append(token)
            continue
        if len(words) == 1 and session_option(words[0], token):
            # `nox -s lint`: the session run is part of the command
            given = token.partition("=")[2]
            words.extend([token] if given else tokens[n : n + 2])
            picked, cap = not given, cap + (1 if given else 2)
            continue
        if words and _TASK_VARIABLE.match(token) and _task_after(tokens[n + 1 :]):
            # `make CC=clang test`: a variable given before the task is part of the command,
            # as the task after it is (one given after the task is an argument, below)
            words.append(token)
            cap += 1
            continue
        if len(words) == 1 and package_option(words[0], token) and n + 1 < len(tokens):
            # `pnpm --filter web test`: the package a script runs in is part of the command
            words.extend(tokens[n : n + 2])
            picked, cap = True, cap + 2
            continue
        if (
            token.startswith(("-", "+", '"', "'"))
            # A variable given after the task (`rails db:migrate RAILS_ENV=test`): an argument
            or (bool(words) and _TASK_VARIABLE.match(token) is not None)
            # A program named by its relative path (`./gradlew`, `vendor/bin/phpunit`) is the
            # head itself; a path after it is an argument, unless an interpreter runs it as
            # the program (`php bin/phpunit`, `ruby bin/rails test`: a program the table knows).
            or (
                "/" in token
                and (bool(words) or token.startswith(("/", "~")))
                and not (len(words) == 1 and _table_program(token))
            )
            or "::" in token
            or ("." in token.strip(".") and len(words) > 1 and not _is_task_word(token))
        ):
            break
        words.append(token)
        if len(words) >= cap:
            break
    return " ".join([*words, *folder_packages(tokens, words)])


#: Subcommands of the `go` tool whose bare form acts on the current folder's package only: the
#: packages they were given say what ran (`go test -run X ./internal/zone` is no `go test`).
_FOLDER_BOUND = frozenset({"test", "vet", "build", "run", "install", "generate", "list"})
#: Options of the `go` tool that take a value as the next word (`-o ./bin/app`, `-run X`).
_GO_VALUE_OPTIONS = frozenset(
    str.split(
        "-o -run -skip -bench -benchtime -tags -count -timeout -p -parallel -cpu -exec -C "
        "-coverprofile -coverpkg -covermode -cpuprofile -memprofile -blockprofile -outputdir "
        "-ldflags -gcflags -asmflags -mod -modfile -pkgdir -toolexec -overlay -pgo -vet"
    )
)


def folder_packages(tokens: list[str], head: list[str]) -> list[str]:
    """The package paths (`./internal/zone`, `../lib`, `./...`) a `go` subcommand that acts on
    the current folder's package when given none was given anywhere after its head, options
    before them included, and not already in `head` (`go run` takes the first: the words after
    it are the program's); [] for any other command."""
    if len(head) < 2 or PurePosixPath(head[0]).name != "go" or head[1] not in _FOLDER_BOUND:
        return []
    found: list[str] = []
    value_next = False
    for token in tokens[2:]:
        if value_next:
            value_next = False
            continue
        if token.startswith("-"):
            value_next = "=" not in token and f"-{token.lstrip('-')}" in _GO_VALUE_OPTIONS
            continue
        if token in ("--", "-args"):
            break
        if (token in ("./...", "...") or token.startswith(("./", "../"))) and token not in head:
            found.append(token)
        if head[1] == "run":
            break  # what follows the program `go run` starts is its own arguments
    return found


_TASK_VARIABLE = re.compile(r"^[A-Z][A-Z0-9_]*=")


def _task_after(rest: list[str]) -> bool:
    """Whether a task or subcommand follows the variables at the start of `rest` (`CC=clang
    test`, `CC=clang CFLAGS=-O2 lint`), not an option, a path or nothing."""
    for word in rest:
        if _TASK_VARIABLE.match(word):
            continue
        return bool(_SUBCOMMAND.match(word)) and "/" not in word and word[0] not in "-+."
    return False


@cache
def _table_programs() -> frozenset[str]:
    """The programs the command table's patterns start with (`phpunit`, `rails`, `console`)."""
    return frozenset(words[0] for words in command_table().patterns)


def _table_program(path: str) -> bool:
    """Whether a relative path names a program of the command table (`bin/phpunit`)."""
    return not path.startswith(("/", "~")) and PurePosixPath(path).name in _table_programs()


def _is_task_word(token: str) -> bool:
    """`ecto.migrate`, `phx.server`, `deps.get`: dotted task names, not file names."""
    head, _, tail = token.partition(".")
    return head.isidentifier() and tail.replace(".", "_").isidentifier() and "/" not in token


def main_ecosystem(found: list[Attempt], changed_paths: list[str]) -> str | None:
    """The ecosystem most of the work is in: commands run at the project root and files edited."""
    votes: dict[str, float] = {}
    for attempt in found:
        if attempt.use is None or attempt.use.ecosystem in NEUTRAL_ECOSYSTEMS:
            continue
        weight = 1.0 if attempt.scope == "" else 0.25
        if attempt.use.ecosystem in SIDE_ECOSYSTEMS:
            weight *= 0.01
        votes[attempt.use.ecosystem] = votes.get(attempt.use.ecosystem, 0.0) + weight
    for path in changed_paths:
        ecosystem = path_ecosystem(path)
        if ecosystem:
            # A docs site's, an example's or a script's code counts as a sub-folder's command.
            weight = 0.25 if sample_folder(path) else 1.0
            votes[ecosystem] = votes.get(ecosystem, 0.0) + weight
    if not votes:
        return None
    return max(sorted(votes), key=lambda name: votes[name])
