"""The checks `sqrl doctor` runs on the home's files and a database, and their repairs; what it
reports (`Check`). A project's own checks are `doctor_project`'s."""

from __future__ import annotations

import errno
import sqlite3
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from squirrel_core.config_repair import repair_config
from squirrel_core.errors import SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.settings import config_problems
from squirrel_core.store_health import (
    schema_and_integrity,
)


@dataclass
class Check:
    """One line of the report: what was checked, whether it is fine, and what was done."""

    name: str
    ok: bool
    detail: str
    repaired: bool = False
    info: bool = False
    """Neither good nor bad (e.g. the services are simply not running)."""
    warn: bool = False
    """Worth knowing but not a failure: nothing is lost and Squirrel mends it by itself."""


# -- files ----------------------------------------------------------------------------------------
def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def home_check(path: Path, wanted: int, repair: bool) -> Check:
    """The home's mode (`permission_check`), and first whether Squirrel can write there at all: a
    home on a read-only disk (or one that cannot be made) is one line saying what to do."""
    if not path.exists():
        return permission_check("home", path, wanted, repair)
    try:
        with tempfile.TemporaryFile(dir=path, prefix=".doctor-"):
            pass
    except OSError as exc:
        kind = "read-only" if exc.errno == errno.EROFS else "not writable"
        return Check(
            "home",
            False,
            f"{path} is {kind} ({exc.strerror or exc}): Squirrel keeps its databases, logs and"
            " the services' records there; make it writable, or set SQRL_HOME to a folder you"
            " can write",
        )
    return permission_check("home", path, wanted, repair)


def permission_check(name: str, path: Path, wanted: int, repair: bool) -> Check:
    if not path.exists():
        return Check(name, False, f"{path} is missing (`sqrl init` creates it)")
    found = _mode(path)
    if found == wanted:
        return Check(name, True, f"{path} is {wanted:04o}")
    if repair:
        path.chmod(wanted)
        return Check(name, True, f"{path} was {found:04o}, now {wanted:04o}", repaired=True)
    return Check(name, False, f"{path} is {found:04o}, should be {wanted:04o} (--repair fixes it)")


def config_check(layout: HomeLayout, repair: bool) -> Check:
    problems = config_problems(layout.root)
    if not problems:
        where = layout.config if layout.config.exists() else "defaults (no config.toml)"
        return Check("config", True, f"{where} parses, every setting allowed")
    if not repair:
        shown = "; ".join(problems[:3]) + (
            f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
        )
        return Check("config", False, f"{shown} (--repair rewrites it, keeping a backup)")
    done = repair_config(layout.root)
    detail = (
        f"dropped {len(done.dropped)} unreadable or disallowed entr"
        f"{'y' if len(done.dropped) == 1 else 'ies'}, kept {len(done.kept)} setting(s); "
        f"the old file is {done.backup}"
    )
    return Check("config", True, detail, repaired=True)


# -- databases ------------------------------------------------------------------------------------
def database_check(
    name: str, path: Path, latest: int, *, thorough: bool, repair: Callable[[Path], object] | None
) -> tuple[Check, bool]:
    """(the check, whether the file can be read further); `repair` creates or migrates it."""
    problem = ""
    if not path.exists():
        problem = f"{path} is missing"
    else:
        try:
            version, integrity = schema_and_integrity(path, thorough=thorough)
            if integrity != "ok":
                return Check(name, False, f"{path} is damaged ({integrity})"), False
            if version != latest:
                problem = f"{path} is at schema {version}, this Squirrel uses {latest}"
        except sqlite3.Error as exc:
            return Check(name, False, f"{path} cannot be read ({type(exc).__name__}: {exc})"), False
    if not problem:
        return Check(name, True, f"{path} schema {latest}, integrity ok"), True
    if repair is None:
        return Check(name, False, f"{problem} (--repair runs `sqrl init`'s set-up)"), False
    try:
        repair(path)
    except (SquirrelError, sqlite3.Error, OSError) as exc:
        return Check(name, False, f"{problem}; repair failed ({type(exc).__name__})"), False
    return Check(name, True, f"{problem}; created/migrated to schema {latest}", True), True
