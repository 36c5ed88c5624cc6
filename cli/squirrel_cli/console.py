"""Terminal output of `sqrl`: rich on stdout, one plain error line on stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console as RichConsole
from rich.table import Table


class Console:
    """What commands print through; keeps errors on stderr and data on stdout."""

    def __init__(self) -> None:
        self.out = RichConsole(soft_wrap=True, highlight=False)
        self._err = sys.stderr

    def line(self, text: str) -> None:
        self.out.print(text, markup=False)

    def markup(self, text: str) -> None:
        self.out.print(text)

    def error(self, text: str) -> None:
        self._err.write(f"sqrl: error: {text}\n")
        self._err.flush()

    def json(self, data: Any) -> None:
        sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")
        sys.stdout.flush()

    def table(
        self, title: str, columns: list[str], rows: list[list[str]], *, whole: tuple[str, ...] = ()
    ) -> None:
        """A table; the columns named in `whole` (ids) are never wrapped or cut, others give way."""
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
