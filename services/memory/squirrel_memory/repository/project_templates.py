"""A repository that is a project template: a Cookiecutter (`cookiecutter.json`) or Copier
(`copier.yml`) template at the root.

Its templated files (paths with a `{{ placeholder }}`, which the reading leaves out) hold what
a generated project will hold: the fact `repo:template` says so, so that the template's
framework or database is not taken for the repository's own; the tool's own scripts
(Cookiecutter's `hooks/`) are no application code either.
"""

from __future__ import annotations

from squirrel_memory.models import MemoryCandidate, MemoryType
from squirrel_memory.repository.scan import RepositoryReading
from squirrel_memory.repository.wording import candidate

#: A root file that makes the repository a template → the tool that generates from it.
_TEMPLATE_FILES = {
    "cookiecutter.json": "Cookiecutter",
    "copier.yml": "Copier",
    "copier.yaml": "Copier",
}
#: The folder of scripts each tool runs around generation (Cookiecutter's `hooks/`): the
#: template's machinery, not application code.
_TOOL_FOLDERS = {"Cookiecutter": frozenset({"hooks"})}


def _tool(tracked: set[str]) -> tuple[str, str] | None:
    return next(((n, tool) for n, tool in _TEMPLATE_FILES.items() if n in tracked), None)


def template_folders(reading: RepositoryReading) -> frozenset[str]:
    """Top folders of the template tool's own scripts, when the repository is a template."""
    found = _tool({f.path for f in reading.files})
    return _TOOL_FOLDERS.get(found[1], frozenset()) if found else frozenset()


def template_fact(reading: RepositoryReading) -> MemoryCandidate | None:
    """The fact that the repository is a project template, when a root file says so."""
    found = _tool({f.path for f in reading.files})
    if found is None:
        return None
    name, tool = found
    text = (
        f"This repository is a {tool} template ({name}): its templated files hold what a "
        "generated project will hold, not this repository's own stack."
    )
    return candidate(
        MemoryType.PROJECT_FACT,
        "template",
        text,
        refs=[f"{name}:1"],
        importance=0.7,
        tags=["template", tool],
        files=[name],
    )
