"""Recipes: the command that succeeded most often and most recently for a purpose, per folder.

A command of the same purpose that passed over the whole project after the winner's last
success replaces it (the project moved on, `recency.moved_on`); when both kept passing after
each other, the recipe names both. A command run as a repair (`recoveries`: right after a run
of the same program failed, with nothing edited between) is that failure's fix, not the way
the project is built or set up: it adds to a recipe only beside ordinary runs of the same
command, and never becomes one alone. A gate task that runs the tests among other checks
(`./gradlew check`, `make check`) is the test command only when nothing that runs just the
tests is one; else it is a recipe of its own (`recipe:gate`, "To run the checks"). A task whose
name narrows its purpose to one thing (`scripts/build-bundle.sh`, `make build-docker`, `npm run
test:e2e`) does that part of the job: a command of the same purpose that is not narrowed takes
the slot first, and a later run of the narrowed task does not replace it. A test run that
passed with words that select tests added to a run that failed before it in the session
(`cabal test` failed, `cabal test unit` passed) ran a part of what failed: it is no recipe,
nor the test command's fact."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from squirrel_core.command_table import CommandUse, task_purpose
from squirrel_core.commands import runs_a_gate
from squirrel_memory.extractors.evidence.attempts import (
    CHECK_PURPOSES,
    NEUTRAL_ECOSYSTEMS,
    Attempt,
    Finding,
)
from squirrel_memory.extractors.evidence.command_picks import (
    FORMAT_CHECK,
    PACKAGE_PURPOSES,
    looks_only,
    package_template,
    picks_packages_below_root,
    whole_run,
)
from squirrel_memory.extractors.evidence.recency import Passes, moved_on
from squirrel_memory.extractors.evidence.recipe_forms import migration_template
from squirrel_memory.extractors.evidence.recipe_wording import GATE_SLOT, recipe_finding
from squirrel_memory.extractors.retries import names_argument

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
    "docs": 1,
    "release": 1,
    "deploy": 1,
}
#: Purposes whose command is a recipe after one whole run that the command's last run did not
#: undo by failing: the words said the role, the run said it works (one session is enough).
_ONE_RUN_PURPOSES = frozenset(
    {"test", "lint", "format", "typecheck", "build", "docs", "release", "deploy"}
)
#: Checks that are a recipe after one whole-project pass following a change.
_CHANGE_CHECKS = frozenset({"lint", "format", "typecheck"})
#: Half-life of a success's weight, in days before the newest command of the evidence.
RECENCY_HALF_LIFE_DAYS = 30.0


@dataclass(slots=True)
class RecipeGroup:
    """The successful runs of one command for one purpose in one folder, weighed."""

    purpose: str
    scope: str
    base: str
    ecosystem: str
    successes: int = 0
    weight: float = 0.0
    sessions: set[str] = field(default_factory=set)
    examples: Counter[str] = field(default_factory=Counter)
    event_ids: list[str] = field(default_factory=list)
    #: A success ran over the whole project after a file changed: the change was checked.
    checked_change: bool = False
    #: A success ran the command whole: no file, folder or test picked.
    whole_run: bool = False
    #: When the command passed, and how its last run ended.
    passes: Passes = field(default_factory=Passes)
    #: The command is a task whose name narrows its purpose to one thing (`build-bundle`).
    narrowed: bool = False

    @property
    def score(self) -> float:
        return self.weight + 0.5 * len(self.sessions)


def narrowed_task(use: CommandUse) -> bool:
    """Whether a task's name says its purpose and then what of it (`build-bundle`,
    `build:web`, `test:e2e`): it does that part of the job, not the whole."""
    if not use.task:
        return False
    parts = [part for part in _TASK_PARTS.split(use.task.lower()) if part]
    return len(parts) > 1 and task_purpose(parts[0]) == use.purpose


#: What splits a task's name into its parts (`build-bundle`, `test:e2e`, `lint_fix`).
_TASK_PARTS = re.compile(r"[:._\-/]")


def _gate(group: RecipeGroup) -> bool:
    """Whether a test group's command runs a gate task (more than the tests)."""
    return group.purpose == "test" and runs_a_gate(group.base)


def _only_checks_format(group: RecipeGroup) -> bool:
    """Whether a format group's command only checks the formatting (`--check`, `--test`)."""
    return group.purpose == "format" and bool(FORMAT_CHECK.search(f" {group.base} "))


def _weight(when: datetime, newest: datetime) -> float:
    age_days = max(0.0, (newest - when).total_seconds() / 86_400)
    return float(0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS))


def recoveries(found: list[Attempt], edit_times: Sequence[datetime] = ()) -> set[int]:
    """The indexes in `found` of the commands run as a repair: passed right after the previous
    run of their session failed, that run had the same program but not this command (`meson
    setup --wipe build` after `meson setup --reconfigure build` failed; `npm ci` after `npm
    install` failed), and no file changed between. A check is not one (a test run given what
    it needs passes as the check); nor is the failed command run again, a run after an edit
    (the change fixed it), or one whose option later runs of its program are given again."""
    found_at: set[int] = set()
    current: dict[str | None, tuple[str, list[Attempt]]] = {}
    previous: dict[str | None, list[Attempt]] = {}
    for n in sorted(range(len(found)), key=lambda i: found[i].run.timestamp):
        attempt = found[n]
        session = attempt.run.session_id
        event_id, parts = current.get(session, ("", []))
        if event_id != attempt.run.event_id:
            if parts:
                previous[session] = parts
            current[session] = (attempt.run.event_id, [attempt])
        else:
            parts.append(attempt)
        before = previous.get(session)
        use = attempt.use
        if (
            not before
            or not attempt.run.ok
            or use is None
            or use.purpose in CHECK_PURPOSES
            or before[0].run.ok is not False
        ):
            continue
        failed_at = before[0].run.timestamp
        if any(failed_at < t < attempt.run.timestamp for t in edit_times):
            continue
        programs = {b.program for b in before} | {_typed_program(b) for b in before}
        same = attempt.program in programs or _typed_program(attempt) in programs
        if same and attempt.text not in {b.text for b in before}:
            given = {w for b in before for w in b.text.split()}
            if not _option_kept(found, n, given):
                found_at.add(n)
    return found_at


def narrowed_after_failure(found: list[Attempt]) -> set[int]:
    """The indexes in `found` of the test runs that passed with words that select tests added
    to a run that failed before them in their session (`cabal test`, then `cabal test unit`;
    `rebar3 eunit`, then `rebar3 eunit --module=m`), or that picked tests after a whole run
    failed (`sbt test`, then `sbt "testOnly *Spec"`): a part of the run that failed passed;
    no way to run the tests. (`cargo test --features x` after `cargo test` failed selects no
    test: the feature was the fix.)"""
    parts: set[int] = set()
    failed = [
        a
        for a in found
        if a.run.ok is False and a.use is not None and a.use.purpose in CHECK_PURPOSES
    ]
    for n, attempt in enumerate(found):
        use = attempt.use
        if not attempt.run.ok or use is None or use.purpose not in CHECK_PURPOSES:
            continue
        for before in failed:
            if (
                before.run.session_id != attempt.run.session_id
                or before.run.timestamp >= attempt.run.timestamp
                or before.scope != attempt.scope
                or before.use is None
                or before.use.purpose != use.purpose
            ):
                continue
            if use.purpose != "test" or before.program != attempt.program:
                continue
            if names_argument(before.run.output, before.tokens[1:]):
                continue  # the error was about its own argument (`pattern ./...: …`)
            size = len(before.tokens)
            longer = len(attempt.tokens) > size and attempt.tokens[:size] == before.tokens
            if (longer and selects(attempt.tokens[size:])) or (
                whole_run(before) and not whole_run(attempt)
            ):
                parts.add(n)
                break
    return parts


#: Parts of an option's name that say it selects tests (`--module=m`, `--match X`,
#: `--suite=s`, `--tests '*Spec'`): the run is narrowed to what it names.
_SELECTING = frozenset(
    {"module", "suite", "case", "group", "match", "filter", "only", "tests", "pattern"}
    | {"grep", "focus", "spec", "class", "method", "name", "tag", "tags", "exclude", "skip"}
)
_WHOLE_PROJECT = frozenset({".", "./...", "..."})


def selects(words: Sequence[str]) -> bool:
    """Whether the words a test run was given beyond another's select tests: a target of its
    own (`cabal test unit`; not an option's value, not `./...`), or an option, also inside a
    quoted value passed on (`--ta '--match Parser'`), whose name says it selects."""
    after_option = False
    for word in words:
        if word == "--":
            after_option = False
            continue
        if word.startswith("-"):
            after_option = "=" not in word
        elif not after_option and word not in _WHOLE_PROJECT:
            return True
        else:
            after_option = False
        for part in word.strip("'\"").split():
            if part.startswith("-"):
                name = part.lstrip("-").split("=", 1)[0].lower()
                if name in _SELECTING or re.split(r"[-_.]", name)[0] in _SELECTING:
                    return True  # `--match`, `--exclude-tag`; not `--enable-tests`
    return False


def _option_kept(found: list[Attempt], n: int, given: set[str]) -> bool:
    """Whether an option the repair at `n` added to the failed run (`given`: its words) is
    given again to a later run of its program (`cabal build --allow-newer`, then `cabal test
    --allow-newer`): a standing need of the project, not a one-time repair."""
    repair = found[n]
    options = {w for w in repair.text.split() if w.startswith("-")} - given
    programs = {repair.program, _typed_program(repair)}
    return any(
        a.run.timestamp > repair.run.timestamp
        and a.run.event_id != repair.run.event_id
        and (a.program in programs or _typed_program(a) in programs)
        and options.intersection(a.text.split())
        for a in found
    )


def _typed_program(attempt: Attempt) -> str:
    """The program as typed, before any runner it starts (`uv` of `uv run pytest`)."""
    word = next((w for w in attempt.text.split() if "=" not in w), "")
    return word.rsplit("/", 1)[-1]


def recipes(
    found: list[Attempt],
    ecosystems: tuple[str, ...],
    first_edits: Mapping[str | None, datetime] | None = None,
    edit_times: Sequence[datetime] = (),
) -> list[Finding]:
    """One recipe per purpose at the project root, plus scoped and other-ecosystem recipes.

    `ecosystems` are the project's main ones (the repository's language shares, else the
    commands' own mix); a root command of another ecosystem is not the project's recipe.
    A check (lint, format, type-check) that passed once is a recipe when it ran over the whole
    project after a file changed in its session (`first_edits`: the first change of each
    session): it checked the change, as a rerun would. Any command whose words say a role
    (test, lint, format, type-check, build, docs, release, deploy) is a recipe after one whole
    run (no file or test picked) when its last run did not fail: a command that failed and
    was replaced, or only ever ran on one file, is not. A repair (`recoveries`, given the
    times files changed, `edit_times`) counts only for a command also run in ordinary work,
    and is never shown as its example.
    """
    if not found:
        return []
    newest = max(a.run.timestamp for a in found)
    groups: dict[tuple[str, str, str], RecipeGroup] = {}
    #: When each command passed, and how its last run with a known outcome ended.
    passes: dict[tuple[str, str, str], Passes] = {}
    repairs = recoveries(found, edit_times)
    parts = narrowed_after_failure(found)
    repaired: list[tuple[tuple[str, str, str], Attempt]] = []
    for n, attempt in enumerate(found):
        use = attempt.use
        if use is None or attempt.scope.startswith("/") or looks_only(attempt.text):
            continue
        if n in parts:
            continue  # a part of a run that failed: it shows no way to run them all
        key = (use.purpose, attempt.scope, attempt.base)
        whole = whole_run(attempt)
        command_passes = passes.setdefault(key, Passes())
        ok = attempt.run.ok and not attempt.ran_no_test
        command_passes.add(attempt.run.timestamp, ok, whole=whole)
        if not ok:
            continue
        if n in repairs:
            repaired.append((key, attempt))
            continue
        group = groups.setdefault(
            key,
            RecipeGroup(
                use.purpose,
                attempt.scope,
                attempt.base,
                use.ecosystem,
                passes=command_passes,
                narrowed=narrowed_task(use),
            ),
        )
        group.successes += 1
        group.weight += _weight(attempt.run.timestamp, newest)
        group.sessions.add(attempt.run.session_id or "")
        group.examples[attempt.text] += 1
        group.event_ids.append(attempt.run.event_id)
        group.whole_run = group.whole_run or whole
        first_edit = (first_edits or {}).get(attempt.run.session_id)
        if first_edit is not None and attempt.run.timestamp > first_edit and whole:
            group.checked_change = True
    for key, attempt in repaired:  # it worked, but said by the ordinary runs' own words
        repaired_group = groups.get(key)
        if repaired_group is not None:
            repaired_group.successes += 1
            repaired_group.weight += _weight(attempt.run.timestamp, newest)
            repaired_group.sessions.add(attempt.run.session_id or "")
            repaired_group.event_ids.append(attempt.run.event_id)
    chosen: dict[str, RecipeGroup] = {}
    rivals: dict[str, list[RecipeGroup]] = {}
    main_test: RecipeGroup | None = None
    # A gate task (`./gradlew check`, `make check`) runs more than the tests: a command that
    # runs only the tests takes the test slot first, and the gate then has its own.
    # A formatter that writes (`vendor/bin/pint`) is the format recipe before its check-only
    # form (`vendor/bin/pint --test`), however often the check ran: "to format" runs it.
    for group in sorted(
        groups.values(),
        key=lambda g: (_gate(g), _only_checks_format(g), g.narrowed, -g.score, g.base),
    ):
        foreign = (
            bool(ecosystems)
            and group.ecosystem not in NEUTRAL_ECOSYSTEMS
            and group.ecosystem not in ecosystems
        )
        # A migration generator creates a migration; it has its own slot beside applying them.
        role = "new_migration" if _creates_migration(group) else group.purpose
        if group.scope:
            slot = f"recipe:{role}:{group.scope}"
        elif foreign:
            slot = f"recipe:{role}:{group.ecosystem}"
        else:
            slot = f"recipe:{role}"
            if group.purpose == "test" and main_test is None:
                main_test = group
        enough = (
            group.successes >= RECIPE_MIN_SUCCESSES.get(group.purpose, 2)
            or len(group.sessions) >= 2
            or (group.purpose in _CHANGE_CHECKS and group.checked_change)
            or (
                group.purpose in _ONE_RUN_PURPOSES
                and group.whole_run
                and bool(group.passes.ended_ok)
            )
        )
        if _gate(group) and slot in chosen and not _gate(chosen[slot]):
            slot = slot.replace("recipe:test", GATE_SLOT, 1)
        if enough:
            chosen.setdefault(slot, group)
        rivals.setdefault(slot, []).append(group)
    findings = [
        f
        for slot, group in chosen.items()
        if (f := _newest_recipe(slot, _across_packages(group, rivals[slot]), rivals[slot]))
        is not None
    ]
    # The fact only restates the test recipe's command: written when there is no such recipe.
    if main_test is not None and "recipe:test" not in chosen:
        findings.append(
            Finding(
                "fact",
                "test_command",
                # `go test ./internal/zone` only: one package's tests, not the project's
                f"Tests of one package run with `{main_test.base}`."
                if picks_packages_below_root(main_test.base)
                else f"Tests run with `{main_test.base}`.",
                ("testing", "command"),
                round(min(0.75, 0.45 + 0.05 * main_test.successes), 2),
                tuple(main_test.event_ids[-20:]),
            )
        )
    return findings


def _across_packages(winner: RecipeGroup, rivals: list[RecipeGroup]) -> RecipeGroup:
    """`winner` with the rivals of its slot that run the same command in another package
    (`pnpm --filter web test` beside `pnpm --filter api test`): one command with the package
    left open, said with all their runs, rather than one package's run as the project's."""
    if winner.purpose not in PACKAGE_PURPOSES:
        return winner
    same = [
        g
        for g in rivals
        if g is not winner and g.successes and package_template([winner.base, g.base])
    ]
    if same and not package_template([winner.base, *(g.base for g in same)]):
        same = []  # they differ in more than the package
    if not same:
        return winner
    bases = [winner.base, *(g.base for g in same)]
    merged = replace(
        winner,
        base=package_template(bases) or winner.base,
        sessions=set(winner.sessions),
        examples=Counter(winner.examples),
        event_ids=list(winner.event_ids),
    )
    for group in same:
        merged.successes += group.successes
        merged.weight += group.weight
        merged.sessions |= group.sessions
        merged.examples.update(group.examples)
        merged.event_ids.extend(group.event_ids)
        merged.whole_run = merged.whole_run or group.whole_run
    return merged


def _newest_recipe(slot: str, winner: RecipeGroup, rivals: list[RecipeGroup]) -> Finding | None:
    """The slot's recipe, unless the project moved on from it (`recency.moved_on`): then the
    command that replaced the winner is the recipe (None when one such run is too little to
    say it); if both passed again after each other, both are in use and the recipe names both.
    """
    # A narrowed task run later did part of the job; it did not replace the whole command.
    later = moved_on(
        winner.passes, ((g, g.passes) for g in rivals if winner.narrowed or not g.narrowed)
    )
    if later is None:
        return recipe_finding(slot, winner)
    newer = later.newer
    if later.replaced:
        replaced = (
            newer.successes >= RECIPE_MIN_SUCCESSES.get(newer.purpose, 2)
            or len(newer.sessions) >= 2
            or newer.purpose in _ONE_RUN_PURPOSES
        )
        return recipe_finding(slot, newer) if replaced else None
    found = recipe_finding(slot, newer)
    content = found.content[:-1] + f"; `{winner.base}` also passes here, both in use."
    ids = tuple(dict.fromkeys((*found.event_ids, *winner.event_ids[-5:])))
    return replace(found, content=content, event_ids=ids)


def _creates_migration(group: RecipeGroup) -> bool:
    """Whether the group's runs create a migration rather than apply them."""
    return group.purpose == "migrate" and any(migration_template(v) for v in group.examples)
