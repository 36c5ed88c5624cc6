"""How the project is released, as a session released it: the steps in order, each as run.

A release is a procedure more than a command: the version is bumped where it is written, the
change log gets the release's section, the checks pass, the release is committed and a version
tag is made and pushed (the tag is often what publishes). A session shows the whole of it when
it creates a version tag (`git tag v1.4.2`, `git tag -a 1.4.2 -m …`) with a passing command
after bumping that same version in a version-keyed line (`version_files.bumped`) of one or more
files. The recipe then lists, in the order they were done between the first bump and the tag:

- the bump, naming its files;
- each other file an edit of that window wrote the new version into (the change log);
- each check (test, lint, format, type-check, build) that passed, as its command was typed
  (pipes to a pager or `tail` left off), at its last passing run;
- the commit, with its subject when the subject names the version;
- the tag command as run, with the push of the tag when a later command pushed it.

Pushes and bookmark moves between the commit and the tag (`git push origin main`, `jj bookmark
set main -r @`, `jj git push -b main`) are steps too, as run.

A version bumped before the session (an earlier session, a release tool) shows no bump; the
session still released when a passing commit of it names the tag's version (`git commit -m
"release 1.4.2"`, `jj describe -m "feat: … (v1.4.2)"`). The recipe then starts with the checks
that passed on what was committed (none ran before an edit that came after them), then the
commit with its subject, the pushes, and the tag (`release_commits`).

A tag made with neither a bump nor a commit of its version in the session, a tag listed or
deleted, a failed tag command, a bump to another version and a tag made in another checkout
(`cd ../lib && git tag v0.3.0`, a shell whose folder is elsewhere) say nothing: the session did
not show a release of this project.

When the session read the project's release document before the tag (`release_docs`), the
recipe names it and quotes its line on what a tag sets off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from squirrel_core.commands import typed_commands
from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import CommandRun, commands, outside_project
from squirrel_memory.extractors.differences import Edit, edits
from squirrel_memory.extractors.evidence.piped_runs import with_piped_outcomes
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.release_commits import (
    MAX_SUBJECT_CHARS,
    as_run,
    commit_subject,
    records_commit,
    releases,
    sent,
)
from squirrel_memory.extractors.release_docs import ReleaseDoc, release_docs, tag_line
from squirrel_memory.extractors.version_files import bumped
from squirrel_memory.models import StoredEvent

IMPORTANCE = 0.55
KEY = "recipe:release_steps"
MAX_CHECKS = 4
MAX_WRITTEN = 2
MAX_STEP_CHARS = 120
_PURPOSES = frozenset({"test", "lint", "format", "typecheck", "build"})
_TAG_NAME = re.compile(r"v?(?P<version>\d+\.\d+\.\d+(?:[-+][\w.]+)?)")
#: Options of `git tag` that list, delete or verify tags: no tag is made.
_NOT_MADE = frozenset({"-l", "--list", "-d", "--delete", "-v", "--verify", "-n", "--contains"})
#: Options of `git tag` followed by a value.
_VALUED = frozenset({"-m", "--message", "-F", "--file", "-u", "--local-user"})


@dataclass(frozen=True, slots=True)
class ReleaseSteps:
    """The steps of one release a session made: key, statement, events, files."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


def made_tag(tokens: list[str]) -> str:
    """The name of the tag a `git tag` command's tokens make, else ""."""
    if len(tokens) < 3 or tokens[0].rsplit("/", 1)[-1] != "git" or tokens[1] != "tag":
        return ""
    args = tokens[2:]
    if _NOT_MADE.intersection(args):
        return ""
    skip = False
    for token in args:
        if skip:
            skip = False
            continue
        if token in _VALUED:
            skip = True
            continue
        if token.startswith("-"):
            continue
        return token
    return ""


def _on_another_commit(tokens: list[str]) -> bool:
    """Whether a `git tag` command names the commit it tags (`git tag -a v3.4.0 a1b2c3d`), one
    other than the checkout's `HEAD`: a tag put after the fact on an old commit."""
    if not made_tag(tokens):
        return False
    named: list[str] = []
    skip = False
    for token in tokens[2:]:
        if skip:
            skip = False
        elif token in _VALUED:
            skip = True
        elif not token.startswith("-"):
            named.append(token)
    return len(named) > 1 and named[1] not in ("HEAD", "@")


def _deleted(tag: str, made: CommandRun, later: list[CommandRun]) -> bool:
    """Whether a later command of the session deleted `tag` (`git tag -d v2.1.0`, `git push
    origin --delete v2.1.0`, `git push origin :refs/tags/v2.1.0`)."""
    for run in later:
        if run.session_id != made.session_id:
            continue
        for tokens in run.segments:
            if tokens[:2] == ["git", "tag"] and {"-d", "--delete"} & set(tokens) and tag in tokens:
                return True
            if tokens[:2] == ["git", "push"] and (
                ({"-d", "--delete"} & set(tokens) and tag in tokens)
                or f":refs/tags/{tag}" in tokens
                or f":{tag}" in tokens
            ):
                return True
    return False


def pushed_tag(output: str, tag: str) -> bool:
    """Whether a push's output shows `tag` sent (`* [new tag]  v1.4.2 -> v1.4.2`): the tag was
    made and went out even when another ref of the same push was refused."""
    shape = re.compile(rf"^\s*\*\s+\[new tag\]\s+{re.escape(tag)}\s+->\s+{re.escape(tag)}\s*$")
    return any(shape.match(line) for line in output.splitlines())


def _typed(run: CommandRun) -> list[tuple[str, str | None]]:
    """Each simple command of `run` as typed, with its purpose (None when it has none)."""
    return [
        (t.text, t.use.purpose if t.use else None)
        for t in typed_commands(run.command, cwd="/", project_root="/")
    ]


def release_steps(events: list[StoredEvent]) -> list[ReleaseSteps]:
    """The newest release a session made with a version tag after bumping that version."""
    failed = {
        e.content.get("tool_use_id")
        for e in events
        if e.event_type == EventType.TOOL_RESULT and e.content.get("is_error") is True
    }
    calls = {
        e.id: e.content.get("tool_use_id") for e in events if e.event_type == EventType.TOOL_CALL
    }
    done = [e for e in edits(events) if calls.get(e.event_id) not in failed]
    # A check whose failure a pipe hid (`cabal test | tail` printing FAIL, exit 0) failed.
    runs = [run for run in with_piped_outcomes(commands(events), events) if not run.by_user]
    docs = release_docs(events)
    run_root = events[0].project_id if events else ""
    found: list[ReleaseSteps] = []
    for at, run in enumerate(runs):
        tag = next((name for tokens in run.segments if (name := made_tag(tokens))), "")
        version = _TAG_NAME.fullmatch(tag)
        if version is None or not (run.ok is True or pushed_tag(run.output, tag)):
            continue
        if any(_on_another_commit(tokens) for tokens in run.segments) or _deleted(
            tag, run, runs[at + 1 :]
        ):
            continue  # a tag put on an old commit, or taken back: no release of this session
        if outside_project(run, run_root):
            continue  # another checkout's release (`cd ../lib && git tag v0.3.0`)
        steps = _steps(
            run, runs[at + 1 :], runs[:at], done=done, version=version.group("version"), tag=tag
        )
        if steps is not None:
            found = [_documented(steps, docs, run)]
    return found


def _documented(steps: ReleaseSteps, docs: list[ReleaseDoc], tag_run: CommandRun) -> ReleaseSteps:
    """`steps` naming the release document the session read before the tag, with its line on
    what the tag sets off when it has one."""
    read = [
        d for d in docs if d.session_id == tag_run.session_id and d.timestamp < tag_run.timestamp
    ]
    if not read:
        return steps
    doc = read[-1]
    line = tag_line(doc.text, MAX_STEP_CHARS)
    said = (
        f' The release document `{doc.path}`, read first, says: "{line}"'
        if line
        else f" The release document, read first, is `{doc.path}`."
    )
    if line and not line.endswith((".", "!", "?")):
        said += "."
    return ReleaseSteps(
        steps.key,
        steps.content + said,
        (*steps.event_ids, doc.event_id),
        steps.files,
    )


def _steps(
    tag_run: CommandRun,
    later: list[CommandRun],
    earlier: list[CommandRun],
    *,
    done: list[Edit],
    version: str,
    tag: str,
) -> ReleaseSteps | None:
    session = tag_run.session_id
    ours = [e for e in done if e.session_id == session and e.timestamp < tag_run.timestamp]
    bumps = [
        e
        for e in ours
        if (change := bumped(e.before, e.after)) is not None and change[2] == version
    ]
    word = re.compile(rf"(?<![\d.]){re.escape(version)}(?![\w.])")
    if not bumps:
        return _unbumped(tag_run, later, earlier, ours, word=word, tag=tag)
    start = min(e.timestamp for e in bumps)
    bumped_files = list(dict.fromkeys(e.path for e in bumps))
    steps: list[tuple[datetime, str]] = [(start, "bump the version in " + _joined(bumped_files))]
    ids = [e.event_id for e in bumps]
    written: dict[str, datetime] = {}
    for e in ours:
        if e.timestamp >= start and e.path not in bumped_files and word.search(e.after):
            written.setdefault(e.path, e.timestamp)
    for path, when in list(written.items())[:MAX_WRITTEN]:
        steps.append((when, f"write `{version}` into `{path}`"))
    checks: dict[str, datetime] = {}
    commit: tuple[datetime, str, str] | None = None
    for run in earlier:
        if run.session_id != session or run.timestamp < start or run.ok is not True:
            continue
        for text, purpose in _typed(run):
            if purpose in _PURPOSES and len(text) <= MAX_STEP_CHARS:
                checks.pop(text, None)
                checks[text] = run.timestamp
            if text.startswith("git commit"):
                subject = commit_subject(run.command)
                shown = (
                    f"commit `{subject}`"
                    if word.search(subject) and len(subject) <= MAX_SUBJECT_CHARS
                    else "commit"
                )
                commit = (run.timestamp, shown, run.event_id)
    for text, when in list(checks.items())[-MAX_CHECKS:]:
        steps.append((when, f"`{text}`"))
    if commit is not None:
        steps.append((commit[0], commit[1]))
        ids.append(commit[2])
        after = [r for r in earlier if r.session_id == session and r.timestamp > commit[0]]
        steps.extend(sent(after, ids, MAX_STEP_CHARS))
    return _tagged(tag_run, later, steps, ids, tag=tag, files=bumped_files)


def _tagged(
    tag_run: CommandRun,
    later: list[CommandRun],
    steps: list[tuple[datetime, str]],
    ids: list[str],
    *,
    tag: str,
    files: list[str],
) -> ReleaseSteps | None:
    """The release's steps ending with the tag command as run, and its push when a later
    command of the session pushed it."""
    session = tag_run.session_id
    made = as_run(tag_run)
    if tag_run.ok is not True:
        # The tag went out, another ref of the same push was refused: the tag, then the push
        # as run, said to have sent the tag.
        pushes = [text for text in made if text.startswith("git push")]
        if not pushes:
            return None
        steps.append((tag_run.timestamp, f"`git tag {tag}` → push it (`{pushes[0]}` sent it)"))
        ids.append(tag_run.event_id)
        return _finding(steps, ids, tag, files)
    if not any(text.startswith("git push") for text in made):
        pushed = next(
            (
                text
                for run in later
                if run.session_id == session and run.ok is True
                for text in as_run(run)
                if text.startswith("git push") and ("--tags" in text or tag in text.split())
            ),
            "",
        )
        if pushed:
            made.append(pushed)
    shown = clipped(" && ".join(made), MAX_STEP_CHARS * 2)
    if not shown:
        return None
    steps.append((tag_run.timestamp, f"`{shown}`"))
    ids.append(tag_run.event_id)
    return _finding(steps, ids, tag, files)


def _unbumped(
    tag_run: CommandRun,
    later: list[CommandRun],
    earlier: list[CommandRun],
    ours: list[Edit],
    *,
    word: re.Pattern[str],
    tag: str,
) -> ReleaseSteps | None:
    """A release whose version was bumped before the session: its commit names the version
    (`git commit -m "release v1.4.2"`, `jj describe -m "… (v1.4.2)"`). The steps are the
    checks that passed on what was committed (no edit between them and the commit), the
    commit, the pushes and bookmark moves after it, then the tag; None without such a commit."""
    session = tag_run.session_id
    mine = [r for r in earlier if r.session_id == session and r.ok is True]
    made_at = next(
        (
            at
            for at in range(len(mine) - 1, -1, -1)
            if any(records_commit(text) for text in as_run(mine[at]))
            and releases(commit_subject(mine[at].command), word, tag)
        ),
        None,
    )
    if made_at is None:
        return None
    commit = mine[made_at]
    edited = [e.timestamp for e in ours if e.timestamp < commit.timestamp]
    since = max(edited, default=None)
    checks: dict[str, datetime] = {}
    for run in mine[:made_at]:
        if since is not None and run.timestamp < since:
            continue
        for text, purpose in _typed(run):
            if purpose in _PURPOSES and len(text) <= MAX_STEP_CHARS:
                checks.pop(text, None)
                checks[text] = run.timestamp
    steps = [(when, f"`{text}`") for text, when in list(checks.items())[-MAX_CHECKS:]]
    how = next(text for text in as_run(commit) if records_commit(text))
    tool = " ".join(how.split()[:2])
    named = f"commit `{commit_subject(commit.command)}`"
    steps.append((commit.timestamp, named if tool == "git commit" else f"{named} (`{tool}`)"))
    ids = [commit.event_id]
    steps.extend(sent(mine[made_at + 1 :], ids, MAX_STEP_CHARS))
    return _tagged(tag_run, later, steps, ids, tag=tag, files=[])


def _finding(
    steps: list[tuple[datetime, str]], ids: list[str], tag: str, files: list[str]
) -> ReleaseSteps:
    steps.sort(key=lambda step: step[0])
    content = f"To release, as `{tag}` was: " + " → ".join(text for _when, text in steps) + "."
    return ReleaseSteps(KEY, content, tuple(dict.fromkeys(ids)), tuple(files))


def _joined(paths: list[str]) -> str:
    named = [f"`{p}`" for p in paths]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
