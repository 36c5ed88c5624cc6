"""The user's habits across sessions, as a new user's sessions show them: found, missed, wrong.

Each made-up user of `bench/habits_recurring_cases.py` and `bench/habits_recurring_reworded.py`
(several sessions each) goes alone into its own project through the real pipeline (the offline
`rules` extractor, as `bench.answer_key` runs it). A habit is **found** when one user_style memory
matches all of its patterns, **in start** when one line of the text the session-start hook injects
does, and **wrong** when a user_style memory states it wrong (matches one of its `wrong` patterns)
or states what the user's case lists as not a habit (a request made once, an instruction about one
task, a pasted document). A **tentative** memory (an instruction said once, kept low until it comes
back in another session, never in the start text) that would be wrong is counted apart, as
`tentative`: it claims no habit yet, but a later session saying it again would make it one. The
table gives each user's row, then totals per shape (`repeated`, `handover`, `actions`, `one-off`);
with --details, every user_style memory kept, with its importance.

Usage: python -m bench.habits_recurring [--user NAME ...] [--details]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench import case_runs, fixture_pipeline
from bench.habits_recurring_cases import SHAPES, USERS, Habit, User
from bench.habits_recurring_reworded import REWORDED
from bench.study_runs import memories_of
from squirrel.v1 import memory_pb2
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging
from squirrel_memory.extractors.firmness import TENTATIVE_TAG

_FLAGS = re.IGNORECASE


def states(patterns: Sequence[str], text: str) -> bool:
    """Whether `text` matches every one of `patterns` (case-insensitive regexes)."""
    return bool(patterns) and all(re.search(p, text, _FLAGS) for p in patterns)


def best_weight(styles: Sequence[tuple[float, str]], patterns: Sequence[str]) -> float | None:
    """The importance of the best memory of `styles` that states `patterns`, or None."""
    weights = [w for w, text in styles if states(patterns, text)]
    return max(weights) if weights else None


def in_start_text(start_text: str, patterns: Sequence[str]) -> bool:
    """Whether one line of the session-start text states `patterns`."""
    return any(states(patterns, line) for line in start_text.splitlines())


#: What one case kept: its user_style memories (importance, text), best first, the text the
#: session-start hook injects, and the texts of the tentative ones among the memories.
Kept = tuple[list[tuple[float, str]], str, set[str]]


def styles_and_start(cases: Sequence[case_runs.Case]) -> dict[str, Kept]:
    """Runs every case's sessions through one memory service; what each case kept."""
    kept: dict[str, Kept] = {}

    async def inspect(client: MemoryClient, name: str, project_id: str, _events: int) -> None:
        memories = await memories_of(client, project_id)
        styles = sorted(
            (
                (m.importance, m.content)
                for m in memories
                if m.type == memory_pb2.MEMORY_TYPE_USER_STYLE
            ),
            reverse=True,
        )
        host = next(sessions for n, sessions in cases if n == name)[0].host
        start = await fixture_pipeline.session_start_text(
            client, project_id, "codex" if host.startswith("codex") else host
        )
        tentative = {
            m.content
            for m in memories
            if m.type == memory_pb2.MEMORY_TYPE_USER_STYLE and TENTATIVE_TAG in m.tags
        }
        kept[name] = (styles, start, tentative)

    case_runs.run_cases(cases, inspect)
    return kept


@dataclass
class Outcome:
    """What the pipeline kept for one user: user_style memories (importance, text), start text."""

    user: User
    styles: list[tuple[float, str]] = field(default_factory=list)
    #: The texts of the tentative ones among `styles`.
    tentative: set[str] = field(default_factory=set)
    start_text: str = ""

    def found(self, habit: Habit) -> float | None:
        """The importance of the best memory that states `habit`, or None."""
        return best_weight(self.styles, habit.states)

    def in_start(self, habit: Habit) -> bool:
        """Whether one line of the session-start text states `habit`."""
        return in_start_text(self.start_text, habit.states)

    def wrong(self, *, tentative: bool = False) -> list[str]:
        """User_style memories that state a habit wrong or state a one-off as a habit: the
        firm ones, or with `tentative` the tentative ones."""
        out = []
        for _, text in self.styles:
            if (text in self.tentative) is not tentative:
                continue
            stated = any(states(h.states, text) for h in self.user.habits)
            bad = any(any(re.search(p, text, _FLAGS) for p in h.wrong) for h in self.user.habits)
            kept = not stated and any(re.search(p, text, _FLAGS) for p in self.user.must_not)
            if bad or kept:
                out.append(text)
        return out


def measure(users: Sequence[User]) -> list[Outcome]:
    """Runs every user's sessions through one memory service; one Outcome per user."""
    kept = styles_and_start([(u.name, u.sessions) for u in users])
    outcomes = []
    for u in users:
        styles, start, tentative = kept[u.name]
        outcomes.append(Outcome(u, styles, tentative, start))
    return outcomes


def report(outcomes: Sequence[Outcome], details: bool = False) -> str:
    """The per-user table, totals per shape and, with `details`, every user_style memory."""
    lines = [
        "| user | shape | ecosystem | habits | found | in start | top weight | wrong |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    totals = {shape: [0, 0, 0, 0, 0, 0] for shape in SHAPES}
    notes: list[str] = []
    for o in outcomes:
        u = o.user
        weights = [o.found(h) for h in u.habits]
        found = sum(w is not None for w in weights)
        started = sum(o.in_start(h) for h in u.habits)
        wrong = len(o.wrong())
        top = max((w for w in weights if w is not None), default=None)
        shown = f"{top:.2f}" if top is not None else "-"
        lines.append(
            f"| {u.name} | {u.shape} | {u.ecosystem} | {len(u.habits)} | {found} | {started} "
            f"| {shown} | {wrong} |"
        )
        row = totals[u.shape]
        row[0] += 1
        row[1] += len(u.habits)
        row[2] += found
        row[3] += started
        row[4] += wrong
        row[5] += len(o.wrong(tentative=True))
        if details:
            notes.append(f"\n## {u.name} ({u.shape})")
            for habit, weight in zip(u.habits, weights, strict=True):
                mark = "found" if weight is not None else "MISSED"
                start = ", in start" if o.in_start(habit) else ""
                notes.append(f"- [{mark}{start}] {habit.note}")
            bad = set(o.wrong())
            kept_low = set(o.wrong(tentative=True))
            notes.extend(
                f"- [{'WRONG' if text in bad else 'tentative' if text in kept_low else 'style'}] "
                f"({w:.2f}) {text}"
                for w, text in o.styles
            )
    lines.append("")
    for shape, (users, habits, found, started, wrong, waiting) in totals.items():
        if users:
            habit_part = (
                f"habits {habits}: found {found}, missed {habits - found}, in start {started}; "
                if habits
                else ""
            )
            lines.append(f"{shape}: users {users}; {habit_part}wrong {wrong}, tentative {waiting}")
    all_habits = sum(t[1] for t in totals.values())
    lines.append(
        f"total: habits {all_habits}: found {sum(t[2] for t in totals.values())}, "
        f"in start {sum(t[3] for t in totals.values())}; "
        f"wrong {sum(t[4] for t in totals.values())}, "
        f"tentative {sum(t[5] for t in totals.values())}"
    )
    return "\n".join(lines + notes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--user", action="append", default=[], help="run only this user")
    parser.add_argument("--details", action="store_true", help="every user_style memory kept")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    users = [u for u in USERS + REWORDED if not args.user or u.name in args.user]
    if not users:
        print(f"no user named {', '.join(args.user)}", file=sys.stderr)
        return 2
    print(report(measure(users), details=args.details))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
