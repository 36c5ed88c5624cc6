"""The project's files that git and gh commands of a session listed, without opening them.

A session that only reviews, plans, releases or writes docs touches no code file, yet the git
commands it ran print the project's files: `git status`, `git diff --stat` / `--name-only` /
`--name-status`, `git show --stat`, `git log --stat` / `--name-only`, `git ls-files`,
`gh pr view --json files`, `gh pr diff --name-only`. Those paths are weaker evidence of the
project's language than the files touched (`touched_languages`): they are read only from
commands that succeeded in the project's own repository, and only paths relative to it count
(a truncated `.../x.ts`, an absolute or `../` path does not; nor does a command run in a folder
outside the project, or pointed at another repository with `git -C`, `--git-dir` or `gh
--repo`). Renames count by their new name: `a => b`, `src/{a => b}.ts`, `R100<TAB>a<TAB>b`,
`R  a -> b`.
A patch (`git diff`, `git show`, `git log -p` with none of the listing options) names its files
in its `diff --git a/x b/y` headers, read by the new name; `git diff --no-index` compares files
that need not be the repository's and is not read, nor a `git show rev:path` (a file's text,
whatever it holds). A `git checkout` or `git restore` of paths that git confirms (`Updated 3
paths from the index`) names them as arguments, from the folder it ran in; globs are left out.
A chained line (`git add -A && git status`, `cd web; git ls-files`) is read when each of its
other steps prints no list of its own: a `cd` into a folder of the project, a git command
that stages, commits or moves between branches, or a `git diff --check` (silent when it
passes). `git status` (but `--porcelain`), `git ls-files` and `git diff --relative` print
paths from the folder they ran in; the others from the repository's root.
"""

from __future__ import annotations

import posixpath
import re

from squirrel_memory.extractors.activity import CommandRun, relative_path

#: git subcommands whose output lists files with one of these options.
_LISTING_OPTIONS = frozenset({"--stat", "--name-only", "--name-status", "--numstat"})
_FILE_LISTS = frozenset({"diff", "show", "log", "whatchanged"})
#: git options naming another repository or work tree: its files are not this project's.
_ELSEWHERE = frozenset({"-C", "--git-dir", "--work-tree"})
_GH_REPO = frozenset({"-R", "--repo"})
#: git subcommands that may come before or after a listing in one line: what they print is no
#: list of files (or only this repository's, as `git reset` does).
_QUIET_GIT = frozenset(
    {"add", "rm", "mv", "restore", "reset", "stage", "commit", "fetch", "checkout", "switch"}
)
_MOVES = frozenset({"cd", "pushd"})

_JSON_PATH = re.compile(r'"path"\s*:\s*"([^"\\]+)"')
_STAT = re.compile(r"^ ?(\S.*?)\s+\|\s+(?:\d+|Bin\b)")
_NUMSTAT = re.compile(r"^(?:\d+|-)\t(?:\d+|-)\t(.+)$")
_NAME_STATUS = re.compile(r"^[ACDMRTUX]\d*\t(.+)$")
_PORCELAIN = re.compile(r"^[ MADRCTU?!]{2} (\S.*)$")
_LONG_STATUS = re.compile(
    r"^\t(?:(?:modified|new file|deleted|renamed|typechange|copied|"
    r"both modified|both added|both deleted|added by us|added by them|"
    r"deleted by us|deleted by them):\s+)?(\S.*)$"
)
_BARE = re.compile(r"^([^\s:]+)$")
_BRACED = re.compile(r"\{([^{}]*?) => ([^{}]*?)\}")
_PATCH_HEADER = re.compile(r"^diff --git a/\S+ b/(\S+)$")
#: What `git checkout`/`git restore` prints when it put the named paths back.
_RESTORED = re.compile(r"^Updated \d+ paths? from\b", re.MULTILINE)
_RESTORES = frozenset({"checkout", "restore"})
#: `git restore` options that take the next token as their value.
_VALUED = frozenset({"-s", "--source"})


#: A Windows drive's path (`C:\\Users\\x`, `D:/src`).
_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


def _new_name(path: str) -> str:
    """The path after a rename as git prints it (`src/{a => b}/x.ts`, `a => b`, `a -> b`)."""
    path = _BRACED.sub(lambda m: m.group(2), path)
    for arrow in (" => ", " -> "):
        if arrow in path:
            path = path.rsplit(arrow, 1)[1]
    return path.replace("//", "/").strip().strip('"')


def _after_global_options(tokens: list[str]) -> list[str]:
    """git's arguments from its subcommand on: `--no-pager`, `-c key=value`, `-p` skipped."""
    rest = list(tokens)
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] == "-c" else rest[1:]
    return rest


def _object_paths(arguments: list[str]) -> bool:
    """Whether a `git show` argument names a file in a revision (`HEAD:src/a.ts`)."""
    return any(":" in t and not t.startswith("-") for t in arguments)


def _elsewhere(tokens: list[str]) -> bool:
    return any(t in _ELSEWHERE or t.startswith(("--git-dir=", "--work-tree=")) for t in tokens)


def _kind(tokens: list[str]) -> str | None:
    """The output format of one simple command that lists files, or None."""
    if len(tokens) >= 2 and tokens[0] == "git":
        if _elsewhere(tokens):
            return None
        rest = _after_global_options(tokens[1:])
        if not rest:
            return None
        sub, options = rest[0], set(rest[1:])
        if sub == "status":
            return "status"
        if sub == "ls-files":
            return "bare"
        if sub in _FILE_LISTS and options & _LISTING_OPTIONS:
            return "changes"
        if sub in _FILE_LISTS and "--no-index" not in options and not _object_paths(rest[1:]):
            return "patch"
        return None
    if len(tokens) >= 3 and tokens[:3] in (["gh", "pr", "view"], ["gh", "pr", "diff"]):
        if any(t in _GH_REPO or t.startswith("--repo=") for t in tokens):
            return None
        if tokens[2] == "diff":
            return "bare" if "--name-only" in tokens else None
        fields = [tokens[i + 1] for i, t in enumerate(tokens[:-1]) if t == "--json"]
        fields += [t.split("=", 1)[1] for t in tokens if t.startswith("--json=")]
        if not any("files" in f.split(",") for f in fields):
            return None
        return (
            "bare" if any(t == "--jq" or t.startswith(("--jq=", "-q")) for t in tokens) else "json"
        )
    return None


def _from_folder(tokens: list[str]) -> bool:
    """Whether a listing command prints paths from the folder it ran in (not the root)."""
    if tokens[0] != "git":
        return False
    rest = _after_global_options(tokens[1:])
    if rest[0] == "status":
        return not any(t.startswith("--porcelain") for t in rest)
    if rest[0] == "ls-files":
        return "--full-name" not in rest
    return "--relative" in rest


def _quiet(tokens: list[str]) -> bool:
    """Whether a step of a chained line prints no list of files of its own."""
    if tokens[0] != "git" or _elsewhere(tokens):
        return False
    rest = _after_global_options(tokens[1:])
    if rest and rest[0] == "diff" and "--check" in rest and not set(rest) & _LISTING_OPTIONS:
        # `git diff --check` prints nothing when it passes (a line that succeeded).
        return True
    return bool(rest) and rest[0] in _QUIET_GIT


def folder_of(path: str | None, project_id: str) -> str | None:
    """`path` as a folder of the project ("" for its root), or None when outside it: a home
    folder's path (`~/x`, `$HOME/x`), one through a variable or on a Windows drive is not
    the project's."""
    if path is None or path.rstrip("/") == project_id.rstrip("/"):
        return ""
    if path.startswith(("~", "$", "%")) or _DRIVE.match(path):
        return None
    inside = posixpath.normpath(relative_path(path, project_id))
    return None if inside.startswith(("/", "../")) or inside == ".." else inside


def moved_to(folder: str, tokens: list[str], project_id: str) -> str | None:
    """The folder a `cd`/`pushd` step moves to, or None when it leaves the project or cannot be
    told (`cd`, `cd -`, `cd ~/x`, `cd $DIR`)."""
    if len(tokens) != 2 or tokens[1].startswith(("-", "~", "$")):
        return None
    target = tokens[1]
    if target.startswith("/"):
        return folder_of(target, project_id)
    moved = posixpath.normpath(posixpath.join(folder, target))
    if moved == ".." or moved.startswith("../"):
        return None
    return "" if moved == "." else moved


def _listings(run: CommandRun, project_id: str) -> list[tuple[str, str]]:
    """(output format, folder its paths start from) of each listing command in `run`'s line;
    none when a step of the line prints something else or works outside the project."""
    folder = folder_of(run.cwd, project_id)
    found: list[tuple[str, str]] = []
    for tokens in run.segments:
        if folder is None:
            return []
        if tokens[0] in _MOVES:
            folder = moved_to(folder, tokens, project_id)
        elif kind := _kind(tokens):
            found.append((kind, folder if _from_folder(tokens) else ""))
        elif not _quiet(tokens):
            return []
    if folder is None or len({kind for kind, _ in found}) != len(set(found)):
        return []  # left the project, or one format printed from two folders: not told apart
    return list(dict.fromkeys(found))


def _paths(kind: str, output: str) -> list[str]:
    if kind == "json":
        return _JSON_PATH.findall(output)
    found: list[str] = []
    for line in output.splitlines():
        if kind == "patch":
            match = _PATCH_HEADER.match(line)
        elif kind == "status":
            match = _PORCELAIN.match(line) or _LONG_STATUS.match(line)
        elif kind == "changes":
            match = (
                _STAT.match(line)
                or _NUMSTAT.match(line)
                or _NAME_STATUS.match(line)
                or _BARE.match(line)
            )
        else:
            match = _BARE.match(line)
        if match:
            found.append(_new_name(match.group(1).split("\t")[-1]))
    return found


def _restored(run: CommandRun, project_id: str) -> list[str]:
    """The paths a lone `git checkout`/`git restore` (after a `cd` into the project at most) put
    back, when its output says it did: the arguments after `--`, or else every argument but
    options (and a `--source`), from the folder it ran in; a glob is no path."""
    if not _RESTORED.search(run.output):
        return []
    folder = folder_of(run.cwd, project_id)
    *moves, last = run.segments or [[]]
    for tokens in moves:
        if folder is None or tokens[0] not in _MOVES:
            return []
        folder = moved_to(folder, tokens, project_id)
    if folder is None or len(last) < 3 or last[0] != "git" or _elsewhere(last):
        return []
    rest = _after_global_options(last[1:])
    if not rest or rest[0] not in _RESTORES:
        return []
    arguments = rest[1:]
    if "--" in arguments:
        named = arguments[arguments.index("--") + 1 :]
    else:
        named, skip = [], False
        for token in arguments:
            if skip or token.startswith("-"):
                skip = token in _VALUED
                continue
            named.append(token)
    paths = []
    for token in named:
        inside = folder_of(token, project_id)
        if any(c in token for c in "*?[") or inside is None:
            continue
        paths.append(
            inside if token.startswith("/") else posixpath.normpath(posixpath.join(folder, token))
        )
    return paths


def listed_paths(runs: list[CommandRun], project_id: str) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every file a successful listing command printed in
    the project's own repository (module docstring): never after `cd` out of the project, nor
    with `git -C`, `--git-dir` or `gh --repo`."""
    found: list[tuple[str, str]] = []
    for run in runs:
        if run.ok is not True:
            continue
        printed_paths = [
            posixpath.normpath(posixpath.join(folder, printed)) if folder else printed
            for kind, folder in _listings(run, project_id)
            for printed in _paths(kind, run.output)
        ]
        for path in printed_paths + _restored(run, project_id):
            if path and not path.startswith(("/", "~", "..", ".../")) and "://" not in path:
                found.append((path, run.event_id))
    return found
