"""Commands that only look: they print the state of the project, the machine or a file and
change nothing, so they never fix a failure nor are the change a lesson reports.

`LOOK_PROGRAMS` are programs that only look whatever their arguments (`ls`, `cat`, `grep`,
`pkg-config`, `ldd`, checksums …; `git` is looked at by its subcommand, `LOOK_GIT`);
`LOOK_VERBS` are subcommands and options that only show something, whatever the program
(`tool profile list`, `cargo metadata`, `brew --prefix`, `--version`).
"""

from __future__ import annotations

from collections.abc import Sequence

LOOK_PROGRAMS = frozenset(
    {"ls", "cat", "head", "tail", "grep", "rg", "find", "echo", "pwd", "wc", "sed", "awk", "tree"}
    | {"which", "sleep", "true", "diff", "less", "file", "stat", "jq", "git", "ps", "env"}
    # programs that only report the state of the machine or of a file
    | {"pkg-config", "printenv", "uname", "whereis", "locate", "type", "command", "hostname"}
    | {"df", "du", "lsof", "ldd", "otool", "nm", "readelf", "objdump", "xxd", "hexdump", "od"}
    | {"cmp", "md5sum", "sha256sum", "shasum", "id", "whoami", "date"}
)
#: Subcommands and options that only show something (`tool profile list`, `tool --help`).
LOOK_VERBS = frozenset(
    {"list", "ls", "show", "status", "view", "info", "describe", "help", "version", "get"}
    | {"search", "inspect", "doctor", "whoami", "log", "logs", "diff", "print", "env"}
    | {"which", "where", "ping", "health", "prefix", "metadata"}
)
#: git subcommands that only look.
LOOK_GIT = frozenset(
    {"status", "log", "diff", "show", "ls-files", "rev-parse", "describe", "blame", "shortlog"}
    | {"grep", "reflog", "ls-remote", "cat-file", "rev-list", "merge-base", "for-each-ref"}
    | {"name-rev", "whatchanged", "count-objects", "check-ignore", "var"}
)


def only_looks(tokens: Sequence[str]) -> bool:
    """Whether the command (its words, the program first) only looks (module docstring)."""
    if not tokens:
        return False
    program = tokens[0].rsplit("/", 1)[-1]
    if program == "git":
        return _git_subcommand(tokens[1:]) in LOOK_GIT
    if program in LOOK_PROGRAMS:
        return True
    return bool({t.lstrip("-") for t in tokens[1:4]} & LOOK_VERBS)


#: git's options before the subcommand that take a value (`git -C path status`).
_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})


def _git_subcommand(words: Sequence[str]) -> str:
    """git's subcommand: the first word that is neither an option nor an option's value."""
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _GIT_VALUED:
            skip = True
        elif not word.startswith("-"):
            return word
    return ""
