"""A command the shell itself rejected before the program ran, kept as a lesson.

Some failures are the shell's, not the program's, and they come back in every session of a
user whose shell is zsh (or fish), whatever the project's language: the shell expands an
unquoted word meant for the program, and when the expansion finds nothing it stops the
command with its own line. The shell names the cause in that line, so the lesson needs no
guess; it is kept when the word was plainly meant for the program, the same for every
ecosystem:

- a glob that matched no file (`no matches found: --include=*.tsx` from zsh, `No matches for
  wildcard` from fish) in a word that is no path: an option (`--include=*.tsx`), a URL with
  `?` in it, or a package's extras (`.[dev]`). A path glob that matched nothing (`ls
  logs/*.json`) only says there were no such files, and says nothing here;
- a word that starts with `=` (`echo ====`), which zsh replaces with the path of the command
  it names and stops on when there is none (`=== not found`).

The word must stand unquoted in the command that printed the line (a log printed by `cat`
or a quoted word is no such failure). When a later command of the session passed with the
word quoted or escaped, that is the fix shown; otherwise the memory says the word has to be
quoted, which is what the shell's line means. One memory per cause (`pitfall:shell:glob`,
`pitfall:shell:equals`), from its first failure with a fix, else its first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun, commands, split_segments
from squirrel_memory.extractors.shown_commands import shown_command
from squirrel_memory.models import StoredEvent

MAX_COMMAND_CHARS = 100
GLOB_KEY = "pitfall:shell:glob"
EQUALS_KEY = "pitfall:shell:equals"

#: The shell's own line for a glob that matched nothing: zsh (run through `eval` by the host,
#: or as `zsh:1:`) and fish.
_NO_MATCH = re.compile(
    r"^(?:\(eval\):\d+|zsh(?::\d+)?): no matches found: (?P<zsh>\S.*?)\s*$"
    r"|^fish: No matches for wildcard '(?P<fish>[^']+)'",
    re.MULTILINE,
)
#: zsh's line for a `=word` it could not expand: the word after its first `=`.
_EQUALS = re.compile(r"^(?:\(eval\):\d+|zsh(?::\d+)?): (?P<name>\S+) not found\s*$", re.MULTILINE)
#: A package's extras (`.[dev]`, `pkg[test,docs]`): a name in brackets, no character range.
_EXTRAS = re.compile(r"[\w.-]*\[[A-Za-z]{2,}[\w-]*(?:,[A-Za-z][\w-]*)*\]")


@dataclass(frozen=True, slots=True)
class ShellExpansion:
    """A command the shell stopped: key, lesson, and the failed (and fixing) runs."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


def _meant_for_program(word: str) -> bool:
    """Whether an unmatched glob was an argument for the program, not a path to files: an
    option, a URL or a package's extras."""
    return word.startswith("-") or "://" in word or bool(_EXTRAS.fullmatch(word))


def _unquoted(word: str) -> re.Pattern[str]:
    """`word` standing bare between the shell's separators."""
    return re.compile(r"(?:^|(?<=[\s;&|(]))" + re.escape(word) + r"(?=$|[\s;&|)])")


def _shown(word: str, command: str) -> str:
    """The simple command that holds `word`, as typed; when too long to show whole, its
    program and the word."""
    pattern = _unquoted(word)
    segment = next((s for s in split_segments(command) if pattern.search(s)), command)
    shown = shown_command(segment, MAX_COMMAND_CHARS)
    return shown if word in shown else f"{segment.split()[0]} … {word}"


def _quoted_form(word: str, command: str) -> str | None:
    """`word` as `command` gives it with quotes or backslashes (`--include='*.tsx'`,
    `'.[dev]'`), or None when it does not, or gives it bare as well."""
    if _unquoted(word).search(command):
        return None
    between = r"['\"\\]?"
    pattern = between + between.join(re.escape(c) for c in word) + between
    for match in re.finditer(pattern, command):
        if any(c in match.group(0) for c in "'\"\\"):
            return match.group(0)
    return None


def _fix(failed: CommandRun, word: str, runs: list[CommandRun]) -> tuple[CommandRun, str] | None:
    """The first later run of the session that passed with `word` quoted, and the quoted
    word."""
    for run in runs:
        if run.timestamp <= failed.timestamp or run.session_id != failed.session_id:
            continue
        quoted = _quoted_form(word, run.command)
        if quoted is not None and run.ok and "no matches found" not in run.output:
            return run, quoted
    return None


def _glob_lesson(run: CommandRun, word: str, shell: str, runs: list[CommandRun]) -> ShellExpansion:
    shown = _shown(word, run.command)
    line = f"no matches found: {word}" if shell == "zsh" else f"No matches for wildcard '{word}'"
    fixed = _fix(run, word, runs)
    ending = (
        f"quoting it, `{fixed[1]}`, worked."
        if fixed
        else "a pattern meant for the program has to be quoted."
    )
    return ShellExpansion(
        GLOB_KEY,
        f"In this shell ({shell}), `{shown}` failed before the program ran: `{line}` (the shell "
        f"expands an unquoted `*`, `?` or `[…]` itself and stops when no file matches); {ending}",
        (run.event_id, *((fixed[0].event_id,) if fixed else ())),
    )


def _equals_lesson(run: CommandRun, word: str, runs: list[CommandRun]) -> ShellExpansion:
    shown = _shown(word, run.command)
    fixed = _fix(run, word, runs)
    ending = f"quoting it, `{fixed[1]}`, worked." if fixed else "such a word has to be quoted."
    return ShellExpansion(
        EQUALS_KEY,
        f"In this shell (zsh), `{shown}` failed with `{word[1:]} not found`: zsh replaces a word "
        f"that starts with `=` by the path of the command it names; {ending}",
        (run.event_id, *((fixed[0].event_id,) if fixed else ())),
    )


def _lessons_of(run: CommandRun, runs: list[CommandRun]) -> list[ShellExpansion]:
    found: list[ShellExpansion] = []
    for match in _NO_MATCH.finditer(run.output):
        word = match.group("zsh") or match.group("fish")
        if _meant_for_program(word) and _unquoted(word).search(run.command):
            found.append(_glob_lesson(run, word, "zsh" if match.group("zsh") else "fish", runs))
    for match in _EQUALS.finditer(run.output):
        word = "=" + match.group("name")
        if _unquoted(word).search(run.command):
            found.append(_equals_lesson(run, word, runs))
    return found


def shell_expansions(events: list[StoredEvent]) -> list[ShellExpansion]:
    """One lesson per cause the shell named in the episode's command outputs: its first
    failure with a fix seen, else its first."""
    runs = commands(events)
    chosen: dict[str, ShellExpansion] = {}
    for run in runs:
        for lesson in _lessons_of(run, runs):
            held = chosen.get(lesson.key)
            if held is None or (len(held.event_ids) == 1 and len(lesson.event_ids) > 1):
                chosen[lesson.key] = lesson
    return list(chosen.values())
