"""The reports hosts wrap a shell command's output in (`parsers.shell_reports`)."""

from __future__ import annotations

from squirrel_ingest.parsers.shell_reports import codex_output, gemini_exit_code, gemini_output


def test_codex_note_of_a_cut_output_is_not_part_of_what_the_command_printed() -> None:
    report = (
        "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\n"
        "Original token count: 900\nOutput:\nTotal output lines: 460\n\nREADME.md:1:# App"
    )
    assert codex_output(report) == "README.md:1:# App"
    shorter = "Exit code: 0\nWall time: 0.4 seconds\nOutput:\nTotal output lines: 8\n\n     1\t{"
    assert codex_output(shorter) == "     1\t{"


def test_a_printed_total_line_without_the_blank_line_after_it_is_kept() -> None:
    # The command's own line, not Codex's note: no blank line follows it.
    report = "Exit code: 0\nWall time: 0.4 seconds\nOutput:\nTotal output lines: 3\nok"
    assert codex_output(report) == "Total output lines: 3\nok"
    # Further down the output it is the command's own text too.
    later = "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nfirst\nTotal output lines: 3\n\nx"
    assert codex_output(later) == "first\nTotal output lines: 3\n\nx"


def test_gemini_short_report_is_unwrapped_with_its_exit_code() -> None:
    report = "Output: error: boom\n  at x\nExit Code: 2\nProcess Group PGID: 77"
    assert gemini_output(report) == "error: boom\n  at x"
    assert gemini_exit_code(report) == 2
    assert gemini_output("Output: (empty)\nProcess Group PGID: 78") == ""


def test_text_that_merely_opens_on_output_is_kept_whole() -> None:
    for text in ("Output: 3 files", "Output: ok\nDone", "Output: x\nProcess Group PGID"):
        assert gemini_output(text) == text
