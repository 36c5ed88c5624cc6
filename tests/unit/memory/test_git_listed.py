"""The project's language from the files git and gh commands listed: every output format, the
same rules in every ecosystem, weaker than the files touched, with what must not be stated."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.git_listed import folder_of, listed_paths
from squirrel_memory.extractors.touched_languages import LISTED_PREFIX, PREFIX, merged_statement
from tests.unit.memory.test_touched_languages import ECOS, IDS, ROOT, Eco, _extract, _said, _session

AT = datetime(2026, 6, 1, tzinfo=UTC)


def _listed(command: str, output: str, ok: bool | None = True) -> list[str]:
    return [path for path, _ in listed_paths([CommandRun("e1", AT, command, ok, output)], ROOT)]


def _pr_files(*paths: str) -> str:
    return json.dumps({"title": "Fix rounding", "files": [{"path": p} for p in paths]})


@pytest.mark.parametrize(
    ("command", "output", "expected"),
    [
        ("git status --short", " M src/a.ts\n?? src/b.ts\nR  old.ts -> src/c.ts\n", None),
        (
            "git status",
            "On branch main\nChanges not staged for commit:\n\tmodified:   src/a.ts\n"
            "\tnew file:   src/b.ts\n\trenamed:    old.ts -> src/c.ts\n",
            None,
        ),
        (
            "git diff --stat",
            " src/a.ts | 4 ++--\n src/{old => new}/b.ts | 2 +-\n old.ts => src/c.ts | 0\n"
            " 3 files changed, 3 insertions(+), 3 deletions(-)\n",
            ["src/a.ts", "src/new/b.ts", "src/c.ts"],
        ),
        ("git diff --name-only main", "src/a.ts\nsrc/b.ts\n", ["src/a.ts", "src/b.ts"]),
        (
            "git diff --name-status HEAD~1",
            "M\tsrc/a.ts\nA\tsrc/b.ts\nR100\told.ts\tsrc/c.ts\n",
            None,
        ),
        (
            "git log --stat -1",
            "commit 0a1b2c\nAuthor: Dev <dev@example.com>\n\n    Fix rounding\n\n"
            " src/a.ts | 3 ++-\n src/b.ts | 1 +\n",
            ["src/a.ts", "src/b.ts"],
        ),
        (
            "git log --name-only -2",
            "commit 0a1b2c\n\n    Fix rounding\n\nsrc/a.ts\nsrc/b.ts\n",
            ["src/a.ts", "src/b.ts"],
        ),
        ("git show --stat HEAD", " src/a.ts | 3 ++-\n", ["src/a.ts"]),
        ("git ls-files", "src/a.ts\nsrc/b.ts\n", ["src/a.ts", "src/b.ts"]),
        ("git --no-pager -c core.quotepath=off log --stat", " src/a.ts | 3 ++-\n", ["src/a.ts"]),
        ("gh pr view 7 --json files --jq '.files[].path'", "src/a.ts\nsrc/b.ts\n", None),
        ("gh pr view 7 --json title,files", _pr_files("src/a.ts", "src/b.ts"), None),
        ("gh pr diff 7 --name-only", "src/a.ts\nsrc/b.ts\n", ["src/a.ts", "src/b.ts"]),
    ],
)
def test_every_listing_format_gives_the_paths(
    command: str, output: str, expected: list[str] | None
) -> None:
    default = ["src/a.ts", "src/b.ts", "src/c.ts"] if "c.ts" in output else ["src/a.ts", "src/b.ts"]
    assert _listed(command, output) == (expected or default)


@pytest.mark.parametrize(
    ("command", "ok"),
    [
        ("git ls-files", False),  # failed
        ("git ls-files", None),  # outcome unknown
        ("git -C ../other ls-files", True),  # another repository
        ("gh pr view 7 --repo acme/other --json files", True),
        ("cd ../other && git ls-files", True),  # another folder's output
        ("git diff main", True),  # a patch, not a list of files
        ("git log -3", True),
        ("gh pr view 7 --json title,body", True),
        ("gh pr diff 7", True),
        ("cat files.txt", True),
    ],
)
def test_a_command_that_failed_or_lists_no_files_of_this_project_gives_none(
    command: str, ok: bool | None
) -> None:
    output = _pr_files("src/a.ts") if "--json" in command else "src/a.ts\nsrc/b.ts\n"
    assert _listed(command, output, ok) == []


def test_paths_outside_the_repository_or_truncated_are_left_out() -> None:
    output = " .../deep/a.ts | 2 +-\n /abs/b.ts | 1 +\n ../c.ts | 1 +\n src/d.ts | 1 +\n"
    assert _listed("git diff --stat", output) == ["src/d.ts"]


def _chained(command: str, output: str, cwd: str | None = None) -> list[str]:
    run = CommandRun("e1", AT, command, True, output, cwd=cwd)
    return [path for path, _ in listed_paths([run], ROOT)]


@pytest.mark.parametrize(
    ("command", "output", "expected"),
    [
        ("git add -A && git status --short", "A  src/a.ts\nA  src/b.ts\n", None),
        ("git add -A; git status --porcelain", "A  src/a.ts\nA  src/b.ts\n", None),
        ("cd src && git diff --stat", " src/a.ts | 2 +-\n src/b.ts | 1 +\n", None),
        ("cd src && git ls-files", "a.ts\nb.ts\n", None),
        (
            "cd web && git status",
            "\tmodified:   app.ts\n\tmodified:   ../src/a.ts\n",
            ["web/app.ts", "src/a.ts"],
        ),
        (f"cd {ROOT}/web && git ls-files", "app.ts\n", ["web/app.ts"]),
        ("cd web && git status --porcelain", " M src/a.ts\n", ["src/a.ts"]),
        ("git fetch && git diff --name-only origin/main", "src/a.ts\nsrc/b.ts\n", None),
        (
            "git status --short && git diff --stat",
            " M src/a.ts\n src/b.ts | 1 +\n",
            ["src/a.ts", "src/b.ts"],
        ),
    ],
)
def test_a_chained_line_is_read_from_the_folder_it_ran_in(
    command: str, output: str, expected: list[str] | None
) -> None:
    assert _chained(command, output) == (expected or ["src/a.ts", "src/b.ts"])


@pytest.mark.parametrize(
    "path", ["~", "~/src", "~dev/src", "$HOME/src", "${HOME}/src", "$REPO", "%USERPROFILE%\\x"]
)
def test_a_home_or_variable_path_is_not_inside_the_project(path: str) -> None:
    assert folder_of(path, ROOT) is None
    assert folder_of(f"{ROOT}/src", ROOT) == "src"  # a real sub-folder still is


def test_a_listing_run_in_a_sub_folder_is_read_from_it() -> None:
    assert _chained("git ls-files", "a.ts\n", cwd=f"{ROOT}/web") == ["web/a.ts"]
    assert _chained("git diff --name-only", "src/a.ts\n", cwd=f"{ROOT}/web") == ["src/a.ts"]


@pytest.mark.parametrize(
    ("command", "cwd"),
    [
        ("cd /srv/other && git status --short", None),  # another folder
        ("cd .. && git ls-files", None),
        ("cd src/../.. && git ls-files", None),
        ("cd ~/other; git ls-files", None),
        ("cd $REPO && git ls-files", None),
        ("cd && git ls-files", None),
        ("git add -A && git -C ../other status --short", None),  # another repository
        ("git -C other status --short; git status --short", None),
        ("git status --short", "/srv/other"),  # the shell was in another folder
        ("git diff --stat", f"{ROOT}/../other"),  # the same, through `..`
        ("git status --short", "~/other"),  # a home folder's path
        ("git status --short", "$HOME/other"),
        ("git status --short", "C:\\Users\\dev\\other"),  # a Windows drive
        (f"cd {ROOT}/../other && git diff --name-only", None),
        ("npm test && git status --short", None),  # a step that prints its own lines
        ("git ls-files && cd /srv/other", None),
        ("cd src && git ls-files && cd .. && git ls-files", None),  # one format, two folders
    ],
)
def test_a_chained_line_that_leaves_the_project_or_prints_more_gives_none(
    command: str, cwd: str | None
) -> None:
    assert _chained(command, " M src/a.ts\nsrc/b.ts\n", cwd=cwd) == []


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_files_a_pull_request_lists_name_the_language_when_none_was_touched(
    eco: Eco,
) -> None:
    session = _session()
    session.run("gh pr view 7 --json title,files", 0, _pr_files(eco.first, eco.second, "a.md"))
    session.read("CHANGELOG.md", "Notes.\n")

    assert _said(await _extract(session), "language") == [
        f"{LISTED_PREFIX}{eco.language} (2 files: `{eco.first}`, `{eco.second}`)."
    ]


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_git_status_lists_code_as_well(eco: Eco) -> None:
    session = _session()
    session.run("git status --short", 0, f" M {eco.first}\n?? {eco.second}\n")

    assert _said(await _extract(session), "language") == [
        f"{LISTED_PREFIX}{eco.language} (2 files: `{eco.first}`, `{eco.second}`)."
    ]


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
@pytest.mark.parametrize("folder", ["vendor", "generated", "docs", ".github", "build"])
async def test_listed_vendored_generated_and_docs_code_names_no_language(
    eco: Eco, folder: str
) -> None:
    session = _session()
    session.run("git ls-files", 0, f"{folder}/{eco.first}\n{folder}/{eco.second}\nREADME.md\n")

    assert _said(await _extract(session), "language") == []


@pytest.mark.parametrize("eco", ECOS[:4], ids=IDS[:4])
async def test_a_failed_listing_names_no_language(eco: Eco) -> None:
    session = _session()
    session.run("git diff --name-only main", 128, f"{eco.first}\n{eco.second}\n")

    assert _said(await _extract(session), "language") == []


async def test_files_touched_outweigh_files_listed() -> None:
    session = _session()
    session.run("git ls-files", 0, "src/a.ts\nsrc/b.ts\nsrc/c.ts\n")
    session.read("ledger/books.py", "code\n")
    session.edit("ledger/post.py", "fixed\n")

    assert _said(await _extract(session), "language") == [
        f"{PREFIX}Python (2 files: `ledger/books.py`, `ledger/post.py`)."
    ]


async def test_a_root_manifest_wins_over_listed_files() -> None:
    session = _session()
    session.read("package.json", '{"name": "ledger"}\n')
    session.run("git ls-files", 0, "src/a.py\nsrc/b.py\nsrc/c.py\n")

    said = _said(await _extract(session), "language")
    assert len(said) == 1 and not said[0].startswith((PREFIX, LISTED_PREFIX))


async def test_three_listed_languages_of_comparable_weight_say_nothing() -> None:
    session = _session()
    listing = "a/x.py\na/y.py\nb/x.go\nb/y.go\nc/x.rb\nc/y.rb\n"
    session.run("git ls-files", 0, listing)

    assert _said(await _extract(session), "language") == []


async def test_a_listed_sub_package_alone_names_no_language() -> None:
    session = _session()
    session.read("site/package.json", '{"name": "site"}\n')
    session.run("git diff --name-only", 0, "site/src/app.ts\nsite/src/page.ts\n")

    assert _said(await _extract(session), "language") == []


def test_a_touched_statement_replaces_a_listed_one_and_never_the_reverse() -> None:
    listed = f"{LISTED_PREFIX}Go (4 files)."
    touched = f"{PREFIX}Python (2 files: `a.py`, `b.py`)."

    assert merged_statement(listed, touched) == touched
    assert merged_statement(touched, listed) == touched
    assert (
        merged_statement(listed, f"{LISTED_PREFIX}Go (6 files).") == f"{LISTED_PREFIX}Go (6 files)."
    )


_PATCH = (
    "diff --git a/src/a.ts b/src/a.ts\nindex 1..2 100644\n--- a/src/a.ts\n+++ b/src/a.ts\n"
    "@@ -1 +1 @@\n-old\n+new\ndiff --git a/old.ts b/src/b.ts\nsimilarity index 90%\n"
)


@pytest.mark.parametrize(
    "command",
    [
        "git diff main -- src/a.ts",
        "git diff",
        "git show HEAD",
        "git log -p -1",
        "git diff --cached",
    ],
)
def test_a_patch_names_its_files_in_its_headers(command: str) -> None:
    assert _listed(command, _PATCH) == ["src/a.ts", "src/b.ts"]


@pytest.mark.parametrize(
    ("command", "output", "ok"),
    [
        ("git diff --no-index /tmp/x.ts src/a.ts", _PATCH, True),  # not the repository's files
        ("git show HEAD:notes/fix.patch", _PATCH, True),  # a file's text, whatever it holds
        ("git diff main", _PATCH, False),
        ("git diff main", "+diff --git a/src/a.ts b/src/a.ts\n", True),  # a line of a patch
        ("git -C ../other diff", _PATCH, True),
        ("cd .. && git diff", _PATCH, True),
    ],
)
def test_a_patch_elsewhere_or_a_header_inside_a_text_gives_none(
    command: str, output: str, ok: bool
) -> None:
    assert _listed(command, output, ok) == []


@pytest.mark.parametrize(
    ("command", "cwd", "expected"),
    [
        ("git checkout src/a.ts src/b.ts", None, ["src/a.ts", "src/b.ts"]),
        ("git checkout main -- src/a.ts src/b.ts", None, ["src/a.ts", "src/b.ts"]),
        ("git restore --source HEAD~1 src/a.ts src/b.ts", None, ["src/a.ts", "src/b.ts"]),
        ("git restore -s main -- a.ts", f"{ROOT}/web", ["web/a.ts"]),
        ("cd web && git checkout a.ts", None, ["web/a.ts"]),
        (f"git checkout {ROOT}/src/a.ts", None, ["src/a.ts"]),
    ],
)
def test_paths_git_put_back_are_named_by_their_arguments(
    command: str, cwd: str | None, expected: list[str]
) -> None:
    output = "Updated 2 paths from the index\n"
    assert _chained(command, output, cwd=cwd) == expected


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("git checkout feature/x.ts", "Switched to branch 'feature/x.ts'\n"),  # a branch
        ("git checkout -- 'src/*.ts'", "Updated 2 paths from the index\n"),  # a glob
        ("git checkout ../other/a.ts", "Updated 1 path from the index\n"),  # outside
        ("git -C ../other checkout a.ts", "Updated 1 path from the index\n"),
        ("cd /srv/other && git checkout a.ts", "Updated 1 path from the index\n"),
        ("git stash && git checkout a.ts", "Updated 1 path from the index\n"),
        ("git add a.ts b.ts", "Updated 2 paths from the index\n"),  # not a restore
    ],
)
def test_a_checkout_of_a_branch_or_of_paths_elsewhere_names_none(command: str, output: str) -> None:
    assert _chained(command, output) == []


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_a_patch_and_a_restore_name_the_language_when_none_was_touched(eco: Eco) -> None:
    session = _session()
    session.run(
        f"git diff main -- {eco.first}",
        0,
        f"diff --git a/{eco.first} b/{eco.first}\n--- a/{eco.first}\n+++ b/{eco.first}\n",
    )
    session.run(f"git checkout {eco.first} {eco.second}", 0, "Updated 2 paths from the index\n")

    assert _said(await _extract(session), "language") == [
        f"{LISTED_PREFIX}{eco.language} (2 files: `{eco.first}`, `{eco.second}`)."
    ]


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_one_file_of_a_patch_states_no_language(eco: Eco) -> None:
    session = _session()
    session.run(f"git diff -- {eco.first}", 0, f"diff --git a/{eco.first} b/{eco.first}\n")

    assert _said(await _extract(session), "language") == []
