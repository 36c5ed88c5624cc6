"""What the project keeps out of git, as the root `.gitignore` a session read says."""

from __future__ import annotations

from datetime import timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.read_ignores import class_of, read_ignores, statement
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import PROJECT, T0, Stream
from tests.unit.memory.test_session_about import _numbered, _reads

IGNORE = """# dependencies
node_modules/
.venv/

# build output
dist/
target/
__pycache__/

.env*
!.env.example
.DS_Store
/data/
"""


@pytest.mark.parametrize(
    ("pattern", "label"),
    [
        ("node_modules/", "dependencies"),
        ("/vendor", "dependencies"),
        ("deps/", "dependencies"),
        ("dist/", "build output"),
        ("target/", "build output"),
        ("_build/", "build output"),
        ("[Bb]in/", "build output"),
        ("public/build/", "build output"),
        ("*.py[cod]", "compiled files"),
        ("*.class", "compiled files"),
        ("*.o", "compiled files"),
        (".env", "environment files"),
        (".env.*.local", "environment files"),
        ("*.pem", "keys and secrets"),
        ("*.sqlite3", "local databases"),
        (".gradle/", "caches"),
        ("**/.pytest_cache", "caches"),
        ("coverage/", "test and coverage reports"),
        ("npm-debug.log*", "logs"),
        (".idea/workspace.xml", "editor settings"),
        ("*.swp", "editor settings"),
        ("Thumbs.db", "operating-system files"),
        ("tmp/", "temporary files"),
        ("/projects/", None),
        ("docs/api.md", None),
    ],
)
def test_a_pattern_is_classed_by_its_own_shape(pattern: str, label: str | None) -> None:
    assert class_of(pattern) == label


def test_the_patterns_are_said_by_class_and_the_rest_by_name() -> None:
    assert statement(IGNORE) == (
        "The repository's `.gitignore` ignores dependencies (`node_modules/`, `.venv/`), build output "
        "(`dist/`, `target/`), compiled files (`__pycache__/`), environment files (`.env*`), "
        "operating-system files (`.DS_Store`) and also `/data/`, but keeps `.env.example` in git."
    )


def test_patterns_past_the_shown_ones_are_counted_not_cut_off() -> None:
    said = statement("dist/\nbuild/\nout/\ntarget/\n" + "".join(f"/x{n}/\n" for n in range(7)))
    assert said == (
        "The repository's `.gitignore` ignores build output (`dist/`, `build/`, `out/` and 1 "
        "more) and also `/x0/`, `/x1/`, `/x2/`, `/x3/`, `/x4/` and 2 more."
    )


def test_comment_and_blank_lines_are_not_patterns() -> None:
    said = statement("# Local settings\n\n#.idea/\n.env\n")
    assert said == "The repository's `.gitignore` ignores environment files (`.env`)."


def test_a_template_of_more_than_forty_patterns_says_nothing() -> None:
    template = "\n".join(f"pattern-{n}/" for n in range(38)) + "\nnode_modules/\ndist/\n.env\n"
    assert statement(template) is None
    assert statement("# only comments\n\n") is None


def test_the_root_gitignore_read_whole_is_one_fact_with_the_file_as_source() -> None:
    events = _reads((f"{PROJECT}/.gitignore", _numbered(IGNORE)))
    (found,) = read_ignores(events)
    assert found.key == "ignored:read:.gitignore"
    assert found.path == ".gitignore"
    assert found.event_ids == (events[-1].id,)
    assert "dependencies (`node_modules/`, `.venv/`)" in found.content


@pytest.mark.parametrize(
    "path",
    [f"{PROJECT}/web/.gitignore", f"{PROJECT}/.dockerignore", "/home/dev/other/.gitignore"],
    ids=["nested", "other-ignore-file", "other-project"],
)
def test_no_fact_for_another_ignore_file(path: str) -> None:
    assert read_ignores(_reads((path, _numbered(IGNORE)))) == []


def test_no_fact_for_a_failed_read() -> None:
    events = _reads((f"{PROJECT}/.gitignore", _numbered(IGNORE)), is_error=True)
    assert read_ignores(events) == []


def test_no_fact_for_a_partial_read() -> None:
    stream = Stream()
    stream.add("tool_call", {"tool": "Read", "tool_use_id": "t1"}, (f"{PROJECT}/.gitignore",))
    result = {"tool": "Read", "tool_use_id": "t1", "output": _numbered(IGNORE), "partial": True}
    stream.add("tool_result", result, (f"{PROJECT}/.gitignore",))
    assert read_ignores(stream.events) == []


def test_no_fact_for_a_read_that_starts_past_the_first_line() -> None:
    later = "\n".join(f"{n:>6}→{line}" for n, line in enumerate(IGNORE.splitlines(), 5))
    assert read_ignores(_reads((f"{PROJECT}/.gitignore", later))) == []


def test_no_fact_for_a_read_ingest_cut_short() -> None:
    cut = _numbered(IGNORE) + "\n…[truncated 5120 chars]"
    assert read_ignores(_reads((f"{PROJECT}/.gitignore", cut))) == []


def test_the_latest_read_wins_as_the_sessions_edits_left_it() -> None:
    stream = Stream()
    path = f"{PROJECT}/.gitignore"
    stream.add("tool_call", {"tool": "Read", "tool_use_id": "r1"}, (path,))
    stream.add(
        "tool_result", {"tool": "Read", "tool_use_id": "r1", "output": _numbered(IGNORE)}, (path,)
    )
    edit = {"file_path": path, "old_string": "/data/\n", "new_string": "/exports/\n"}
    stream.add("tool_call", {"tool": "Edit", "tool_use_id": "e1", "input": edit}, (path,))
    (found,) = read_ignores(stream.events)
    assert "`/exports/`" in found.content
    assert "`/data/`" not in found.content
    # A later read of a shorter file is what the file now holds.
    stream.add("tool_call", {"tool": "Read", "tool_use_id": "r2"}, (path,))
    stream.add(
        "tool_result",
        {"tool": "Read", "tool_use_id": "r2", "output": _numbered("dist/\n")},
        (path,),
    )
    (found,) = read_ignores(stream.events)
    assert found.content == "The repository's `.gitignore` ignores build output (`dist/`)."
    assert found.event_ids == (stream.events[-1].id,)


async def test_the_rules_extractor_keeps_it_as_a_project_fact_about_the_file() -> None:
    events = _reads((f"{PROJECT}/.gitignore", _numbered(IGNORE)))
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))
    found = {c.key: c for c in await RulesExtractor().extract(episode, events)}
    fact = found["ignored:read:.gitignore"]
    assert fact.type is MemoryType.PROJECT_FACT
    assert fact.file_paths == (".gitignore",)
    assert fact.content.startswith("The repository's `.gitignore` ignores dependencies")
