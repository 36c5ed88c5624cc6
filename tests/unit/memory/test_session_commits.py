"""The commit convention seen in the `git commit -m` commands run in sessions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.commits import CONVENTION_KEY
from squirrel_memory.extractors.session_commits import commit_message
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent
from tests.gitrepos import git, make_repo

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PROJECT = "/home/dev/manifest"


def _heredoc(message: str, before: str = "") -> str:
    return f"{before}git commit -m \"$(cat <<'EOF'\n{message}\nEOF\n)\""


def _events(
    commands: list[str], *, project: str = PROJECT, ok: bool = True, sessions: int = 1
) -> list[StoredEvent]:
    events: list[StoredEvent] = []
    for n, command in enumerate(commands):
        use_id = f"t{n}"
        for kind, content in (
            ("command_run", {"command": command, "tool_use_id": use_id, "cwd": project}),
            (
                "tool_result",
                {
                    "tool": "Bash",
                    "tool_use_id": use_id,
                    "output": "[main 17015f9] done" if ok else "error: pathspec did not match",
                    "is_error": not ok,
                    "exit_code": 0 if ok else 1,
                },
            ),
        ):
            events.append(
                StoredEvent(
                    id=f"evt_{len(events):04d}",
                    project_id=project,
                    user_id="dev",
                    source_tool="claude_code",
                    session_id=f"sess{n % sessions}",
                    timestamp=T0 + timedelta(minutes=10 * len(events)),
                    event_type=kind,
                    content=content,
                    file_paths=(),
                    hash=f"h{len(events)}",
                    origin="assistant",
                )
            )
    return events


def _convention(candidates: list[MemoryCandidate]) -> MemoryCandidate | None:
    return next((c for c in candidates if c.key == CONVENTION_KEY), None)


CONVENTIONAL = [
    _heredoc("docs: reorganize documentation\n\nRestructure the docs:\n- Add CONTRIBUTING.md"),
    _heredoc("feat: add support for tar archives", before="git add pkg/a.py && "),
    "git commit -am 'feat: report corrupted archives'",
    _heredoc("milestone: project health check status report"),
    "git commit --message='test: cover nested zips' && git push",
]


def test_conventional_subjects_committed_in_sessions_make_the_convention() -> None:
    found = _convention(evidence_candidates(_events(CONVENTIONAL, sessions=2)))
    assert found is not None
    assert found.type is MemoryType.PROJECT_FACT
    assert found.content == (
        "Commit subjects start with a Conventional Commits prefix `type: summary` (feat, docs, "
        "test) — 4 of 5 commits made in sessions follow it."
    )
    assert "convention" in found.tags
    assert len(found.source_event_ids) == 5


@pytest.mark.parametrize(
    "commands",
    [
        # Plain imperative subjects: the assistant's default style, no project convention.
        [
            _heredoc("Add tokenizer application files\n\n- Add index.html"),
            'git add -A && git commit -m "Fix relative paths for submodule deployment"',
            'git commit -m "Add rewrites for tokenizer assets"',
            'git commit -m "Update tokenizer submodule"',
        ],
        # Too few commits to tell.
        CONVENTIONAL[:2],
        # The same subject committed again (a retry) counts once.
        [_heredoc("feat: add tar support")] * 3,
        # Commits made in another repository (after a cd, or with git -C) say nothing here.
        [_heredoc(f"feat: thing {n}", before="cd /home/dev/other-repo && ") for n in range(4)]
        + [f"git -C /home/dev/other-repo commit -m 'fix: {n}'" for n in range(3)],
        # No message on the command line (an editor opens), or not a commit at all.
        ["git commit", "git commit --amend --no-edit", "git log -m 'feat: x'", "git status"],
    ],
    ids=["imperative", "too-few", "retries", "other-repo", "no-message"],
)
def test_no_convention_without_enough_prefixed_commits_of_this_project(
    commands: list[str],
) -> None:
    assert _convention(evidence_candidates(_events(commands))) is None


@pytest.mark.parametrize(
    ("first", "second", "shape"),
    [
        ("fix(auth): sign git operations", "feat(plugins): install from archives", "type(scope)"),
        ("docs: regenerate the reference", "fix: keep comments", "type: summary"),
    ],
)
def test_two_prefixed_subjects_made_in_two_sessions_make_the_convention(
    first: str, second: str, shape: str
) -> None:
    commands = [f"git commit -m '{first}'", f"git commit -m '{second}'"]
    found = _convention(evidence_candidates(_events(commands, sessions=2)))
    assert found is not None
    assert f"`{shape}" in found.content
    assert found.content.endswith("2 of 2 commits made in sessions follow it.")


@pytest.mark.parametrize(
    "subjects",
    [
        ("fix(auth): sign git operations", "Add archive installs"),
        ("Add archive installs", "Fix the credential helper"),
        ("fix: one", "fix: one"),
        ("wip: checkpoint the renderer", "wip: endnotes half done"),
    ],
    ids=["mixed", "plain", "one-subject", "checkpoints"],
)
def test_two_subjects_in_two_sessions_make_no_convention_unless_both_are_prefixed(
    subjects: tuple[str, str],
) -> None:
    commands = [f"git commit -m '{subject}'" for subject in subjects]
    assert _convention(evidence_candidates(_events(commands, sessions=2))) is None


def test_two_prefixed_subjects_beside_a_plain_project_log_make_no_convention() -> None:
    commands = ["git commit -m 'fix(auth): sign git operations'"]
    commands += ["git commit -m 'feat(plugins): install from archives'", "git log --oneline -5"]
    events = _events(commands, sessions=2)
    log = "a1b2c3d Add the archive reader\nb2c3d4e Fix the credential helper\nc3d4e5f Update docs\n"
    for event in events:
        if event.event_type == "tool_result" and event.content["tool_use_id"] == "t2":
            event.content["output"] = log
    assert _convention(evidence_candidates(events)) is None


def test_failed_commits_do_not_count() -> None:
    assert _convention(evidence_candidates(_events(CONVENTIONAL, ok=False))) is None


def test_a_read_repository_history_decides_instead(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    (root / "pkg").mkdir()
    (root / "pkg" / "app.py").write_text("def main():\n    return 1\n" * 50)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "Add the app")
    events = _events(CONVENTIONAL, project=str(root))
    assert _convention(evidence_candidates(events)) is None
    assert _convention(evidence_candidates(events, ("python",))) is None


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        (("git", "commit", "-m", "fix: x"), "fix: x"),
        (("git", "commit", "-am", "fix: x"), "fix: x"),
        (("git", "commit", "--amend", "--message=chore: y"), "chore: y"),
        (("git", "-C", "sub", "commit", "-m", "docs: z"), "docs: z"),
        (("git", "commit", "-m", "$(cat <<'EOF'\nfeat: a\n\nbody\nEOF\n)"), "feat: a\n\nbody"),
        (("git", "-C", "/elsewhere", "commit", "-m", "feat: a"), None),
        (("git", "commit", "-m"), None),
        (("git", "commit"), None),
        (("git", "log", "-m", "x"), None),
        (("hg", "commit", "-m", "x"), None),
        ((), None),
    ],
)
def test_commit_message(tokens: tuple[str, ...], message: str | None) -> None:
    assert commit_message(tokens) == message


def test_a_name_prefix_in_session_commits_is_not_read_as_a_convention() -> None:
    """`bob: round 1` names who committed as often as what changed."""
    commands = [f'git commit -m "{who}: round {n} research"' for n, who in enumerate("abcd")]
    assert _convention(evidence_candidates(_events(commands))) is None
    tracked = [f'git commit -m "SHOP-{n} fix the cart total"' for n in range(4)]
    found = _convention(evidence_candidates(_events(tracked)))
    assert found is not None and "tracker id" in found.content


LOG = (
    "067332e05 (HEAD -> fix/deploy) fix(ci): grant contents:write to the deploy\n"
    "975b50c98 chore: release 0.12.0 (#156)\n"
    "f1fa934bd fix(web): improve mobile layout (#154)\n"
    "2cee04e66 feat: add desktop binary build (#155)\n"
    "a083be9a5 chore: release 0.11.1 (#152)\n"
)


def _log_events(command: str, output: str, *, project: str = PROJECT) -> list[StoredEvent]:
    content = {"command": command, "tool_use_id": "log0", "cwd": project}
    content.update(output=output, exit_code=0, is_error=False)
    return [
        StoredEvent(
            id="evt_log",
            project_id=project,
            user_id="dev",
            source_tool="claude_code",
            session_id="sess0",
            timestamp=T0 + timedelta(days=1),
            event_type="command_run",
            content=content,
            file_paths=(),
            hash="h0",
            origin="assistant",
        )
    ]


def test_the_subjects_a_oneline_git_log_printed_make_the_convention() -> None:
    found = _convention(evidence_candidates(_log_events("git log --oneline -5", LOG)))
    assert found is not None
    assert found.content == (
        "Commit subjects start with a Conventional Commits prefix `type: summary` (fix, chore, "
        "feat) — 5 of 5 commits listed by `git log` in sessions follow it."
    )
    graph = "".join(f"* {line}\n" for line in LOG.splitlines())
    # Commits made in the session decide first: an older history does not outvote them.
    plain = "".join(f"abc{n:04d} Change {n}\n" for n in range(20))
    events = _events(CONVENTIONAL) + _log_events("git log --oneline", plain)
    made = _convention(evidence_candidates(events))
    assert made is not None and "made in sessions" in made.content
    assert _convention(evidence_candidates(_log_events("git log --graph --oneline", graph)))


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # Not one-line entries: the long format of one commit three times, a diff stat.
        ("git log -5", "commit 067332e05\nAuthor: A <a@x>\n\n    fix(ci): grant x\n" * 3),
        ("git log --oneline", "src/a.ts | 2 +-\nsrc/b.ts | 4 ++--\nsrc/c.ts | 1 +\n"),
        # Not a log: the same lines printed by another command.
        ("cat notes.txt", LOG),
        # Another repository's history says nothing here.
        ("cd /home/dev/other && git log --oneline -5", LOG),
        # Plain subjects: no convention.
        ("git log --oneline", "abc1234 Add x\nbcd2345 Fix y\ncde3456 Update z\n"),
    ],
    ids=["long-format", "stat", "not-a-log", "other-repo", "plain"],
)
def test_no_convention_from_output_that_is_not_this_projects_oneline_log(
    command: str, output: str
) -> None:
    assert _convention(evidence_candidates(_log_events(command, output))) is None


def _context(text: str, *, origin: str = "harness") -> list[StoredEvent]:
    """A user-role message: the host's injected context (a slash command's expansion) or not."""
    return [
        StoredEvent(
            id="evt_ctx",
            project_id=PROJECT,
            user_id="dev",
            source_tool="claude_code",
            session_id="sess0",
            timestamp=T0,
            event_type="user_message",
            content={"text": text},
            file_paths=(),
            hash="hctx",
            origin=origin,
        )
    ]


INJECTED = (
    "## Context\n\n- Current git status: On branch main\n"
    "diff --git a/README.md b/README.md\nindex 9b54408..ed016c1 100644\n"
    "- Current branch: main\n"
    f"- Recent commits: {LOG}\n## Your task\n\nCreate a single git commit.\n"
)


def test_the_recent_commits_a_commands_injected_context_listed_make_the_convention() -> None:
    found = _convention(evidence_candidates(_context(INJECTED)))

    assert found is not None and found.source_event_ids == ("evt_ctx",)
    assert found.content == (
        "Commit subjects start with a Conventional Commits prefix `type: summary` (fix, chore, "
        "feat) — 5 of 5 commits listed in the recent commits a command's context showed follow it."
    )
    # The project pass reads the injected messages apart from the stored commands.
    stored = _events(["git status"])
    assert _convention(evidence_candidates(stored, injected=_context(INJECTED)))
    assert _convention(evidence_candidates(stored + _context(INJECTED), injected=[])) is None


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        (INJECTED, "typed"),  # the user's own words are no log the session saw
        (INJECTED.replace("a083be9a5 chore: release 0.11.1 (#152)\n", ""), "harness"),  # four
        ("- Recent commits: abc1234 Add x\nbcd2345 Fix y\ncde3456 Update z\n" * 2, "harness"),
    ],
    ids=["typed", "too-few", "plain"],
)
def test_no_convention_from_a_short_plain_or_typed_list_of_commits(text: str, origin: str) -> None:
    assert _convention(evidence_candidates(_context(text, origin=origin))) is None


#: Three commits a Go module's log printed, between the outputs of other commands.
GO_COMPOUND = (
    'go vet ./... 2>&1 | tail -3; echo "---GIT---"; git log --oneline -3; git status --short',
    "---GIT---\n"
    "9f1c2ab feat(api): stream results (#88)\n"
    "3b7d0e1 fix(store): close rows on error (#87)\n"
    "c04a5f2 chore(deps): bump x/net to v0.30.0 (#86)\n"
    " M go.sum\n",
)
#: The same in a Python project, the log first and a listing after it.
PY_COMPOUND = (
    "git log --oneline -4 && ls src/",
    "0aa11bb fix: handle empty config\n"
    "1bb22cc feat: add --dry-run\n"
    "2cc33dd docs: explain the cache\n"
    "3dd44ee test: cover the parser\n"
    "app.py\ncli.py\nconfig.py\n",
)


@pytest.mark.parametrize(("command", "output"), [GO_COMPOUND, PY_COMPOUND], ids=["go", "python"])
def test_a_oneline_log_run_among_other_commands_makes_the_convention(
    command: str, output: str
) -> None:
    found = _convention(evidence_candidates(_log_events(command, output)))

    assert found is not None
    assert "Conventional Commits prefix" in found.content
    assert "listed by `git log` in sessions" in found.content


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # Entries that are not in a row: a stray line that looks like one is no log.
        (
            'git log --oneline -3; echo "--"; cat notes.txt',
            "9f1c2ab feat: a\n--\n3b7d0e1 fix: b\nsome note\nc04a5f2 chore: c\n",
        ),
        # The one-line entries come from another command of the run; no `git log --oneline`.
        ("git status --short; cat CHANGES", GO_COMPOUND[1]),
        # Another repository's log beside this project's commands.
        ("ls; git -C /home/dev/other log --oneline -3", GO_COMPOUND[1]),
        # Too few commits for a convention.
        (
            'echo "---"; git log --oneline -2; git status --short',
            "---\n9f1c2ab feat: a\n3b7d0e1 fix: b\n M go.sum\n",
        ),
    ],
    ids=["scattered", "no-log", "other-repo", "two"],
)
def test_no_convention_from_entries_another_command_or_repository_printed(
    command: str, output: str
) -> None:
    assert _convention(evidence_candidates(_log_events(command, output))) is None


@pytest.mark.parametrize(
    "command",
    [
        # this project's log beside another repository's: the output holds both, unmarked
        "git log --oneline -1; git -C /home/dev/other log --oneline -3",
        "git log --oneline -1 && cd ../other && git log --oneline -3",
    ],
)
def test_a_log_beside_another_repositorys_log_reads_neither(command: str) -> None:
    output = "0aa11bb Update readme\n" + GO_COMPOUND[1].split("\n", 1)[1]

    assert _convention(evidence_candidates(_log_events(command, output))) is None


def _long(sha: str, message: str) -> str:
    """One commit as `git show` and `git log` print it in git's long format."""
    indented = "".join(f"    {line}\n" if line else "    \n" for line in message.splitlines())
    return (
        f"commit {sha}\nAuthor: Dev <dev@example.com>\nDate:   Wed Sep 30 11:22:04 2026 -0400\n\n"
        f"{indented}"
    )


#: A pull request's squash commit: its body lists the commits it squashed.
SQUASH = _long(
    "a1c1d0af70784d10d370b478a7d951f3417f49a2",
    "ENG-2272 Show candidate nodes in search (#1489)\n\n"
    "* ENG-2272 Show candidate nodes in search\n\nAdd a toggle to the options menu.\n\n"
    "Co-Authored-By: Someone <s@example.com>\n\n"
    "* ENG-2272 Apply review fixes\n\n"
    '* Revert "ENG-2272 Keep every node type"\n\n'
    "* ENG-2272 Style the pill with a class",
)


def test_a_squash_commit_git_show_printed_makes_the_convention_with_its_tracker_key() -> None:
    command = "cd /home/dev/manifest; git show --stat a1c1d0af | head -40"
    found = _convention(evidence_candidates(_log_events(command, SQUASH + " src/a.ts | 2 +-\n")))

    assert found is not None and found.source_event_ids == ("evt_log",)
    assert found.content == (
        "Commit subjects start with the tracker id (`ENG-<number> summary`) — 3 of 3 commits "
        "shown by `git show` or `git log` in sessions follow it."
    )


def test_commits_a_long_format_git_log_printed_make_the_convention() -> None:
    output = "".join(
        _long(f"{n:07x}abc", subject)
        for n, subject in enumerate(["fix: close rows", "feat: stream results", "docs: explain x"])
    )
    found = _convention(evidence_candidates(_log_events("git log -3", output)))

    assert found is not None
    assert "Conventional Commits prefix" in found.content
    assert "3 of 3 commits shown by `git show` or `git log`" in found.content


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # One commit that is no squash: the bullets of its body are notes, not commits.
        (
            "git show HEAD",
            _long("0aa11bb", "ENG-1 Release 1.2\n\n* ENG-2 fix a\n* ENG-3 fix b\n* ENG-4 c"),
        ),
        # The same commits printed by another command, or by a log in another format.
        ("cat notes.txt", SQUASH),
        ("git log --format=medium -3", SQUASH),
        # Another repository's history.
        ("cd /home/dev/other && git show HEAD", SQUASH),
        # A header without its message.
        ("git show --stat HEAD", "commit 0aa11bb\nAuthor: Dev <d@x>\n src/a.ts | 2 +-\n"),
    ],
    ids=["not-a-squash", "not-git", "other-format", "other-repo", "no-message"],
)
def test_no_convention_from_long_format_output_that_shows_too_little(
    command: str, output: str
) -> None:
    assert _convention(evidence_candidates(_log_events(command, output))) is None


_PLAIN = [
    "Add a print stylesheet", "Fix the table of contents anchors", "Render footnotes as endnotes",
    "Update the README", "Remove the legacy theme", "Handle empty chapters", "Use the new parser",
    "Rename the export command", "Improve the index page", "Clarify the install steps",
]  # fmt: skip


def _oneline(subjects: list[str]) -> str:
    return "".join(f"{n:07x} {subject}\n" for n, subject in enumerate(subjects, 0xABC0000))


def test_plain_imperative_subjects_a_printed_log_listed_make_the_convention() -> None:
    found = _convention(evidence_candidates(_log_events("git log --oneline -10", _oneline(_PLAIN))))
    assert found is not None
    assert found.content == (
        "Commit subjects are plain sentences in the imperative mood (“Add …”, “Fix …”) with no "
        "Conventional Commits type prefix — 8 of 10 commits the sessions' logs listed start "
        "that way."
    )


@pytest.mark.parametrize(
    "subjects",
    [
        [*_PLAIN[:7], "feat: add x", "fix: y", "chore: z"],  # three prefixed in ten
        [f"Added {s.split(' ', 1)[1]}" for s in _PLAIN],  # past tense
        _PLAIN[:7],  # too few to tell
        [s.lower() for s in _PLAIN],  # not capitalised
        # A dependency bot's subjects are the bot's wording.
        [*(f"Bump lib{n} from 1.{n}.0 to 1.{n}.1" for n in range(8)), *_PLAIN[:3]],
        [*(f"Update dependency lib{n} to v{n + 2}" for n in range(8)), *_PLAIN[:3]],
    ],
    ids=["prefixed", "past", "too-few", "lower", "bumps", "updates"],
)
def test_no_plain_convention_from_a_log_of_other_or_too_few_subjects(subjects: list[str]) -> None:
    assert (
        _convention(evidence_candidates(_log_events("git log --oneline", _oneline(subjects))))
        is None
    )


def test_plain_subjects_the_assistant_committed_make_no_convention() -> None:
    commands = [f"git commit -m '{subject}'" for subject in _PLAIN]
    assert _convention(evidence_candidates(_events(commands, sessions=2))) is None


@pytest.mark.parametrize("command", ["rtk git log --oneline -5", "sudo git log --oneline -5"])
def test_a_log_run_through_a_wrapper_program_is_read_as_the_log(command: str) -> None:
    found = _convention(evidence_candidates(_log_events(command, LOG)))
    assert found is not None and "5 of 5 commits listed by `git log`" in found.content
    plain = _convention(evidence_candidates(_log_events(command, _oneline(_PLAIN))))
    assert plain is not None and "plain sentences in the imperative mood" in plain.content


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # A program that only prints the words after it runs no git.
        ("echo git log --oneline -5", LOG),
        ("man git log --oneline", LOG),
        # A path or an option first is no bare program name.
        ("./tool git log --oneline -5", LOG),
        # Through a wrapper, what was printed must still be a one-line log.
        ("rtk git log --oneline -5", "ok ✓ 5 commits\nsee the log above\n"),
        # Another repository's history, through a wrapper.
        ("rtk git -C /home/dev/other log --oneline -5", LOG),
    ],
    ids=["echo", "man", "path", "not-a-log", "other-repo"],
)
def test_no_convention_from_a_wrapped_log_that_is_no_log_of_this_project(
    command: str, output: str
) -> None:
    assert _convention(evidence_candidates(_log_events(command, output))) is None


def test_a_commit_through_a_wrapper_is_no_commit_made() -> None:
    events = _events(CONVENTIONAL)
    for event in events:
        command = event.content.get("command")
        if isinstance(command, str):
            event.content["command"] = command.replace("git commit", "rtk git commit")
    assert _convention(evidence_candidates(events)) is None
