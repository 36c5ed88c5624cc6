"""Workflows: procedures the sessions repeat, as recipes with their steps in order.

A step is a command that did something (not a look-around, not a read-only `git`), named by
its program and its verbs (`issues show`, `git submodule update`, `mix ecto.gen.migration`)
in the folder it ran in; identifiers, paths and messages do not make another step. A run of
distinct steps that comes back in order — in two sessions, or three times in one — is a
procedure. The longest such runs are kept (a run inside a kept one is not repeated), and each
step is shown with the command as it was most often typed. Runs that only record work
(`git add` → `git commit` → `git push`: the end-of-session routine says that), only run
checks (the quality gate says that) or only install, build and check (`npm ci` → `npm test`:
the install and test recipes say that) are left to those recipes, and so is a procedure whose
every step, shown as run, is a step of the end-of-session routine, in the same order
(`covered_by`: the same recording steps run through a wrapper, `rtk git add` → `rtk git commit`,
are the routine's too).
"""

from __future__ import annotations

import re
import shlex
from collections import Counter
from dataclasses import dataclass, field

from squirrel_memory.extractors.evidence.attempts import CHECK_PURPOSES, Attempt, Finding
from squirrel_memory.extractors.evidence.state_looks import LOOK_GIT, LOOK_PROGRAMS

#: Steps in a workflow, fewest and most.
MIN_STEPS = 2
MAX_STEPS = 6
#: Workflows kept per project.
MAX_WORKFLOWS = 3
MAX_STEP_CHARS = 80
#: Shell built-ins and viewers that only move around or show: no step of a procedure.
_SHELL_ONLY = frozenset({"cd", "man", "history", "clear", "open"})
#: git subcommands no procedure is made of: the looks, and what only lists or updates refs.
_READ_ONLY_GIT = LOOK_GIT | {"branch", "remote", "fetch"}
#: What only records work in version control: the routine's, not a workflow's own steps.
_RECORDING_GIT = frozenset({"add", "commit", "push", "pull", "stash", "tag", "rm", "mv"})
#: An interpreter given code inline (`python -c …`, `node -e …`): a one-off script, no step.
_INLINE = frozenset({"-c", "-e", "--eval", "-p", "--print", "-r"})
#: What a command does to get a checkout ready: install its dependencies or build it.
_READYING = frozenset({"install", "build"})
_VERB = re.compile(r"^[a-z][a-z-]*(?:[.:][a-z][a-z-]*)*$")
_ABSOLUTE = re.compile(r"""(?:^|[\s='"])(?:/(?!dev/null)[\w.-]|~/)""")


@dataclass(frozen=True, slots=True)
class _Step:
    scope: str
    name: str
    records: bool
    checks: bool
    #: Installs dependencies or builds: what any session does before it tests.
    readies: bool = False


@dataclass(slots=True)
class _Seen:
    count: int = 0
    sessions: set[str] = field(default_factory=set)
    positions: list[tuple[str, int]] = field(default_factory=list)


def _step(attempt: Attempt) -> _Step | None:
    """The step a command is, or None when it only looks around."""
    if not attempt.tokens or looks_around(attempt) or attempt.scope.startswith("/"):
        return None
    if len(attempt.tokens) > 1 and attempt.tokens[1] in _INLINE:
        return None
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    verbs = [attempt.program]
    for word in words[:2]:
        if not _VERB.match(word):
            break
        verbs.append(word)
    records = attempt.program == "git" and bool(words) and words[0] in _RECORDING_GIT
    checks = attempt.use is not None and attempt.use.purpose in CHECK_PURPOSES
    readies = attempt.use is not None and attempt.use.purpose in _READYING
    return _Step(attempt.scope, " ".join(verbs), records, checks, readies)


def looks_around(attempt: Attempt) -> bool:
    """Whether a command only looks around: a reader (`ls`, `grep`) or a read-only `git`."""
    if attempt.program != "git" and attempt.program in LOOK_PROGRAMS | _SHELL_ONLY:
        return True
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    return attempt.program == "git" and (not words or words[0] in _READ_ONLY_GIT)


def workflows(found: list[Attempt]) -> list[Finding]:
    """The procedures `found` repeats, longest first (see the module docstring)."""
    sessions: dict[str, list[tuple[_Step, Attempt]]] = {}
    for attempt in found:
        if attempt.run.ok is False:
            continue
        step = _step(attempt)
        if step is None:
            continue
        sequence = sessions.setdefault(attempt.run.session_id or "", [])
        if sequence and sequence[-1][0] == step:
            sequence[-1] = (step, attempt)  # a repeated step is one step, as last run
            continue
        sequence.append((step, attempt))
    seen: dict[tuple[_Step, ...], _Seen] = {}
    for session, sequence in sessions.items():
        steps = [s for s, _ in sequence]
        for size in range(MIN_STEPS, MAX_STEPS + 1):
            last_end: dict[tuple[_Step, ...], int] = {}
            for start in range(len(steps) - size + 1):
                run = tuple(steps[start : start + size])
                if len(set(run)) < size or start < last_end.get(run, 0):
                    continue  # a step twice, or overlapping its previous occurrence
                last_end[run] = start + size
                entry = seen.setdefault(run, _Seen())
                entry.count += 1
                entry.sessions.add(session)
                entry.positions.append((session, start))
    chosen: list[tuple[tuple[_Step, ...], _Seen]] = []
    ranked = sorted(seen.items(), key=lambda kv: (-len(kv[0]), -kv[1].count))
    for run, entry in ranked:
        if not _repeated(run, entry) or _routine_only(run):
            continue
        if any(_inside(run, kept) or _rotation(run, kept) for kept, _ in chosen):
            continue
        chosen.append((run, entry))
        if len(chosen) >= MAX_WORKFLOWS:
            break
    return [_finding(run, entry, sessions) for run, entry in chosen]


_SHOWN_STEP = re.compile(r"`([^`]+)`")


def covered_by(workflow: Finding, routine: Finding) -> bool:
    """Whether every step of `workflow`, as it shows it, is a step of `routine` in the same
    order: the routine already says the procedure."""
    steps = _SHOWN_STEP.findall(workflow.content.partition(": ")[2])
    ahead = iter(_SHOWN_STEP.findall(routine.content.partition(": ")[2]))
    return len(steps) >= MIN_STEPS and all(step in ahead for step in steps)


def _repeated(run: tuple[_Step, ...], entry: _Seen) -> bool:
    if len(entry.sessions) >= 2:
        return entry.count >= 2
    return entry.count >= 3 and len(run) >= 3


def _routine_only(run: tuple[_Step, ...]) -> bool:
    """Only recording, checks, installs and builds: the routine's, the gate's or the install
    and test recipes say it (two sessions that both installed and ran the tests repeat no
    procedure of the project's own)."""
    return all(s.records or s.checks or s.readies for s in run)


def _inside(run: tuple[_Step, ...], kept: tuple[_Step, ...]) -> bool:
    size = len(run)
    return any(kept[i : i + size] == run for i in range(len(kept) - size + 1))


def _rotation(run: tuple[_Step, ...], kept: tuple[_Step, ...]) -> bool:
    """The same cycle entered at another step: all but one of its steps are the kept one's."""
    return len(set(run) & set(kept)) >= len(run) - 1


def as_run(attempts: list[Attempt], fallback: str) -> str:
    """A command as it was run across `attempts`: typed the same way most of the time, else
    the words its runs share with the changing ones marked (`_template`), else `fallback`."""
    usable = [
        a.text
        for a in attempts
        if not _ABSOLUTE.search(a.text) and "`" not in a.text and "\n" not in a.text.strip()
    ]
    typed = Counter(usable)
    text, count = typed.most_common(1)[0] if typed else (fallback, 0)
    if count < 2 and len(attempts) > 1:
        text = _template(usable) or fallback
    return fallback if len(text) > MAX_STEP_CHARS else text


def _shown(attempts: list[Attempt], step: _Step) -> str:
    """A step as it was run: the command typed the same way most of the time; when every run
    typed it differently (another message, name or id), the words they share with the ones
    that changed marked (`tracker show <n>`, `git commit -m "<text>"`); its program and verbs
    when neither can be shown whole."""
    text = as_run(attempts, step.name)
    where = f" (in `{step.scope}/`)" if step.scope else ""
    return f"`{text}`{where}"


#: An argument that assigns a value to a name (`version=2.3.0`, `image.tag=1.4`).
_ASSIGNED = re.compile(r"^[A-Za-z_][\w.-]*=")


def _template(texts: list[str]) -> str:
    """The words `texts` share, each word that differs shown as a placeholder (`<n>` for a
    number, `NAME=<value>` for the values one name is given, `"<text>"` for free text, `<name>`
    otherwise); "" when they do not line up word for word, differ in their options or share
    only their program."""
    try:
        split = [shlex.split(t) for t in texts]
    except ValueError:
        return ""
    if len(split) < 2 or len({len(words) for words in split}) != 1:
        return ""
    shown: list[str] = []
    for column in zip(*split, strict=True):
        if len(set(column)) == 1:
            shown.append(shlex.quote(column[0]) if " " in column[0] else column[0])
        elif any(w.startswith("-") for w in column):
            return ""  # other options, not other values: no one command to show
        elif all(w.lstrip("#").isdigit() for w in column):
            shown.append("<n>")
        elif name := _one_name(column):
            shown.append(f"{name}=<value>")  # `-f version=2.3.0`, `-f version=2.3.1`
        elif any(" " in w for w in column):
            shown.append('"<text>"')
        else:
            shown.append("<name>")
    kept = sum(1 for w in shown if not w.startswith(("<", '"<')))
    return " ".join(shown) if kept >= 2 else ""


def _one_name(column: tuple[str, ...]) -> str:
    """The name every word of `column` assigns a value to, when they all assign one name."""
    names = {w.partition("=")[0] if _ASSIGNED.match(w) else "" for w in column}
    return names.pop() if len(names) == 1 else ""


def _finding(
    run: tuple[_Step, ...], entry: _Seen, sessions: dict[str, list[tuple[_Step, Attempt]]]
) -> Finding:
    examples: list[list[Attempt]] = [[] for _ in run]
    event_ids: list[str] = []
    for session, start in entry.positions:
        for index, (_, attempt) in enumerate(sessions[session][start : start + len(run)]):
            examples[index].append(attempt)
            event_ids.append(attempt.run.event_id)
    steps = " → ".join(_shown(examples[i], step) for i, step in enumerate(run))
    spread = len(entry.sessions)
    where = f"in {spread} sessions" if spread >= 2 else "in one session"
    slug = re.sub(r"[^a-z0-9]+", "-", " ".join(s.name for s in run).lower()).strip("-")[:48]
    importance = 0.45 + 0.05 * min(entry.count - 1, 3) + 0.05 * min(spread - 1, 3)
    return Finding(
        "recipe",
        f"recipe:workflow:{slug}",
        f"A procedure done {entry.count} times {where}: {steps}.",
        ("recipe", "workflow", *dict.fromkeys(s.name.split()[0] for s in run)),
        round(min(0.75, importance), 3),
        tuple(dict.fromkeys(event_ids[-30:])),
    )
