"""Recipes: the command that succeeded most often and most recently for a purpose, per folder.

A command of the same purpose that passed over the whole project after the winner's last
success replaces it (the project moved on); when both kept passing after each other, the
recipe names both."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from squirrel_memory.extractors.evidence.attempts import NEUTRAL_ECOSYSTEMS, Attempt, Finding

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
_PURPOSE_WORDING = {
    "test": "to run the tests",
    "lint": "to lint",
    "format": "to format",
    "typecheck": "to type-check",
    "install": "to install dependencies",
    "build": "to build",
    "run": "to run the app",
    "migrate": "to migrate the database",
    "docs": "to build the documentation",
    "release": "to release",
    "deploy": "to deploy",
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
    "haskell": "Haskell",
    "gleam": "Gleam",
    "ocaml": "OCaml",
    "erlang": "Erlang",
    "clojure": "Clojure",
    "r": "R",
    "julia": "Julia",
    "lua": "Lua",
    "perl": "Perl",
    "nix": "Nix",
    "terraform": "Terraform",
    "docs": "documentation site",
}


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
    #: A success ran over the whole project after a file changed: the change was checked.
    checked_change: bool = False
    #: A success ran the command whole: no file, folder or test picked.
    whole_run: bool = False
    #: The newest success, and the first and newest whole-project successes.
    last_ok: datetime | None = None
    first_whole_ok: datetime | None = None
    last_whole_ok: datetime | None = None

    @property
    def score(self) -> float:
        return self.weight + 0.5 * len(self.sessions)


def _weight(when: datetime, newest: datetime) -> float:
    age_days = max(0.0, (newest - when).total_seconds() / 86_400)
    return float(0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS))


def recipes(
    found: list[Attempt],
    ecosystems: tuple[str, ...],
    first_edits: Mapping[str | None, datetime] | None = None,
) -> list[Finding]:
    """One recipe per purpose at the project root, plus scoped and other-ecosystem recipes.

    `ecosystems` are the project's main ones (the repository's language shares, else the
    commands' own mix); a root command of another ecosystem is not the project's recipe.
    A check (lint, format, type-check) that passed once is a recipe when it ran over the whole
    project after a file changed in its session (`first_edits`: the first change of each
    session): it checked the change, as a rerun would. Any command whose words say a role
    (test, lint, format, type-check, build, docs, release, deploy) is a recipe after one whole
    run (no file or test picked) when its last run did not fail: a command that failed and
    was replaced, or only ever ran on one file, is not.
    """
    if not found:
        return []
    newest = max(a.run.timestamp for a in found)
    groups: dict[tuple[str, str, str], _Group] = {}
    #: How each command's last run with a known outcome ended, success or failure.
    ended_ok: dict[tuple[str, str, str], bool] = {}
    for attempt in found:
        use = attempt.use
        if use is None or attempt.scope.startswith("/") or looks_only(attempt.text):
            continue
        key = (use.purpose, attempt.scope, attempt.base)
        if attempt.run.ok is not None:
            ended_ok[key] = attempt.run.ok
        if not attempt.run.ok:
            continue
        group = groups.setdefault(
            key, _Group(use.purpose, attempt.scope, attempt.base, use.ecosystem)
        )
        group.successes += 1
        group.weight += _weight(attempt.run.timestamp, newest)
        group.sessions.add(attempt.run.session_id or "")
        group.examples[attempt.text] += 1
        group.event_ids.append(attempt.run.event_id)
        whole = not picks_tests(attempt.text, attempt.base) and not _MARKER_PICK.search(
            attempt.text.removeprefix(attempt.base)
        )
        group.whole_run = group.whole_run or whole
        group.last_ok = max(group.last_ok or attempt.run.timestamp, attempt.run.timestamp)
        if whole:
            group.first_whole_ok = min(
                group.first_whole_ok or attempt.run.timestamp, attempt.run.timestamp
            )
            group.last_whole_ok = max(
                group.last_whole_ok or attempt.run.timestamp, attempt.run.timestamp
            )
        first_edit = (first_edits or {}).get(attempt.run.session_id)
        if first_edit is not None and attempt.run.timestamp > first_edit and whole:
            group.checked_change = True
    chosen: dict[str, _Group] = {}
    rivals: dict[str, list[_Group]] = {}
    main_test: _Group | None = None
    for key, group in sorted(groups.items(), key=lambda kv: (-kv[1].score, kv[1].base)):
        foreign = (
            bool(ecosystems)
            and group.ecosystem not in NEUTRAL_ECOSYSTEMS
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
            or (group.purpose in _CHANGE_CHECKS and group.checked_change)
            or (group.purpose in _ONE_RUN_PURPOSES and group.whole_run and ended_ok[key])
        )
        if enough:
            chosen.setdefault(slot, group)
        if group.last_whole_ok is not None and ended_ok[key]:
            rivals.setdefault(slot, []).append(group)
    findings = [
        f
        for slot, group in chosen.items()
        if (f := _newest_recipe(slot, group, rivals.get(slot, []))) is not None
    ]
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


#: Options that only show what a program is (`cargo run -- --help`): a look, never a run.
_LOOKS = frozenset({"-h", "--help", "-help", "--version", "-V", "--usage"})


def looks_only(command: str) -> bool:
    """Whether a command only asks a program for its help or version."""
    return bool(_LOOKS.intersection(command.split()[1:]))


_ABSOLUTE_PATH = re.compile(r"""(?:^|[\s='"])(?:/(?!dev/null)[\w.-]|~/)""")
#: Options that pick some tests by name, in the runners of many ecosystems.
_TEST_PICKERS = frozenset(
    {"-t", "-k", "-run", "--run", "--grep", "-g", "--filter", "--testNamePattern", "--tests"}
)


_MARKER_PICK = re.compile(r"\s-m[\s=]+\S")


def picks_tests(command: str, base: str) -> bool:
    """Whether a test command runs only some tests: after its `base`, a file, a folder, a
    `file::test` or a by-name option (`-k`, `-t`, `-run`, `--filter` …). The project's test
    command is the one without them; such a run is an example."""
    for token in command.removeprefix(base).split():
        word = token.split("=", 1)[0]
        if word in _TEST_PICKERS or "::" in token or "/" in token:
            return True
        if not token.startswith("-") and re.search(r"\.\w{1,5}$", token):
            return True
    return False


def _newest_recipe(slot: str, winner: _Group, rivals: list[_Group]) -> Finding | None:
    """The slot's recipe, unless another command of its purpose, in the same folder, passed
    over the whole project after the winner's last success and did not fail after: then that
    command replaced the winner, and is the recipe (None when one such run is too little to
    say it); if both passed again after each other, both are in use and the recipe names both.
    """
    last = winner.last_ok
    later = [
        (g.last_whole_ok, g)
        for g in rivals
        if g is not winner and last and g.last_whole_ok and g.last_whole_ok > last
    ]
    if not later or last is None:
        return _recipe_finding(slot, winner)
    newer = max(later, key=lambda pair: pair[0])[1]
    first = newer.first_whole_ok
    if first is not None and first > last:
        replaced = (
            newer.successes >= RECIPE_MIN_SUCCESSES.get(newer.purpose, 2)
            or len(newer.sessions) >= 2
            or newer.purpose in _ONE_RUN_PURPOSES
        )
        return _recipe_finding(slot, newer) if replaced else None
    found = _recipe_finding(slot, newer)
    content = found.content[:-1] + f"; `{winner.base}` also passes here, both in use."
    ids = tuple(dict.fromkeys((*found.event_ids, *winner.event_ids[-5:])))
    return replace(found, content=content, event_ids=ids)


def _recipe_finding(slot: str, group: _Group) -> Finding:
    head = group.base
    # An example naming a path outside the project's folders (a home folder, another
    # checkout) after its head is one machine's: it is not shown. A path in the head (a
    # container's own folder, `-w /app`) is shown with the head whichever is chosen.
    examples = [
        (v, n)
        for v, n in group.examples.most_common()
        if not _ABSOLUTE_PATH.search(v.removeprefix(group.base))
    ]
    top, top_count = examples[0] if examples else (head, 0)
    if top_count * 2 >= group.successes and not (
        group.purpose == "test" and head and picks_tests(top, head)
    ):
        head = top  # what the user types most of the time, flags included (not a selection)
    # A run that selects tests by marker (`-m "not slow"`) names a set the project defines,
    # worth showing before a run of one file or test.
    variants = sorted(
        (v for v, _ in examples if v not in (head, group.base)),
        key=lambda v: not _MARKER_PICK.search(v.removeprefix(group.base)),
    )[:2]
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
    elif group.purpose == "test":
        importance = max(importance, 0.5)  # the project's test command, as its fact had
    return Finding(
        "recipe",
        slot,
        content,
        ("recipe", group.purpose, group.ecosystem, *([group.scope] if group.scope else [])),
        round(min(0.8, importance), 3),
        tuple(group.event_ids[-20:]),
    )
