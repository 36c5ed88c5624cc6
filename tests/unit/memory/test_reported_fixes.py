"""A fix the transcript does not show, told by the assistant's replies: the change it says it
made when no edit was seen before the passing rerun (a subagent's edit, or one lost), naming a
file or a flag; a rerun whose own result was lost and which the next reply says passed; and the
one small edit between a failing and a passing run, quoted whatever words it shares with the
error. Where nothing may be claimed: a claim never rerun, a claim whose rerun fails, a claim
naming no file or flag, a plan, a lost rerun said to still fail or hedged, a reported pass with
no change before it, and several edits (the files named, no line quoted). A diagnosis that also
says the change claimed ("…; I added `x` to it") leaves the fix to be stated once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.lessons import Reply
from squirrel_memory.extractors.pitfall_wording import _unrepeated
from squirrel_memory.extractors.reported_fixes import _claimed_step, reported_pass
from squirrel_memory.models import MemoryType, StoredEvent
from tests.unit.memory.session_builder import _scripted, scripted_session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/logship"

CARGO = "cargo build --bin archiver"
LINK_ERROR = (
    "   Compiling archiver v0.2.0 (/home/dev/src/logship/archiver)\n"
    "error: linking with `cc` failed: exit status: 1\n"
    "  = note: /usr/bin/ld: cannot find -lpq: No such file or directory\n"
    "          collect2: error: ld returned 1 exit status"
)
BUILT = "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 4.12s"
CLAIM = (
    'I added `println!("cargo:rustc-link-search=native=/usr/local/opt/libpq/lib");` to '
    "archiver/build.rs."
)

DOTNET = "dotnet test tests/Orders.Tests"
CS0246 = (
    "tests/Orders.Tests/OrderTests.cs(3,7): error CS0246: The type or namespace name "
    "'FluentAssertions' could not be found (are you missing a using directive or an assembly "
    "reference?)\n\nBuild FAILED."
)

CMAKE = "cmake --build build -j8"
SPAN_ERROR = (
    "[ 25%] Building CXX object src/CMakeFiles/raster.dir/path.cpp.o\n"
    "src/path.cpp:9:10: error: 'span' is not a member of 'std'\n"
    "gmake: *** [Makefile:136: all] Error 2"
)
STANDARD = ("CMakeLists.txt", "set(CMAKE_CXX_STANDARD 17)", "set(CMAKE_CXX_STANDARD 20)")

JEST = "npx jest src/components/Chart.test.tsx"
JEST_ERROR = (
    " FAIL  src/components/Chart.test.tsx\n  ● Test suite failed to run\n\n"
    "    SyntaxError: Unexpected token 'export'\n\nTest Suites: 1 failed, 1 total"
)
JEST_EDIT = (
    "jest.config.js",
    "  transformIgnorePatterns: ['/node_modules/'],",
    "  transformIgnorePatterns: ['/node_modules/(?!(d3-.*)/)'],",
)


def _pitfalls(steps: Sequence[tuple[str, Any]]) -> list[str]:
    events = scripted_session(ROOT, T0, "s", steps)
    return [c.content for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def test_a_fix_claimed_with_no_edit_seen_is_the_fix_when_the_rerun_passed() -> None:
    (pitfall,) = _pitfalls(
        [("run", (CARGO, 101, LINK_ERROR)), ("say", CLAIM), ("run", (CARGO, 0, BUILT))]
    )
    assert "cannot find -lpq" in pitfall
    assert "the assistant reported adding `println!(" in pitfall
    assert "to archiver/build.rs (the edit is not in the transcript), and the rerun passed" in (
        pitfall
    )


def test_a_claimed_package_reference_names_its_project_file() -> None:
    claim = (
        "The tests use FluentAssertions but the project never referenced it. I added "
        '`<PackageReference Include="FluentAssertions" Version="6.12.0" />` to '
        "tests/Orders.Tests/Orders.Tests.csproj."
    )
    (pitfall,) = _pitfalls(
        [("run", (DOTNET, 1, CS0246)), ("say", claim), ("run", (DOTNET, 0, "Passed!  - 42"))]
    )
    assert "reported adding `<PackageReference" in pitfall
    assert "tests/Orders.Tests/Orders.Tests.csproj" in pitfall


def test_a_claim_never_rerun_is_no_lesson() -> None:
    assert _pitfalls([("run", (CARGO, 101, LINK_ERROR)), ("say", CLAIM)]) == []


def test_a_claim_whose_rerun_fails_is_no_lesson() -> None:
    steps = [("run", (CARGO, 101, LINK_ERROR)), ("say", CLAIM), ("run", (CARGO, 101, LINK_ERROR))]
    assert not any("reported" in p for p in _pitfalls(steps))


def test_a_claim_naming_no_file_or_flag_is_not_a_fix() -> None:
    steps = [
        ("run", (CARGO, 101, LINK_ERROR)),
        ("say", "I added a fallback for the missing library."),
        ("run", (CARGO, 0, BUILT)),
    ]
    assert not any("reported" in p for p in _pitfalls(steps))


def test_a_planned_change_is_not_a_claimed_fix() -> None:
    assert _claimed_step("I'll add `-lpq` to archiver/build.rs.") == ""
    assert _claimed_step("If that fails, I added `x = 1` to setup.cfg.") == ""
    assert _claimed_step("I added `--locked` to the CI step.") == "adding `--locked` to the CI step"
    assert _claimed_step("I set `RUST_LOG=debug` in .env.") == "setting `RUST_LOG=debug` in .env"


def test_a_claim_after_a_diagnosis_names_the_file_the_sentence_named() -> None:
    said = (
        "The target does not list the parser in Package.swift; I added "
        '`.product(name: "ArgumentParser")` to it.'
    )
    assert _claimed_step(said) == 'adding `.product(name: "ArgumentParser")` in Package.swift'


def test_a_rerun_whose_result_was_lost_passed_when_the_reply_says_so() -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", (CMAKE, 2, SPAN_ERROR)),
            ("edit", STANDARD),
            ("say", "The build passes now: all targets build with C++20."),
        ]
    )
    assert "'span' is not a member of 'std'" in pitfall
    assert "changing `set(CMAKE_CXX_STANDARD 17)` to `set(CMAKE_CXX_STANDARD 20)`" in pitfall
    assert "the assistant reported the pass" in pitfall


def test_a_lost_rerun_said_to_still_fail_is_no_lesson() -> None:
    steps = [
        ("run", (CMAKE, 2, SPAN_ERROR)),
        ("edit", STANDARD),
        ("say", "It still fails: the compiler here is too old for std::span."),
    ]
    assert _pitfalls(steps) == []


def test_a_hedged_pass_is_no_report() -> None:
    steps = [
        ("run", (CMAKE, 2, SPAN_ERROR)),
        ("edit", STANDARD),
        ("say", "The build should pass now with C++20."),
    ]
    assert _pitfalls(steps) == []


def test_a_pass_reported_with_nothing_changed_is_no_lesson() -> None:
    steps = [("run", (CMAKE, 2, SPAN_ERROR)), ("say", "The build passes now.")]
    assert _pitfalls(steps) == []


def test_only_the_first_reply_after_the_run_reports_it() -> None:
    said = [
        Reply("r1", datetime(2026, 5, 4, 9, 1, tzinfo=UTC), "s", "Now I'll check the docs."),
        Reply("r2", datetime(2026, 5, 4, 9, 2, tzinfo=UTC), "s", "Done: all 6 tests pass now."),
    ]
    assert reported_pass(said, "s", T0, None) is None
    assert reported_pass(said[1:], "s", T0, None) is said[1]


def test_the_one_small_edit_between_fail_and_pass_is_quoted_whatever_its_words() -> None:
    (pitfall,) = _pitfalls(
        [("run", (JEST, 1, JEST_ERROR)), ("edit", JEST_EDIT), ("run", (JEST, 0, "2 passed"))]
    )
    assert "to `transformIgnorePatterns: ['/node_modules/(?!(d3-.*)/)'],`" in pitfall
    assert "in jest.config.js fixed it" in pitfall


def test_several_edits_between_fail_and_pass_quote_no_line() -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", (JEST, 1, JEST_ERROR)),
            ("edit", JEST_EDIT),
            ("edit", ("src/components/Chart.tsx", "width={w}", "width={w - 2}")),
            ("run", (JEST, 0, "2 passed")),
        ]
    )
    assert "changing" not in pitfall
    assert "jest.config.js" in pitfall


def _lost_call(command: str, n: int, at: int) -> StoredEvent:
    """A shell command's call whose result never came."""
    call = {"tool": "Bash", "tool_use_id": f"toolu_lost{n}", "input": {"command": command}}
    return _scripted(ROOT, T0, n, "s", "tool_call", call, at)


def test_a_lost_rerun_run_another_way_is_the_fix_the_reply_reports() -> None:
    wrapper_error = "error: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS] <COMMAND>"
    events = scripted_session(ROOT, T0, "s", [("run", ("rtk bun run test", 2, wrapper_error))])
    events.append(_lost_call("bun run test", 50, 45))
    events += scripted_session(
        ROOT, T0, "s", [("say", "All 1329 tests pass and lint is clean.")], start=40
    )
    (pitfall,) = [c.content for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]
    assert "running it without `rtk` worked (`bun run test`)" in pitfall
    assert "the assistant reported the pass" in pitfall


def test_a_lost_rerun_the_reply_does_not_report_teaches_nothing() -> None:
    wrapper_error = "error: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS] <COMMAND>"
    events = scripted_session(ROOT, T0, "s", [("run", ("rtk bun run test", 2, wrapper_error))])
    events.append(_lost_call("bun run test", 50, 45))
    events += scripted_session(
        ROOT, T0, "s", [("say", "Let me look at the test setup first.")], start=40
    )
    assert [c for c in evidence_candidates(events) if c.type == MemoryType.PITFALL] == []


SWIFT = "swift build"
NO_MODULE = "Compiling TrailCLI main.swift\nerror: no such module 'ArgumentParser'"
PRODUCT = '`.product(name: "ArgumentParser", package: "swift-argument-parser")`'


def _swift(said: str) -> str:
    (pitfall,) = _pitfalls(
        [("run", (SWIFT, 1, NO_MODULE)), ("say", said), ("run", (SWIFT, 0, "Build complete!"))]
    )
    return pitfall


def test_a_diagnosis_that_also_claims_the_fix_states_the_fix_once() -> None:
    pitfall = _swift(
        "The error means the target does not list ArgumentParser among its dependencies in "
        f"Package.swift; I added {PRODUCT} to it."
    )
    assert pitfall.count(PRODUCT) == 1
    assert "does not list ArgumentParser among its dependencies in Package.swift;" in pitfall
    assert "the assistant reported adding `.product(" in pitfall


@pytest.mark.parametrize(
    "kept",
    [
        # the clause says the cause, naming what the fix changed
        f"the target's dependencies lack {PRODUCT}",
        # the assistant's change the remedy does not state
        "I added `import ArgumentParser` to main.swift as well",
        # the assistant's change without a code span: nothing to match it to
        "I added the product to it",
    ],
)
def test_a_cause_s_clause_that_is_not_the_fix_claimed_is_kept(kept: str) -> None:
    remedy = f"the assistant reported adding {PRODUCT} in Package.swift"
    cause = f"ArgumentParser is not a dependency in Package.swift; {kept}; I added {PRODUCT} to it"
    assert (
        _unrepeated(cause, remedy) == f"ArgumentParser is not a dependency in Package.swift; {kept}"
    )
    assert _unrepeated(f"the span `a; b` is wrong; so I added {PRODUCT}", remedy) == (
        "the span `a; b` is wrong"
    )
    assert _unrepeated(cause, "") == cause
