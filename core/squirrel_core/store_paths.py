"""Where a project's and a user's Squirrel files live, created private (dirs 0700, files 0600)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.files import ensure_private_dir
from squirrel_core.projects import canonical_root

PRIVATE_FILE_MODE = 0o600
CTX_DIR_NAME = ".ctx"
DATA_DB_NAME = "data.db"
USER_DB_NAME = "user.db"
SQLITE_SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
INDEX_FILE_NAME = "memories.faiss"
"""The project's vector index, in its `index/` folder."""
META_SUFFIX = ".meta.json"


def meta_path_for(index_path: Path) -> Path:
    """The JSON sidecar beside an index file (`memories.faiss` -> `memories.meta.json`)."""
    return index_path.with_suffix(META_SUFFIX)


def ensure_private_file(path: Path) -> Path:
    """Create `path` empty if missing, never truncating it, and make it 0600."""
    fd = os.open(path, os.O_CREAT | os.O_RDWR, PRIVATE_FILE_MODE)
    os.close(fd)
    path.chmod(PRIVATE_FILE_MODE)
    return path


def secure_sqlite_files(db_path: Path) -> None:
    """Make a database and whichever of its -wal/-shm/-journal files exist 0600."""
    for candidate in (db_path, *(Path(f"{db_path}{s}") for s in SQLITE_SIDE_SUFFIXES)):
        try:
            candidate.chmod(PRIVATE_FILE_MODE)
        except FileNotFoundError:
            continue


def project_id_for(path: str | Path) -> str:
    """The project id of a repository root: its absolute, symlink-resolved path."""
    return str(canonical_root(path))


@dataclass(frozen=True, slots=True)
class ProjectPaths:
    """The files of one project's store: `<repo>/.ctx` unless the store lives elsewhere."""

    root: Path
    store: Path | None = None

    @classmethod
    def for_project(cls, project_id: str, store: Path | None = None) -> ProjectPaths:
        """Paths for `project_id`, which must be an absolute path to an existing directory
        unless the store lives elsewhere (`store`: e.g. a team server's project, whose id is a
        team identity such as `github.com/o/r`, not a folder)."""
        if not project_id or "\x00" in project_id:
            raise InvalidArgumentError("project_id must be a non-empty path")
        root = Path(project_id)
        if store is not None and not root.is_absolute():
            return cls(root=root, store=store)
        if not root.is_absolute():
            raise InvalidArgumentError("project_id must be an absolute path")
        if not root.is_dir():
            raise NotFoundError(f"project directory does not exist: {project_id}")
        return cls(root=root, store=store)

    @property
    def ctx_dir(self) -> Path:
        """The store folder: `<repo>/.ctx` by default."""
        return self.store or self.root / CTX_DIR_NAME

    @property
    def data_db(self) -> Path:
        """`<store>/data.db`."""
        return self.ctx_dir / DATA_DB_NAME

    @property
    def views_dir(self) -> Path:
        """`<repo>/.ctx/views`, where the cached view JSON lives."""
        return self.ctx_dir / "views"

    @property
    def index_dir(self) -> Path:
        """`<repo>/.ctx/index`, where the vector index files live."""
        return self.ctx_dir / "index"

    def ensure(self) -> ProjectPaths:
        """Create `.ctx`, `views` and `index` as 0700 directories."""
        ensure_private_dir(self.ctx_dir)
        ensure_private_dir(self.views_dir)
        ensure_private_dir(self.index_dir)
        return self


def user_db_path(home: Path) -> Path:
    """`<squirrel home>/user.db`."""
    return home / USER_DB_NAME
