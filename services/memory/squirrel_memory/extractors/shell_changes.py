"""The project files a shell command changed without the session showing their new text.

An edit tool's call carries the text it writes; a command does not. `echo '- rule' >> AGENTS.md`,
`sed -i 's/make/just/' CLAUDE.md`, `tee NOTES.md`, `cp template.md README.md` or a script that
prints "Updated AGENTS.md" change a file, and only a later read would show how. A status or diff
run later shows that a file changed too (` M AGENTS.md`, `diff --git a/AGENTS.md b/AGENTS.md`,
` AGENTS.md | 7 +++++++`), without saying when or by what. The assistant's own report ("the script
updated `AGENTS.md`") says so as well. `changed_unseen` names, for one command run that did not
fail or one reply, each such file: made (the command itself wrote it) or only seen (a report or
a status/diff line, which an edit of the session's own may explain).
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import LISTERS, SHELL_READERS
from squirrel_memory.models import StoredEvent

#: Words that end one simple command and start the next.
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")", ";;", "|&"})
#: Redirections that write the file named next.
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>"})
#: Programs that rewrite their file operands in place given `-i`: the options that take a
#: script (so that no operand is the script).
_IN_PLACE = {"sed": ("-e", "-f", "--expression", "--file"), "perl": ("-e", "-pe", "-pie")}
#: Programs whose last operand is the file they write.
_COPIERS = frozenset({"cp", "mv", "install"})
#: A line of a command's output that reports a file it changed: "Updated AGENTS.md",
#: "wrote `docs/a.md`", "Modified: CLAUDE.md".
_REPORTED = re.compile(
    r"^\s*(?:updated|wrote|written|rewrote|rewritten|modified|regenerated|changed|appended to)"
    r":?\s+[`'\"]?(?P<path>[\w./@-]+\.\w{1,10})[`'\"]?\s*\.?\s*$",
    re.IGNORECASE | re.MULTILINE,
)
#: A short status line of a changed file (` M a.md`, `M  a.md`, `MM a.md`), a long one
#: (`\tmodified:   a.md`).
_STATUS = re.compile(
    r"^(?:[ MARCTU][MTU]|[MTU][ MARCTU]) (?P<short>\S+)$|^\s+modified:\s+(?P<long>\S+)$",
    re.MULTILINE,
)
#: A diff's file header or a diff stat's line.
_DIFF = re.compile(
    r"^diff --git a/\S+ b/(?P<git>\S+)$|^\+\+\+ b/(?P<plus>\S+)$|^ (?P<stat>\S+)\s+\|\s+\d+ [+-]",
    re.MULTILINE,
)
#: The assistant's report that a run changed a file: "The script updated `AGENTS.md`",
#: "regenerated CLAUDE.md" (past tense: a plan to change it is no report).
_SAID = re.compile(
    r"\b(?:updated|rewrote|regenerated|modified|appended to)\s+(?:the\s+file\s+)?"
    r"`?(?P<path>[\w./@-]+\.\w{1,10})`?",
    re.IGNORECASE,
)
_NOT_FILES = frozenset({"/dev/null", "/dev/stderr", "/dev/stdout"})


def _steps(command: str) -> list[list[str]]:
    """The simple commands of a shell line, each as its words (redirections as words of their
    own: `>>`, then the file); a here-document's body is no command, so only its first line is
    read."""
    if "<<" in command:
        command = command.split("\n", 1)[0]
    steps: list[list[str]] = []
    for line in command.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        lexer.commenters = ""
        try:
            words = list(lexer)
        except ValueError:
            continue
        step: list[str] = []
        for word in [*words, ";"]:
            if word in _SEPARATORS:
                if step:
                    steps.append(step)
                step = []
            else:
                step.append(word)
    return steps


def _file_like(word: str) -> bool:
    return not word.startswith("-") and "." in word.rsplit("/", 1)[-1]


def _in_place(program: str, word: str) -> bool:
    """Whether an option asks `program` to rewrite its files in place (`-i`, `-i.bak`, `-pi`)."""
    if word == "--in-place" or word.startswith("-i"):
        return True
    return program == "perl" and word.startswith("-") and not word.startswith("--") and "i" in word


def _written(words: list[str]) -> list[str]:
    """The files one simple command writes by its own words: a redirection's target, an
    in-place edit's or `tee`'s operands, a copy's destination."""
    found = [words[at + 1] for at, w in enumerate(words[:-1]) if w in _WRITES]
    words = [w for at, w in enumerate(words) if w not in _WRITES and words[at - 1] not in _WRITES]
    if not words:
        return found
    program, operands = words[0].rsplit("/", 1)[-1], words[1:]
    if program in _IN_PLACE and any(_in_place(program, w) for w in operands):
        plain = [w for w in operands if not w.startswith("-")]
        if program == "sed" and not any(w in _IN_PLACE["sed"] for w in operands):
            plain = plain[1:]  # the first operand is the script
        found.extend(w for w in plain if _file_like(w))
    elif program == "tee":
        found.extend(w for w in operands if _file_like(w))
    elif program in _COPIERS and len(files := [w for w in operands if _file_like(w)]) >= 2:
        found.append(files[-1])
    return found


def _git_step(words: list[str]) -> str:
    """The subcommand of a `git` call anywhere in the words (behind a wrapper too), or ''."""
    if "git" not in words:
        return ""
    rest = [w for w in words[words.index("git") + 1 :] if not w.startswith("-")]
    return rest[0] if rest else ""


def changed_unseen(event: StoredEvent) -> dict[str, bool]:
    """Each project file a command run changed or showed changed, its new text not shown →
    whether the command itself wrote it; empty for any other event and for a failed run."""
    content: dict[str, Any] = event.content
    command, output = content.get("command"), content.get("output")
    if event.event_type == EventType.ASSISTANT_RESPONSE and isinstance(content.get("text"), str):
        said = {m["path"] for m in _SAID.finditer(content["text"])}
        return {relative_path(path, event.project_id): False for path in said}
    if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return {}
    if not isinstance(command, str) or content.get("is_error") is True:
        return {}
    if content.get("exit_code") not in (None, 0):
        return {}
    text = output if isinstance(output, str) else ""
    found: dict[str, bool] = {}
    steps = _steps(command)
    for words in steps:
        for path in _written(words):
            found[path] = True
    git = {_git_step(words) for words in steps}
    programs = {words[0].rsplit("/", 1)[-1] for words in steps if words}
    # A report is a program's own line, not a file's or a log's text that it prints.
    printed = bool(programs & (SHELL_READERS | LISTERS)) or git != {""}
    seen = [] if printed else [m["path"] for m in _REPORTED.finditer(text)]
    if "status" in git:
        seen += [m["short"] or m["long"] for m in _STATUS.finditer(text)]
    if "diff" in git:
        seen += [m["git"] or m["plus"] or m["stat"] for m in _DIFF.finditer(text)]
    for path in seen:
        found.setdefault(path, False)
    return {
        relative_path(path, event.project_id): made
        for path, made in found.items()
        if path not in _NOT_FILES and not path.startswith("$")
    }
