"""The source's history a forked Codex rollout copies: recognised as the source's, not the fork's.

A forked rollout (and a subagent's that was given its parent's context) opens with its own
`session_meta` naming the rollout it came from (`forked_from_id`), then copies that rollout
whole, its `session_meta` first, every line stamped again at the moment of the fork. Those
turns are the source's: its own rollout holds them with their real times, and ingest reads it
too. Stored again as the fork's, they would count every prompt, command and failure twice, all
dated at the fork.

A copied line is recognised by what it says rather than by when it was written: the lines after
the fork's `session_meta` are compared, type and payload, with the source rollout's lines in
order (found beside the fork, or anywhere under the same `sessions/` folder). The copy ends at
the first line that is not the source's next one (a few source lines may be passed over, for a
line the copy left out); everything from there on is the fork's own. When the source rollout
cannot be found, nothing is recognised and the fork's lines are read as they are.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Final

from squirrel_ingest.parsers.base import str_or_none

LOOKAHEAD: Final = 8
"""Source lines a copied line may be past: lines of the source its copy left out."""
_MAX_LINE_BYTES: Final = 64 * 1024 * 1024
_THREAD_ID = re.compile(r"^[0-9A-Za-z-]{8,64}$")


class ForkCopy:
    """Follows one rollout: whether each record is a line copied from the rollout it forked.

    `state()` and `restore()` carry where it is across restarts (a cursor's `extra`)."""

    def __init__(self, path: str) -> None:
        self._path = Path(path)
        self._source_id: str | None = None
        self._source: Path | None = None
        self._offset = 0
        self._copying = False
        self._over = False

    def opened(self, payload: dict[str, Any]) -> None:
        """The rollout's own `session_meta`: a fork names its source."""
        if self._source_id is None and not self._over:
            source = str_or_none(payload.get("forked_from_id"))
            if source is not None and _THREAD_ID.match(source):
                self._source_id = source
            else:
                self._over = True

    def copied(self, record: dict[str, Any]) -> bool:
        """Whether `record` is the source rollout's next line, copied into the fork."""
        if self._over or self._source_id is None:
            return False
        if not self._copying:
            # The copy opens with the source's own session_meta.
            payload = record.get("payload")
            if record.get("type") != "session_meta" or not isinstance(payload, dict):
                self._over = True
                return False
            if str_or_none(payload.get("id")) != self._source_id:
                self._over = True
                return False
            self._source = source_rollout(self._path, self._source_id)
            if self._source is None:
                self._over = True
                return False
            self._copying = True
        found = self._match(record)
        if found is None:
            self._over = True
            return False
        self._offset = found
        return True

    def _match(self, record: dict[str, Any]) -> int | None:
        """The offset just past the source line `record` copies, within `LOOKAHEAD` lines."""
        assert self._source is not None
        wanted = (record.get("type"), record.get("payload"))
        try:
            with self._source.open("rb") as source:
                source.seek(self._offset)
                for _ in range(LOOKAHEAD):
                    line = source.readline(_MAX_LINE_BYTES)
                    if not line.endswith(b"\n"):
                        return None  # the end of the source, or a line still being written
                    try:
                        line_record = json.loads(line)
                    except ValueError:
                        continue
                    if (
                        isinstance(line_record, dict)
                        and (line_record.get("type"), line_record.get("payload")) == wanted
                    ):
                        return source.tell()
        except OSError:
            return None
        return None

    def state(self) -> dict[str, Any]:
        return {
            "source_id": self._source_id,
            "source": str(self._source) if self._source else None,
            "offset": self._offset,
            "copying": self._copying,
            "over": self._over,
        }

    def restore(self, state: object) -> None:
        if not isinstance(state, dict):
            return
        self._source_id = str_or_none(state.get("source_id"))
        source = str_or_none(state.get("source"))
        self._source = Path(source) if source else None
        offset = state.get("offset")
        self._offset = offset if isinstance(offset, int) and offset >= 0 else 0
        self._copying = state.get("copying") is True and self._source is not None
        self._over = state.get("over") is True


def source_rollout(fork: Path, source_id: str) -> Path | None:
    """The rollout of thread `source_id`: beside the fork, else under the `sessions/` folder
    the fork is in (`sessions/YYYY/MM/DD/`) or its `archived_sessions/` sibling."""
    pattern = f"rollout-*{source_id}.jsonl"
    places = [fork.parent]
    for parent in fork.parents:
        if parent.name == "sessions":
            places += [parent, parent.parent / "archived_sessions"]
            break
    for place in places:
        found = sorted(place.glob(pattern)) or (
            sorted(place.glob(f"*/*/*/{pattern}")) if place.name == "sessions" else []
        )
        for candidate in found:
            if candidate != fork and candidate.is_file():
                return candidate
    return None
