"""How the project's forge is worked from the shell, as the session did it: reading a failed CI
run's log, and merging a pull request.

These come back in every project that has CI and pull requests, yet a session does each once:
the workflow rule (`evidence/workflows.py`) waits for a procedure to repeat and counts
`gh run view <id>` and `gh run view <id> --log-failed` as one step. So a command of either kind
that ran successfully makes its recipe at once, with its identifiers generalised (`<run-id>`,
`<number>`, `"<text>"`) and the options it was typed with kept: "Read a failed CI run's log with
`gh run view <run-id> --log-failed` (after `gh run view <run-id>` shows which job and step
failed)." / "Merge pull requests with `gh pr merge <number> --squash --delete-branch`." A failed
or declined run, or one whose outcome is unknown, says nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun, commands
from squirrel_memory.models import StoredEvent

#: Options whose value is a message or title: shown as `"<text>"`.
_TEXT_OPTIONS = frozenset({"--subject", "--body", "-t", "-b", "--title", "--message", "-m"})
#: Options whose value is a file or an author: the run's own, shown as `<value>`.
_VALUE_OPTIONS = frozenset({"--body-file", "-F", "--author-email", "--match-head-commit"})
_LOG_FLAGS = frozenset({"--log-failed", "--log"})
MAX_COMMAND_CHARS = 120
#: Importance of the recipe: one successful run of a workflow every such project repeats.
IMPORTANCE = 0.55


@dataclass(frozen=True, slots=True)
class ForgeWorkflow:
    """One forge workflow's recipe: its key, sentence and the runs behind it."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _general(tokens: list[str], placeholder: str) -> str:
    """A command with its identifiers, messages and per-run values replaced by placeholders."""
    shown: list[str] = []
    after = ""
    for token in tokens:
        if after in _TEXT_OPTIONS:
            shown.append('"<text>"')
        elif after in _VALUE_OPTIONS:
            shown.append("<value>")
        elif token.lstrip("#").isdigit() or token.startswith(("https://", "http://")):
            shown.append(placeholder)
        elif " " in token or "`" in token:
            shown.append('"<text>"')
        else:
            shown.append(token)
        after = token
    return " ".join(shown)


def _ci_logs(runs: list[tuple[CommandRun, list[str]]]) -> ForgeWorkflow | None:
    logs = [
        (run, t)
        for run, t in runs
        if (t[:3] == ["gh", "run", "view"] and _LOG_FLAGS & set(t))
        or t[:3] == ["glab", "ci", "trace"]
    ]
    if not logs:
        return None
    run, tokens = logs[-1]
    text = f"Read a failed CI run's log with `{_general(tokens, '<run-id>')}`"
    ids = [run.event_id]
    before = [
        (r, t)
        for r, t in runs
        if t[:3] == ["gh", "run", "view"]
        and not _LOG_FLAGS & set(t)
        and r.session_id == run.session_id
        and r.timestamp <= run.timestamp
    ]
    if before and tokens[:3] == ["gh", "run", "view"]:
        first, shown = before[-1]
        text += f" (after `{_general(shown, '<run-id>')}` shows which job and step failed)"
        ids.insert(0, first.event_id)
    return ForgeWorkflow("recipe:forge:ci-logs", text + ".", tuple(ids))


def _merges(runs: list[tuple[CommandRun, list[str]]]) -> ForgeWorkflow | None:
    merges = [
        (run, t) for run, t in runs if t[:3] in (["gh", "pr", "merge"], ["glab", "mr", "merge"])
    ]
    if not merges:
        return None
    run, tokens = merges[-1]
    what = "pull requests" if tokens[0] == "gh" else "merge requests"
    text = f"Merge {what} with `{_general(tokens, '<number>')}`."
    return ForgeWorkflow("recipe:forge:merge", text, (run.event_id,))


def forge_workflows(events: list[StoredEvent]) -> list[ForgeWorkflow]:
    """The forge workflows the successful commands of `events` show (see the module doc)."""
    runs = [
        (run, tokens)
        for run in commands(events)
        if run.ok is True and not run.by_user
        for tokens in run.segments
        if tokens and tokens[0] in ("gh", "glab")
    ]
    found = [_ci_logs(runs), _merges(runs)]
    return [
        f
        for f in found
        if f is not None
        and len(f.content) <= MAX_COMMAND_CHARS * 2
        and f.content.count("`") % 2 == 0
    ]
