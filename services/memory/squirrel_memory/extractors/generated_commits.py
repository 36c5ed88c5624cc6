"""A generator's output committed in the session: run the generator, then commit what it wrote.

Many projects keep generated files in the repository (rendered CLI docs, API clients, schema
types, lock-like snapshots) and a check that fails when they drift; the fix is to run the
generator and commit its output. One session shows that procedure once, in one of two ways:

- a generator ran and passed (its program, sub-command or task says it generates: `generate`,
  `gen`, `codegen`, `render`; never an option, and never a run the command table reads as a
  check), and a later commit of the session that passed staged files no edit tool of the
  session touched (the generator wrote them);
- or the assistant's reply named the generator as what to run with its output committed ("Fix:
  run `mise run render` and commit the resulting files"), and a later commit of the session
  that passed staged files that reply named (the link that it is this procedure, in this
  repository).

A generator whose last run failed, a commit that failed, a command run in another project's
folder or a commit made there (a scratch folder such as `/tmp`, where a worktree of the same
repository is often made, counts when the committed paths are the ones the reply named), a
reply that negates the command or names a place outside the project, and a plan never carried
out (no commit followed) say nothing. One recipe per generator, with the committed files as the
example: "Run `mise run render` and commit what it regenerates (here `docs/cli/index.md`, …)."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.commands import classify_command
from squirrel_core.events import EventType
from squirrel_core.negation import negated_before
from squirrel_memory.extractors.activity import CommandRun, commands, relative_path
from squirrel_memory.extractors.delegated_commands import names_elsewhere
from squirrel_memory.extractors.doc_roles import doc_command
from squirrel_memory.extractors.elsewhere import outside_root, ran_elsewhere
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "recipe:generated:"
#: A procedure seen once, whole: the generator and the commit of its output both passed.
IMPORTANCE = 0.5
MAX_FILES = 4
#: A generator's own words: a program, sub-command or task that generates or renders files.
_GENERATES = re.compile(
    r"(?:^|[\s:/_-])(?:re)?(?:gen|generate|codegen|render)(?:[\s:_-]|$)", re.IGNORECASE
)
_CODE_SPAN = re.compile(r"`([^`\n]{2,160})`")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: A sentence that has the command's output committed.
_COMMITS_OUTPUT = re.compile(
    r"\bcommit\b[^.!?\n]{0,60}\b(?:result\w*|regenerat\w*|generat\w*|render\w*|output|"
    r"changes?|files?|diff)\b",
    re.IGNORECASE,
)
#: A repository path named in a reply: a folder and a file with an extension.
_PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)+[\w.-]+\.\w{1,8})(?![\w/])")
_SCRATCH = re.compile(r"^/(?:(?:private/)?(?:var/)?tmp|var/folders)/")


@dataclass(frozen=True, slots=True)
class GeneratedCommit:
    """One generator's recipe: its key, statement and events."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    #: The generator's command and the files the commit took from it.
    command: str = ""
    paths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Commit:
    run: CommandRun
    paths: tuple[str, ...]


def _staged(run: CommandRun) -> list[str]:
    """The paths the run's `git add` words name (no flag, no `.`)."""
    found: list[str] = []
    for tokens in run.segments:
        if tokens[:2] == ["git", "add"]:
            found += [t for t in tokens[2:] if not t.startswith("-") and t not in (".", "*")]
    return found


def _commits(runs: list[CommandRun], root: str) -> list[_Commit]:
    """The commits that passed, each with the paths staged since the previous commit."""
    found: list[_Commit] = []
    staged: list[str] = []
    for run in runs:
        staged += _staged(run)
        if not any(tokens[:2] == ["git", "commit"] for tokens in run.segments):
            continue
        if run.ok is True and staged:
            paths = tuple(dict.fromkeys(relative_path(p, root) for p in staged))
            found.append(_Commit(run, paths))
        staged = []
    return found


def _elsewhere(run: CommandRun, root: str) -> bool:
    return bool(run.cwd and outside_root(run.cwd, root)) or ran_elsewhere(run.command, root)


def _statement(command: str, paths: tuple[str, ...]) -> str:
    shown = ", ".join(f"`{p}`" for p in paths[:MAX_FILES])
    more = ", …" if len(paths) > MAX_FILES else ""
    return f"Run `{command}` and commit what it regenerates (here {shown}{more})."


def _edited(events: list[StoredEvent], root: str) -> set[str]:
    found: set[str] = set()
    for event in events:
        if event.event_type != EventType.CODE_CHANGE:
            continue
        path = event.content.get("path")
        items = [path] if isinstance(path, str) else list(event.file_paths)
        found.update(relative_path(p, root) for p in items if p)
    return found


def _generates(command: str) -> bool:
    """Whether `command`'s program, sub-command or task says it generates (`go generate`,
    `npm run gen:types`), not an option or an argument (`cargo test --features codegen`), and
    the command table reads it as no check (a test, lint, format or type-check run)."""
    words = command.split()
    head = " ".join(w for w in words[:3] if not w.startswith("-"))
    use = classify_command(command)
    checks = use is not None and use.purpose in ("test", "lint", "format", "typecheck")
    return bool(_GENERATES.search(head)) and not checks


def _ran_generators(
    runs: list[CommandRun], commits: list[_Commit], edited: set[str], root: str
) -> list[GeneratedCommit]:
    found: list[GeneratedCommit] = []
    last: dict[str, CommandRun] = {}
    for run in runs:
        command = " ".join(run.command.split())
        if _generates(command) and not _elsewhere(run, root):
            last[command] = run
    for command, run in last.items():
        if run.ok is not True or "\n" in run.command or "git " in command:
            continue
        later = [
            c
            for c in commits
            if c.run.timestamp > run.timestamp
            and not _elsewhere(c.run, root)
            # the generator wrote them: no edit tool of the session touched them
            and [p for p in c.paths if p not in edited]
        ]
        if later:
            paths = tuple(p for p in later[0].paths if p not in edited)
            found.append(
                GeneratedCommit(
                    KEY_PREFIX + key_slug(command),
                    _statement(command, paths),
                    (run.event_id, later[0].run.event_id),
                    command,
                    paths,
                )
            )
    return found


def _named_generators(
    events: list[StoredEvent], runs: list[CommandRun], commits: list[_Commit], root: str
) -> list[GeneratedCommit]:
    failed = {" ".join(r.command.split()) for r in runs if r.ok is False}
    passed = {" ".join(r.command.split()) for r in runs if r.ok is True}
    found: list[GeneratedCommit] = []
    for event in events:
        text = event.content.get("text")
        if event.event_type != EventType.ASSISTANT_RESPONSE or event.sidechain:
            continue
        if not isinstance(text, str):
            continue
        named = set(_PATH.findall(text))
        for sentence in _SENTENCE.split(text):
            if not _COMMITS_OUTPUT.search(sentence) or names_elsewhere(sentence, root):
                continue
            for match in _CODE_SPAN.finditer(sentence):
                command = doc_command(match.group(1))
                if command is None or negated_before(sentence, match.start()):
                    continue
                if command in failed and command not in passed:
                    continue  # it only ever failed here
                later = [
                    c
                    for c in commits
                    if c.run.timestamp > event.timestamp
                    and set(c.paths) & named
                    and not (_elsewhere(c.run, root) and not _SCRATCH.match(c.run.cwd or ""))
                ]
                if later:
                    found.append(
                        GeneratedCommit(
                            KEY_PREFIX + key_slug(command),
                            _statement(command, later[0].paths),
                            (event.id, later[0].run.event_id),
                            command,
                            later[0].paths,
                        )
                    )
    return found


def generated_commits(events: list[StoredEvent]) -> list[GeneratedCommit]:
    """One recipe per generator whose output a commit of the session took (module docstring)."""
    if not events:
        return []
    root = events[0].project_id
    runs = commands(events)
    commits = _commits(runs, root)
    if not commits:
        return []
    found = _ran_generators(runs, commits, _edited(events, root), root)
    found += _named_generators(events, runs, commits, root)
    return list({g.key: g for g in found}.values())
