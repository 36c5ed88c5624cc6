"""Where the project's work is tracked, as the sessions used its issue tracker's command line.

Many projects keep their tasks in a tracker that has a command line (`bd` for beads, `gh
issue`, `glab issue`, `jira issue`, `backlog task`, `git bug`), and the sessions drive it:
list what is open, claim, sync, comment, close. A later session should know the tracker and
its verbs before it reaches for a to-do list of its own. Passing runs of one tracker with two
verbs or more (`bd list`, `bd sync`), or in two sessions or more, make a project fact naming
the tracker and each verb as it was first typed, in the order the sessions used them. One
verb in one session (reading the issue the user named) says nothing, nor does a failed run, a
run whose failure a fallback hides (`|| true`, `|| echo …`), another repository's tracker
(`gh issue list -R owner/repo`, or a run in another checkout: `cd ../lib && gh issue list`),
or a tracker the user said the project stopped using ("we stopped using beads":
`disowned_tools`).
"""

from __future__ import annotations

import re
from collections.abc import Set

from squirrel_memory.extractors.activity import in_folder
from squirrel_memory.extractors.evidence.attempts import Attempt, Finding

IMPORTANCE = 0.55
MAX_VERBS = 5
MAX_SHOWN_CHARS = 60
#: Trackers by the words that start their commands, and how a person names them.
TRACKERS: dict[tuple[str, ...], str] = {
    ("bd",): "beads",
    ("gh", "issue"): "GitHub issues",
    ("glab", "issue"): "GitLab issues",
    ("jira", "issue"): "Jira",
    ("tea", "issues"): "Gitea issues",
    ("tea", "issue"): "Gitea issues",
    ("backlog", "task"): "Backlog.md",
    ("git", "bug"): "git-bug",
}
_VERB = re.compile(r"^[a-z][a-z-]*$")
#: Options naming another repository whose tracker a command reads.
_OTHER_REPOSITORY = frozenset({"-R", "--repo"})


def _tracked(attempt: Attempt) -> tuple[tuple[str, ...], str] | None:
    """(the tracker's words, the verb) of a passing tracker command, else None. A run whose
    failure a fallback hides (`bd ready 2>/dev/null || echo "not set up"`, `|| true`) shows
    nothing, nor does one about another repository's issues (`gh issue list -R owner/repo`)."""
    if attempt.run.ok is not True or not attempt.tokens or "||" in attempt.run.command:
        return None
    if attempt.scope.startswith(("/", "..", "~")):
        return None  # run in another checkout: that project's tracker
    if _OTHER_REPOSITORY & set(attempt.tokens) or any(
        t.startswith(("--repo=", "-R=")) for t in attempt.tokens
    ):
        return None
    words = (attempt.program, *attempt.tokens[1:])
    for prefix in TRACKERS:
        if words[: len(prefix)] == prefix:
            rest = [w for w in words[len(prefix) :] if not w.startswith("-")]
            if rest and _VERB.match(rest[0]):
                return prefix, rest[0]
    return None


def _shown(attempt: Attempt, prefix: tuple[str, ...], verb: str) -> str:
    """The command as typed when short, else its tracker words and verb with `…`."""
    text = attempt.text.strip()
    if len(text) <= MAX_SHOWN_CHARS and "\n" not in text:
        return f"`{text}`"
    return f"`{' '.join((*prefix, verb))} …`"


def task_tracker(
    found: list[Attempt], disowned: Set[str] = frozenset(), root: str = ""
) -> Finding | None:
    """The tracker the sessions used most, with its verbs in order (module docstring); none
    the user said the project no longer uses (`disowned`, lower-cased names or programs), and
    no run whose shell was outside the project's folder `root`."""
    uses: dict[tuple[str, ...], list[tuple[str, Attempt]]] = {}
    for attempt in found:
        tracked = _tracked(attempt)
        cwd = attempt.run.cwd
        if tracked is None or (root and cwd is not None and not in_folder(cwd, root)):
            continue
        prefix = tracked[0]
        if {prefix[0], TRACKERS[prefix].lower(), TRACKERS[prefix].split()[0].lower()} & disowned:
            continue
        uses.setdefault(prefix, []).append((tracked[1], attempt))
    best: tuple[tuple[str, ...], list[tuple[str, Attempt]]] | None = None
    for prefix, used in uses.items():
        verbs = {verb for verb, _ in used}
        sessions = {a.run.session_id for _, a in used}
        if len(verbs) < 2 and len(sessions) < 2:
            continue
        if best is None or len(used) > len(best[1]):
            best = (prefix, used)
    if best is None:
        return None
    prefix, used = best
    first: dict[str, Attempt] = {}
    for verb, attempt in used:
        first.setdefault(verb, attempt)
    shown = [_shown(a, prefix, verb) for verb, a in list(first.items())[:MAX_VERBS]]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    name = TRACKERS[prefix]
    command = " ".join(prefix)
    return Finding(
        "fact",
        f"fact:task_tracker:{command.replace(' ', '_')}",
        f"Work is tracked in {name} (`{command}`): the sessions ran {listed}.",
        ("tracker", name),
        IMPORTANCE,
        tuple(dict.fromkeys(a.run.event_id for _, a in used))[-20:],
    )
