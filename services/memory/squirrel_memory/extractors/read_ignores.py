"""What the project keeps out of git, as the root `.gitignore` the session read says.

A session that reads the repository's root `.gitignore` learns which folders and files are not
the project's own: build output, installed dependencies, environment files, caches, editor
settings. A later session needs that before it searches, writes or commits there. The patterns
are sorted into classes by their own shape, the same in every ecosystem (`node_modules/`,
`vendor/` and `.venv/` are dependencies; `dist/`, `target/` and `_build/` build output; `*.pyc`
and `*.class` compiled files), and what no class holds is named as it is. One project fact
for the file, from its latest whole read after the session's own edits (`latest_reads`):
"The repository's `.gitignore` ignores dependencies (`node_modules/`), build output (`dist/`,
`build/`), environment files (`.env*`) and also `data/`." The latest read that did not fail
decides: nothing is said when it returned part of the file or ingest cut it short, nor for an
ignore file in a sub-folder, nor for a file of more than `MAX_PATTERNS` patterns (a generated
template: it lists every tool's files whatever the project uses). Comment and blank lines are
not patterns; a pattern that un-ignores (`!.env.example`) is named as kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import (
    cut_at_ingest,
    file_text,
    read_output,
    whole_read_output,
)
from squirrel_memory.extractors.latest_reads import latest_reads
from squirrel_memory.models import StoredEvent

KEY = "ignored:read:.gitignore"
IGNORE_FILE = ".gitignore"
#: As what the session's edits and `git check-ignore` show git ignores.
IMPORTANCE = 0.4
#: More patterns than this: a generated template, not the project's own choices.
MAX_PATTERNS = 40
#: Patterns named per class, and patterns no class holds named at most.
MAX_SHOWN = 3
MAX_OTHERS = 5

#: (class, what a pattern's name matches), in the order the statement names them. A name is
#: one path segment of the pattern, lower-cased, its glob slashes and `**/` stripped.
_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(pattern))
    for label, pattern in (
        (
            "dependencies",
            r"^(?:node_modules|bower_components|jspm_packages|web_modules|vendor|\.?venv|env|"
            r"\.virtualenv|virtualenv|site-packages|pods|carthage|\.bundle|deps|_deps|"
            r"\.pnp(?:\.c?js)?|\.pnpm-store|\.yarn|elm-stuff|\.dart_tool|\.pub-cache|"
            r"\.packages|packages|\.terraform|third_party)$",
        ),
        (
            "build output",
            r"^(?:dist|build|builds|out|target|bin|obj|_build|\.build|\.next|\.nuxt|\.output|"
            r"\.svelte-kit|\.angular|\.expo|\.docusaurus|storybook-static|release|debug|"
            r"cmake-build-[\w*-]+|\.eggs|[\w*.-]*\.egg-info|wheels|\.vercel|\.netlify|_site|"
            r"public/build|site|\.serverless)$",
        ),
        (
            "compiled files",
            r"^__pycache__$|\.(?:py[cdo]?|py\[cod\]|class|o|a|so|dylib|dll|exe|jar|war|ear|"
            r"beam|elc|wasm|ko|hi|dyn_o|rlib|rmeta|lib|pdb|obj|tsbuildinfo)$|\$py\.class$",
        ),
        (
            "environment files",
            r"^\.env(?:[._-][\w.*-]*|\*)?$|^\.envrc$|\.env$|\.env\.local$",
        ),
        (
            "keys and secrets",
            r"\.(?:pem|key|p12|pfx|jks|keystore|crt|cer|gpg)$|^secrets?(?:[._-][\w.*-]*)?$|"
            r"^credentials?(?:[._-][\w.*-]*)?$|^id_(?:rsa|ed25519)",
        ),
        (
            "local databases",
            r"^(?!(?:eh)?thumbs\.db$)[\w*.-]*\.(?:sqlite3?|db)(?:-(?:journal|wal|shm)|\*)?$",
        ),
        (
            "caches",
            r"cache$|^\.cache|^\.(?:tox|nox|gradle|turbo|nx|hypothesis|ipynb_checkpoints|"
            r"webpack|vite|parcel-cache|eslintcache|stylelintcache|sass-cache|ccache|ruff_cache|"
            r"mypy_cache|pytest_cache)$",
        ),
        (
            "test and coverage reports",
            r"^(?:coverage|htmlcov|\.nyc_output|cover|test-results|test-reports|playwright-report|"
            r"junit[\w*.-]*\.xml|lcov\.info|coverage\.[\w*]+|\.coverage(?:\.[\w*]+)?|"
            r"\.coverage\*)$",
        ),
        ("logs", r"\.log(?:\*|\.\*|\.\d)?$|^logs?$|-debug\.log|-error\.log"),
        (
            "editor settings",
            r"^(?:\.idea|\.vscode|\.vs|\.fleet|\.zed|\.history|\.project|\.classpath|\.settings|"
            r"\.sublime-[\w*]+|nbproject)$|\.(?:swp|swo|swn|iml|ipr|iws|sublime-project|"
            r"sublime-workspace|code-workspace)$|^\*~$|^\.\*\.sw[\w\[\]]*$|^\[._\]\*",
        ),
        (
            "operating-system files",
            r"^(?:\.ds_store|thumbs\.db|ehthumbs\.db|desktop\.ini|\._\*|\.spotlight-v100|"
            r"\.trashes|\.directory|\$recycle\.bin|\.fuse_hidden\*|\.nfs\*)$",
        ),
        ("temporary files", r"^(?:tmp|temp|\.tmp)$|\.(?:tmp|temp|bak|orig|rej)$"),
    )
)


@dataclass(frozen=True, slots=True)
class ReadIgnores:
    """What the root ignore file keeps out of git: key, statement, the read, the file."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    path: str


def _root_read(event: StoredEvent) -> bool:
    """Whether an event is a read of the project's root `.gitignore`."""
    return any(
        relative_path(raw, event.project_id).removeprefix("./") == IGNORE_FILE
        for raw in event.file_paths[:1]
    )


def _names(pattern: str) -> list[str]:
    """The names a pattern's class is read from: its last path segment first, then the others
    (`.idea/workspace.xml` is the editor's, `public/build/` build output)."""
    path = re.sub(r"\[(\w)\1\]", r"\1", pattern.lower()).strip("/")  # `[Bb]in/` is `bin/`
    path = re.sub(r"^(?:\*\*/)+|(?:/\*\*?)+$", "", path)
    segments = [s for s in path.split("/") if s and s != "**"]
    return [path, *reversed(segments)] if segments else []


def class_of(pattern: str) -> str | None:
    """The class a pattern's names belong to (`node_modules/` → dependencies), else None."""
    for name in _names(pattern):
        for label, shape in _CLASSES:
            if shape.search(name):
                return label
    return None


def patterns(text: str) -> list[str]:
    """The patterns of an ignore file's text, in file order: comment and blank lines left out."""
    found: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith("#") and "`" not in line and line not in found:
            found.append(line)
    return found


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _shown(names: list[str], most: int) -> str:
    """Up to `most` patterns, comma-separated (the statement's own list joins with "and"),
    and how many more there are."""
    shown = ", ".join(f"`{n}`" for n in names[:most])
    more = len(names) - most
    return f"{shown} and {more} more" if more > 0 else shown


def statement(text: str) -> str | None:
    """What an ignore file's text keeps out of git, by class; None for a template's or an
    empty list."""
    found = patterns(text)
    if not found or len(found) > MAX_PATTERNS:
        return None
    kept = [p.removeprefix("!") for p in found if p.startswith("!") and len(p) > 1]
    grouped: dict[str, list[str]] = {label: [] for label, _ in _CLASSES}
    others: list[str] = []
    for pattern in found:
        if pattern.startswith("!"):
            continue
        label = class_of(pattern)
        (grouped[label] if label else others).append(pattern)
    parts = [f"{label} ({_shown(named, MAX_SHOWN)})" for label, named in grouped.items() if named]
    if others:
        parts.append(("also " if parts else "") + _shown(others, MAX_OTHERS))
    if not parts:
        return None
    said = f"The repository's `.gitignore` ignores {_listed(parts)}"
    if kept:
        said += f", but keeps {_listed([f'`{k}`' for k in kept[:MAX_OTHERS]])} in git"
    return said + "."


def read_ignores(events: list[StoredEvent]) -> list[ReadIgnores]:
    """What the project's root `.gitignore` keeps out of git, from its latest whole read as
    the session's later edits left it (module docstring)."""
    latest: StoredEvent | None = None
    for event in latest_reads(events):
        if read_output(event) is not None and _root_read(event):
            latest = event
    if latest is None or cut_at_ingest(latest):
        return []
    output = whole_read_output(latest)
    said = statement(file_text(output)) if output is not None else None
    if said is None:
        return []
    return [ReadIgnores(KEY, said, (latest.id,), IGNORE_FILE)]
