"""An instruction file that only imports another: where the project's instructions really live.

Claude Code and the Gemini CLI read `@path` lines in their instruction files as imports, so a
project that keeps one set of instructions for every assistant often has a `CLAUDE.md` (or
`GEMINI.md`) of a single line, `@AGENTS.md`. A host or a person that opens the short file sees
nothing; the rules, commands and document links are in the imported one. When a root
instruction file read or loaded in the session holds nothing but such imports (blank lines
aside) of files inside the project, that is one project fact: "`CLAUDE.md` only imports
`AGENTS.md` (`@AGENTS.md`): the project's instructions are kept in `AGENTS.md`." A file with
anything else in it (an import beside its own rules), a mention of someone (`@alice`) in
prose, an import from outside the project (`@~/notes.md`, `@../shared.md`) and a sub-folder's
instruction file say nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.about import current_root_reads, is_instruction_file
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "instructions:imports:"
#: Where to look for the instructions: as the layout of the project's documents.
IMPORTANCE = 0.45
MAX_IMPORTS = 3

#: One import line: `@path` to a file (it has a name with an extension or a folder).
_IMPORT = re.compile(r"^@(?P<path>(?:[\w.-]+/)*[\w-][\w.-]*\.\w{1,8})$")


@dataclass(frozen=True, slots=True)
class InstructionImports:
    """An instruction file that only imports: key, statement, read, the file."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    path: str


def imported(text: str) -> list[str]:
    """The files a file made of import lines alone imports, or [] when it holds anything
    else or imports from outside the project."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or len(lines) > MAX_IMPORTS:
        return []
    paths: list[str] = []
    for line in lines:
        match = _IMPORT.match(line)
        if match is None or match.group("path").startswith(".."):
            return []
        paths.append(match.group("path"))
    return paths


def instruction_imports(events: list[StoredEvent]) -> list[InstructionImports]:
    """The root instruction files read or loaded in `events` that only import others."""
    found: list[InstructionImports] = []
    for path, (event, text) in current_root_reads(events, is_instruction_file).items():
        paths = imported(text)
        if not paths:
            continue
        names = " and ".join(f"`{p}`" for p in paths)
        lines = ", ".join(f"`@{p}`" for p in paths)
        content = (
            f"`{path}` only imports {names} ({lines}): the project's instructions are kept in "
            f"{names}."
        )
        found.append(InstructionImports(KEY_PREFIX + path, content, (event.id,), path))
    return found
