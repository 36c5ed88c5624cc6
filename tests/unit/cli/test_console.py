"""What `sqrl` prints: markdown rendered on a terminal, whole and as written into a pipe."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import time
from collections.abc import Callable
from typing import TextIO

import pytest

from squirrel_cli.console import Console
from tests.conftest import PATIENCE_SECONDS

MARKDOWN = (
    "## Relevant memory for this task\n\n"
    "- [recipe] Run the tests with pytest "
    + "and a very long explanation " * 20
    + "— why: it ends here\n"
)

#: Written after what a test draws: once read back, everything drawn before it has arrived.
_END = "\x07end-of-drawing\x07"


def _drawn_on_a_terminal(draw: Callable[[TextIO], None]) -> str:
    """What `draw` shows on a pseudo-terminal. The kernel hands a terminal's output to its
    reader in pieces, later on a busy machine, so the reader reads until a mark written after
    the drawing has come through (never one read, which may hold only the first piece)."""
    main, secondary = pty.openpty()
    try:
        with os.fdopen(secondary, "w", closefd=False) as terminal:
            draw(terminal)
            terminal.write(_END)
            terminal.flush()
        shown = b""
        deadline = time.monotonic() + PATIENCE_SECONDS
        while _END.encode() not in shown:
            left = deadline - time.monotonic()
            assert left > 0, f"the drawing did not come through whole: {shown!r}"
            ready, _, _ = select.select([main], [], [], left)
            if ready:
                shown += os.read(main, 65536)
    finally:
        os.close(main)
        os.close(secondary)
    return shown.decode(errors="replace").split(_END)[0]


def test_markdown_into_a_pipe_is_written_whole_as_markdown() -> None:
    stream = io.StringIO()
    Console(stream).markdown(MARKDOWN)
    assert stream.getvalue() == MARKDOWN  # every line whole: nothing cut at a width
    assert "— why: it ends here" in stream.getvalue().splitlines()[-1]


def test_markdown_on_a_terminal_is_rendered() -> None:
    shown = _drawn_on_a_terminal(
        lambda terminal: Console(terminal).markdown("## Relevant memory\n\n- one item\n")
    )
    assert "Relevant memory" in shown and "one item" in shown
    assert "## " not in shown and "- one item" not in shown  # headings and bullets rendered
    assert "\x1b[" in shown  # styled for the terminal


def test_a_table_into_a_pipe_is_tab_separated_with_whole_cells() -> None:
    stream = io.StringIO()
    content = "Run the tests with pytest -x\tfrom the\nrepository root " + "word " * 40
    Console(stream).table("Memories", ["id", "content"], [["mem_01ABC", content]], whole=("id",))
    lines = stream.getvalue().splitlines()
    assert lines[0] == "Memories"
    assert lines[1] == "id\tcontent"
    assert lines[2] == "mem_01ABC\t" + " ".join(content.split())  # one line, nothing cut
    assert len(lines) == 3


def test_a_table_on_a_narrow_terminal_keeps_whole_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    memory_id = "mem_01M84JK9PNA2QC6W2P3DEKHSSQ"
    shown = _drawn_on_a_terminal(
        lambda terminal: Console(terminal).table(
            "Memories",
            ["id", "type", "content"],
            [[memory_id, "project_fact", "Run the tests with pytest -x " * 4]],
            whole=("id",),
        )
    )
    visible = re.sub(r"\x1b\[[0-9;]*m", "", shown)
    assert memory_id in visible  # drawn, and the id is not wrapped or cut
    assert "┃" in visible or "│" in visible
    assert max(len(line) for line in visible.splitlines()) <= 60
