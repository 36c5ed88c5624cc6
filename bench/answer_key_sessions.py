"""The answer key on one session at a time: what the rules keep when a project has one session.

Held-out projects are often a single short session, so rules that wait for a second session
never fire there. This replay shows that condition on projects one may tune on: each session of
each chosen project (the `tuning` split by default) goes alone into its own project of one
memory service, in a folder named as its fixture project's, as on the user's machine
(AppendEvents, then ProcessNow with the `rules` extractor), and its memories are
scored against the gold items that session alone supports.

A session is the events that carry one `session_id` (a subagent's transcript carries its parent
session's id, so it belongs to that session); events without one are left out. An item is
**supported** by a session when every one of its `match` concepts (any of the concept's regular
expressions, case-insensitive, as the judge applies them to a memory) is found in the session's
text: every string of every event's content (user and assistant messages, tool inputs, commands,
their outputs, commit messages, changed paths) joined with newlines. A memory could only state
what its session shows, so an item whose concepts are not all there is left out of that
session's key; a session that supports no item still counts its memories, wrong facts and noise.
A `user_style` item is a preference of the user, so its concepts are looked for only in what
the user said (messages of the user's own voice: typed, queued, answers, slash-command words).
`[[wrong]]` and one-off patterns apply unchanged; `session_start` items count only where
supported. Questions are not asked (search is measured by `bench.answer_key`).

Each row pools one project's sessions (sums of their counts); the last row pools every session,
against the held-out targets (the condition it stands in for).

Usage: python -m bench.answer_key_sessions [--fixtures DIR] [--split tuning|held-out]
                                          [--project=NAME ...] [--details]
                                          [--hook-text [--hook-host claude|codex|gemini]]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import fixture_pipeline
from bench.answer_key import backend_env, keyed_projects
from bench.answer_key_gold import AnswerKey, AnswerKeyError, load_keys
from bench.answer_key_hook import HookScore, score_hook
from bench.answer_key_score import Memory, Score, high_by_kind, score
from bench.answer_key_table import TARGETS, details, table, targets
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import Event, EventType, is_user_voice
from squirrel_core.logs import configure_logging


@dataclass(frozen=True)
class OneSession:
    """One session of a keyed project, replayed alone under its own project name."""

    name: str  # the replay's project name: `<fixture project>@s<n>`
    project: str  # the fixture project (the key's `project`)
    session_id: str
    text: str  # every string of the session's events, one per line
    user_text: str = ""  # what the user said in the session, one message per line


def content_text(value: Any) -> Iterable[str]:
    """Every string inside an event's content (nested dicts and lists included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from content_text(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from content_text(item)


def sessions_of(project: str, events: Sequence[Event]) -> list[OneSession]:
    """The sessions of one project's events, in the order they started (`@s1` first)."""
    by_id: dict[str, list[Event]] = {}
    for event in events:
        if event.session_id:
            by_id.setdefault(event.session_id, []).append(event)
    ordered = sorted(by_id.items(), key=lambda kv: (min(e.timestamp for e in kv[1]), kv[0]))
    out = []
    for n, (session_id, group) in enumerate(ordered, start=1):
        lines = [s for e in group for s in (*content_text(e.content), *e.file_paths)]
        said = [
            s
            for e in group
            if e.event_type == EventType.USER_MESSAGE and is_user_voice(e.origin)
            for s in content_text(e.content)
        ]
        name = f"{project}@s{n}"
        out.append(OneSession(name, project, session_id, "\n".join(lines), "\n".join(said)))
    return out


def supported_key(key: AnswerKey, text: str, user_text: str = "") -> AnswerKey:
    """The key cut down to the items whose every concept occurs in `text` (a `user_style`
    item's in `user_text`, what the user said); no questions."""
    items = tuple(
        i
        for i in key.items
        if all(
            any(p.search(user_text if i.kind == "user_style" else text) for p in concept)
            for concept in i.concepts
        )
    )
    ids = {i.id for i in items}
    return dataclasses.replace(
        key,
        items=items,
        questions=(),
        session_start=tuple(i for i in key.session_start if i in ids),
    )


TRACED_TYPES = ("recipe", "user_style")


def hook_trace(text: str, memories: Sequence[Memory]) -> str:
    """Why a session-start text misses an item: the text itself, then the stored memories of
    the types its commands and preferences come from (absent from the store, stored under
    another key, or stored and left out of the text)."""
    stored = [f"  - [{m.kind}] {m.key}: {m.content}" for m in memories if m.kind in TRACED_TYPES]
    return "\n".join(
        [
            "session-start text:",
            *(f"  | {line}" for line in text.splitlines()),
            "stored recipes and preferences:",
            *(stored or ["  none"]),
        ]
    )


def merged(project: str, language: str, parts: Sequence[Score]) -> Score:
    """One row of a project's sessions: their counts summed."""

    def total(attr: str) -> int:
        return sum(int(getattr(s, attr)) for s in parts)

    hooks = [s.hook for s in parts if s.hook is not None]
    hook = (
        HookScore(
            tuple(i for h in hooks for i in h.needed),
            tuple(i for h in hooks for i in h.covered),
            tuple(w for h in hooks for w in h.wrong),
            tuple(j for h in hooks for j in h.junk),
        )
        if hooks
        else None
    )
    return Score(
        project=project,
        language=f"{language} ({len(parts)} sessions)",
        memories=total("memories"),
        high_total=total("high_total"),
        high_covered=total("high_covered"),
        all_total=total("all_total"),
        all_covered=total("all_covered"),
        wrong=total("wrong"),
        junk=total("junk"),
        duplicates=total("duplicates"),
        split=parts[0].split if parts else "tuning",
        hook=hook,
        high_by_kind={
            kind: (
                sum(s.high_by_kind.get(kind, (0, 0))[0] for s in parts),
                sum(s.high_by_kind.get(kind, (0, 0))[1] for s in parts),
            )
            for kind in sorted({k for s in parts for k in s.high_by_kind})
        },
    )


class SessionRun:
    """Scores each replayed session against its supported key while the service runs."""

    def __init__(
        self,
        keys: dict[str, AnswerKey],
        sessions: Sequence[OneSession],
        hook: bool,
        hook_hosts: Mapping[str, str] | None = None,
    ):
        self.keys = keys
        self.sessions = {s.name: s for s in sessions}
        self.hook = hook
        self.hook_hosts = hook_hosts or {}
        self.scores: dict[str, Score] = {}
        self.events: dict[str, int] = {}
        self.traces: dict[str, str] = {}  # per session whose start text misses an item

    def select(self, name: str, events: list[Event]) -> list[Event]:
        wanted = self.sessions[name].session_id
        return [e for e in events if e.session_id == wanted]

    def folder(self, name: str) -> str:
        """A replayed session's project folder is named as its project's (`cc-backend`)."""
        return self.sessions[name].project

    async def inspect(self, client: MemoryClient, name: str, project_id: str, events: int) -> None:
        session = self.sessions[name]
        key = supported_key(self.keys[session.project], session.text, session.user_text)
        listed = await client.call(
            client.stub.ListMemories,
            pb.ListMemoriesRequest(project_id=project_id, page_size=500),
        )
        memories = [
            Memory(fixture_pipeline.TYPE_NAMES.get(m.type, "unknown"), m.key, m.content)
            for m in listed.memories
        ]
        result = dataclasses.replace(score(key, memories), project=name)
        if self.hook:
            host = self.hook_hosts.get(session.project, "claude")
            text = await fixture_pipeline.session_start_text(client, project_id, host)
            result.hook = score_hook(key, text, host)
            if result.hook.missing:
                self.traces[name] = hook_trace(text, memories)
        self.scores[name] = result
        self.events[name] = events


def measure(
    fixtures: Path,
    split: str = "tuning",
    only: Sequence[str] = (),
    *,
    hook_text: bool = False,
    hook_host: str = "auto",
) -> tuple[SessionRun, list[tuple[AnswerKey, list[OneSession]]]]:
    """Replays every session of the chosen projects alone; the run and the sessions per key."""
    keys = {
        k.project: k for k in load_keys() if k.split == split and (not only or k.project in only)
    }
    if only and len(keys) != len(set(only)):
        raise AnswerKeyError(f"no {split} answer key for {sorted(set(only) - set(keys))}")
    projects, missing = keyed_projects(
        list(keys.values()), [fixtures, fixture_pipeline.PROJECT_TRANSCRIPTS]
    )
    if missing:
        raise SystemExit(f"answer keys without fixture transcripts under {fixtures}: {missing}")
    grouped: list[tuple[AnswerKey, list[OneSession]]] = []
    replayed: list[tuple[str, list[Path]]] = []
    for name, paths in projects:
        sessions = sessions_of(name, fixture_pipeline.parse(paths, "/"))
        grouped.append((keys[name], sessions))
        replayed += [(s.name, paths) for s in sessions]
    hosts = {
        name: fixture_pipeline.transcript_host(paths) if hook_host == "auto" else hook_host
        for name, paths in projects
    }
    run = SessionRun(keys, [s for _, group in grouped for s in group], hook_text, hosts)
    asyncio.run(
        fixture_pipeline.run_once(
            replayed,
            False,
            settings_env=backend_env("rules"),
            inspect=run.inspect,
            select=run.select,
            folder=run.folder,
        )
    )
    return run, grouped


def main(argv: list[str] | None = None) -> int:
    configure_logging("bench", "error", json=True)
    parser = argparse.ArgumentParser(
        prog="python -m bench.answer_key_sessions", description=__doc__
    )
    parser.add_argument("--fixtures", type=Path, default=fixture_pipeline.DEFAULT_FIXTURES)
    parser.add_argument("--split", choices=tuple(TARGETS), default="tuning")
    parser.add_argument("--project", action="append", default=[], help="only this project")
    parser.add_argument("--hook-text", action="store_true", help="score the session-start text")
    parser.add_argument(
        "--hook-host",
        choices=("auto", "claude", "codex", "gemini"),
        default="auto",
        help="with --hook-text: the host whose session-start text is scored; by default each "
        "project's own (the host that wrote most of its transcripts)",
    )
    parser.add_argument(
        "--details",
        action="store_true",
        help="per session: misses and noise (with --hook-text, why a session start misses)",
    )
    args = parser.parse_args(argv)
    if not args.fixtures.is_dir():
        print(f"skipped: no fixture transcripts at {args.fixtures}", file=sys.stderr)
        return 0
    started = time.perf_counter()
    try:
        run, grouped = measure(
            args.fixtures,
            args.split,
            args.project,
            hook_text=args.hook_text,
            hook_host=args.hook_host,
        )
    except AnswerKeyError as exc:
        print(f"answer key: {exc}", file=sys.stderr)
        return 2
    rows: list[Score] = []
    events: dict[str, int] = {}
    for key, sessions in grouped:
        parts = [run.scores[s.name] for s in sessions]
        rows.append(merged(key.project, key.language, parts))
        events[key.project] = sum(run.events[s.name] for s in sessions)
    print(f"answer key, one session at a time ({args.split} projects, rules extractor):\n")
    print(table(rows, events))
    print("\n" + targets(rows, "held-out").replace("targets:", "held-out targets:", 1))
    print(high_by_kind(rows))
    if args.details:
        for _, sessions in grouped:
            for s in sessions:
                print(details(run.scores[s.name]))
                if s.name in run.traces:
                    print(run.traces[s.name])
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
