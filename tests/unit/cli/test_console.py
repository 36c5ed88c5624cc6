"""What `sqrl` prints: markdown rendered on a terminal, whole and as written into a pipe."""

from __future__ import annotations

import io
import os
import pty

from squirrel_cli.console import Console

MARKDOWN = (
    "## Relevant memory for this task\n\n"
    "- [recipe] Run the tests with pytest "
    + "and a very long explanation " * 20
    + "— why: it ends here\n"
)


def test_markdown_into_a_pipe_is_written_whole_as_markdown() -> None:
    stream = io.StringIO()
    Console(stream).markdown(MARKDOWN)
    assert stream.getvalue() == MARKDOWN  # every line whole: nothing cut at a width
    assert "— why: it ends here" in stream.getvalue().splitlines()[-1]


def test_markdown_on_a_terminal_is_rendered() -> None:
    main, secondary = pty.openpty()
    try:
        with os.fdopen(secondary, "w", closefd=False) as terminal:
            Console(terminal).markdown("## Relevant memory\n\n- one item\n")
            terminal.flush()
        shown = os.read(main, 65536).decode(errors="replace")
    finally:
        os.close(main)
        os.close(secondary)
    assert "Relevant memory" in shown and "one item" in shown
    assert "## " not in shown and "- one item" not in shown  # headings and bullets rendered
    assert "\x1b[" in shown  # styled for the terminal
