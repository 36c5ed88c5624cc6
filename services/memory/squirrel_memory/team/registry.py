"""A team server's projects: named by team id (`github.com/o/r`), stored under the server's home.

Laptops register each project under its team identity (`squirrel_core.project_identity`); the
server has no checkout of it, so nothing is read from a repository folder here. The ids are kept
in `<home>/team/projects.json`, with the team token that created each one (so a token's project
limit counts what it created); each store is placed under `<home>/projects/` like any store kept
in the home (`storage.location = "home"`), with its signed marker.

A team token creates a project only with an admin grant covering it, under the id forms of
`squirrel_core.team_grants`, and within its project limit; registering a project that exists
needs only a grant that covers it. The server's own caller (its install token, so
`sqrl team project add`) may create any project of those forms.
"""

from __future__ import annotations

import asyncio
import json

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.files import ensure_private_dir, write_private_file
from squirrel_core.home import HomeLayout
from squirrel_core.store_placement import Location, home_store_dir, place_store
from squirrel_core.team_grants import Grant, Role, check_project_id
from squirrel_memory.registry import ProjectRegistry
from squirrel_memory.storage import ProjectStores, Store

MAX_TEAM_ID_CHARS = 600


def check_team_id(text: str) -> str:
    """A team project id: one line of printable text, at most 600 characters."""
    team_id = text.strip()
    if (
        not team_id
        or len(team_id) > MAX_TEAM_ID_CHARS
        or any(c.isspace() or not c.isprintable() for c in team_id)
    ):
        raise InvalidArgumentError(
            f"a team project id is one word of at most {MAX_TEAM_ID_CHARS} printable characters "
            "(e.g. github.com/acme/shop)"
        )
    return team_id


class TeamProjectRegistry(ProjectRegistry):
    """The projects of a team server: opaque team ids, stores under the home."""

    def __init__(self, layout: HomeLayout, stores: ProjectStores | None = None) -> None:
        super().__init__(layout, Location.HOME, stores)
        self._list = layout.team / "projects.json"

    def _read(self) -> dict[str, object]:
        try:
            data = json.loads(self._list.read_text() or "{}")
        except FileNotFoundError:
            return {}
        except ValueError as exc:
            raise InvalidArgumentError(f"{self._list} is not valid JSON ({exc}); fix it") from None
        return data if isinstance(data, dict) else {}

    def roots(self) -> list[str]:
        ids = self._read().get("projects", [])
        return [str(i) for i in ids if isinstance(i, str)] if isinstance(ids, list) else []

    def creators(self) -> dict[str, str]:
        """Project id → the id of the team token that created it (absent: the server's own)."""
        found = self._read().get("created_by", {})
        if not isinstance(found, dict):
            return {}
        return {str(k): str(v) for k, v in found.items()}

    def is_available(self, root: str) -> bool:
        if root in self._stores.open_projects():
            return True
        return root in self.roots() and (home_store_dir(self._layout, root) / "data.db").exists()

    def require(self, project_id: str) -> str:
        if not project_id:
            raise InvalidArgumentError("project_id is required")
        if project_id not in self.roots():
            raise NotFoundError(
                f"the team server has no project {project_id!r}; a laptop registers it when it "
                "first delivers"
            )
        return project_id

    async def store(self, project_id: str) -> Store:
        self.require(project_id)
        fresh = project_id not in self._stores.open_projects()
        store_dir = None
        if fresh:
            placement = await asyncio.to_thread(
                place_store,
                self._layout,
                project_id,
                location=Location.HOME,
                registered_before=True,
            )
            store_dir = placement.store_dir
        store = await self._stores.get(project_id, store_dir)
        if fresh:
            for callback in self._on_open:
                await callback(store)
        return store

    async def register(self, root_text: str, grant: Grant | None = None) -> tuple[str, bool]:
        """Registers a team project (`grant`: the calling team token's, None for the server's
        own caller); returns its id and whether it was created."""
        team_id = check_project_id(root_text)
        async with self._lock:
            ids = self.roots()
            creators = self.creators()
            created = team_id not in ids
            if grant is not None:
                if created:
                    made = sum(1 for token in creators.values() if token == grant.token_id)
                    grant.require_create(team_id, made)
                else:
                    grant.require(team_id, Role.READ)
            if created:
                if grant is not None:
                    creators[team_id] = grant.token_id
                ensure_private_dir(self._list.parent)
                payload = {"projects": [*ids, team_id], "created_by": creators}
                text = json.dumps(payload, indent=2) + "\n"
                await asyncio.to_thread(write_private_file, self._list, text.encode())
        await self.store(team_id)
        return team_id, created
