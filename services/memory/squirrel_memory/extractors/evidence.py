"""Evidence weighed over any number of sessions: recipes, routines and tool habits.

The same rules read one episode (the rules extractor) or every stored command of a project
(the processor's project pass): a recipe is the command that succeeded most often and most
recently for a purpose, in the folder it ran in and consistent with the project's main
ecosystem; a command of another ecosystem or a sub-folder is a scoped recipe, never "the test
command". The checks run before commits become one quality-gate recipe; commands repeated at
the end of sessions become a routine.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath

from squirrel_core.commands import CommandUse, core_tokens, package_manager, typed_commands
from squirrel_memory.extractors.activity import CommandRun

#: Successful runs needed before a command becomes a recipe, by purpose (or two sessions).
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
#: Tag on candidates weighed from command evidence: the project pass replaces the batch's,
#: and an update replaces the stored statement instead of appending to it.
EVIDENCE_TAG = "evidence"
#: A tool has to be used this often before it counts as a habit.
MIN_HABIT_COUNT = 2
#: Half-life of a success's weight, in days before the newest command of the evidence.
RECENCY_HALF_LIFE_DAYS = 30.0
CHECK_PURPOSES = ("test", "lint", "format", "typecheck")
HABIT_CATEGORIES = ("test_runner", "package_manager", "formatter", "linter", "type_checker")
#: Commands that only look around; they are never part of a routine.
_READ_ONLY = frozenset(
    {"ls", "cat", "head", "tail", "grep", "rg", "find", "echo", "pwd", "wc", "sed", "awk", "tree"}
    | {"which", "sleep", "true", "diff", "less", "file", "stat", "du", "df", "ps", "jq"}
)
_READ_ONLY_GIT = frozenset({"status", "diff", "log", "show", "branch", "remote", "rev-parse"})
_ROUTINE_TAIL = 6
_EXTENSION_ECOSYSTEMS = {
    ".py": "python",
    ".ts": "javascript",
    ".tsx": "javascript",
    ".js": "javascript",
    ".jsx": "javascript",
    ".vue": "javascript",
    ".svelte": "javascript",
    ".go": "go",
    ".rs": "rust",
    ".java": "jvm",
    ".kt": "jvm",
    ".scala": "jvm",
    ".cs": "dotnet",
    ".fs": "dotnet",
    ".rb": "ruby",
    ".php": "php",
    ".ex": "elixir",
    ".exs": "elixir",
    ".heex": "elixir",
    ".swift": "swift",
    ".c": "c",
    ".cc": "c",
    ".cpp": "c",
    ".h": "c",
    ".hpp": "c",
    ".dart": "dart",
    ".zig": "zig",
}
_NEUTRAL_ECOSYSTEMS = frozenset({"any", "containers"})
_PURPOSE_WORDING = {
    "test": "to run the tests",
    "lint": "to lint",
    "format": "to format",
    "typecheck": "to type-check",
    "install": "to install dependencies",
    "build": "to build",
    "run": "to run the app",
    "migrate": "to migrate the database",
}
_ECOSYSTEM_NAMES = {
    "python": "Python",
    "javascript": "JavaScript/TypeScript",
    "go": "Go",
    "rust": "Rust",
    "jvm": "JVM",
    "dotnet": ".NET",
    "ruby": "Ruby",
    "php": "PHP",
    "elixir": "Elixir",
    "swift": "Swift",
    "c": "C/C++",
    "dart": "Dart",
    "zig": "Zig",
}
_HABIT_WORDING = {
    "test_runner": "Runs tests with {}.",
    "package_manager": "Uses {} as the package manager.",
    "formatter": "Formats code with {}.",
    "linter": "Lints with {}.",
    "type_checker": "Type-checks with {}.",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """A memory the evidence supports, before it becomes a candidate."""

    kind: str  # "recipe", "habit" or "fact"
    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    event_ids: tuple[str, ...]
    file_paths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One simple command of a run, as a user would type it, where it ran and what it is for."""

    run: CommandRun
    text: str
    scope: str
    use: CommandUse | None
    base: str
    tokens: tuple[str, ...]

    @property
    def program(self) -> str:
        return PurePosixPath(self.tokens[0]).name if self.tokens else ""

    @property
    def intent(self) -> tuple[str, ...]:
        """What the command tries to do, whatever its arguments: (`git`, `push`), (test, pytest)."""
        if self.use is not None and self.use.purpose in CHECK_PURPOSES:
            return (self.use.purpose, self.use.tool, self.scope)
        words = [t for t in self.tokens[1:] if not t.startswith("-")]
        return (self.program, words[0] if words else "", self.scope)


def attempts(runs: list[CommandRun], project_root: str) -> list[Attempt]:
    """Every simple command of `runs`, typed form and scope included, in order."""
    found: list[Attempt] = []
    root = project_root.rstrip("/")
    for run in runs:
        # A shell folder outside the project (another checkout of it, a symlinked path) says
        # nothing about where in the project the command ran: the root is assumed.
        inside = run.cwd is not None and (run.cwd == root or run.cwd.startswith(root + "/"))
        base = project_root if inside or run.cwd is None else run.cwd
        cwd = run.cwd if run.cwd is not None else project_root
        for typed in typed_commands(run.command, cwd=cwd, project_root=base):
            tokens = tuple(core_tokens(list(typed.words)))
            found.append(
                Attempt(run, typed.text, typed.scope, typed.use, command_base(typed.text), tokens)
            )
    return found


def command_base(text: str) -> str:
    """The stable head of a typed command: `uv run pytest test/x.py -v` → `uv run pytest`."""
    words: list[str] = []
    for token in text.split():
        if (words and words[-1] in {"python", "python3"} and token == "-m") or token in (  # noqa: S105
            "./...",
            "...",
        ):
            words.append(token)
            continue
        if (
            token.startswith(("-", "+", '"', "'"))
            or "/" in token
            or "::" in token
            or ("." in token.strip(".") and len(words) > 1 and not _is_task_word(token))
        ):
            break
        words.append(token)
        if len(words) >= 4:
            break
    return " ".join(words)


def _is_task_word(token: str) -> bool:
    """`ecto.migrate`, `phx.server`, `deps.get`: dotted task names, not file names."""
    head, _, tail = token.partition(".")
    return head.isidentifier() and tail.replace(".", "_").isidentifier() and "/" not in token


def main_ecosystem(found: list[Attempt], changed_paths: list[str]) -> str | None:
    """The ecosystem most of the work is in: commands run at the project root and files edited."""
    votes: dict[str, float] = {}
    for attempt in found:
        if attempt.use is None or attempt.use.ecosystem in _NEUTRAL_ECOSYSTEMS:
            continue
        weight = 1.0 if attempt.scope == "" else 0.25
        votes[attempt.use.ecosystem] = votes.get(attempt.use.ecosystem, 0.0) + weight
    for path in changed_paths:
        ecosystem = _EXTENSION_ECOSYSTEMS.get(PurePosixPath(path).suffix.lower())
        if ecosystem:
            votes[ecosystem] = votes.get(ecosystem, 0.0) + 1.0
    if not votes:
        return None
    return max(sorted(votes), key=lambda name: votes[name])


@dataclass(slots=True)
class _Group:
    purpose: str
    scope: str
    base: str
    ecosystem: str
    successes: int = 0
    weight: float = 0.0
    sessions: set[str] = field(default_factory=set)
    examples: Counter[str] = field(default_factory=Counter)
    event_ids: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.weight + 0.5 * len(self.sessions)


def _weight(when: datetime, newest: datetime) -> float:
    age_days = max(0.0, (newest - when).total_seconds() / 86_400)
    return float(0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS))


def recipes(found: list[Attempt], ecosystems: tuple[str, ...]) -> list[Finding]:
    """One recipe per purpose at the project root, plus scoped and other-ecosystem recipes.

    `ecosystems` are the project's main ones (the repository's language shares, else the
    commands' own mix); a root command of another ecosystem is not the project's recipe.
    """
    if not found:
        return []
    newest = max(a.run.timestamp for a in found)
    groups: dict[tuple[str, str, str], _Group] = {}
    for attempt in found:
        use = attempt.use
        if use is None or not attempt.run.ok or attempt.scope.startswith("/"):
            continue
        key = (use.purpose, attempt.scope, attempt.base)
        group = groups.setdefault(
            key, _Group(use.purpose, attempt.scope, attempt.base, use.ecosystem)
        )
        group.successes += 1
        group.weight += _weight(attempt.run.timestamp, newest)
        group.sessions.add(attempt.run.session_id or "")
        group.examples[attempt.text] += 1
        group.event_ids.append(attempt.run.event_id)
    chosen: dict[str, _Group] = {}
    main_test: _Group | None = None
    for group in sorted(groups.values(), key=lambda g: (-g.score, g.base)):
        foreign = (
            bool(ecosystems)
            and group.ecosystem not in _NEUTRAL_ECOSYSTEMS
            and group.ecosystem not in ecosystems
        )
        if group.scope:
            slot = f"recipe:{group.purpose}:{group.scope}"
        elif foreign:
            slot = f"recipe:{group.purpose}:{group.ecosystem}"
        else:
            slot = f"recipe:{group.purpose}"
            if group.purpose == "test" and main_test is None:
                main_test = group
        enough = (
            group.successes >= RECIPE_MIN_SUCCESSES.get(group.purpose, 2)
            or len(group.sessions) >= 2
        )
        if enough:
            chosen.setdefault(slot, group)
    findings = [_recipe_finding(slot, group) for slot, group in chosen.items()]
    # The fact only restates the test recipe's command: written when there is no such recipe.
    if main_test is not None and "recipe:test" not in chosen:
        findings.append(
            Finding(
                "fact",
                "test_command",
                f"Tests run with `{main_test.base}`.",
                ("testing", "command"),
                round(min(0.75, 0.45 + 0.05 * main_test.successes), 2),
                tuple(main_test.event_ids[-20:]),
            )
        )
    return findings


_ABSOLUTE_PATH = re.compile(r"""(?:^|[\s='"])(?:/(?!dev/null)[\w.-]|~/)""")


def _recipe_finding(slot: str, group: _Group) -> Finding:
    head = group.base
    # An example naming a path outside the project's folders (a home folder, another
    # checkout) is one machine's: it is not shown.
    examples = [(v, n) for v, n in group.examples.most_common() if not _ABSOLUTE_PATH.search(v)]
    top, top_count = examples[0] if examples else (head, 0)
    if top_count * 2 >= group.successes:
        head = top  # what the user types most of the time, flags included
    variants = [v for v, _ in examples if v not in (head, group.base)][:2]
    text = f"`{head}`" + (
        " (e.g. " + ", ".join(f"`{v}`" for v in variants) + ")" if variants else ""
    )
    wording = _PURPOSE_WORDING[group.purpose]
    parts = slot.split(":")
    if group.scope:
        content = f"In `{group.scope}/`, {wording}: {text}."
    elif len(parts) == 3:
        name = _ECOSYSTEM_NAMES.get(group.ecosystem, group.ecosystem)
        content = f"For the {name} part, {wording}: {text}."
    else:
        content = f"{wording[0].upper()}{wording[1:]}: {text}."
    sessions = len(group.sessions)
    if sessions >= 2:
        content = content[:-1] + f" (worked in {sessions} sessions)."
    importance = 0.4 + 0.04 * min(group.successes, 5) + 0.06 * min(sessions - 1, 4)
    if group.scope or len(parts) == 3:
        importance -= 0.1
    return Finding(
        "recipe",
        slot,
        content,
        ("recipe", group.purpose, group.ecosystem, *([group.scope] if group.scope else [])),
        round(min(0.8, importance), 3),
        tuple(group.event_ids[-20:]),
    )


def _tool_counts(found: list[Attempt]) -> dict[tuple[str, str], _ToolCount]:
    """How often each (category, tool) was used, in how many sessions, through which wrapper."""
    counts: dict[tuple[str, str], _ToolCount] = {}
    for attempt in found:
        manager = package_manager(attempt.text.split())
        seen: list[tuple[str, str]] = []
        if manager:
            seen.append(("package_manager", manager[0]))
        use = attempt.use
        if use and use.task is None and use.category in HABIT_CATEGORIES:
            seen.append((use.category, use.tool))
        for item in dict.fromkeys(seen):
            count = counts.setdefault(item, _ToolCount())
            wrapper = manager[0] if manager and item[0] != "package_manager" else ""
            count.wrappers[wrapper if wrapper != item[1] else ""] += 1
            count.sessions.add(attempt.run.session_id or "")
            count.event_ids.append(attempt.run.event_id)
    return counts


@dataclass(slots=True)
class _ToolCount:
    wrappers: Counter[str] = field(default_factory=Counter)
    sessions: set[str] = field(default_factory=set)
    event_ids: list[str] = field(default_factory=list)

    @property
    def uses(self) -> int:
        return sum(self.wrappers.values())


def _top_tools(
    counts: dict[tuple[str, str], _ToolCount], category: str
) -> list[tuple[str, _ToolCount]]:
    """The tools of `category` used at least `MIN_HABIT_COUNT` times, most widespread first."""
    return sorted(
        (
            (tool, count)
            for (cat, tool), count in counts.items()
            if cat == category and count.uses >= MIN_HABIT_COUNT
        ),
        key=lambda item: (-len(item[1].sessions), -item[1].uses, item[0]),
    )[:3]


def _importance(top: _ToolCount) -> float:
    spread = len(top.sessions)
    return round(min(0.8, 0.4 + 0.05 * (top.uses - MIN_HABIT_COUNT) + 0.05 * (spread - 1)), 3)


def habits(found: list[Attempt]) -> list[Finding]:
    """Tools the user runs again and again (test runner, linter, package manager …).

    Only commands the user typed count (`Attempt.run.by_user`): a habit is user_style, and
    only the user's own origins make user_style. What the assistant ran says how the project
    is driven: recipes and `package_manager_fact` carry that.
    """
    counts = _tool_counts([a for a in found if a.run.by_user])
    findings: list[Finding] = []
    for category in HABIT_CATEGORIES:
        tools = _top_tools(counts, category)
        if not tools:
            continue
        names = []
        for tool, count in tools:
            wrapper = next((w for w, _ in count.wrappers.most_common() if w), "")
            names.append(f"{tool} (through {wrapper})" if wrapper else tool)
        findings.append(
            Finding(
                "habit",
                f"pref:{category}",
                _HABIT_WORDING[category].format(" and ".join(names)),
                ("tooling", category, "typed", *(tool for tool, _ in tools)),
                _importance(tools[0][1]),
                tuple(e for _, count in tools for e in count.event_ids[-10:]),
            )
        )
    return findings


def package_manager_fact(found: list[Attempt]) -> Finding | None:
    """The package manager the project's commands go through (`uv run …`, `pnpm exec …`).

    A project fact, whoever ran the commands: it says how this project is driven. The other
    tool categories are the recipes' (`To run the tests: …`).
    """
    tools = _top_tools(_tool_counts(found), "package_manager")
    if not tools:
        return None
    names = " and ".join(tool for tool, _ in tools)
    plural = "s" if len(tools) > 1 else ""
    return Finding(
        "fact",
        "package_manager",
        f"Commands in this project run through {names}, its package manager{plural}.",
        ("tooling", "package_manager", *(tool for tool, _ in tools)),
        _importance(tools[0][1]),
        tuple(e for _, count in tools for e in count.event_ids[-10:]),
    )


def _is_commit(attempt: Attempt) -> bool:
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    return attempt.program == "git" and bool(words) and words[0] == "commit"


def _step(attempt: Attempt) -> str:
    """A check as a recipe step: its stable head, and its folder when not the root."""
    return f"`{attempt.base}` (in `{attempt.scope}/`)" if attempt.scope else f"`{attempt.base}`"


def _common_steps(sequences: list[list[str]]) -> list[str]:
    """Steps present in at least half of the sequences (two at least), in their usual order."""
    presence: Counter[str] = Counter()
    positions: dict[str, list[float]] = {}
    for sequence in sequences:
        for index, step in enumerate(sequence):
            presence[step] += 1
            positions.setdefault(step, []).append(index / max(1, len(sequence) - 1))
    needed = max(2, (len(sequences) + 1) // 2)
    steps = [s for s, n in presence.items() if n >= needed]
    return sorted(steps, key=lambda s: (sum(positions[s]) / len(positions[s]), s))


def quality_gate(found: list[Attempt], edit_times: list[datetime]) -> Finding | None:
    """The checks run (and passed) after the last edit before commits, in their usual order.

    With several commits, the steps seen before at least half of them; with one, its checks
    when there are two or more.
    """
    sequences: list[list[str]] = []
    ids: dict[str, list[str]] = {}
    window: list[Attempt] = []
    last_session: str | None = None
    for attempt in found:
        if attempt.run.session_id != last_session:
            window, last_session = [], attempt.run.session_id
        if _is_commit(attempt):
            if attempt.run.ok is not False:
                latest_edit = max(
                    (t for t in edit_times if t <= attempt.run.timestamp), default=None
                )
                checks = [
                    a
                    for a in window
                    if a.run.ok and (latest_edit is None or a.run.timestamp >= latest_edit)
                ]
                # Each check where it last ran: the final pass before the commit is the gate.
                last = {_step(a): i for i, a in enumerate(checks)}
                if last:
                    sequences.append(sorted(last, key=lambda step: last[step]))
                for a in checks:
                    ids.setdefault(_step(a), []).append(a.run.event_id)
            window = []
        elif (
            attempt.use is not None
            and attempt.use.purpose in CHECK_PURPOSES
            and not attempt.scope.startswith("/")
        ):
            window.append(attempt)
    if not sequences:
        return None
    steps = _common_steps(sequences) if len(sequences) >= 2 else sequences[0]
    if len(steps) < 2 and len(sequences) < 2:
        return None
    if not steps:
        return None
    times = sum(1 for seq in sequences if set(steps) <= set(seq))
    seen = f" (before {times} commits)" if times >= 2 else ""
    return Finding(
        "recipe",
        "recipe:verify",
        f"Before committing, run: {' → '.join(steps[:6])}{seen}.",
        ("recipe", "verify", "commit", "quality-gate"),
        round(min(0.8, 0.5 + 0.05 * times), 3),
        tuple(e for step in steps[:6] for e in ids.get(step, [])[-5:]),
    )


def finishing_checks(found: list[Attempt]) -> Finding | None:
    """Without commits: the longest run of passing checks with no failure in between."""
    streak: list[Attempt] = []
    best: list[Attempt] = []
    for attempt in found:
        use = attempt.use
        if use is not None and use.purpose in CHECK_PURPOSES and attempt.run.ok:
            streak.append(attempt)
        elif attempt.run.ok is False or use is not None:
            streak = []
        if len({a.use.purpose for a in streak if a.use}) > len(
            {a.use.purpose for a in best if a.use}
        ):
            best = list(streak)
    if len({a.use.purpose for a in best if a.use}) < 2:
        return None
    steps = list(dict.fromkeys(f"`{a.base}`" for a in best))
    return Finding(
        "recipe",
        "recipe:verify",
        f"Before finishing a change: {' → '.join(steps[:5])}.",
        ("recipe", "verify", *dict.fromkeys(a.use.purpose for a in best if a.use)),
        0.55,
        tuple(a.run.event_id for a in best),
    )


def _routine_step(attempt: Attempt) -> bool:
    if not attempt.base or attempt.program in _READ_ONLY or attempt.scope.startswith("/"):
        return False
    if attempt.use is not None and attempt.use.purpose in CHECK_PURPOSES:
        return False
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    return not (attempt.program == "git" and (not words or words[0] in _READ_ONLY_GIT))


def routine(found: list[Attempt], edit_times: list[datetime]) -> Finding | None:
    """Commands repeated after the last edit of several sessions (commit, push, deploy …)."""
    by_session: dict[str, list[Attempt]] = {}
    for attempt in found:
        by_session.setdefault(attempt.run.session_id or "", []).append(attempt)
    tails: list[list[Attempt]] = []
    for session_attempts in by_session.values():
        end = session_attempts[-1].run.timestamp
        start = session_attempts[0].run.timestamp
        last_edit = max((t for t in edit_times if start <= t <= end), default=None)
        tail = [
            a
            for a in session_attempts
            if a.run.ok is not False
            and _routine_step(a)
            and (last_edit is None or a.run.timestamp >= last_edit)
        ][-_ROUTINE_TAIL:]
        if tail:
            tails.append(tail)
    if len(tails) < 2:
        return None
    ids: dict[str, list[str]] = {}
    sequences: list[list[str]] = []
    for tail in tails:
        sequence = list(dict.fromkeys(f"`{a.base}`" for a in tail))
        sequences.append(sequence)
        for attempt in tail:
            ids.setdefault(f"`{attempt.base}`", []).append(attempt.run.event_id)
    steps = _common_steps(sequences)
    if not steps:
        return None
    sessions = min(sum(1 for seq in sequences if step in seq) for step in steps)
    return Finding(
        "recipe",
        "recipe:routine",
        f"At the end of a session: {' → '.join(steps[:5])} (done in {sessions} sessions).",
        ("recipe", "routine", "workflow"),
        round(min(0.7, 0.4 + 0.05 * sessions), 3),
        tuple(e for step in steps[:5] for e in ids[step][-5:]),
    )
