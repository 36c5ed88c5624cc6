"""Recipes from one reading: how to test, lint, format, type-check, start, migrate and build
the project, the checks before a commit, and what CI runs — each with its `path:line`.

Commands named by people (instruction files, task runners, CI, README) win over an
ecosystem's conventions; commands of the primary ecosystem(s) or task runners make the
project's recipe, others become recipes scoped to their folder. A convention is said only
where the repository shows what it runs on: a lint, format or type-check convention needs its
tool declared, configured or run somewhere in the repository (the manifest alone decides
nothing: many Go projects lint with something other than `go vet`), and a convention runs
through the repository's wrapper of its tool (`mvn test` as `./mvnw test` beside `mvnw`) and in
the environment a lock file beside the manifest manages (`uv run pytest` beside `uv.lock`). An
install line that fetches the project itself (`go get <its module>`, `npm install <its name>`)
is how others use it, not its set-up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from fnmatch import fnmatch

from squirrel_core.commands import GATE_TASKS, runs_a_gate
from squirrel_memory.code_files import language_of
from squirrel_memory.models import MemoryCandidate, MemoryType
from squirrel_memory.repository.dev_groups import is_dev_group
from squirrel_memory.repository.findings import Command, Port, Readings, folder_of, is_test_folder
from squirrel_memory.repository.languages import is_excluded
from squirrel_memory.repository.project_stack import ecosystem_language, primary_ecosystems_of
from squirrel_memory.repository.scan import RepositoryReading
from squirrel_memory.repository.stack import (
    command_needs,
    conventions,
    env_runner,
    language_name,
)
from squirrel_memory.repository.task_records import purpose_of
from squirrel_memory.repository.wording import candidate, join_words, ref_path

RECIPE = MemoryType.RECIPE
_ORIGIN_RANK = {"instructions": 0, "task": 1, "ci": 2, "docs": 3, "convention": 4}
_VERBS = {
    "test": ("Run the tests with", 0.85),
    "lint": ("Lint the code with", 0.75),
    "format": ("Format the code with", 0.75),
    "typecheck": ("Type-check the code with", 0.75),
    "run": ("Start the dev server with", 0.8),
    "migrate": ("Run the database migrations with", 0.75),
    "build": ("Build the project with", 0.6),
    "install": ("Set the project up (dependencies) with", 0.6),
}
# Words a command for each purpose usually contains: `mix precommit` runs the tests, but it is
# not "the test command"; `mix ecto.setup` migrates, but it is not "the migration command".
_PURPOSE_WORDS = {
    "test": ("test", "spec", "jest", "unit", "pest"),
    "lint": ("lint", "credo", "clippy", "vet", "ruff", "rubocop", "flake8"),
    "format": ("format", "fmt", "prettier", "black"),
    "typecheck": ("type", "tsc", "mypy", "pyright", "dialyzer"),
    "run": ("dev", "start", "serve", "server", "watch"),
    "migrate": ("migrat",),
    "build": ("build", "compile"),
    "install": ("setup", "install", "deps", "bootstrap"),
}
_CHECK_FLAGS = re.compile(r"\s(--check\S*|--diff|-l|--dry-run)\b")
_GATE_TASKS = GATE_TASKS
_PORT_FLAG = re.compile(r"(?:--port[= ]|-p\s+|PORT=)(\d{2,5})\b")
MAX_SCOPED = 4


#: Purposes whose convention is a choice the repository must show (its tool declared or
#: configured): the manifest alone does not say which linter or formatter a project uses.
_CHOSEN = frozenset({"lint", "format", "typecheck"})


def _wrapped(command: str, tracked: set[str], named: Sequence[Command]) -> tuple[str, str]:
    """A convention run through the repository's wrapper of its tool (`mvn test` → `./mvnw
    test` beside `mvnw`, or where a named command runs `./mvnw`), with the wrapper's ref; or
    the command as it is and ""."""
    program, _, rest = command.partition(" ")
    wrapper = f"{program}w"
    if wrapper in tracked or any(c.text.startswith(f"./{wrapper} ") for c in named):
        ref = f"{wrapper}:1" if wrapper in tracked else ""
        return f"./{wrapper} {rest}".rstrip(), ref
    return command, ""


def _runs_tool(command: str, out: Readings) -> bool:
    """Whether the repository runs a convention's tool somewhere (CI's `cargo fmt --check`, a
    pre-commit hook `cargo-fmt` or `clippy`): then the convention is the project's choice."""
    words = command.split()[:2]
    tool = " ".join(words)
    if any(c.text == tool or c.text.startswith(f"{tool} ") for c in out.commands):
        return True
    hooks = {hook.lower().replace("-", " ") for hook, _ in out.hooks}
    return tool in hooks or (len(words) > 1 and words[1] in hooks)


def _present(
    need: str, manifest: str, deps: dict[str, str], out: Readings, tracked: set[str]
) -> str:
    """Where a convention's need (`""`, `dep:<name>`, `file:<path>`, `dir:<folder>`, paths
    beside the manifest, `tree:<name>` a file so named below it) is met, or ""."""
    base = f"{folder_of(manifest)}/" if folder_of(manifest) else ""
    if need.startswith("dep:"):
        name = need[4:].lower()
        return deps.get(name) or out.tools.get(name, "")
    if need.startswith("file:"):
        path = base + need[5:]
        if path in tracked:
            return f"{path}:1"
        if any(mark in path for mark in "*?["):
            # `test/*_SUITE.erl`: a file of that shape in that very folder.
            depth = path.count("/")
            found = sorted(p for p in tracked if p.count("/") == depth and fnmatch(p, path))
            return f"{found[0]}:1" if found else ""
        return ""
    if need.startswith("dir:"):
        found = sorted(p for p in tracked if p.startswith(f"{base}{need[4:]}/"))
        return f"{found[0]}:1" if found else ""
    if need.startswith("tree:"):
        # `tree:*_test.ts`: a file of that name anywhere below the manifest's folder.
        found = sorted(
            p
            for p in tracked
            if p.startswith(base) and fnmatch(p.rsplit("/", 1)[-1], need[5:])
            if not is_excluded(p)
        )
        return f"{found[0]}:1" if found else ""
    return f"{manifest}:1"


def _met(needs: str, manifest: str, deps: dict[str, str], out: Readings, tracked: set[str]) -> str:
    """Where a convention's needs are met (the first need's place), or "": each space-separated
    need must be met, `a|b` by either, `!a` by `a` being absent."""
    ref = ""
    for need in needs.split():
        if need.startswith("!"):
            if _present(need[1:], manifest, deps, out, tracked):
                return ""
            continue
        found = next(
            (r for one in need.split("|") if (r := _present(one, manifest, deps, out, tracked))),
            "",
        )
        if not found:
            return ""
        ref = ref or found
    return ref or f"{manifest}:1"


def _own_part(folder: str, eco: str, reading: RepositoryReading) -> bool:
    """Whether a top folder's manifest makes that folder a part of the project in its own
    ecosystem (`backend/go.mod` beside `frontend/package.json`): no root manifest of that
    ecosystem, no tests', docs' or examples' folder, and code of that ecosystem in it."""
    out = reading.readings
    if "/" in folder or is_test_folder(folder) or is_dev_group(folder):
        return False
    if any(e == eco and not folder_of(p) for p, e in out.manifests.items()):
        return False
    return any(
        f.path.startswith(f"{folder}/") and (lang := language_of(f.path)) and lang[1] == eco
        for f in reading.files
    )


def _conventional(reading: RepositoryReading, ecosystems: Sequence[str]) -> list[Command]:
    """Conventions of the root manifests of the primary ecosystems; for a top folder that is a
    part of its own (`_own_part`), its test convention, scoped to the folder."""
    out = reading.readings
    tracked = {f.path for f in reading.files}
    found: list[Command] = []
    solution = next((p for p in sorted(tracked) if p.endswith((".sln", ".slnx"))), None)
    said: set[str] = set()
    for path, eco in out.manifests.items():
        manifest, folder = path, folder_of(path)
        if eco == "dotnet" and folder and solution is not None and "/" not in solution:
            # A .NET solution at the root builds and tests the projects in its folders.
            manifest, folder = solution, ""
        if eco not in ecosystems or manifest in said:
            continue
        if folder and not _own_part(folder, eco, reading):
            continue
        said.add(manifest)
        base = f"{folder_of(manifest)}/" if folder_of(manifest) else ""
        beside = {
            p[len(base) :] for p in tracked if p.startswith(base) and "/" not in p[len(base) :]
        }
        deps = {d.name.lower(): d.ref for d in out.dependencies if d.manifest == manifest}
        for command, needs in conventions(eco).items():
            ref = _met(needs, manifest, deps, out, tracked)
            purpose = purpose_of(command)
            if not ref or purpose is None or (folder and purpose[0] != "test"):
                continue
            if purpose[0] in _CHOSEN and not needs and not _runs_tool(command, out):
                continue  # the manifest alone does not say the project uses this tool
            typed, wrapper_ref = _wrapped(command, tracked, out.commands)
            ref = wrapper_ref or ref
            if runner := env_runner(eco, beside):
                typed = f"{runner} {typed}"
            found.append(Command(typed, purpose[0], eco, folder, "convention", ref))
    return found


_VERSION_SUFFIX = re.compile(r"(?:@|==|>=|~=|\^|:)[^/\s]*$")


def _own_names(out: Readings) -> set[str]:
    """The names the project's manifests give it (a Go module path, a package's name)."""
    names = {name.lower() for name, _ in out.named.values() if name}
    return names | ({out.name.lower()} if out.name else set())


def _installs_itself(command: Command, own: set[str]) -> bool:
    """Whether an install command fetches the project itself (`go get github.com/x/y`, `pip
    install y`, `npm install y@2`): the line its users type, not the project's set-up."""
    if command.purpose != "install" or not own:
        return False
    for word in command.text.split()[1:]:
        bare = _VERSION_SUFFIX.sub("", word.strip("'\"")).lower()
        if bare in own or any(bare.startswith(f"{name}/") for name in own if "/" in name):
            return True
    return False


def _rank(command: Command) -> tuple[int, int, int, int]:
    """People's words before conventions, but a command named for its purpose first, and
    for formatting the command that formats before the one that only checks."""
    text = command.text.lower()
    named = any(word in text for word in _PURPOSE_WORDS.get(command.purpose, ()))
    checks = command.purpose == "format" and bool(_CHECK_FLAGS.search(text))
    origin = _ORIGIN_RANK.get(command.origin, 9)
    return int(not named), int(checks), origin, 0 if command.scope == "" else 1


def _port_for(command: Command, ports: Sequence[Port]) -> tuple[int, str] | None:
    if match := _PORT_FLAG.search(f"{command.text} {command.detail}"):
        return int(match.group(1)), command.ref
    dev = [p for p in ports if p.what == "dev server"]
    return (dev[0].port, dev[0].ref) if dev else None


def _recipe_text(verb: str, chosen: Command, others: list[Command], language: str) -> str:
    text = f"{verb} `{chosen.text}`"
    origin = "CI" if chosen.origin == "ci" else ref_path(chosen.ref)
    task = next((o for o in others if o.text == chosen.text and o.detail), None)
    if not chosen.detail and task is not None:
        text += f" ({chosen.ref}; {task.ref} {task.detail})"
    elif chosen.origin == "convention":
        text += f" (the {language} convention; {chosen.ref})"
    elif chosen.detail:
        text += f" ({chosen.ref} {chosen.detail})"
    elif chosen.origin == "ci":
        text += f" (as {origin} does, {chosen.ref})"
    else:
        text += f" ({chosen.ref})"
    extra = list({o.text: o for o in others if o.text != chosen.text}.values())[:2]
    if extra:
        text += "; also named: " + ", ".join(f"`{o.text}` ({o.ref})" for o in extra)
    return text


def _project_recipes(
    commands: list[Command],
    ecosystems: Sequence[str],
    reading: RepositoryReading,
    borrowed: frozenset[tuple[str, str]] = frozenset(),
) -> list[MemoryCandidate]:
    out = reading.readings
    found: list[MemoryCandidate] = []
    present = {eco for path, eco in out.manifests.items() if not folder_of(path)}
    for purpose, (verb, importance) in _VERBS.items():
        mine = [
            c
            for c in commands
            if c.purpose == purpose and c.scope == "" and c.ecosystem in (*ecosystems, "any")
        ]
        if not mine:
            continue
        # A command of an ecosystem whose manifest the repository holds before one whose tool
        # has nothing here to run on (a README's `npm test` beside no package.json).
        # The project's own ecosystem's commands before a code-less runner's tasks.
        mine.sort(
            key=lambda c: (
                c.ecosystem not in (*present, "any"),
                (c.text, c.ref) in borrowed,
                *_rank(c),
            )
        )
        chosen = mine[0]
        # A gate run for the tests is said as what it is; what it runs is its detail, if known.
        said = "Run the checks with" if purpose == "test" and runs_a_gate(chosen.text) else verb
        distinct = list({c.text: c for c in mine[1:] if c.origin != "convention"}.values())
        # A convention is named for the language the code is written in (`sbt test` for Scala).
        language = ecosystem_language(chosen.ecosystem, reading.shares)
        others = [c for c in mine[1:] if c.text == chosen.text] + distinct
        text = _recipe_text(said, chosen, others, language)
        refs = [
            chosen.ref,
            *(c.ref for c in mine[1:] if c.text == chosen.text and c.origin != "convention"),
        ]
        if purpose == "run" and (port := _port_for(chosen, out.ports)):
            text += f"; it listens on port {port[0]} ({port[1]})"
            refs.append(port[1])
        refs.extend(c.ref for c in distinct[:2])
        program = next((w for w in chosen.text.split() if "=" not in w), chosen.text.split()[0])
        tags = [purpose, program, *(e for e in ecosystems)]
        found.append(
            candidate(
                RECIPE,
                f"recipe:{purpose}",
                text + ".",
                refs=refs,
                importance=importance,
                tags=tags,
                files=[ref_path(r) for r in refs],
            )
        )
    return found


def _scoped_recipes(commands: list[Command], ecosystems: Sequence[str]) -> list[MemoryCandidate]:
    groups: dict[tuple[str, str], list[Command]] = {}
    for command in commands:
        if (command.origin == "convention" and not command.scope) or command.purpose not in (
            "test",
            "run",
            "build",
            "lint",
        ):
            continue
        scoped = command.scope != "" or command.ecosystem not in (*ecosystems, "any")
        if not scoped:
            continue
        scope = command.scope or folder_of(ref_path(command.ref))
        groups.setdefault((command.purpose, scope), []).append(command)
    found: list[MemoryCandidate] = []
    # The tests first: of more scoped commands than are said, how to test a part matters most.
    order = list(_VERBS)
    ranked = sorted(groups.items(), key=lambda item: (order.index(item[0][0]), item[0][1]))
    for (purpose, scope), group in ranked[:MAX_SCOPED]:
        group.sort(key=_rank)
        chosen = group[0]
        where = f"In `{scope}/`" if scope else f"For its {language_name(chosen.ecosystem)} part"
        verb = _VERBS[purpose][0]
        text = f"{where}, {verb[0].lower()}{verb[1:]} `{chosen.text}` ({chosen.ref}"
        text += f" {chosen.detail})" if chosen.detail else ")"
        text += "; this is not the project's main command."
        found.append(
            candidate(
                RECIPE,
                f"recipe:{purpose}@{scope or chosen.ecosystem}",
                text,
                refs=[chosen.ref],
                importance=0.45,
                tags=[purpose, "scoped", scope, chosen.ecosystem],
                files=[ref_path(chosen.ref)],
            )
        )
    return found


def _gate_recipe(commands: list[Command], out: Readings) -> MemoryCandidate | None:
    sentences: list[str] = []
    refs: list[str] = []
    gates = [
        c
        for c in commands
        if c.origin == "task" and c.task in _GATE_TASKS and c.purpose == "test" and not c.scope
    ]
    if gates:
        gate = sorted(gates, key=lambda c: c.ref)[0]
        detail = f" ({gate.ref} {gate.detail})" if gate.detail else f" ({gate.ref})"
        sentences.append(f"Before committing, run `{gate.text}`{detail}.")
        refs.append(gate.ref)
    if out.hooks:
        ids = list(dict.fromkeys(hook for hook, _ in out.hooks))
        where = ref_path(out.hooks[0][1])
        sentences.append(
            f"Pre-commit hooks ({where}) run {join_words([f'`{i}`' for i in ids[:8]])} "
            "on every commit; install them with `pre-commit install`."
        )
        refs.extend(ref for _, ref in out.hooks[:8])
    if not sentences:
        return None
    return candidate(
        RECIPE,
        "recipe:checks",
        " ".join(sentences),
        refs=refs,
        importance=0.8,
        tags=["pre-commit", "quality gate", "checks"],
        files=[ref_path(r) for r in refs],
    )


def _ci_recipe(commands: list[Command], out: Readings) -> MemoryCandidate | None:
    ran = list({c.text: c for c in commands if c.origin == "ci"}.values())
    if not ran:
        return None
    shown = join_words([f"`{c.text}`" for c in ran[:6]])
    files = join_words(sorted({ref_path(c.ref) for c in ran[:6]}))
    text = f"CI ({files}) runs {shown}."
    refs = [c.ref for c in ran[:6]]
    return candidate(RECIPE, "ci", text, refs=refs, importance=0.6, tags=["ci"], files=out.ci_files)


def _codeless_runner_tasks(reading: RepositoryReading, ecosystems: Sequence[str]) -> set[int]:
    """Tasks of a root task-runner file of an ecosystem with no code in the repository (a
    `package.json` whose scripts run the project's own tools, beside no JavaScript): they
    are the project's tasks, not those of a part in another language."""
    with_code = {share.ecosystem for share in reading.shares if share.bytes > 0}
    return {
        index
        for index, c in enumerate(reading.readings.commands)
        if c.origin == "task"
        and c.scope == ""
        and c.ecosystem not in (*ecosystems, "any")
        and c.ecosystem not in with_code
    }


def _runs_here(command: Command, reading: RepositoryReading) -> bool:
    """Whether a command people named (a README's, an instruction file's) can run in this
    repository: one through a program the stack table says needs something (`make`, a task
    `test`; `poetry`, a project Poetry manages) needs it to be here."""
    if command.origin not in ("docs", "instructions") or command.scope:
        return True
    program = command.text.split()[0].rsplit("/", 1)[-1]
    needs = command_needs(program)
    if needs is None:
        return True
    out = reading.readings
    if needs == "task":
        words = command.text.split()[1:]
        if any(w.startswith(("-C", "-f", "--directory", "--file", "--justfile")) for w in words):
            return True  # another folder's or file's tasks: not judged here
        names = [w for w in words if not w.startswith("-") and "=" not in w]
        runner = f"{command.text.split()[0]} "
        if not names:  # the default task: any task of that runner's file
            return any(task.text.startswith(runner) for task in out.tasks)
        return any(task.text == f"{runner}{names[0]}" for task in out.tasks)
    tracked = {f.path for f in reading.files}
    deps = {d.name.lower(): d.ref for d in out.dependencies if not folder_of(d.manifest)}
    return bool(_met(needs, "", deps, out, tracked))


def recipes(reading: RepositoryReading) -> list[MemoryCandidate]:
    """Every recipe one reading supports."""
    ecosystems = primary_ecosystems_of(reading)
    out = reading.readings
    own = _own_names(out)
    borrowed = _codeless_runner_tasks(reading, ecosystems)
    runs = [
        replace(c, ecosystem="any") if index in borrowed else c
        for index, c in enumerate(out.commands)
        if _runs_here(c, reading)
    ]
    moved = frozenset((out.commands[i].text, out.commands[i].ref) for i in borrowed)
    commands = [
        c for c in [*runs, *_conventional(reading, ecosystems)] if not _installs_itself(c, own)
    ]
    found: list[MemoryCandidate | None] = [
        *_project_recipes(commands, ecosystems, reading, moved),
        *_scoped_recipes([*runs, *(c for c in commands if c.origin == "convention")], ecosystems),
        _gate_recipe(out.commands, out),
        _ci_recipe(out.commands, out),
    ]
    return [c for c in found if c is not None]
