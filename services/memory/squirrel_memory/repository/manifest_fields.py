"""What every manifest reader does the same way: record the one-line description a manifest
gives of its project and a dependency it declares, each with the line that says it; find the
line of a TOML key; take a parsed value as a table or a list of strings."""

from __future__ import annotations

from typing import Any

from squirrel_memory.repository.findings import Dependency, Readings
from squirrel_memory.repository.snapshot import TextFile

#: Longest manifest description kept (characters, once its whitespace is one space).
MAX_DESCRIPTION_CHARS = 300
#: Shortest manifest description kept (characters): a shorter one names rather than describes.
MIN_DESCRIPTION_CHARS = 10


def describe(out: Readings, value: object, ref: str) -> None:
    """A manifest's one-line description (what the package says it is) at `ref`, as one
    sentence: its whitespace, line breaks and indentation too, made one space before it is cut
    to `MAX_DESCRIPTION_CHARS`, so that an indented multi-line description keeps its words."""
    if isinstance(value, str) and len(value.strip()) >= MIN_DESCRIPTION_CHARS:
        described = " ".join(value.split())[:MAX_DESCRIPTION_CHARS].rstrip()
        out.describe_project(described.rstrip(".") + ".", ref)


def add_dependency(
    out: Readings,
    text: TextFile,
    ecosystem: str,
    name: str,
    version: str,
    *,
    ref: str,
    dev: bool = False,
    extra: str = "",
    optional: bool = False,
) -> None:
    """A dependency `text` declares at `ref` (`Dependency` says what `dev`, `extra` and
    `optional` mean)."""
    out.dependencies.append(
        Dependency(
            ecosystem, name, version, ref, text.path, dev=dev, extra=extra, optional=optional
        )
    )


def toml_line(text: TextFile, name: str) -> str:
    """The `path:line` of a TOML key `name` (quoted, then `name =`, then anywhere on a line), or
    the file's path when no line has it."""
    for pattern in (f'"{name}', f"{name} =", f"{name}=", name):
        line = text.line_of(pattern)
        if line:
            return text.ref(line)
    return text.ref(0)


def table(value: object) -> dict[str, Any]:
    """A parsed value as a table (an empty one when it is anything else)."""
    return value if isinstance(value, dict) else {}


def strings(value: object) -> list[str]:
    """The strings of a parsed list (none when it is anything else)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
