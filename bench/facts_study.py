"""The facts study: what the project-fact rules say about public repositories nobody tuned on.

Each folder under `bench/data/facts_study/` holds files of one public repository (its manifests,
README, configuration), copied with provenance in its `SOURCES.md`, and `expected.toml`: what a
senior engineer states after reading those files (`[[fact]]`, each with the concepts a memory
must hold, as the answer key's `match`), and what must never be stated (`[[never]]`, a pattern,
the reason and optionally the memory `types` it judges). Both were written by hand from the
files before the rules were run on them.

Each repository is read two ways, as Squirrel reads a project:

- **session**: one session in which the assistant reads every file of the folder (the Read tool,
  as a first look at a repository does), through the offline rules extractor;
- **repository**: the folder committed to a fresh git repository and read by the repository
  reader (manifests, task runners, CI, configuration, instruction files).

Per repository and way: facts found, missed (facts marked `unsure` count apart: found is a
bonus, missed is not counted), wrong (a memory that matches a `never` pattern), and noise
(wrong or junk memories, by the answer key's own junk rules) among the memories of the kinds a
study judges (project facts and recipes).

Usage: python -m bench.facts_study [--way session|repository] [--repo NAME ...] [--details]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.answer_key_score import Memory, junk_reason
from squirrel_core.logs import configure_logging
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import Episode, MemoryCandidate, MemoryType, StoredEvent
from squirrel_memory.repository import read_repository, repository_candidates

STUDY_DIR = Path(__file__).parent / "data" / "facts_study"
#: The memory kinds a study judges: what the project is, its stack and how it is run.
JUDGED = (MemoryType.PROJECT_FACT, MemoryType.RECIPE)
WAYS = ("session", "repository")
_T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
_NOT_STUDIED = {"SOURCES.md", "expected.toml"}


class StudyError(ValueError):
    """A study folder whose `expected.toml` cannot be read."""


@dataclass(frozen=True)
class Expected:
    """One fact a senior engineer states: all of `match` (each a regex) must be in one memory."""

    fact: str
    match: tuple[re.Pattern[str], ...]
    unsure: bool = False


@dataclass(frozen=True)
class Never:
    """What must never be stated, and why."""

    pattern: re.Pattern[str]
    reason: str
    types: tuple[str, ...] = ()
    """The memory types it judges (all when empty), as the answer key's `[[wrong]]`."""

    def says(self, memory: MemoryCandidate) -> bool:
        kinds = not self.types or memory.type.value in self.types
        return kinds and self.pattern.search(memory.content) is not None


@dataclass(frozen=True)
class Study:
    """One repository's folder: its files, what must be stated and what never."""

    name: str
    folder: Path
    facts: tuple[Expected, ...]
    never: tuple[Never, ...]

    def files(self) -> list[tuple[str, str]]:
        """(path relative to the folder, text) of every copied file, in path order."""
        found = []
        for path in sorted(self.folder.rglob("*")):
            rel = path.relative_to(self.folder).as_posix()
            if path.is_file() and rel not in _NOT_STUDIED:
                found.append((rel, path.read_text(encoding="utf-8")))
        return found


@dataclass
class Result:
    """What one way of reading one repository gave, judged."""

    found: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    bonus: list[str] = field(default_factory=list)
    wrong: list[tuple[str, str]] = field(default_factory=list)
    junk: list[tuple[str, str]] = field(default_factory=list)
    memories: list[MemoryCandidate] = field(default_factory=list)

    @property
    def noise(self) -> int:
        return len(self.wrong) + len(self.junk)


def _regexes(raw: object, where: str) -> tuple[re.Pattern[str], ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(r, str) for r in raw):
        raise StudyError(f"{where}: `match` must be a non-empty list of regular expressions")
    return tuple(re.compile(r, re.IGNORECASE) for r in raw)


def load_study(folder: Path) -> Study:
    """The study in `folder` (raises `StudyError` on a malformed `expected.toml`)."""
    source = folder / "expected.toml"
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise StudyError(f"{source}: {exc}") from exc
    facts = tuple(
        Expected(str(f["fact"]), _regexes(f.get("match"), str(source)), bool(f.get("unsure")))
        for f in data.get("fact", [])
    )
    never = tuple(
        Never(
            re.compile(str(n["pattern"]), re.IGNORECASE),
            str(n["reason"]),
            tuple(str(t) for t in n.get("types", [])),
        )
        for n in data.get("never", [])
    )
    if not facts:
        raise StudyError(f"{source}: no [[fact]]")
    return Study(folder.name, folder, facts, never)


def load_studies(base: Path = STUDY_DIR) -> list[Study]:
    return [load_study(p) for p in sorted(base.iterdir()) if (p / "expected.toml").is_file()]


def _numbered(text: str) -> str:
    return "".join(f"{i:6d}→{line}\n" for i, line in enumerate(text.splitlines(), 1))


def session_events(root: str, files: Sequence[tuple[str, str]]) -> list[StoredEvent]:
    """One session in `root`: the user asks for a first look, the assistant reads each file."""
    events: list[StoredEvent] = []

    def add(kind: str, content: dict[str, object], paths: tuple[str, ...] = ()) -> None:
        n = len(events) + 1
        events.append(
            StoredEvent(
                id=f"study_{n:04d}",
                project_id=root,
                user_id="dev",
                source_tool="claude_code",
                session_id="study",
                timestamp=_T0 + timedelta(seconds=20 * n),
                event_type=kind,
                content=content,
                file_paths=paths,
                hash=f"{root}{n}",
            )
        )

    add("user_message", {"text": "Read how this repository is set up before we start."})
    for rel, text in files:
        use = f"read{len(events)}"
        full = f"{root}/{rel}"
        add("tool_call", {"tool": "Read", "tool_use_id": use, "input": {}}, (full,))
        output = {"tool": "Read", "tool_use_id": use, "output": _numbered(text), "is_error": False}
        add("tool_result", output, (full,))
    return events


def from_session(study: Study) -> list[MemoryCandidate]:
    """What the rules extractor keeps of a session that reads the study's files."""
    events = session_events(f"/src/{study.name}", study.files())
    first, last = events[0], events[-1]
    episode = Episode(
        "ep1", first.project_id, "dev", "study", first.timestamp, last.timestamp,
        len(events), "", 0.5, last.timestamp,
    )  # fmt: skip
    return RulesExtractor().extract_sync(episode, events)


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=study", "-c", "user.email=study@localhost",
         *args],
        check=True, capture_output=True,
    )  # fmt: skip


def from_repository(study: Study) -> list[MemoryCandidate]:
    """What the repository reader gives for the study's files committed to a fresh repository."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / study.name
        for rel, text in study.files():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        _git(root, "init", "-q")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "study")
        return repository_candidates(read_repository(root))


def judge(study: Study, memories: Sequence[MemoryCandidate]) -> Result:
    """Each expected fact found or missed; each judged memory wrong, junk or neither."""
    judged = [m for m in memories if m.type in JUDGED]
    result = Result(memories=list(judged))
    for mem in judged:
        hit = next((n for n in study.never if n.says(mem)), None)
        if hit:
            result.wrong.append((mem.content, hit.reason))
        elif reason := junk_reason(Memory(mem.type.value, mem.key, mem.content)):
            result.junk.append((mem.content, reason))
    usable = [
        m.content for m in judged if not any(n.pattern.search(m.content) for n in study.never)
    ]
    for fact in study.facts:
        stated = any(all(r.search(text) for r in fact.match) for text in usable)
        if stated:
            (result.bonus if fact.unsure else result.found).append(fact.fact)
        elif not fact.unsure:
            result.missed.append(fact.fact)
    return result


def run(studies: Sequence[Study], way: str) -> dict[str, Result]:
    read = from_session if way == "session" else from_repository
    return {study.name: judge(study, read(study)) for study in studies}


def table(
    results: dict[str, Result],
    way: str,
    judged: Mapping[str, int] | None = None,
    label: str = "repository",
    width: int = 18,
) -> str:
    """One row per study and the totals; `judged` counts each study's judged memories where
    its `Result` holds none (the session set keeps (type, text) pairs apart)."""
    rows = [
        f"way: {way}",
        f"{label:<{width}} {'found':>5} {'missed':>6} {'bonus':>5} {'wrong':>5} "
        f"{'noise':>5} {'memories':>8}",
    ]
    totals = [0, 0, 0, 0, 0, 0]
    for name, r in results.items():
        kept = judged[name] if judged is not None else len(r.memories)
        counts = [len(r.found), len(r.missed), len(r.bonus), len(r.wrong), r.noise, kept]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        rows.append(_row(name, counts, width))
    rows.append(_row("all", totals, width))
    stated = totals[0] + totals[1]
    rows.append(
        f"found {totals[0]}/{stated} facts ({round(100 * totals[0] / stated) if stated else 0} %),"
        f" {totals[3]} wrong, noise {totals[4]}/{totals[5]}"
    )
    return "\n".join(rows)


_WIDTHS = (5, 6, 5, 5, 5, 8)


def _row(name: str, counts: Sequence[int], width: int = 18) -> str:
    return f"{name:<{width}} " + " ".join(f"{c:>{w}}" for c, w in zip(counts, _WIDTHS, strict=True))


def details(results: dict[str, Result]) -> str:
    lines = []
    for name, r in results.items():
        lines.append(f"## {name}")
        lines.extend(f"  missed: {fact}" for fact in r.missed)
        lines.extend(f"  WRONG ({why}): {text}" for text, why in r.wrong)
        lines.extend(f"  junk ({why}): {text}" for text, why in r.junk)
        lines.extend(f"  - [{m.type.value} {m.key}] {m.content}" for m in r.memories)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.facts_study", description=__doc__)
    parser.add_argument("--way", choices=WAYS, action="append", help="session or repository")
    parser.add_argument("--repo", action="append", help="only these study folders")
    parser.add_argument("--details", action="store_true", help="every memory and verdict")
    args = parser.parse_args(argv)
    configure_logging("bench", level="warning")
    try:
        studies = load_studies()
    except StudyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.repo:
        unknown = set(args.repo) - {s.name for s in studies}
        if unknown:
            print(f"error: no study named {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        studies = [s for s in studies if s.name in args.repo]
    for way in args.way or WAYS:
        results = run(studies, way)
        print(table(results, way))
        if args.details:
            print(details(results))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
