"""A release the session made (a version bumped where it is written, or a commit naming the
version, then a tag of that version made) is a recipe of its steps in order, each command as it
was run; a tag with neither, a tag listed or deleted, a failed tag and a bump to another version
are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.release_docs import tag_line
from squirrel_memory.extractors.release_steps import (
    MAX_STEP_CHARS,
    made_tag,
    pushed_tag,
    release_steps,
)
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"  # a library with a manifest version and a change log

PUSH_REFUSED = (
    "remote: error: GH006: Protected branch update failed for refs/heads/main.\n"
    "To github.com:dev/ledger.git\n"
    " * [new tag]         v2.3.1 -> v2.3.1\n"
    " ! [remote rejected] main -> main (protected branch hook declined)\n"
    "error: failed to push some refs to 'github.com:dev/ledger.git'"
)


@pytest.mark.parametrize(
    ("tokens", "name"),
    [
        (["git", "tag", "v1.4.2"], "v1.4.2"),
        (["git", "tag", "-a", "1.4.2", "-m", "release 1.4.2"], "1.4.2"),
        (["git", "tag", "-m", "v1.4.2", "v1.4.2"], "v1.4.2"),
        (["git", "tag", "-l"], ""),
        (["git", "tag", "-d", "v1.4.2"], ""),
        (["git", "status"], ""),
    ],
)
def test_the_tag_a_command_makes(tokens: list[str], name: str) -> None:
    assert made_tag(tokens) == name


def test_a_push_output_shows_the_tag_sent() -> None:
    assert pushed_tag(PUSH_REFUSED, "v2.3.1")
    assert not pushed_tag(PUSH_REFUSED, "v2.3.0")


def _release(session: Session, *, tag_command: str, code: int = 0, output: str = "") -> None:
    session.user("release 2.3.1")
    session.edit_lines("Cargo.toml", 'version = "2.3.0"', 'version = "2.3.1"')
    session.edit_lines("src/version.rs", 'VERSION = "2.3.0"', 'VERSION = "2.3.1"')
    session.edit_lines(
        "CHANGELOG.md", "## Unreleased\n", "## Unreleased\n\n## 2.3.1 - 2026-07-01\n"
    )
    session.run("cargo test 2>&1 | tail -5", 0, "test result: ok. 40 passed")
    session.run("git add -A && git commit -m 'release: v2.3.1'", 0, "[main 1a2b3c4] release")
    session.run(tag_command, code, output)


def test_a_release_is_a_recipe_of_its_steps_in_order() -> None:
    session = Session(ROOT, "s1", T0)
    _release(session, tag_command="git tag v2.3.1 && git push origin main --tags")

    (found,) = release_steps(session.events)

    assert found.content == (
        "To release, as `v2.3.1` was: bump the version in `Cargo.toml` and `src/version.rs` → "
        "write `2.3.1` into `CHANGELOG.md` → `cargo test` → commit `release: v2.3.1` → "
        "`git tag v2.3.1 && git push origin main --tags`."
    )
    kept = [c for c in session.extracted() if c.key == "recipe:release_steps"]
    assert [c.type for c in kept] == [MemoryType.RECIPE]


def test_a_tag_pushed_with_a_refused_branch_still_shows_the_release() -> None:
    session = Session(ROOT, "s1", T0)
    _release(
        session,
        tag_command="git tag v2.3.1 && git push origin main --tags",
        code=1,
        output=PUSH_REFUSED,
    )

    (found,) = release_steps(session.events)

    assert found.content.endswith(
        "→ `git tag v2.3.1` → push it (`git push origin main --tags` sent it)."
    )


def test_a_later_push_of_the_tag_joins_its_step() -> None:
    session = Session(ROOT, "s1", T0)
    _release(session, tag_command="git tag -a v2.3.1 -m 'v2.3.1'")
    session.run("git push origin v2.3.1", 0, " * [new tag]  v2.3.1 -> v2.3.1")

    (found,) = release_steps(session.events)

    assert found.content.endswith("→ `git tag -a v2.3.1 -m 'v2.3.1' && git push origin v2.3.1`.")


@pytest.mark.parametrize(
    ("tag_command", "code", "output"),
    [
        ("git tag v2.3.2", 0, ""),  # another version than the bump's
        ("git tag -l 'v2.*'", 0, "v2.3.0\nv2.3.1"),  # a listing
        ("git tag -d v2.3.1", 0, "Deleted tag 'v2.3.1'"),
        ("git tag v2.3.1", 128, "fatal: tag 'v2.3.1' already exists"),  # failed
        ("git tag nightly", 0, ""),  # no version
    ],
)
def test_no_release_without_a_tag_of_the_bumped_version(
    tag_command: str, code: int, output: str
) -> None:
    session = Session(ROOT, "s1", T0)
    _release(session, tag_command=tag_command, code=code, output=output)

    assert release_steps(session.events) == []


def test_a_tag_with_no_bump_in_the_session_is_no_release() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cargo test", 0, "ok")
    session.run("git tag v2.3.1 && git push origin --tags", 0, "")

    assert release_steps(session.events) == []


def test_a_release_bumped_before_the_session_is_its_checks_commit_pushes_and_tag() -> None:
    # The version was bumped earlier; the session verifies, commits with the version in the
    # message, moves and pushes the branch with jj, then tags and pushes the tag.
    session = Session(ROOT, "s1", T0)
    session.user("looks fine: commit, push and publish")
    session.run("cargo fmt && cargo clippy 2>&1 && cargo test 2>&1 | tail -5", 0, "ok")
    session.run('jj describe -m "feat: revset input (v0.4.5)"', 0, "Working copy now at: abc")
    session.run("jj bookmark set main -r @", 0, "Moved 1 bookmarks to abc")
    session.run("jj git push -b main", 0, "Changes to push to origin:")
    session.run("git tag v0.4.5 && git push origin v0.4.5", 0, " * [new tag]  v0.4.5 -> v0.4.5")

    (found,) = release_steps(session.events)

    assert found.content == (
        "To release, as `v0.4.5` was: `cargo fmt` → `cargo clippy` → `cargo test` → commit "
        "`feat: revset input (v0.4.5)` (`jj describe`) → `jj bookmark set main -r @` → "
        "`jj git push -b main` → `git tag v0.4.5 && git push origin v0.4.5`."
    )


def test_checks_before_the_last_edit_are_not_the_release_s() -> None:
    # A check that ran before a later edit did not verify what was committed.
    session = Session(ROOT, "s1", T0)
    session.run("npm test", 0, "ok")
    session.edit_lines("src/app.ts", "const a = 1", "const a = 2")
    session.run("npm run lint", 0, "ok")
    session.run("git commit -am 'release 1.2.0'", 0, "[main 1a2b3c4] release 1.2.0")
    session.run("git push origin main", 0, "main -> main")
    session.run("git tag v1.2.0 && git push origin v1.2.0", 0, "")

    (found,) = release_steps(session.events)

    assert found.content == (
        "To release, as `v1.2.0` was: `npm run lint` → commit `release 1.2.0` → "
        "`git push origin main` → `git tag v1.2.0 && git push origin v1.2.0`."
    )


@pytest.mark.parametrize(
    "commit",
    [
        "git commit -m 'fix: parser'",  # names no version
        "git commit -m 'release 1.2.1'",  # another version
        "git log -1 --format='release 1.2.0'",  # not a commit
    ],
)
def test_an_unbumped_tag_needs_a_commit_naming_its_version(commit: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.run("npm test", 0, "ok")
    session.run(commit, 0, "")
    session.run("git tag v1.2.0", 0, "")

    assert release_steps(session.events) == []


def test_a_failed_commit_naming_the_version_is_no_release() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("git commit -m 'release 1.2.0'", 1, "nothing to commit, working tree clean")
    session.run("git tag v1.2.0", 0, "")

    assert release_steps(session.events) == []


def test_a_push_between_the_commit_and_the_tag_is_a_step() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("release 2.3.1")
    session.edit_lines("Cargo.toml", 'version = "2.3.0"', 'version = "2.3.1"')
    session.run("git commit -am 'release: v2.3.1'", 0, "[main 1a2b3c4] release")
    session.run("git push origin main", 0, "main -> main")
    session.run("git tag v2.3.1 && git push origin v2.3.1", 0, "")

    (found,) = release_steps(session.events)

    assert found.content == (
        "To release, as `v2.3.1` was: bump the version in `Cargo.toml` → commit `release: "
        "v2.3.1` → `git push origin main` → `git tag v2.3.1 && git push origin v2.3.1`."
    )


RELEASE_DOC = """# Releasing

## Trigger
- Pushing a tag `v*` runs `.github/workflows/publish.yml`, which builds and uploads the package.

## Checks
- the tests pass
- tag only after the change log has the version's section
"""


def test_the_release_document_read_first_is_named_with_what_the_tag_sets_off() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("docs/RELEASING.md", RELEASE_DOC)
    _release(session, tag_command="git tag v2.3.1 && git push origin main --tags")

    (found,) = release_steps(session.events)

    assert found.content.endswith(
        "`git tag v2.3.1 && git push origin main --tags`. The release document "
        '`docs/RELEASING.md`, read first, says: "Pushing a tag `v*` runs '
        '`.github/workflows/publish.yml`, which builds and uploads the package."'
    )
    assert session.events[1].id in found.event_ids


def test_a_release_document_printed_by_a_command_counts_as_read() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cat RELEASE.md | head -80", 0, RELEASE_DOC)
    _release(session, tag_command="git tag v2.3.1 && git push origin main --tags")

    (found,) = release_steps(session.events)

    assert "The release document `RELEASE.md`, read first, says:" in found.content


def test_a_release_document_without_a_workflow_line_is_named_alone() -> None:
    session = Session(ROOT, "s1", T0)
    # a tag named, but no workflow file: nothing says what the tag sets off
    session.read("RELEASE.md", "# Release\n\n1. Bump the version.\n2. Tag it and push the tag.\n")
    _release(session, tag_command="git tag v2.3.1 && git push origin main --tags")

    (found,) = release_steps(session.events)

    assert found.content.endswith(" The release document, read first, is `RELEASE.md`.")


@pytest.mark.parametrize(
    "shown",
    [
        "listed",  # only its name printed by a listing
        "after",  # read after the tag
        "notes",  # release notes, not a procedure
        "other session",
    ],
)
def test_a_release_document_not_read_before_the_tag_is_not_named(shown: str) -> None:
    session = Session(ROOT, "s1", T0)
    other = Session(ROOT, "s0", T0)
    if shown == "listed":
        session.run("ls docs", 0, "RELEASING.md\nusage.md")
    elif shown == "notes":
        session.read("RELEASE_NOTES.md", RELEASE_DOC)
    elif shown == "other session":
        other.read("docs/RELEASING.md", RELEASE_DOC)
    _release(session, tag_command="git tag v2.3.1 && git push origin main --tags")
    if shown == "after":
        session.read("docs/RELEASING.md", RELEASE_DOC)

    (found,) = release_steps(other.events + session.events)

    assert "release document" not in found.content


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("- [ ] Tag push matching `v*` → triggers `.github/workflows/release.yml`", True),
        ("Tags are built by `.gitlab-ci.yml`.", True),
        ("- tag push → CI publish", False),  # no workflow file
        ("- `.github/workflows/release.yml` lints and tests", False),  # no tag
        ("```\ngit tag v1 # .github/workflows/release.yml\n```", False),  # in a code block
        ("- Tag push runs `.github/workflows/release.yml`" + " and more" * 20, False),  # long
    ],
)
def test_the_line_on_what_a_tag_sets_off(text: str, line: bool) -> None:
    assert bool(tag_line(text, MAX_STEP_CHARS)) is line


def _unbumped_release(session: Session, commit: str, tag: str) -> None:
    session.run("cargo test", 0, "test result: ok. 40 passed")
    session.run(commit, 0, "[main 1a2b3c4] release")
    session.run(tag, 0, "")


@pytest.mark.parametrize(
    ("commit", "tag", "later"),
    [
        # The tag is deleted at once: no release.
        ("git commit -am 'Release 2.1.0'", "git tag v2.1.0", "git tag -d v2.1.0"),
        ("git commit -am 'Release 2.1.0'", "git tag v2.1.0", "git push origin --delete v2.1.0"),
        ("git commit -am 'Release 2.1.0'", "git tag v2.1.0", "git push origin :refs/tags/v2.1.0"),
        # A tag put on an old commit after the fact.
        ("git commit -am 'Release 2.1.0'", "git tag -a v2.1.0 a1b2c3d -m 'Release 2.1.0'", ""),
        # A subject that refers to the version, not a release of it.
        ("git commit -am 'Fix crash on empty input (regression in 2.1.0)'", "git tag v2.1.0", ""),
        ("git commit -am 'fix: regression since v2.1.0'", "git tag v2.1.0", ""),
    ],
)
def test_no_release_from_a_deleted_or_late_tag_or_a_subject_that_refers_to_the_version(
    commit: str, tag: str, later: str
) -> None:
    session = Session(ROOT, "s1", T0)
    _unbumped_release(session, commit, tag)
    if later:
        session.run(later, 0, "Deleted tag 'v2.1.0'")

    assert release_steps(session.events) == []


def test_a_feature_branch_push_is_no_release_step() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cargo test", 0, "test result: ok. 40 passed")
    session.run("git commit -am 'Release 2.1.0'", 0, "[fix/ci 1a2b3c4] Release 2.1.0")
    session.run("git push -u origin fix/ci-cache", 0, "fix/ci-cache -> fix/ci-cache")
    session.run("git push origin main", 0, "main -> main")
    session.run("git tag v2.1.0 && git push origin v2.1.0", 0, "")

    (found,) = release_steps(session.events)

    assert "fix/ci-cache" not in found.content
    assert "`git push origin main`" in found.content


def test_a_check_whose_failure_a_pipe_hid_is_no_release_step() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cabal build", 0, "Up to date")
    session.run(
        "cabal test 2>&1 | tail -4",
        0,
        "Test suite spec: FAIL\n1 of 1 test suites (1 of 1 test cases) failed.\n",
    )
    session.run('git commit -am "Release 1.2.0"', 0, "[main 0b9d2e4] Release 1.2.0")
    session.run("git tag v1.2.0 && git push origin v1.2.0", 0, "")

    (found,) = release_steps(session.events)

    assert found.content == (
        "To release, as `v1.2.0` was: `cabal build` → commit `Release 1.2.0` → "
        "`git tag v1.2.0 && git push origin v1.2.0`."
    )


@pytest.mark.parametrize(
    ("prefix", "cwd"),
    [("cd ../lib && ", None), ("cd /home/dev/lib && ", None), ("", "/home/dev/lib")],
)
def test_a_release_made_in_another_checkout_is_not_this_projects(
    prefix: str, cwd: str | None
) -> None:
    session = Session(ROOT, "s1", T0)
    session.run(f"{prefix}cargo test", 0, "test result: ok. 4 passed", cwd=cwd)
    session.run(f"{prefix}git commit -am 'Release 0.3.0'", 0, "[main abc] Release 0.3.0", cwd=cwd)
    session.run(f"{prefix}git tag v0.3.0 && git push origin v0.3.0", 0, "", cwd=cwd)

    assert release_steps(session.events) == []


def test_a_release_in_a_sub_folder_of_the_project_is_its_own() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cargo test", 0, "test result: ok. 4 passed")
    session.run("git commit -am 'Release 0.3.0'", 0, "[main abc] Release 0.3.0")
    session.run("cd crates/core && git tag v0.3.0 && git push origin v0.3.0", 0, "")

    assert len(release_steps(session.events)) == 1
