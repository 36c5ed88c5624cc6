"""A warning that an edit made go away is read as the failure it taught: the build that printed
it and the change that cleared it become a lesson, in any ecosystem, worded as what was
printed; a warning the next run still prints, a next run without an edit or that failed, and a
log printed by `cat` change nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.differences import Edit, difference
from squirrel_memory.extractors.evidence.cleared_warnings import warnings_of
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
RUST_WARNING = (
    "   Compiling feeds v0.1.0 (/home/dev/feeds)\n"
    "warning: function `current_year` is never used\n"
    "  --> src/time.rs:28:8\n"
    'warning: `feeds` (bin "feeds") generated 1 warning\n'
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.85s\n"
)
RUST_CLEAN = "   Compiling feeds v0.1.0\n    Finished `dev` profile target(s) in 0.85s\n"
TEMPLATE_OLD = "© Copyright {{ feeds::time::current_year() }}. All Rights Reserved."
TEMPLATE_NEW = "© Copyright {{ crate::time::current_year() }}. All Rights Reserved."
C_WARNING = "src/io.c:3:5: warning: unused variable 'n' [-Wunused-variable]\n"


def _pitfalls(session: Session) -> list[str]:
    return [c.content for c in evidence_candidates(session.events) if c.type == MemoryType.PITFALL]


def _rust(*, edit: bool = True, then: tuple[int, str] = (0, RUST_CLEAN)) -> Session:
    session = Session("/home/dev/feeds", "s1", T0)
    session.user("make the footer's year dynamic")
    session.run("cargo build 2>&1 | tail -50", 0, RUST_WARNING)
    session.say(
        "The template renders in the binary crate, so I should use `crate::time::current_year()`"
        " instead of `feeds::time::current_year()`: it clears the dead-code warning."
    )
    if edit:
        session.edit_lines("templates/base.html", TEMPLATE_OLD, TEMPLATE_NEW)
    session.run("cargo build 2>&1 | tail -30", *then)
    return session


def test_a_rust_warning_an_edit_cleared_is_a_lesson_with_the_words_that_changed() -> None:
    assert _pitfalls(_rust()) == [
        "`cargo build` printed `warning: function 'current_year' is never used`; changing "
        "`feeds::time::current_year()` to `crate::time::current_year()` in templates/base.html "
        "fixed it."
    ]


def test_a_c_compilers_warning_an_edit_cleared_is_a_lesson_too() -> None:
    session = Session("/home/dev/tool", "s1", T0)
    session.user("build it")
    session.run("make", 0, "cc -Wall -c src/io.c\n" + C_WARNING)
    session.say("`n` is never read: `(void)read_all(fd);` keeps the call and drops the variable.")
    session.edit_lines("src/io.c", "int n = read_all(fd);", "(void)read_all(fd);")
    session.run("make", 0, "cc -Wall -c src/io.c\n")

    [found] = _pitfalls(session)

    assert found.startswith("`make` printed `src/io.c:3:5: warning: unused variable 'n'")
    assert found.endswith(
        "changing `int n = read_all(fd);` to `(void)read_all(fd);` in src/io.c fixed it."
    )


def test_a_warning_still_printed_no_edit_or_a_failed_rerun_teach_nothing() -> None:
    assert _pitfalls(_rust(then=(0, RUST_WARNING))) == []
    assert _pitfalls(_rust(edit=False)) == []
    assert not any("printed" in p for p in _pitfalls(_rust(then=(101, "error[E0425]: x\n"))))


def test_a_log_shown_by_cat_is_no_warning_of_its_own() -> None:
    session = Session("/home/dev/feeds", "s1", T0)
    session.user("what did the last build say?")
    session.run("cat build.log", 0, RUST_WARNING)
    session.edit_lines("templates/base.html", TEMPLATE_OLD, TEMPLATE_NEW)
    session.run("cat build.log", 0, RUST_CLEAN)

    assert _pitfalls(session) == []


def test_a_tally_of_warnings_is_no_warning() -> None:
    assert warnings_of(RUST_WARNING) == ["function `current_year` is never used"]
    assert warnings_of(C_WARNING) == ["unused variable 'n' [-Wunused-variable]"]


def test_a_long_line_is_shown_by_the_words_that_changed_a_short_one_whole() -> None:
    def said(before: str, after: str) -> str:
        return difference(Edit("e1", T0, "s1", "a.txt", before, after))

    assert said(TEMPLATE_OLD, TEMPLATE_NEW) == (
        "changing `feeds::time::current_year()` to `crate::time::current_year()`"
    )
    assert said("timeout = 30", "timeout = 60") == "changing `timeout = 30` to `timeout = 60`"
    long_old = "The quick brown fox jumps over the lazy dog and runs far away home."
    long_new = "A slow red cat sleeps under the busy table and never leaves home."
    assert said(long_old, long_new) == f"changing `{long_old}` to `{long_new}`"


async def test_the_project_pass_reads_the_edit_that_cleared_the_warning(tmp_path: Path) -> None:
    now = T0 + timedelta(days=1)
    async with clocked_stores(tmp_path, now) as (store, users):
        root = store.project_id
        session = _rust()
        events = [
            Event(
                SourceTool.CLAUDE_CODE,
                EventType(e.event_type),
                e.timestamp,
                {
                    k: (v.replace("/home/dev/feeds", root) if isinstance(v, str) else v)
                    for k, v in e.content.items()
                },
                session_id="s1",
                file_paths=tuple(p.replace("/home/dev/feeds", root) for p in e.file_paths),
            )
            for e in session.events
        ]
        for event in events:
            if event.event_type == EventType.TOOL_CALL and "input" in event.content:
                data = dict(event.content["input"])
                if isinstance(data.get("file_path"), str):
                    data["file_path"] = data["file_path"].replace("/home/dev/feeds", root)
                event.content["input"] = data
        await store.append_events(root, "u", events, [])
        await rules_processor(store, users, now).drain(store)
        items, _ = await store.list_memories(root, types=[MemoryType.PITFALL])

        assert [m.content for m in items] == [
            "`cargo build` printed `warning: function 'current_year' is never used`; changing "
            "`feeds::time::current_year()` to `crate::time::current_year()` in templates/base.html"
            " fixed it."
        ]


RUST_TESTS_WARNED = (
    "warning: constant `PAGES` is never used\n  --> src/limits.rs:22:7\n"
    'warning: `feeds` (bin "feeds" test) generated 1 warning\n'
    "running 5 tests\ntest limits::tests::caps ... ok\n\n"
    "test result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 175 filtered out\n"
)
RUST_TESTS_CLEAN = "running 5 tests\n\ntest result: ok. 5 passed; 0 failed; 0 ignored\n"


def test_a_rerun_inside_a_longer_line_clears_the_warning_of_the_command_that_compiles() -> None:
    # The formatter check ran first on the same line; the warning is the test build's.
    session = Session("/home/dev/feeds", "s1", T0)
    session.user("cap the batch size")
    session.run("cargo fmt --check\ncargo test limits", 0, RUST_TESTS_WARNED)
    session.edit_lines(
        "src/limits.rs", "const PAGES: usize = 32;", "#[cfg(unix)]\nconst PAGES: usize = 32;"
    )
    session.run("cargo fmt\ncargo fmt --check\ncargo test limits\nmake e2e", 0, RUST_TESTS_CLEAN)

    [found] = _pitfalls(session)

    assert found.startswith("`cargo test limits` printed `warning: constant 'PAGES' is never used`")


def test_a_c_warning_cleared_by_a_longer_rerun_is_a_lesson_and_a_smaller_one_is_not() -> None:
    def session_with(rerun: str) -> Session:
        session = Session("/home/dev/tool", "s1", T0)
        session.user("build it")
        session.run("make lib && make test", 0, "cc -Wall -c src/io.c\n" + C_WARNING + "3 passed\n")
        session.edit_lines("src/io.c", "int n = read_all(fd);", "(void)read_all(fd);")
        session.run(rerun, 0, "cc -Wall -c src/io.c\n3 passed\n")
        return session

    # The warning is credited to the command that compiles: `make lib`'s target names no
    # purpose, `make test` builds what it tests.
    [found] = _pitfalls(session_with("make lib && make test && make install"))
    assert found.startswith("`make test` printed `src/io.c:3:5: warning: unused variable 'n'")
    # A rerun of only part of the line did not run what printed the warning again.
    assert _pitfalls(session_with("make test")) == []
