"""A registered project whose folder was renamed or moved: what became of it, and carrying its
store to the new folder (`sqrl init --moved-from OLD`).

A project's id is its folder's path, so a renamed folder is a project this home does not know:
its memories stay in the old project's store (under the home with `storage.location=home`, or
in `.ctx/` that moved with the folder), and the new folder would get a fresh, empty one. Nothing
is moved by guessing. What tells the user:

- `gone_line`: the one line `sqrl status` and `sqrl doctor` print for a registered folder that is
  gone, naming where its memories are kept and the command that carries them;
- `moved_store`: a `.ctx/` found in a folder being registered whose marker this home signed for
  a registered project that is gone is that project, moved (the signature proves it);
- `move_project`: carries the store (its folder when under the home, the project id in its rows,
  its signed marker, the home's records) to the new folder, once the memory service is stopped.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError
from squirrel_core.files import write_private_file
from squirrel_core.home import HomeLayout
from squirrel_core.projects import read_projects, shown_path
from squirrel_core.service_info import pid_alive, read_service_info
from squirrel_core.store_paths import CTX_DIR_NAME, DATA_DB_NAME
from squirrel_core.store_placement import (
    Location,
    _locked,
    _marker_id,
    _read_entries,
    _read_key,
    _write_entries,
    _write_marker,
    home_store_dir,
)
from squirrel_core.worktrees import WorktreeMemory

#: The tables whose rows name their project (`project_id`); nothing else in `data.db` does.
_RENAMES = tuple(
    f"UPDATE {table} SET project_id = ? WHERE project_id = ?"  # noqa: S608 - fixed names
    for table in ("events", "episodes", "memory_items", "source_cursors")
)


@dataclass(frozen=True, slots=True)
class Moved:
    """What `move_project` carried: the store's folder now, and what it holds."""

    old: str
    new: str
    store_dir: Path
    memories: int
    events: int
    carried: int = 0
    """Events of sessions run in the new folder before the carry (in the store `sqrl init` made
    there), carried over to be processed again."""


def _entry_location(layout: HomeLayout, root: str) -> Location | None:
    entry = _read_entries(layout).get(root)
    if entry is None:
        return None
    return Location.HOME if entry.get("location") == "home" else Location.REPO


def kept_at_home(layout: HomeLayout, root: str) -> Path | None:
    """The store folder under the home that holds `root`'s memories, if there is one."""
    try:
        location = _entry_location(layout, root)
    except FailedPreconditionError:
        return None
    store = home_store_dir(layout, root)
    return store if location is Location.HOME and (store / DATA_DB_NAME).is_file() else None


def gone_line(layout: HomeLayout, root: str) -> str:
    """The one line for a registered project whose folder is gone: where its memories are and
    what to run (`sqrl init --moved-from`), or how to drop it when it kept none."""
    shown = shown_path(root)
    fix = f"run `sqrl init --moved-from {shown}` in its new folder"
    try:
        location = _entry_location(layout, root)
    except FailedPreconditionError:
        location = None
    store = kept_at_home(layout, root)
    if store is not None:
        return (
            f"the project folder {shown} is gone; its memories are kept in {store}: "
            f"if it was moved or renamed, {fix}"
        )
    if location is Location.REPO:
        return (
            f"the project folder {shown} is gone, and its memories with it (in its "
            f"{CTX_DIR_NAME}/): if it was moved or renamed, {fix}"
        )
    return (
        f"the project folder {shown} is gone; re-create it or forget it "
        f"(`sqrl projects --forget {shown}`)"
    )


def gone_projects(layout: HomeLayout) -> list[str]:
    """Registered projects whose folder is gone."""
    return [root for root in read_projects(layout.projects) if not Path(root).is_dir()]


def moved_store(layout: HomeLayout, new_root: Path) -> str | None:
    """The registered project, its folder gone, whose signed `.ctx/` is now in `new_root`."""
    store = new_root / CTX_DIR_NAME
    if not (store / DATA_DB_NAME).is_file():
        return None
    key = _read_key(layout)
    if key is None:
        return None
    entries = _read_entries(layout)
    for old in gone_projects(layout):
        if old == str(new_root) or old not in entries:
            continue
        if _marker_id(store, key, old)[0] == entries[old]["store_id"]:
            return old
    return None


def _memory_running(layout: HomeLayout) -> bool:
    info = read_service_info(layout.service_file("memory"))
    return info is not None and pid_alive(info.pid)


def _counts(db: Path) -> tuple[int, int]:
    """(memories, events) in a store's `data.db`."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        memories = conn.execute("SELECT count(*) FROM memory_items WHERE deleted = 0").fetchone()
        events = conn.execute("SELECT count(*) FROM events").fetchone()
    return int(memories[0]), int(events[0])


def _made_here(target: Path, key: bytes, new_id: str) -> str | None:
    """Why the store at the new folder (made by `sqrl init` there before the carry) cannot give
    way to the carried one, or None when it can: it is this home's for the new folder, and
    nothing in it was written by hand (its events are carried over; the memories the rules or
    a model drew from them are drawn again from them)."""
    if target.is_symlink() or not target.is_dir() or _marker_id(target, key, new_id)[0] is None:
        return f"{target} is not a store this home made for {new_id}"
    db = target / DATA_DB_NAME
    if not db.is_file():
        return None
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            (manual,) = conn.execute(
                "SELECT count(*) FROM memory_items WHERE deleted = 0 AND source = 'manual'"
            ).fetchone()
    except sqlite3.Error as exc:
        return f"{db} cannot be read ({type(exc).__name__})"
    if manual:
        return (
            f"{new_id} already holds {manual} memories written by hand (`sqrl memories`); "
            "two such stores are never merged"
        )
    return None


def _carry_events(into: Path, made_here: Path) -> int:
    """The events and source cursors of the store made at the new folder (sessions run there
    before the carry) into the carried store, each event to be processed again there; returns
    how many events were new to it."""
    conn = sqlite3.connect(f"file:{into}", uri=True, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        conn.execute("ATTACH DATABASE ? AS made", (f"file:{made_here}?mode=ro",))
        conn.execute("BEGIN IMMEDIATE")
        carried = 0
        for table in ("events", "source_cursors"):
            ours = [r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")]
            theirs = {r[1] for r in conn.execute(f"PRAGMA made.table_info({table})")}
            names = [c for c in ours if c in theirs]
            values = ", ".join("NULL" if c == "processed_at" else c for c in names)
            verb = "INSERT OR IGNORE" if table == "events" else "INSERT OR REPLACE"
            done = conn.execute(
                f"{verb} INTO main.{table} ({', '.join(names)}) "  # noqa: S608 - fixed names
                f"SELECT {values} FROM made.{table}"
            )
            if table == "events":
                carried = max(done.rowcount, 0)
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE made")
        return carried
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()


def _rename_rows(db: Path, old: str, new: str) -> None:
    """The project id in every row that names it, in one transaction."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        conn.execute("BEGIN IMMEDIATE")
        for statement in _RENAMES:
            conn.execute(statement, (new, old))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()


def move_project(layout: HomeLayout, old: str, new: Path) -> Moved:
    """Carry the store of the registered project `old` (its folder gone) to `new`.

    Refused, changing nothing, while the memory service runs (it holds the store open), when
    `old` is not registered or its folder still exists (a copy is a project of its own), when
    its store is not found or not this home's, and when the store at `new` holds memories
    written by hand (two such stores are never merged). A store `sqrl init` made at `new`
    before gives way: the events of sessions run there since are carried, to be processed
    again, with their source cursors (so nothing is read twice); what the rules or a model drew
    from them is drawn again.
    """
    new_id = str(new)
    shown_old = shown_path(old)
    if old == new_id:
        raise InvalidArgumentError(f"{shown_old} is this folder; nothing to move")
    if old not in read_projects(layout.projects):
        raise InvalidArgumentError(
            f"{shown_old} is not a registered project (`sqrl status` lists them)"
        )
    if Path(old).exists():
        raise FailedPreconditionError(
            f"{shown_old} still exists, so {new_id} is a copy, not a move: it is a project of "
            "its own (`sqrl init` without --moved-from)"
        )
    if _memory_running(layout):
        raise FailedPreconditionError(
            f"the memory service has {shown_old}'s store open; stop the services (`sqrl down`), "
            f"run `sqrl init --moved-from {shown_old}` again, then `sqrl up`"
        )
    with _locked(layout):
        entries = _read_entries(layout)
        entry = entries.get(old)
        key = _read_key(layout)
        if entry is None or key is None:
            raise FailedPreconditionError(
                f"this home has no store recorded for {shown_old}; nothing to carry over"
            )
        location = Location.HOME if entry.get("location") == "home" else Location.REPO
        source = home_store_dir(layout, old) if location is Location.HOME else new / CTX_DIR_NAME
        store_id, why = _marker_id(source, key, old)
        if store_id is None or store_id != entry.get("store_id"):
            raise FailedPreconditionError(
                f"{source} is not {shown_old}'s store ({why or 'another store of it'}); "
                "nothing was moved"
            )
        target = home_store_dir(layout, new_id) if location is Location.HOME else source
        taken = target != source and (target.exists() or target.is_symlink())
        if taken and (why_not := _made_here(target, key, new_id)) is not None:
            raise FailedPreconditionError(f"{why_not}; nothing was moved")
        _rename_rows(source / DATA_DB_NAME, old, new_id)
        carried = 0
        if target != source:
            if taken:
                if (target / DATA_DB_NAME).is_file():
                    carried = _carry_events(source / DATA_DB_NAME, target / DATA_DB_NAME)
                shutil.rmtree(target)  # the store `sqrl init` made here, its events carried
            source.rename(target)
        _write_marker(target, key, new_id, store_id)
        entries.pop(new_id, None)
        entries[new_id] = {**entries.pop(old), "location": location.value}
        _write_entries(layout, entries)
        roots = [new_id if r == old else r for r in read_projects(layout.projects)]
        body = json.dumps({"projects": list(dict.fromkeys(roots))}, indent=2) + "\n"
        write_private_file(layout.projects, body.encode())
        if layout.worktrees.exists():
            worktrees = WorktreeMemory(layout.worktrees)
            worktrees.remember(new_id, [p for p, r in worktrees.entries().items() if r == old])
    memories, events = _counts(target / DATA_DB_NAME)
    return Moved(old, new_id, target, memories, events, carried)
