"""Tasks declared in TOML tables: mise (`[tasks]`), pixi (`pixi.toml`, `[tool.pixi.tasks]`), the
runners a `pyproject.toml` configures (poethepoet, PDM, Hatch) and Cargo aliases — each as the
command a person types (`mise run test`, `poe test`, `hatch run lint:check`, `cargo xtask`),
what the table says of it and its line. The other task runners are `runners`."""

from __future__ import annotations

import tomllib

from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.snapshot import Snapshot, TextFile
from squirrel_memory.repository.task_records import MAX_TASKS_PER_FILE, add_task


def read_mise_tasks(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """mise tasks in `mise.toml`: `[tasks.test] run = "go test ./..."` (or `[tasks] test =
    "…"`), run as `mise run <name>`."""
    del snap
    data = tomllib.loads(text.text)
    tasks = data.get("tasks") if isinstance(data, dict) else None
    for name, spec in list(tasks.items())[:MAX_TASKS_PER_FILE] if isinstance(tasks, dict) else []:
        body = spec.get("run") if isinstance(spec, dict) else spec
        steps = [body] if isinstance(body, str) else [s for s in body or () if isinstance(s, str)]
        line = text.line_of(f"[tasks.{name}]") or text.line_of(f"{name} =", text.line_of("[tasks"))
        about = described(spec, "description")
        add_task(out, text, f"mise run {name}", str(name), steps, line=line, about=about)


def described(spec: object, *keys: str) -> str:
    """A task table's own description (`desc`, `description`, `help`), if it has one."""
    if not isinstance(spec, dict):
        return ""
    return next((spec[k] for k in keys if isinstance(spec.get(k), str)), "")


def _toml_tasks(
    text: TextFile,
    out: Readings,
    tasks: object,
    runner: str,
    header: str,
    *,
    body_keys: tuple[str, ...] = ("cmd", "shell", "call"),
    name_prefix: str = "",
) -> None:
    """Tasks of one TOML table (`name = "cmd"`, `name = ["a", "b"]` or `name = {cmd = …}`),
    each typed as `runner` followed by its name."""
    if not isinstance(tasks, dict):
        return
    for name, spec in list(tasks.items())[:MAX_TASKS_PER_FILE]:
        body = (
            next((spec[k] for k in body_keys if k in spec), None)
            if isinstance(spec, dict)
            else spec
        )
        if isinstance(body, str):
            steps = [body]
        else:
            steps = [b for b in body if isinstance(b, str)] if isinstance(body, list) else []
        line = text.line_of(f"{name} =", text.line_of(header)) or text.line_of(header)
        about = described(spec, "description", "help")
        named = f"{name_prefix}{name}"
        add_task(out, text, f"{runner}{named}", named, steps, line=line, about=about)


def read_pixi_tasks(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """pixi tasks in `pixi.toml`: `[tasks] build = "cmake --build build"`, run as `pixi run
    build`."""
    del snap
    data = tomllib.loads(text.text)
    _toml_tasks(text, out, data.get("tasks"), "pixi run ", "[tasks")


def read_pyproject_tasks(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """The task runners a `pyproject.toml` configures: poethepoet (`[tool.poe.tasks]`, `poe
    test`), PDM (`[tool.pdm.scripts]`, `pdm run test`), Hatch (`[tool.hatch.envs.<env>.scripts]`,
    `hatch run <env>:test`) and pixi (`[tool.pixi.tasks]`, `pixi run test`)."""
    data = tomllib.loads(text.text)
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return
    read_poe_tasks(snap, text, out)
    pdm = tool.get("pdm")
    if isinstance(pdm, dict):
        _toml_tasks(
            text,
            out,
            pdm.get("scripts"),
            "pdm run ",
            "[tool.pdm.scripts",
            body_keys=("cmd", "shell", "call", "composite"),
        )
    hatch = tool.get("hatch")
    envs = hatch.get("envs") if isinstance(hatch, dict) else None
    for env, spec in envs.items() if isinstance(envs, dict) else ():
        scripts = spec.get("scripts") if isinstance(spec, dict) else None
        prefix = "" if env == "default" else f"{env}:"
        # A script is named with its environment (`lint:check`): the environment says what
        # a script named for a gate (`check`) is for.
        _toml_tasks(text, out, scripts, "hatch run ", f"[tool.hatch.envs.{env}", name_prefix=prefix)
    pixi = tool.get("pixi")
    if isinstance(pixi, dict):
        _toml_tasks(text, out, pixi.get("tasks"), "pixi run ", "[tool.pixi.tasks")


def read_poe_tasks(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """poethepoet tasks in pyproject.toml: `[tool.poe.tasks] test = "pytest"`, run as `poe test`."""
    del snap
    data = tomllib.loads(text.text)
    tool = data.get("tool")
    poe = tool.get("poe") if isinstance(tool, dict) else None
    tasks = poe.get("tasks") if isinstance(poe, dict) else None
    for name, spec in list(tasks.items())[:MAX_TASKS_PER_FILE] if isinstance(tasks, dict) else []:
        body = (
            spec if isinstance(spec, str) else spec.get("cmd") if isinstance(spec, dict) else None
        )
        steps = [body] if isinstance(body, str) else []
        line = text.line_of(f"{name} =", text.line_of("[tool.poe.tasks"))
        about = described(spec, "help")
        add_task(out, text, f"poe {name}", str(name), steps, line=line, about=about)


def read_cargo_aliases(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """Cargo aliases in `.cargo/config.toml`: `[alias] xtask = "run --package xtask --"`, run
    as `cargo xtask`."""
    del snap
    data = tomllib.loads(text.text)
    aliases = data.get("alias") if isinstance(data, dict) else None
    if not isinstance(aliases, dict):
        return
    for name, body in list(aliases.items())[:MAX_TASKS_PER_FILE]:
        words = body if isinstance(body, str) else " ".join(b for b in body if isinstance(b, str))
        line = text.line_of(f"{name} =", text.line_of("[alias]"))
        add_task(out, text, f"cargo {name}", str(name), [f"cargo {words}"], line=line)
