"""Pitfalls and recipes in sessions nobody tuned the rules on: found, missed, wrong, not lessons.

`bench/data/lessons_study/lessons.toml` lists, per session, the lessons a senior engineer would
note (a pitfall: trigger, cause and fix; a recipe: the procedure with its commands) and what must
not become one (`wrong`: progress and log lines, one-off requests, host notices), written by hand
before the rules first ran over them; SOURCES.md says where each session comes from. Each session
goes alone into its own project of one memory service (AppendEvents, then ProcessNow with the
offline `rules` extractor, via bench/fixture_pipeline.py). A pitfall lesson is **found** when a
pitfall memory states every concept of its `match`; a recipe lesson when a recipe or project-fact
memory does. A pitfall or recipe memory that matches a `wrong` pattern is **wrong**; one that
matches no lesson and no `wrong` pattern is **not a lesson** (listed with --details, for a human
to judge).

`lessons.toml` (SOURCES.md) is the first set; `lessons2.toml` (SOURCES2.md) is the second, from
another ecosystem and host, written the same way. Each set prints its own table.

Usage: python -m bench.lessons_study [--details] [--study first|second|all] [--session NAME ...]
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bench import fixture_pipeline
from bench.study_files import Concepts, StudyError, concepts, states_all, transcript_paths
from bench.study_runs import StudyTable, memories_of, study_main
from squirrel.v1 import memory_pb2
from squirrel_core.clients import MemoryClient

STUDY = fixture_pipeline.ROOT / "bench" / "data" / "lessons_study"
KINDS = {"pitfall": ("pitfall",), "recipe": ("recipe", "project_fact")}
_TYPES = {
    memory_pb2.MEMORY_TYPE_PITFALL: "pitfall",
    memory_pb2.MEMORY_TYPE_RECIPE: "recipe",
    memory_pb2.MEMORY_TYPE_PROJECT_FACT: "project_fact",
}
JUDGED = ("pitfall", "recipe")
STUDIES = {"first": STUDY / "lessons.toml", "second": STUDY / "lessons2.toml"}


@dataclass(frozen=True)
class Lesson:
    """One lesson of a session: its kind, weight, note and the concepts a memory must state."""

    kind: str
    importance: str
    note: str
    concepts: Concepts

    def matches(self, kind: str, text: str) -> bool:
        """Whether a memory of `kind` saying `text` states this lesson."""
        return kind in KINDS[self.kind] and states_all(self.concepts, text)


@dataclass(frozen=True)
class Session:
    """A study session: its transcripts, host, lessons and what must not become one."""

    name: str
    paths: tuple[Path, ...]
    host: str
    lessons: tuple[Lesson, ...]
    wrong: tuple[re.Pattern[str], ...]


@dataclass
class Outcome:
    """What the rules kept from one session: (type, importance, text) of every memory."""

    memories: list[tuple[str, float, str]] = field(default_factory=list)


def _lesson(raw: dict[str, object], where: str) -> Lesson:
    kind = raw.get("kind")
    if kind not in KINDS:
        raise StudyError(f"{where}: `kind` is one of {', '.join(KINDS)}")
    return Lesson(
        kind=str(kind),
        importance=str(raw.get("importance", "normal")),
        note=str(raw.get("note", "")),
        concepts=concepts(raw.get("match"), where),
    )


def load_sessions(path: Path = STUDY / "lessons.toml") -> list[Session]:
    """The study's sessions, as `lessons.toml` lists them; raises `StudyError` on a bad entry."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sessions: list[Session] = []
    for index, raw in enumerate(data.get("session", [])):
        where = f"{path.name}: session {index + 1}"
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise StudyError(f"{where}: `name` is required")
        lessons = tuple(
            _lesson(item, f"{where} ({name}), lesson {i + 1}")
            for i, item in enumerate(raw.get("lesson", []))
        )
        wrong = tuple(
            re.compile(str(item.get("pattern", "")), re.IGNORECASE)
            for item in raw.get("wrong", [])
            if item.get("pattern")
        )
        host = str(raw.get("host", "claude"))
        sessions.append(
            Session(
                name, transcript_paths(raw.get("transcripts"), where, STUDY), host, lessons, wrong
            )
        )
    return sessions


async def _run(sessions: list[Session]) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}

    async def inspect(client: MemoryClient, name: str, project_id: str, _events: int) -> None:
        memories = await memories_of(client, project_id)
        kept = [(_TYPES[m.type], m.importance, m.content) for m in memories if m.type in _TYPES]
        outcomes.setdefault(name, Outcome()).memories = sorted(
            kept, key=lambda m: (m[0], -m[1], m[2])
        )

    projects = [(s.name, list(s.paths)) for s in sessions]
    await fixture_pipeline.run_once(projects, False, inspect=inspect)
    return outcomes


@dataclass(frozen=True)
class Verdicts:
    """One session's counts: lessons found, and the judged memories that are wrong or noise."""

    found: tuple[Lesson, ...]
    wrong: tuple[tuple[str, float, str], ...]
    not_lessons: tuple[tuple[str, float, str], ...]
    judged: int


def judge(session: Session, outcome: Outcome) -> Verdicts:
    """Which lessons the session's memories state, and which judged memories are wrong or noise."""
    found = tuple(
        lesson
        for lesson in session.lessons
        if any(lesson.matches(kind, text) for kind, _, text in outcome.memories)
    )
    judged = [m for m in outcome.memories if m[0] in JUDGED]
    wrong = tuple(m for m in judged if any(p.search(m[2]) for p in session.wrong))
    not_lessons = tuple(
        m
        for m in judged
        if m not in wrong and not any(lesson.matches(m[0], m[2]) for lesson in session.lessons)
    )
    return Verdicts(found, wrong, not_lessons, len(judged))


def report(sessions: list[Session], outcomes: dict[str, Outcome], details: bool = False) -> str:
    """The study's table (one row per session, then totals) and, with `details`, each verdict."""
    table = StudyTable(
        26,
        [
            ("lessons", 7),
            ("found", 6),
            ("high", 6),
            ("pitfall", 8),
            ("recipe", 7),
            ("judged", 7),
            ("wrong", 6),
            ("not lesson", 11),
        ],
    )
    notes: list[str] = []
    for session in sessions:
        outcome = outcomes.get(session.name, Outcome())
        verdict = judge(session, outcome)
        by_kind = {
            kind: (
                sum(1 for lesson in verdict.found if lesson.kind == kind),
                sum(1 for lesson in session.lessons if lesson.kind == kind),
            )
            for kind in KINDS
        }
        high = (
            sum(1 for lesson in verdict.found if lesson.importance == "high"),
            sum(1 for lesson in session.lessons if lesson.importance == "high"),
        )
        table.add(
            session.name,
            len(session.lessons),
            len(verdict.found),
            high,
            by_kind["pitfall"],
            by_kind["recipe"],
            verdict.judged,
            len(verdict.wrong),
            len(verdict.not_lessons),
        )
        if details:
            notes.append(f"\n## {session.name}")
            for lesson in session.lessons:
                mark = "found" if lesson in verdict.found else "MISSED"
                notes.append(f"- [{mark}] ({lesson.kind}, {lesson.importance}) {lesson.note}")
            notes.extend(f"- [WRONG] ({k} {w:.2f}) {t}" for k, w, t in verdict.wrong)
            notes.extend(f"- [not a lesson] ({k} {w:.2f}) {t}" for k, w, t in verdict.not_lessons)
            notes.extend(
                f"- [{k}] ({w:.2f}) {t}"
                for k, w, t in outcome.memories
                if k in JUDGED and (k, w, t) not in verdict.wrong + verdict.not_lessons
            )
    legend = (
        "lessons: hand-written per session; found: stated by a memory of the lesson's kind; "
        "high, pitfall, recipe: found / listed; judged: pitfall and recipe memories; wrong: "
        "judged memories that match what must not become a lesson; not lesson: judged memories "
        "that match no lesson."
    )
    return "\n".join(table.render(legend) + notes)


def main(argv: list[str] | None = None) -> int:
    return study_main(
        argv,
        title="lessons study",
        doc=__doc__,
        details="each lesson's verdict and noise",
        studies=STUDIES,
        load=load_sessions,
        run=_run,
        report=report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
