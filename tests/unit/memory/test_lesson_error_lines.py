"""A lesson's error and cause from the line that says what went wrong: a build engine's coded
error (`error NETSDK1045: …`, not `Build FAILED.`, without the engine's own path), what is not
available beside a tool's "can't continue", a panic's origin and what a tool can't run on as
the assistant's diagnosis; and an option given another value as the fix of a check (a test
destination that does not exist), never a test picked otherwise. A backtrace's frame before the
message (`runtime.rb:304:in 'check!': …`) is not the error, and a tool's stock hint printed
above a more specific error is not its cause."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.lessons import Reply, diagnosis
from squirrel_memory.extractors.output_explanations import explanation
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.extractors.summary_lines import is_summary
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import scripted_session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/clinic"

NETSDK = (
    "  Determining projects to restore...\n"
    "/usr/share/dotnet/sdk/8.0.204/Sdks/Microsoft.NET.Sdk/targets/Microsoft.NET.TargetFramework"
    "Inference.targets(166,5): error NETSDK1045: The current .NET SDK does not support targeting "
    ".NET 9.0. [/home/dev/src/clinic/src/Api/Api.csproj]\n\nBuild FAILED.\n\n    1 Error(s)"
)
MIX_DEPS = (
    "Unchecked dependencies for environment test:\n* ex_machina (Hex package)\n"
    '  the dependency is not available, run "mix deps.get"\n'
    "** (Mix) Can't continue due to errors on dependencies"
)
XCODE = "xcodebuild test -scheme Tally -destination 'platform=iOS Simulator,name=iPhone {}'"
NO_DESTINATION = (
    "xcodebuild: error: Unable to find a destination matching the provided destination "
    "specifier:\n\t\t{ platform:iOS Simulator, OS:latest, name:iPhone 15 }"
)


def _pitfalls(steps: Sequence[tuple[str, Any]]) -> list[str]:
    events = scripted_session(ROOT, T0, "s", steps)
    return [c.content for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def test_a_build_engines_coded_error_is_the_error_line() -> None:
    assert "error NETSDK1045: The current .NET SDK" in first_error_line(NETSDK)


def test_the_lesson_shows_the_coded_error_without_the_engines_path() -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", ("dotnet build src/Api", 1, NETSDK)),
            (
                "edit",
                ("src/Api/Api.csproj", "<TargetFramework>net9.0<", "<TargetFramework>net8.0<"),
            ),
            ("run", ("dotnet build src/Api", 0, "Build succeeded.")),
        ]
    )
    assert "failed with `error NETSDK1045: The current .NET SDK does not support" in pitfall
    assert "/usr/share/dotnet" not in pitfall


def test_what_is_not_available_beside_a_tools_cant_continue_is_the_error() -> None:
    assert is_summary("** (Mix) Can't continue due to errors on dependencies")
    assert first_error_line(MIX_DEPS) == 'the dependency is not available, run "mix deps.get"'


def test_a_panics_origin_and_what_a_tool_cant_run_on_are_diagnoses() -> None:
    at = datetime(2026, 5, 4, 9, 1, tzinfo=UTC)
    panic = Reply("r", at, "s", "The panic comes from the index being used as a zero value.")
    jdk = Reply("r", at, "s", "The shell's JDK is 21, and Gradle 8.4 can't run on it.")
    plan = Reply("r", at, "s", "I can't run the tests here without a network.")
    assert diagnosis([panic], "s", T0, None)[0].startswith("The panic comes from")
    assert diagnosis([jdk], "s", T0, None)[0].startswith("The shell's JDK is 21")
    assert diagnosis([plan], "s", T0, None) == ("", "")


def test_an_option_given_another_value_fixes_a_check() -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", (XCODE.format(15), 70, NO_DESTINATION)),
            ("run", (XCODE.format(16), 0, "** TEST SUCCEEDED **")),
        ]
    )
    assert "re-running it" in pitfall
    assert "name=iPhone 16" in pitfall


def test_tests_picked_otherwise_are_no_fix() -> None:
    failed = "FAILED tests/test_totals.py::test_rounding - AssertionError"
    found = _pitfalls(
        [
            ("run", ("pytest -k rounding", 1, failed)),
            ("run", ("pytest -k totals_sum", 0, "1 passed, 3 deselected")),
        ]
    )
    assert not any("re-running it" in p for p in found)


def test_a_requirement_a_resolver_could_not_meet_is_the_error_line() -> None:
    output = (
        "Installing dependencies from lock file (including require-dev)\n"
        "Verifying lock file contents can be installed on current platform.\n\n  Problem 1\n"
        "    - Root composer.json requires PHP extension ext-intl * but it is missing from "
        "your system. Install or enable PHP's intl extension."
    )
    assert first_error_line(output).startswith("- Root composer.json requires PHP extension")
    assert first_error_line("Verifying lock file contents can be installed.") == ""


RSPEC = "rspec spec/models/user_spec.rb"
ACTIVATED = (
    "/home/dev/.rbenv/versions/3.3.0/lib/ruby/3.3.0/bundler/runtime.rb:304:in "
    "`check_for_activated_spec!': You have already activated rspec-core 3.13.0, but your "
    "Gemfile requires rspec-core 3.12.2. (Gem::LoadError)\n"
    "\tfrom /home/dev/.rbenv/versions/3.3.0/lib/ruby/3.3.0/bundler/runtime.rb:25:in "
    "`block in setup'"
)


@pytest.mark.parametrize(
    "output",
    [
        ACTIVATED,
        # Ruby 3.4 quotes the frame's method with two straight quotes, and names its class
        ACTIVATED.replace("`check_for_activated_spec!'", "'Bundler::Runtime#check!'"),
        # a frame of the project's own file
        "lib/ledger.rb:12:in '<main>': You have already activated rspec-core 3.13.0 (Gem::Err)",
    ],
)
def test_a_backtrace_frame_before_the_message_is_not_the_error(output: str) -> None:
    (pitfall,) = _pitfalls(
        [("run", (RSPEC, 1, output)), ("run", (f"bundle exec {RSPEC}", 0, "14 examples"))]
    )
    assert "failed with `You have already activated rspec-core 3.13.0" in pitfall
    assert ":in " not in pitfall


def test_a_located_error_without_a_frame_keeps_its_place() -> None:
    output = "lib/ledger.rb:12: syntax error, unexpected end-of-input, expecting end"
    check = "ruby -c lib/ledger.rb"
    (pitfall,) = _pitfalls(
        [
            ("run", (check, 1, output)),
            ("edit", ("lib/ledger.rb", "a", "b")),
            ("run", (check, 0, "Syntax OK")),
        ]
    )
    assert "failed with `lib/ledger.rb:12: syntax error" in pitfall


COLLECTION_ERROR = (
    "==================================== ERRORS ====================================\n"
    "ImportError while importing test module '/home/dev/src/clinic/tests/test_export.py'.\n"
    "Hint: make sure your test modules/packages have valid Python names.\n"
    "Traceback:\n"
    "tests/test_export.py:3: in <module>\n"
    "    import openpyxl\n"
    "E   ModuleNotFoundError: No module named 'openpyxl'\n"
    "=========================== short test summary info ============================"
)
PUSH_REJECTED = (
    "To github.com:dev/clinic.git\n ! [rejected]        main -> main (fetch first)\n"
    "error: failed to push some refs to 'github.com:dev/clinic.git'\n"
    "hint: Updates were rejected because the remote contains work that you do not have locally."
)


def test_a_tools_stock_hint_above_the_error_is_no_cause() -> None:
    assert explanation(COLLECTION_ERROR, shown=first_error_line(COLLECTION_ERROR)) == ""
    (pitfall,) = _pitfalls(
        [
            ("run", ("pytest tests/test_export.py", 2, COLLECTION_ERROR)),
            ("run", ("uv add openpyxl", 0, " + openpyxl==3.1.5")),
            ("run", ("pytest tests/test_export.py", 0, "6 passed in 0.31s")),
        ]
    )
    assert "No module named 'openpyxl'" in pitfall
    assert "Hint" not in pitfall


@pytest.mark.parametrize(
    ("output", "hint"),
    [
        # the hint comes after the error it explains
        (PUSH_REJECTED, "hint: Updates were rejected because the remote contains work"),
        # the hint names something: a command, a flag
        (
            COLLECTION_ERROR.replace("make sure", "run `uv sync` and make sure"),
            "Hint: run `uv sync` and make sure",
        ),
        (
            COLLECTION_ERROR.replace("Hint: make sure", "Hint: rerun with --import-mode and"),
            "Hint: rerun with --import-mode",
        ),
        # the error shown names nothing more specific
        (
            "Hint: make sure the service is running.\nerror: connection refused",
            "Hint: make sure the service is running",
        ),
    ],
)
def test_a_hint_after_its_error_or_naming_something_is_the_cause(output: str, hint: str) -> None:
    assert explanation(output, shown=first_error_line(output)).startswith(hint)
