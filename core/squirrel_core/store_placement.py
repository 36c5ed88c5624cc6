"""Which project stores this home made: signed markers, the store registry, foreign ones set aside.

A store this home creates holds `owner.json`: a random store id and an HMAC-SHA256 over the
project id and that id, keyed by `<home>/store.key` (0600; it never leaves the home).
`<home>/stores.json` records each project's store id, where the store lives and what was set
aside. A store folder is opened only when its marker verifies for this project under this key.

Anything else found where a store should be — committed to git, copied from another project or
machine, made by another home — is never opened:
- an untracked one is renamed to `.ctx.foreign-<time>/` and a fresh store is made;
- a tracked one is left exactly as the repository has it (moving it would delete tracked files
  from the checkout, and creating files at tracked paths would modify them), and the project's
  store is kept under the home instead.

Stores made before markers existed are adopted once, only when the project was registered in
this home before (`projects.json` lists it), the home has no store record for it yet, and
nothing under `.ctx/` is tracked by git.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import re
import secrets
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError
from squirrel_core.files import ensure_private_dir, write_private_file
from squirrel_core.home import HomeLayout
from squirrel_core.store_paths import CTX_DIR_NAME, DATA_DB_NAME

MARKER_NAME = "owner.json"
MARKER_FORMAT = 1
FOREIGN_PREFIX = f"{CTX_DIR_NAME}.foreign-"
EXCLUDE_PATTERNS = (f"{CTX_DIR_NAME}/", f"{FOREIGN_PREFIX}*/")
#: A key file or a store's marker: a few hundred bytes; more is not ours.
_MAX_SMALL_FILE = 64 * 1024
#: `stores.json`: one entry of about 150 bytes per project this home ever placed a store for,
#: so thousands of projects fit (64 KiB held fewer than 450).
_MAX_STORES_FILE = 16 * 1024 * 1024
_GIT_TIMEOUT_SECONDS = 10.0


class Location(StrEnum):
    """Where a project's store lives (setting `storage.location`)."""

    REPO = "repo"
    HOME = "home"


def location_of(value: str) -> Location:
    """The `storage.location` setting as a `Location`; anything else is refused."""
    try:
        return Location(value)
    except ValueError:
        raise InvalidArgumentError(
            f"storage.location is {value!r}; allowed: repo (<repo>/.ctx) or home "
            "(<home>/projects/<project>)"
        ) from None


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a project's trusted store is, and the one line to show if something was set aside."""

    project_id: str
    store_dir: Path
    location: Location
    notice: str | None


@dataclass(frozen=True, slots=True)
class StoreState:
    """What `inspect_store` found, without changing anything."""

    store_dir: Path
    trusted: bool
    reason: str | None
    notice: str | None


# --- the home's key and registry --------------------------------------------------------------


def home_store_dir(layout: HomeLayout, project_id: str) -> Path:
    """`<home>/projects/<name>-<hash>`: the folder of a project's store kept under the home."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(project_id).name)[:40] or "project"
    digest = hashlib.sha256(project_id.encode("utf-8")).hexdigest()[:16]
    return layout.project_stores / f"{name}-{digest}"


def _read_small(path: Path, limit: int = _MAX_SMALL_FILE) -> bytes:
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError("too large")
    return data


def _read_key(layout: HomeLayout) -> bytes | None:
    try:
        text = _read_small(layout.store_key).decode("ascii").strip()
        key = bytes.fromhex(text)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise FailedPreconditionError(
            f"{layout.store_key} is unreadable or damaged ({type(exc).__name__}); no store can be "
            "verified until it is restored"
        ) from None
    if len(key) < 32:
        raise FailedPreconditionError(f"{layout.store_key} is damaged (too short)")
    return key


def _create_key(layout: HomeLayout) -> bytes:
    ensure_private_dir(layout.root)
    try:
        fd = os.open(layout.store_key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32) + "\n")
    key = _read_key(layout)
    assert key is not None
    return key


def _read_entries(layout: HomeLayout) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(_read_small(layout.stores, _MAX_STORES_FILE) or b"{}")
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise FailedPreconditionError(
            f"{layout.stores} is not valid ({type(exc).__name__}); fix or delete it "
            "(stores made before are then adopted again, untracked ones only)"
        ) from None
    stores = data.get("stores") if isinstance(data, dict) else None
    if not isinstance(stores, dict):
        return {}
    return {
        str(k): v
        for k, v in stores.items()
        if isinstance(v, dict)
        and isinstance(v.get("store_id"), str)
        and (v.get("location") is None or v.get("location") in ("repo", "home"))
    }


def _write_entries(layout: HomeLayout, entries: dict[str, dict[str, Any]]) -> None:
    body = json.dumps({"stores": entries}, indent=2, sort_keys=True) + "\n"
    write_private_file(layout.stores, body.encode("utf-8"))


@contextmanager
def _locked(layout: HomeLayout) -> Iterator[None]:
    """One placement at a time across processes (`sqrl init` and the memory service)."""
    ensure_private_dir(layout.root)
    fd = os.open(layout.root / "stores.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


# --- markers ----------------------------------------------------------------------------------


def _mac(key: bytes, project_id: str, store_id: str) -> str:
    message = f"squirrel-store\x00{MARKER_FORMAT}\x00{project_id}\x00{store_id}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def _write_marker(store_dir: Path, key: bytes, project_id: str, store_id: str) -> None:
    marker = {
        "format": MARKER_FORMAT,
        "store_id": store_id,
        "mac": _mac(key, project_id, store_id),
    }
    write_private_file(store_dir / MARKER_NAME, (json.dumps(marker) + "\n").encode("utf-8"))


def _marker_id(store_dir: Path, key: bytes | None, project_id: str) -> tuple[str | None, str]:
    """(store id, "") when the marker verifies; (None, why not) otherwise."""
    if store_dir.is_symlink() or not store_dir.is_dir():
        return None, "it is not a plain folder"
    path = store_dir / MARKER_NAME
    if path.is_symlink() or not path.is_file():
        return None, "it carries no marker of this Squirrel home"
    try:
        marker = json.loads(_read_small(path))
    except (OSError, ValueError):
        return None, "its marker is unreadable"
    store_id = marker.get("store_id") if isinstance(marker, dict) else None
    mac = marker.get("mac") if isinstance(marker, dict) else None
    if not isinstance(store_id, str) or not isinstance(mac, str) or key is None:
        return None, "its marker is not one this home can verify"
    if not hmac.compare_digest(mac, _mac(key, project_id, store_id)):
        return None, "its marker was made by another home or for another project"
    return store_id, ""


# --- git --------------------------------------------------------------------------------------


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            timeout=_GIT_TIMEOUT_SECONDS,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace")


def ctx_is_tracked(root: Path) -> bool:
    """True when git tracks anything under `<root>/.ctx` (or `.ctx` itself, e.g. a symlink)."""
    out = _git(root, "ls-files", "-z", "--", CTX_DIR_NAME)
    return bool(out and out.strip("\x00"))


def keep_out_of_git(root: Path) -> Path | None:
    """Add `.ctx/` (and set-aside folders) to the repository's `info/exclude`; never touches a
    tracked file. Works in linked worktrees (the exclude file of the common git dir). Returns the
    exclude file, or None when `root` is not in a git repository."""
    common = _git(root, "rev-parse", "--git-common-dir")
    if common is None or not common.strip():
        return None
    exclude = (root / common.strip()).resolve() / "info" / "exclude"
    try:
        existing = exclude.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        existing = []
    missing = [p for p in EXCLUDE_PATTERNS if p not in {line.strip() for line in existing}]
    if missing:
        exclude.parent.mkdir(parents=True, exist_ok=True)
        text = "\n".join(existing).rstrip("\n")
        lines = [*([text] if text else []), "# Squirrel's local memory (sqrl init)", *missing]
        exclude.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return exclude


# --- placing a store --------------------------------------------------------------------------


def _now_text() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def _set_aside(store_dir: Path) -> Path:
    """Rename a foreign store folder (or file, or symlink) beside itself; never reads it."""
    base = store_dir.with_name(f"{store_dir.name}.foreign-{_now_text()}")
    target, n = base, 1
    while target.exists() or target.is_symlink():
        n += 1
        target = base.with_name(f"{base.name}-{n}")
    store_dir.rename(target)
    return target


def _dir_for(layout: HomeLayout, project_id: str, location: Location) -> Path:
    if location is Location.HOME:
        return home_store_dir(layout, project_id)
    return Path(project_id) / CTX_DIR_NAME


def _tracked_notice(root: Path, store_dir: Path) -> str:
    return (
        f"{root / CTX_DIR_NAME} is tracked by git: left as the repository has it and never read; "
        f"this project's memory is kept in {store_dir}"
    )


def place_store(
    layout: HomeLayout,
    project_id: str,
    *,
    location: Location,
    registered_before: bool,
) -> Placement:
    """Find or make this project's trusted store folder; set aside anything foreign there.

    `location` applies to a project this home has no store for yet; an existing store stays
    where it was made. `registered_before` says whether `projects.json` listed the project
    before this call (the only case where a marker-less store from an older Squirrel is
    adopted). The caller then creates or opens `data.db` inside `store_dir`.
    """
    root = Path(project_id)
    with _locked(layout):
        entries = _read_entries(layout)
        key = _read_key(layout)
        if key is None:
            if entries:
                raise FailedPreconditionError(
                    f"{layout.store_key} is missing, so no store can be verified; restore it, or "
                    f"delete {layout.stores} to adopt the untracked stores again"
                )
            key = _create_key(layout)
        entry = entries.get(project_id)
        wanted = (
            Location(entry["location"])
            if entry
            and entry.get("location")
            in {
                "repo",
                "home",
            }
            else location
        )
        tracked = wanted is Location.REPO and ctx_is_tracked(root)
        if tracked:
            wanted = Location.HOME
        if wanted is Location.REPO:
            keep_out_of_git(root)
        store_dir = _dir_for(layout, project_id, wanted)
        notice = _tracked_notice(root, store_dir) if tracked else None
        store_id, why = _marker_id(store_dir, key, project_id)
        aside: Path | None = None
        if store_id is None and (store_dir.exists() or store_dir.is_symlink()):
            adoptable = (
                entry is None
                and registered_before
                and wanted is Location.REPO
                and store_dir.is_dir()
                and not store_dir.is_symlink()
                and (store_dir / DATA_DB_NAME).is_file()
                and not (store_dir / MARKER_NAME).exists()
            )
            if adoptable:
                store_id = secrets.token_hex(16)
                _write_marker(store_dir, key, project_id, store_id)
            else:
                aside = _set_aside(store_dir)
                notice = (
                    f"{store_dir} was not made by this Squirrel home ({why}): moved to {aside}, "
                    "never read; a fresh store was created"
                )
        if store_id is None:
            ensure_private_dir(store_dir)
            store_id = secrets.token_hex(16)
            _write_marker(store_dir, key, project_id, store_id)
        record: dict[str, Any] = {"store_id": store_id, "location": wanted.value}
        previous = entry or {}
        if aside is not None or tracked:
            record["notice"] = notice
            record["set_aside"] = str(aside) if aside is not None else None
        elif previous.get("notice") and previous.get("location") == wanted.value:
            record["notice"] = previous["notice"]
            record["set_aside"] = previous.get("set_aside")
        if record != {k: previous.get(k) for k in record} or set(previous) - set(record):
            entries[project_id] = record
            _write_entries(layout, entries)
        return Placement(project_id, store_dir, wanted, _live_notice(record))


def note_recreated(layout: HomeLayout, project_id: str, notice: str) -> None:
    """Record that the project's store was made again while the memory service ran (its folder
    was deleted): said beside any other notice until a service next opens the store as usual."""
    with _locked(layout):
        entries = _read_entries(layout)
        entry = entries.get(project_id)
        if entry is None:
            return
        entry["recreated"] = notice
        _write_entries(layout, entries)


def _live_notice(record: dict[str, Any]) -> str | None:
    """What `sqrl status` says of the store: that it was made again, and a recorded notice
    while it still holds (`_set_aside_notice`)."""
    recreated = record.get("recreated")
    parts = [recreated] if isinstance(recreated, str) and recreated else []
    aside = _set_aside_notice(record)
    if aside:
        parts.append(aside)
    return "; ".join(parts) or None


def _set_aside_notice(record: dict[str, Any]) -> str | None:
    """A recorded notice while it still holds (the set-aside folder is still there), ending
    with what ends it: deleting that folder."""
    notice = record.get("notice")
    if not isinstance(notice, str):
        return None
    aside = record.get("set_aside")
    if not isinstance(aside, str):
        return notice
    if not (Path(aside).exists() or Path(aside).is_symlink()):
        return None
    return f"{notice}; delete {aside} to end this notice"


def inspect_store(layout: HomeLayout, project_id: str) -> StoreState:
    """Where the project's store is and whether it would be trusted; changes nothing.

    A store made before markers existed (no record, no marker, untracked) is reported as
    trusted with a reason saying it is adopted when next opened.
    """
    entries = _read_entries(layout)
    entry = entries.get(project_id)
    location = Location.HOME if (entry or {}).get("location") == "home" else Location.REPO
    root = Path(project_id)
    notice = _live_notice(entry or {})
    if location is Location.REPO and ctx_is_tracked(root):
        location = Location.HOME
        notice = _tracked_notice(root, home_store_dir(layout, project_id))
    store_dir = _dir_for(layout, project_id, location)
    if not (store_dir.exists() or store_dir.is_symlink()):
        return StoreState(store_dir, False, "no store yet", notice)
    store_id, why = _marker_id(store_dir, _read_key(layout), project_id)
    if store_id is not None:
        return StoreState(store_dir, True, None, notice)
    if (
        entry is None
        and location is Location.REPO
        and store_dir.is_dir()
        and not store_dir.is_symlink()
        and not (store_dir / MARKER_NAME).exists()
    ):
        return StoreState(store_dir, True, "made before store markers; adopted when opened", None)
    return StoreState(store_dir, False, why, f"{store_dir} is not this home's store ({why})")
