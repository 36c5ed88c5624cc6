"""Recipes: the command that succeeded most often and most recently for a purpose, per folder.

A command of the same purpose that passed over the whole project after the winner's last
success replaces it (the project moved on, `recency.moved_on`); when both kept passing after
each other, the recipe names both. A command run as a repair (`recoveries`: right after a run
of the same program failed, with nothing edited between) is that failure's fix, not the way
the project is built or set up: it adds to a recipe only beside ordinary runs of the same
command, and never becomes one alone. A gate task that runs the tests among other checks
(`./gradlew check`, `make check`) is the test command only when nothing that runs just the
tests is one; else it is a recipe of its own (`recipe:gate`, "To run the checks")."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from squirrel_core.commands import runs_a_gate
from squirrel_memory.extractors.evidence.attempts import (
    CHECK_PURPOSES,
    NEUTRAL_ECOSYSTEMS,
    Attempt,
    Finding,
)
from squirrel_memory.extractors.evidence.recency import Passes, moved_on
from squirrel_memory.extractors.evidence.recipe_forms import migration_template, several_tasks

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
#: A gate task run for the tests (`mix precommit`, `make check`, `just ci`): said as what it is.
_GATE_WORDING = "to run the checks"
#: The slot of a gate task when a command running only the tests holds the test slot.
GATE_SLOT = "recipe:gate"
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
    #: When the command passed, and how its last run ended.
    passes: Passes = field(default_factory=Passes)

    @property
    def score(self) -> float:
        return self.weight + 0.5 * len(self.sessions)


def _gate(group: _Group) -> bool:
    """Whether a test group's command runs a gate task (more than the tests)."""
    return group.purpose == "test" and runs_a_gate(group.base)


#: Options that make a formatter only check (or list) what it would change.
_FORMAT_CHECK = re.compile(
    r"\s(?:--check\S*|--diff|-l|--list\S*|--dry-run|--test|--verify-no-changes)(?:\s|=|$)"
)


def _only_checks_format(group: _Group) -> bool:
    """Whether a format group's command only checks the formatting (`--check`, `--test`)."""
    return group.purpose == "format" and bool(_FORMAT_CHECK.search(f" {group.base} "))


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
    groups: dict[tuple[str, str, str], _Group] = {}
    #: When each command passed, and how its last run with a known outcome ended.
    passes: dict[tuple[str, str, str], Passes] = {}
    repairs = recoveries(found, edit_times)
    repaired: list[tuple[tuple[str, str, str], Attempt]] = []
    for n, attempt in enumerate(found):
        use = attempt.use
        if use is None or attempt.scope.startswith("/") or looks_only(attempt.text):
            continue
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
            _Group(use.purpose, attempt.scope, attempt.base, use.ecosystem, passes=command_passes),
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
    chosen: dict[str, _Group] = {}
    rivals: dict[str, list[_Group]] = {}
    main_test: _Group | None = None
    # A gate task (`./gradlew check`, `make check`) runs more than the tests: a command that
    # runs only the tests takes the test slot first, and the gate then has its own.
    # A formatter that writes (`vendor/bin/pint`) is the format recipe before its check-only
    # form (`vendor/bin/pint --test`), however often the check ran: "to format" runs it.
    for group in sorted(
        groups.values(), key=lambda g: (_gate(g), _only_checks_format(g), -g.score, g.base)
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
#: Options that pick some tests by name, in the runners of many ecosystems (Maven's Surefire
#: and Failsafe take theirs as system properties: `-Dtest=InvoiceTest`, `-Dit.test=…`).
TEST_PICKERS = frozenset(
    {"-t", "-k", "-run", "--run", "--grep", "-g", "--filter", "--testNamePattern", "--tests"}
    | {"-Dtest", "-Dit.test"}
)


_MARKER_PICK = re.compile(r"\s-m[\s=]+\S")


def whole_run(attempt: Attempt) -> bool:
    """Whether a run ran its command whole: no file, folder or test picked, no marker set."""
    return not picks_tests(attempt.text, attempt.base) and not _MARKER_PICK.search(
        attempt.text.removeprefix(attempt.base)
    )


def picks_tests(command: str, base: str) -> bool:
    """Whether a test command runs only some tests: after its `base`, a file, a folder, a
    `file::test` or a by-name option (`-k`, `-t`, `-run`, `--filter` …). The project's test
    command is the one without them; such a run is an example. A configuration file in the
    project's root given to an option (`-p tsconfig.json`, `-c phpunit.xml`, `--config-file
    mypy.ini`, `--manifest-path=Cargo.toml`) says how the whole project is checked, and picks
    nothing."""
    after_option = False
    for token in command.removeprefix(base).split():
        word, equals, value = token.partition("=")
        if word in TEST_PICKERS or "::" in token:
            return True
        if token.startswith("-"):
            after_option = not equals
            if equals and "/" in value and not _CONFIG_FILE.fullmatch(value):
                return True
            continue
        if after_option and _CONFIG_FILE.fullmatch(token):
            after_option = False
            continue
        after_option = False
        if token in ("./...", "..."):
            continue  # every package of the module: the whole project
        if "/" in token or re.search(r"\.\w{1,5}$", token):
            return True
    return False


#: A configuration file of the project's root, by the formats configuration is written in.
_CONFIG_FILE = re.compile(
    r"[\w.-]+\.(?:json|jsonc|json5|toml|ya?ml|ini|cfg|conf|xml|xml\.dist|props|properties)",
    re.IGNORECASE,
)


#: Options that only change how much a check prints (`-q`, `--tb=short`, `--output-on-failure`).
OUTPUT_ONLY = re.compile(
    r"^(?:-v+|-q+|-s|--verbose|--quiet|--tb=\S+|--colou?r(?:=\S+)?|--no-colou?r|"
    r"--output-on-failure|--durations=\S+|--no-header|-r[a-zA-Z]+|--reporter=\S+|--progress\S*)$"
)


#: A word that names one file: a path or a name with an extension.
_FILE_WORD = re.compile(r"^[\w./-]*\w\.\w{1,5}$")


def _whole_with_options(command: str, base: str) -> bool:
    """Whether a test command runs every test with options of its own that are not only about
    its output (`go test -tags integration ./...`, not `pytest -q`)."""
    extra = command.removeprefix(base).split()
    return (
        command.startswith(base)
        and not picks_tests(command, base)
        and any(w.startswith("-") and not OUTPUT_ONLY.match(w) for w in extra)
    )


def file_template(commands: list[str]) -> str | None:
    """The one command `commands` share with the file they name left open (`php -l <file>`),
    when they differ only in that one word and each names a file there; else `None`."""
    split = [c.split() for c in dict.fromkeys(commands)]
    if len(split) < 2 or len({len(words) for words in split}) != 1:
        return None
    differing = [i for i in range(len(split[0])) if len({words[i] for words in split}) > 1]
    if len(differing) != 1 or differing[0] == 0:
        return None
    at = differing[0]
    if not all(_FILE_WORD.match(words[at]) for words in split):
        return None
    return " ".join([*split[0][:at], "<file>", *split[0][at + 1 :]])


#: Options that pick the package (workspace member) a command runs on, in many ecosystems'
#: tools (`-p`, `--package`, `--filter`, `-w`, `--workspace`).
_PACKAGE_OPTIONS = frozenset(
    {"-p", "--package", "--filter", "-F", "-w", "--workspace", "-pl", "--projects"}
)
#: Options that leave the tests out of a build (`mvn package -DskipTests`, `gradle build -x
#: test`): a quicker build, not the project's whole one.
_SKIPS_TESTS = re.compile(
    r"(?:^|\s)(?:-DskipTests\b|-Dmaven\.test\.skip\b|(?:-x|--exclude-task)[\s=]+\S*test\b)",
    re.IGNORECASE,
)
#: A package's name: no plugin switch (`no:cacheprovider`), no count (`go test -p 4`), no
#: configuration file.
#: Purposes whose package option picks a workspace member.
_PACKAGE_PURPOSES = frozenset({"test", "lint", "format", "typecheck", "build"})
_PACKAGE_NAME = re.compile(r"^[@\w][\w@./-]*$")


def _package_name(word: str) -> bool:
    return (
        bool(_PACKAGE_NAME.match(word)) and not word.isdigit() and not _CONFIG_FILE.fullmatch(word)
    )


def package_template(commands: list[str]) -> str | None:
    """The one command `commands` share with the package they pick left open (`cargo test -p
    <package>`), when they differ only in the value of one package option (`-p a`, `-p b`;
    `--package=a`, `--package=b`) and there are at least two; else `None`."""
    split = [c.split() for c in dict.fromkeys(commands)]
    if len(split) < 2 or len({len(words) for words in split}) != 1:
        return None
    differing = [i for i in range(len(split[0])) if len({words[i] for words in split}) > 1]
    if len(differing) != 1 or differing[0] == 0:
        return None
    at = differing[0]
    option, equals, _value = split[0][at].partition("=")
    if equals:
        values = [words[at].partition("=") for words in split]
        if option in _PACKAGE_OPTIONS and all(
            o == option and _package_name(v) for o, _e, v in values
        ):
            return " ".join([*split[0][:at], f"{option}=<package>", *split[0][at + 1 :]])
        return None
    if split[0][at - 1] not in _PACKAGE_OPTIONS:
        return None
    if not all(_package_name(words[at]) for words in split):
        return None
    return " ".join([*split[0][:at], "<package>", *split[0][at + 1 :]])


#: Programs whose `-p` picks a package (elsewhere it loads a plugin, sets a count or a port).
_P_IS_PACKAGE = frozenset({"cargo", "cross"})


def _picks_package(command: str) -> bool:
    """Whether a command picks one package of a workspace (`-p core`, `--filter=web`), not all
    of them (cargo's `--workspace` takes no value), nor a plugin or a count (`-p 4`)."""
    program = command.split(maxsplit=1)[0].rsplit("/", 1)[-1] if command.split() else ""
    words = command.split()[1:]
    for n, word in enumerate(words):
        option, equals, value = word.partition("=")
        if option not in _PACKAGE_OPTIONS or (option == "-p" and program not in _P_IS_PACKAGE):
            continue
        given = value if equals else (words[n + 1] if n + 1 < len(words) else "")
        if given and _package_name(given):
            return True
    return False


def _across_packages(winner: _Group, rivals: list[_Group]) -> _Group:
    """`winner` with the rivals of its slot that run the same command in another package
    (`pnpm --filter web test` beside `pnpm --filter api test`): one command with the package
    left open, said with all their runs, rather than one package's run as the project's."""
    if winner.purpose not in _PACKAGE_PURPOSES:
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


def _newest_recipe(slot: str, winner: _Group, rivals: list[_Group]) -> Finding | None:
    """The slot's recipe, unless the project moved on from it (`recency.moved_on`): then the
    command that replaced the winner is the recipe (None when one such run is too little to
    say it); if both passed again after each other, both are in use and the recipe names both.
    """
    later = moved_on(winner.passes, ((g, g.passes) for g in rivals))
    if later is None:
        return _recipe_finding(slot, winner)
    newer = later.newer
    if later.replaced:
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


def _creates_migration(group: _Group) -> bool:
    """Whether the group's runs create a migration rather than apply them."""
    return group.purpose == "migrate" and any(migration_template(v) for v in group.examples)


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
    if group.purpose in _PACKAGE_PURPOSES and _picks_package(top):
        # `cargo test --workspace` beside `cargo test -p core`: the whole project's run is the
        # project's command; one package's is an example of it.
        whole = next((v for v, _ in examples if not _picks_package(v)), None)
        if whole is not None:
            top, top_count = whole, group.successes
    if group.purpose == "test" and picks_tests(top, group.base):
        # `go test -tags integration ./...` beside a run of one test: the whole run, with the
        # options it needs, is the command (not the bare head)
        whole = next((v for v, _ in examples if _whole_with_options(v, group.base)), None)
        if whole is not None:
            top, top_count = whole, group.successes
    if group.purpose == "format" and _FORMAT_CHECK.search(f" {top} "):
        # "To format" is the run that formats (`vendor/bin/pint`), not its check (`--test`).
        writer = next((v for v, _ in examples if not _FORMAT_CHECK.search(f" {v} ")), None)
        if writer is not None:
            top, top_count = writer, group.successes
    per_file = not group.whole_run and group.purpose != "test"  # a test recipe runs them all
    template = file_template([v for v, _ in examples]) if per_file else None
    # A check or build only ever run on one package at a time, on several: how a package is
    # checked. (A run or deploy command's `-p` is as often a profile or a port.)
    if template is None and group.purpose in _PACKAGE_PURPOSES:
        template = package_template([v for v, _ in examples])
    if template is not None:
        # A check only ever run on one file at a time, on several files: how a file is checked.
        head = template
    elif top_count * 2 >= group.successes and not (
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
    if slot.split(":")[1] == "new_migration" and (made := migration_template(top)) is not None:
        text, wording = f"`{made}`", "to create a migration"
    elif (tasks := several_tasks(head)) is not None:
        wording = tasks  # `sbt scalafmtCheckAll test`: every task it runs, not the first
    if group.purpose == "format" and _FORMAT_CHECK.search(f" {head} "):
        wording = "to check the formatting"  # only the check was seen run: it formats nothing
    if group.purpose == "test" and runs_a_gate(head):
        wording = _GATE_WORDING  # more than the tests: the project's checks, as one command
    one_package = template is None and group.purpose in _PACKAGE_PURPOSES and _picks_package(head)
    if one_package:
        # `mvn -pl router -am test` only: how one package is checked, not the whole project
        wording = f"{wording}, for one package"
    elif group.purpose == "build" and _SKIPS_TESTS.search(head):
        wording = f"{wording} without running the tests"
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
    if group.scope or len(parts) == 3 or one_package:
        importance -= 0.1
    elif group.purpose == "test" and not slot.startswith(GATE_SLOT) and not one_package:
        importance = max(importance, 0.5)  # the project's test command, as its fact had
    return Finding(
        "recipe",
        slot,
        content,
        ("recipe", group.purpose, group.ecosystem, *([group.scope] if group.scope else [])),
        round(min(0.8, importance), 3),
        tuple(group.event_ids[-20:]),
    )
