"""How the sessions use git, the same way in every session: an option every commit, pull, merge
or push took (`git commit -s`, `git pull --rebase`), a branch made for each task, an issue
closed from the commit message ("Fixes #31").

A way of working is read from what was done, not said: when the sessions of a project keep
doing one thing session after session, that is how work is done here, whoever typed it. Only
ways that are a choice count: an option that is no default of git or of an assistant (`-m`, a
first push's `-u`, a co-author trailer say nothing), in `MIN_SESSIONS` sessions or more, and on
every run of that subcommand the sessions made (one run without it and the way is not kept: say
less rather than wrong). A run that failed, or one in another repository (`git -C /elsewhere`,
a `cd` out of the project), is not counted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from squirrel_core.shell_words import shell_tokens
from squirrel_memory.extractors.evidence.attempts import Attempt, Finding

#: Fewest sessions a way must be seen in.
MIN_SESSIONS = 2
#: Runs cited by a memory, newest last.
MAX_CITED = 10

#: The options that say how work is done, per subcommand: each with the words the memory says
#: it with. Synonyms share a name (`-s` and `--signoff`).
_WAY_OPTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "commit": {
        "-s": ("signoff", "carries a sign-off"),
        "--signoff": ("signoff", "carries a sign-off"),
        "-S": ("gpg", "is GPG-signed"),
        "--gpg-sign": ("gpg", "is GPG-signed"),
    },
    "pull": {
        "--rebase": ("rebase", "rebases onto what it fetched"),
        "-r": ("rebase", "rebases onto what it fetched"),
        "--ff-only": ("ff-only", "only fast-forwards"),
    },
    "merge": {
        "--no-ff": ("no-ff", "makes a merge commit, never a fast-forward"),
        "--ff-only": ("ff-only", "only fast-forwards"),
        "--squash": ("squash", "squashes the branch"),
    },
    "push": {"--force-with-lease": ("lease", "forces only with a lease")},
}
#: Options of `git commit` whose value is the next word.
_VALUED = frozenset({"-m", "--message", "-F", "--file", "-C", "-c", "--author", "--date"})
#: A message line that closes an issue: "Fixes #31", "Closes: #12", "resolves org/repo#4".
_CLOSES = re.compile(
    r"^[ \t]*(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)(?:[ \t]*:)?[ \t]+"
    r"(?:[\w.-]+/[\w.-]+)?#\d+[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
#: A new branch made for the work: `git switch -c NAME`, `git checkout -b NAME`.
_NEW_BRANCH = {"switch": ("-c", "--create"), "checkout": ("-b",)}


@dataclass(frozen=True, slots=True)
class _Run:
    """One git run of the project: its subcommand, its words after it, its attempt."""

    sub: str
    words: tuple[str, ...]
    attempt: Attempt


def git_ways(found: Sequence[Attempt]) -> list[Finding]:
    """The ways of using git the project's sessions keep to (module docstring)."""
    runs = [r for r in (_git_run(a) for a in found) if r is not None]
    ways = [*_option_ways(runs), *_closing_ways(runs)]
    branch = _branch_way(runs)
    if branch is not None:
        ways.append(branch)
    return ways


def _git_run(attempt: Attempt) -> _Run | None:
    """The git run `attempt` is, in the project and not failed; None otherwise."""
    if attempt.run.ok is False or attempt.scope.startswith(("/", "~", "..")):
        return None
    words = tuple(shell_tokens(attempt.text))
    if len(words) < 2 or words[0].rsplit("/", 1)[-1] != "git":
        return None
    if words[1].startswith("-"):
        return None  # `git -C dir …`, `git -c key=value …`: another repository or setting
    return _Run(words[1], words[2:], attempt)


def _sessions(runs: Sequence[_Run]) -> set[str]:
    return {r.attempt.run.session_id or "" for r in runs}


def _cited(runs: Sequence[_Run]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r.attempt.run.event_id for r in runs))[-MAX_CITED:]


def _option_ways(runs: Sequence[_Run]) -> list[Finding]:
    """An option every run of a subcommand took, in `MIN_SESSIONS` sessions or more."""
    found: list[Finding] = []
    for sub, options in _WAY_OPTIONS.items():
        of_sub = [r for r in runs if r.sub == sub]
        if len(_sessions(of_sub)) < MIN_SESSIONS:
            continue
        named = [{options[w] for w in _options(r.words) if w in options} for r in of_sub]
        for name, said in sorted(set.intersection(*named)) if named else []:
            typed = next(w for w in _options(of_sub[-1].words) if options.get(w, ("",))[0] == name)
            found.append(
                Finding(
                    "habit",
                    f"pref:git:{sub}:{name}",
                    f"Every `git {sub}` here {said}: `git {sub} {typed}` "
                    f"({len(of_sub)} runs in {len(_sessions(of_sub))} sessions).",
                    ("workflow", "git", sub, name),
                    _importance(len(_sessions(of_sub))),
                    _cited(of_sub),
                )
            )
    return found


def _options(words: Sequence[str]) -> list[str]:
    """The options among `words` (a value given to one left out; `-sm` read as `-s -m`)."""
    found: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word == "--":
            break
        if word.startswith("--"):
            found.append(word.split("=", 1)[0])
            skip = word in _VALUED
        elif word.startswith("-") and len(word) > 1:
            letters = word[1:]
            found.extend(f"-{letter}" for letter in letters)
            skip = f"-{letters[-1]}" in _VALUED
    return found


def _messages(words: Sequence[str]) -> list[str]:
    """The messages a commit's words give (`-m` each, `--message=`)."""
    found: list[str] = []
    for n, word in enumerate(words):
        if (word in ("-m", "--message") or re.fullmatch(r"-[a-zA-Z]*m", word)) and n + 1 < len(
            words
        ):
            found.append(words[n + 1])
        elif word.startswith("--message="):
            found.append(word.split("=", 1)[1])
    return found


def _closing_ways(runs: Sequence[_Run]) -> list[Finding]:
    """Commits that close an issue from their message, in `MIN_SESSIONS` sessions or more, and
    no commit with a message of its own in those sessions' way without one."""
    commits = [(r, "\n".join(_messages(r.words))) for r in runs if r.sub == "commit"]
    commits = [(r, message) for r, message in commits if message]
    closing = [(r, m) for r, m in commits if closing_line(m)]
    if len(_sessions([r for r, _ in closing])) < MIN_SESSIONS or len(closing) < len(commits):
        return []
    said = closing_line(closing[-1][1])
    shown = re.sub(r"\d+", "N", said)
    sessions = len(_sessions([r for r, _ in closing]))
    return [
        Finding(
            "habit",
            "pref:git:commit:closes",
            f"Commits close their issue with a “{shown}” line in the message (“{said}”; "
            f"{len(closing)} commits in {sessions} sessions).",
            ("workflow", "git", "commit", "issue"),
            _importance(sessions),
            _cited([r for r, _ in closing]),
        )
    ]


def closing_line(message: str) -> str:
    """The line of a commit message that closes an issue ("Fixes #31"), or ""."""
    found = _CLOSES.search(message)
    return found.group(0).strip() if found else ""


def _branch_way(runs: Sequence[_Run]) -> Finding | None:
    """A new branch made in every session that committed or pushed, before it did, in
    `MIN_SESSIONS` sessions or more."""
    made: dict[str, _Run] = {}
    delivered: set[str] = set()
    for run in runs:
        session = run.attempt.run.session_id or ""
        flags = _NEW_BRANCH.get(run.sub, ())
        if any(w in flags for w in run.words) and session not in delivered:
            made.setdefault(session, run)
        elif run.sub in ("commit", "push"):
            delivered.add(session)
    if len(made) < MIN_SESSIONS or not delivered <= set(made):
        return None
    names = [_branch_name(r) for r in made.values()]
    if len(set(names)) < len(names) or not all(names):
        return None  # the same branch again is one line of work, not a branch per task
    shown = ", ".join(f"`{n}`" for n in names[-3:])
    return Finding(
        "habit",
        "pref:git:branch_per_task",
        f"Each task gets a branch of its own, made before its first commit or push ({shown}; "
        f"{len(made)} sessions).",
        ("workflow", "git", "branch"),
        _importance(len(made)),
        _cited(list(made.values())),
    )


def _branch_name(run: _Run) -> str:
    words = list(run.words)
    for flag in _NEW_BRANCH.get(run.sub, ()):
        if flag in words and words.index(flag) + 1 < len(words):
            return words[words.index(flag) + 1]
    return ""


def _importance(sessions: int) -> float:
    return round(min(0.7, 0.5 + 0.05 * sessions), 2)
