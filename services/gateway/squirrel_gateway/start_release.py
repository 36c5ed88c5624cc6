"""The project's release steps at the session start, in the room every other line leaves.

A release is no everyday command: the everyday-commands query (`session_commands`) ranks the
rules' release recipe ("To release, as `v0.4.0` was: bump the version in `Cargo.toml` → … →
`git tag v0.4.0 && git push origin main v0.4.0`", `extractors.release_steps`) below its floor,
and a prompt finds it only when it says "release" ("ship 2.3.0", "publish the new version",
"the usual steps for 0.11.0" do not). In the made-up study of later sessions
(`bench.start_study`) the sessions that released again lacked the steps at their start in five
projects of five; the answer key's dev split keys a project's release procedure as a start item.
So the start shows the one release recipe, after the everyday commands, but only in the room
the other lines left (the modules' included): it never keeps out a command, a preference, a
pitfall or a fact. Never a flagged one, one read only from the files the host loads itself, or
one only a subagent's report states.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from squirrel_core.errors import SquirrelError
from squirrel_core.hazards import flags_of
from squirrel_gateway.backend import MemoryBackend
from squirrel_gateway.markdown_lines import one_line, team_mark
from squirrel_gateway.reported_lines import only_reported
from squirrel_gateway.session_commands import Served, only_loaded

__all__ = ["RELEASE_KEY", "RELEASE_QUERY", "release_steps"]

RELEASE_QUERY: Final = "release version tag"
"""What the start asks the release recipe for."""
RELEASE_KEY: Final = "recipe:release_steps"
"""The rules' release recipe's key (`extractors.release_steps`)."""


async def release_steps(
    backend: MemoryBackend, project_id: str, loaded_files: Sequence[str] = ()
) -> list[tuple[str, Served]]:
    """The project's release recipe as a start line, with the item it shows; [] when none is
    stored (or it is flagged, read only from `loaded_files`, or only a report's word)."""
    try:
        page = await backend.search_memory(
            project_id, query=RELEASE_QUERY, top_k=5, types=["recipe"], scope_paths=[], cursor=None
        )
    except SquirrelError:
        return []
    for r in page.results:
        if r.key != RELEASE_KEY:
            continue
        if flags_of(r.content) or only_loaded(r, loaded_files) or only_reported(r.content):
            return []
        line = f"- {team_mark(r.from_team, r.contributor)}{one_line(r.content)}"
        return [(line, Served(r.type, r.key, r.memory_id, r.content))]
    return []
