"""A project that ships a library: its public headers in a folder named after it.

Headers kept in `include/<the project's name>/` are the API a library installs for others to
include by its name (`#include <ledger/ledger_books.h>`); a program's private headers sit beside
its sources or under a bare `include/`. When the session lists or reads two or more such
headers, the project ships a library, and their names say what it deals in. The rule, the same
for every language with headers:

- the project's folder has a name that says something (`project_folder_name`);
- two or more header files (.h, .hh, .hpp or .hxx) seen directly under
  `include/<name>/` at the project's root, the name compared without case and with `-` and `_`
  alike; headers in a vendored, build or test folder, or under another name, say nothing.

The memory names the folder and up to eight headers, in the order seen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from squirrel_memory.extractors.named_stack import project_folder_name
from squirrel_memory.extractors.project_fact import Fact

KEY = "public_headers"
MIN_HEADERS = 2
MAX_NAMED = 8
_HEADER = re.compile(
    r"^include/(?P<folder>[^/]+)/(?P<file>[^/]+\.(?:h|hh|hpp|hxx))$", re.IGNORECASE
)


def _same_name(folder: str, name: str) -> bool:
    return folder.lower().replace("_", "-") == name.lower().replace("_", "-")


def public_headers(project_id: str, seen: Iterable[tuple[str, str]]) -> Fact | None:
    """The library fact from the project-relative (path, event id) pairs the episode read or
    listed, or None (module docstring)."""
    name = project_folder_name(project_id)
    if name is None:
        return None
    headers: list[str] = []
    folder = ""
    event_ids: list[str] = []
    for path, event_id in seen:
        match = _HEADER.match(path.lstrip("./"))
        if match is None or not _same_name(match.group("folder"), name):
            continue
        if match.group("file") not in headers:
            headers.append(match.group("file"))
            folder = match.group("folder")
            if event_id not in event_ids:
                event_ids.append(event_id)
    if len(headers) < MIN_HEADERS:
        return None
    named = ", ".join(f"`{header}`" for header in headers[:MAX_NAMED])
    extra = len(headers) - MAX_NAMED
    more = f" and {extra} more" if extra > 0 else ""
    content = (
        f"The project `{name}` ships a library: its public headers are in "
        f"`include/{folder}/` ({named}{more})."
    )
    return Fact(KEY, content, ("library", "headers", "layout"), 0.6, tuple(event_ids))
