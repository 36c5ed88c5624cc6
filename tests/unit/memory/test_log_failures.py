"""Failures read from a fetched log, with the cause the assistant named and the change made."""

from __future__ import annotations

from squirrel_memory.extractors.log_failures import log_failures
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import PROJECT, Stream

JOB_LOG = (
    "build-app\tUNKNOWN STEP\t2026-02-19T13:46:08Z warning: unused variable `x`\n"
    "build-app\tUNKNOWN STEP\t2026-02-19T13:47:07Z error: linking with `cc` failed\n"
    "build-app\tUNKNOWN STEP\t2026-02-19T13:47:07Z ld: library 'usbkit' not found\n"
)
QUOTE = "The error is clear: `ld: library 'usbkit' not found` on the CI runner."
SUMMARY = (
    "The fix is in place.\n\n**Problem:** The workflow installed the old driver package. "
    "The old package doesn't provide `libusbkit`, so the linker fails.\n\nWant me to commit?"
)
WORKFLOW = ".github/workflows/release.yml"


def _edit(stream: Stream, path: str, before: str, after: str) -> None:
    use_id = f"t{len(stream.events)}"
    data = {"file_path": f"{PROJECT}/{path}", "old_string": before, "new_string": after}
    stream.add("tool_call", {"tool": "Edit", "tool_use_id": use_id, "input": data}, (path,))
    stream.add("code_change", {"tool": "Edit", "tool_use_id": use_id, "path": path}, (path,))


def _session(
    *,
    output: str = JOB_LOG,
    exit_code: int = 0,
    quote: str = QUOTE,
    summary: str = SUMMARY,
    user_between: str = "",
    origin: str = "typed",
    edit: bool = True,
) -> Stream:
    stream = Stream()
    stream.user("the release build is failing in CI")
    stream.run("gh run view 22181848464 --log-failed 2>&1 | tail -100", exit_code, output)
    stream.say(quote)
    stream.say("Let me look at the workflow.")
    if user_between:
        stream.add("user_message", {"text": user_between}, origin=origin)
    if edit:
        _edit(
            stream,
            WORKFLOW,
            "- name: Install driver\n  run: brew install old-driver",
            "- name: Install usbkit\n  run: brew install usbkit",
        )
    stream.say(summary)
    return stream


def test_a_log_error_its_cause_and_the_edit_make_one_lesson() -> None:
    (found,) = log_failures(_session().events)
    assert found.content == (
        "`ld: library 'usbkit' not found` showed in a log read with "
        "`gh run view <id> --log-failed`: The old package doesn't provide `libusbkit`, so the "
        f"linker fails; changed in answer in {WORKFLOW}: `- name: Install driver` became "
        "`- name: Install usbkit` and `run: brew install old-driver` became "
        "`run: brew install usbkit`."
    )
    assert found.files == (WORKFLOW,)
    assert found.key.startswith("pitfall:ld-library")


def test_a_note_queued_mid_turn_does_not_end_it() -> None:
    stream = _session(user_between="probably the driver step", origin="queued")
    assert len(log_failures(stream.events)) == 1


def test_a_large_edit_is_named_by_its_file() -> None:
    stream = Stream()
    stream.run("journalctl -u api", 0, "Jan 1 api[1]: fatal: could not bind port 8080\n")
    stream.say("The service logged `fatal: could not bind port 8080` at start.")
    _edit(stream, "deploy/api.service", "a\nb\nc", "d\ne\nf")
    stream.say("The port is not free because the old unit still runs.")
    (found,) = log_failures(stream.events)
    assert found.content.endswith(
        "The port is not free because the old unit still runs; changed in answer: "
        "deploy/api.service."
    )


def test_the_cause_before_the_edit_serves_when_the_summary_explains_nothing() -> None:
    stream = _session(
        quote=QUOTE + " The runner does not have the usbkit library installed.",
        summary="Done, the workflow now installs it.",
    )
    (found,) = log_failures(stream.events)
    assert ": The runner does not have the usbkit library installed;" in found.content


def test_a_cut_output_still_backs_a_quote_when_it_holds_an_error_line() -> None:
    cut = JOB_LOG.rsplit("\n", 2)[0] + "\n…[truncated 80 chars]"
    assert "usbkit" not in cut
    assert len(log_failures(_session(output=cut).events)) == 1
    clean = "warning: unused variable\n…[truncated 80 chars]"
    assert log_failures(_session(output=clean).events) == []


def test_no_lesson_without_each_part() -> None:
    # The quoted line is not in the output (the assistant quotes something else).
    assert log_failures(_session(output="all green\n").events) == []
    # The command failed itself: a failed attempt, the failing-command rules' case.
    assert log_failures(_session(exit_code=1).events) == []
    # Nothing was changed in answer.
    assert log_failures(_session(edit=False).events) == []
    # The user spoke before the edit: it answers something else.
    assert log_failures(_session(user_between="now do the docs").events) == []
    # No sentence explains: a plan, a hedge and a question are not causes.
    hedged = "It is likely the runner doesn't have the library. Let me check. Is it installed?"
    bare = "The error is clear: `ld: library 'usbkit' not found`."
    assert log_failures(_session(quote=bare, summary=hedged).events) == []
    # A progress line or a file listing quoted is not an error.
    listing = "Compiling usbkit v0.3.1 ...\nsrc/a.rs src/b.rs src/c.rs\n"
    for quote in ("Output: `Compiling usbkit v0.3.1 ...`.", "Files: `src/a.rs src/b.rs src/c.rs`."):
        assert log_failures(_session(output=listing, quote=quote).events) == []


async def test_the_rules_extractor_keeps_it_as_a_pitfall() -> None:
    stream = _session()
    found = [c for c in await RulesExtractor().extract(stream.episode(), stream.events)]
    lessons = [c for c in found if "log" in c.tags]
    assert [c.type for c in lessons] == [MemoryType.PITFALL]
    assert lessons[0].file_paths == (WORKFLOW,)
