"""CI workflows: the commands CI runs (GitHub Actions, GitLab CI) and the services it starts."""

from __future__ import annotations

import posixpath
import re
from typing import Any

import yaml

from squirrel_core.commands import typed_commands
from squirrel_memory.repository.findings import Command, Readings, Service
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.stack import image_role
from squirrel_memory.repository.task_records import purpose_of

#: The checkout's root as a workflow names it: `${{ github.workspace }}`, `$GITHUB_WORKSPACE`,
#: `$CI_PROJECT_DIR` (GitLab), alone or followed by a folder.
_WORKSPACE = re.compile(
    r"^(?:\$\{\{\s*github\.workspace\s*\}\}|\$\{?GITHUB_WORKSPACE\}?|\$\{?CI_PROJECT_DIR\}?)(?:/|$)"
)

#: Commands kept per workflow file.
MAX_CI_COMMANDS = 40


def is_ci_file(path: str) -> bool:
    """GitHub Actions workflows and the GitLab CI file."""
    if path.startswith(".github/workflows/") and path.endswith((".yml", ".yaml")):
        return path.count("/") == 2
    return path in (".gitlab-ci.yml", ".gitlab-ci.yaml")


def project_folder(folder: str) -> str | None:
    """`folder` as a path inside the checkout (`""` for its root), or None when it lies outside
    it (`../lib`, `/opt/tool`, `$HOME/x`). A leading `./` goes; `.config` keeps its dot."""
    folder = _WORKSPACE.sub("", folder.strip(), count=1)
    if not folder:
        return ""
    if folder.startswith(("/", "~", "$")):
        return None
    normal = posixpath.normpath(folder)
    if normal == ".." or normal.startswith("../"):
        return None
    return "" if normal == "." else normal


def read_ci(text: TextFile, out: Readings) -> None:
    data = yaml.safe_load(text.text)
    if not isinstance(data, dict):
        raise ValueError("a workflow must be a mapping")
    out.ci_files.append(text.path)
    scripts: list[tuple[str, str]] = []
    if text.path.startswith(".github/"):
        for raw_job in _mapping(data.get("jobs")).values():
            job = _mapping(raw_job)
            _services(text, _mapping(job.get("services")), out)
            for step in job.get("steps") or []:
                run = _mapping(step).get("run")
                if isinstance(run, str):
                    scripts.append((run, str(_mapping(step).get("working-directory") or "")))
    else:
        listed = data.get("services") or []
        _services(text, {str(i): s for i, s in enumerate(listed)}, out)
        for job in data.values():
            for key in ("before_script", "script"):
                for line in _mapping(job).get(key) or []:
                    if isinstance(line, str):
                        scripts.append((line, ""))
    seen: set[str] = set()
    for script, folder in scripts:
        for raw in script.splitlines():
            for typed in typed_commands(raw.strip()):
                found = purpose_of(typed.text)
                if found is None or typed.text in seen or len(seen) >= MAX_CI_COMMANDS:
                    continue
                scope = project_folder(folder or typed.scope)
                if scope is None:  # run in a folder outside the checkout: not the project's
                    continue
                seen.add(typed.text)
                out.commands.append(
                    Command(
                        text=typed.text,
                        purpose=found[0],
                        ecosystem=found[1],
                        scope=scope,
                        origin="ci",
                        ref=text.ref_of(raw.strip()),
                    )
                )


def _services(text: TextFile, services: dict[str, Any], out: Readings) -> None:
    for name, spec in services.items():
        image = spec.get("image") if isinstance(spec, dict) else spec
        if isinstance(image, dict):
            image = image.get("name")
        if not isinstance(image, str):
            continue
        role = image_role(image)
        if role is not None:
            ref = text.ref_of(image) if image in text.text else text.ref_of(f"{name}:")
            out.services.append(Service(role.role, role.name, ref, via="CI"))


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
