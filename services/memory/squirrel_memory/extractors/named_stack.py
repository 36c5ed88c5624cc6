"""What the project is when nothing in a session describes it: its name and what its files
show it is written in.

Many sessions read no README, manifest description or instruction file, and neither the user
nor the assistant says what the project is: they go straight to a task. Two things are still
shown: the folder the session works in (the checkout, usually named as the repository is) and
the language its files support (`language_fact`: a root manifest read or listed beside its
code, or a count of the code files seen). Together they are the least that can be said of what
the project is, and the overview says that much, the same in every ecosystem:

- it is the last resort: a README, a manifest's description, an instruction file, the user's
  own words or the assistant's summary say more and win (it is tagged as a summary, so one
  read later replaces it);
- the name is the project root's folder name, said as such ("its folder's name"); a folder
  whose name says nothing of the project (`src`, `app`, `repo`, `workspace`, a temporary or
  hash-like name) gives nothing;
- a root file the episode read that may say what the project is in a form no rule reads (a
  `flake.nix`'s description, notes) leaves the overview unsaid: it would say less than the
  file; the manifests the statement names, lock files and code files do not;
- what it is written in is the episode's language statement when a root manifest makes it
  ("is written in Rust (Cargo.toml at its root)"); a count of the code files seen says where
  code was seen, not what the whole project is: it gives an overview only when it names two
  languages or more and each one's files sit in a top-level folder (or a monorepo's package)
  of its own, and then it says where each part is ("has Python code in `apps/api/` and
  TypeScript code in `apps/web/`"); no statement, no overview;
- a folder named `cli` whose code files the sessions read or listed (`src/cli/`, `cli/`,
  `cmd/entire/cli/`, a monorepo's `packages/cli/`) holds the project's command-line interface,
  and the overview says where ("…, with its command-line interface in `src/cli/`"): the one
  such folder, the outermost; none in documentation, tests or a dependency's folder, and two
  or more unrelated ones say nothing (which one is the project's own is not known); where a
  count of code files of one language is the only statement, that folder, holding code of that
  language alone, gives the overview ("The project `mise` (its folder's name) has its
  command-line interface in `src/cli/`, written in Rust, going by the files its sessions
  showed.").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from squirrel_memory.extractors.language_parts import part_folder, stated_languages
from squirrel_memory.extractors.manifests import extension_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.session_paths import excluded
from squirrel_memory.extractors.touched_languages import is_touched_statement, touched_code

#: Folder names that say nothing of the project they hold.
_GENERIC_FOLDERS = frozenset(
    {"src", "source", "sources", "app", "apps", "code", "repo", "repos", "repository"}
    | {"project", "projects", "workspace", "workspaces", "work", "dev", "git", "main", "master"}
    | {"tmp", "temp", "test", "tests", "home", "build", "untitled", "new", "trunk"}
)
#: A temporary or hash-like name: no run of three letters, or hexadecimal digits only.
_LETTERS = re.compile(r"[^\W\d_]{3}")
_HEX = re.compile(r"^[0-9a-f]+$", re.IGNORECASE)
#: Lock files: what a manifest resolved to, no description.
_LOCKS = (".lock", "-lock.json", "-lock.yaml", ".lockb", "lock.json")
#: A root manifest's statement: "Rust and TypeScript project (Cargo.toml, package.json)…".
_MANIFEST_STATEMENT = re.compile(r"^(?P<languages>[^()]+?) project \((?P<evidence>[^()]+)\)")


#: The folder a command-line interface's code sits in, by its name.
_CLI_FOLDER = "cli"
#: Folders whose `cli/` is not the project's command-line interface: its documentation, its
#: tests, examples.
_NOT_THE_CODE = frozenset(
    {"docs", "doc", "documentation", "site", "website", "test", "tests", "e2e", "spec"}
    | {"specs", "examples", "example", "samples", "benchmarks", "bench", "scripts"}
)


def cli_folder(seen: Iterable[str]) -> tuple[str, set[str]] | None:
    """The folder named `cli` (the outermost, outside documentation, tests and dependencies)
    that holds code files among the project-relative paths `seen`, and the languages of those
    files, when there is one; None when there is none or two unrelated ones."""
    found: dict[str, set[str]] = {}
    for path in seen:
        pure = PurePosixPath(path)
        language = extension_language(pure.suffix)
        if not language or excluded(path):
            continue
        folders = pure.parts[:-1]
        if _CLI_FOLDER not in folders:
            continue
        at = folders.index(_CLI_FOLDER)
        if any(part.lower() in _NOT_THE_CODE or part.startswith(".") for part in folders[:at]):
            continue
        found.setdefault("/".join(folders[: at + 1]), set()).add(language)
    return next(iter(found.items())) if len(found) == 1 else None


def _with_cli(name: str, language: Fact, seen: Iterable[str]) -> str | None:
    """ "The project `mise` (its folder's name) has its command-line interface in `src/cli/`,
    written in Rust, …": a counted statement whose one language is that of the code files the
    sessions saw in the project's one `cli` folder; None otherwise."""
    found = cli_folder(seen)
    languages = stated_languages(language)
    if found is None or len(languages) != 1 or found[1] != languages:
        return None
    shown = "going by the files its sessions showed"
    written = f"written in {next(iter(languages))}"
    return (
        f"The project `{name}` (its folder's name) has its command-line interface in "
        f"`{found[0]}/`, {written}, {shown}."
    )


def project_folder_name(project_id: str) -> str | None:
    """The name of the project's folder, or None when it says nothing of the project."""
    name = PurePosixPath(project_id.replace("\\", "/").rstrip("/")).name
    if not name or name.lower() in _GENERIC_FOLDERS:
        return None
    if _LETTERS.search(name) is None or (_HEX.match(name) and len(name) >= 6):
        return None
    return name


def _unread_description(read: Iterable[str], manifests: list[str]) -> bool:
    """Whether the episode read a root file that may describe the project in a form no rule
    reads (a `flake.nix`, a `DESCRIPTION`, notes): what the project is was in view, and the
    overview would say less than that file, so it says nothing. The statement's manifests,
    lock files and code files are no description."""
    for path in read:
        pure = PurePosixPath(path)
        if len(pure.parts) != 1 or path in manifests or extension_language(pure.suffix):
            continue
        if pure.name.lower().endswith(_LOCKS):
            continue
        return True
    return False


def _in_parts(name: str, language: Fact, seen: Iterable[str]) -> str | None:
    """ "The project `shop` (its folder's name) has TypeScript code in `apps/web/` and Python
    code in `apps/api/` …": a counted statement of two languages or more, each of whose files
    the session saw all sit in one top-level folder (or monorepo package) of its own; None when
    a language's code is spread over several folders or shares one with another language."""
    languages = stated_languages(language)
    if len(languages) < 2:
        return None
    folders: dict[str, set[str | None]] = {}
    for found, paths in touched_code([(path, "") for path in seen], {}).files.items():
        if found in languages:
            folders[found] = {part_folder(path) for path in paths}
    places = {lang: next(iter(where)) for lang, where in folders.items() if len(where) == 1}
    if set(places) != languages or None in places.values():
        return None
    if len(set(places.values())) != len(places):
        return None
    said = " and ".join(f"{lang} code in `{places[lang]}/`" for lang in sorted(languages))
    shown = "going by the files its sessions showed"
    return f"The project `{name}` (its folder's name) has {said}, {shown}."


def named_stack(
    project_id: str, language: Fact, read: Iterable[str] = (), seen: Iterable[str] = ()
) -> str | None:
    """The overview "The project `ledger` (its folder's name) is written in Rust (Cargo.toml at
    its root)." from the episode's root-manifest language statement, or None (module
    docstring); `read` are the project-relative paths of the root files the episode read,
    `seen` those of every file it read or listed."""
    name = project_folder_name(project_id)
    if name is None or language.key != "language":
        return None
    if is_touched_statement(language.content):
        seen = list(seen)
        return _in_parts(name, language, seen) or _with_cli(name, language, seen)
    match = _MANIFEST_STATEMENT.match(language.content.strip())
    if match is None:
        return None
    languages = match.group("languages")
    parts = (part.split(":")[0].strip() for part in re.split(r"[;,]", match.group("evidence")))
    files = [part for part in parts if part and " " not in part]
    if not files:
        return None
    if _unread_description(read, files):
        return None
    evidence = " and ".join(f"`{path}`" for path in files)
    # A .NET solution's project file sits below the root (`dotnet_solution`): said as it is.
    where = "" if any("/" in path for path in files) else " at its root"
    written = f"is written in {languages} ({evidence}{where})"
    cli = cli_folder(seen)
    with_cli = f", with its command-line interface in `{cli[0]}/`" if cli else ""
    return f"The project `{name}` (its folder's name) {written}{with_cli}."
