"""The language version a project-root manifest the session read asks for.

A manifest read in a session says more than which language the project is written in: its
`requires-python = ">=3.10"`, `"engines": {"node": ">=20"}`, `go 1.22`, `rust-version`,
composer's `"php": "^8.2"` or a POM's `maven.compiler.release` is the version every later
change must keep working on. The manifest's text (the read's output) goes through the readers a
repository scan uses (`manifest_reader`); only a file at the project root counts (a
sub-folder's or a dependency's manifest speaks for another package), and the last read of each
manifest is the one kept. A read cut short or a file that does not parse says nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import structlog

from squirrel_memory.extractors.about import last_root_reads
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.manifests import manifest_reader
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.stack import runtime_name

log = structlog.get_logger()

#: Longest version requirement quoted (characters): a longer one is a list of alternatives.
MAX_VERSION_CHARS = 24
_NUMBER = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class ManifestVersion:
    """A root manifest's language version: the manifest, what it is the version of, the
    requirement as written (`>=3.10`) and the read that showed it."""

    path: str
    runtime: str
    version: str
    event_id: str

    @property
    def said(self) -> str:
        """`Python >=3.10`; a version that names itself (`edition 2021`, `net8.0`) alone."""
        return self.version if self.version[:1].isalpha() else f"{self.runtime} {self.version}"


def _is_manifest(path: str) -> bool:
    return manifest_reader(path) is not None


def manifest_versions(events: list[StoredEvent]) -> dict[str, ManifestVersion]:
    """Each root manifest read in `events` (its last read) → the language version it asks
    for; a manifest that asks for none is not listed."""
    found: dict[str, ManifestVersion] = {}
    for path, (event, text) in last_root_reads(events, _is_manifest).items():
        reader = manifest_reader(path)
        if reader is None:
            continue
        out = Readings()
        try:
            reader(TextFile.of(path, text), out)
        except PARSE_ERRORS as exc:  # a partial or malformed read says nothing
            log.debug("session_manifest_unreadable", path=path, reason=type(exc).__name__)
            continue
        chain = next((t for t in out.toolchains if t.ref.split(":", 1)[0] == path), None)
        if chain is None:
            continue
        version = " ".join(chain.version.split())
        # A placeholder (`${java.version}`) or a list of alternatives says no one version.
        if not _NUMBER.search(version) or len(version) > MAX_VERSION_CHARS:
            continue
        found[path] = ManifestVersion(path, runtime_name(chain.ecosystem), version, event.id)
    return found
