"""Where each assistant keeps its transcripts, and the parser for each file found there."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from squirrel_core.events import SourceTool
from squirrel_ingest.parsers import is_whole_document, line_parser_for, parser_for
from squirrel_ingest.parsers.claude import ClaudeFileParser
from squirrel_ingest.parsers.gemini_document import GeminiDocumentParser
from squirrel_ingest.reading import DocumentParser, LineParser, ParserFactory
from squirrel_ingest.routing import ProjectRouter


def gemini_project_dir(path: Path) -> Path | None:
    """`tmp/<project-id>/` of a Gemini chat file (chats may sit one folder deeper)."""
    for parent in path.parents:
        if parent.name == "chats":
            return parent.parent
    return None


def gemini_cwd(path: Path, registered: list[str]) -> str | None:
    """The folder a Gemini chat ran in: the `.project_root` marker (v0.29+), else the registered
    root whose sha256 is the folder name (≤ v0.28), else the slug Gemini derives from its name."""
    folder = gemini_project_dir(path)
    if folder is None:
        return None
    marker = folder / ".project_root"
    try:
        text = marker.read_text().strip()
        if text:
            return text
    except OSError:
        pass
    for root in registered:
        if hashlib.sha256(root.encode()).hexdigest() == folder.name:
            return root
    projects = folder.parent.parent / "projects.json"
    try:
        mapping = json.loads(projects.read_text()).get("projects", {})
        for root, slug in mapping.items():
            if slug == folder.name:
                return str(root)
    except (OSError, ValueError, AttributeError):
        pass
    return None


def _claude_transcript(path: Path) -> bool:
    name = path.name
    return name.endswith(".jsonl") and name not in {"history.jsonl", "journal.jsonl"}


def parser_factory(router: ProjectRouter) -> ParserFactory:
    """A fresh parser for a file under a root of `source`, or None for files that are not
    transcripts (prompt histories, metadata, tool outputs)."""

    def make(path: Path, source: SourceTool) -> LineParser | DocumentParser | None:
        found = parser_for(str(path))
        if found is None and source is SourceTool.CLAUDE_CODE and _claude_transcript(path):
            # Every root of this source is a Claude `projects` folder, whatever it is called.
            return ClaudeFileParser(str(path))
        if found is not source:
            return None
        if source is SourceTool.GEMINI_CLI:
            cwd = gemini_cwd(path, sorted(router.project_ids))
            if is_whole_document(str(path)):
                return GeminiDocumentParser(cwd=cwd)
            return line_parser_for(str(path), cwd=cwd)
        return line_parser_for(str(path))

    return make
