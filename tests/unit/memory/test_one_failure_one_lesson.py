"""One failure the assistant diagnosed and fixed is one lesson: the failed command's pitfall,
naming the error line (a Kotlin compiler message without a place, not Gradle's closing
`BUILD FAILED`), the assistant's cause and the change; no second pitfall of the same cause."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
GRADLE_FAILED = (
    "> Task :app:compileKotlin FAILED\n"
    "e: Inconsistent JVM-target compatibility detected for tasks 'compileJava' (21) and "
    "'compileKotlin' (17).\n\nFAILURE: Build failed with an exception.\nBUILD FAILED in 3s"
)


def test_a_kotlin_message_without_a_place_is_the_error_line() -> None:
    assert first_error_line(GRADLE_FAILED).startswith("e: Inconsistent JVM-target compatibility")


def test_a_diagnosed_and_fixed_failure_is_one_pitfall() -> None:
    session = Session("/home/dev/ktapp", "s1", T0)
    session.user("the build is broken, fix it")
    session.run("./gradlew build", 1, GRADLE_FAILED)
    session.say(
        "The build fails because Kotlin targets JVM 17 while Java compiles for 21. Setting "
        "`kotlin { jvmToolchain(21) }` in `app/build.gradle.kts` aligns both."
    )
    session.edit_lines("app/build.gradle.kts", "kotlin {\n}", "kotlin {\n    jvmToolchain(21)\n}")
    session.run("./gradlew build", 0, "BUILD SUCCESSFUL in 9s")

    pitfalls = [c.content for c in session.extracted() if c.type is MemoryType.PITFALL]

    assert pitfalls == [
        "`./gradlew build` failed with `e: Inconsistent JVM-target compatibility detected for "
        "tasks 'compileJava' (21) and 'compileKotlin' (17).`; the assistant found: the build "
        "fails because Kotlin targets JVM 17 while Java compiles for 21; adding "
        "`jvmToolchain(21)` in app/build.gradle.kts fixed it."
    ]


def test_a_diagnosis_with_no_failed_command_is_still_its_own_lesson() -> None:
    session = Session("/home/dev/ktapp", "s1", T0)
    session.user("the release task hangs")
    session.say("The release task hangs because the runner never closes stdin.")
    session.edit_lines("build.gradle.kts", "standardInput = System.`in`", "")

    keys = [c.key for c in session.extracted() if c.type is MemoryType.PITFALL]
    assert any(key.startswith("pitfall:diagnosed:") for key in keys)
