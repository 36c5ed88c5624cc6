"""Commands that only report the state of something: a look, whatever program runs it.

A subcommand that lists, shows or plans (`docker ps`, `kubectl get pods`, `gh pr checks 57`,
`terraform plan`, `helm template`, `systemctl status x`) and any command given a rehearsal
option (`--dry-run`, `--check`, `--what-if`) change nothing; neither does a fetch of a URL
that sends no data and writes no file but `/dev/null` (`curl -s localhost:8000/health`), nor
an interpreter's one-liner that only imports and prints (`python -c 'import ssl;
print(ssl.OPENSSL_VERSION)'`).
Such a command run between a failure and its pass fixed nothing, and one run when the user
asked for a routine (run the tests) is not how the routine is done.

`only_looks` is the plainer test the fix rules and reported problems' lessons use: programs
that only look whatever their arguments (`LOOK_PROGRAMS`: `ls`, `cat`, `pkg-config`, `ldd`,
checksums …; `git` by its subcommand, `LOOK_GIT`), and subcommands and options that only show
something whatever the program (`LOOK_VERBS`: `tool profile list`, `cargo metadata`, `brew
--prefix`, `--version`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from squirrel_core.prefix_programs import behind_prefix

#: Subcommands that only show what is there, in any program's words.
_REPORTING = frozenset(
    {"ps", "get", "describe", "list", "ls", "show", "status", "view", "info", "inspect"}
    | {"logs", "log", "top", "stats", "images", "events", "history", "checks", "plan"}
    | {"template", "output", "outputs", "whoami", "version", "diff", "explain", "doctor"}
    # who needs what in the dependency graph (`cargo tree -i x`, `npm why x`, `go mod graph`)
    | {"tree", "why", "graph", "metadata", "dependencies", "dependency:tree", "outdated"}
)
#: Interpreters and the options that hand them code inline; code that only imports and
#: prints (`python -c 'import ssl; print(ssl.OPENSSL_VERSION)'`, `node -p process.version`)
#: reports the machine's state.
_INTERPRETER = re.compile(r"^(?:python\d*(?:\.\d+)?|node|ruby|perl|php|deno|bun)$")
_INLINE = frozenset({"-c", "-e", "--eval", "-p", "--print", "-r"})
_PRINTS_ONLY = re.compile(
    r"^\s*(?:import\s[\w.,\s]+|from\s+[\w.]+\s+import\s[\w.,\s*]+|"
    r"(?:print|console\.log|puts|p|pp|echo|var_dump|say)\b.*|"
    r"(?:const|let|var)?\s*\w+\s*=\s*require\([^()]*\))?\s*$"
)
#: Options of any program that rehearse rather than do.
_REHEARSAL = re.compile(
    r"^(?:--dry-?run(?:=\S*)?|--dry|--what-?if|--noop|--check-only|--plan)$", re.IGNORECASE
)
#: Programs that fetch a URL and print it (wget saves it unless told otherwise), and the words
#: that make a fetch change something: data or a method sent, a file uploaded or written.
_FETCHERS = frozenset({"curl", "http", "https", "xh"})
_SENDS = re.compile(
    r"^(?:-[A-Za-z]*[dFTX]\S*|--data\S*|--form\S*|--json|--upload-file|--request|--post-\S+|"
    r"--method\S*|POST|PUT|PATCH|DELETE|[\w-]+:?=\S*)$"
)
_WRITES = re.compile(r"^(?:-[A-Za-z]*[oO]|--output|--remote-name\S*|--download|-d)$")
_DISCARDED = frozenset({"/dev/null", "-"})
_WGET_LOOKS = frozenset({"--spider", "-qO-", "-O-"})


def rehearses(words: Sequence[str]) -> bool:
    """Whether a command's words hold a rehearsal option (`--dry-run`): it changes nothing."""
    return any(_REHEARSAL.match(w) for w in words)


def only_reports(program: str, words: Sequence[str]) -> bool:
    """Whether `program` given `words` (the words after it) only reports state: a rehearsal,
    a fetch that reads, an interpreter's one-liner that only prints, or a reporting
    subcommand among its first two (`gh pr checks`)."""
    if rehearses(words):
        return True
    if _INTERPRETER.match(program):
        return _prints_only(words)
    if program in _FETCHERS:
        return _fetch_only_reads(words)
    if program == "wget":
        return any(w in _WGET_LOOKS for w in words) or _discards(words, ("-O", "-qO"))
    positional = [w.lower() for w in words if not w.startswith("-")]
    return any(w in _REPORTING for w in positional[:2])


def _prints_only(words: Sequence[str]) -> bool:
    """Whether an interpreter's words are one inline program made only of imports and prints
    (`node -p expr` prints its expression)."""
    if len(words) < 2 or words[0] not in _INLINE:
        return False
    if words[0] in ("-p", "--print"):
        return "(" not in words[1]  # `node -p process.versions.openssl`: a value printed
    statements = re.split(r"[;\n]", words[1])
    return all(_PRINTS_ONLY.match(statement) for statement in statements)


def _fetch_only_reads(words: Sequence[str]) -> bool:
    for i, word in enumerate(words):
        if _WRITES.match(word):
            if i + 1 < len(words) and words[i + 1] in _DISCARDED:
                continue
            return False
        if _SENDS.match(word):
            return False
    return True


def _discards(words: Sequence[str], options: tuple[str, ...]) -> bool:
    return any(
        w in options and i + 1 < len(words) and words[i + 1] in _DISCARDED
        for i, w in enumerate(words)
    )


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
    tokens = behind_prefix(tokens, LOOK_PROGRAMS)  # `<wrapper> ps aux` looks as `ps aux` does
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
