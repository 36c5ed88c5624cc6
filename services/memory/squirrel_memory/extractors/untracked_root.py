"""The project's language from a root manifest `git status` showed untracked beside the
project's untracked folders, when no code file of the session says anything.

A new project's first sessions often commit nothing but housekeeping: `git status` then lists
the whole project as untracked, its folders collapsed (`?? lib/`, `?? src/`, `?? tests/`) and
its manifest beside them (`?? Cargo.toml`), while the session opens no code file. The manifest
says the language as surely as a read would, and the untracked folders say the project's body
came with it. The rule asks all of this, the same in every ecosystem:

- one simple `git status` (short or porcelain, no pathspec, no `-C`) that succeeded, run at the
  project's root (`cd` into a sub-folder, or the shell's folder elsewhere, gives nothing);
- the manifest itself untracked at the root (`?? pyproject.toml`; a modified one, ` M`, is an
  edit of a tracked file and the tracked rest is not shown);
- at least two untracked root folders that are not hidden (`.specify/` and `.github/` are
  tooling): one new folder beside a new manifest may be a side tool's;
- the untracked root manifests name one language: two (`?? Cargo.toml`, `?? package.json`)
  say nothing, as does a JVM build file (it names the ecosystem, not the language);
- no command of another ecosystem's tools ran in the project (`dotnet test` beside an
  untracked `package.json` for a lint tool), and no code file of another language was read or
  edited: either is a conflict, and then nothing is said;
- the caller asks only when nothing else the session showed gives a language statement
  (`language_fact`'s last resort): a code file read, listed or searched wins.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.extractors.evidence.attempts import (
    NEUTRAL_ECOSYSTEMS,
    SIDE_ECOSYSTEMS,
    attempts,
)
from squirrel_memory.extractors.git_listed import folder_of
from squirrel_memory.extractors.manifests import manifest_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.toolchain_language import LANGUAGES, touched_languages
from squirrel_memory.models import StoredEvent

#: `git status` options whose output is the short form, and ones that change nothing of it.
_SHORT = frozenset({"-s", "--short", "-sb", "-bs", "--porcelain", "--porcelain=v1"})
_HARMLESS = frozenset({"-b", "--branch", "--no-ahead-behind", "--ignore-submodules"})
_UNTRACKED = re.compile(r"^\?\? (?P<name>[^\s/]+/?)$")
#: Build files that name an ecosystem, not which of its languages the code is in.
_ECOSYSTEM_ONLY = frozenset({"pom.xml", "build.gradle", "build.gradle.kts", "build.sbt"})
#: How the statement says a `package.json`'s language: it names none of its own.
_EITHER = "JavaScript or TypeScript"
#: Untracked root folders (not hidden) a statement needs.
MIN_FOLDERS = 2
#: The command table's ecosystem of a `package.json`'s tools.
_NODE_ECOSYSTEM = "javascript"


def _other_tools(runs: list[CommandRun], project_id: str, language: str) -> bool:
    """Whether a command of another ecosystem's tools than `language`'s ran in the project,
    whatever its outcome (one of no single language, the JVM's or .NET's, is another)."""
    for attempt in attempts(runs, project_id):
        use = attempt.use
        if use is None or use.ecosystem in NEUTRAL_ECOSYSTEMS | SIDE_ECOSYSTEMS:
            continue
        if ran_elsewhere(attempt.run.command, project_id):
            continue
        own = use.ecosystem == _NODE_ECOSYSTEM if language == _EITHER else None
        if not (own or LANGUAGES.get(use.ecosystem) == language):
            return True
    return False


def _is_root_status(run: CommandRun, project_id: str) -> bool:
    """Whether `run` is one short-form `git status` of the whole tree at the project root."""
    if run.ok is not True or folder_of(run.cwd, project_id) != "":
        return False
    segments = run.segments
    if len(segments) != 1:
        return False
    tokens = segments[0]
    if tokens[:2] != ["git", "status"]:
        return False
    options = tokens[2:]
    return bool(set(options) & _SHORT) and all(t in _SHORT | _HARMLESS for t in options)


def untracked_root_language(
    runs: list[CommandRun], project_id: str, events: list[StoredEvent] | None = None
) -> Fact | None:
    """The language statement "Rust project (Cargo.toml; …)" from a root `git status` that shows
    the manifest and the project's folders untracked (module docstring), or None; `events` are
    the session's, whose code files read or edited must be of no other language."""
    for run in runs:
        if not _is_root_status(run, project_id):
            continue
        names = [
            match.group("name")
            for line in run.output.splitlines()
            if (match := _UNTRACKED.match(line.rstrip()))
        ]
        folders = [n for n in names if n.endswith("/") and not n.startswith(".")]
        manifests = {
            name: language
            for name in names
            if not name.endswith("/") and (language := manifest_language(name))
        }
        if len(folders) < MIN_FOLDERS or len(set(manifests.values())) != 1:
            continue
        if set(manifests) & _ECOSYSTEM_ONLY:
            continue
        manifest = sorted(manifests)[0]
        language = manifests[manifest]
        if manifest.lower() == "package.json":
            language = _EITHER
        read = touched_languages(events or [])
        if _other_tools(runs, project_id, language) or read - set(language.split(" or ")):
            return None
        # No comma between file names: the evidence's parts are the manifests it names.
        shown = " and ".join(f"`{folder}`" for folder in folders[:2])
        text = (
            f"{language} project ({manifest}; `git status` listed it untracked at the root"
            f" beside {len(folders)} untracked folders such as {shown}, no code file seen)."
        )
        named = [part.lower() for part in language.split(" or ")]
        return Fact("language", text, ("language", *named), 0.6, (run.event_id,))
    return None
