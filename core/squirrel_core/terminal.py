"""Tables and markdown as `sqrl` draws them on a terminal (rich), wherever the drawing happens.

The CLI draws them itself, or — so that a command need not load rich (tens of milliseconds) —
asks the gateway to draw them for its terminal (`squirrel_gateway.cli_http`, route `render`):
the same rich objects, a console of the same size, encoding and environment, so the text that
reaches the terminal is the same. `Terminal` describes that terminal with the standard library
only, as rich itself would see it.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Final, TextIO

if TYPE_CHECKING:
    from rich.console import Console as RichConsole

RICH_ENV: Final = (
    "COLUMNS",
    "LINES",
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "FORCE_COLOR",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
)
"""The environment variables rich's console reads."""

Drawing = dict[str, Any]
"""`{"table": {"title", "columns", "rows", "whole"}}` or `{"markdown": text}`."""


@dataclass(frozen=True)
class Terminal:
    """What rich needs to know of the terminal it draws for."""

    width: int
    height: int
    encoding: str
    isatty: bool
    env: dict[str, str]

    @classmethod
    def of(cls, stream: TextIO, environ: Mapping[str, str] = os.environ) -> Terminal:
        """`stream` as a rich console on it would see it (size as `rich.console.Console.size`
        works it out on Linux and macOS)."""
        env = {k: environ[k] for k in RICH_ENV if k in environ}
        isatty = stream.isatty()
        width, height = _size(env, _is_terminal(env, isatty))
        encoding = (getattr(stream, "encoding", "utf-8") or "utf-8").lower()
        return cls(width, height, encoding, isatty, env)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> Terminal:
        """Raises ValueError when `data` is not a terminal's description (a JSON string or list
        sent for it too: no crash)."""
        if not isinstance(data, Mapping):
            raise ValueError("not a terminal description")
        env = data.get("env")
        width, height = data.get("width"), data.get("height")
        if not (
            isinstance(width, int)
            and isinstance(height, int)
            and 0 < width <= 10_000
            and 0 < height <= 10_000
            and isinstance(data.get("encoding"), str)
            and isinstance(data.get("isatty"), bool)
            and isinstance(env, dict)
            and all(k in RICH_ENV and isinstance(v, str) for k, v in env.items())
        ):
            raise ValueError("not a terminal description")
        return cls(width, height, str(data["encoding"]), bool(data["isatty"]), dict(env))


def _is_terminal(env: Mapping[str, str], isatty: bool) -> bool:
    compatible = env.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    if "FORCE_COLOR" in env:
        return env["FORCE_COLOR"] != ""
    return isatty


def _size(env: Mapping[str, str], is_terminal: bool) -> tuple[int, int]:
    if is_terminal and env.get("TERM", "").lower() in ("dumb", "unknown"):
        return 80, 25
    width: int | None = None
    height: int | None = None
    for fd in (0, 1, 2):
        try:
            width, height = os.get_terminal_size(fd)
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns, lines = env.get("COLUMNS"), env.get("LINES")
    if columns is not None and columns.isdigit():
        width = int(columns)
    if lines is not None and lines.isdigit():
        height = int(lines)
    return width or 80, height or 25


class _Screen(io.StringIO):
    """Collects what rich writes, looking to it like the terminal described."""

    def __init__(self, terminal: Terminal) -> None:
        super().__init__()
        self._terminal = terminal

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._terminal.encoding

    def isatty(self) -> bool:
        return self._terminal.isatty


def rich_console(file: TextIO | None = None) -> RichConsole:
    """The console `sqrl` draws with on its own stdout (or `file`)."""
    from rich.console import Console as RichConsole  # noqa: PLC0415 - only when drawing

    return RichConsole(file=file, soft_wrap=True, highlight=False)


def draw(console: RichConsole, drawing: Drawing) -> None:
    """Prints one table or markdown text on `console`."""
    if "markdown" in drawing:
        from rich.markdown import Markdown  # noqa: PLC0415 - only when markdown is shown

        console.print(Markdown(str(drawing["markdown"])))
        return
    from rich.table import Table  # noqa: PLC0415 - only when a table is drawn

    spec = drawing["table"]
    columns: list[str] = spec["columns"]
    rows: list[list[str]] = spec["rows"]
    table = Table(title=spec["title"], title_justify="left")
    for index, column in enumerate(columns):
        if column in spec["whole"]:
            width = max([len(column), *(len(r[index]) for r in rows)])
            table.add_column(column, no_wrap=True, min_width=width)
        else:
            table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console.print(table)


def render(drawings: list[Drawing], terminal: Terminal) -> list[str]:
    """What drawing each of `drawings` writes to the terminal described."""
    from squirrel_core.imports import allow_console_extras  # noqa: PLC0415

    allow_console_extras()  # a service process starts with rich kept out
    from rich.console import Console as RichConsole  # noqa: PLC0415 - only when drawing

    out = []
    for drawing in drawings:
        screen = _Screen(terminal)
        console = RichConsole(
            file=screen,
            soft_wrap=True,
            highlight=False,
            width=terminal.width,
            height=terminal.height,
            _environ=terminal.env,
        )
        draw(console, drawing)
        out.append(screen.getvalue())
    return out


def check_drawings(value: object) -> list[Drawing]:
    """`value` if it is a list of drawings; ValueError otherwise."""
    if not isinstance(value, list) or len(value) > 100:
        raise ValueError("drawings must be a list (at most 100)")
    for drawing in value:
        if not isinstance(drawing, dict) or len(drawing) != 1:
            raise ValueError("a drawing is a table or markdown")
        if "markdown" in drawing:
            if not isinstance(drawing["markdown"], str):
                raise ValueError("markdown must be text")
            continue
        spec = drawing.get("table")
        if not (
            isinstance(spec, dict)
            and isinstance(spec.get("title"), str)
            and _texts(spec.get("columns"))
            and _texts(spec.get("whole"))
            and isinstance(spec.get("rows"), list)
            and all(_texts(r) and len(r) == len(spec["columns"]) for r in spec["rows"])
        ):
            raise ValueError("a table has a title, columns, rows and whole columns")
    return value


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)
