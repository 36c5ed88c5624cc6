"""The answer key's report: per-project rows and pooled totals as markdown tables, each split's
targets, the per-item details and the figures `python -m bench` records (docs/answer-key.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bench.answer_key_score import Score, high_by_kind, percent
from bench.common import Figure, markdown_table


@dataclass(frozen=True)
class Targets:
    """What a table of projects should reach (pooled)."""

    high: float  # at least this share of high-importance items covered
    noise: float  # at most this share of (wrong + junk) memories
    wrong: int | None = None  # at most this many wrong facts, when it is a target


TARGETS = {
    "tuning": Targets(high=0.60, noise=0.20),
    # Former fresh projects opened to study: what they were collected to show, the unseen bar.
    "dev": Targets(high=0.70, noise=0.10, wrong=0),
    # Held-out projects must show that the rules generalise: no wrong fact at all.
    "held-out": Targets(high=0.70, noise=0.10, wrong=0),
    # Fresh projects were collected after every rule of their time was written: the same bar.
    "fresh": Targets(high=0.70, noise=0.10, wrong=0),
}

TITLES = {
    "tuning": "tuning projects",
    "dev": "dev projects (collected fresh, judged once, then opened to study)",
    "held-out": "held-out projects (never tuned on)",
    "fresh": "fresh projects (collected after the rules; never tuned on)",
}
"""The heading of each split's table."""


@dataclass(frozen=True)
class Totals:
    """Pooled counts of a set of project scores."""

    events: int
    memories: int
    high_covered: int
    high_total: int
    all_covered: int
    all_total: int
    wrong: int
    junk: int
    duplicates: int
    hits: int
    questions: int
    hook_covered: int = 0
    hook_needed: int = 0
    hook_wrong: int = 0
    hook_junk: int = 0

    @property
    def noise(self) -> int:
        return self.wrong + self.junk


def pooled(scores: Sequence[Score], events: dict[str, int]) -> Totals:
    def total(attr: str) -> int:
        return sum(int(getattr(s, attr)) for s in scores)

    return Totals(
        events=sum(events.get(s.project, 0) for s in scores),
        memories=total("memories"),
        high_covered=total("high_covered"),
        high_total=total("high_total"),
        all_covered=total("all_covered"),
        all_total=total("all_total"),
        wrong=total("wrong"),
        junk=total("junk"),
        duplicates=total("duplicates"),
        hits=total("hits"),
        questions=total("questions"),
        hook_covered=sum(len(s.hook.covered) for s in scores if s.hook),
        hook_needed=sum(len(s.hook.needed) for s in scores if s.hook),
        hook_wrong=sum(len(s.hook.wrong) for s in scores if s.hook),
        hook_junk=sum(len(s.hook.junk) for s in scores if s.hook),
    )


HEAD = (
    "project",
    "language",
    "events",
    "memories",
    "high covered",
    "all covered",
    "wrong facts",
    "noise (wrong+junk)",
    "duplicates",
    "recall@5",
)


HOOK_HEAD = (
    "session start: needed items",
    "session start: wrong lines",
    "session start: junk lines",
)


def _row(name: str, language: str, t: Totals, hook: bool) -> tuple[str, ...]:
    extra = (
        (f"{t.hook_covered}/{t.hook_needed}", str(t.hook_wrong), str(t.hook_junk)) if hook else ()
    )
    return (
        name,
        language,
        str(t.events),
        str(t.memories),
        f"{t.high_covered}/{t.high_total} {percent(t.high_covered, t.high_total)}",
        f"{t.all_covered}/{t.all_total} {percent(t.all_covered, t.all_total)}",
        str(t.wrong),
        f"{t.wrong}+{t.junk}/{t.memories} {percent(t.noise, t.memories)}",
        str(t.duplicates),
        f"{t.hits}/{t.questions} {percent(t.hits, t.questions)}",
        *extra,
    )


def table(scores: list[Score], events: dict[str, int]) -> str:
    """One row per project and the pooled row, as a markdown table (with the session-start
    columns when the hook's text was measured)."""
    hook = any(s.hook is not None for s in scores)
    head = (*HEAD, *HOOK_HEAD) if hook else HEAD
    rows = [_row(s.project, s.language, pooled([s], events), hook) for s in scores]
    rows.append(_row("all (pooled)", "", pooled(scores, events), hook))
    return markdown_table(head, rows)


def targets(scores: list[Score], split: str = "tuning") -> str:
    """Whether the pooled scores meet the targets of their split."""
    goal = TARGETS[split]
    t = pooled(scores, {})
    high_ok = t.high_total > 0 and t.high_covered / t.high_total >= goal.high
    noise_ok = t.memories == 0 or t.noise / t.memories <= goal.noise
    parts = [
        f"high-importance coverage >= {goal.high:.0%}: {'met' if high_ok else 'NOT met'} "
        f"({percent(t.high_covered, t.high_total)})"
    ]
    if goal.wrong is not None:
        wrong_ok = t.wrong <= goal.wrong
        parts.append(f"wrong facts <= {goal.wrong}: {'met' if wrong_ok else 'NOT met'} ({t.wrong})")
    parts.append(
        f"noise <= {goal.noise:.0%}: {'met' if noise_ok else 'NOT met'} "
        f"({percent(t.noise, t.memories)})"
    )
    if any(s.hook is not None for s in scores):
        hook_ok = t.hook_covered == t.hook_needed and t.hook_wrong == 0
        parts.append(
            "session-start text states the test command and top preference, no wrong fact: "
            f"{'met' if hook_ok else 'NOT met'} ({t.hook_covered}/{t.hook_needed} items, "
            f"{t.hook_wrong} wrong lines)"
        )
    return "targets: " + "; ".join(parts)


def by_split(scores: list[Score]) -> dict[str, list[Score]]:
    """The scores of each split that has any, tuning first."""
    out: dict[str, list[Score]] = {}
    for split in TARGETS:
        chosen = [s for s in scores if s.split == split]
        if chosen:
            out[split] = chosen
    return out


def tables(scores: list[Score], events: dict[str, int]) -> str:
    """The tuning, held-out and fresh projects' tables, apart, each with its pooled row and its
    targets."""
    out = []
    for split, chosen in by_split(scores).items():
        out.append(
            f"### {TITLES[split]}\n\n{table(chosen, events)}\n\n{targets(chosen, split)}\n"
            f"{high_by_kind(chosen)}"
        )
    return "\n\n".join(out)


def details(result: Score) -> str:
    out = [f"\n### {result.project}"]
    out.append("missed gold items:")
    out += [f"  - [{i.importance}/{i.kind}] {i.id}: {i.note}" for i in result.missed] or ["  none"]
    bad = [v for v in result.verdicts if not v.usable]
    out.append("judged wrong or junk:")
    out += [
        f"  - {'WRONG ' + v.wrong if v.wrong else 'JUNK ' + v.junk}: [{v.memory.kind}] "
        f"{v.memory.content}"
        for v in bad
    ] or ["  none"]
    out.append("duplicates (earlier <- duplicate):")
    out += [
        f"  - [{a.kind}] {a.content[:90]}  <-  {b.content[:90]}" for a, b in result.duplicate_pairs
    ] or ["  none"]
    unmatched = [v for v in result.verdicts if v.usable and not v.matched]
    out.append("matched no gold item (neither counted as noise nor as coverage; check by hand):")
    out += [f"  - [{v.memory.kind}] {v.memory.content}" for v in unmatched] or ["  none"]
    out.append("questions:")
    out += [f"  - {'hit ' if hit else 'MISS'} {q.text}" for q, hit in result.question_hits]
    if result.hook is not None:
        out.append("session-start text:")
        out += [f"  - MISSING {i}" for i in result.hook.missing]
        out += [f"  - WRONG {line}" for line in result.hook.wrong]
        out += [f"  - JUNK {line}" for line in result.hook.junk]
        if not result.hook.missing and not result.hook.wrong and not result.hook.junk:
            out.append(f"  - states every needed item ({len(result.hook.needed)}), nothing wrong")
    return "\n".join(out)


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def figures(scores: list[Score]) -> list[Figure]:
    """The pooled figures for `python -m bench` (section `answer-key`), one set per split: the
    tuning projects', and apart the held-out and the fresh projects'."""
    out: list[Figure] = []
    for split, chosen in by_split(scores).items():
        prefix = f"{split}: "
        t = pooled(chosen, {})
        note = f"{len(chosen)} projects, rules extractor"
        out += [
            Figure(
                "answer-key",
                f"{prefix}high-importance gold covered",
                _ratio(t.high_covered, t.high_total),
                "ratio",
                note,
            ),
            Figure(
                "answer-key",
                f"{prefix}all gold covered",
                _ratio(t.all_covered, t.all_total),
                "ratio",
            ),
            Figure("answer-key", f"{prefix}wrong facts", t.wrong, "memories"),
            Figure(
                "answer-key", f"{prefix}noise (wrong + junk)", _ratio(t.noise, t.memories), "ratio"
            ),
            Figure("answer-key", f"{prefix}duplicates", t.duplicates, "memories"),
            Figure(
                "answer-key", f"{prefix}recall@5 of questions", _ratio(t.hits, t.questions), "ratio"
            ),
        ]
    return out
