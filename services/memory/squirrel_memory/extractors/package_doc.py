"""What the project is, from the doc comment of its root package, when no README or manifest
the session read says it.

A package's own doc often opens with what the whole project is: a Rust crate's `//!` doc in
`src/lib.rs` or `src/main.rs`, a Python package's docstring in `<package>/__init__.py` (or
`src/<package>/__init__.py`), a Go `doc.go` at the root ("Package x …"), an Elixir or Ruby
library's module in `lib/<name>.ex` / `lib/<name>.rb`, a Gleam module's `////` doc in
`src/<name>.gleam`, a JavaScript or TypeScript entry file (`index.ts`, `src/index.ts`) whose
leading block says it documents the package (`@packageDocumentation`, `@module`,
`@fileoverview`). The session must have read the file from its first line (with a read tool,
or a command that printed it: `shown_file_texts`); its first
paragraph is quoted as the project's own words, with the file it came from.

The same rule in every ecosystem. It never reads a file elsewhere: a sub-package's or workspace
member's root (`crates/x/src/lib.rs`), a dependency's, vendored, example, test, fixture or docs
folder's. A doc that says nothing beyond the package's name, a licence or generated-file header,
a template's placeholder or a few words ("mycrate library.") says nothing; two root packages
with docs (two Python packages at the root) say nothing either: which one is the project is not
known.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import head_read_text, shown_file_texts
from squirrel_memory.extractors.modules import NOT_CODE_DIRS, file_description, says_more_than
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.boilerplate import is_boilerplate
from squirrel_memory.repository.wording import about_text

#: Files at fixed places whose doc speaks for the whole project.
_FIXED = frozenset(
    {"src/lib.rs", "src/main.rs", "doc.go"}
    | {"index.ts", "index.js", "index.mjs", "src/index.ts", "src/index.js", "src/index.mjs"}
)
#: Folders whose package is not the project's own: tests, examples, docs, scripts, fixtures.
_NOT_PACKAGE_DIRS = NOT_CODE_DIRS | frozenset(
    {"test", "tests", "spec", "specs", "example", "examples", "sample", "samples", "demo"}
    | {"demos", "docs", "doc", "scripts", "script", "tools", "benchmarks", "bench", "fixtures"}
)
#: `lib/<name>.ex`, `lib/<name>.rb`, `src/<name>.gleam`: a library's root module.
_ROOT_MODULE = re.compile(r"^(?:lib/[a-z_][a-z0-9_]*\.(?:ex|rb)|src/[a-z_][a-z0-9_]*\.gleam)$")
#: `<package>/__init__.py`, `src/<package>/__init__.py`: a Python package at the root.
_PY_PACKAGE = re.compile(r"^(?:src/)?(?P<package>[A-Za-z_][A-Za-z0-9_]*)/__init__\.py$")
#: A JavaScript or TypeScript block that says it documents the package or the file.
_PACKAGE_TAG = re.compile(r"@(?:packageDocumentation|module|file(?:overview)?)\b")
_GLEAM_DOC = "////"
#: Fewest words a doc needs to say what a project is ("mycrate library." names it only).
MIN_WORDS = 4


def is_root_package_file(path: str) -> bool:
    """Whether a project-relative path is a file whose doc speaks for the whole project."""
    if path in _FIXED or _ROOT_MODULE.match(path):
        return True
    match = _PY_PACKAGE.match(path)
    return match is not None and match["package"].lower() not in _NOT_PACKAGE_DIRS


def package_description(path: str, text: str) -> str | None:
    """The first paragraph of a root package file's own doc, or None when it says nothing."""
    suffix = PurePosixPath(path).suffix
    if suffix == ".gleam":
        lines = [line[len(_GLEAM_DOC) :].strip() for line in _leading(text, _GLEAM_DOC)]
        found = file_description("doc.rs", "\n".join(f"//! {line}" for line in lines))
    elif suffix in (".ts", ".js", ".mjs"):
        head = text.lstrip()[:2000]
        block = head[: head.find("*/")] if head.startswith("/**") else ""
        found = file_description(path, text) if _PACKAGE_TAG.search(block) else None
    else:
        found = file_description(path, text)
    name = PurePosixPath(path).parent.name if suffix == ".py" else PurePosixPath(path).stem
    if found is None or is_boilerplate(found) or not says_more_than(name, found):
        return None
    return found if len(found.split()) >= MIN_WORDS else None


def _leading(text: str, marker: str) -> list[str]:
    """The file's leading lines that start with `marker` (blank lines before them skipped)."""
    found: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(marker):
            found.append(stripped)
        elif found or stripped:
            break
    return found


def package_about(events: list[StoredEvent]) -> tuple[str, str, tuple[str, ...]] | None:
    """(statement, file it came from, event ids) from the root package's own doc the session
    read, or None (module docstring). Of a crate's `src/lib.rs` and `src/main.rs`, the library
    speaks first; different Python packages at the root say nothing."""
    found: dict[str, tuple[str, str]] = {}
    for event in events:
        text = head_read_text(event)
        reads = [(raw, text) for raw in event.file_paths] if text is not None else []
        for raw, text in reads or shown_file_texts(event):
            path = relative_path(raw, event.project_id).removeprefix("./")
            if path not in found and is_root_package_file(path):
                described = package_description(path, text)
                if described is not None:
                    found[path] = (described, event.id)
    if not found:
        return None
    packages = {m["package"] for p in found if (m := _PY_PACKAGE.match(p))}
    if len(packages) > 1:
        return None
    path = min(found, key=lambda p: (p != "src/lib.rs", p != "src/main.rs", p))
    description, event_id = found[path]
    name = PurePosixPath(events[0].project_id.rstrip("/")).name or "unnamed"
    return about_text(name, description, f"root package doc (`{path}`)"), path, (event_id,)
