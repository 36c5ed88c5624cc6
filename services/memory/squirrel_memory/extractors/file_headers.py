"""What a script or configuration file read in a session says it is for: its leading comment.

Short sessions often read one script or one configuration file and nothing else of the
project. Its opening comment (after a `#!` line) is the author's own note on what it does:
"Monitors CI status and automatically merges when all checks pass", "FUSE-T compatibility
shim: macFUSE needs a kernel extension". Kept as a project fact about that file when the file
was read from its first line, lies inside the project and outside dependency or build
folders, and the comment says something in words (not a licence, a generated-file banner, a
separator or commented-out code). Lines meant for a tool are left out of what it states: a
modeline (`-*- coding: utf-8 -*-`, `vim: …`), a schema or linter directive
(`yaml-language-server: $schema=…`, `@ts-check`), a shebang, and a pointer to a tool's
documentation ("See https://… for more about this file"); a header of only such lines says
nothing. Module docstrings of source code are the module
rule's (`modules.py`); this covers the files that rule does not: scripts and configuration in
any language that comments with `#`, `//`, `--` or `;`. A code file at the project's root is
no module's (`extract-feedback.py` whose docstring says "Extract review feedback from pull
requests"): `root_code_docs` reads its doc comment as the module rule reads one, a fact kept
below the project's own documents (`CODE_DOC_IMPORTANCE`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import file_text, whole_read_output
from squirrel_memory.extractors.modules import CODE_SUFFIXES, file_description
from squirrel_memory.extractors.wording import sentence
from squirrel_memory.models import StoredEvent

#: Importance of what a file says of itself: a fact about one file, not about the project.
IMPORTANCE = 0.5
#: Importance of what a code file's doc comment says of it: a note on code that a reader meets
#: opening the file, below what the project's own documents say (a README's requirements).
CODE_DOC_IMPORTANCE = 0.4
#: Comment lines read, characters kept, files described per episode.
MAX_LINES = 4
MAX_CHARS = 260
MAX_FILES = 4
MIN_WORDS = 5
#: A comment line at least this long that ends without a full stop was wrapped.
WRAP_CHARS = 50

#: Folders whose files are someone else's or generated, wherever they appear in a path.
_FOREIGN_DIRS = frozenset(
    {"deps", "node_modules", "vendor", "third_party", "third-party", "external"}
    | {"bower_components", "site-packages", "Pods", "Carthage", ".venv", "venv", "env"}
    | {"_build", "build", "dist", "out", "target", "generated", "gen", "__generated__"}
    | {".cache", ".tox", ".nox", "coverage", ".next", ".nuxt", ".turbo", ".git"}
    | {"fixtures", "testdata", "test_data", "tmp", "log", "logs"}
)
#: Files whose `#` lines are headings or data, not comments.
_NOT_COMMENTED = frozenset(
    {".md", ".markdown", ".rst", ".txt", ".adoc", ".org", ".json", ".csv", ".tsv", ".lock"}
    | {".log", ".html", ".xml", ".svg", ".ipynb"}
)
#: Files of patterns whose comments name groups of patterns (`.gitignore`, `.dockerignore`).
_PATTERN_FILES = ("ignore", ".gitattributes", "codeowners", ".editorconfig")
#: Comment markers, longest first (`//!` and `///` are doc comments the module rule reads).
_MARKERS = ("#", "//", "--", ";;", ";")
_NOT_WORDS = re.compile(
    r"copyright|licen[cs]e|spdx|generated|do not edit|@generated|"
    r"^(?:todo|fixme|xxx|hack|region|endregion)\b|^\+build|^go:|^syntax\b|^@",
    re.IGNORECASE,
)
#: A line meant for an editor, a schema checker or a linter, not the reader: a modeline
#: (`-*- coding: utf-8 -*-`, `vim: set ft=sh:`), a schema or type-check directive
#: (`yaml-language-server: $schema=…`, `@ts-check`), a linter's pragma, a shebang.
_DIRECTIVE = re.compile(
    r"^!|-\*-.*-\*-|^(?:vim?|ex):|\s(?:vim?|ex):\s*set\b|coding[:=]|"
    r"^yaml-language-server:|^\$schema\b|^@(?:ts-(?:check|nocheck)|flow|format|noformat)\b|"
    r"^(?:eslint|prettier|jshint|tslint|stylelint|shellcheck|pylint|noqa|cspell|biome-ignore)\b|"
    r"^(?:type|fmt|isort|mypy|ruff):|frozen_string_literal",
    re.IGNORECASE,
)
_URL = re.compile(r"<?https?://\S+>?")
#: A pointer to a tool's documentation ("See https://… for more about this file", "For more
#: information see:", "Make sure to check the documentation at https://…"): says where to
#: read about the file's format, not what this file is for.
_POINTER = re.compile(
    r"^(?:please\s+)?(?:see|refer\s+to|visit|consult|check(?:\s+out)?|(?:learn|read)\s+more|"
    r"more\s+info(?:rmation)?|further\s+info(?:rmation)?|docs?|documentation|reference)\b|"
    r"\b(?:for|get)\s+(?:more|further|full|additional)\s+"
    r"(?:info(?:rmation)?|details|documentation|options|about)\b|"
    r"\b(?:see|check|consult|visit|read|refer\s+to|follow)\s+(?:out\s+)?(?:the\s+|our\s+|its\s+)?"
    r"(?:official\s+|full\s+|online\s+)?(?:docs?|documentation|reference|manual|guide)\b",
    re.IGNORECASE,
)
#: A commented-out line of code rather than prose.
_CODE_LIKE = re.compile(
    r"[;{}]\s*$|^\s*(?:import|from|def|fn|func|function|const|let|var|class|return|if|for|"
    r"echo|export|set|source|use|package|require)\b|\w\(.*\)\s*$|^\s*[\w.\[\]\"']+\s*[:=]\s*\S|"
    r"^[\w-]+\s*\|"
)
_SEPARATOR = re.compile(r"^[\W_]*$")


@dataclass(frozen=True, slots=True)
class FileHeader:
    """What one file says of itself: key, statement, the file and the event that read it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _whole_read(event: StoredEvent) -> tuple[str, str] | None:
    """(project path, text) of a file a Read returned from its first line, else None."""
    output = whole_read_output(event)
    if output is None:
        return None
    for raw in event.file_paths:
        path = relative_path(raw, event.project_id)
        if own_file(path):
            return path, file_text(output)
    return None


def own_file(path: str) -> bool:
    """Whether a project-relative path is inside the project and outside dependency, build
    and test-data folders."""
    parts = PurePosixPath(path).parts
    if not parts or path.startswith(("/", "~")) or "\\" in path:
        return False
    return not any(part in _FOREIGN_DIRS for part in parts[:-1])


def _comment_lines(text: str) -> list[str]:
    """The lines of the file's opening comment block, markers stripped (after a `#!` line)."""
    lines = text.splitlines()
    if lines and lines[0].startswith("#!"):
        lines = lines[1:]
    marker = ""
    found: list[str] = []
    for line in lines:
        stripped = line.strip()
        if not stripped:
            if found:
                break
            continue
        if not marker:
            marker = next((m for m in _MARKERS if stripped.startswith(m)), "")
            if not marker:
                return []
        if not stripped.startswith(marker) or stripped.startswith((marker + "!", marker + "/")):
            break
        said = stripped[len(marker) :].strip()
        if said_for_tools(said):
            if found and found[-1].endswith(":") and not _URL.sub("", said).strip():
                found.pop()  # the lead-in to a link ("Full reference:") points as the link does
            if found:
                break  # what follows a pragma or a pointer is not the file's description
            continue
        found.append(said)
        if len(found) > MAX_LINES * 2:
            break
    return found


def said_for_tools(line: str) -> bool:
    """Whether a comment line (marker stripped) is for a tool rather than the reader: a
    modeline, a directive or pragma, or a pointer to a tool's documentation."""
    if _DIRECTIVE.search(line):
        return True
    words = _URL.sub("", line).strip()
    if not words:
        return line != ""  # a bare link
    return bool(_POINTER.search(words)) and (words != line or words.endswith(":"))


def _clauses(lines: list[str]) -> list[str]:
    """The comment's lines as clauses: wrapped lines joined, a licence or pragma ends it."""
    clauses: list[str] = []
    for line in lines:
        if _NOT_WORDS.search(line):
            return clauses
        if _SEPARATOR.match(line):
            if clauses:
                break
            continue
        if _CODE_LIKE.search(line) or "`" in line:
            return []
        # A line continues the one before only when that one was cut by wrapping (long, no
        # full stop) and this one does not start a new thought with a capital.
        wrapped = bool(clauses) and len(clauses[-1].rsplit("\n", 1)[-1]) >= WRAP_CHARS
        starts_new = not wrapped or clauses[-1].endswith((".", "!", "?", ":")) or line[:1].isupper()
        if starts_new:
            clauses.append(line)
        else:
            clauses[-1] = f"{clauses[-1]}\n{line}"
        if len(clauses) >= MAX_LINES:
            break
    return clauses


def _statement(path: str, clauses: list[str]) -> str | None:
    words = sum(len(re.findall(r"[A-Za-z]{2,}", c)) for c in clauses)
    if words < MIN_WORDS or not any(len(re.findall(r"[A-Za-z]{2,}", c)) >= 6 for c in clauses):
        return None
    parts: list[str] = []
    for raw in clauses:
        clause = " ".join(raw.split()).rstrip(".;,:")
        low = clause[:1].lower() + clause[1:] if clause[1:2].islower() else clause
        parts.append(low if parts else clause)
    body = "; ".join(parts)
    if len(body) > MAX_CHARS:
        cut = body.rfind("; ", 0, MAX_CHARS)
        if cut < MAX_CHARS // 3:
            return None
        body = body[:cut]
    return sentence(f"`{path}` says of itself: {body}")


def describes(path: str, text: str) -> str | None:
    """What a script or configuration file's opening comment says it is for, or None."""
    pure = PurePosixPath(path)
    suffix = pure.suffix.lower()
    if suffix in _NOT_COMMENTED or suffix in CODE_SUFFIXES:
        return None  # prose files have headings, not comments; source code is a module's
    if pure.name.lower().endswith(_PATTERN_FILES):
        return None  # comments in a pattern list head its sections (a template's)
    return _statement(path, _clauses(_comment_lines(text)))


def root_code_says(path: str, text: str) -> str | None:
    """What a code file at the project's root says it is by its doc comment (a docstring, a
    leading `/** … */`, as the module rule reads one), or None: a file in a folder is a
    module's, and the module rule speaks for it."""
    pure = PurePosixPath(path)
    if len(pure.parts) != 1 or pure.suffix.lower() not in CODE_SUFFIXES:
        return None
    said = file_description(path, text, MAX_CHARS)
    return sentence(f"`{path}` says of itself: {said}") if said else None


def _described(
    events: list[StoredEvent], describe: Callable[[str, str], str | None]
) -> list[FileHeader]:
    found: dict[str, FileHeader] = {}
    for event in events:
        read = _whole_read(event)
        if read is None or read[0] in found:
            continue
        path, text = read
        statement = describe(path, text)
        if statement:
            found[path] = FileHeader(f"file:{path}", statement, path, (event.id,))
        if len(found) >= MAX_FILES:
            break
    return list(found.values())


def file_headers(events: list[StoredEvent]) -> list[FileHeader]:
    """What the files read whole in the session say of themselves, first read first."""
    return _described(events, describes)


def root_code_docs(events: list[StoredEvent]) -> list[FileHeader]:
    """What the code files at the project's root read whole in the session say of themselves
    (`root_code_says`), first read first."""
    return _described(events, root_code_says)
