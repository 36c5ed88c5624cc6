"""The ecosystem matrix's harness: one imagined project per ecosystem, a session through it, and
each first fact a senior engineer notes (what the project is, its language and version, its
framework, database, test framework and package manager) judged stated right, said less, or
stated wrong."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

#: A step of a session: ("read", path, text), ("edit", path), ("write", path, text),
#: ("run", command, output) or ("run", command, output, folder the shell was in).
Step = tuple[str, ...]

#: Each first fact and the memory keys that state it.
FACT_KEYS: dict[str, tuple[str, ...]] = {
    "what": ("about",),
    "language": ("language",),
    "version": ("language",),
    "framework": ("framework",),
    "database": ("database",),
    "testing": ("testing", "recipe:test", "test_command", "stack:tests"),
    "package manager": ("package_manager",),
}
FACTS = tuple(FACT_KEYS)


@dataclass(frozen=True)
class Project:
    """One ecosystem's project as a session shows it: what must be stated and what never."""

    name: str
    steps: tuple[Step, ...]
    stated: tuple[tuple[str, str], ...]
    """(fact, words a memory stating that fact must hold): what the session shows."""
    traps: tuple[tuple[str, str], ...]
    """(fact the trap tempts, a name no memory may state)."""
    unsure: tuple[str, ...] = ()
    """Facts of `stated` the memory may leave unsaid: the session shows them too weakly for
    a rule to tell (a driver only a manifest declares), or no rule reads them yet."""

    @property
    def root(self) -> str:
        return f"/home/dev/{self.name}"


def extracted(project: Project) -> list[MemoryCandidate]:
    """What the rules keep of the project's session, read as one episode."""
    session = Session(project.root, project.name, T0, test_runs=True)
    session.user("Read how this project is set up, then fix the failing total and check it.")
    for kind, *args in project.steps:
        if kind == "read":
            session.read(args[0], args[1])
        elif kind == "write":
            session.write(args[0], args[1])
        elif kind == "edit":
            session.edit_lines(args[0], "old", "new")
        else:
            cwd = f"{project.root}/{args[2]}" if len(args) > 2 else None
            session.run(args[0], 0, args[1], cwd=cwd)
    session.say("Done: the total is fixed and the checks pass.")
    return session.extracted()


def mentions(word: str, text: str) -> bool:
    """Whether `text` names `word` as a word of its own (`Go` is not in `Google`)."""
    return re.search(rf"(?<![\w/.#+-]){re.escape(word)}(?![\w#+-])", text) is not None


def stating(found: list[MemoryCandidate], fact: str) -> list[str]:
    """The texts of the memories that state `fact`."""
    return [c.content for c in found if c.key in FACT_KEYS[fact]]


def verdicts(project: Project, found: list[MemoryCandidate]) -> dict[str, str]:
    """Per fact the project has: "right" (stated with the expected words), "less" (not
    stated), "wrong" (a memory states a trap's name for it, or states it without the words)."""
    judged: dict[str, str] = {}
    for fact in FACTS:
        expected = [words for f, words in project.stated if f == fact]
        traps = [word for f, word in project.traps if f == fact]
        if not expected and not traps:
            continue
        said = stating(found, fact)
        if any(mentions(word, text) for word in traps for text in said):
            judged[fact] = "wrong"
        elif not expected:
            continue
        elif all(any(w in text for text in said) for w in expected):
            judged[fact] = "right"
        elif said and fact not in ("language", "version", "testing"):
            judged[fact] = "wrong"
        else:
            judged[fact] = "less"
    return judged
