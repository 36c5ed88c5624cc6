"""What every manifest reader records the same way: the one-line description a manifest gives
of its project, and a dependency it declares, each with the line that says it."""

from __future__ import annotations

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
