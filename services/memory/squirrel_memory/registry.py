"""The projects this memory service serves: registration and their open stores."""

from __future__ import annotations

import asyncio
from pathlib import Path

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project, canonical_root, read_projects
from squirrel_memory.bootstrap import init_project_files


class ProjectRegistry:
    """Knows the registered roots (from `projects.json`) and registers new ones."""

    def __init__(self, layout: HomeLayout) -> None:
        self._layout = layout
        self._lock = asyncio.Lock()

    def roots(self) -> list[str]:
        return read_projects(self._layout.projects)

    def is_available(self, root: str) -> bool:
        return (Path(root) / ".ctx" / "data.db").exists()

    def require(self, project_id: str) -> str:
        """`project_id` if registered, else NotFound with how to register it."""
        if not project_id:
            raise InvalidArgumentError("project_id is required")
        if project_id not in self.roots():
            raise NotFoundError(
                f"No project is registered at {project_id}; "
                "run `sqrl init` in the repository first."
            )
        return project_id

    async def open_all(self) -> None:
        for root in self.roots():
            await asyncio.to_thread(self._open, Path(root))

    @staticmethod
    def _open(root: Path) -> None:
        if root.is_dir():
            init_project_files(root)

    async def register(self, root_text: str) -> tuple[str, bool]:
        root = canonical_root(root_text)
        if not root.is_dir():
            raise InvalidArgumentError(f"{root} is not a directory")
        async with self._lock:
            await asyncio.to_thread(init_project_files, root)
            created = await asyncio.to_thread(add_project, self._layout.projects, root)
        return str(root), created

    async def close(self) -> None:
        return None
