"""Taking a project off this home's registry (`sqrl projects --forget`), its store kept unless
asked, and then only a store this home made for it.

Forgetting removes the folder from `projects.json`: the services read that file on use, so
they stop serving and reading it at once. Its store stays where it is, with its record in
`stores.json`, so `sqrl init` there later opens the same memories again (the signed marker
still verifies). `delete_store` also deletes the store's folder and its record, only when the
folder's marker verifies under this home's key for this project and names the store id the
home recorded for it: a `.ctx/` committed to git, copied from elsewhere, made by another home
or set aside as foreign is never deleted. It is refused, changing nothing, while the memory
service runs (it may hold the store open).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from squirrel_core.errors import FailedPreconditionError, NotFoundError
from squirrel_core.home import HomeLayout
from squirrel_core.project_move import _counts, _memory_running
from squirrel_core.projects import read_projects, remove_project, shown_path
from squirrel_core.store_paths import DATA_DB_NAME
from squirrel_core.store_placement import (
    _locked,
    _marker_id,
    _read_entries,
    _read_key,
    _write_entries,
    inspect_store,
)


@dataclass(frozen=True, slots=True)
class OwnStore:
    """A store this home made for a project: its folder and what it holds."""

    store_dir: Path
    memories: int
    events: int


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What `forget_project` did: the project taken off, and its store kept or deleted."""

    root: str
    store_dir: Path | None
    """The store's folder (kept, or deleted when `deleted`); None when none was found."""
    deleted: bool


def require_registered(layout: HomeLayout, root: str) -> str:
    """`root` if this home registers it; else NotFound, in one line."""
    if root not in read_projects(layout.projects):
        raise NotFoundError(
            f"{shown_path(root)} is not a registered project; `sqrl projects` lists them"
        )
    return root


def own_store(layout: HomeLayout, root: str) -> OwnStore | None:
    """The store this home made for the registered `root` (None when there is none); refused
    when one is there that this home did not make for it (it is never deleted)."""
    require_registered(layout, root)
    state = inspect_store(layout, root)
    store_dir = state.store_dir
    if not (store_dir.exists() or store_dir.is_symlink()):
        return None
    entry = _read_entries(layout).get(root)
    store_id, why = _marker_id(store_dir, _read_key(layout), root)
    if entry is None or store_id is None or store_id != entry.get("store_id"):
        raise FailedPreconditionError(
            f"{store_dir} is not a store this home made for {shown_path(root)} "
            f"({why or 'another store of it'}); it is never deleted, and nothing was changed"
        )
    db = store_dir / DATA_DB_NAME
    memories, events = _counts(db) if db.is_file() else (0, 0)
    return OwnStore(store_dir, memories, events)


def forget_project(layout: HomeLayout, root: str, *, delete_store: bool = False) -> Forgotten:
    """Take `root` off the registry; with `delete_store`, delete its store too (see the module).

    Every refusal comes before anything changes: an unregistered root, a store that is not this
    home's own for it, the memory service running."""
    require_registered(layout, root)
    if not delete_store:
        state = inspect_store(layout, root)
        kept = state.store_dir if (state.store_dir / DATA_DB_NAME).is_file() else None
        remove_project(layout.projects, Path(root))
        return Forgotten(root, kept, deleted=False)
    if _memory_running(layout):
        raise FailedPreconditionError(
            f"the memory service may have {shown_path(root)}'s store open; stop the services "
            "(`sqrl down`), run this again, then `sqrl up`"
        )
    with _locked(layout):
        store = own_store(layout, root)
        remove_project(layout.projects, Path(root))
        if store is None:
            return Forgotten(root, None, deleted=False)
        entries = _read_entries(layout)
        entries.pop(root, None)
        _write_entries(layout, entries)
        shutil.rmtree(store.store_dir)
        return Forgotten(root, store.store_dir, deleted=True)
