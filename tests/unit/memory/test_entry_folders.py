"""Folders of entries: a file written beside a sibling read first, both with front matter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.extractors.entry_folders import entry_folders
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/proj"


class _Session:
    """A session's events, one minute apart."""

    def __init__(self) -> None:
        self.events: list[StoredEvent] = []

    def _add(self, kind: str, content: dict[str, Any], paths: tuple[str, ...] = ()) -> None:
        n = len(self.events)
        self.events.append(
            StoredEvent(
                id=f"evt_{n:03d}",
                project_id=ROOT,
                user_id="dev",
                source_tool="claude_code",
                session_id="s1",
                timestamp=T0 + timedelta(minutes=n),
                event_type=kind,
                content=content,
                file_paths=paths,
                hash=f"h{n}",
                origin="assistant",
            )
        )

    def listed(self, command: str, output: str) -> _Session:
        self._add("command_run", {"command": command, "output": output, "exit_code": 0})
        return self

    def read(self, path: str, text: str, *, partial: bool = False) -> _Session:
        numbered = "".join(f"{i:>6}→{line}\n" for i, line in enumerate(text.splitlines(), 1))
        content = {"tool": "Read", "output": numbered, "is_error": False}
        if partial:
            content["partial"] = True
        self._add("tool_result", content, (f"{ROOT}/{path}",))
        return self

    def wrote(self, path: str, text: str, *, edit: bool = False) -> _Session:
        use = f"w{len(self.events)}"
        data: dict[str, Any] = {"file_path": path if path.startswith("/") else f"{ROOT}/{path}"}
        if edit:
            data.update(old_string="a", new_string="b")
        else:
            data["content"] = text
        self._add("tool_call", {"tool": "Write", "tool_use_id": use, "input": data})
        self._add("code_change", {"tool": "Write", "tool_use_id": use, "path": data["file_path"]})
        return self


CHANGESET = '---\n"web": patch\n"@acme/core": patch\n---\n\nFix the cache key.\n'
NEW_CHANGESET = '---\n"web": patch\n---\n\nRetry failed uploads.\n'
ADR = "---\nstatus: accepted\ndate: 2026-01-12\n---\n\n# Use gRPC between services\n"
NEW_ADR = "---\nstatus: proposed\ndate: 2026-06-01\n---\n\n# Cache sessions in Redis\n"


DECISIONS = "decisions/0001-a.md\ndecisions/0002-b.md\n"


def _changesets() -> _Session:
    return (
        _Session()
        .listed("ls .changeset/*.md", ".changeset/fix-cache.md\n.changeset/add-links.md\n")
        .read(".changeset/fix-cache.md", CHANGESET)
        .wrote(".changeset/retry-uploads.md", NEW_CHANGESET)
    )


def _decisions() -> _Session:
    return (
        _Session()
        .listed(
            "ls decisions/*.md", "decisions/0001-record-decisions.md\ndecisions/0002-use-grpc.md\n"
        )
        .read("decisions/0002-use-grpc.md", ADR)
        .wrote("decisions/0003-cache-sessions.md", NEW_ADR)
    )


def test_a_changeset_written_like_the_one_read_tells_how_entries_are_written() -> None:
    found = entry_folders(_changesets().events)

    assert [f.content for f in found] == [
        "New entries in `.changeset/` are `.md` files written like `.changeset/fix-cache.md`: "
        'a front matter block (`"web": patch` …) then the text.'
    ]
    assert found[0].path == ".changeset"


def test_a_decision_record_written_like_the_one_read_does_too() -> None:
    found = entry_folders(_decisions().events)

    assert [f.key for f in found] == ["pattern:entries:decisions"]
    assert "`status: accepted` …" in found[0].content


def _no_front_matter() -> _Session:
    return (
        _Session()
        .listed("ls .changeset/*.md", ".changeset/fix-cache.md\n.changeset/add-links.md\n")
        .read(".changeset/fix-cache.md", CHANGESET)
        .wrote(".changeset/retry-uploads.md", "Retry failed uploads.\n")
    )


def _read_after() -> _Session:
    return (
        _Session()
        .listed("ls .changeset/*.md", ".changeset/fix-cache.md\n.changeset/add-links.md\n")
        .wrote(".changeset/retry-uploads.md", NEW_CHANGESET)
        .read(".changeset/fix-cache.md", CHANGESET)
    )


def _two_entries() -> _Session:
    return (
        _Session()
        .read(".changeset/fix-cache.md", CHANGESET)
        .wrote(".changeset/retry-uploads.md", NEW_CHANGESET)
    )


def _other_folder() -> _Session:
    return (
        _Session()
        .listed("ls decisions/*.md", DECISIONS)
        .read("decisions/0002-b.md", ADR)
        .wrote("notes/cache.md", NEW_ADR)
    )


def _partial() -> _Session:
    return (
        _Session()
        .listed("ls decisions/*.md", DECISIONS)
        .read("decisions/0002-b.md", ADR, partial=True)
        .wrote("decisions/0003-c.md", NEW_ADR)
    )


def _edit() -> _Session:
    return (
        _Session()
        .listed("ls decisions/*.md", DECISIONS)
        .read("decisions/0002-b.md", ADR)
        .wrote("decisions/0001-a.md", "", edit=True)
    )


def _outside() -> _Session:
    return (
        _Session()
        .listed("ls decisions/*.md", DECISIONS)
        .read("decisions/0002-b.md", ADR)
        .wrote("/tmp/decisions/0003-c.md", NEW_ADR)
    )


@pytest.mark.parametrize(
    "session",
    [_no_front_matter, _read_after, _two_entries, _other_folder, _partial, _edit, _outside],
    ids=["no-front-matter", "read-after", "two", "other-folder", "partial", "edit", "outside"],
)
def test_no_entry_shape_without_a_sibling_read_first_and_shared_front_matter(
    session: Any,
) -> None:
    assert entry_folders(session().events) == []
