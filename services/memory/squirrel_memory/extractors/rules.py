"""The offline rules extractor: preferences, tool habits, project facts, pitfalls and recipes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

import structlog

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import (
    CommandRun,
    commands,
    core_tokens,
    relative_path,
    split_segments,
    user_requests,
)
from squirrel_memory.extractors.commit_fixes import commit_fixes
from squirrel_memory.extractors.commits import commit_memories
from squirrel_memory.extractors.facts import command_base, project_facts
from squirrel_memory.extractors.pitfalls import fingerprint_key, fixed_failures
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.toolchain import HABIT_CATEGORIES, classify, package_manager
from squirrel_memory.extractors.wording import sentence
from squirrel_memory.models import Episode, MemoryCandidate, MemoryType, Scope, StoredEvent

log = structlog.get_logger()

#: A tool has to be used this often in one episode before it counts as a habit.
MIN_HABIT_COUNT = 2
#: Stated preferences kept per episode (a hostile message cannot flood the store).
MAX_PREFERENCES = 10
#: Successful runs needed before a command becomes a recipe, by purpose.
RECIPE_MIN_SUCCESSES = {
    "test": 2,
    "lint": 2,
    "format": 2,
    "typecheck": 2,
    "install": 2,
    "build": 1,
    "run": 1,
    "migrate": 1,
}
_CHECK_PURPOSES = ("test", "lint", "format", "typecheck")
#: Commands that can fix a failure without a code change (a missing dependency, a migration).
_SETUP_PURPOSES = frozenset({"install", "migrate", "build"})
_HABIT_WORDING = {
    "test_runner": "Runs tests with {}.",
    "package_manager": "Uses {} as the package manager.",
    "formatter": "Formats code with {}.",
    "linter": "Lints with {}.",
    "type_checker": "Type-checks with {}.",
}
_RECIPE_WORDING = {
    "test": "To run the tests: {}.",
    "lint": "To lint: {}.",
    "format": "To format: {}.",
    "typecheck": "To type-check: {}.",
    "install": "To install dependencies: {}.",
    "build": "To build: {}.",
    "run": "To run the app: {}.",
    "migrate": "To migrate the database: {}.",
}
_ASSISTANT_ACTIONS = {
    EventType.ASSISTANT_RESPONSE,
    EventType.TOOL_CALL,
    EventType.TOOL_RESULT,
    EventType.CODE_CHANGE,
    EventType.COMMAND_RUN,
    EventType.TEST_RUN,
}


@dataclass(slots=True)
class _Tally:
    count: int = 0
    event_ids: list[str] = field(default_factory=list)
    wrappers: Counter[str] = field(default_factory=Counter)


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


class RulesExtractor:
    """Extracts memories from one episode with deterministic rules; needs no network or key."""

    name = "rules"

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        """Candidates for `episode`, each carrying its episode id and the events behind it."""
        return self.extract_sync(episode, events)

    def extract_sync(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        """The same as `extract`, for callers without an event loop."""
        wanted = set(episode.event_ids)
        ordered = sorted(
            (e for e in events if not wanted or e.id in wanted), key=lambda e: (e.timestamp, e.id)
        )
        runs = commands(ordered)
        found: list[MemoryCandidate] = []
        found.extend(_preferences(ordered))
        found.extend(_habits(runs))
        found.extend(_facts(ordered, runs))
        found.extend(_pitfalls(ordered, runs))
        found.extend(_recipes(runs))
        found.extend(commit_memories(ordered))
        found.extend(commit_fixes(ordered, runs))
        result = _dedupe(
            [
                replace(c, content=sentence(c.content) or c.content, source_episode_id=episode.id)
                for c in found
            ]
        )
        log.debug("rules_extracted", episode_id=episode.id, candidate_count=len(result))
        return result


def _candidate(
    kind: MemoryType,
    key: str,
    content: str,
    *,
    tags: tuple[str, ...],
    importance: float,
    event_ids: tuple[str, ...] | list[str],
    scope: Scope = Scope.PROJECT,
    file_paths: tuple[str, ...] = (),
) -> MemoryCandidate:
    return MemoryCandidate(
        type=kind,
        key=key,
        content=content,
        tags=tuple(dict.fromkeys(t for t in tags if t)),
        importance=round(max(0.0, min(1.0, importance)), 3),
        file_paths=file_paths,
        source_event_ids=tuple(dict.fromkeys(event_ids)),
        scope=scope,
    )


def _preferences(events: list[StoredEvent]) -> list[MemoryCandidate]:
    position = {e.id: i for i, e in enumerate(events)}
    found: list[MemoryCandidate] = []
    for event, text in user_requests(events):
        if not is_user_voice(event.origin):  # a subagent prompt or a summary is not the user
            continue
        index = position[event.id]
        after_action = index > 0 and events[index - 1].event_type in _ASSISTANT_ACTIONS
        for pref in stated_preferences(text, after_assistant_action=after_action):
            found.append(
                _candidate(
                    MemoryType.USER_STYLE,
                    pref.key,
                    pref.content,
                    tags=pref.tags,
                    importance=pref.importance,
                    event_ids=(event.id,),
                    scope=pref.scope,
                )
            )
            if len(found) >= MAX_PREFERENCES:
                return found
    return found


def _habits(runs: list[CommandRun]) -> list[MemoryCandidate]:
    tallies: dict[tuple[str, str], _Tally] = {}
    for run in runs:
        for segment in split_segments(run.command):
            raw = segment.split()
            manager = package_manager(raw)
            seen: set[tuple[str, str]] = set()
            if manager:
                seen.add(("package_manager", manager))
            use = classify(core_tokens(segment))
            if use and use.category in HABIT_CATEGORIES:
                seen.add((use.category, use.tool))
            for item in seen:
                tally = tallies.setdefault(item, _Tally())
                tally.count += 1
                tally.event_ids.append(run.event_id)
                if manager and item[0] != "package_manager" and manager != item[1]:
                    tally.wrappers[manager] += 1
    found: list[MemoryCandidate] = []
    for category in HABIT_CATEGORIES:
        tools = sorted(
            (
                (tool, tally)
                for (cat, tool), tally in tallies.items()
                if cat == category and tally.count >= MIN_HABIT_COUNT
            ),
            key=lambda item: (-item[1].count, item[0]),
        )
        if not tools:
            continue
        names = []
        for tool, tally in tools[:3]:
            wrapper = tally.wrappers.most_common(1)[0][0] if tally.wrappers else None
            names.append(f"{tool} (through {wrapper})" if wrapper else tool)
        count = tools[0][1].count
        found.append(
            _candidate(
                MemoryType.USER_STYLE,
                f"pref:{category}",
                _HABIT_WORDING[category].format(" and ".join(names)),
                tags=("tooling", category, *(tool for tool, _ in tools[:3])),
                importance=min(0.8, 0.4 + 0.1 * (count - MIN_HABIT_COUNT)),
                event_ids=[e for _, tally in tools[:3] for e in tally.event_ids],
            )
        )
    return found


def _facts(events: list[StoredEvent], runs: list[CommandRun]) -> list[MemoryCandidate]:
    return [
        _candidate(
            MemoryType.PROJECT_FACT,
            fact.key,
            fact.content,
            tags=fact.tags,
            importance=fact.importance,
            event_ids=fact.event_ids,
            file_paths=fact.file_paths,
        )
        for fact in project_facts(events, runs)
    ]


def _pitfalls(events: list[StoredEvent], runs: list[CommandRun]) -> list[MemoryCandidate]:
    position = {e.id: i for i, e in enumerate(events)}
    found: list[MemoryCandidate] = []
    for fixed in fixed_failures([r for r in runs if r.ok is not None]):
        start, end = position[fixed.failed.event_id], position[fixed.passed.event_id]
        changes = [e for e in events[start + 1 : end] if e.event_type == EventType.CODE_CHANGE]
        files: dict[str, None] = {}
        for change in changes:
            path = change.content.get("path")
            for item in [path] if isinstance(path, str) else list(change.file_paths):
                rel = relative_path(item, change.project_id)
                if not rel.startswith(("/", "~")):
                    files.setdefault(rel, None)
        helpers = [
            r
            for r in runs
            if r.event_id in fixed.between_event_ids and r.ok and _is_setup(r.command)
        ]
        if not files and not helpers:
            continue
        command = _clip(fixed.failed.command.splitlines()[0], 80)
        fingerprint = fixed.fingerprint
        if files:
            shown = ", ".join(list(files)[:4]) + (" …" if len(files) > 4 else "")
            remedy = f"it passed after changing {shown}"
        else:
            remedy = f"it passed after running `{_clip(helpers[0].command, 60)}`"
        use = next((classify(core_tokens(s)) for s in split_segments(fixed.failed.command)), None)
        exception = fingerprint.split(":", 1)[0] if ":" in fingerprint else ""
        tags = (
            "pitfall",
            use.tool if use else "",
            exception.lower() if exception.isidentifier() else "",
        )
        found.append(
            _candidate(
                MemoryType.PITFALL,
                fingerprint_key(fingerprint),
                f"`{command}` failed with `{fingerprint}`; {remedy}.",
                tags=tags,
                importance=0.65 if files else 0.5,
                event_ids=(
                    fixed.failed.event_id,
                    *(c.id for c in changes),
                    *(h.event_id for h in helpers),
                    fixed.passed.event_id,
                ),
                file_paths=tuple(files),
            )
        )
    return found


def _is_setup(command: str) -> bool:
    """Whether a command changes the environment (install, migrate, build) rather than code."""
    return any(
        (use := classify(core_tokens(segment))) is not None and use.purpose in _SETUP_PURPOSES
        for segment in split_segments(command)
    )


def _recipes(runs: list[CommandRun]) -> list[MemoryCandidate]:
    bases: dict[str, Counter[str]] = {}
    examples: dict[tuple[str, str], dict[str, None]] = {}
    event_ids: dict[tuple[str, str], list[str]] = {}
    streak: list[tuple[str, str, str]] = []
    best: list[tuple[str, str, str]] = []
    for run in runs:
        purposes: list[tuple[str, str]] = []
        for segment in split_segments(run.command):
            use = classify(core_tokens(segment))
            if use:
                purposes.append((use.purpose, command_base(segment)))
                if run.ok:
                    key = (use.purpose, command_base(segment))
                    bases.setdefault(use.purpose, Counter())[key[1]] += 1
                    examples.setdefault(key, {})[_clip(segment, 80)] = None
                    event_ids.setdefault(key, []).append(run.event_id)
        checks = [(p, b) for p, b in purposes if p in _CHECK_PURPOSES]
        if run.ok and checks and len(checks) == len(purposes):
            streak.extend((p, b, run.event_id) for p, b in checks)
        elif run.ok is False or purposes:
            streak = []
        if len({p for p, _, _ in streak}) > len({p for p, _, _ in best}):
            best = list(streak)
    found: list[MemoryCandidate] = []
    for purpose, counter in sorted(bases.items()):
        base, count = counter.most_common(1)[0]
        if count < RECIPE_MIN_SUCCESSES.get(purpose, 2):
            continue
        variants = [v for v in examples[(purpose, base)] if v != base][:2]
        text = f"`{base}`" + (
            " (e.g. " + ", ".join(f"`{v}`" for v in variants) + ")" if variants else ""
        )
        found.append(
            _candidate(
                MemoryType.RECIPE,
                f"recipe:{purpose}",
                _RECIPE_WORDING[purpose].format(text),
                tags=("recipe", purpose),
                importance=min(0.7, 0.4 + 0.05 * count),
                event_ids=event_ids[(purpose, base)],
            )
        )
    if len({p for p, _, _ in best}) >= 2:
        steps = list(dict.fromkeys(f"`{b}`" for _, b, _ in best))
        found.append(
            _candidate(
                MemoryType.RECIPE,
                "recipe:verify",
                f"Before finishing a change: {' → '.join(steps[:5])}.",
                tags=("recipe", "verify", *dict.fromkeys(p for p, _, _ in best)),
                importance=0.55,
                event_ids=[e for _, _, e in best],
            )
        )
    return found


def _dedupe(candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """One candidate per (type, key, content); the strongest wins, event ids are merged."""
    kept: dict[tuple[str, str, str], MemoryCandidate] = {}
    for cand in candidates:
        anchor = (cand.type.value, cand.key, cand.content)
        previous = kept.get(anchor)
        if previous is None:
            kept[anchor] = cand
            continue
        stronger = cand if cand.importance > previous.importance else previous
        kept[anchor] = replace(
            stronger,
            file_paths=tuple(dict.fromkeys((*previous.file_paths, *cand.file_paths))),
            source_event_ids=tuple(
                dict.fromkeys((*previous.source_event_ids, *cand.source_event_ids))
            ),
            source_refs=tuple(dict.fromkeys((*previous.source_refs, *cand.source_refs))),
        )
    return list(kept.values())
