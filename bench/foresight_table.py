"""The foresight replay's table and figures: one row per project, pooled totals first, and the
answer key's held-out projects (never tuned on) pooled into one row of their own unless asked."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.answer_key_gold import load_keys
from bench.common import Figure, markdown_table
from bench.foresight_score import Tally, share

SECTION = "foresight"


@dataclass(slots=True)
class ProjectResult:
    """What one project's replay gave: its sessions, events, memories and the scored tally."""

    name: str
    sessions: int
    events: int
    memories: int
    tally: Tally
    #: The scored sessions apart: those `--details` may show (`foresight_split.studied`), and
    #: the others, shown only as figures.
    studied: Tally = field(default_factory=Tally)
    unstudied: Tally = field(default_factory=Tally)


HEAD = (
    "project",
    "sessions scored",
    "memories",
    "needs met",
    "failures warned",
    "fix right",
    "recipes served",
    "instructions served",
    "start: test command",
    "start: a preference",
    "tokens/start",
    "tokens/prompt",
    "prompts answered",
    "not answered: had it/below the cut/other",
    "served: used/missed/contradicted/unused",
    "noise",
    "by prompts: used/missed/contradicted/unused",
    "prompt noise",
)


def _row(name: str, sessions: str, memories: str, t: Tally) -> tuple[str, ...]:
    scored = t.sessions
    starts = t.starts or scored
    return (
        name,
        sessions,
        memories,
        share(*needs(t)),
        share(t.warned, t.failures),
        share(t.fix_right, t.failures),
        share(t.recipes_served, t.recipes),
        share(t.instructions_served, t.instructions),
        share(t.start_tests_served, t.start_tests),
        share(t.start_prefs_served, t.start_prefs),
        f"{t.start_tokens / starts:.0f}" if starts else "n/a",
        f"{t.prompt_tokens / t.prompts:.0f}" if t.prompts else "n/a",
        share(t.prompt_answers, t.prompts),
        f"{t.prompt_had}/{t.prompt_below}/{_other(t)}",
        f"{t.served}: {t.used}/{t.missed}/{t.contradicted}/{t.unused}",
        share(t.unused, t.served),
        f"{t.prompt_served}: {t.prompt_used}/{t.prompt_missed}/{t.prompt_contradicted}/"
        f"{t.prompt_unused}",
        share(t.prompt_unused, t.prompt_served),
    )


def needs(t: Tally) -> tuple[int, int]:
    """(met, all) over the five kinds of need a session is scored on: its recurring failures
    (warned), the commands it re-ran (served before first use), the instructions it repeated
    (served before), and its start's two musts (the test command, a preference) where earlier
    sessions hold them. The `sessions scored` column is no need: it counts the sessions scored
    (each project's first, and a subagent's own transcript, are not)."""
    met = t.warned + t.recipes_served + t.instructions_served
    met += t.start_tests_served + t.start_prefs_served
    return met, t.failures + t.recipes + t.instructions + t.start_tests + t.start_prefs


def _other(t: Tally) -> int:
    """The prompts given nothing that no memory held relates to (`Tally.prompt_had` and
    `Tally.prompt_below` apart): extraction kept nothing for them, or they needed nothing."""
    return t.prompts - t.prompt_answers - t.prompt_had - t.prompt_below


def pooled(results: Sequence[ProjectResult]) -> Tally:
    total = Tally()
    for result in results:
        total.add(result.tally)
    return total


def pooled_part(results: Sequence[ProjectResult], part: str) -> Tally:
    """The `studied` or `unstudied` sessions of every result, pooled."""
    total = Tally()
    for result in results:
        total.add(getattr(result, part))
    return total


def held_out_projects() -> frozenset[str]:
    """The fixture projects the answer key holds out (never tuned on), by their replay names."""
    return frozenset(k.project for k in load_keys() if k.split == "held-out")


def is_held_out(name: str, held_out: frozenset[str]) -> bool:
    """Whether a replayed project (`codex:` prefixed for Codex sessions) is held out."""
    return name.removeprefix("codex:") in held_out


def shown(
    results: Sequence[ProjectResult], held_out: frozenset[str] = frozenset()
) -> list[ProjectResult]:
    """The results shown one by one: every project not in `held_out`."""
    return [r for r in results if not is_held_out(r.name, held_out)]


def _pooled_row(name: str, results: Sequence[ProjectResult]) -> tuple[str, ...]:
    total = pooled(results)
    return _row(name, f"{total.sessions}/{sum(r.sessions for r in results)}", "", total)


def table(results: Sequence[ProjectResult], held_out: frozenset[str] = frozenset()) -> str:
    """Pooled figures first, then one row per project; the projects in `held_out` only as one
    pooled row of their own (after the rest)."""
    own = shown(results, held_out)
    hidden = [r for r in results if r not in own]
    rows = [_pooled_row("all (pooled)", results)]
    if any(r.studied.sessions or r.unstudied.sessions for r in results):
        studied, unstudied = pooled_part(results, "studied"), pooled_part(results, "unstudied")
        rows.append(_row("studied sessions (pooled)", str(studied.sessions), "", studied))
        rows.append(_row("unstudied sessions (pooled)", str(unstudied.sessions), "", unstudied))
    rows += [
        _row(r.name, f"{r.tally.sessions}/{r.sessions}", str(r.memories), r.tally) for r in own
    ]
    if hidden:
        rows.append(_pooled_row(f"held-out projects ({len(hidden)}, pooled)", hidden))
    return markdown_table(HEAD, rows)


def figures(results: Sequence[ProjectResult], project: str = "") -> list[Figure]:
    """The pooled figures for `python -m bench` (section `foresight`); with `project`, that
    project's alone (measures prefixed with its name)."""
    t = pooled([r for r in results if r.name == project] if project else results)
    found = _figures(t, f"{len(results)} projects, {t.sessions} sessions scored, rules extractor")
    if not project:
        for part in ("studied", "unstudied"):
            own = pooled_part(results, part)
            if own.sessions:
                found += [
                    dataclasses.replace(f, measure=f"{part} sessions: {f.measure}", note="")
                    for f in _figures(own, "")
                ]
        return found
    return [dataclasses.replace(f, measure=f"{project}: {f.measure}", note="") for f in found]


def _figures(t: Tally, note: str) -> list[Figure]:
    """The figures of one tally (`note` on the first)."""

    def ratio(part: int, whole: int) -> float:
        return part / whole if whole else float("nan")

    met, wanted = needs(t)
    return [
        Figure(SECTION, "needs met (the five kinds below, pooled)", ratio(met, wanted), "ratio",
               f"{met}/{wanted}; {note}"),
        Figure(SECTION, "failures warned (recurring errors)", ratio(t.warned, t.failures),
               "ratio", f"{t.warned}/{t.failures}"),
        Figure(SECTION, "failures with the working fix served", ratio(t.fix_right, t.failures),
               "ratio", f"{t.fix_right}/{t.failures}"),
        Figure(SECTION, "recipes served before first use", ratio(t.recipes_served, t.recipes),
               "ratio", f"{t.recipes_served}/{t.recipes}"),
        Figure(SECTION, "repeated instructions served",
               ratio(t.instructions_served, t.instructions), "ratio",
               f"{t.instructions_served}/{t.instructions}"),
        Figure(SECTION, "session starts with the test command", ratio(t.start_tests_served,
               t.start_tests), "ratio", f"{t.start_tests_served}/{t.start_tests}"),
        Figure(SECTION, "session starts with a preference", ratio(t.start_prefs_served,
               t.start_prefs), "ratio", f"{t.start_prefs_served}/{t.start_prefs}"),
        Figure(SECTION, "tokens injected at session start", ratio(t.start_tokens, t.sessions),
               "tokens", "mean per scored session"),
        Figure(SECTION, "tokens injected per prompt", ratio(t.prompt_tokens, t.prompts),
               "tokens", f"mean over {t.prompts} prompts, abstentions as 0"),
        Figure(SECTION, "prompts answered", ratio(t.prompt_answers, t.prompts), "ratio",
               f"{t.prompt_answers}/{t.prompts}"),
        Figure(SECTION, "prompts not answered: the session had the memory already",
               ratio(t.prompt_had, t.prompts), "ratio", f"{t.prompt_had}/{t.prompts}"),
        Figure(SECTION, "prompts not answered: a memory it then used below the cut",
               ratio(t.prompt_below, t.prompts), "ratio", f"{t.prompt_below}/{t.prompts}"),
        Figure(SECTION, "served items unused (noise)", ratio(t.unused, t.served),
               "ratio", f"{t.unused}/{t.served}"),
        Figure(SECTION, "served items used", ratio(t.used, t.served), "ratio",
               f"{t.used}/{t.served}"),
        Figure(SECTION, "items served by prompts unused (prompt noise)",
               ratio(t.prompt_unused, t.prompt_served), "ratio",
               f"{t.prompt_unused}/{t.prompt_served}"),
        Figure(SECTION, "items served by prompts used", ratio(t.prompt_used, t.prompt_served),
               "ratio", f"{t.prompt_used}/{t.prompt_served}"),
        Figure(SECTION, "served items missed or contradicted",
               ratio(t.missed + t.contradicted, t.served), "ratio",
               f"missed {t.missed}, contradicted {t.contradicted} of {t.served}"),
    ]  # fmt: skip
