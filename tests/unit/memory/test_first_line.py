"""The first line a failed command printed, as a pitfall quotes it when no error line does."""

from __future__ import annotations

from squirrel_memory.extractors.pitfalls import first_line


def test_a_line_saying_a_step_went_well_is_not_what_failed() -> None:
    output = (
        "Build started...\nBuild succeeded.\n"
        "No DbContext was found in assembly 'Api'. Ensure that you're using the correct one."
    )
    assert first_line(output) == (
        "No DbContext was found in assembly 'Api'. Ensure that you're using the correct one."
    )
    assert first_line("Compilation completed successfully\nmissing key: port") == (
        "missing key: port"
    )


def test_a_longer_line_that_names_success_and_a_failure_is_kept() -> None:
    line = "Build succeeded but the post-build step could not copy the bundle into dist"
    assert first_line(line) == line
    assert first_line("Connection refused") == "Connection refused"
