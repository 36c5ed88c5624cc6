"""A part of the project in another language, in a folder of its own, beside the language a
root manifest names.

Many projects keep one part in a second language in a top-level folder: the native side of a
mobile library (`ios/` in Swift beside a `package.json`), a Rust crate beside a Python or
TypeScript app (`src-tauri/`, `native/`), a Go service beside a web front end. A session that
reads the root manifest and one file of that folder shows both, but a language with one file
read is not counted for the whole project (`language_fact`), so the part went unsaid. The
rule scopes it to its folder instead, the same in every ecosystem:

- the project's language comes from a root manifest (a statement counted from touched files
  is left as it is);
- a code file of another language family (`touched_languages`: not configuration, data or
  docs) was read or edited in a top-level folder, and that folder shows at least two files of
  that language (read, edited, or printed by a listing or search of the session);
- a folder that holds a monorepo's packages (`packages/`, `apps/`, `crates/` …) is not the
  part: the package inside it is (`packages/native/`);
- every file of that language the session read or edited sits in that one folder, and none of
  the project's main languages was seen there (a folder of mixed code is no part of its own);
- folders of examples, demos, docs, scripts and tools (`stack_evidence.sample_folder`), of test
  data (`test/fixtures/`), of dependencies, vendored code or build output, and hidden folders
  say nothing: their code shows the project in use, or is someone else's.

The language statement then says where the part is: "TypeScript project (package.json), built
with React; the `ios/` folder holds Swift code (`ios/Module.swift`)." Two parts at most.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from squirrel_memory.extractors.manifests import EXTENSION_LANGUAGES, MANIFEST_LANGUAGES
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.stack_evidence import family, is_test_data, sample_folder
from squirrel_memory.extractors.touched_languages import is_touched_statement, touched_code

#: Parts named in one statement at most.
MAX_PARTS = 2
#: Files of the part's language the folder must show (one of them read or edited).
MIN_FILES = 2


@dataclass(frozen=True, slots=True)
class Part:
    """A top-level folder holding code in another language, with the files that show it."""

    folder: str
    language: str
    read: tuple[str, ...]
    event_ids: tuple[str, ...]


#: Top-level folders that hold a monorepo's packages, each a part of its own.
_CONTAINERS = frozenset(
    {"packages", "apps", "crates", "libs", "services", "modules", "plugins", "projects"}
)
#: Language names by their lower-case tag (`typescript` → TypeScript).
_NAMES = {
    name.lower(): name for name in (*EXTENSION_LANGUAGES.values(), *MANIFEST_LANGUAGES.values())
}


def stated_languages(language: Fact) -> set[str]:
    """The languages a language statement names, read from its tags."""
    return {_NAMES[tag] for tag in language.tags if tag in _NAMES}


def _language(path: str) -> str | None:
    """The language of one of the project's own code files (None for configuration, data,
    docs, and code of dependencies, vendored or build folders)."""
    files = touched_code([(path, "")], {}).files
    return next(iter(files), None)


def part_folder(path: str) -> str | None:
    """The top-level folder (or monorepo package) a file may be a part in, or None (a root
    file, a hidden folder, an example, docs, scripts or tools folder, test data)."""
    parts = PurePosixPath(path).parts
    if len(parts) < 2 or parts[0].startswith((".", "_", "~")):
        return None
    if sample_folder(path) or is_test_data(path):
        return None
    if parts[0].lower() in _CONTAINERS and len(parts) > 2:
        return f"{parts[0]}/{parts[1]}"  # a monorepo's package: the part is that package
    return parts[0]


def language_parts(
    touched: list[tuple[str, str]], seen: list[tuple[str, str]], main: set[str]
) -> list[Part]:
    """The parts in another language than the `main` languages (root manifests'), from the
    files read or edited (`touched`) and the files listings printed (`seen`), as
    (project-relative path, event id) pairs; see the module docstring."""
    main_families = {family(language) for language in main}
    read: dict[str, dict[str, set[str]]] = {}  # language → folder → files read or edited
    elsewhere: set[str] = set()  # languages read or edited outside any candidate folder
    mixed: set[str] = set()  # folders where code of a main language was seen
    ids: dict[tuple[str, str], set[str]] = {}
    for path, event_id in touched:
        language = _language(path)
        if language is None:
            continue
        top = part_folder(path)
        if family(language) in main_families:
            if top:
                mixed.add(top)
            continue
        if top is None:
            elsewhere.add(language)
            continue
        read.setdefault(language, {}).setdefault(top, set()).add(path)
        ids.setdefault((language, top), set()).add(event_id)
    listed: dict[tuple[str, str], set[str]] = {}
    for path, event_id in seen:
        language = _language(path)
        top = part_folder(path)
        if language is None or top is None:
            continue
        if family(language) in main_families:
            mixed.add(top)
        elif top in read.get(language, {}):
            listed.setdefault((language, top), set()).add(path)
            ids.setdefault((language, top), set()).add(event_id)
    found: list[Part] = []
    for language, folders in read.items():
        if language in elsewhere or len(folders) != 1:
            continue  # the language is not one folder's: say nothing of where it is
        folder, files = next(iter(folders.items()))
        if folder in mixed or len(files | listed.get((language, folder), set())) < MIN_FILES:
            continue
        found.append(
            Part(folder, language, tuple(sorted(files)), tuple(sorted(ids[(language, folder)])))
        )
    return sorted(found, key=lambda p: (-len(p.read), p.folder))[:MAX_PARTS]


def with_parts(language: Fact, parts: list[Part]) -> Fact:
    """A root manifest's language statement with the parts in other languages, each scoped to
    its folder; a statement counted from touched or listed files is left as it is."""
    if not parts or is_touched_statement(language.content):
        return language
    said = "; ".join(
        f"the `{part.folder}/` folder holds {part.language} code (`{part.read[0]}`)"
        for part in parts
    )
    return replace(
        language,
        content=f"{language.content.rstrip('.')}; {said}.",
        tags=tuple(dict.fromkeys((*language.tags, *(p.language.lower() for p in parts)))),
        event_ids=tuple(sorted({*language.event_ids, *(i for p in parts for i in p.event_ids)})),
    )
