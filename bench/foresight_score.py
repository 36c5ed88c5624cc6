"""Scoring for the foresight replay: what one session did, and what the memory served it foresaw.

Everything here is pure: a session's events (as the memory service stores them) are read with the
extractors' own readers (`activity.commands`, `evidence.attempts`, `fixes.find_pitfalls`,
`preferences.stated_preferences`), so a failure, a command and an instruction are recognised
exactly as extraction recognises them:

- a **failure** is a `find_pitfalls` pitfall of the session; its identity is the memory key its
  error signature gets (`fingerprint_key`), the key a pitfall memory of it carries;
- a **recipe use** is a command with a known purpose (`classify_command`: test, lint, format,
  typecheck, build, migrate, run, install) that succeeded; its identity is `command_base`;
- an **instruction** is a preference `stated_preferences` reads in a user message (a correction
  or a rule); its identity is its `pref:` key.

A session is scored against the sessions before it (`History`) and the injections it received
(`Injected`: the session-start answer, then one per prompt, each with the items it showed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from squirrel_gateway.hook_context import Served
from squirrel_memory.models import StoredEvent
from squirrel_memory.outcomes.verdict import (
    Failure,
    Outcome,
    ServedMemory,
    SessionActivity,
    advice_of,
    outcome_of,
    session_activity,
    stated_commands,
)

#: How much of a fix command must be found in a pitfall's text (memories clip long commands).
_FIX_CHARS = 60

SessionFacts = SessionActivity
"""What a session did (`squirrel_memory.outcomes`: failures, commands, instructions, files)."""


@dataclass(frozen=True, slots=True)
class CommandUse:
    """The first successful run in the session of a command with a known purpose."""

    at: datetime
    base: str
    purpose: str


def session_facts(session_id: str, events: Sequence[StoredEvent], root: str) -> SessionFacts:
    """The prompts, failures, commands, instructions and files of one session."""
    return session_activity(session_id, events, root)


def first_uses(facts: SessionFacts) -> list[CommandUse]:
    """The first successful run of each command with a known purpose, in order."""
    uses: dict[str, CommandUse] = {}
    for run in facts.runs:
        if run.ok and run.purpose and run.base:
            uses.setdefault(run.base, CommandUse(run.at, run.base, run.purpose))
    return list(uses.values())


# -- what earlier sessions did -------------------------------------------------------------------


@dataclass(slots=True)
class History:
    """What the sessions before the scored one did: error keys, commands, instruction keys."""

    failure_keys: set[str] = field(default_factory=set)
    command_bases: set[str] = field(default_factory=set)
    instruction_keys: set[str] = field(default_factory=set)
    #: Whether an earlier session ran the tests and they passed (a test command is known).
    tested: bool = False

    def add(self, facts: SessionFacts) -> None:
        self.failure_keys.update(f.key for f in facts.failures)
        self.command_bases.update(u.base for u in first_uses(facts))
        self.instruction_keys.update(i.key for i in facts.instructions)
        self.tested = self.tested or any(u.purpose == "test" for u in first_uses(facts))


# -- what the session was served -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Injected:
    """One hook answer: at session start (`at` None) or for the prompt sent at `at`."""

    at: datetime | None
    tokens: int
    served: tuple[Served, ...]
    #: The prompt answered ("" at session start) and the text injected, for --details.
    prompt: str = ""
    text: str = ""
    #: For --details, when nothing was served: the best search hits and their score and reason.
    near: tuple[tuple[Served, str], ...] = ()
    #: A session start asked again at `at`: the host cleared the context (`/clear`).
    restart: bool = False
    #: The relevant items a prompt's answer left out because the session already had them.
    had: tuple[Served, ...] = ()

    def before(self, moment: datetime, *, strictly: bool = False) -> bool:
        """Whether the session had this answer by `moment`."""
        if self.at is None:
            return True
        return self.at < moment if strictly else self.at <= moment


def recommended_commands(item: Served, root: str = "") -> set[str]:
    """The command bases a served item gives as a way to do something: a pitfall's failed
    command and its error are not (`X` failed with `E`), its remedy after them is."""
    return {stated.base for stated in stated_commands(advice_of(item.type, item.content), root)}


def gives_test_command(item: Served, root: str = "") -> bool:
    """Whether a served item gives a command that runs the tests as a way to run them (not the
    command a pitfall says failed)."""
    stated = stated_commands(advice_of(item.type, item.content), root)
    return any(s.purpose == "test" for s in stated)


def fix_stated(item: Served, failure: Failure) -> bool:
    """Whether a pitfall's text states the fix that worked for `failure` this time."""
    if failure.fix is None:
        return False
    text = " ".join(item.content.split())
    if failure.fix in ("variant", "setup"):
        wanted = " ".join(failure.fix_command.split())[:_FIX_CHARS]
        return bool(wanted) and wanted in text
    if failure.fix == "folder":
        return bool(failure.fix_command) and f"`{failure.fix_command[:_FIX_CHARS]}" in text
    return any(path in text for path in failure.files)


# -- the score -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    """Counts for one session or many (added up)."""

    sessions: int = 0
    #: Session-start answers: one per session, and one more per `/clear` (a fresh context).
    starts: int = 0
    failures: int = 0
    warned: int = 0
    fix_right: int = 0
    recipes: int = 0
    recipes_served: int = 0
    instructions: int = 0
    instructions_served: int = 0
    #: Session starts after a session whose tests ran and passed, and those that gave a test
    #: command; starts after a session where the user stated a rule or correction, and those
    #: that gave a preference of the user (the start text's two musts, where sessions hold them).
    start_tests: int = 0
    start_tests_served: int = 0
    start_prefs: int = 0
    start_prefs_served: int = 0
    start_tokens: int = 0
    prompts: int = 0
    prompt_tokens: int = 0
    prompt_answers: int = 0
    served: int = 0
    used: int = 0
    missed: int = 0
    contradicted: int = 0
    unused: int = 0
    #: The items of `served` first served by a prompt's answer (not a session start nor a
    #: start after `/clear`), and what became of them: the per-prompt context's own record.
    prompt_served: int = 0
    prompt_used: int = 0
    prompt_missed: int = 0
    prompt_contradicted: int = 0
    prompt_unused: int = 0
    #: The prompts given nothing (`prompts - prompt_answers`) apart: those whose relevant
    #: memories the session already had (its start or an earlier prompt gave them), and of the
    #: rest those one of whose best search hits (`Injected.near`), given to the session by no
    #: earlier answer, it would then have used: relevant memory the selection left out.
    prompt_had: int = 0
    prompt_below: int = 0
    misses: list[str] = field(default_factory=list)
    noise: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            if name in ("misses", "noise", "answers"):
                getattr(self, name).extend(getattr(other, name))
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))


def score_session(
    facts: SessionFacts,
    history: History,
    start: Injected,
    prompts: Sequence[Injected],
    root: str = "",
    files: Mapping[str, tuple[str, ...]] | None = None,
) -> Tally:
    """Scores one session against the sessions before it and what it was served; `prompts`
    may hold session starts asked again (`Injected.restart`: after `/clear`), which count as
    starts, not prompts. `files` gives the files each memory holds, by id (a module memory is
    judged by them, as the memory service judges it: `outcome_of`)."""
    files = files or {}
    answers = [start, *prompts]
    asked = [p for p in prompts if not p.restart]
    restarts = [p for p in prompts if p.restart]
    tally = Tally(
        sessions=1,
        starts=1 + len(restarts),
        start_tokens=start.tokens + sum(r.tokens for r in restarts),
        prompts=len(asked),
        prompt_tokens=sum(p.tokens for p in asked),
        prompt_answers=sum(1 for p in asked if p.served),
    )
    if history.tested:
        tally.start_tests = 1
        if any(gives_test_command(item, root) for item in start.served):
            tally.start_tests_served = 1
        else:
            tally.misses.append(f"{facts.session_id} start without a test command")
    if history.instruction_keys:
        tally.start_prefs = 1
        if any(item.type == "user_style" for item in start.served):
            tally.start_prefs_served = 1
        else:
            tally.misses.append(f"{facts.session_id} start without a preference")
    seen: set[str] = set()
    for failure in facts.failures:
        if failure.key not in history.failure_keys or failure.key in seen:
            continue
        seen.add(failure.key)
        tally.failures += 1
        warnings = [
            item
            for answer in answers
            if answer.before(failure.at)
            for item in answer.served
            if item.type == "pitfall" and item.key in failure.keys
        ]
        if warnings:
            tally.warned += 1
            if any(fix_stated(item, failure) for item in warnings):
                tally.fix_right += 1
        else:
            tally.misses.append(f"{facts.session_id} failure not warned: {failure.key}")
    for use in first_uses(facts):
        if use.base not in history.command_bases:
            continue
        tally.recipes += 1
        if any(
            use.base in recommended_commands(item, root)
            for answer in answers
            if answer.before(use.at)
            for item in answer.served
        ):
            tally.recipes_served += 1
        else:
            tally.misses.append(f"{facts.session_id} command not served: {use.base}")
    said: set[str] = set()
    for instruction in facts.instructions:
        if instruction.key not in history.instruction_keys or instruction.key in said:
            continue
        said.add(instruction.key)
        tally.instructions += 1
        if any(
            item.type == "user_style" and item.key == instruction.key
            for answer in answers
            if answer.before(instruction.at, strictly=True)
            for item in answer.served
        ):
            tally.instructions_served += 1
        else:
            tally.misses.append(f"{facts.session_id} instruction not served: {instruction.key}")
    # One item per memory text (a brief's fact line has no key where the task context's has),
    # at its first serving: the answers are in the order served.
    first: dict[tuple[str, str], ServedMemory] = {}
    by_prompt: set[tuple[str, str]] = set()
    outcomes: dict[tuple[str, str], Outcome] = {}
    for answer in answers:
        for item in answer.served:
            text = (item.type, " ".join(item.content.split()))
            if text not in first and answer.at is not None and not answer.restart:
                by_prompt.add(text)
            memory = ServedMemory(
                item.type, item.key, item.content, answer.at, files.get(item.memory_id, ())
            )
            first.setdefault(text, memory)
    tally.served = len(first)
    tally.prompt_served = len(by_prompt)
    for text, memory in first.items():
        result = outcome_of(memory, facts, root)
        setattr(tally, result.value, getattr(tally, result.value) + 1)
        if text in by_prompt:
            name = f"prompt_{result.value}"
            setattr(tally, name, getattr(tally, name) + 1)
        outcomes[text] = result
        if result is Outcome.UNUSED:
            tally.noise.append(
                f"{facts.session_id} [{memory.type}] {' '.join(memory.content.split())}"
            )
    tally.prompt_had, tally.prompt_below = unanswered(facts, answers, root, files)
    tally.answers = answer_lines(facts, answers, outcomes, root, files)
    return tally


def unanswered(
    facts: SessionFacts,
    answers: Sequence[Injected],
    root: str = "",
    files: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[int, int]:
    """(had, below): of the prompts among `answers` that were given nothing, those whose
    relevant memories the session already had (`Injected.had`), and of the others those with a
    search hit below the cut (`Injected.near`) that no earlier answer gave and the session would
    then have used (`outcome_of`, from the prompt on)."""
    files = files or {}
    had = below = 0
    given: set[str] = set()
    for answer in answers:
        if answer.at is not None and not answer.restart and not answer.served:
            if answer.had:
                had += 1
            elif any(
                item.memory_id not in given
                and " ".join(item.content.split()) not in given
                and outcome_of(
                    ServedMemory(
                        item.type, item.key, item.content, answer.at, files.get(item.memory_id, ())
                    ),
                    facts,
                    root,
                )
                is Outcome.USED
                for item, _ in answer.near
            ):
                below += 1
        for item in answer.served:
            given.update(mark for mark in (item.memory_id, " ".join(item.content.split())) if mark)
    return had, below


_WHY = " — why: "


def _why(item: Served, text: str) -> str:
    """The reason an answer's text gives for `item`: the task context's line that shows it
    (`- [pitfall] <its text> — why: …`), not another item's line that quotes its opening
    words (a recipe quoting the command a pitfall opens with)."""
    head = " ".join(item.content.split())[:40]
    shown = f"[{item.type}] {head}"
    for line in text.splitlines():
        if head and shown in " ".join(line.split()) and _WHY in line:
            return line.rpartition(_WHY)[2]
    return ""


def answer_lines(
    facts: SessionFacts,
    answers: Sequence[Injected],
    outcomes: dict[tuple[str, str], Outcome],
    root: str = "",
    files: Mapping[str, tuple[str, ...]] | None = None,
) -> list[str]:
    """For --details: each answer of the session (the start, then each prompt, clipped), the
    items it showed with their outcome and reason (for an unanswered prompt, the best search
    hits below the cut and what their outcome would have been, and the relevant items it left
    out because the session already had them), then what the session touched and ran."""
    lines = [f"{facts.session_id}"]
    for answer in answers:
        said = " ".join(answer.prompt.split())[:100]
        kind = "start" if answer.at is None else "restart" if answer.restart else "prompt"
        lines.append(f"  {kind}: {said!r} {answer.tokens} t")
        for item in answer.served:
            flat = " ".join(item.content.split())
            outcome = outcomes.get((item.type, flat), Outcome.UNUSED)
            why = _why(item, answer.text)
            reason = f" — why: {why}" if why else ""
            lines.append(f"    {outcome.value:>12} [{item.type}] {flat[:90]}{reason}")
        for item in answer.had:
            flat = " ".join(item.content.split())
            lines.append(f"    had already: [{item.type}] {flat[:90]}")
        for item, why in answer.near:
            flat = " ".join(item.content.split())
            files_of = (files or {}).get(item.memory_id, ())
            memory = ServedMemory(item.type, item.key, item.content, answer.at, files_of)
            would = outcome_of(memory, facts, root)
            lines.append(f"    below: {would.value} [{item.type}] {flat[:70]} — {why}")
    touched = sorted(facts.touched)
    lines.append(f"  touched ({len(touched)}): {', '.join(touched[:25])}")
    ran = sorted({r.base for r in facts.runs if r.base})
    lines.append(f"  ran ({len(ran)}): {', '.join(ran[:25])}")
    return lines


def share(part: int, whole: int) -> str:
    """`part/whole NN %`, or `0/0 n/a`."""
    if whole == 0:
        return "0/0 n/a"
    return f"{part}/{whole} {100 * part / whole:.0f} %"
