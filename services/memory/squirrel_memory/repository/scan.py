"""One reading of a repository: every reader run over the tracked files at HEAD, bounded.

A file that is missing, huge, binary or malformed is skipped with one structured log line
(`repository_file_skipped`: path, reason, error type — never content); every other file is
still read.
"""

from __future__ import annotations

import configparser
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

import structlog
import yaml

from squirrel_memory.repository.build_steps import is_shared_scheme, read_xcode_scheme
from squirrel_memory.repository.ci import is_ci_file, read_ci
from squirrel_memory.repository.findings import Dependency, Readings, folder_of
from squirrel_memory.repository.generated_code import generator_reader, is_generated
from squirrel_memory.repository.instructions import instruction_kind, read_instruction_file
from squirrel_memory.repository.languages import LanguageShare, is_excluded, language_shares
from squirrel_memory.repository.lockfiles import LOCK_READERS, Locked
from squirrel_memory.repository.manifests import MANIFEST_ECOSYSTEMS, manifest_reader
from squirrel_memory.repository.package_descriptions import description_reader
from squirrel_memory.repository.runners import task_reader_for
from squirrel_memory.repository.services import config_reader, configured_module, set_up_words
from squirrel_memory.repository.snapshot import Snapshot, TextFile, TrackedFile, take_snapshot

log = structlog.get_logger()

#: Deepest folder a manifest, task file or config is read from (`apps/web/mix.exs` is 2).
MAX_DEPTH = 2
#: What a reader may raise on a malformed file (the file is skipped, nothing else lost).
PARSE_ERRORS = (
    ValueError,
    yaml.YAMLError,
    ET.ParseError,
    configparser.Error,
    KeyError,
    TypeError,
    AttributeError,
    IndexError,
    RecursionError,
)


@dataclass(frozen=True, slots=True)
class RepositoryReading:
    """What one scan found: the readings, language shares and the files listed at `head`."""

    root: Path
    head: str
    readings: Readings
    shares: tuple[LanguageShare, ...]
    files: tuple[TrackedFile, ...]
    skipped: dict[str, str]


def _guarded(snap: Snapshot, path: str, work: Callable[[TextFile], None]) -> None:
    text = snap.read(path)
    if text is None:
        return
    try:
        work(text)
    except PARSE_ERRORS as exc:
        snap.skip(path, "malformed", error_type=type(exc).__name__)


def _folder_depth(folder: str) -> int:
    """How many folders down `folder` is ("" is the root: 0); a manifest there is read when
    this is at most `MAX_DEPTH`."""
    return folder.count("/") + 1 if folder else 0


def _read_file(
    snap: Snapshot, path: str, out: Readings, locks: dict[tuple[str, str], Locked]
) -> None:
    name = path.rsplit("/", 1)[-1]
    depth = path.count("/")
    kind = instruction_kind(path)
    if kind is not None:
        _guarded(snap, path, lambda t: read_instruction_file(t, out, kind))
    if is_ci_file(path):
        _guarded(snap, path, lambda t: read_ci(t, out))
    if is_shared_scheme(path):
        _guarded(snap, path, lambda t: read_xcode_scheme(snap, t, out))
    generator = generator_reader(path) if depth <= MAX_DEPTH else None
    if generator is not None:
        _guarded(snap, path, lambda t: generator(t, out))
    if depth > MAX_DEPTH:
        # Configuration whose convention puts it folders below its module (Spring's
        # `src/main/resources/`, an umbrella app's `lib/<app>/repo.ex`) is read wherever that
        # module's manifest is.
        module = configured_module(path)
        deep = config_reader(path)
        if module is not None and deep is not None and _folder_depth(module) <= MAX_DEPTH:
            _guarded(snap, path, lambda t: deep(t, out))
        return
    reader = manifest_reader(path)
    if reader is not None:
        _guarded(snap, path, lambda t: reader(t, out))
        if path in snap.skipped and name in MANIFEST_ECOSYSTEMS:
            # Unparsed, it still says which ecosystem lives here (its conventions still apply).
            out.manifests.setdefault(path, MANIFEST_ECOSYSTEMS[name])
    described = description_reader(path) if depth == 0 else None
    if described is not None and described is not reader and path not in snap.skipped:
        # A root manifest read for its name and one-line description only (`setup.py`,
        # `Package.swift`, a gemspec), as a session's read of it is.
        _guarded(snap, path, lambda t: described(t, out))
    task_reader = task_reader_for(path)
    if task_reader is not None:
        _guarded(snap, path, lambda t: task_reader(snap, t, out))
    config = config_reader(path)
    if config is not None:
        _guarded(snap, path, lambda t: config(t, out))
    if config is not None or (task_reader is not None and reader is None):
        # What configuration and process files name is set up (a manifest only declares).
        _guarded(snap, path, lambda t: out.set_up.update(set_up_words(t.text)))
    if name in LOCK_READERS:
        ecosystem, read_lock = LOCK_READERS[name]

        def lock(text: TextFile) -> None:
            locks[(folder_of(path), ecosystem)] = read_lock(text)

        _guarded(snap, path, lock)


def _locked(dep: Dependency, locks: dict[tuple[str, str], Locked]) -> Dependency:
    for folder in (folder_of(dep.manifest), ""):
        table = locks.get((folder, dep.ecosystem))
        found = table.get(dep.name) or table.get(dep.name.lower()) if table else None
        if found:
            return dataclasses.replace(dep, version=found[0], locked_ref=found[1])
    return dep


def read_repository(root: Path) -> RepositoryReading:
    """Read the repository at `root` (raises `NotARepositoryError` without git or commits)."""
    started = time.monotonic()
    snap = take_snapshot(root)
    out = Readings()
    locks: dict[tuple[str, str], Locked] = {}
    paths = sorted((p for p in snap.files if not is_excluded(p)), key=lambda p: (p.count("/"), p))
    for path in paths:
        _read_file(snap, path, out, locks)
    out.dependencies = [_locked(dep, locks) for dep in out.dependencies]
    out.forget_a_part_s_name()
    out.prefer_own(root.resolve().name)
    files = tuple(snap.files.values())
    reading = RepositoryReading(
        root=root,
        head=snap.head,
        readings=out,
        shares=tuple(language_shares(f for f in files if not is_generated(f.path, out))),
        files=files,
        skipped=dict(snap.skipped),
    )
    log.info(
        "repository_read",
        files_tracked=len(files),
        dependencies=len(out.dependencies),
        commands=len(out.commands),
        skipped=len(snap.skipped),
        duration_ms=round((time.monotonic() - started) * 1000),
    )
    return reading
