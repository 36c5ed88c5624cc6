"""The everyday commands a session starts with: the project's recipes, the test command first
(asked for apart when the everyday ones hold none, and a note on the project's gate task when
no test command is known at all)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from squirrel_core.commands import GATE_TASKS, is_test_command, runs_a_gate
from squirrel_core.errors import SquirrelError
from squirrel_core.hazards import flags_of
from squirrel_core.host_files import SKILL_TAG, only_from_files
from squirrel_core.read_shapes import MemoryTypeName
from squirrel_core.side_folders import in_side_folder, scoped_folder
from squirrel_gateway.backend import MemoryBackend
from squirrel_gateway.markdown_lines import one_line, team_mark
from squirrel_gateway.reported_lines import only_reported
from squirrel_gateway.schemas import SearchResult

RECIPE_QUERY: Final = "run the tests lint format type-check build start install migrate"
"""What the session-start digest asks recipes for: the everyday commands of a project."""
RECIPE_ITEMS: Final = 5
RECIPE_TOPICS: Final = ("run the tests", "lint", "format", "type-check", "build")
"""Asked one by one when the everyday-commands query finds no recipe at all."""
TEST_QUERY: Final = "run the tests test command"
"""Asked when the everyday commands found hold no way to run the tests: a session starts with
the project's test command whenever one is known."""
GATE_QUERY: Final = " ".join(sorted(GATE_TASKS))
"""Asked last, when no test command is known: a note on the project's gate task ("`check`
depends on `testJsonContent`", in whatever language a report was written) says how the
project is checked, and is shown among the commands, as it stands."""
#: A test command's key: the sessions' (`recipe:test`, `recipe:test:<scope>`, the `test_command`
#: fact) or the repository reader's (`repo:recipe:test`, `repo:recipe:test@<scope>`).
TEST_KEY = re.compile(r"^(?:(?:repo:)?recipe:test(?:[:@].*)?|test_command)$")
_PROJECTTEST_KEYS: Final = frozenset({"recipe:test", "repo:recipe:test", "test_command"})
#: Recipes that restate a section of a page in the repository (`readme:section:README.md#usage`):
#: the assistant can read the page itself, so the session start shows one only when it is
#: where the test command was found (they stay searchable, and a prompt can be given them).
_PAGE_SECTION_PREFIX: Final = "readme:section:"
COMMAND = re.compile(r"`([^`\n]+)`")
#: A routine's steps, one command after another (`Before finishing a change: `A` → `B``).
_ROUTINE = re.compile(r"`[^`\n]+`\s*→\s*`")
#: A recipe's examples of its command ("`pytest` (e.g. `pytest -k slow`)").
_EXAMPLES = re.compile(r"\s*\(e\.g\. (?:`[^`\n]*`|[^)`])*\)")
#: A page's section saying which roles it is how to do (`doc_roles`: "README.md, under Testing,
#: says how to build and test: …"), and the sub-folder it holds for, if any.
_SAYS_HOW = re.compile(r" says how to ([a-z, -]+?)( \(run in `[^`]*`\))?: ")
_ROLES = re.compile(r", | and ")


@dataclass(frozen=True, slots=True)
class Served:
    """One item an injection shows: its memory type, key and id when the answer names them
    (a brief's line names its memory but no key), and its text as the memory service gave
    it."""

    type: str
    key: str
    memory_id: str
    content: str


async def everyday_commands(
    backend: MemoryBackend,
    project_id: str,
    shown: Sequence[str] = (),
    loaded_files: Sequence[str] = (),
) -> list[tuple[str, Served]]:
    """The project's everyday commands, best first, the test command first of all (asked for
    apart when the everyday ones hold none); never a flagged one (a recipe that fetches and
    runs code stays out until the user confirms it, and a hook cannot tell), and never one
    whose every command, but for options, a better ranked one opens with (`pytest -q` after
    `pytest`; a routine of `pytest` then `ruff format` is no repeat of `pytest`, and a line that
    quotes `ruff format --check` among others hides no "To format: `ruff format`"), nor, after
    the first line, a line of one command that a routine shown before gives as it stands ("To
    format: `ruff format`" after "`uv run pytest` → `ruff format`", but not after "… →
    `ruff format --check`": another mode; its examples, "(e.g. `ruff format a.py`)", aside),
    which keeps its place among the five: no command below them comes in for it.
    `shown`: lines already in the digest, not repeated (but for the test command, which the
    caller then leaves out of them). Nothing read only from `loaded_files` (the instruction files
    the host loads itself), never a skill's steps (`SKILL_TAG`), and never a command said of a
    test fixture's or a sample's folder (`side_scoped`). A command a subagent's report gives is
    shown as its word ("A subagent's report says: …"; one the session's own run then
    contradicted is no memory, `contradicted_reports`), but a statement only a report makes
    never stands in for the test command (`reported_lines`)."""
    found = await _search(backend, project_id, RECIPE_QUERY, ["recipe"])
    if not found:
        # One query naming every everyday task can rank a project's only recipe (which names
        # one of them) below the search's floor: ask for each task on its own.
        by_id: dict[str, SearchResult] = {}
        for topic in RECIPE_TOPICS:
            for r in await _search(backend, project_id, topic, ["recipe"]):
                by_id.setdefault(r.memory_id, r)
        found = list(by_id.values())
    # A skill's steps: the host loads the skill's text again whenever it runs. A command said
    # of a test fixture's or a sample's folder is how things run there, not here.
    found = [
        r
        for r in found
        if not only_loaded(r, loaded_files) and SKILL_TAG not in r.tags and not side_scoped(r)
    ]
    # The project's own test command before a sub-folder's or another ecosystem's.
    tests = _test_commands(found)
    if not any(TEST_KEY.match(r.key) for r in tests):
        # The test recipe itself may rank below the everyday query's floor: ask for it before
        # settling for another rule's recipe that quotes a test command.
        extra = await _search(backend, project_id, TEST_QUERY, ["recipe", "project_fact"])
        extra = [r for r in extra if not only_loaded(r, loaded_files) and not side_scoped(r)]
        tests = _test_commands([*extra, *found])[:1]
    if not tests:
        gates = await _search(backend, project_id, GATE_QUERY, ["recipe", "project_fact"])
        tests = [
            r
            for r in gates
            if _names_a_gate(r)
            and not only_loaded(r, loaded_files)
            and not side_scoped(r)
            and not only_reported(r.content)
        ][:1]
    # What the sessions ran (and the repository reader's recipes) before the digests of one
    # file a session read (a task file's, a README's, a CI workflow's commands): those restate
    # commands at length and would take the budget of the ones in use.
    first = {r.memory_id for r in tests[:1]}  # asked for apart, it may rank differently
    rest = sorted(
        (
            r
            for r in found
            if r.memory_id not in first and not r.key.startswith(_PAGE_SECTION_PREFIX)
        ),
        key=_file_digest,
    )
    ordered = [*tests[:1], *rest]
    # A line a routine gives keeps its place among the five (None): the room is not handed to
    # a command that was not among the best five (a CI workflow's digest of them all).
    lines: list[tuple[str, Served] | None] = []
    said: set[str] = set()
    in_routines: set[str] = set()
    for r in ordered:
        if flags_of(r.content):
            continue
        commands = _commands_said(r.content)
        if commands and all(c in said for c in commands):
            continue
        if lines and given_by_routine(r.content, in_routines):
            lines.append(None)
            continue
        if commands:
            said.add(commands[0])
        in_routines.update(_routine_steps(r.content))
        text = one_line(r.content)
        if any(text in other for other in shown) and not TEST_KEY.match(r.key):
            continue
        lines.append(
            (
                f"- {team_mark(r.from_team, r.contributor)}{text}",
                Served(r.type, r.key, r.memory_id, r.content),
            )
        )
    return [line for line in lines[:RECIPE_ITEMS] if line is not None]


def _routine_steps(recipe: str) -> list[str]:
    """The commands of a routine (`A` → `B` → `C`), each as it stands (options and all, spaces
    and case aside); [] for a recipe that is no routine."""
    if not _ROUTINE.search(recipe):
        return []
    return [" ".join(c.split()).lower() for c in COMMAND.findall(recipe)]


def given_by_routine(recipe: str, steps: set[str]) -> bool:
    """Whether a recipe of one command (`To format: `X`` , with its examples "(e.g. `X a`)"
    aside) gives one a routine already shown gives as it stands (`steps`): the routine's line
    says how to run it. The same command in another mode (`X --check`) is another command."""
    if _ROUTINE.search(recipe):
        return False
    given = COMMAND.findall(_EXAMPLES.sub("", recipe))
    return len(given) == 1 and " ".join(given[0].split()).lower() in steps


def side_scoped(result: SearchResult) -> bool:
    """Whether a recipe is said of a folder of test data or of samples ("In
    `tests/fixtures/app/`, to run the tests: …"): true there, but the session start states the
    project's own commands, and its first line is taken for the project's test command."""
    folder = scoped_folder(result.content)
    # An absolute folder's parts may be the user's own above the project: it does not tell.
    return bool(folder) and not folder.startswith(("/", "~")) and in_side_folder(folder)


def only_loaded(result: SearchResult, files: Sequence[str]) -> bool:
    source = result.source
    return only_from_files(
        source.source_refs, files, from_sessions=bool(source.episode_ids), tags=result.tags
    )


def _file_digest(result: SearchResult) -> bool:
    """Whether a recipe digests the commands of one file a session read (`tasks:package.json`,
    `readme:commands:README.md`, `ci:.github/workflows/ci.yml`) rather than being a recipe of
    its own (`recipe:test`, `recipe:workflow:…`, `repo:recipe:lint`)."""
    return not result.key.startswith(("recipe:", "repo:recipe:"))


def _test_commands(found: Sequence[SearchResult]) -> list[SearchResult]:
    """The test commands among `found`: the project's own test recipe first, a sub-folder's
    next, then a recipe of any other rule that quotes a command running the tests (the tasks of
    a task file, a README's or a CI workflow's commands), so that a test command found by any
    rule opens the session's commands."""

    def rank(r: SearchResult) -> int:
        if TEST_KEY.match(r.key):
            return 0 if r.key in _PROJECTTEST_KEYS else 1
        return 2

    return sorted((r for r in found if TEST_KEY.match(r.key) or _quotes_tests(r)), key=rank)


def _names_a_gate(result: SearchResult) -> bool:
    """Whether a memory is about the project's gate task: its first code span is the task
    (`check`, `ci`, `precommit`, or a command running one: `make check`), and it names what
    the task runs or needs in another span."""
    spans = COMMAND.findall(result.content)
    if len(spans) < 2:
        return False
    first = spans[0].strip()
    return first.lower() in GATE_TASKS or runs_a_gate(first)


def _quotes_tests(result: SearchResult) -> bool:
    """Whether a recipe quotes a command that runs a test suite (`make test`, `uv run pytest`),
    or is a page's section that says it is how to test, for the project as a whole ("AGENTS.md,
    under Running the suite, says how to test: … `./run-tests --all`"; not "… (run in `web/`)")."""
    if result.type != "recipe":
        return False
    if any(is_test_command(command) for command in COMMAND.findall(result.content)):
        return True
    said = _SAYS_HOW.search(result.content)
    return said is not None and not said.group(2) and "test" in _ROLES.split(said.group(1))


async def _search(
    backend: MemoryBackend, project_id: str, query: str, types: list[MemoryTypeName]
) -> list[SearchResult]:
    try:
        page = await backend.search_memory(
            project_id, query=query, top_k=RECIPE_ITEMS, types=types, scope_paths=[], cursor=None
        )
    except SquirrelError:
        return []
    return list(page.results)


def _commands_said(recipe: str) -> list[str]:
    """The commands a recipe quotes, in order, without their options: `pytest -q` and `pytest`
    say the same thing (`pytest`), `npm run lint` and `npm run build` do not."""
    said: list[str] = []
    for quoted in COMMAND.findall(recipe):
        words = [w for w in quoted.split() if not w.startswith("-")]
        if words and (command := " ".join(words).lower()) not in said:
            said.append(command)
    return said
