"""Terminal output of `sqrl`: plain lines and JSON on stdout, tables and markdown drawn by rich
on a terminal (and written plainly into a pipe or a file), one plain error line on stderr.

rich is imported only by the first table or markdown drawn on a terminal, or a prompt (`out`):
a command whose output goes to a pipe or a file does not pay for it.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.console import Console as RichConsole


class Console:
    """What commands print through; keeps errors on stderr and data on stdout."""

    def __init__(self, stream: TextIO | None = None) -> None:
        """`stream`: where data goes (default: stdout, as it is when printing)."""
        self._stream = stream
        self._out: RichConsole | None = None
        self._err = sys.stderr

    @property
    def _file(self) -> TextIO:
        return self._stream or sys.stdout

    @property
    def out(self) -> RichConsole:
        """The rich console on stdout (imported on first use)."""
        if self._out is None:
            from rich.console import Console as RichConsole  # noqa: PLC0415 - only when used

            self._out = RichConsole(file=self._stream, soft_wrap=True, highlight=False)
        return self._out

    def line(self, text: str) -> None:
        """One line as written: no markup, no emoji codes, no wrapping."""
        self._file.write(text + "\n")
        self._file.flush()

    def error(self, text: str) -> None:
        self._err.write(f"sqrl: error: {text}\n")
        self._err.flush()

    def json(self, data: Any) -> None:
        self._file.write(json.dumps(data, indent=2, default=str) + "\n")
        self._file.flush()

    def markdown(self, text: str) -> None:
        """Markdown rendered for a terminal; written as it is when the output is not a terminal
        (a pipe, a file), so every line arrives whole and a model or a file gets the markdown."""
        if not self._file.isatty():
            self.line(text.rstrip("\n"))
            return
        from rich.markdown import Markdown  # noqa: PLC0415 - only when markdown is shown

        self.out.print(Markdown(text))

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
        from rich.table import Table  # noqa: PLC0415 - only when a table is drawn

        table = Table(title=title, title_justify="left")
        for index, column in enumerate(columns):
            if column in whole:
                width = max([len(column), *(len(r[index]) for r in rows)])
                table.add_column(column, no_wrap=True, min_width=width)
            else:
                table.add_column(column)
        for row in rows:
            table.add_row(*row)
        self.out.print(table)
