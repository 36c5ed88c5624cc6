"""The everyday commands a root instruction file the session read names: how to test, lint,
format, type-check and build.

An assistant-instructions file (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md` …) usually lists the
project's commands ("- `composer test` — run PHPUnit", "Run `make lint` before committing").
When the session read it (with a tool, or because its host loaded it), the commands the
repository scan's own reader finds in it (`read_instruction_file`) make one recipe: for each
everyday purpose, the first command that names that purpose in its own words (`composer test`,
`composer lint`; never a package name such as `phpstan/phpstan` or another purpose's command
such as `composer spec`). With no command for the project's tests, a test folder's own suite
(`make -C test/plugins`) is given as that folder's. The last read of each file is the one
read. A sub-folder's file the host loaded for work in that folder gives that folder's commands
("… names (run in `web/`)").
"""

from __future__ import annotations

import itertools
import posixpath
import re
from dataclasses import dataclass

from squirrel_core.commands import is_test_command, runs_a_gate
from squirrel_memory.extractors.about import current_root_reads
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import instruction_kind, read_instruction_file
from squirrel_memory.repository.snapshot import TextFile

KEY_PREFIX = "instructions:commands:"
#: Each everyday purpose: how the recipe says it, and the words its command must contain.
_PURPOSES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    # A word of its own, never a folder's name (`make -C test/plugins` runs a sub-folder's
    # suite, not the project's tests).
    ("test", "run the tests with", re.compile(r"(?<![\w/.-])tests?(?![\w/.-])", re.IGNORECASE)),
    ("lint", "lint with", re.compile(r"\blint\b", re.IGNORECASE)),
    ("format", "format with", re.compile(r"\b(?:format|fmt)\b", re.IGNORECASE)),
    (
        "typecheck",
        "type-check with",
        re.compile(r"\b(?:type-?check|typecheck|mypy|pyright|tsc)\b", re.IGNORECASE),
    ),
    ("build", "build with", re.compile(r"\b(?:build|compile)\b", re.IGNORECASE)),
)


@dataclass(frozen=True, slots=True)
class FileCommands:
    """One instruction file's commands recipe: key, statement, its file:line refs, the read."""

    key: str
    content: str
    refs: tuple[str, ...]
    event_ids: tuple[str, ...]


#: A folder of tests (`test/plugins`, `tests`, `spec/unit`): one of its parts says so.
_TEST_FOLDER = re.compile(r"(?:^|/)(?:tests?|specs?|testsuite)(?:/|$)", re.IGNORECASE)


def _suite_folder(command: str) -> str | None:
    """The test folder a `make -C <folder>` line runs make in, if it is one."""
    words = command.split()
    if len(words) < 3 or posixpath.basename(words[0]) != "make":
        return None
    for option, value in itertools.pairwise(words[1:]):
        if option in ("-C", "--directory") and _TEST_FOLDER.search(value):
            return value.rstrip("/")
    return None


def _is_instructions(path: str) -> bool:
    return instruction_kind(path) == "instructions"


def instruction_commands(events: list[StoredEvent]) -> list[FileCommands]:
    """The everyday-commands recipe of each root instruction file read in `events`."""
    found: list[FileCommands] = []
    reads = current_root_reads(events, _is_instructions, loaded_folders=True)
    for path, (event, text) in reads.items():
        readings = Readings()
        read_instruction_file(TextFile.of(path, text), readings, "instructions")
        said: list[str] = []
        refs: list[str] = []
        for purpose, verb, words in _PURPOSES:
            root = [c for c in readings.commands if c.purpose == purpose and c.scope == ""]
            named = next((c for c in root if words.search(c.text)), None)
            if named is None and purpose == "test":
                # A test runner whose words hold no "test" (`pytest tests/`, `ctest`, `phpunit`)
                # when no command names the tests in its own words (`composer test`).
                named = next((c for c in root if is_test_command(c.text)), None)
                if named is not None and runs_a_gate(named.text):
                    # `mix precommit`, `make check`: more than the tests, said as what it is
                    said.append(f"run the checks with `{named.text}` ({named.ref})")
                    refs.append(named.ref)
                    continue
            if named is None and purpose == "test":
                # No command runs the project's tests: a test folder's own suite, scoped to it.
                suite = next(
                    ((c, f) for c in readings.commands if (f := _suite_folder(c.text))), None
                )
                if suite is not None:
                    command, folder = suite
                    said.append(f"run the `{folder}/` tests with `{command.text}` ({command.ref})")
                    refs.append(command.ref)
            if named is not None:
                said.append(f"{verb} `{named.text}` ({named.ref})")
                refs.append(named.ref)
        if said:
            listed = "; ".join(said)
            folder = posixpath.dirname(path)
            where = f" (run in `{folder}/`)" if folder else ""
            content = f"Everyday commands {path} names{where}: {listed[:1].upper()}{listed[1:]}."
            found.append(FileCommands(KEY_PREFIX + path, content, tuple(refs), (event.id,)))
    return found
