"""The offline session rules on projects that are not code: a notes vault, an experiments
folder of git worktrees, analysis scripts without a manifest, dotfiles and a docs site.

Each project's sessions read its README, list its folders, write files, run its scripts and
commit, as assistants do in such folders. The rules must note what the folder is for and how
its work is done, and state nothing a senior engineer would not: no language from one stray
file, no test command from a one-off script run, no file listing as a memory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.pitfalls import first_line
from squirrel_memory.extractors.rules import RulesExtractor, evidence_candidates
from squirrel_memory.models import MemoryCandidate, StoredEvent
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 5, 8, tzinfo=UTC)


@dataclass(frozen=True)
class Project:
    """One kind of non-code project: its sessions and what its memories must (not) say."""

    name: str
    root: str
    sessions: Callable[[str], list[Session]]
    about: tuple[str, ...]  # words the "what it is" fact must carry
    must: tuple[tuple[str, ...], ...]  # each: words one memory must carry together
    never: tuple[str, ...]  # words no memory may carry (case-insensitive)
    #: The only language statement allowed: the code a session wrote and ran ("" for none).
    language: str = ""


# --- a notes vault ------------------------------------------------------------------------

VAULT_README = """# Field notes

A personal knowledge base of meeting notes, reading notes and weekly reviews, kept as plain
markdown and opened in Obsidian.

## Layout

- `daily/` one note per day, named `YYYY-MM-DD.md`
- `reading/` notes on books and papers
- `reviews/` weekly reviews
"""
VAULT_LS = "daily\nreading\nreviews\ntemplates\nREADME.md\n"
VAULT_DAILY_LS = "2026-04-28.md\n2026-04-29.md\n2026-04-30.md\n2026-05-01.md\n"


def vault(root: str) -> list[Session]:
    first = Session(root, "v1", T0)
    first.user("Have a look at this vault and add today's note from the meeting below.")
    first.read("README.md", VAULT_README)
    first.run("ls", 0, VAULT_LS)
    first.run("ls daily | tail -4", 0, VAULT_DAILY_LS)
    first.write("daily/2026-05-04.md", "# 2026-05-04\n\n- Met Ana about the Q3 plan.\n")
    first.run("git add daily/2026-05-04.md && git commit -m 'daily: 2026-05-04'", 0, "1 file")
    second = Session(root, "v2", T0 + timedelta(days=1))
    second.user("Add a reading note for the book I finished, and commit it.")
    second.run("ls reading", 0, "deep-work.md\nthe-mythical-man-month.md\n")
    second.write(
        "reading/a-philosophy-of-software-design.md", "# A Philosophy of Software Design\n"
    )
    second.run(
        "git add reading/a-philosophy-of-software-design.md && git commit -m 'reading: apsd'",
        0,
        "1 file changed",
    )
    return [first, second]


# --- an experiments folder of git worktrees ---------------------------------------------

EXPERIMENTS_CLAUDE = """# Experiments

Throwaway experiments with coding agents; each experiment gets its own git worktree and a
NOTES.md with what was tried and what came out.

- Never merge an experiment branch without asking.
"""
WORKTREE_OUT = "Preparing worktree (new branch 'exp/{name}')\nHEAD is now at 3f2a1c9 notes\n"


def experiments(root: str) -> list[Session]:
    found: list[Session] = []
    for n, name in enumerate(("prompt-cache", "subagents")):
        session = Session(root, f"e{n + 1}", T0 + timedelta(days=n))
        session.user(f"Start a new experiment on {name} and write down what we find.")
        if n == 0:
            session.read("CLAUDE.md", EXPERIMENTS_CLAUDE)
            session.run(
                "git log --oneline -5",
                0,
                "3f2a1c9 notes: tool budgets\n8d1e0b2 exp/hooks: findings\n1a2b3c4 init\n",
            )
        session.run(
            f"git worktree add ../worktrees/{name} -b exp/{name}", 0, WORKTREE_OUT.format(name=name)
        )
        session.write(f"../worktrees/{name}/NOTES.md", f"# {name}\n\nTried it; it works.\n")
        session.run(
            f"cd ../worktrees/{name} && git add NOTES.md && git commit -m 'exp/{name}: findings'",
            0,
            "[exp/x 9e8d7c6] findings\n 1 file changed",
        )
        found.append(session)
    return found


# --- analysis scripts without a manifest -------------------------------------------------

ANALYSIS_README = """# Survey analysis

Analysis of the 2025 member survey: cleaning the raw export, weighting, and the figures for
the annual report.

Run the scripts in order: `Rscript scripts/01_clean.R`, then `Rscript scripts/02_weights.R`.
"""
CLEAN_R = """# Cleans the raw survey export into data/clean.csv.
library(dplyr)
raw <- read.csv("data/raw.csv")
"""
MISSING_PKG = "Error in library(dplyr) : there is no package called 'dplyr'\nExecution halted\n"


def analysis(root: str) -> list[Session]:
    first = Session(root, "a1", T0)
    first.user("Run the cleaning step and tell me how many rows survive.")
    first.read("README.md", ANALYSIS_README)
    first.read("scripts/01_clean.R", CLEAN_R)
    first.run("Rscript scripts/01_clean.R", 1, MISSING_PKG)
    first.run('Rscript -e \'install.packages("dplyr", repos="https://cloud.r-project.org")\'')
    first.run("Rscript scripts/01_clean.R", 0, "Rows kept: 1843\n")
    # One stray helper the user keeps beside the R scripts.
    first.read("tools/rename.py", "import os\nfor name in os.listdir('.'):\n    pass\n")
    first.run("python3 tools/rename.py --dry-run", 0, "would rename 3 files\n")
    second = Session(root, "a2", T0 + timedelta(days=1))
    second.user("Now compute the weights, then add a step that draws the figures.")
    second.run("Rscript scripts/02_weights.R", 0, "weights written to data/weights.csv\n")
    second.run("ls scripts", 0, "01_clean.R\n02_weights.R\n")
    second.write("scripts/03_figures.R", "# Draws the report's figures.\nlibrary(ggplot2)\n")
    second.run("Rscript scripts/03_figures.R", 0, "Saved 4 figures to figures/\n")
    return [first, second]


# --- a dotfiles repository ------------------------------------------------------------------

DOTFILES_README = """# dotfiles

My shell, editor and git configuration for macOS and Linux, linked into $HOME with GNU Stow
(one package per folder).

```sh
stow zsh nvim git
```

```
├── zsh/     # shell: .zshrc, aliases and the prompt
├── nvim/    # Neovim configuration in Lua
└── git/     # .gitconfig and the global ignore list
```
"""


def dotfiles(root: str) -> list[Session]:
    first = Session(root, "d1", T0)
    first.user("Add an alias ll for ls -lah to my zsh config and link it.")
    first.read("README.md", DOTFILES_README)
    first.run("ls -a", 0, ".\n..\n.git\nREADME.md\ngit\nnvim\nzsh\n")
    first.edit_lines("zsh/.zshrc", "alias la='ls -a'\n", "alias la='ls -a'\nalias ll='ls -lah'\n")
    first.run(
        "stow zsh",
        1,
        "WARNING! stowing zsh would cause conflicts:\n  * existing target is neither a link "
        "nor a directory: .zshrc\nAll operations aborted.\n",
    )
    first.run("mv ~/.zshrc ~/.zshrc.bak && stow zsh", 0, "")
    second = Session(root, "d2", T0 + timedelta(days=2))
    second.user("Link the nvim config too.")
    second.run("stow nvim", 0, "")
    return [first, second]


# --- a docs site ------------------------------------------------------------------------------

MKDOCS = """site_name: Harbor Handbook
site_description: How the Harbor team builds, ships and supports its products
nav:
  - Home: index.md
  - On call: oncall.md
theme:
  name: material
"""
BROKEN_LINK = (
    "INFO    -  Cleaning site directory\n"
    "WARNING -  Doc file 'oncall.md' contains a link 'runbooks/db.md', but the target "
    "'runbooks/db.md' is not found among documentation files.\n"
    "Aborted with 1 warnings in strict mode!\n"
)


def docs_site(root: str) -> list[Session]:
    first = Session(root, "h1", T0)
    first.user("Add the on-call page and make sure the site still builds.")
    first.read("mkdocs.yml", MKDOCS)
    first.run("ls docs", 0, "index.md\noncall.md\nrunbooks\n")
    first.write("docs/oncall.md", "# On call\n\nSee [the database runbook](runbooks/db.md).\n")
    first.run("mkdocs build --strict", 1, BROKEN_LINK)
    first.edit_lines("docs/oncall.md", "(runbooks/db.md)", "(runbooks/database.md)")
    first.run("mkdocs build --strict", 0, "INFO    -  Documentation built in 0.41 seconds\n")
    second = Session(root, "h2", T0 + timedelta(days=1))
    second.user("Fix the typo on the home page and rebuild.")
    second.edit_lines("docs/index.md", "Wellcome", "Welcome")
    second.run("mkdocs build --strict", 0, "INFO    -  Documentation built in 0.39 seconds\n")
    return [first, second]


PROJECTS = [
    Project(
        name="notes-vault",
        root="/home/dev/notes",
        sessions=vault,
        about=("knowledge base", "meeting notes", "README.md"),
        must=(
            ("`daily/`", "by date", "`YYYY-MM-DD.md`"),
            ("per README.md", "`reading/` notes on books and papers", "`reviews/` weekly"),
            ("notes repository in Markdown", "no code"),
        ),
        never=("python", "javascript", "2026-04-28.md", "deep-work.md", "`reading/` are named"),
    ),
    Project(
        name="worktree-lab",
        root="/home/dev/experiments/main",
        sessions=experiments,
        # What the folder is for, from the overview of the CLAUDE.md the session read: other
        # hosts and searches do not load that file.
        about=("Throwaway experiments with coding agents", "per its CLAUDE.md"),
        must=(("`git worktree add ../worktrees/<name> -b exp/<name>`", "2 sessions"),),
        never=("python", "8d1e0b2", "NOTES.md`: ", "notes repository"),
    ),
    Project(
        name="analysis-scripts",
        root="/home/dev/survey",
        sessions=analysis,
        about=("member survey", "README.md"),
        must=(
            ("`Rscript scripts/01_clean.R`", "there is no package called 'dplyr'", "install"),
            ("`scripts/`", "`NN_<name>.R`"),
        ),
        never=(
            "python",
            "rows kept",
            "tools/rename.py",
            "weights written",
            "`rscript`",
            "notes repository",
        ),
        language="Code worked on in this project's sessions: R (1 file: `scripts/03_figures.R`).",
    ),
    Project(
        name="dotfiles",
        root="/home/dev/dotfiles",
        sessions=dotfiles,
        about=("GNU Stow", "README.md"),
        must=(
            ("`stow zsh`", "would cause conflicts", ".zshrc"),
            ("`zsh/` shell", "`nvim/` Neovim configuration", "`git/` .gitconfig"),
        ),
        never=("python", "nvim\n", "language", "notes repository"),
    ),
    Project(
        name="docs-site",
        root="/home/dev/handbook",
        sessions=docs_site,
        about=("Harbor Handbook", "builds, ships and supports", "mkdocs.yml"),
        must=(
            ("build", "`mkdocs build --strict`"),
            ("`mkdocs build --strict` failed", "is not found among documentation files"),
        ),
        never=(
            "python",
            "oncall.md\n",
            "runbooks\n",
            "`docs/` are named",
            "cleaning site",
            "notes repository",
        ),
    ),
]
IDS = [p.name for p in PROJECTS]


async def extract_all(project: Project) -> list[MemoryCandidate]:
    """Each episode's candidates, then the project pass's over every session's events."""
    found: list[MemoryCandidate] = []
    sessions = project.sessions(project.root)
    for session in sessions:
        for episode in segment_episodes(session.events, now=NOW):
            found.extend(await RulesExtractor().extract(episode, session.events))
    found.extend(evidence_candidates([e for s in sessions for e in s.events]))
    return found


@pytest.mark.parametrize("project", PROJECTS, ids=IDS)
async def test_what_the_folder_is_for_and_how_its_work_is_done_are_noted(
    project: Project,
) -> None:
    found = await extract_all(project)

    about = {c.content for c in found if c.key == "about"}
    if project.about:
        (text,) = about
        assert all(word in text for word in project.about), text
    else:
        assert about == set()
    texts = [c.content for c in found]
    for words in project.must:
        assert any(all(w in t for w in words) for t in texts), (words, texts)


@pytest.mark.parametrize("project", PROJECTS, ids=IDS)
async def test_nothing_a_senior_engineer_would_not_note(project: Project) -> None:
    found = await extract_all(project)

    for candidate in found:
        for word in project.never:
            assert word.lower() not in candidate.content.lower(), (word, candidate.content)
    # No language from a stray file (only from a script the session wrote and ran), no test
    # command from a script run once, no file list.
    assert [c.content for c in found if c.key == "language"] == (
        [project.language] if project.language else []
    )
    assert [c.key for c in found if c.key in ("test_command", "recipe:test")] == []
    assert all(c.content.count("`") <= 8 for c in found)


def _script_sessions(first: str, second: str) -> list[StoredEvent]:
    events: list[StoredEvent] = []
    for n, script in enumerate((first, second)):
        session = Session("/home/dev/survey", f"r{n}", T0 + timedelta(days=n))
        session.user("Update the data and rerun.")
        session.write(f"data/input{n}.csv", "a,b\n1,2\n")
        session.run(f"Rscript {script}", 0, "done\n")
        events.extend(session.events)
    return events


def test_another_script_run_at_each_session_end_is_no_routine() -> None:
    found = evidence_candidates(_script_sessions("scripts/01_clean.R", "scripts/03_figures.R"))

    assert [c for c in found if c.key == "recipe:routine"] == []


def test_the_same_script_run_at_each_session_end_is_a_routine() -> None:
    found = evidence_candidates(_script_sessions("scripts/publish.R", "scripts/publish.R"))

    (routine,) = [c.content for c in found if c.key == "recipe:routine"]
    assert "`Rscript scripts/publish.R`" in routine


@pytest.mark.parametrize(
    ("output", "line"),
    [
        (
            "INFO    -  Cleaning site directory\nWARNING -  Link not found\n",
            "WARNING -  Link not found",
        ),
        ("[INFO] Scanning for projects...\n[DEBUG] cfg\nBuild stopped\n", "Build stopped"),
        ("TRACE: loading\nno input files\n", "no input files"),
        # Not an information-level log line: kept.
        ("Information is missing for 3 rows\n", "Information is missing for 3 rows"),
        ("INFORMATION_SCHEMA not readable\n", "INFORMATION_SCHEMA not readable"),
    ],
)
def test_information_level_log_lines_are_not_what_failed(output: str, line: str) -> None:
    assert first_line(output) == line


@pytest.mark.parametrize("project", PROJECTS, ids=IDS)
async def test_a_folder_that_is_not_code_gets_no_test_command(project: Project) -> None:
    found = await extract_all(project)

    assert [c.content for c in found if c.key in ("test_command", "recipe:test")] == []


def test_a_trailer_declined_in_a_notes_folder_is_a_style_note() -> None:
    session = Session("/home/dev/notes", "c1", T0)
    session.user("Commit the weekly review.")
    trailer = "Co-Authored-By: Claude <noreply@anthropic.com>"
    session.add(
        "command_run",
        {
            "command": f"git commit -m \"$(cat <<'EOF'\nAdd weekly review\n\n{trailer}\nEOF\n)\"",
            "tool_use_id": "c1",
        },
    )
    session.add(
        "tool_result",
        {
            "tool": "Bash",
            "tool_use_id": "c1",
            "output": "The user doesn't want to proceed with this tool use. The tool use was rejected.",
            "is_error": True,
        },
    )
    session.run('git commit -m "Add weekly review"', 0, "[main 1a2b3c4] Add weekly review\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = RulesExtractor().extract_sync(episode, session.events)

    notes = [c.content for c in found if c.key == "commit:no-trailer:co-authored-by"]
    assert notes == [
        "Commits here carry no `Co-Authored-By` trailer: the user declined the commit whose "
        "message had one, and it was made without it."
    ]


# --- one session that worked only on Markdown ----------------------------------------------

NOTES = "The project is a notes repository in Markdown, with no code."
PLAN = "# Plan\n\n1. Split the vendors' generators.\n2. Share one return type.\n"


def _notes_facts(session: Session) -> list[str]:
    (episode,) = segment_episodes(session.events, now=NOW)
    found = RulesExtractor().extract_sync(episode, session.events)
    return [c.content for c in found if c.key == "repository_kind"]


def _markdown_session(root: str = "/home/dev/plans") -> Session:
    session = Session(root, "m1", T0)
    session.user("Read the plan and the notes, then add what we decided today.")
    session.run("ls", 0, "README.md\nplan.md\nnotes\n.gitignore\n")
    session.read("plan.md", PLAN)
    session.read("notes/2026-05-01.md", "# Notes\n\n- talked to the team\n")
    session.write("notes/2026-05-04.md", "# Notes\n\n- one return type for every vendor\n")
    session.run("git status --short", 0, " ?? notes/2026-05-04.md\n M .claude/settings.json\n")
    session.run("git add notes && git commit -m 'notes: decisions of 4 May'", 0, "1 file changed")
    return session


def test_one_session_that_touched_only_markdown_says_it_is_a_notes_repository() -> None:
    assert _notes_facts(_markdown_session()) == [NOTES]


def test_a_markdown_docs_repository_read_and_edited_in_one_session_is_notes() -> None:
    session = Session("/home/dev/handbook-md", "m2", T0)
    session.user("Fix the broken link in the onboarding guide.")
    session.read("README.md", "# Handbook\n\nHow we work, in Markdown.\n")
    session.edit_lines("guide/onboarding.md", "(setup.md)", "(guide/setup.md)")
    assert _notes_facts(session) == [NOTES]


@pytest.mark.parametrize(
    "extra",
    [
        # a code file read beside the README
        lambda s: s.read("src/app.py", "print('hi')\n"),
        # a listing shows files of another kind (infrastructure, configuration)
        lambda s: s.run("ls infra", 0, "main.tf\nvariables.tf\nREADME.md\n"),
        lambda s: s.run('find infra -name "*.tf" | head', 0, ""),
        lambda s: s.add("tool_result", {"tool": "Glob", "output": "docs/index.md\nmkdocs.yml\n"}),
        # a language's tool ran
        lambda s: s.run("pytest -q", 0, "3 passed in 0.1s\n"),
        # a manifest written
        lambda s: s.write("package.json", '{"name": "plans"}\n'),
        # a listing behind a prefix program the project runs every command through
        lambda s: s.run("tkproxy rg --files src .", 0, "./src/ledger/parse.py\n./pyproject.toml\n"),
        lambda s: s.run("qx ls -la", 0, "-rw-r--r-- 1 a a 61 Dec 1 go.mod\n"),
        lambda s: s.run("qx ls", 0, "mkdocs.yml\nREADME.md\n"),
        # a script's output (no lister by name) naming the code and its manifest
        lambda s: s.run("./scripts/inventory", 0, "Cargo.toml\nsrc/main.rs\n"),
    ],
    ids=[
        *("code-file", "ls-terraform", "find-pattern", "glob-config", "pytest", "manifest"),
        *("wrapped-file-list", "wrapped-long-listing", "wrapped-ls-config", "script-inventory"),
    ],
)
def test_anything_but_markdown_seen_in_the_session_keeps_the_rule_silent(
    extra: Callable[[Session], object],
) -> None:
    session = _markdown_session()
    extra(session)
    assert _notes_facts(session) == []


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # a task runner's own target, a package manager's own subcommand: Markdown names only
        ("make ls", "notes/2026-05-01.md\nnotes/2026-05-04.md\n"),
        ("tkproxy git status --short", " M plan.md\n"),
        # a command's output naming no file of code (a version string, a sentence)
        ("./scripts/count-words", "plan.md: 412 words, v1.2.3\n"),
    ],
)
def test_markdown_only_output_behind_any_command_keeps_the_notes_fact(
    command: str, output: str
) -> None:
    session = _markdown_session()
    session.run(command, 0, output)
    assert _notes_facts(session) == [NOTES]


def test_markdown_edited_only_in_a_docs_folder_is_a_code_projects_documentation() -> None:
    session = Session("/home/dev/slugger", "m4", T0)
    session.user("Fix the typos in the docs.")
    session.read("docs/usage.md", "# Usage\n\nCall `slugfy(title)`.\n")
    session.edit_lines("docs/usage.md", "slugfy", "slugify")
    session.edit_lines("docs/options.md", "seperator", "separator")
    session.run("git commit -am 'docs: fix typos'", 0, "2 files changed")
    assert _notes_facts(session) == []


def test_one_markdown_file_is_no_notes_repository() -> None:
    session = Session("/home/dev/service", "m3", T0)
    session.user("Write a short README for this folder.")
    session.run("ls", 0, "README.md\n")
    session.write("README.md", "# Service\n\nWhat it does.\n")
    assert _notes_facts(session) == []
