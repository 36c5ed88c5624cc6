"""The user's habits in sessions nobody tuned the rules on: found, missed, and noise.

`bench/data/habits_study/habits.toml` (the first set) and `habits2.toml` (the second, taken later
from sessions nobody had studied) list, per session, the habits a senior engineer would note about
the user (written by hand before the rules first ran over them; SOURCES.md and SOURCES2.md say
where each session comes from). Each session goes alone into its own project of one memory service
(AppendEvents, then ProcessNow with the offline `rules` extractor, via
bench/fixture_pipeline.py). A habit is **found** when one user_style memory matches every concept
of its `match` (each concept a regular expression or a list of alternatives, case-insensitive),
and **in the start text** when the text the session-start hook injects (for the session's host)
matches them. Every user_style memory that matches no habit of its session is counted as **not
a habit** (listed with --details, for a human to judge). The third set (`habits3.toml`, one
session per project) also gives each habit its `class` (`emphasis`, `corrected`, `repeated`,
`sessions`: how the session shows it) and lists `must_not` entries, instructions about one task,
file or value that look like habits: a user_style memory that states one is a **task kept**.
The fourth set (`habits4.toml`, SOURCES4.md) has the same columns, from projects collected after
the one-session habit rules were written, so that those rules are measured on sessions they were
not written from.

Usage: python -m bench.habits_study [--study first|second|third|fourth|all] [--details]
[--session NAME ...]
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bench import fixture_pipeline
from bench.study_files import Concepts, StudyError, concepts, states_all, transcript_paths
from bench.study_runs import StudyTable, memories_of, study_main
from squirrel.v1 import memory_pb2
from squirrel_core.clients import MemoryClient

STUDY = fixture_pipeline.ROOT / "bench" / "data" / "habits_study"
STUDIES = {
    "first": STUDY / "habits.toml",
    "second": STUDY / "habits2.toml",
    "third": STUDY / "habits3.toml",
    "fourth": STUDY / "habits4.toml",
}
#: How a session shows a habit (`class` in the third set); the first two sets give none.
CLASSES = ("emphasis", "corrected", "repeated", "sessions")


@dataclass(frozen=True)
class Habit:
    """One habit of a session's user: its note, weight and the concepts a memory must state."""

    note: str
    importance: str
    concepts: Concepts
    kind: str = ""

    def matches(self, text: str) -> bool:
        """Whether `text` states every concept of the habit."""
        return states_all(self.concepts, text)


@dataclass(frozen=True)
class Session:
    """A study session: its transcripts, the host that wrote them, its user's habits and the
    task instructions that must not become habits."""

    name: str
    paths: tuple[Path, ...]
    host: str
    habits: tuple[Habit, ...]
    must_not: tuple[Habit, ...] = ()


@dataclass
class Outcome:
    """What the rules kept from one session: user_style memories and the start text."""

    styles: list[tuple[float, str]] = field(default_factory=list)
    start_text: str = ""


def load_sessions(path: Path = STUDY / "habits.toml") -> list[Session]:
    """The study's sessions, as `habits.toml` lists them; raises `StudyError` on a bad entry."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sessions: list[Session] = []
    for index, raw in enumerate(data.get("session", [])):
        where = f"{path.name}: session {index + 1}"
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise StudyError(f"{where}: `name` is required")
        habits = tuple(
            Habit(
                note=str(h.get("note", "")),
                importance=str(h.get("importance", "normal")),
                concepts=concepts(h.get("match"), f"{where} ({name}), habit {i + 1}"),
                kind=_kind(h.get("class", ""), f"{where} ({name}), habit {i + 1}"),
            )
            for i, h in enumerate(raw.get("habit", []))
        )
        must_not = tuple(
            Habit(
                note=str(m.get("note", "")),
                importance="none",
                concepts=concepts(m.get("match"), f"{where} ({name}), must_not {i + 1}"),
            )
            for i, m in enumerate(raw.get("must_not", []))
        )
        host = str(raw.get("host", "claude"))
        paths = transcript_paths(raw.get("transcripts"), where, STUDY)
        sessions.append(Session(name, paths, host, habits, must_not))
    return sessions


def _kind(raw: object, where: str) -> str:
    """A habit's `class`, checked: one of `CLASSES`, or empty where the set gives none."""
    if raw == "":
        return ""
    if raw not in CLASSES:
        raise StudyError(f"{where}: `class` is one of {', '.join(CLASSES)}")
    return str(raw)


async def _run(sessions: list[Session]) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}
    hosts = {s.name: s.host for s in sessions}

    async def inspect(client: MemoryClient, name: str, project_id: str, _events: int) -> None:
        memories = await memories_of(client, project_id)
        outcome = outcomes.setdefault(name, Outcome())
        outcome.styles = sorted(
            (
                (m.importance, m.content)
                for m in memories
                if m.type == memory_pb2.MEMORY_TYPE_USER_STYLE
            ),
            reverse=True,
        )
        outcome.start_text = await fixture_pipeline.session_start_text(
            client, project_id, hosts[name]
        )

    projects = [(s.name, list(s.paths)) for s in sessions]
    await fixture_pipeline.run_once(projects, False, inspect=inspect)
    return outcomes


def report(sessions: list[Session], outcomes: dict[str, Outcome], details: bool = False) -> str:
    """The study's table (one row per session, then totals), habits found by class where the
    set gives classes, and, with `details`, each verdict."""
    table = StudyTable(
        28,
        [
            ("habits", 6),
            ("found", 6),
            ("high", 9),
            ("in start", 9),
            ("styles", 7),
            ("not habit", 10),
            ("task kept", 10),
        ],
    )
    by_class: dict[str, list[int]] = {}
    notes: list[str] = []
    for session in sessions:
        outcome = outcomes.get(session.name, Outcome())
        texts = [content for _, content in outcome.styles]
        found = [h for h in session.habits if any(h.matches(t) for t in texts)]
        high = [h for h in session.habits if h.importance == "high"]
        high_found = [h for h in found if h.importance == "high"]
        started = [h for h in session.habits if h.matches(outcome.start_text)]
        noise = [
            (weight, text)
            for weight, text in outcome.styles
            if not any(h.matches(text) for h in session.habits)
        ]
        kept = [
            (weight, text, task)
            for weight, text in outcome.styles
            for task in session.must_not
            if task.matches(text) and not any(h.matches(text) for h in session.habits)
        ]
        for habit in session.habits:
            if habit.kind:
                tally = by_class.setdefault(habit.kind, [0, 0])
                tally[0] += habit in found
                tally[1] += 1
        table.add(
            session.name,
            len(session.habits),
            len(found),
            (len(high_found), len(high)),
            len(started),
            len(texts),
            len(noise),
            len({text for _, text, _ in kept}),
        )
        if details:
            notes.append(f"\n## {session.name}")
            for habit in session.habits:
                mark = "found" if habit in found else "MISSED"
                start = ", in start text" if habit in started else ""
                kind = f", {habit.kind}" if habit.kind else ""
                notes.append(f"- [{mark}{start}] ({habit.importance}{kind}) {habit.note}")
            notes.extend(f"- [TASK KEPT] ({w:.2f}) {t} -- {task.note}" for w, t, task in kept)
            notes.extend(f"- [not a habit] ({w:.2f}) {t}" for w, t in noise)
            notes.extend(
                f"- [style] ({w:.2f}) {t}"
                for w, t in outcome.styles
                if any(h.matches(t) for h in session.habits)
            )
    legend = (
        "habits: hand-written per session; found: matched by a user_style memory; high: high "
        "habits found / high habits; in start: matched by the session-start text; styles: "
        "user_style memories; not habit: user_style memories that match no habit; task kept: "
        "those of them that state a task instruction the set lists as not a habit."
    )
    lines = table.render(legend)
    if by_class:
        lines.insert(
            -1,
            "found by class: "
            + ", ".join(f"{k} {by_class[k][0]}/{by_class[k][1]}" for k in CLASSES if k in by_class),
        )
    return "\n".join(lines + notes)


def main(argv: list[str] | None = None) -> int:
    return study_main(
        argv,
        title="habits study",
        doc=__doc__,
        details="each habit's verdict and noise",
        studies=STUDIES,
        load=load_sessions,
        run=_run,
        report=report,
    )


if __name__ == "__main__":
    raise SystemExit(main())
