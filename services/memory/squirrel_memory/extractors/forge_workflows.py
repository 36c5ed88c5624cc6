"""How the project's forge is worked from the shell, as the session did it: reading a failed CI
run's log, opening a pull request, reviewing one, and merging one.

These come back in every project that has CI and pull requests, yet a session does each once:
the workflow rule (`evidence/workflows.py`) waits for a procedure to repeat and counts
`gh run view <id>` and `gh run view <id> --log-failed` as one step. So a command of either kind
that ran successfully makes its recipe at once, with its identifiers generalised (`<run-id>`,
`<number>`, `"<text>"`) and the options it was typed with kept: "Read a failed CI run's log with
`gh run view <run-id> --log-failed` (after `gh run view <run-id>` shows which job and step
failed)." / "Open pull requests with `gh pr create --draft --base main --head <value> --title
"<text>" --body-file <value>`." / "Merge pull requests with `gh pr merge <number> --squash
--delete-branch`." A pull request read with `gh pr view <number> --json …` is a review: its
recipe lists that run and the session's `gh pr view`, `gh pr diff` and `gh pr checks` runs of
the same pull request, each once, in the order run ("Review a pull request: `gh pr view
<number> --json title,body,files`; `gh pr diff <number>`."); a look at a pull request without
`--json`, or one named by its branch, is no review. The branch, title, body and file of one
pull request are its own. A failed or declined run, or one whose outcome is unknown, says
nothing. Without a merge run, a shell
script of the project read in the session that merges says how it does ("`scripts/merge.sh`
merges pull requests with `gh pr merge <number> --squash`."), its variables generalised too;
a commented-out line says nothing.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun, commands, relative_path
from squirrel_memory.extractors.file_reads import file_text, read_output
from squirrel_memory.models import StoredEvent

#: Options whose value is a message or title: shown as `"<text>"`.
_TEXT_OPTIONS = frozenset({"--subject", "--body", "-t", "-b", "--title", "--message", "-m"})
#: Options whose value is a file, an author or a branch: the run's own, shown as `<value>`.
_VALUE_OPTIONS = frozenset(
    {
        "--body-file",
        "-F",
        "--author-email",
        "--match-head-commit",
        "--head",
        "-H",
        "--source-branch",
    }
)
#: Options naming the repository, whose value is the next word.
_REPO_OPTIONS = frozenset({"-R", "--repo"})
_LOG_FLAGS = frozenset({"--log-failed", "--log"})
_SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh")
#: A merge command in a script's line, up to a redirection, pipe or the end of the command.
_MERGE_LINE = re.compile(r"\b(?:gh pr|glab mr) merge\b[^;|&>\n]*?(?=\s*(?:\d?>|[;|&]|$))")
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
        elif token.lstrip("#").isdigit() or token.startswith(("https://", "http://", "$")):
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


def _opens(runs: list[tuple[CommandRun, list[str]]]) -> ForgeWorkflow | None:
    """How the session opened a pull (merge) request: its last successful create."""
    opens = [
        (run, t) for run, t in runs if t[:3] in (["gh", "pr", "create"], ["glab", "mr", "create"])
    ]
    if not opens:
        return None
    run, tokens = opens[-1]
    what = "pull requests" if tokens[0] == "gh" else "merge requests"
    text = f"Open {what} with `{_general(tokens, '<number>')}`."
    return ForgeWorkflow("recipe:forge:open", text, (run.event_id,))


def _reviews(runs: list[tuple[CommandRun, list[str]]]) -> ForgeWorkflow | None:
    """How the session reviewed a pull request: its last `gh pr view <number> --json …` and the
    `gh pr view`, `gh pr diff` and `gh pr checks` runs of that pull request in its session,
    each step once, in the order run."""
    views = [
        (run, t)
        for run, t in runs
        if t[:3] == ["gh", "pr", "view"] and "--json" in t and _numbered(t) is not None
    ]
    if not views:
        return None
    last, tokens = views[-1]
    number = _numbered(tokens)
    steps: dict[str, str] = {}
    for run, t in runs:
        if (
            run.session_id == last.session_id
            and t[:2] == ["gh", "pr"]
            and t[2:3] in (["view"], ["diff"], ["checks"])
            and _numbered(t) == number
        ):
            shown = _general(t, "<number>")
            if len(shown) <= MAX_COMMAND_CHARS:
                steps.setdefault(shown, run.event_id)
    shown_view = _general(tokens, "<number>")
    if shown_view not in steps:
        return None
    text = "Review a pull request: " + "; ".join(f"`{step}`" for step in steps) + "."
    return ForgeWorkflow("recipe:forge:review", text, tuple(dict.fromkeys(steps.values())))


def _numbered(tokens: list[str]) -> str | None:
    """The pull request a `gh pr <verb>` names by its number or address (None for a branch,
    or for none: the current branch's)."""
    rest = tokens[3:]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in _REPO_OPTIONS else rest[1:]
    if not rest:
        return None
    selector = rest[0].lstrip("#")
    if selector.startswith(("https://", "http://")):
        selector = selector.rstrip("/").rsplit("/", 1)[-1]
    return selector if selector.isdigit() else None


def _script_merges(events: list[StoredEvent]) -> ForgeWorkflow | None:
    """How a shell script of the project the session read merges pull requests."""
    found: ForgeWorkflow | None = None
    for event in events:
        output = read_output(event)
        paths = [relative_path(p, event.project_id) for p in event.file_paths]
        path = next((p for p in paths if p.endswith(_SCRIPT_SUFFIXES)), None)
        if output is None or path is None or path.startswith(("/", "~", ".")):
            continue
        for line in file_text(output).splitlines():
            match = _MERGE_LINE.search(line)
            if match is None or line.lstrip().startswith("#"):
                continue
            try:
                tokens = shlex.split(match.group(0))
            except ValueError:
                continue
            shown = _general(tokens, "<number>")
            what = "pull requests" if tokens[0] == "gh" else "merge requests"
            text = f"`{path}` merges {what} with `{shown}`."
            found = ForgeWorkflow("recipe:forge:merge", text, (event.id,))
            break
    return found


def forge_workflows(events: list[StoredEvent]) -> list[ForgeWorkflow]:
    """The forge workflows the successful commands of `events` show (see the module doc)."""
    runs = [
        (run, tokens)
        for run in commands(events)
        if run.ok is True and not run.by_user
        for tokens in run.segments
        if tokens and tokens[0] in ("gh", "glab")
    ]
    found = [
        _ci_logs(runs),
        _opens(runs),
        _merges(runs) or _script_merges(events),
        _reviews(runs),
    ]
    return [
        f
        for f in found
        if f is not None
        and len(f.content) <= MAX_COMMAND_CHARS * (len(f.event_ids) + 1)
        and f.content.count("`") % 2 == 0
    ]
