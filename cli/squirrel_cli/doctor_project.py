"""The checks `sqrl doctor` runs on one project: its store (where it is, its database, room to
write, the full-text index, source cursors, dead letters) and its vector index files (the index
and its sidecar, then the int8 copy and the 4-bit codes saved beside it), and their repairs.
The checks of the home's files and the `Check` they report are `doctor_checks`'."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.commands.memory import with_memory
from squirrel_cli.doctor_checks import Check, database_check
from squirrel_cli.parked_view import parked_lines
from squirrel_cli.store_writes import space_problem
from squirrel_core.clients import MemoryClient
from squirrel_core.codes_file import CodesFileError, codes_path_for, read_codes_file
from squirrel_core.errors import SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.int8_copy_file import CopyFileError, check_copy, copy_path_for
from squirrel_core.model_files import model_problem
from squirrel_core.settings import Settings
from squirrel_core.store_health import FullTextCounts, SourceCursorRow, forget_cursors, store_facts
from squirrel_core.store_paths import INDEX_FILE_NAME, ProjectPaths, meta_path_for
from squirrel_core.store_placement import inspect_store, location_of, place_store
from squirrel_core.store_setup import init_project_files

REINDEX_TIMEOUT = 600.0
INDEX_SETTLE_SECONDS = 5.0
"""How long doctor waits for a running memory service's batched index save (2 s after a change)."""


_DIGESTS: dict[Path, tuple[tuple[int, int, int, int], str]] = {}
"""The index file's SHA-256 by path, with the stat it was taken at (the last one per path)."""


def index_digest(index: Path) -> str:
    """The SHA-256 of `index`, read once while the file stays as it was: the vector index's
    check, its int8 copy's and its codes' each hold the index to its sidecar's digest, and a
    large index is hundreds of megabytes. A file changed since (another size, time or inode: a
    running service saved it again) is read again. Streamed, never read whole into memory."""
    info = index.stat()
    seen = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    kept = _DIGESTS.get(index)
    if kept is not None and kept[0] == seen:
        return kept[1]
    with index.open("rb") as file:
        digest = hashlib.file_digest(file, "sha256").hexdigest()
    _DIGESTS[index] = (seen, digest)
    return digest


def _search_check(name: str, counts: FullTextCounts) -> Check:
    if counts.in_step:
        return Check(name, True, f"{counts.live} live memories, all in the full-text index")
    return Check(
        name,
        False,
        f"{counts.live} live memories but {counts.docs} full-text entries ({counts.rows} rows, "
        f"{counts.missing} missing)",
    )


def _vector_check(
    name: str,
    paths: ProjectPaths,
    live_ids: frozenset[str],
    memory_up: bool,
    settings: Settings | None,
) -> Check:
    """`settings` given means repair (through the running memory service)."""
    index = paths.index_dir / INDEX_FILE_NAME
    # A running memory service writes the index a moment after each change (saves are
    # batched): give a file that is missing or behind that moment before calling it a problem.
    problem = _settled(
        lambda: _vector_problem(index, live_ids),
        lambda problem: problem is not None and _settling(problem),
        memory_up,
    )
    if problem is None:
        return Check(name, True, f"{index.name} holds all {len(live_ids)} live memories")
    if model_problem() is not None:
        # Not this index's fault: there is no model to make vectors with (its own check says so).
        return Check(name, True, "no vectors without the embedding model (see above)", info=True)
    if settings is None:
        hint = "`sqrl reindex` rebuilds it" if memory_up else "rebuilt when `sqrl up` starts"
        return Check(name, False, f"{problem} ({hint})")
    if not memory_up:
        return Check(name, False, f"{problem}; start `sqrl up` to rebuild it")
    try:
        count = int(reindex(settings, str(paths.root)).memories_indexed)
    except SquirrelError as exc:
        return Check(name, False, f"{problem}; reindex failed ({exc})")
    return Check(name, True, f"{problem}; reindexed {count} memories", repaired=True)


def _settled(
    problem_of: Callable[[], str | None], waiting: Callable[[str | None], bool], memory_up: bool
) -> str | None:
    """`problem_of()`, asked again every 0.2 s while the memory service runs and `waiting`
    holds of the answer (its batched save may not have reached the files yet), for up to
    `INDEX_SETTLE_SECONDS`."""
    problem = problem_of()
    deadline = time.monotonic() + INDEX_SETTLE_SECONDS
    while memory_up and waiting(problem) and time.monotonic() < deadline:
        time.sleep(0.2)
        problem = problem_of()
    return problem


def _settling(problem: str) -> bool:
    return "missing" in problem or "out of step" in problem


def _vector_problem(index: Path, live_ids: frozenset[str]) -> str | None:
    meta_path = meta_path_for(index)
    if not index.exists() or not meta_path.exists():
        return None if not live_ids else f"{index} or its sidecar is missing"
    try:
        meta = json.loads(meta_path.read_text())
        ids = {str(pair[0]) for pair in meta["ids"]}
        digest = str(meta["sha256"])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return f"{meta_path} is not a readable sidecar"
    if index_digest(index) != digest:
        return f"{index} does not match its sidecar (corrupt)"
    if ids != live_ids:
        return (
            f"{index} is out of step: {len(live_ids - ids)} memories missing, "
            f"{len(ids - live_ids)} stale"
        )
    return None


def _beside_index(
    name: str,
    paths: ProjectPaths,
    memory_up: bool,
    path_for: Callable[[Path], Path],
    problem_of: Callable[[Path, Path], str | None],
) -> Check | tuple[Path, str] | None:
    """A file saved beside the vector index (at `path_for(index)`), held against the index by
    `problem_of` once a running service's save has settled (it writes index, sidecar, then the
    file): None when there is nothing to check, a passing check when it belongs, else its path
    and why it does not."""
    index = paths.index_dir / INDEX_FILE_NAME
    beside = path_for(index)
    problem = _settled(lambda: problem_of(index, beside), bool, memory_up)
    if problem is None:
        return None
    if not problem:
        return Check(name, True, f"{beside.name} belongs to {index.name}")
    return beside, problem


def _copy_check(name: str, paths: ProjectPaths, memory_up: bool, repair: bool) -> Check | None:
    """The int8 copy saved beside the vector index (`memories.int8`), when there is one and the
    index itself is readable. A copy that does not belong to the index is never used: the
    memory service makes it again from the index at each start, which takes longer on a large
    index, and saves it. `repair` removes the bad file (it is only ever a copy)."""
    found = _beside_index(name, paths, memory_up, copy_path_for, _copy_problem)
    if not isinstance(found, tuple):
        return found
    copy, problem = found
    detail = f"{copy} is not used: {problem}"
    when = "at its next start" if not memory_up else "when it next saves or starts"
    if not repair:
        return Check(
            name,
            False,
            f"{detail}; the memory service makes the copy again from the index at each start "
            "(slower on a large index) until the file is replaced (--repair removes it)",
        )
    try:
        copy.unlink(missing_ok=True)
    except OSError as exc:
        return Check(name, False, f"{detail}; removing it failed ({type(exc).__name__})")
    return Check(name, True, f"{detail}; removed, the memory service saves a new one {when}", True)


def _copy_problem(index: Path, copy: Path) -> str | None:
    """None when there is no copy or no readable index to hold it against, "" when the copy
    belongs to the index, else why it does not."""
    meta_path = meta_path_for(index)
    if not copy.exists() or not index.is_file() or not meta_path.is_file():
        return None
    try:
        meta = json.loads(meta_path.read_text())
        digest, dim, count = str(meta["sha256"]), int(meta["dim"]), int(meta["count"])
    except (OSError, ValueError, KeyError, TypeError):
        return None  # the vector index's own check reports the sidecar
    try:
        if index_digest(index) != digest:
            return None  # the index does not match its sidecar: its own check says so
        check_copy(copy.read_bytes(), digest, dim=dim, count=count)
    except OSError as exc:
        return f"it cannot be read ({type(exc).__name__})"
    except CopyFileError as exc:
        return str(exc)
    return ""


def _codes_check(name: str, paths: ProjectPaths, memory_up: bool) -> Check | None:
    """The 4-bit codes saved beside a large vector index, flat or IVF (`memories.pq4`), when
    there is a file and the index itself is readable, checked as the memory service checks it on
    load (without FAISS: the header, checksum, index hash and live ids).
    A file that does not belong is a warning, not a failure: the service never uses it, trains
    the codes again from the index at its next start (slower on a large index) and saves them."""
    found = _beside_index(name, paths, memory_up, codes_path_for, _codes_problem)
    if not isinstance(found, tuple):
        return found
    codes, problem = found
    return Check(
        name,
        True,
        f"{codes} is not used: {problem}; the memory service trains the codes again from the "
        "index at its next start (slower on a large index) and saves a new file; nothing is lost",
        warn=True,
    )


def _codes_problem(index: Path, codes: Path) -> str | None:
    """None when there is no codes file or no readable index to hold it against, "" when the
    file belongs to the index, else why it does not."""
    meta_path = meta_path_for(index)
    if not codes.exists() or not index.is_file() or not meta_path.is_file():
        return None
    try:
        meta = json.loads(meta_path.read_text())
        digest, dim = str(meta["sha256"]), int(meta["dim"])
        live_ids = {int(pair[1]) for pair in meta["ids"]}
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None  # the vector index's own check reports the sidecar
    try:
        if index_digest(index) != digest:
            return None  # the index does not match its sidecar: its own check says so
        read_codes_file(codes, digest, dim=dim, live_ids=live_ids)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be read ({type(exc).__name__})"
    except CodesFileError as exc:
        return str(exc)
    return ""


def reindex(settings: Settings, project: str) -> pb.ReindexResponse:
    """The project's vectors made again by the running memory service (`sqrl reindex`)."""

    async def work(client: MemoryClient) -> pb.ReindexResponse:
        reply: pb.ReindexResponse = await client.call(
            client.stub.Reindex, pb.ReindexRequest(project_id=project), timeout=REINDEX_TIMEOUT
        )
        return reply

    return with_memory(settings, work)


def _cursor_check(name: str, rows: Sequence[SourceCursorRow], db: Path, repair: bool) -> Check:
    gone: list[str] = []
    beyond: list[str] = []
    for row in rows:
        path = Path(row.path)
        if not path.is_file():
            gone.append(row.path)
        elif row.offset > path.stat().st_size:
            beyond.append(row.path)
    if not gone and not beyond:
        return Check(name, True, f"{len(rows)} source cursors, every file present and in range")
    detail = f"{len(gone)} cursors of missing files, {len(beyond)} past the end of their file"
    if not repair and not beyond:
        # Hosts delete their old transcripts (Claude Code after 30 days by default): what they
        # left behind costs nothing and loses nothing, so a healthy install stays green.
        detail = (
            f"{len(rows)} source cursors, {len(gone)} of files since deleted (a host's clean-up; "
            "harmless, --repair forgets them)"
        )
        return Check(name, True, detail, info=True)
    if not repair:
        return Check(name, False, f"{detail} (--repair forgets them; the files are re-read)")
    forget_cursors(db, gone + beyond)
    return Check(name, True, f"{detail}; forgotten (dedup keeps re-reads harmless)", True)


def project_checks(
    settings: Settings,
    root: str,
    *,
    data_schema: int,
    repair: bool,
    services_up: bool,
    memory_up: bool,
) -> list[Check]:
    """`data_schema`: the version of `data.db` this installation's memory service creates."""
    label = f"project {root}"
    if not Path(root).is_dir():
        from squirrel_core.project_move import gone_line  # noqa: PLC0415 - doctor only

        return [Check(label, False, gone_line(HomeLayout(settings.home), root))]
    layout = HomeLayout(settings.home)
    try:
        state = inspect_store(layout, root)
    except SquirrelError as exc:
        return [Check(f"{label} store", False, str(exc))]
    location = location_of(settings.str_("storage.location"))

    def place() -> Path:
        placed = place_store(layout, root, location=location, registered_before=True)
        init_project_files(Path(root), placed.store_dir)
        return placed.store_dir

    checks: list[Check] = []
    if not state.trusted and state.reason != "no store yet":
        if not repair:
            detail = (
                f"{state.store_dir}: {state.reason}; never read "
                "(`sqrl up` or --repair sets it aside)"
            )
            return [Check(f"{label} store", False, detail)]
        place()
        state = inspect_store(layout, root)
    if state.notice:
        checks.append(Check(f"{label} store", True, state.notice, info=True))
    paths = ProjectPaths(Path(root), state.store_dir)

    def init(_: Path) -> None:
        place()

    db_check, readable = database_check(
        label,
        paths.data_db,
        data_schema,
        thorough=not services_up,
        repair=init if repair else None,
    )
    checks.append(db_check)
    space = space_problem(state.store_dir)
    checks.append(Check(f"{label} store writes", space is None, space or "writable, space free"))
    if not readable:
        return checks
    facts = store_facts(paths.data_db)
    checks.append(_search_check(f"{label} full-text index", facts.full_text))
    live = facts.live_ids
    checks.append(_cursor_check(f"{label} source cursors", facts.cursors, paths.data_db, repair))
    parked = list(facts.dead_letters)
    checks.append(
        _vector_check(f"{label} vector index", paths, live, memory_up, settings if repair else None)
    )
    copy = _copy_check(f"{label} vector index int8 copy", paths, memory_up, repair)
    if copy is not None:
        checks.append(copy)
    codes = _codes_check(f"{label} vector index codes", paths, memory_up)
    if codes is not None:
        checks.append(codes)
    checks.append(
        Check(
            f"{label} dead letters",
            not parked,
            "none" if not parked else " | ".join(parked_lines("", parked)),
        )
    )
    return checks
