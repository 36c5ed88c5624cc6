"""What the modules a session worked in say they do: the docstring, `@moduledoc` or doc comment
of the file that speaks for a module, or its folder's README; a module that says nothing of
itself is not written (a list of its files tells nobody anything)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.file_reads import file_text, whole_read_output
from squirrel_memory.extractors.manifests import first_project_path
from squirrel_memory.extractors.modules import (
    file_description,
    module_name,
    says_more_than,
    speaks_for_module,
)
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import read_instruction_file
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.snapshot import TextFile

#: Modules written as facts at most.
MAX_MODULE_FACTS = 5


def _whole_file(event: StoredEvent) -> tuple[str, str] | None:
    """(project path, text) of a whole file a session read or wrote (a Read from line 1, or a
    Write's content); None for partial reads, edits and failures."""
    content: dict[str, Any] = event.content
    rel = first_project_path(event)
    if rel is None:
        return None
    if event.event_type == EventType.TOOL_CALL and isinstance(content.get("input"), dict):
        written = content["input"].get("content")
        return (rel, written) if isinstance(written, str) else None
    output = whole_read_output(event)
    return (rel, file_text(output)) if output is not None else None


#: Files of a module whose own docs are quoted when nothing speaks for the whole module.
MAX_FILE_DOCS = 3
FILE_DOC_CHARS = 120


@dataclass(slots=True)
class ModuleDocs:
    """What a module says of itself (`own`: the file or README that speaks for it) and what
    its files say of themselves (path → description), in first-read order."""

    own: tuple[str, str] | None = None
    files: dict[str, str] = field(default_factory=dict)

    def text(self, name: str) -> tuple[str, str] | None:
        """The memory's text and the file it came from first, or None when nothing says."""
        if self.own is not None and says_more_than(name, self.own[0]):
            description, source = self.own
            return f"Module `{name}`: {description}", source
        if not self.files:
            return None
        shown = list(self.files.items())[:MAX_FILE_DOCS]
        parts = [f"`{path}`: {doc.rstrip('.')}" for path, doc in shown]
        return f"Module `{name}`: " + "; ".join(parts) + ".", shown[0][0]


def module_docs(events: list[StoredEvent], project_id: str) -> dict[str, ModuleDocs]:
    """What each module says it does, from the whole files the sessions read or wrote: the
    docstring, `@moduledoc` or doc comment of the file that speaks for the module or the first
    paragraph of the README in its folder; else what its files' own docs say."""
    docs: dict[str, ModuleDocs] = {}
    for event in events:
        found = _whole_file(event)
        if found is None:
            continue
        path, text = found
        pure = PurePosixPath(path)
        if pure.name.lower() == "readme.md" and len(pure.parts) > 1:
            module = module_name(str(pure.parent / "x.ts"), project_id)
            if module is None or module.rsplit("/", 1)[-1] != pure.parent.name:
                continue
            readings = Readings()
            try:
                read_instruction_file(TextFile.of(path, text), readings, "readme")
            except PARSE_ERRORS:
                continue
            if readings.description:
                entry = docs.setdefault(module, ModuleDocs())
                entry.own = entry.own or (readings.description, path)
            continue
        module = module_name(path, project_id)
        if module is None:
            continue
        if speaks_for_module(path, module):
            description = file_description(path, text)
            if description:
                entry = docs.setdefault(module, ModuleDocs())
                entry.own = entry.own or (description, path)
        elif (description := file_description(path, text, FILE_DOC_CHARS)) is not None:
            docs.setdefault(module, ModuleDocs()).files.setdefault(path, description)
    return docs


def module_facts(
    paths: list[tuple[str, str]], project_id: str, docs: dict[str, ModuleDocs]
) -> list[Fact]:
    """The modules the sessions worked in, each with what it does (`_module_docs`); a module
    that says nothing of itself is not written (a list of its files tells nobody anything)."""
    events: dict[str, set[str]] = {}
    files: dict[str, dict[str, None]] = {}
    for path, event_id in paths:
        name = module_name(path, project_id)
        if name:
            events.setdefault(name, set()).add(event_id)
            files.setdefault(name, {}).setdefault(path, None)
    said = {name: found for name, entry in docs.items() if (found := entry.text(name))}
    ranked = sorted(
        (n for n in events if len(events[n]) >= 2 and n in said),
        key=lambda n: (-len(events[n]), n),
    )
    facts: list[Fact] = []
    for name in ranked[:MAX_MODULE_FACTS]:
        text, source = said[name]
        facts.append(
            Fact(
                f"module:{name}",
                text,
                ("module", name),
                round(min(0.6, 0.35 + 0.05 * len(events[name])), 2),
                tuple(sorted(events[name])),
                (source, *(p for p in files[name] if p != source)),
            )
        )
    return facts
