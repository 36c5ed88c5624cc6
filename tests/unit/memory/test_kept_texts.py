"""What ingest keeps past its first bounds reaches the rules, and a re-read stores nothing twice.

A subagent's brief names the build commands past the first 2,000 characters, its report ends on
its conclusion past the first 8,000; both reach the extractor now. A transcript stored by the
shorter bounds and read again by the longer ones (after an upgrade, a cursor reset) adds no
event: the longer event is known by its shorter form, redacted and moved as it was."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event
from squirrel_core.kept_text import FIRST_TEXT_LIMIT, INPUT_KEPT, KEPT_KEY, cut_end, signed
from squirrel_ingest.parsers import (
    ClaudeFileParser,
    base,
    claude,
    claude_tools,
    kept_values,
    parse_bytes,
)
from squirrel_ingest.reading import redacted
from squirrel_ingest.routing import Route, relocate
from squirrel_memory.extractors.delegated_commands import delegated_commands
from squirrel_memory.extractors.readme_sections import readme_sections
from squirrel_memory.extractors.subagent_findings import PREFIX, subagent_findings
from squirrel_memory.storage import SqliteStore
from tests.unit.memory.session_builder import Session, numbered

ROOT = "/home/dev/shop"
WORKTREE = "/home/dev/shop-wt/retries"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SECRET = "AKIAQ3ZP7XK2M4N5R6T8"
#: Neutral reading a brief or a report opens with, as long as it needs to be.
FILLER = "Read the module and say in one line what each of its functions does.\n"
BRIEF = (
    FILLER
    * 40
    + "You may build (`dotnet build`, `dotnet test`) to check your reasoning, but do NOT "
    "modify any file in the repository."
)
CONCLUSION = (
    "**Conclusion:** a timeout raised inside `with_retry()` (src/shop/http.py) is silently "
    "swallowed, so the caller sees an empty cart."
)
REPORT = "## Report\n\n" + "The handlers live in `src/shop/handlers/`, one per route.\n" * 160


def _record(kind: str, uuid: str, message: dict[str, Any], cwd: str) -> bytes:
    record = {
        "type": kind,
        "uuid": uuid,
        "parentUuid": None,
        "sessionId": "s1",
        "cwd": cwd,
        "version": "2.1.7",
        "isSidechain": False,
        "timestamp": "2026-03-02T09:00:00.000Z",
        "message": message,
    }
    return json.dumps(record).encode() + b"\n"


def _delegation(brief: str, report: str, cwd: str = ROOT) -> bytes:
    """A session that hands `brief` to a subagent and gets `report` back."""
    use = {"type": "tool_use", "id": "a1", "name": "Agent", "input": {"prompt": brief}}
    result = {"type": "tool_result", "tool_use_id": "a1", "content": report}
    return (
        _record("user", "u1", {"role": "user", "content": "Check how the client retries."}, cwd)
        + _record(
            "assistant",
            "u2",
            {"id": "m1", "role": "assistant", "model": "claude", "content": [use]},
            cwd,
        )
        + _record("user", "u3", {"role": "user", "content": [result]}, cwd)
    )


#: A README whose development section comes after 8,000 characters of prose.
README = (
    "# Shop\n\n## About\n\n"
    + "The shop serves carts and orders over HTTP, one handler per route.\n" * 150
    + "\n## Local Development Setup\n\n```bash\n# Install dependencies\nmake install\n```\n"
)


def _read(text: str, cwd: str = ROOT) -> bytes:
    """A session that reads the project's README, shown as `text`."""
    use = {
        "type": "tool_use",
        "id": "r1",
        "name": "Read",
        "input": {"file_path": f"{cwd}/README.md"},
    }
    result = {"type": "tool_result", "tool_use_id": "r1", "content": numbered(text)}
    return _record(
        "assistant",
        "u4",
        {"id": "m2", "role": "assistant", "model": "claude", "content": [use]},
        cwd,
    ) + _record("user", "u5", {"role": "user", "content": [result]}, cwd)


def _delivered(data: bytes, route: Route | None = None) -> list[Event]:
    """The events ingest delivers of a transcript: parsed, redacted, moved, signed."""
    parsed = parse_bytes(ClaudeFileParser("/p/s1.jsonl"), data, "/p/s1.jsonl").events
    return [signed(relocate(e, route) if route else e) for e in redacted(parsed)[0]]


def _session(events: list[Event]) -> Session:
    session = Session(ROOT, "s1", T0)
    for event in events:
        session.add(str(event.event_type), event.content, event.file_paths, str(event.origin))
    return session


def cut_end_text(text: str) -> str:
    return cut_end(text, FIRST_TEXT_LIMIT)


def test_a_brief_naming_the_build_past_2000_characters_reaches_the_rules() -> None:
    assert BRIEF.index("dotnet build") > 2_000

    found = delegated_commands(_session(_delivered(_delegation(BRIEF, "Done."))).events)

    assert found is not None
    assert found.content == (
        "A subagent's brief says: to build, `dotnet build`; to run the tests, `dotnet test`."
    )


def test_a_reports_conclusion_past_8000_characters_reaches_the_rules() -> None:
    report = REPORT + CONCLUSION
    assert report.index("Conclusion") > 8_000

    found = subagent_findings(_session(_delivered(_delegation("Explore.", report))).events)

    assert [f.content for f in found] == [
        f"{PREFIX} (src/shop/http.py): A timeout raised inside `with_retry()` (src/shop/http.py) "
        "is silently swallowed, so the caller sees an empty cart."
    ]


def test_a_readmes_section_past_8000_characters_reaches_the_rules() -> None:
    assert numbered(README).index("make install") > 8_000

    found = readme_sections(_session(_delivered(_read(README))).events)

    assert [s.content for s in found] == [
        "README.md, under Local Development Setup, gives: `make install` (install dependencies)."
    ]


def test_a_secret_in_the_kept_tail_of_a_report_is_redacted() -> None:
    report = REPORT * 4 + f"\nThe deploy key is {SECRET}.\n" + CONCLUSION
    assert report.index(SECRET) > 24_000

    result = next(e for e in _delivered(_delegation("Explore.", report)) if e.content.get("output"))

    assert CONCLUSION in result.content["output"]
    assert SECRET not in result.content["output"]
    assert "[REDACTED:aws_access_key]" in result.content["output"]


def test_a_secret_past_2000_characters_of_a_brief_is_redacted() -> None:
    brief = BRIEF + f"\nUse the key {SECRET}."

    call = next(e for e in _delivered(_delegation(brief, "Done.")) if e.content.get("input"))

    assert "dotnet build" in call.content["input"]["prompt"]
    assert SECRET not in call.content["input"]["prompt"]


def test_a_ten_megabyte_report_is_kept_to_its_bound() -> None:
    report = "x" * 10_000_000 + CONCLUSION

    result = next(e for e in _delivered(_delegation("Explore.", report)) if e.content.get("output"))

    assert len(result.content["output"]) < 25_000
    assert result.content["output"].endswith(CONCLUSION)
    assert "…[truncated " in result.content["output"]


def _shorter_then_longer(
    monkeypatch: pytest.MonkeyPatch, data: bytes, route: Route | None = None
) -> tuple[list[Event], list[Event]]:
    with monkeypatch.context() as patched:
        patched.setattr(claude_tools, "keep_input", kept_values.cap_value)
        patched.setattr(claude, "keep_text", cut_end_text)
        patched.setattr(base, "keep_text", cut_end_text)
        patched.setattr(base, "INPUT_KEPT", kept_values.INPUT_STRING_LIMIT)
        patched.setattr(kept_values, "INPUT_KEPT", kept_values.INPUT_STRING_LIMIT)
        patched.setattr(base, "TEXT_KEPT", kept_values.TEXT_LIMIT)
        patched.setattr(base, "marked", lambda _kind, content: content)
        shorter = _delivered(data, route)
    return shorter, _delivered(data, route)


@pytest.mark.parametrize(
    ("brief", "report", "route"),
    [
        pytest.param(BRIEF, REPORT + CONCLUSION, None, id="plain"),
        pytest.param(f"Key {SECRET}.\n" + BRIEF, REPORT + CONCLUSION, None, id="secret-in-head"),
        pytest.param(
            f"Work in {WORKTREE}/src.\n" + BRIEF,
            f"Read {WORKTREE}/src/shop/http.py.\n" + REPORT + CONCLUSION,
            Route(project_id=ROOT, checkout=WORKTREE),
            id="worktree",
        ),
    ],
)
async def test_a_transcript_read_again_after_the_bounds_grew_stores_no_second_event(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    brief: str,
    report: str,
    route: Route | None,
) -> None:
    cwd = f"{WORKTREE}/src" if route else ROOT
    data = _delegation(brief, report, cwd) + _read(README, cwd)
    shorter, longer = _shorter_then_longer(monkeypatch, data, route)
    assert not any(KEPT_KEY in e.content for e in shorter)
    assert sum(KEPT_KEY in e.content for e in longer) == 3  # the brief, the report, the read
    store = await SqliteStore.open(str(tmp_path))
    try:
        first = await store.append_events(store.project_id, "dev", shorter, [])
        again = await store.append_events(store.project_id, "dev", longer, [])
    finally:
        await store.close()

    assert (first.accepted, first.duplicates) == (len(shorter), 0)
    assert (again.accepted, again.duplicates) == (0, len(longer))


def test_a_huge_tool_input_is_kept_to_its_bounds() -> None:
    one = kept_values.keep_input({"content": "y" * 10_000_000})
    many = {"edits": [{"old_string": "a" * 5_000, "new_string": "b" * 5_000}] * 50}

    assert len(one["content"]) <= INPUT_KEPT + 40
    # fifty long edits in one call: each string cut to the first bound, as before
    assert kept_values.keep_input(many) == kept_values.cap_value(many)
