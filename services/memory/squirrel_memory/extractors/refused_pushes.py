"""A push the forge refused: to a protected branch (GitHub `GH006`, GitLab's "not allowed to
push code to protected branches", a `protected branch hook declined`) or by the repository's
rules (GitHub `GH013`), with the rules the server lists below it and, when they ask for a
request, whether the session then opened one; or by push protection, for a secret the pushed
commits hold (its type and files, never its value). See `denied_access` for what each says."""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.refusal_parts import (
    MAX_LINE_CHARS,
    DeniedAccess,
    git_verb,
    output_lines,
    shown_command,
)
from squirrel_memory.extractors.wording import key_slug

_GITHUB_PROTECTED = re.compile(
    r"^(?:remote: )?error: GH006: Protected branch update failed"
    r" for refs/heads/(?P<branch>\S+?)\.?$"
)
_GITLAB_PROTECTED = re.compile(
    r"^(?:remote: )?(?:GitLab: )?You are not allowed to push code to protected branches"
)
_GITHUB_RULES = re.compile(
    r"^(?:remote: )?error: GH013: Repository rule violations found"
    r" for refs/heads/(?P<branch>\S+?)\.?$"
)
_REJECTED = re.compile(
    r"^! \[remote rejected\] \S+ -> (?P<branch>\S+) \((?P<why>protected branch hook declined"
    r"|pre-receive hook declined|push declined due to repository rule violations)\)$"
)
#: A reason line the forge gives below its refusal (`- 3 of 3 required status checks are
#: expected.`, `- Changes must be made through a pull request.`).
_REASON = re.compile(r"^remote: - (?P<reason>\S.*?)\s*$")
#: Rules whose way past is another branch and a pull (merge) request.
_THROUGH_REQUEST = re.compile(
    r"pull request|merge request|protected (?:branch|ref)|required status check", re.I
)
#: Rules listed below a refusal at most this many lines down.
MAX_RULE_LINES = 30
_CREATES = (["gh", "pr", "create"], ["glab", "mr", "create"])
MAX_RULES = 3

#: The forge's push protection found a secret in the pushed commits (GitHub's GH013 with
#: "Push cannot contain secrets", its older GH009, GitLab's "PUSH BLOCKED").
_SECRETS_BLOCKED = re.compile(
    r"^(?:remote:\s*)?(?:- Push cannot contain secrets|error: GH009: Secrets detected"
    r"|PUSH BLOCKED: Secrets detected)",
)
#: GitHub's secret heading: `—— GitHub Personal Access Token ——————`.
_SECRET_TYPE = re.compile(
    r"^(?:remote:\s*)?[—–]{2}\s+(?P<type>[A-Za-z][A-Za-z0-9 .()'/&+-]{1,60}?)\s+[—–]{2,}$"
)
#: GitHub's location: `path: src/api/client.ts:34`.
_SECRET_PATH = re.compile(r"^(?:remote:\s*)?path: (?P<path>[^\s:]+)(?::\d+)?$")
#: GitLab's location and type: `-- test.txt:2 GitLab Personal Access Token`.
_GITLAB_SECRET = re.compile(
    r"^(?:remote:\s*)?-- (?P<path>[^\s:]+)(?::\d+)? (?:\| )?"
    r"(?P<type>[A-Za-z][A-Za-z0-9 .()'/&+-]{1,60}?)$"
)
#: A long run of letters and digits: a value, never a secret's type or a path to name.
_VALUE_LIKE = re.compile(r"[A-Za-z0-9_]{24,}|[0-9a-f]{12,}")
MAX_SECRETS = 3


def _pushes(run: CommandRun) -> bool:
    """Whether `run` is (or holds) a `git push`, `git -C <dir> push` too."""
    return any(git_verb(tokens) == "push" for tokens in run.segments)


def protected_branch(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    """A push the remote refused to a protected branch or by the repository's rules, with the
    rules it lists and the request the session then opened (not push protection's secrets)."""
    if not _pushes(run):
        return None
    lines = output_lines(run.output)
    if any(_SECRETS_BLOCKED.match(line) for line in lines):
        return None  # push protection's, told by its own lesson or not at all
    seen, branch, forge = "", "", ""
    rules: list[str] = []
    for i, line in enumerate(lines):
        github = _GITHUB_PROTECTED.match(line) or _GITHUB_RULES.match(line)
        if github and not seen:
            seen, branch, forge = line.removeprefix("remote: "), github.group("branch"), "pull"
            rules = _rules(lines[i + 1 : i + 1 + MAX_RULE_LINES])
        elif _GITLAB_PROTECTED.match(line) and not seen:
            seen, forge = line.removeprefix("remote: ").removeprefix("GitLab: "), "merge"
        rejected = _REJECTED.match(line)
        if rejected and not branch and (forge or "protected" in rejected.group("why")):
            branch = rejected.group("branch")
            seen = seen or line
            forge = forge or "pull"
    if not seen or not branch or _pushed_later(run, runs, branch):
        return None
    line = clipped(seen, MAX_LINE_CHARS)
    listed = "; ".join(clipped(rule.rstrip("."), MAX_LINE_CHARS) for rule in rules)
    because = f" ({listed})" if listed else ""
    refused = f"the remote refused `{shown_command(run)}` with `{line}`{because}."
    if "GH013" in seen and not any(_THROUGH_REQUEST.search(rule) for rule in rules):
        # Rules of another kind (signed commits, a file path): no request is the way past.
        content = f"The repository's rules for `{branch}` refused pushes: {refused}"
        return DeniedAccess(f"pitfall:denied:protected:{branch}", content, (run.event_id,))
    content = (
        f"`{branch}` is a protected branch: {refused} Changes reach `{branch}` through another "
        f"branch and a {forge} request, not a direct push."
    )
    ids: tuple[str, ...] = (run.event_id,)
    opened = _opened_request(run, runs, branch)
    if opened is not None:
        create = next(" ".join(t[:3]) for t in opened.segments if t[:3] in _CREATES)
        content += (
            f" This session did so: it pushed another branch and opened the {forge} request "
            f"with `{create}`."
        )
        ids = (run.event_id, opened.event_id)
    return DeniedAccess(f"pitfall:denied:protected:{branch}", content, ids)


def _rules(lines: list[str]) -> list[str]:
    """The rules a forge lists below its refusal (`- Changes must be made through a pull
    request.`), up to the next refusal or the push's own lines."""
    rules: list[str] = []
    for line in lines:
        if not line.startswith("remote:"):
            break
        reason = _REASON.match(line)
        if reason and not _VALUE_LIKE.search(reason.group("reason")):
            rules.append(reason.group("reason"))
    return list(dict.fromkeys(rules))[:MAX_RULES]


def _opened_request(failed: CommandRun, runs: list[CommandRun], branch: str) -> CommandRun | None:
    """The successful `gh pr create` (`glab mr create`) of the session after the refused push,
    once another branch was pushed (by then or by itself), else None."""
    pushed_other = False
    other_branch = re.compile(rf"-> (?!{re.escape(branch)}$)\S+$", re.MULTILINE)
    for other in runs:
        if (
            other.session_id != failed.session_id
            or other.timestamp <= failed.timestamp
            or other.ok is not True
        ):
            continue
        if _pushes(other) and other_branch.search(other.output):
            pushed_other = True
        if pushed_other and any(t[:3] in _CREATES for t in other.segments):
            return other
    return None


def _pushed_later(failed: CommandRun, runs: list[CommandRun], branch: str) -> bool:
    """Whether a later push of the session updated `branch` (an admin's push, a rule lifted)."""
    updated = re.compile(rf"^\s*[+*]?\s*(?:\S+\s+)?\S+ -> {re.escape(branch)}$", re.MULTILINE)
    return any(
        other.ok
        and other.session_id == failed.session_id
        and other.timestamp > failed.timestamp
        and _pushes(other)
        and updated.search(other.output)
        for other in runs
    )


def pushed_secrets(run: CommandRun) -> DeniedAccess | None:
    """A push the forge's push protection blocked: the secret's type and where it is, never its
    value, its commit or the address that would let it through."""
    if not _pushes(run):
        return None
    lines = output_lines(run.output)
    if not any(_SECRETS_BLOCKED.match(line) for line in lines):
        return None
    kinds: list[str] = []
    paths: list[str] = []
    for line in lines:
        heading = _SECRET_TYPE.match(line)
        located = _SECRET_PATH.match(line)
        gitlab = _GITLAB_SECRET.match(line)
        if heading:
            kinds.append(heading.group("type"))
        elif located:
            paths.append(located.group("path"))
        elif gitlab:
            kinds.append(gitlab.group("type"))
            paths.append(gitlab.group("path"))
    kinds = [k for k in dict.fromkeys(kinds) if not _VALUE_LIKE.search(k)][:MAX_SECRETS]
    paths = [p for p in dict.fromkeys(paths) if not _VALUE_LIKE.search(p)][:MAX_SECRETS]
    if not kinds:
        return None
    what = _listed(kinds, article=True)
    where = f" in {_listed([f'`{p}`' for p in paths])}" if paths else ""
    content = (
        "The remote's push protection blocks commits that hold a secret: "
        f"`{shown_command(run)}` was refused for {what}{where}. Such a value stays out of "
        "committed files; a blocked push goes through once no pushed commit holds it."
    )
    key = f"pitfall:denied:push-protection:{paths[0] if paths else key_slug(kinds[0])}"
    return DeniedAccess(key, content, (run.event_id,), tuple(paths))


def _listed(items: list[str], *, article: bool = False) -> str:
    if article:
        items = [f"{'an' if i[:1].lower() in 'aeiou' else 'a'} {i}" for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
