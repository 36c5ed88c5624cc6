"""A fix is said by what the edit did at the line the error quoted: a line put above or below it,
or the line itself changed, even inside an edit too large to quote whole; in several
ecosystems' error frames (a numbered gutter, a traceback's frame, a caret row, a test runner's
mark). Silent where the edit changed other lines, where the quoted line stayed as it was with
nothing next to it, on progress lines, when the failure was never fixed and when a retry passed
with no edit. The project pass reads a Codex patch as the edit it is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.differences import Edit
from squirrel_memory.extractors.pointed_edits import pointed_change, pointed_lines
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.project_evidence import is_edit_call as _is_edit_call
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)

RUST_WARNED = (
    "   Compiling tiles v0.3.0 (/home/dev/tiles)\n"
    "warning: constant `MAX_TILE_PAGES` is never used\n"
    "  --> src/cache.rs:14:7\n"
    "   |\n"
    "14 | const MAX_TILE_PAGES: usize = 64;\n"
    "   |       ^^^^^^^^^^^^^^\n"
    "   |\n"
    "   = note: `#[warn(dead_code)]` on by default\n"
    "running 4 tests\n"
    "test cache::tests::evicts ... ok\n"
    "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 12 filtered out\n"
)
RUST_CLEAN = "running 4 tests\ntest result: ok. 4 passed; 0 failed; 0 ignored\n"
RUST_OLD = (
    "const MAX_TILE_BYTES: usize = 4096;\n"
    "const MAX_TILE_PAGES: usize = 64;\n"
    "\n"
    "#[cfg(unix)]\n"
    "fn tile_pages() -> usize {\n"
    "    page_count(MAX_TILE_PAGES)\n"
    "}\n"
)
RUST_NEW = (
    "const MAX_TILE_BYTES: usize = 4096;\n"
    "#[cfg(unix)]\n"
    "const MAX_TILE_PAGES: usize = 64;\n"
    "\n"
    "#[cfg(unix)]\n"
    "fn platform_tile_pages() -> Option<usize> {\n"
    "    Some(page_count(MAX_TILE_PAGES))\n"
    "}\n"
    "\n"
    "#[cfg(not(unix))]\n"
    "fn platform_tile_pages() -> Option<usize> {\n"
    "    None\n"
    "}\n"
)
PY_FAILED = (
    "============================= test session starts ==============================\n"
    "collected 3 items\n\n"
    "tests/test_stats.py ..F                                                   [100%]\n\n"
    "=================================== FAILURES ===================================\n"
    "Traceback (most recent call last):\n"
    '  File "/home/dev/ledger/ledger/stats.py", line 9, in mean\n'
    "    return total / count\n"
    "ZeroDivisionError: division by zero\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_stats.py::test_mean_of_nothing - ZeroDivisionError: division by zero\n"
    "========================= 1 failed, 2 passed in 0.04s ==========================\n"
)
PY_PASSED = "collected 3 items\n\ntests/test_stats.py ...   [100%]\n\n3 passed in 0.03s\n"
PY_OLD = (
    "def mean(values):\n"
    '    """The mean of `values`."""\n'
    "    total = sum(values)\n"
    "    count = len(values)\n"
    "    return total / count\n"
)
PY_NEW = (
    "def mean(values: list[float]) -> float:\n"
    '    """The mean of `values`; 0.0 for none."""\n'
    "    total = sum(values)\n"
    "    count = len(values)\n"
    "    return total / count if count else 0.0\n"
)


def _edit(before: str, after: str, path: str = "src/cache.rs") -> Edit:
    return Edit("e1", T0, "s1", path, before, after)


# --- the lines an error quotes ----------------------------------------------------------------


def test_the_quoted_line_of_each_frame_shape() -> None:
    assert pointed_lines(RUST_WARNED) == ["const MAX_TILE_PAGES: usize = 64;"]
    assert pointed_lines(PY_FAILED) == ["return total / count"]
    javac = (
        "src/main/java/shop/Cart.java:31: error: incompatible types: int cannot be converted"
        " to String\n        String label = item.count();\n                       ^\n1 error\n"
    )
    assert pointed_lines(javac) == ["String label = item.count();"]
    marked = ">       assert parse_price('3,50') == 3.5\nE       assert None == 3.5\n"
    assert pointed_lines(marked) == ["assert parse_price('3,50') == 3.5"]
    elixir = 'warning: variable "rows" is unused\n    │\n 12 │     rows = Repo.all(query)\n'
    assert pointed_lines(elixir) == ["rows = Repo.all(query)"]
    buildkit = (
        "--------------------\n 150 |     RUN apt-get update && \\\n 151 | >>>     apt-get install -y"
        " openjdk-17-jdk-headless=17.0.19\n--------------------\nERROR: failed to solve\n"
    )
    assert pointed_lines(buildkit) == [
        "RUN apt-get update && \\",
        "apt-get install -y openjdk-17-jdk-headless=17.0.19",
    ]
    tsc = (
        "src/cart.ts:4:7 - error TS2322: Type 'number' is not assignable to type 'string'.\n\n"
        "4 const label: string = item.count;\n        ~~~~~\n\nFound 1 error.\n"
    )
    assert pointed_lines(tsc) == ["const label: string = item.count;"]


@pytest.mark.parametrize(
    "output",
    [
        "Checking 3 source files ...\n==> fine\nGetting extensions in current project...\n",
        "   Compiling tiles v0.3.0\n    Finished `test` profile target(s) in 2.1s\n",
        "src/app.ts(4,7): error TS2322: Type 'number' is not assignable to type 'string'.\n",
        "  12 | }\n   |  ^\n",  # a brace is no line of its own to match
        "Installation guide\n~~~~~~~~~~~~~~~~~~\n",  # a heading's underline is no caret row
    ],
)
def test_progress_lines_and_bare_locations_quote_nothing(output: str) -> None:
    assert pointed_lines(output) == []


# --- what the edit did there ------------------------------------------------------------------


def test_a_line_put_above_the_quoted_one_in_a_large_hunk() -> None:
    found = pointed_change([_edit(RUST_OLD, RUST_NEW)], RUST_WARNED)
    assert found is not None
    assert found[1] == "adding `#[cfg(unix)]` above `const MAX_TILE_PAGES: usize = 64;`"


def test_the_quoted_line_changed_in_a_larger_edit() -> None:
    found = pointed_change([_edit(PY_OLD, PY_NEW, "ledger/stats.py")], PY_FAILED)
    assert found is not None
    assert found[1] == "changing `return total / count` to `return total / count if count else 0.0`"


def test_a_guard_put_below_the_quoted_line() -> None:
    output = "Traceback (most recent call last):\n" + (
        '  File "app/io.py", line 3, in load\n    rows = read_rows(path)\nOSError: closed\n'
    )
    old = "def load(path):\n    rows = read_rows(path)\n    return rows\n"
    new = "def load(path):\n    rows = read_rows(path)\n    rows.close_on_exit()\n    return rows\n"
    found = pointed_change([_edit(old, new, "app/io.py")], output)
    assert found is not None
    assert found[1] == "adding `rows.close_on_exit()` below `rows = read_rows(path)`"


def test_a_pinned_version_changed_on_the_line_a_build_quoted() -> None:
    output = (
        " 151 | >>>     apt-get install -y openjdk-17-jdk-headless=17.0.19\n"
        "ERROR: failed to solve: process did not complete successfully: exit code: 100\n"
    )
    old = (
        "RUN apt-get update && \\\n"
        "    apt-get install -y openjdk-17-jdk-headless=17.0.19\n"
        "ENV JAVA_HOME=/usr/lib/jvm/java-17\nENV PATH=$JAVA_HOME/bin:$PATH\n"
    )
    new = (
        "RUN apt-get update && \\\n"
        "    apt-get install -y openjdk-17-jdk-headless=17.0.20\n"
        "ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk\nENV PATH=$JAVA_HOME/bin:$PATH:/opt/bin\n"
    )
    found = pointed_change([_edit(old, new, "android.Dockerfile")], output)
    assert found is not None
    assert found[1] == (
        "changing `apt-get install -y openjdk-17-jdk-headless=17.0.19` to "
        "`apt-get install -y openjdk-17-jdk-headless=17.0.20`"
    )


def test_silent_where_the_edit_left_the_quoted_line_alone() -> None:
    # The edit changed lines far from the quoted one: it may be the fix, but its lines do not
    # say so.
    old = RUST_OLD + "\nfn evict() {\n    drop_all();\n}\n"
    new = RUST_OLD + "\nfn evict() {\n    drop_oldest();\n}\n"
    assert pointed_change([_edit(old, new)], RUST_WARNED) is None
    # Many lines put next to it are no one difference.
    many = RUST_OLD.replace(
        "const MAX_TILE_PAGES",
        "#[cfg(unix)]\n#[doc(hidden)]\n#[allow(unused)]\nconst MAX_TILE_PAGES",
    )
    assert pointed_change([_edit(RUST_OLD, many)], RUST_WARNED) is None
    # An output that quotes no line, or a new file.
    assert pointed_change([_edit(RUST_OLD, RUST_NEW)], RUST_CLEAN) is None
    assert pointed_change([_edit("", RUST_NEW)], RUST_WARNED) is None


# --- in a session ----------------------------------------------------------------------------


def _pitfalls(session: Session) -> list[str]:
    return [c.content for c in evidence_candidates(session.events) if c.type == MemoryType.PITFALL]


def _rust(*, edit: bool = True, then: tuple[int, str] = (0, RUST_CLEAN)) -> Session:
    session = Session("/home/dev/tiles", "s1", T0)
    session.user("cap the tile cache on unix")
    session.run("cargo test cache", 0, RUST_WARNED)
    if edit:
        session.edit_lines("src/cache.rs", RUST_OLD, RUST_NEW)
    session.run("cargo test cache", *then)
    return session


def _python(*, edit: bool = True, then: tuple[int, str] = (0, PY_PASSED)) -> Session:
    session = Session("/home/dev/ledger", "s1", T0)
    session.user("the mean of an empty list should be zero")
    session.run("python -m pytest tests/test_stats.py", 1, PY_FAILED)
    if edit:
        session.edit_lines("ledger/stats.py", PY_OLD, PY_NEW)
    session.run("python -m pytest tests/test_stats.py", *then)
    return session


def test_a_rust_warning_cleared_by_an_attribute_above_the_quoted_line() -> None:
    assert _pitfalls(_rust()) == [
        "`cargo test cache` printed `warning: constant 'MAX_TILE_PAGES' is never used`; adding "
        "`#[cfg(unix)]` above `const MAX_TILE_PAGES: usize = 64;` in src/cache.rs fixed it."
    ]


def test_a_python_failure_fixed_at_the_line_its_traceback_quoted() -> None:
    [found] = _pitfalls(_python())
    assert found.endswith(
        "changing `return total / count` to `return total / count if count else 0.0` in "
        "ledger/stats.py fixed it."
    )


def test_no_fix_said_for_a_failure_never_fixed_or_a_retry_without_an_edit() -> None:
    # The rerun failed the same way: no change is said to have fixed it.
    assert not any("changing" in p for p in _pitfalls(_python(then=(1, PY_FAILED))))
    assert not any("adding" in p for p in _pitfalls(_rust(then=(0, RUST_WARNED))))
    # A rerun that passed with nothing edited in between: no change to tell.
    assert not any("changing" in p for p in _pitfalls(_python(edit=False)))
    assert _pitfalls(_rust(edit=False)) == []


def _call(given: dict[str, object]) -> StoredEvent:
    return StoredEvent(
        id="e1",
        project_id="/home/dev/tiles",
        user_id="dev",
        source_tool="codex",
        session_id="s1",
        timestamp=T0,
        event_type="tool_call",
        content={"tool": "apply_patch", "tool_use_id": "t1", "input": given},
        file_paths=(),
        hash="h",
    )


def test_the_project_pass_reads_a_patch_as_an_edit() -> None:
    patch = "*** Begin Patch\n*** Update File: src/cache.rs\n@@\n+#[cfg(unix)]\n*** End Patch\n"
    assert _is_edit_call(_call({"input": patch}))
    assert _is_edit_call(_call({"file_path": "a.py", "old_string": "a", "new_string": "b"}))
    assert not _is_edit_call(_call({"cmd": "cat src/cache.rs", "workdir": "/home/dev/tiles"}))
