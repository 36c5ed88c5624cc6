"""A pitfall's lesson in more shapes: an edit said by what it changed when a separator moved, a
list was spread over lines or a new section opened; the innermost of a failure's nested causes
as its error, a sentence saying what was not found, an error whose message follows the line
naming its class; a run stopped by an interrupt is no failure; an environment variable set
before the command after a shared `cd`; and a command run before the assistant said why it
failed, with an edit after, is a look, not a step of the fix."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.differences import Edit, difference
from squirrel_memory.extractors.output_explanations import explanation
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.extractors.retries import wrapper_words
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import scripted_session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/relay"


def _difference(before: str, after: str) -> str:
    return difference(Edit("e1", T0, "s", "f", before, after))


def _pitfalls(steps: Sequence[tuple[str, Any]]) -> list[str]:
    events = scripted_session(ROOT, T0, "s", steps)
    return [c.content for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def test_a_separator_put_after_a_line_is_no_change_of_it() -> None:
    found = _difference(
        '  "version": "8.0.100"\n', '  "version": "8.0.100",\n  "rollForward": "latestFeature"\n'
    )
    assert found == 'adding `"rollForward": "latestFeature"`'


def test_a_list_spread_over_lines_is_said_by_the_item_it_gained() -> None:
    found = _difference(
        '    deps = ["//lib/net"],',
        '    deps = [\n        "//lib/codec",\n        "//lib/net",\n    ],',
    )
    assert found == 'adding `"//lib/codec"`'


def test_a_list_that_lost_an_item_is_not_said_as_items_added() -> None:
    found = _difference(
        '    deps = ["//lib/net", "//lib/old"],',
        '    deps = [\n        "//lib/codec",\n        "//lib/net",\n    ],',
    )
    assert found == ""


def test_a_new_sections_lines_are_said_under_its_heading() -> None:
    found = _difference(
        "[tool.mypy]\nstrict = true\n",
        '[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = ["boto3.*"]\n'
        "ignore_missing_imports = true\n",
    )
    assert found == (
        'adding `module = ["boto3.*"]` and adding `ignore_missing_imports = true`'
        " under `[[tool.mypy.overrides]]`"
    )


GRADLE_NESTED = (
    "> Task :app:checkDebugAarMetadata FAILED\n\nFAILURE: Build failed with an exception.\n\n"
    "* What went wrong:\nExecution failed for task ':app:checkDebugAarMetadata'.\n"
    "> Could not resolve all files for configuration ':app:debugRuntimeClasspath'.\n"
    "   > Could not find com.example:charts:v3.1.0.\n     Searched in the following locations:\n"
    "       - https://repo.maven.apache.org/maven2/com/example/charts.pom\n\nBUILD FAILED in 6s"
)
GRADLE_SDK = (
    "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
    "Could not determine the dependencies of task ':app:compileDebugJavaWithJavac'.\n"
    "> SDK location not found. Define a valid SDK location with an ANDROID_HOME environment "
    "variable.\n\nBUILD FAILED in 2s"
)


def test_the_innermost_nested_cause_is_the_error() -> None:
    assert first_error_line(GRADLE_NESTED) == "Could not find com.example:charts:v3.1.0."
    assert first_error_line(GRADLE_SDK).startswith("SDK location not found.")


def test_a_nested_line_that_only_points_to_a_log_is_not_the_error() -> None:
    output = (
        "* What went wrong:\nExecution failed for task ':server:compileKotlin'.\n"
        "> A failure occurred while executing the compiler worker\n"
        "   > Compilation error. See log for more details\n\nBUILD FAILED in 3s"
    )
    assert first_error_line(output) == "A failure occurred while executing the compiler worker"


def test_the_line_around_a_nested_cause_shown_explains_nothing() -> None:
    shown = first_error_line(GRADLE_SDK)
    assert explanation(GRADLE_SDK, shown=shown) == ""
    assert explanation(GRADLE_SDK).startswith("Could not determine the dependencies")


def test_a_sentence_saying_what_was_not_found_is_the_error() -> None:
    output = (
        "The command could not be loaded, possibly because:\n"
        "  * You intended to execute a .NET application:\n"
        "      The application 'test' does not exist.\n"
        "  * You intended to execute a .NET SDK command:\n"
        "      A compatible .NET SDK was not found.\n\nRequested SDK version: 8.0.100"
    )
    assert first_error_line(output) == "A compatible .NET SDK was not found."


def test_an_errors_message_follows_the_line_naming_its_class() -> None:
    output = (
        "Execution error (FileNotFoundException) at app.report/eval138$loading (report.clj:1).\n"
        "Could not locate clojure/data/json__init.class on classpath.\n\nFull report at:\n/tmp/x"
    )
    assert first_error_line(output) == (
        "FileNotFoundException: Could not locate clojure/data/json__init.class on classpath."
    )


def _ran(command: str, code: int, output: str) -> list[bool | None]:
    return [
        r.ok for r in commands(scripted_session(ROOT, T0, "s", [("run", (command, code, output))]))
    ]


def test_a_run_stopped_by_an_interrupt_neither_failed_nor_passed() -> None:
    assert _ran("cargo test", 130, "running 212 tests\n^C") == [None]


def test_a_run_that_exited_non_zero_failed() -> None:
    assert _ran("cargo test", 1, "test result: FAILED") == [False]


def test_a_variable_set_after_a_shared_cd_is_no_wrapper() -> None:
    assert wrapper_words("cd android && ./gradlew build", "cd android && X=1 ./gradlew build") == ""
    assert wrapper_words("cd a && make", "cd a && nix develop -c make") == "nix develop -c"


def test_a_variable_set_after_a_shared_cd_is_the_fix() -> None:
    failed = (
        "FAILURE: Build failed with an exception.\n\n* What went wrong:\n> SDK location not found."
    )
    (pitfall,) = _pitfalls(
        [
            ("run", ("cd android && ./gradlew assembleDebug", 1, failed)),
            ("run", ("cd android && ANDROID_HOME=/opt/sdk ./gradlew assembleDebug", 0, "OK")),
        ]
    )
    assert "ANDROID_HOME=/opt/sdk" in pitfall
    assert "putting" not in pitfall


UNREACHABLE = "fatal: [web1]: UNREACHABLE! => Permission denied (publickey)."


def test_a_command_run_before_the_cause_was_said_is_a_look() -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", ("ansible-playbook site.yml", 4, UNREACHABLE)),
            ("run", ("ssh-add -l", 0, "256 SHA256:abc deploy@infra (ED25519)")),
            (
                "say",
                "Not the agent after all: the inventory logs in as `root`, but the key is only "
                "authorized for the `deploy` user.",
            ),
            ("edit", ("hosts.ini", "ansible_user=root", "ansible_user=deploy")),
            ("run", ("ansible-playbook site.yml", 0, "ok=9 changed=2 unreachable=0 failed=0")),
        ]
    )
    assert "ansible_user=deploy" in pitfall
    assert "ssh-add" not in pitfall


def test_a_command_run_after_the_cause_was_said_stays_a_step() -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", ("ansible-playbook site.yml", 4, UNREACHABLE)),
            ("say", "The inventory logs in as `root`, but the key is for `deploy`."),
            ("run", ("ssh-add ~/.ssh/deploy", 0, "Identity added: /home/dev/.ssh/deploy")),
            ("edit", ("hosts.ini", "ansible_user=root", "ansible_user=deploy")),
            ("run", ("ansible-playbook site.yml", 0, "ok=9 changed=2 unreachable=0 failed=0")),
        ]
    )
    assert "running `ssh-add" in pitfall


NU1101 = (
    "/home/dev/src/relay/src/Api/Api.csproj : error NU1101: Unable to find package "
    "Contoso.Telemetry. No packages exist with this id in source(s): nuget.org\n\nBuild FAILED."
)
FEED = (
    "Contoso.Telemetry only exists on the company's internal feed, and nuget.config clears the "
    "sources and lists nuget.org alone."
)


def _all_pitfalls(steps: Sequence[tuple[str, Any]]) -> list[str]:
    events = scripted_session(ROOT, T0, "s", steps)
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))
    found = RulesExtractor().extract_sync(episode, events)
    return [c.content for c in found if c.type == MemoryType.PITFALL]


def test_a_finding_a_failed_commands_lesson_quotes_is_said_once() -> None:
    found = _all_pitfalls(
        [
            ("run", ("dotnet build", 1, NU1101)),
            ("say", FEED),
            ("edit", ("nuget.config", '<add key="a" />', '<add key="a" />\n<add key="b" />')),
            ("run", ("dotnet build", 0, "Build succeeded.")),
        ]
    )
    assert len(found) == 1
    assert FEED.rstrip(".") in found[0]


def test_a_finding_no_lesson_quotes_is_kept() -> None:
    found = _all_pitfalls([("run", ("dotnet build", 1, NU1101)), ("say", FEED)])
    assert any(f.startswith("Found in a session:") for f in found)


SIGNING = (
    "note: Building targets in dependency order\nnote: Target dependency graph (1 target)\n"
    'App.xcodeproj: error: Signing for "App" requires a development team.\n** BUILD FAILED **'
)


def test_a_note_printed_before_the_error_is_narration() -> None:
    assert explanation(SIGNING, shown=first_error_line(SIGNING)) == ""


def test_a_note_printed_after_the_error_explains_it() -> None:
    output = (
        "error[E0382]: borrow of moved value: `v`\n"
        "note: value moved here because `v` has type `Vec<u8>`, which does not implement Copy\n"
    )
    assert explanation(output, shown=first_error_line(output)).startswith("note: value moved")
