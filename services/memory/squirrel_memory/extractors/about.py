"""What the project is, from the README or manifest the assistant read in a session.

Sessions of a project whose repository is not registered still show what it is: the assistant
reads the root README, `pyproject.toml` or `package.json` early on. The file's text (the Read
tool's output, its line numbers stripped) goes through the same readers as a repository scan,
so a session says what a scan would: the README's first paragraph that describes the project,
else a manifest's one-line `description` or a docs site's (`mkdocs.yml`, `book.toml`). Files
in sub-folders or outside the project (a dependency's README) say nothing about this project.
"""

from __future__ import annotations

from collections.abc import Callable

import structlog

from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import file_text, read_output
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import instruction_kind, read_instruction_file
from squirrel_memory.repository.manifests import manifest_reader
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.site_configs import site_config_reader
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.wording import about_text

log = structlog.get_logger()

ABOUT_KEY = "about"


def root_file_read(event: StoredEvent, wanted: Callable[[str], bool]) -> str | None:
    """The project-root file a successful Read returned, when `wanted(path)` accepts it."""
    if read_output(event) is None:
        return None
    for raw in event.file_paths:
        path = relative_path(raw, event.project_id)
        if not path or "/" in path or path.startswith("~"):
            continue
        if wanted(path):
            return path
    return None


def _describes(path: str) -> bool:
    return (
        instruction_kind(path) == "readme"
        or manifest_reader(path) is not None
        or site_config_reader(path) is not None
    )


def _read(path: str, text: TextFile, out: Readings) -> None:
    reader = manifest_reader(path) or site_config_reader(path)
    try:
        if reader is not None:
            reader(text, out)
        else:
            read_instruction_file(text, out, "readme")
    except PARSE_ERRORS as exc:  # a partial or malformed read: this file says nothing
        log.debug("session_file_unreadable", path=path, reason=type(exc).__name__)


def session_about(events: list[StoredEvent]) -> tuple[str, str, tuple[str, ...]] | None:
    """(statement, file it came from, event ids) saying what the project is, or None."""
    readings = Readings()
    sources: dict[str, str] = {}
    for event in events:
        path = root_file_read(event, _describes)
        if path is None:
            continue
        before = readings.description_ref
        _read(path, TextFile.of(path, file_text(event.content["output"])), readings)
        if readings.description_ref != before:
            sources[readings.description_ref] = event.id
    if not readings.description:
        return None
    source = readings.description_ref.split(":", 1)[0]
    name = readings.name or "unnamed"
    text = about_text(name, readings.description, source)
    return text, source, (sources[readings.description_ref],)
