"""Terminal output of `sqrl`: plain lines and JSON on stdout, tables and markdown drawn by rich
on a terminal (and written plainly into a pipe or a file), one plain error line on stderr.

rich is imported only by the first table or markdown drawn on a terminal, or a prompt (`out`):
a command whose output goes to a pipe or a file does not pay for it. A deferred console (the
quick reads, `squirrel_cli.quick`) keeps its output until `finish`, which has the drawings made by
whoever it is given (the gateway, for the same terminal) and draws them itself only without.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.console import Console as RichConsole

    from squirrel_core.terminal import Drawing

Renderer = Callable[[list["Drawing"]], list[str]]
"""Draws tables and markdown for this terminal elsewhere: the text of each, in order."""


class Console:
    """What commands print through; keeps errors on stderr and data on stdout."""

    def __init__(self, stream: TextIO | None = None, *, deferred: bool = False) -> None:
        """`stream`: where data goes (default: stdout, as it is when printing). `deferred`:
        keep everything until `finish`."""
        self._stream = stream
        self._out: RichConsole | None = None
        self._err = sys.stderr
        self._pending: list[str | Drawing] | None = [] if deferred else None

    @property
    def _file(self) -> TextIO:
        return self._stream or sys.stdout

    @property
    def out(self) -> RichConsole:
        """The rich console on stdout (imported on first use)."""
        if self._out is None:
            from squirrel_core.terminal import rich_console  # noqa: PLC0415 - only when used

            self._out = rich_console(self._stream)
        return self._out

    def _write(self, text: str) -> None:
        if self._pending is not None:
            self._pending.append(text)
            return
        self._file.write(text)
        self._file.flush()

    def _draw(self, drawing: Drawing) -> None:
        if self._pending is not None:
            self._pending.append(drawing)
            return
        from squirrel_core.terminal import draw  # noqa: PLC0415 - only when drawing

        draw(self.out, drawing)

    def line(self, text: str) -> None:
        """One line as written: no markup, no emoji codes, no wrapping."""
        self._write(text + "\n")

    def error(self, text: str) -> None:
        self._err.write(f"sqrl: error: {text}\n")
        self._err.flush()

    def json(self, data: Any) -> None:
        self._write(json.dumps(data, indent=2, default=str) + "\n")

    def markdown(self, text: str) -> None:
        """Markdown rendered for a terminal; written as it is when the output is not a terminal
        (a pipe, a file), so every line arrives whole and a model or a file gets the markdown."""
        if not self._file.isatty():
            self.line(text.rstrip("\n"))
            return
        self._draw({"markdown": text})

    def table(
        self, title: str, columns: list[str], rows: list[list[str]], *, whole: tuple[str, ...] = ()
    ) -> None:
        """A table. On a terminal: drawn, the columns named in `whole` (ids) never wrapped or cut
        while the others give way. Into a pipe or a file: the title, then the header and each row
        as tab-separated lines, every cell whole on its line (for grep, cut and the like)."""
        if not self._file.isatty():
            self.line(title)
            for row in (columns, *rows):
                self.line("\t".join(" ".join(cell.split()) for cell in row))
            return
        self._draw({"table": {"title": title, "columns": columns, "rows": rows, "whole": whole}})

    def drawings(self) -> list[Drawing]:
        """The tables and markdown kept so far (a deferred console)."""
        return [item for item in self._pending or [] if not isinstance(item, str)]

    def finish(self, renderer: Renderer | None = None) -> None:
        """Writes what a deferred console kept, in order: its drawings as `renderer` made them,
        or drawn here when there is no renderer or it fails (any exception)."""
        pending, self._pending = self._pending or [], None
        drawings = [item for item in pending if not isinstance(item, str)]
        made: list[str] | None = None
        if drawings and renderer is not None:
            try:
                made = renderer(drawings)
            except Exception:  # drawn here instead: the output is the same
                made = None
            if made is not None and len(made) != len(drawings):
                made = None
        done = iter(made or [])
        for item in pending:
            if isinstance(item, str):
                self._write(item)
            elif made is not None:
                self._write(next(done))
            else:
                self._draw(item)

    def discard(self) -> None:
        """Forgets what a deferred console kept (nothing is printed)."""
        if self._pending is not None:
            self._pending.clear()
