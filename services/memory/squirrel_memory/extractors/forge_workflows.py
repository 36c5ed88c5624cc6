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
--delete-branch`." A request read in full is a review, on either forge
(a table of each one's verbs, not code per tool): a pull request read with `gh pr view <number>
--json …` (its number or address, after any option's value), its recipe listing that run and
the session's `gh pr view`, `gh pr diff` and `gh pr checks` runs of the same pull request; a
merge request read with `glab mr view <number> --comments` (`-c`, `-F json`), with the session's
`glab mr view`, `glab mr diff` and `glab mr checkout` runs of it and, once it is checked out,
`glab ci status` of its branch. Each step once, in the order run ("Review a pull request: `gh pr
view <number> --json title,body,files`; `gh pr diff <number>`."); the forge of the last such
read gives the recipe. A look at a request without a full read, or one named by its branch, is
no review. The branch, title, body and file of one
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
from datetime import datetime

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


def _general(tokens: list[str], placeholder: str, kept: frozenset[str] = frozenset()) -> str:
    """A command with its identifiers, messages and per-run values replaced by placeholders
    (the values of the `kept` options aside)."""
    shown: list[str] = []
    after = ""
    for token in tokens:
        if after in kept:
            shown.append(token)
        elif after in _TEXT_OPTIONS:
            shown.append('"<text>"')
        elif after in _VALUE_OPTIONS:
            shown.append("<value>")
        elif token.lstrip("#!").isdigit() or token.startswith(("https://", "http://", "$")):
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


@dataclass(frozen=True, slots=True)
class _Forge:
    """How one forge's command line reviews a request: its program and noun, the verbs that
    look at one request, the options of a full read, and those whose value is a word to keep."""

    program: str
    noun: str
    what: str
    #: Verbs that look at one request named by its number (`gh pr diff 12`).
    looks: tuple[str, ...]
    #: Options of a view that read the request in full, as a review does (`--json`).
    full: frozenset[str]
    #: Options whose value is the next word (`--jq <filter>`, `-F json`).
    valued: frozenset[str] = frozenset()
    #: Of those, the ones whose value is shown as typed (`-F json`).
    kept: frozenset[str] = frozenset()
    #: Commands of the checked-out request's branch (`glab ci status`), kept after its checkout.
    branch_steps: tuple[tuple[str, str], ...] = ()


_FORGES = (
    _Forge(
        program="gh",
        noun="pr",
        what="pull request",
        looks=("view", "diff", "checks"),
        full=frozenset({"--json"}),
        valued=frozenset({"--json", "-q", "--jq", "-t", "--template"}),
    ),
    _Forge(
        program="glab",
        noun="mr",
        what="merge request",
        looks=("view", "diff", "checkout"),
        full=frozenset({"-c", "--comments", "-F", "--output"}),
        valued=frozenset({"-F", "--output"}),
        kept=frozenset({"-F", "--output"}),
        branch_steps=(("ci", "status"),),
    ),
)


def _reviews(runs: list[tuple[CommandRun, list[str]]]) -> ForgeWorkflow | None:
    """How the session reviewed a request, on the forge of the last full read of one."""
    found = [r for forge in _FORGES if (r := _review(forge, runs)) is not None]
    return max(found, key=lambda r: r[0])[1] if found else None


def _review(
    forge: _Forge, runs: list[tuple[CommandRun, list[str]]]
) -> tuple[datetime, ForgeWorkflow] | None:
    """How the session reviewed a request of `forge`: its last full view of a numbered request
    (`gh pr view <number> --json …`) and the looks at that request in its session, with the
    commands of its branch once checked out, each step once, in the order run."""
    head = [forge.program, forge.noun]
    views = [
        (run, t)
        for run, t in runs
        if t[:3] == [*head, "view"]
        and forge.full & {w.split("=", 1)[0] for w in t}
        and _numbered(t, forge.valued) is not None
    ]
    if not views:
        return None
    last, tokens = views[-1]
    number = _numbered(tokens, forge.valued)
    steps: dict[str, str] = {}
    checked_out = False
    for run, t in runs:
        if run.session_id != last.session_id:
            continue
        looks = (
            len(t) > 2
            and t[:2] == head
            and t[2] in forge.looks
            and _numbered(t, forge.valued) == number
        )
        on_branch = checked_out and tuple(t[1:3]) in forge.branch_steps and t[0] == forge.program
        if looks or on_branch:
            shown = _general(t, "<number>", forge.kept)
            if len(shown) <= MAX_COMMAND_CHARS:
                steps.setdefault(shown, run.event_id)
        checked_out = checked_out or (looks and t[2] == "checkout")
    shown_view = _general(tokens, "<number>", forge.kept)
    if shown_view not in steps:
        return None
    text = f"Review a {forge.what}: " + "; ".join(f"`{step}`" for step in steps) + "."
    ids = tuple(dict.fromkeys(steps.values()))
    return last.timestamp, ForgeWorkflow("recipe:forge:review", text, ids)


def _numbered(tokens: list[str], valued: frozenset[str] = frozenset()) -> str | None:
    """The request a `gh pr <verb>` (`glab mr <verb>`) names by its number or address (None
    for a branch, or for none: the current branch's)."""
    rest = tokens[3:]
    while rest and rest[0].startswith("-"):
        takes_value = rest[0] in _REPO_OPTIONS or rest[0] in valued
        rest = rest[2:] if takes_value else rest[1:]
    if not rest:
        return None
    selector = rest[0].lstrip("#!")
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
