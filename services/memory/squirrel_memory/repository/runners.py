"""Task runners: Makefile and justfile targets, npm/composer/deno scripts, mix aliases, Taskfile
and Rake tasks, tox, nox and pre-commit hooks — each as the command a person types, what the
file says of it and its line — and the reader of each task-runner file by its name (those of
TOML tables, mise, pixi, poe/PDM/Hatch and Cargo aliases, are `toml_tasks`).

How each task is recorded is `task_records`; which package manager runs a package.json's
scripts is `package_managers`.
"""

from __future__ import annotations

import configparser
import json
import posixpath
import re
from collections.abc import Callable, Mapping, Sequence

import yaml

from squirrel_memory.repository.build_steps import BUILD_STEP_READERS
from squirrel_memory.repository.findings import Command, Readings, folder_of
from squirrel_memory.repository.package_managers import package_runner, runs_by_name
from squirrel_memory.repository.snapshot import Snapshot, TextFile
from squirrel_memory.repository.task_records import (
    DETAIL_CHARS,
    MAX_TASKS_PER_FILE,
    add_task,
    nested_task_file,
    runs_detail,
)
from squirrel_memory.repository.toml_tasks import (
    described,
    read_cargo_aliases,
    read_mise_tasks,
    read_pixi_tasks,
    read_pyproject_tasks,
)

TaskReader = Callable[[Snapshot, TextFile, Readings], None]


def _comment_above(lines: Sequence[str], index: int) -> str:
    """The comment right above line `index` (a `#` block; banners and shebangs say nothing)."""
    said: list[str] = []
    for line in reversed(lines[max(0, index - 3) : index]):
        stripped = line.strip()
        if not stripped.startswith("#") or stripped.startswith("#!"):
            break
        words = stripped.lstrip("#").strip()
        if not re.search(r"[A-Za-z]", words):
            break
        said.insert(0, words)
    return " ".join(said)


_MAKE_TARGET = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.\-/]*)\s*:(?![=:])")
_MAKE_HELP = re.compile(r"##\s*(.+)$")


def read_makefile(snap: Snapshot, text: TextFile, out: Readings) -> None:
    del snap
    _recipe_file(text, out, _MAKE_TARGET, "make", body_prefix="\t")


_JUST_RECIPE = re.compile(r"^@?([A-Za-z0-9][A-Za-z0-9_\-]*)(?:\s+[^:=]*)?:(?!=)")


def read_justfile(snap: Snapshot, text: TextFile, out: Readings) -> None:
    del snap
    _recipe_file(text, out, _JUST_RECIPE, "just", body_prefix=(" ", "\t"))


def _recipe_file(
    text: TextFile,
    out: Readings,
    pattern: re.Pattern[str],
    runner: str,
    *,
    body_prefix: str | tuple[str, ...],
) -> None:
    count = 0
    lines = text.lines
    for index, line in enumerate(lines):
        match = pattern.match(line)
        if not match or match.group(1).startswith("."):
            continue
        steps: list[str] = []
        for body in lines[index + 1 : index + 6]:
            if not body.startswith(body_prefix) or not body.strip():
                break
            steps.append(body.strip().lstrip("@-").strip())
        own = _MAKE_HELP.search(line)
        about = own.group(1) if own else _comment_above(lines, index)
        name = match.group(1)
        add_task(out, text, f"{runner} {name}", name, steps, line=index + 1, about=about)
        count += 1
        if count >= MAX_TASKS_PER_FILE:
            break


_LIFECYCLE = re.compile(r"^(pre|post)[a-z]|^prepare$|^install$")


#: A script that only says it is missing and fails (`npm init`'s `echo "Error: no test
#: specified" && exit 1`): it runs nothing of the project.
_FAILS_ON_PURPOSE = re.compile(r"^\s*echo\b[^&|;]*(?:&&|;)\s*exit\s+[1-9]\d*\s*$")


def read_package_scripts(snap: Snapshot, text: TextFile, out: Readings) -> None:
    data = json.loads(text.text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return
    runner = package_runner(snap, folder_of(text.path), data.get("packageManager"))
    if runner is None:
        return  # which manager runs the scripts is not known: no command is better than a wrong one
    for name, body in list(scripts.items())[:MAX_TASKS_PER_FILE]:
        if not isinstance(body, str) or _LIFECYCLE.match(name) or _FAILS_ON_PURPOSE.match(body):
            continue
        typed = f"{runner} {name}" if runs_by_name(runner, name) else f"{runner} run {name}"
        line = text.line_of(f'"{name}"', text.line_of('"scripts"'))
        add_task(out, text, typed, name, [body], line=line)


_MIX_ALIASES = re.compile(r"^\s*defp?\s+aliases\b")
_MIX_ALIAS = re.compile(r'^\s*"?([a-z][\w.\-]*)"?\s*:\s*(.*)$')


def read_mix_aliases(snap: Snapshot, text: TextFile, out: Readings) -> None:
    del snap
    start = next((i for i, line in enumerate(text.lines) if _MIX_ALIASES.match(line)), None)
    if start is None:
        return
    index = start + 1
    while index < len(text.lines) and not re.match(r"^\s*end\b", text.lines[index]):
        match = _MIX_ALIAS.match(text.lines[index])
        line = index + 1
        if match:
            body = match.group(2)
            while body.count("[") > body.count("]") and index + 1 < len(text.lines):
                index += 1
                body += " " + text.lines[index].strip()
            steps = re.findall(r'"([^"]+)"', body)
            name = match.group(1)
            add_task(out, text, f"mix {name}", name, [f"mix {s}" for s in steps], line=line)
            if out.commands and out.commands[-1].ref == text.ref(line):
                out.commands[-1] = _with_detail(out.commands[-1], steps)
        index += 1


def _with_detail(command: Command, steps: list[str]) -> Command:
    own = command.task
    before = [s for s in steps if s.split()[0] != own]
    if own in [s.split()[0] for s in steps if s.strip()] and before:
        detail = "runs " + ", ".join(f"`{s}`" for s in before) + " first"
    else:
        detail = runs_detail(steps)
    return Command(
        command.text,
        command.purpose,
        command.ecosystem,
        command.scope,
        command.origin,
        command.ref,
        detail[:DETAIL_CHARS],
        command.task,
    )


def read_tox_ini(snap: Snapshot, text: TextFile, out: Readings) -> None:
    del snap
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text.text)
    for section in parser.sections()[:MAX_TASKS_PER_FILE]:
        # `[testenv]` is what `tox` runs in each environment of its `envlist`; `[testenv:x]`
        # is `tox -e x`. What an environment is for is what its commands run.
        if section != "testenv" and not section.startswith("testenv:"):
            continue
        env = section.partition(":")[2]
        steps = parser.get(section, "commands", fallback="").strip().splitlines()
        add_task(
            out,
            text,
            f"tox -e {env}" if env else "tox",
            env or "tox",
            steps,
            line=text.line_of(f"[{section}]"),
            body_first=True,
        )


_NOX_SESSION = re.compile(r"^\s*@nox\.session")
_DEF = re.compile(r"^\s*def\s+([A-Za-z_]\w*)\s*\(")


def read_noxfile(snap: Snapshot, text: TextFile, out: Readings) -> None:
    del snap
    for index, line in enumerate(text.lines):
        if not _NOX_SESSION.match(line):
            continue
        for follow in text.lines[index + 1 : index + 4]:
            if match := _DEF.match(follow):
                name = match.group(1)
                add_task(out, text, f"nox -s {name}", name, [], line=text.line_of(f"def {name}("))
                break


def read_pre_commit(snap: Snapshot, text: TextFile, out: Readings) -> None:
    del snap
    data = yaml.safe_load(text.text)
    repos = data.get("repos") if isinstance(data, dict) else None
    for repo in repos if isinstance(repos, list) else []:
        hooks = repo.get("hooks") if isinstance(repo, dict) else None
        for hook in hooks if isinstance(hooks, list) else []:
            if isinstance(hook, dict) and isinstance(hook.get("id"), str):
                hook_id = hook["id"]
                out.hooks.append((hook_id, text.ref_of(f"id: {hook_id}")))


def read_taskfile(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """go-task `Taskfile.yml`: `tasks: {name: {cmds: [...]}}` run as `task <name>`."""
    del snap
    data = yaml.safe_load(text.text)
    tasks = data.get("tasks") if isinstance(data, dict) else None
    for name, spec in list(tasks.items())[:MAX_TASKS_PER_FILE] if isinstance(tasks, dict) else []:
        raw = spec.get("cmds") if isinstance(spec, dict) else spec
        steps = [c for c in raw if isinstance(c, str)] if isinstance(raw, list) else []
        line = text.line_of(f"{name}:", text.line_of("tasks:"))
        about = described(spec, "desc", "summary")
        add_task(out, text, f"task {name}", str(name), steps, line=line, about=about)


def read_composer_scripts(snap: Snapshot, text: TextFile, out: Readings) -> None:
    del snap
    data = json.loads(text.text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    for name, body in (
        list(scripts.items())[:MAX_TASKS_PER_FILE] if isinstance(scripts, dict) else []
    ):
        steps = [body] if isinstance(body, str) else [s for s in body if isinstance(s, str)]
        add_task(out, text, f"composer {name}", name, steps, line=text.line_of(f'"{name}"'))


def read_deno_tasks(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """Deno tasks in `deno.json`: `"tasks": {"dev": "deno run -A main.ts"}`, run as `deno task
    dev` (a task may be `{"command": …, "description": …}`)."""
    del snap
    data = json.loads(text.text)
    tasks = data.get("tasks") if isinstance(data, dict) else None
    for name, spec in list(tasks.items())[:MAX_TASKS_PER_FILE] if isinstance(tasks, dict) else []:
        body = spec.get("command") if isinstance(spec, dict) else spec
        steps = [body] if isinstance(body, str) else []
        about = described(spec, "description")
        line = text.line_of(f'"{name}"', text.line_of('"tasks"'))
        add_task(out, text, f"deno task {name}", name, steps, line=line, about=about)


#: A keyword opening a map (`:test {`) in a `deps.edn`.
_EDN_KEY_MAP = re.compile(r":([\w.*+!?<>=/-]+)\s*\{")


def _edn_maps(text: str, start: int) -> list[tuple[str, int, str]]:
    """(keyword, offset, body) of each `:key {…}` entry of the map opening at `start`."""
    found: list[tuple[str, int, str]] = []
    depth, index, in_string = 0, start, False
    while index < len(text):
        char = text[index]
        if in_string:
            in_string = char != '"' or text[index - 1] == "\\"
        elif char == '"':
            in_string = True
        elif char == ";":
            index = text.find("\n", index)
            if index < 0:
                break
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                break
        elif char == ":" and depth == 1 and (match := _EDN_KEY_MAP.match(text, index)):
            close = _edn_close(text, match.end() - 1)
            found.append((match.group(1), index, text[match.end() : close]))
            index = close
        index += 1
    return found


def _edn_close(text: str, opening: int) -> int:
    """The offset of the `}` closing the map that opens at `opening`."""
    depth, in_string = 0, False
    for index in range(opening, len(text)):
        char = text[index]
        if in_string:
            in_string = char != '"' or text[index - 1] == "\\"
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
    return len(text)


def read_edn_aliases(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """Aliases of a Clojure `deps.edn`: one with `:main-opts` runs as `clojure -M:<alias>`, one
    with `:exec-fn` as `clojure -X:<alias>` (any other only adds paths or dependencies)."""
    del snap
    where = re.search(r":aliases\s*\{", text.text)
    if where is None:
        return
    for alias, offset, body in _edn_maps(text.text, where.end() - 1)[:MAX_TASKS_PER_FILE]:
        flag = "-M" if ":main-opts" in body else "-X" if ":exec-fn" in body else ""
        if flag:
            line = text.text.count("\n", 0, offset) + 1
            add_task(out, text, f"clojure {flag}:{alias}", alias, [], line=line)


_RAKE_TASK = re.compile(r"""^\s*task\s*\(?\s*(?::([\w:-]+)|["']([\w:-]+)["']|([\w-]+):\s)""")
_RAKE_DESC = re.compile(r"""^\s*desc\s*\(?\s*["'](.+?)["']""")


def read_rakefile(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """Rake tasks: `desc "Run the specs"` then `task :spec` (or `task spec: [:deps]`), run as
    `rake spec`."""
    del snap
    about = ""
    count = 0
    for index, line in enumerate(text.lines):
        if desc := _RAKE_DESC.match(line):
            about = desc.group(1)
            continue
        match = _RAKE_TASK.match(line)
        if match:
            name = next(g for g in match.groups() if g)
            add_task(out, text, f"rake {name}", name, [], line=index + 1, about=about)
            count += 1
            if count >= MAX_TASKS_PER_FILE:
                break
        if line.strip():
            about = ""


#: Task-runner readers by file name.
TASK_READERS: Mapping[str, TaskReader] = {
    "Makefile": read_makefile,
    "makefile": read_makefile,
    "GNUmakefile": read_makefile,
    "justfile": read_justfile,
    "Justfile": read_justfile,
    ".justfile": read_justfile,
    "package.json": read_package_scripts,
    "mix.exs": read_mix_aliases,
    "tox.ini": read_tox_ini,
    "noxfile.py": read_noxfile,
    ".pre-commit-config.yaml": read_pre_commit,
    ".pre-commit-config.yml": read_pre_commit,
    "composer.json": read_composer_scripts,
    "Taskfile.yml": read_taskfile,
    "Taskfile.yaml": read_taskfile,
    "pyproject.toml": read_pyproject_tasks,
    "mise.toml": read_mise_tasks,
    ".mise.toml": read_mise_tasks,
    "pixi.toml": read_pixi_tasks,
    "deno.json": read_deno_tasks,
    "deps.edn": read_edn_aliases,
    "Rakefile": read_rakefile,
    "rakefile": read_rakefile,
    **BUILD_STEP_READERS,
}
#: Readers of the task-runner configuration kept in a folder of its own (`NESTED_TASK_FILES`).
NESTED_TASK_READERS: Mapping[str, TaskReader] = {
    ".config/mise.toml": read_mise_tasks,
    ".config/mise/config.toml": read_mise_tasks,
    ".mise/config.toml": read_mise_tasks,
    "mise/config.toml": read_mise_tasks,
    ".cargo/config.toml": read_cargo_aliases,
    ".cargo/config": read_cargo_aliases,
}


def task_reader_for(path: str) -> TaskReader | None:
    """The reader of the task-runner file at `path` (a project-relative path), if it is one."""
    nested = nested_task_file(path)
    if nested is not None:
        return NESTED_TASK_READERS[nested]
    return TASK_READERS.get(posixpath.basename(path))
