"""Tool habits: the tools the user runs again and again, and the project's package manager."""

from __future__ import annotations

from collections import Counter
from collections.abc import Set
from dataclasses import dataclass, field
from datetime import datetime

from squirrel_core.command_launchers import SCRIPT_SUFFIXES
from squirrel_core.commands import package_manager
from squirrel_memory.extractors.evidence.attempts import (
    NEUTRAL_ECOSYSTEMS,
    SIDE_ECOSYSTEMS,
    Attempt,
    Finding,
)

#: A tool has to be used this often before it counts as a habit.
MIN_HABIT_COUNT = 2
HABIT_CATEGORIES = ("test_runner", "package_manager", "formatter", "linter", "type_checker")
_HABIT_WORDING = {
    "test_runner": "Runs tests with {}.",
    "package_manager": "Uses {} as the package manager.",
    "formatter": "Formats code with {}.",
    "linter": "Lints with {}.",
    "type_checker": "Type-checks with {}.",
}


def outside_project(attempt: Attempt) -> bool:
    """Whether the command ran in a folder outside the project (its scope is absolute)."""
    return attempt.scope.startswith(("/", "~"))


def _tool_counts(found: list[Attempt]) -> dict[tuple[str, str], _ToolCount]:
    """How often each (category, tool) was used, in how many sessions, through which wrapper."""
    counts: dict[tuple[str, str], _ToolCount] = {}
    for attempt in found:
        if outside_project(attempt):
            # Run in another checkout (`cd /src/other-app && npm test`): that project's tool.
            continue
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


#: Runners of a one-off tool (`npx mmdc …`): any project's developer may use them.
_ONE_OFF_RUNNERS = frozenset({"npx", "pnpx", "bunx", "uvx", "pipx"})


def _global_install(attempt: Attempt) -> bool:
    """`npm install -g x`, `yarn global add x`, `uv tool install x`: a tool for the machine,
    not a dependency of the project."""
    words = attempt.text.split()
    return bool(words) and (
        any(w in ("-g", "--global", "--location=global") for w in words[1:])
        or words[1:2] == ["global"]
        or words[1:3] == ["tool", "install"]
    )


def _one_off(attempt: Attempt) -> bool:
    words = attempt.text.split()
    return bool(words) and (words[0] in _ONE_OFF_RUNNERS or words[1:2] == ["dlx"])


#: Installers that put a named package into an environment and record it in no manifest of
#: the project (`pip install esptool`, `gem install bundler`, `uv pip install ruff`).
_ENVIRONMENT_INSTALLERS = frozenset({"pip", "gem", "conda"})
#: Options of an install that name a manifest, a project folder or a file to install from.
_FROM_PROJECT = frozenset(
    {"-r", "--requirement", "-e", "--editable", "-c", "--constraint", "--file", "-f"}
)


def _installs_named(tokens: list[str], name: str) -> bool:
    """Whether a command (`tokens`, going through the manager `name`) only installs packages
    named by their names into an environment: a tool the session needed, which says nothing
    of what the project's own commands run through. An install from a manifest, a folder or a
    file (`pip install -e .`, `pip install -r requirements.txt`, `pip install ./dist/x.whl`)
    is the project's."""
    if any(w.split("=", 1)[0] in _FROM_PROJECT for w in tokens):
        return False
    try:
        verb = tokens.index("install")
    except ValueError:
        return False
    if name == "uv":
        if tokens[verb - 1 : verb] != ["pip"]:
            return False
    elif name not in _ENVIRONMENT_INSTALLERS:
        return False
    named = [w for w in tokens[verb + 1 :] if not w.startswith("-")]
    return bool(named) and not any(
        "/" in w or w in (".", "..") or w.endswith((".txt", ".whl", ".gz", ".zip", ".toml"))
        for w in named
    )


def _tools_only(found: list[Attempt]) -> set[str]:
    """Managers whose every use installed tools by name (`_installs_named`)."""
    uses: dict[str, bool] = {}
    for attempt in found:
        tokens = attempt.text.split()
        manager = package_manager(tokens)
        if manager is not None:
            name = manager[0]
            uses[name] = uses.get(name, True) and _installs_named(tokens, name)
    return {name for name, only in uses.items() if only}


#: What a project's own checks and builds are: the commands that show its ecosystem.
_PROJECT_WORK = frozenset({"test", "lint", "format", "typecheck", "build"})


def _worked(found: list[Attempt]) -> set[str]:
    """The ecosystems whose tools ran the project's checks and builds."""
    return {
        a.use.ecosystem
        for a in found
        if a.use is not None
        and a.use.purpose in _PROJECT_WORK
        and a.use.ecosystem not in NEUTRAL_ECOSYSTEMS | SIDE_ECOSYSTEMS
    }


def _helpers_only(found: list[Attempt]) -> set[str]:
    """Managers that only added packages or ran one-off tools (`npm install -D husky`, `npx
    husky init`) while the project's checks and builds ran through another ecosystem's tools
    and none through theirs (`./gradlew test`): helpers of the project, not its manager."""
    worked = _worked(found)
    used: dict[str, tuple[str, bool]] = {}
    for attempt in found:
        manager = package_manager(attempt.text.split())
        if manager is None:
            continue
        name, ecosystem = manager
        adds = _one_off(attempt) or (attempt.use is not None and attempt.use.purpose == "install")
        _, only_adds = used.get(name, (ecosystem, True))
        used[name] = (ecosystem, only_adds and adds)
    return {
        name
        for name, (ecosystem, only_adds) in used.items()
        if only_adds and worked and ecosystem not in worked
    }


#: Options that only ask a program for its usage or version.
_PROBE_OPTIONS = frozenset({"--help", "-h", "--usage", "--version", "-V"})


def _probe(attempt: Attempt) -> bool:
    """Whether a manager's run only asked for a usage or a version (`bun run a-server --help`,
    `uv run a-tool --version`, `npm help`): it did none of the project's work."""
    words = attempt.text.split()
    manager = package_manager(words)
    rest = words[words.index(manager[0]) + 1 :] if manager and manager[0] in words else words[1:]
    return any(w in _PROBE_OPTIONS for w in rest) or rest in (["help"], ["version"])


def _runs_project_file(attempt: Attempt) -> bool:
    """Whether a run names a script of the project by its path (`pnpm exec tsx
    scripts/migrate.ts`, `uv run python tools/gen.py`): the manager ran the project's own code."""
    return any(
        "/" in word
        and not word.startswith(("/", "~", "-", ".."))
        and "://" not in word
        and word.endswith(SCRIPT_SUFFIXES)
        for word in attempt.text.split()[1:]
    )


def _unbacked(found: list[Attempt], manifests: Set[str]) -> set[str]:
    """Managers none of whose runs the command table knows as the project's work (an install,
    a test, a build, a script of the project run by its path; a script run by a name of no
    check counts only beside its manifest) and whose
    ecosystem showed no manifest or lock file at the root (`manifests`): `bun run a-server`,
    `uv run a-tool`, run twice with nothing of theirs in the project in sight."""
    uses: dict[str, tuple[str, bool]] = {}
    for attempt in found:
        manager = package_manager(attempt.text.split())
        if manager is None:
            continue
        name, ecosystem = manager
        # a script by its name (`bun run docs-server`) is the project's only where its
        # manifest shows it, an add-on's server is launched the same way; one named for a
        # check or a build (`bun run test`) is the project's work
        use = attempt.use
        known = use is not None and (use.task is None or use.purpose in _PROJECT_WORK)
        work = (known or _runs_project_file(attempt)) and not _probe(attempt)
        _, did = uses.get(name, (ecosystem, False))
        uses[name] = (ecosystem, did or work)
    return {
        name for name, (ecosystem, did) in uses.items() if not did and ecosystem not in manifests
    }


def _no_work(found: list[Attempt]) -> set[str]:
    """Managers through which none of the project's work went: every use only asked a program
    for its usage or version (`_probe`), or, while another ecosystem's tools ran the project's
    checks and builds, every use either did that or started a program the command table does
    not know (`bun run a-server`, what an assistant's add-on launches): no install, no test,
    no build, no script of the manager's own (`npm run dev`)."""
    worked = _worked(found)
    uses: dict[str, tuple[str, bool, bool]] = {}
    for attempt in found:
        manager = package_manager(attempt.text.split())
        if manager is None:
            continue
        name, ecosystem = manager
        probe = _probe(attempt)
        work = not probe and attempt.use is not None
        _, probes, did = uses.get(name, (ecosystem, True, False))
        uses[name] = (ecosystem, probes and probe, did or work)
    return {
        name
        for name, (ecosystem, probes, did) in uses.items()
        if probes or (not did and worked and ecosystem not in worked)
    }


def _moved_from(found: list[Attempt]) -> set[str]:
    """Managers the project moved away from: every use of one came before the first use of
    another manager of its ecosystem (npm until the switch, pnpm from then on)."""
    spans: dict[str, tuple[str, datetime, datetime]] = {}
    for attempt in found:
        manager = package_manager(attempt.text.split())
        if manager is None or _one_off(attempt):
            continue
        name, ecosystem = manager
        when = attempt.run.timestamp
        _, first, last = spans.get(name, (ecosystem, when, when))
        spans[name] = (ecosystem, min(first, when), max(last, when))
    return {
        name
        for name, (ecosystem, _, last) in spans.items()
        if any(
            other != name and eco == ecosystem and first > last
            for other, (eco, first, _) in spans.items()
        )
    }


def _manager_scopes(found: list[Attempt]) -> dict[str, set[str]]:
    """Package manager → the project folders its commands ran in ("" for the root)."""
    scopes: dict[str, set[str]] = {}
    for attempt in found:
        manager = package_manager(attempt.text.split())
        if manager is not None and not outside_project(attempt):
            scopes.setdefault(manager[0], set()).add(attempt.scope)
    return scopes


def package_manager_fact(found: list[Attempt], manifests: Set[str] | None = None) -> Finding | None:
    """The package manager the project's commands go through (`uv run …`, `pnpm exec …`).

    A project fact, whoever ran the commands: it says how this project is driven. The other
    tool categories are the recipes' (`To run the tests: …`). A global install is the
    machine's, not the project's; a manager used only to run one-off tools (`npx`) is not the
    project's when another manager of its ecosystem runs the project's own commands (`npx mmdc`
    in a project driven with `pnpm test`); nor is one the project moved away from
    (`_moved_from`); nor one that only added packages or ran one-off tools while the
    project's checks and builds ran through another ecosystem's tools (`_helpers_only`: `npm
    install -D husky` beside `./gradlew test`); nor one that only installed tools by name into
    an environment (`_tools_only`: `pip install esptool` for a firmware's flasher); nor one
    through which none of the project's work went (`_no_work`: `bun run a-server --help` run
    twice to start an assistant add-on's helper, beside `go build`); nor, when `manifests` (the
    ecosystems whose manifest or lock file the session saw at the root) is given, one whose
    runs were none of them the project's known work and whose ecosystem showed none there
    (`_unbacked`). A manager
    run only in one sub-folder is said
    of that folder (its tag `in:<folder>` keeps `manager_language` from naming the project's
    language with it).
    """
    own = [a for a in found if not _global_install(a)]
    counts = _tool_counts(own)
    driving: dict[str, set[str]] = {}
    for attempt in own:
        if not _one_off(attempt) and (manager := package_manager(attempt.text.split())):
            driving.setdefault(manager[1], set()).add(manager[0])
    for attempt in own:
        manager = package_manager(attempt.text.split())
        if manager is None or not _one_off(attempt):
            continue
        name, ecosystem = manager
        if name not in driving.get(ecosystem, set()) and driving.get(ecosystem):
            counts.pop(("package_manager", name), None)
    dropped = _moved_from(own) | _helpers_only(own) | _tools_only(own) | _no_work(own)
    if manifests is not None:
        dropped |= _unbacked(own, manifests)
    for name in dropped:
        counts.pop(("package_manager", name), None)
    tools = _top_tools(counts, "package_manager")
    # A manager run only inside one sub-folder (`cd mock-server && npm install`) drives that
    # folder's own package, not the project: said with its folder, or left out beside a
    # manager the project's root runs.
    scopes = _manager_scopes(own)
    at_root = [(tool, count) for tool, count in tools if "" in scopes.get(tool, {""})]
    folders = {scope for tool, _ in tools for scope in scopes.get(tool, {""})}
    where = "this project"
    tags: tuple[str, ...] = ()
    if at_root:
        tools = at_root
    elif len(folders) == 1:
        (folder,) = folders
        where, tags = f"`{folder}/`", (f"in:{folder}",)
    else:
        return None
    if not tools:
        return None
    names = " and ".join(tool for tool, _ in tools)
    plural = "s" if len(tools) > 1 else ""
    return Finding(
        "fact",
        "package_manager",
        f"Commands in {where} run through {names}, its package manager{plural}.",
        ("tooling", "package_manager", *(tool for tool, _ in tools), *tags),
        _importance(tools[0][1]),
        tuple(e for _, count in tools for e in count.event_ids[-10:]),
    )
