"""What a notes file (CLAUDE.md, AGENTS.md …) written in a session says of the project."""

from __future__ import annotations

from typing import Any

import pytest

from squirrel_core.host_files import only_from_files
from squirrel_memory.extractors.written_notes import written_notes
from squirrel_memory.loaded_sources import only_from
from squirrel_memory.models import MemoryCandidate, MemoryItem, MemorySource, MemoryType, Scope
from tests.unit.memory.test_rules_extractor import PROJECT, T0, Stream, by_key, extract

NOTES = """# CLAUDE.md

This file provides guidance to Claude Code when working with code in this repository.

## Project Overview

Tidepool is a command-line tool that syncs tide tables into a local database. Nothing runs on a server.

## Development Commands

**Setup (first time):**
```bash
npm install
```

**Run it:**
```bash
npm run dev
```

**No build step** - edit the files and run them again.

## Architecture

1. **Fetcher** (`src/fetch/`)
   - Downloads the tables
2. **Store** (`src/store.rs`, `src/schema.rs`)

## Example

```python
import tidepool
```
"""


def _write(stream: Stream, path: str, content: str, *, applied: bool = True) -> None:
    use_id = f"t{len(stream.events)}"
    data = {"file_path": path, "content": content}
    stream.add("tool_call", {"tool": "Write", "tool_use_id": use_id, "input": data}, (path,))
    stream.add("tool_result", {"tool": "Write", "tool_use_id": use_id, "is_error": not applied})
    if applied:
        stream.add("code_change", {"tool": "Write", "tool_use_id": use_id, "path": path}, (path,))


def _edit(stream: Stream, path: str, old: str, new: str, *, applied: bool = True) -> None:
    use_id = f"t{len(stream.events)}"
    data: dict[str, Any] = {"file_path": path, "old_string": old, "new_string": new}
    stream.add("tool_call", {"tool": "Edit", "tool_use_id": use_id, "input": data}, (path,))
    stream.add("tool_result", {"tool": "Edit", "tool_use_id": use_id, "is_error": not applied})
    if applied:
        stream.add("code_change", {"tool": "Edit", "tool_use_id": use_id, "path": path}, (path,))


def _session(*steps: tuple[str, ...], path: str = f"{PROJECT}/CLAUDE.md") -> Stream:
    stream = Stream()
    stream.user("write the project notes")
    _write(stream, path, NOTES)
    for old, new, *rest in steps:
        _edit(stream, path, old, new, applied=not rest)
    return stream


def _texts(stream: Stream) -> dict[str, str]:
    return {n.key: n.content for n in written_notes(stream.events)}


def test_each_section_of_written_notes_becomes_one_fact_and_the_commands_a_recipe() -> None:
    found = _texts(_session())
    overview = found["notes:CLAUDE.md:project_overview"]
    assert "Tidepool is a command-line tool" in overview
    architecture = found["notes:CLAUDE.md:architecture"]
    assert "Fetcher (`src/fetch/`)" in architecture
    assert "Store (`src/store.rs`, `src/schema.rs`)" in architecture
    assert "Downloads the tables" not in architecture  # a sub-item is detail of its item
    assert "No build step - edit the files" in found["notes:CLAUDE.md:development_command"]
    commands = found["notes:CLAUDE.md:commands"]
    assert "`npm install` (install)" in commands and "`npm run dev` (run)" in commands
    assert all("**" not in text and "Claude Code" not in text for text in found.values())
    assert "import tidepool" not in " ".join(found.values())  # a code example is no command


def test_a_tilde_fenced_block_is_a_code_block_too() -> None:
    stream = Stream()
    stream.user("write the project notes")
    _write(stream, f"{PROJECT}/CLAUDE.md", NOTES.replace("```", "~~~"))
    found = _texts(stream)
    commands = found["notes:CLAUDE.md:commands"]
    assert "`npm install` (install)" in commands and "`npm run dev` (run)" in commands
    assert "import tidepool" not in " ".join(found.values())


def test_only_the_final_text_counts_after_the_session_edits_it() -> None:
    found = _texts(_session(("npm install", "pnpm install"), ("npm run dev", "pnpm dev")))
    commands = found["notes:CLAUDE.md:commands"]
    assert "`pnpm install`" in commands and "`pnpm dev`" in commands
    assert "`npm " not in commands


def test_an_edit_the_user_rejected_changes_nothing() -> None:
    found = _texts(_session(("npm install", "yarn install", "rejected")))
    assert "yarn" not in " ".join(found.values())
    assert "`npm install`" in found["notes:CLAUDE.md:commands"]


def test_a_cut_write_keeps_what_came_before_the_cut_and_later_edits_as_pieces() -> None:
    cut = NOTES[: NOTES.index("## Architecture")] + "## Archi\n…[truncated 400 chars]"
    stream = Stream()
    path = f"{PROJECT}/AGENTS.md"
    _write(stream, path, cut)
    _edit(
        stream,
        path,
        "## Example\n\nold text",
        "## Constraints\n\n- **No module system** - scripts load in order from `index.html`",
    )
    found = _texts(stream)
    assert "notes:AGENTS.md:project_overview" in found
    assert "notes:AGENTS.md:archi" not in found
    assert "No module system - scripts load in order" in found["notes:AGENTS.md:constraint"]


@pytest.mark.parametrize(
    "path",
    [f"{PROJECT}/README.md", f"{PROJECT}/docs/plan.md", f"{PROJECT}/notes/CLAUDE.md.bak"],
)
def test_other_files_written_in_a_session_are_not_notes(path: str) -> None:
    assert written_notes(_session(path=path).events) == []


def test_notes_only_read_or_never_written_say_nothing_here() -> None:
    stream = Stream()
    stream.read(f"{PROJECT}/CLAUDE.md", NOTES)
    stream.user("what are the commands?")
    assert written_notes(stream.events) == []
    failed = Stream()
    _write(failed, f"{PROJECT}/CLAUDE.md", NOTES, applied=False)
    assert written_notes(failed.events) == []


def test_intro_lines_questions_and_lines_about_the_file_are_not_kept() -> None:
    stream = Stream()
    text = (
        "## Plans\n\nThis file tells the assistant what to do.\n\n- Next steps:\n"
        "- Should we move to workers?\n- Maybe\n"
    )
    _write(stream, f"{PROJECT}/CLAUDE.md", text)
    assert written_notes(stream.events) == []


async def test_the_rules_extractor_keeps_them_as_facts_and_a_recipe() -> None:
    found = by_key(await extract(_session()))
    fact = found["notes:CLAUDE.md:project_overview"]
    assert fact.type is MemoryType.PROJECT_FACT
    assert fact.file_paths == ("CLAUDE.md",)
    assert found["notes:CLAUDE.md:commands"].type is MemoryType.RECIPE


@pytest.mark.parametrize(
    ("path", "host_files"),
    [
        ("CLAUDE.md", ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md")),
        ("AGENTS.md", ("AGENTS.md", "AGENTS.override.md")),
    ],
)
async def test_notes_are_left_out_for_the_host_that_loads_the_file_written(
    path: str, host_files: tuple[str, ...]
) -> None:
    """From then on the host loads the written file into every session itself: what the notes
    say is not served to it again, and stays for a host that does not load that file."""
    found = [
        c for c in await extract(_session(path=f"{PROJECT}/{path}")) if c.key.startswith("notes:")
    ]
    assert found
    for note in found:
        assert note.source_refs == (path,)
        loaded = {"from_sessions": True, "tags": note.tags}
        assert only_from_files(note.source_refs, host_files, **loaded)
        assert not only_from_files(note.source_refs, ("GEMINI.md",), **loaded)
        assert not only_from_files(note.source_refs, (), **loaded)


def _stored(c: MemoryCandidate) -> MemoryItem:
    return MemoryItem(
        "m1", PROJECT, None, Scope.PROJECT, c.type, c.key, c.content, c.tags, 0.5, T0, T0,
        MemorySource.RULES, source_event_ids=c.source_event_ids, source_refs=c.source_refs,
    )  # fmt: skip


async def test_notes_a_session_wrote_into_a_hosts_file_are_left_to_that_host() -> None:
    found = by_key(await extract(_session()))
    notes = [c for c in found.values() if c.key.startswith("notes:CLAUDE.md:")]

    assert notes and all(c.source_refs == ("CLAUDE.md",) for c in notes)
    items = [_stored(c) for c in notes]
    assert all(only_from(i, ["CLAUDE.md"]) for i in items)  # Claude Code loads the file
    assert not any(only_from(i, ["AGENTS.md", "GEMINI.md"]) for i in items)  # the others


def test_a_hedge_or_an_open_question_in_a_section_is_not_kept() -> None:
    stream = Stream()
    text = (
        "## Storage\n\n- Maybe move the cache to `src/cache.rs` later\n"
        "- Is the index rebuilt on start?\n- The index lives in `data/index.bin` and is rebuilt on start\n"
    )
    _write(stream, f"{PROJECT}/CLAUDE.md", text)
    (note,) = written_notes(stream.events)
    assert note.content.endswith("The index lives in `data/index.bin` and is rebuilt on start.")
    assert "Maybe" not in note.content and "?" not in note.content
