"""The languages of the code a session read and edited, stated as the evidence shows them.

A session that reads no root manifest still shows what the project is written in: the code
files the assistant read, edited or wrote. They are counted by language (a file once, however
often it was touched), and the fact says what was counted rather than claiming more: "Code
worked on in sessions: C++ (5 files).", or "Swift (4 files) and Rust (3 files)" when a second
language has comparable weight; a language with one or two files names them. The same rule in
every ecosystem:

- only code counts: configuration, data and documentation formats (`.json`, `.yaml`, `.toml`,
  `.md`, Terraform's `.tf` …) are not languages, and neither is an ambiguous header (`.h`);
- files outside the project, and in vendored, third-party, generated or build folders, say
  nothing about the project's own language; nor does a docs site's code;
- a language needs two files, or one script the session wrote and then ran with its
  interpreter (`python3 hoge.py` after writing `hoge.py`, see `script_runs`): one file read
  or written on the way (a scratch file, later deleted) says little; a suffix two languages
  share (`.pl`) counts only for such a script, in the language its interpreter tells;
- when every counted file sits in a sub-package (a folder with its own manifest), that
  sub-package's language is not the project's: the rule says nothing.

When the touched files say nothing, the files git and gh commands listed (`git_listed`) are
counted by the same rules and say so ("Code in the files listed by git in this project's
sessions: TypeScript (17 files)."), and when those say nothing either, the files a search or
listing command printed (`searched_files`: `grep -l`, `find`), then the files a test runner
printed as it ran them (`tested_files`: `✓ src/a.test.ts`), then the files a continued
conversation's summary lists as read or changed (`summary_files`), and last the files a root
README or instruction file the session read draws in its layout block (`drawn_files`); a
statement from touched files replaces one from listed files, never the other way round, and
a drawn one replaces none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from squirrel_memory.extractors.manifests import code_language
from squirrel_memory.extractors.toolchain_language import is_tools_statement

#: Folders whose code is not the project's own: vendored, third-party, generated, build output,
#: dependencies, and the code of a documentation site.
_NOT_OWN_DIRS = frozenset(
    {"vendor", "vendored", "third_party", "thirdparty", "third-party", "external", "extern"}
    | {"deps", "node_modules", "site-packages", ".venv", "venv", "_build", "build", "dist"}
    | {"target", "out", "generated", "gen", "__generated__", "Pods", ".git"}
    | {"docs", "doc", "site", "website", "_site", "book"}
)
#: A second language is named when it has at least this share of the first one's files.
COMPARABLE_SHARE = 1 / 2
#: Languages named in one fact at most.
MAX_LANGUAGES = 2
#: A language with at most this many files names them.
NAMED_FILES = 2
MIN_FILES = 2
PREFIX = "Code worked on in this project's sessions: "
#: The statement counted from the files git listed (`git_listed`), weaker than files touched.
LISTED_PREFIX = "Code in the files listed by git in this project's sessions: "
#: The statement counted from the files a search or listing printed (`searched_files`).
SEARCHED_PREFIX = "Code in the files that searches in this project's sessions listed: "
#: The statement counted from the files a test runner printed as it ran them (`tested_files`),
#: as weak as a search's.
TESTED_PREFIX = "Code in the files that test runs in this project's sessions printed: "
#: The statement counted from the files a continued conversation's summary lists
#: (`summary_files`), as weak as a test runner's.
SUMMARISED_PREFIX = "Code in the files a summary of an earlier conversation lists: "
#: The statement counted from the files a root README or instruction file draws (`drawn_files`),
#: the weakest: it never replaces a statement counted from files seen.
DRAWN_PREFIX = "Code in the files this project's README or instruction file lays out: "
#: The tag of a statement counted from touched files (a root manifest's statement wins over it).
TOUCHED_TAG = "touched"


@dataclass(slots=True)
class TouchedCode:
    """The project's own code files a session touched, by language, and the events that did."""

    files: dict[str, set[str]] = field(default_factory=dict)
    ran: set[str] = field(default_factory=set)
    """Scripts the session wrote and then ran with their interpreter."""
    event_ids: set[str] = field(default_factory=set)


def _own_code(path: str, packages: Iterable[str], told: Mapping[str, str]) -> str | None:
    """The language of a project-relative code file of the project's own (its suffix's, else
    the one `told` gives it), or None."""
    pure = PurePosixPath(path)
    if path.startswith(("/", "~", "..")) or any(
        part in _NOT_OWN_DIRS or (part.startswith(".") and part != ".") for part in pure.parts[:-1]
    ):
        return None
    if any(path.startswith(f"{package}/") for package in packages):
        return None
    return code_language(path) or told.get(path)


def touched_code(
    paths: list[tuple[str, str]],
    ran: Mapping[str, str | None],
    packages: Iterable[str] = (),
) -> TouchedCode:
    """Count `paths` (project-relative path, event id) by language; `packages` are sub-package
    folders whose files do not count; `ran` are scripts the session wrote and ran, each with
    the language its interpreter tells when its suffix alone does not (`perl seed.pl`)."""
    found = TouchedCode()
    wanted = tuple(packages)
    told = {p: lang for p, lang in ran.items() if lang}
    for path, event_id in paths:
        language = _own_code(path, wanted, told)
        if language is None:
            continue
        found.files.setdefault(language, set()).add(path)
        found.event_ids.add(event_id)
        if path in ran:
            found.ran.add(path)
    return found


def _weight(files: set[str], ran: set[str]) -> int:
    return len(files) if len(files) >= MIN_FILES or files & ran else 0


def _part(language: str, n: int, files: set[str]) -> str:
    if n <= NAMED_FILES and len(files) == n:
        named = ", ".join(f"`{f}`" for f in sorted(files))
        return f"{language} ({n} file{'s' if n > 1 else ''}: {named})"
    return f"{language} ({n} files)"


def touched_language_text(
    found: TouchedCode, prefix: str = PREFIX
) -> tuple[str, tuple[str, ...]] | None:
    """The statement of what the counted code shows, and the languages it names, or None;
    `prefix` says where the files come from (touched, or listed by git)."""
    files = dict(found.files)
    if "TypeScript" in files:  # compiled output and config beside TypeScript sources
        files.pop("JavaScript", None)
    weights = {lang: w for lang, paths in files.items() if (w := _weight(paths, found.ran))}
    return _statement(weights, files, prefix)


def _statement(
    weights: dict[str, int], files: dict[str, set[str]], prefix: str = PREFIX
) -> tuple[str, tuple[str, ...]] | None:
    if not weights:
        return None
    ranked = sorted(weights, key=lambda lang: (-weights[lang], lang))
    top = weights[ranked[0]]
    named = [lang for lang in ranked if weights[lang] >= top * COMPARABLE_SHARE]
    if len(named) > MAX_LANGUAGES:
        return None  # three languages of comparable weight: no one statement is fair
    text = prefix + " and ".join(
        _part(lang, weights[lang], files.get(lang, set())) for lang in named
    )
    return text + ".", tuple(named)


_STATED = re.compile(r"(?P<language>[^()]+?) \((?P<n>\d+) files?(?:: (?P<names>[^()]*))?\)")


def _prefix(text: str) -> str | None:
    prefixes = (
        PREFIX,
        LISTED_PREFIX,
        SEARCHED_PREFIX,
        TESTED_PREFIX,
        SUMMARISED_PREFIX,
        DRAWN_PREFIX,
    )
    return next((p for p in prefixes if text.startswith(p)), None)


def _counted(text: str) -> tuple[dict[str, int], dict[str, set[str]]] | None:
    """The files per language a statement of this module counted, or None for another text."""
    prefix = _prefix(text)
    if prefix is None:
        return None
    weights: dict[str, int] = {}
    files: dict[str, set[str]] = {}
    for part in text[len(prefix) :].rstrip(".").split(" and "):
        match = _STATED.fullmatch(part.strip())
        if match is None:
            return None
        language = match.group("language")
        weights[language] = int(match.group("n"))
        names = match.group("names") or ""
        files[language] = {n.strip().strip("`") for n in names.split(",") if n.strip()}
    return weights, files


def merged_statement(older: str, newer: str) -> str | None:
    """One statement of what the code of two sessions showed: per language the larger count
    (sessions often touch the same files, so counts are not added) and the files named by
    either; None when either text is not a statement of this module. Files touched outweigh
    files listed by git: a touched statement replaces a listed one and a listed one adds
    nothing to a touched one; either replaces a statement of the tools a session ran, and two
    of those keep the older."""
    if is_tools_statement(older) or is_tools_statement(newer):
        # The tools a session ran say less than any count of files: the count is kept.
        return older if not is_tools_statement(older) or is_tools_statement(newer) else newer
    old, new = _counted(older), _counted(newer)
    if old is None or new is None:
        return None
    prefix = _prefix(older)
    if prefix != _prefix(newer):
        if DRAWN_PREFIX in (prefix, _prefix(newer)):
            return newer if prefix == DRAWN_PREFIX else older
        return older if prefix == PREFIX else newer
    weights = {lang: max(old[0].get(lang, 0), new[0].get(lang, 0)) for lang in {*old[0], *new[0]}}
    files = {lang: old[1].get(lang, set()) | new[1].get(lang, set()) for lang in weights}
    for lang, names in files.items():
        weights[lang] = max(weights[lang], len(names))
    stated = _statement(weights, files, prefix or PREFIX)
    return stated[0] if stated else None


def is_touched_statement(text: str) -> bool:
    """Whether a language statement was counted from touched or listed files, or said from
    the tools a session ran (`toolchain_language`): not a manifest's."""
    return _prefix(text) is not None or is_tools_statement(text)
