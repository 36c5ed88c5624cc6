"""The project's files that git and gh commands of a session listed, without opening them.

A session that only reviews, plans, releases or writes docs touches no code file, yet the git
commands it ran print the project's files: `git status`, `git diff --stat` / `--name-only` /
`--name-status`, `git show --stat`, `git log --stat` / `--name-only`, `git ls-files`,
`gh pr view --json files`, `gh pr diff --name-only`. Those paths are weaker evidence of the
project's language than the files touched (`touched_languages`): they are read only from
commands that succeeded in the project's own repository, and only paths relative to it count
(a truncated `.../x.ts`, an absolute or `../` path does not; nor does a command run after a
`cd` or pointed at another repository). Renames count by their new name:
`a => b`, `src/{a => b}.ts`, `R100<TAB>a<TAB>b`, `R  a -> b`.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import CommandRun

#: git subcommands whose output lists files with one of these options.
_LISTING_OPTIONS = frozenset({"--stat", "--name-only", "--name-status", "--numstat"})
_FILE_LISTS = frozenset({"diff", "show", "log", "whatchanged"})
#: git options naming another repository or work tree: its files are not this project's.
_ELSEWHERE = frozenset({"-C", "--git-dir", "--work-tree"})
_GH_REPO = frozenset({"-R", "--repo"})

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


def _kind(tokens: list[str]) -> str | None:
    """The output format of one simple command that lists files, or None."""
    if len(tokens) >= 2 and tokens[0] == "git":
        if any(t in _ELSEWHERE or t.startswith(("--git-dir=", "--work-tree=")) for t in tokens):
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


def _paths(kind: str, output: str) -> list[str]:
    if kind == "json":
        return _JSON_PATH.findall(output)
    found: list[str] = []
    for line in output.splitlines():
        if kind == "status":
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


def listed_paths(runs: list[CommandRun], project_id: str) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every file a successful listing command printed in
    the project's own repository: a run of one simple command only (after `cd elsewhere &&`
    the output is another folder's), and none with `git -C`, `--git-dir` or `gh --repo`."""
    found: list[tuple[str, str]] = []
    for run in runs:
        if run.ok is not True:
            continue
        kinds = [kind for tokens in run.segments if (kind := _kind(tokens))]
        if len(kinds) != 1 or len(run.segments) != 1:
            continue
        for path in _paths(kinds[0], run.output):
            if path and not path.startswith(("/", "~", "..", ".../")) and "://" not in path:
                found.append((path, run.event_id))
    return found
