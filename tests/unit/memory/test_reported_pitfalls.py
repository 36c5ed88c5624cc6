"""Errors the user pasted, with the cause the assistant named and what was done in answer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.reported import reported_pitfalls
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/site"
DEPLOY_LOG = (
    'The deploy is still broken:\n\n12:38.208 Running "git submodule update --init"\n'
    "12:38.300 Host key verification failed.\n"
    "12:38.301 fatal: Could not read from remote repository.\n"
)
CAUSE = (
    "Exactly! The build server doesn't have SSH keys, so it can't clone via the "
    "`git@github.com:` URL. We need to change the submodule to use HTTPS instead:"
)


def _stream(*steps: tuple[str, dict[str, Any], str]) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{n:04d}",
            project_id=ROOT,
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=T0 + timedelta(seconds=20 * n),
            event_type=kind,
            content=content,
            file_paths=(content["path"],) if "path" in content else (),
            hash=f"h{n}",
            origin=origin,
        )
        for n, (kind, content, origin) in enumerate(steps)
    ]


def _user(text: str, origin: str = "typed") -> tuple[str, dict[str, Any], str]:
    return ("user_message", {"text": text}, origin)


def _says(text: str) -> tuple[str, dict[str, Any], str]:
    return ("assistant_response", {"text": text}, "assistant")


def _runs(command: str) -> tuple[str, dict[str, Any], str]:
    return ("command_run", {"command": command, "exit_code": 0, "output": ""}, "assistant")


def _edits(path: str) -> tuple[str, dict[str, Any], str]:
    return ("code_change", {"tool": "Edit", "path": f"{ROOT}/{path}"}, "assistant")


def test_a_pasted_error_with_its_cause_and_the_change_made_is_a_pitfall() -> None:
    events = _stream(
        _user(DEPLOY_LOG),
        _says(CAUSE),
        _runs("git status"),
        _runs("git submodule deinit -f public/tool && git submodule add https://x.org/t.git t"),
        _edits(".gitmodules"),
        _says("Done."),
        _user("great, thanks"),
        _runs("git push"),
    )
    (found,) = reported_pitfalls(events)
    assert found.content == (
        "`fatal: Could not read from remote repository.` was reported from outside the session; "
        "the cause named: The build server doesn't have SSH keys, so it can't clone via the "
        "`git@github.com:` URL; the remedy: change the submodule to use HTTPS instead; done in "
        "answer: editing .gitmodules, `git submodule deinit -f public/tool`, "
        "`git submodule add https://x.org/t.git t`."
    )
    assert found.files == (".gitmodules",)
    assert found.key.startswith("pitfall:fatal-could-not-read-from-remote")
    assert "evt_0007" not in found.event_ids  # the push after the next message is not part


async def test_the_rules_extractor_keeps_it_as_a_pitfall() -> None:
    events = _stream(_user(DEPLOY_LOG), _says(CAUSE), _edits(".gitmodules"))
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))
    found = [c for c in await RulesExtractor().extract(episode, events) if "reported" in c.tags]
    assert [c.type for c in found] == [MemoryType.PITFALL]
    assert found[0].file_paths == (".gitmodules",)


@pytest.mark.parametrize(
    "steps",
    [
        # No error in the user's words.
        [_user("Can you make the header blue?"), _says(CAUSE), _edits("app.css")],
        # The error was not the user's: a subagent prompt or an injected summary.
        [_user(DEPLOY_LOG, origin="subagent"), _says(CAUSE), _edits(".gitmodules")],
        # The answer explains nothing.
        [_user(DEPLOY_LOG), _says("Let me update the config."), _edits(".gitmodules")],
        # Only looked or re-ran checks: nothing was changed in answer.
        [
            _user(DEPLOY_LOG),
            _says(CAUSE),
            _runs("git status && ls -la && cat .gitmodules"),
            _runs("npm test"),
        ],
        # The change came after the user spoke again: it answers something else.
        [_user(DEPLOY_LOG), _says(CAUSE), _user("never mind"), _edits(".gitmodules")],
    ],
    ids=["no-error", "not-the-user", "no-cause", "nothing-changed", "later-change"],
)
def test_no_pitfall_without_a_pasted_error_a_cause_and_a_change(
    steps: list[tuple[str, dict[str, Any], str]],
) -> None:
    assert reported_pitfalls(_stream(*steps)) == []


def test_an_investigation_step_is_not_called_the_remedy() -> None:
    answer = (
        "The tests are failing because the mock is not updated. "
        "We need to look at the implementation first."
    )
    events = _stream(_user("E   AssertionError: assert 1 == 2"), _says(answer), _edits("t.py"))
    (found,) = reported_pitfalls(events)
    assert "the remedy" not in found.content
    assert found.content.startswith("`AssertionError: assert 1 == 2` was reported")


def test_a_huge_pasted_log_is_read_only_up_to_its_cap() -> None:
    huge = "ok line\n" * 100_000 + "fatal: too far down to read\n"
    events = _stream(_user(huge), _says(CAUSE), _edits(".gitmodules"))
    assert reported_pitfalls(events) == []
    long_error = "Error: " + "word " * 200
    events = _stream(_user(long_error), _says(CAUSE), _edits(".gitmodules"))
    (found,) = reported_pitfalls(events)
    shown = found.content.split("`")[1]
    assert len(shown) <= 120 and not shown.endswith("…")


@pytest.mark.parametrize(
    ("pasted", "error"),
    [
        (
            "FGS:\n\nLoading module from “https://example.org/app.js” was blocked because of a "
            "disallowed MIME type (“text/html”).\n",
            "Loading module from “https://example.org/app.js” was blocked because of a "
            "disallowed MIME type (“text/html”).",
        ),
        (
            "console says:\nUncaught TypeError: Cannot read properties of null (reading 'play')",
            "Uncaught TypeError: Cannot read properties of null (reading 'play')",
        ),
        (
            "GET https://example.org/api/items 404 (Not Found)",
            "GET https://example.org/api/items 404 (Not Found)",
        ),
        (  # the user's own words before the error they quote are not the error
            "why if i open a project it says Failed to load project: No migration registered "
            "from schema version 12",
            "Failed to load project: No migration registered from schema version 12",
        ),
    ],
)
def test_browser_console_errors_count_as_pasted_errors(pasted: str, error: str) -> None:
    (found,) = reported_pitfalls(_stream(_user(pasted), _says(CAUSE), _edits("app.js")))
    assert found.content.startswith(f"`{error}` was reported from outside the session")


@pytest.mark.parametrize(
    "prose",
    [
        "The button was blue before and I want it green now.",
        "We loaded 404 items into the table, looks good.",
        "The status page is fine, nothing failed.",
    ],
)
def test_ordinary_prose_is_not_a_console_error(prose: str) -> None:
    assert reported_pitfalls(_stream(_user(prose), _says(CAUSE), _edits("app.js"))) == []


def test_commits_and_consequences_are_not_reported_as_what_was_done() -> None:
    answer = "That way we don't need rewrites for every asset. Let me commit it."
    events = _stream(
        _user(DEPLOY_LOG),
        _says(answer),
        _runs('git add -A && git commit -m "Add base tag\n\nUse <base href> so paths resolve"'),
    )
    assert reported_pitfalls(events) == []
    events = _stream(
        _user(DEPLOY_LOG),
        _says(CAUSE),
        _runs('git commit -m "Switch to https\n\nVercel has no keys" && npm install --save x'),
    )
    (found,) = reported_pitfalls(events)
    assert found.content.endswith("done in answer: `npm install --save x`.")


def test_commands_on_paths_outside_the_project_are_not_named() -> None:
    events = _stream(
        _user(DEPLOY_LOG),
        _says(CAUSE),
        _runs("mkdir -p /Users/someone/other-repo/icons && touch ~/notes.txt"),
        _runs(f"mkdir -p {ROOT}/public/icons"),
    )
    (found,) = reported_pitfalls(events)
    assert "/Users/" not in found.content and "~/" not in found.content
    assert found.content.endswith("done in answer: `mkdir -p public/icons`.")


@pytest.mark.parametrize(
    "request_line",
    [
        "Investigate the following issue in @scripts/start.sh and fix the syntax error: me@box ~/p>",
        "please fix this error: it broke after the update",
        "Can you look at why the build fails with error: see below",
    ],
)
def test_the_users_request_is_not_the_pasted_error(request_line: str) -> None:
    pasted = (
        f"{request_line}\nrunning...\n/home/me/p/scripts/run.sh: line 28: syntax error near `('\n"
    )
    (found,) = reported_pitfalls(_stream(_user(pasted), _says(CAUSE), _edits("scripts/run.sh")))
    assert found.content.startswith("`~/p/scripts/run.sh: line 28: syntax error near")


def test_an_error_only_in_the_request_line_is_still_the_error() -> None:
    pasted = "Fix this: error: cannot find module 'left-pad'"
    (found,) = reported_pitfalls(_stream(_user(pasted), _says(CAUSE), _edits("app.js")))
    assert found.content.startswith("`Fix this: error: cannot find module 'left-pad'` was")


def test_paths_in_the_pasted_error_lose_the_checkout_and_home_folders() -> None:
    pasted = f"{ROOT}/scripts/merge.sh: line 28: syntax error near unexpected token `('"
    answer = "The `jq` filter has `else` without `if`; jq requires a complete if-then-else."
    (found,) = reported_pitfalls(_stream(_user(pasted), _says(answer), _edits("scripts/merge.sh")))
    assert found.content.startswith(
        "`scripts/merge.sh: line 28: syntax error near unexpected token '('` was reported"
    )
    assert ROOT not in found.content
    other = "/home/ann/bin/helper.sh: line 3: syntax error near unexpected token `)'"
    (found,) = reported_pitfalls(_stream(_user(other), _says(answer), _edits("x.sh")))
    assert found.content.startswith("`~/bin/helper.sh: line 3:")


def _edit_call(path: str, old: str, new: str) -> tuple[str, dict[str, Any], str]:
    data = {"file_path": f"{ROOT}/{path}", "old_string": old, "new_string": new}
    return ("tool_call", {"tool": "Edit", "tool_use_id": path, "input": data}, "assistant")


#: Build logs whose first error-looking line is a build tool's summary or a warning, with the
#: compiler's own error line below it, from several toolchains.
_BUILD_LOGS = [
    (
        "[96/140] Compiling C++ object src/libcore.a.p/Grid.cpp.obj\n"
        "FAILED: [code=2] src/libcore.a.p/Grid.cpp.obj\n"
        "../src/Grid.cpp(128): error C2397: conversion from 'Index' to 'long' requires a "
        "narrowing conversion\nninja: build stopped: subcommand failed.\nfix it",
        "../src/Grid.cpp(128): error C2397: conversion from 'Index' to 'long' requires a "
        "narrowing conversion",
    ),
    (
        "lib/io.h(1): warning C4828: The file contains a character that is illegal\n"
        "../src/main.cpp(94): error C2065: 'TCHAR': undeclared identifier\n",
        "../src/main.cpp(94): error C2065: 'TCHAR': undeclared identifier",
    ),
    (
        "FAILED: out/main.o\ngcc -c main.c\nmain.c:3:5: error: unknown type name 'uint'\n",
        "main.c:3:5: error: unknown type name 'uint'",
    ),
    (
        "FAILED: build step\nerror[E0308]: mismatched types\n --> src/lib.rs:4:5\n",
        "error[E0308]: mismatched types",
    ),
    (
        "FAIL build\nsrc/app.ts(7,3): error TS2345: Argument of type 'string' is not assignable\n",
        "src/app.ts(7,3): error TS2345: Argument of type 'string' is not assignable",
    ),
]


@pytest.mark.parametrize(
    ("pasted", "error"), _BUILD_LOGS, ids=["msvc", "warning-first", "gcc", "rustc", "tsc"]
)
def test_the_compilers_error_line_wins_over_a_summary_or_a_warning(pasted: str, error: str) -> None:
    (found,) = reported_pitfalls(_stream(_user(pasted), _says(CAUSE), _edits("src/x")))
    assert found.content.startswith(f"`{error.replace('`', chr(39))}` was reported")


@pytest.mark.parametrize(
    "pasted",
    [
        # No compiler error below the summary: the summary stays the error.
        "FAILED: [code=2] src/libcore.a.p/Grid.cpp.obj\nninja: build stopped\n",
        # A Python traceback keeps its exception line, even with an `ERROR:` line after it.
        "Traceback (most recent call last):\nValueError: bad value\nERROR: job failed\n",
    ],
    ids=["summary-only", "exception"],
)
def test_a_log_without_a_compiler_error_line_keeps_its_first_error(pasted: str) -> None:
    (found,) = reported_pitfalls(_stream(_user(pasted), _says(CAUSE), _edits("src/x")))
    first = "FAILED: [code=2]" if pasted.startswith("FAILED") else "ValueError: bad value"
    assert found.content.startswith(f"`{first}")


def test_the_cause_said_after_the_change_counts_and_the_edit_is_said_by_its_lines() -> None:
    old, new = "  long n{pos.rows()};", "  long n = static_cast<long>(pos.rows());"
    events = _stream(
        _user(_BUILD_LOGS[0][0]),
        _says("Let me look at the failing files."),
        _edit_call("src/Grid.cpp", old, new),
        _edits("src/Grid.cpp"),
        _edit_call("src/Mesh.cpp", old, new),
        _edits("src/Mesh.cpp"),
        _says(
            "Fixed both files. The problem is that on Windows `long` is 32-bit while the "
            "index is 64-bit. Brace initialisation disallows narrowing."
        ),
    )
    (found,) = reported_pitfalls(events)
    assert found.content == (
        "`../src/Grid.cpp(128): error C2397: conversion from 'Index' to 'long' requires a "
        "narrowing conversion` was reported from outside the session; the cause named: The "
        "problem is that on Windows `long` is 32-bit while the index is 64-bit; done in answer: "
        "editing src/Grid.cpp, src/Mesh.cpp (`long n{pos.rows()};` became "
        "`long n = static_cast<long>(pos.rows());`)."
    )


def test_an_added_include_is_said_and_differing_edits_are_not() -> None:
    said = "The block uses the Windows API but the header is never included."
    added = _stream(
        _user(_BUILD_LOGS[1][0]),
        _edit_call(
            "src/main.cpp", "#include <float.h>", "#include <float.h>\n#include <windows.h>"
        ),
        _edits("src/main.cpp"),
        _says(said),
    )
    (found,) = reported_pitfalls(added)
    assert found.content.endswith("editing src/main.cpp (added `#include <windows.h>`).")
    differing = _stream(
        _user(_BUILD_LOGS[1][0]),
        _says(said),
        _edit_call("src/a.cpp", "int a = 1;", "int a = 2;"),
        _edits("src/a.cpp"),
        _edit_call("src/b.cpp", "int b = 1;", "int b = 3;"),
        _edits("src/b.cpp"),
    )
    (found,) = reported_pitfalls(differing)
    assert found.content.endswith("done in answer: editing src/a.cpp, src/b.cpp.")


def test_a_plan_alone_is_not_a_cause_even_after_the_change() -> None:
    events = _stream(
        _user(_BUILD_LOGS[0][0]),
        _says("Let me look at the failing files."),
        _edits("src/Grid.cpp"),
        _says("Fixed both files. That should build now."),
    )
    assert reported_pitfalls(events) == []


def _check(command: str, output: str, exit_code: int = 0) -> tuple[str, dict[str, Any], str]:
    content = {"command": command, "exit_code": exit_code, "output": output}
    return ("test_run", content, "assistant")


GO_REPORT = (
    "when running `make test-integration` I get these errors:\n\n"
    "internal/store/order_store_integration_test.go:41:17: invalid operation: order.ID != want "
    "(mismatched types ids.OrderID and string)"
)
GO_SUMMARY = (
    "All tests pass now. The fixes:\n\n"
    "1. **Fixed the comparison** (line 41): Changed `order.ID != want` to "
    "`order.ID.String() != want` since `order.ID` is now an `ids.OrderID`"
)
TS_REPORT = (
    "`npm run build` fails:\n\nsrc/server.ts:14:7 - error TS2322: Type 'string' is not "
    "assignable to type 'number'."
)
TS_SUMMARY = (
    "The build is green again.\n\n- Wrapped `process.env.PORT` in `Number(...)` because "
    "environment variables are always strings in Node."
)


@pytest.mark.parametrize(
    ("report", "path", "old", "new", "check", "summary", "cause", "quoted"),
    [
        (
            GO_REPORT,
            "internal/store/order_store_integration_test.go",
            "if order.ID != want {",
            "if order.ID.String() != want {",
            "make test-integration",
            GO_SUMMARY,
            "`order.ID` is now an `ids.OrderID` (changed `order.ID != want` to "
            "`order.ID.String() != want`)",
            # Too long with its location: quoted without it, the file said after.
            "`invalid operation: order.ID != want (mismatched types ids.OrderID and string)` "
            "(in internal/store/order_store_integration_test.go)",
        ),
        (
            TS_REPORT,
            "src/server.ts",
            "const port: number = process.env.PORT;",
            "const port: number = Number(process.env.PORT);",
            "npm run build",
            TS_SUMMARY,
            "environment variables are always strings in Node (wrapped `process.env.PORT` in "
            "`Number(...)`)",
            "`src/server.ts:14:7 - error TS2322: Type 'string' is not assignable to type "
            "'number'.`",
        ),
    ],
)
def test_a_change_given_its_reason_in_the_closing_summary_is_the_cause_and_the_rerun_is_said(
    report: str,
    path: str,
    old: str,
    new: str,
    check: str,
    summary: str,
    cause: str,
    quoted: str,
) -> None:
    events = _stream(
        _user(report),
        _says("Let me look at the file."),
        _edit_call(path, old, new),
        _edits(path),
        _check(f"{check} 2>&1 | tail -20", "ok  \tall packages\nPASS"),
        _says(summary),
    )
    (found,) = reported_pitfalls(events)
    assert found.content.startswith(f"{quoted} was reported from outside the session")
    assert f"the cause named: {cause}; " in found.content
    assert found.content.endswith(f"; `{check}` passed after it.")


def test_a_hedged_reason_a_failed_rerun_and_a_run_before_the_change_are_not_said() -> None:
    hedged = _stream(
        _user(GO_REPORT),
        _edit_call("internal/store/x_test.go", "a != b", "a.String() != b"),
        _edits("internal/store/x_test.go"),
        _says("Done.\n\n- Changed `a != b` to `a.String() != b` since it probably is a type now."),
    )
    assert reported_pitfalls(hedged) == []
    failed_again = _stream(
        _user(GO_REPORT),
        _check("make test-integration", "ok  \tall packages"),  # before the change: not a rerun
        _edit_call("internal/store/x_test.go", "a != b", "a.String() != b"),
        _edits("internal/store/x_test.go"),
        _check("make test-integration", "--- FAIL: TestOrders (0.01s)\nFAIL", exit_code=1),
        _says(GO_SUMMARY),
    )
    (found,) = reported_pitfalls(failed_again)
    assert "passed after it" not in found.content
    other_check = _stream(
        _user(GO_REPORT),
        _edit_call("internal/store/x_test.go", "a != b", "a.String() != b"),
        _edits("internal/store/x_test.go"),
        _check("make lint", "0 issues."),  # not the check the report names
        _says(GO_SUMMARY),
    )
    (found,) = reported_pitfalls(other_check)
    assert "passed after it" not in found.content


def test_the_cause_leaves_out_the_word_tying_it_to_the_sentence_before() -> None:
    events = _stream(
        _user(DEPLOY_LOG),
        _says("But now the build server doesn't have SSH keys, so it can't clone via SSH."),
        _edits(".gitmodules"),
    )
    (found,) = reported_pitfalls(events)
    assert "the cause named: the build server doesn't have SSH keys" in found.content
