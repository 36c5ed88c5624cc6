"""What sessions nobody tuned the rules on taught about their project: found, missed, wrong.

`bench/data/learned_study/learned.toml` lists, per session, what a senior engineer would note about
the project from that session alone (how it is built, where things live, the assistant's
explanation after a failure) and what must not be stated, written by hand before the rules first
ran over them (SOURCES.md says where each session comes from). Each session goes alone into its
own project of one memory service, in a folder named as the session's own (AppendEvents, then
ProcessNow with the offline `rules` extractor, via bench/fixture_pipeline.py). An item is
**found** when one project_fact, pitfall or recipe memory matches every concept of its `match`
(each concept a regular expression or a list of alternatives, case-insensitive); a memory of any
type that matches a `wrong` entry is **wrong**; every project_fact that matches no item and is
not wrong is counted as **not an item** (listed with --details, for a human to judge).

`learned2.toml` is the second set (`sessions2/`, SOURCES2.md): sessions in ecosystems the first set
covers least, its gold likewise written before the rules first ran over it. `learned3.toml` is the
third (`sessions3/`, SOURCES3.md): what five projects are and what they are written in, from
sessions of five repositories no rule was written from, its gold written before the rules first
ran over it. `learned4.toml` is the fourth (`sessions4/`, SOURCES4.md): one session of a
repository no rule was written from, collected after the corroboration rule was committed, its
gold written before any rule ran over it. `learned5.toml` is the fifth (`sessions5/`, SOURCES5.md):
two sessions of two repositories no rule was written from (a Rust linter for MATLAB, a Lean 4
proof project on Windows), collected for an unseen check of the rules on what sessions teach, its
gold written before any rule ran over it. The sixth set is made up (`bench/learned_cases.py`):
short sessions in ten ecosystems where the assistant explains something after a failure or a
surprise or sums up the architecture it read, and quiet ones that must teach nothing, written
before any rule ran over them; their transcripts are written to a temporary folder at each run.
The seventh set is made up too (`bench/learned_cases_attached.py`): sessions whose first message
attaches a file and whose first reply, before any tool ran, sums it up, and quiet ones where that
reply plans, asks back, advises the user or claims what the file does not say. The eighth is
made up too (`bench/learned_cases_tongues.py`): sessions in ten languages other than English
where the assistant explains a failure, in an insight block or in plain prose, beside its own
steps, plans, status lines, lead-ins and hedges, and quiet ones that must teach nothing.

Usage: python -m bench.learned_study [--study first|...|eighth|all] [--details]
                                    [--session NAME ...]
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bench import fixture_pipeline, learned_cases, learned_cases_attached, learned_cases_tongues
from bench.study_files import Concepts, StudyError, concepts, states_all, transcript_paths
from bench.study_runs import StudyTable, memories_of, study_main
from squirrel.v1 import memory_pb2
from squirrel_core.clients import MemoryClient

STUDY = fixture_pipeline.ROOT / "bench" / "data" / "learned_study"
STUDIES = {
    "first": STUDY / "learned.toml",
    "second": STUDY / "learned2.toml",
    "third": STUDY / "learned3.toml",
    "fourth": STUDY / "learned4.toml",
    "fifth": STUDY / "learned5.toml",
    # Made-up sessions (bench/learned_cases.py); the path only names the set in the output.
    "sixth": fixture_pipeline.ROOT / "bench" / "learned_cases.py",
    "seventh": fixture_pipeline.ROOT / "bench" / "learned_cases_attached.py",
    "eighth": fixture_pipeline.ROOT / "bench" / "learned_cases_tongues.py",
}
# The memory types that can carry what a session taught about its project.
LEARNED_TYPES = {
    memory_pb2.MEMORY_TYPE_PROJECT_FACT: "project_fact",
    memory_pb2.MEMORY_TYPE_PITFALL: "pitfall",
    memory_pb2.MEMORY_TYPE_RECIPE: "recipe",
}


@dataclass(frozen=True)
class Item:
    """One thing the session taught (or, for a `wrong` entry, must not be said)."""

    note: str
    importance: str
    concepts: Concepts

    def matches(self, text: str) -> bool:
        """Whether `text` states every concept of the item."""
        return states_all(self.concepts, text)


@dataclass(frozen=True)
class Session:
    """A study session: its transcripts, its items and what must not be stated."""

    name: str
    paths: tuple[Path, ...]
    ecosystem: str
    items: tuple[Item, ...]
    wrong: tuple[Item, ...]


@dataclass
class Outcome:
    """What the rules kept from one session: (type name, importance, text) per learned memory."""

    memories: list[tuple[str, float, str]] = field(default_factory=list)


def _items(raw: object, where: str) -> tuple[Item, ...]:
    if not isinstance(raw, list):
        raise StudyError(f"{where}: items must be a list of tables")
    return tuple(
        Item(
            note=str(entry.get("note", "")),
            importance=str(entry.get("importance", "normal")),
            concepts=concepts(entry.get("match"), f"{where}, entry {i + 1}"),
        )
        for i, entry in enumerate(raw)
    )


def load_sessions(path: Path = STUDY / "learned.toml") -> list[Session]:
    """The study's sessions, as `learned.toml` lists them; raises `StudyError` on a bad entry."""
    if path == STUDIES["sixth"]:
        return _made_up(learned_cases.CASES, learned_cases.write_all())
    if path == STUDIES["seventh"]:
        cases = learned_cases_attached.ATTACHED_CASES
        return _made_up(cases, learned_cases_attached.write_all())
    if path == STUDIES["eighth"]:
        return _made_up(learned_cases_tongues.TONGUE_CASES, learned_cases_tongues.write_all())
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sessions: list[Session] = []
    for index, raw in enumerate(data.get("session", [])):
        where = f"{path.name}: session {index + 1}"
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise StudyError(f"{where}: `name` is required")
        sessions.append(
            Session(
                name=name,
                paths=transcript_paths(raw.get("transcripts"), f"{where} ({name})", STUDY),
                ecosystem=str(raw.get("ecosystem", "")),
                items=_items(raw.get("item", []), f"{where} ({name}), item"),
                wrong=_items(raw.get("wrong", []), f"{where} ({name}), wrong"),
            )
        )
    return sessions


def _made_up(
    cases: tuple[learned_cases.Case, ...], written: dict[str, list[Path]]
) -> list[Session]:
    """A made-up set (`bench.learned_cases`' shape): `cases`, their transcripts `written` to a
    temporary folder."""

    def entries(raw: tuple[learned_cases.Entry, ...], where: str) -> tuple[Item, ...]:
        return tuple(
            Item(note, importance, concepts(match, f"{where}, entry {i + 1}"))
            for i, (note, importance, match) in enumerate(raw)
        )

    return [
        Session(
            name=case.name,
            paths=tuple(written[case.name]),
            ecosystem=case.ecosystem,
            items=entries(case.items, f"{case.name}, item"),
            wrong=entries(case.wrong, f"{case.name}, wrong"),
        )
        for case in cases
    ]


async def _run(sessions: list[Session]) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}

    async def inspect(client: MemoryClient, name: str, project_id: str, _events: int) -> None:
        memories = await memories_of(client, project_id)
        outcome = outcomes.setdefault(name, Outcome())
        outcome.memories = sorted(
            ((LEARNED_TYPES.get(m.type, "user_style"), m.importance, m.content) for m in memories),
            key=lambda memory: (-memory[1], memory[2]),
        )

    folders = {s.name: _folder_name(s.paths) for s in sessions}
    projects = [(s.name, list(s.paths)) for s in sessions]
    await fixture_pipeline.run_once(
        projects, False, inspect=inspect, folder=lambda name: folders[name]
    )
    return outcomes


def _folder_name(paths: tuple[Path, ...]) -> str:
    """The session's project folder name on its user's machine (the last part of its first
    record's `cwd`), so that a rule reading the folder's name sees what it would have seen."""
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                cwd = json.loads(line).get("cwd")
                if isinstance(cwd, str) and cwd.strip("/"):
                    return PurePosixPath(cwd).name
    return "project"


def report(sessions: list[Session], outcomes: dict[str, Outcome], details: bool = False) -> str:
    """The study's table (one row per session, then totals) and, with `details`, each verdict."""
    table = StudyTable(
        28,
        [
            ("items", 5),
            ("found", 6),
            ("high", 7),
            ("wrong", 6),
            ("facts", 6),
            ("not item", 9),
        ],
    )
    notes: list[str] = []
    for session in sessions:
        memories = outcomes.get(session.name, Outcome()).memories
        learned = [(kind, weight, text) for kind, weight, text in memories if kind != "user_style"]
        found = [i for i in session.items if any(i.matches(t) for _, _, t in learned)]
        high = [i for i in session.items if i.importance == "high"]
        high_found = [i for i in found if i.importance == "high"]
        wrong = [
            (kind, weight, text)
            for kind, weight, text in memories
            if any(w.matches(text) for w in session.wrong)
        ]
        facts = [m for m in learned if m[0] == "project_fact"]
        not_item = [
            m for m in facts if m not in wrong and not any(i.matches(m[2]) for i in session.items)
        ]
        table.add(
            session.name,
            len(session.items),
            len(found),
            (len(high_found), len(high)),
            len(wrong),
            len(facts),
            len(not_item),
        )
        if details:
            notes.append(f"\n## {session.name} ({session.ecosystem})")
            for item in session.items:
                mark = "found" if item in found else "MISSED"
                notes.append(f"- [{mark}] ({item.importance}) {item.note}")
            notes.extend(f"- [WRONG {k}] ({w:.2f}) {t}" for k, w, t in wrong)
            notes.extend(f"- [not an item] ({w:.2f}) {t}" for _, w, t in not_item)
            notes.extend(
                f"- [{k}] ({w:.2f}) {t}"
                for k, w, t in learned
                if (k, w, t) not in wrong and (k, w, t) not in not_item
            )
    legend = (
        "items: hand-written per session; found: matched by a project_fact, pitfall or recipe; "
        "high: high items found / high items; wrong: memories that state what must not be said; "
        "facts: project_fact memories; not item: project facts that match no item (judge by "
        "hand with --details)."
    )
    return "\n".join(table.render(legend) + notes)


def main(argv: list[str] | None = None) -> int:
    return study_main(
        argv,
        title="learned study",
        doc=__doc__,
        details="each item's verdict and the rest",
        studies=STUDIES,
        load=load_sessions,
        run=_run,
        report=report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
