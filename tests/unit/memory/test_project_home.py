"""Where the project's source is hosted, as git and the files read in one session show it."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.project_home import project_home
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import Stream, by_key, extract
from tests.unit.memory.test_session_about import _numbered

# The project folder is `/home/dev/shop` (`PROJECT`): a repository named `shop` is its own.
GO_MOD = "module github.com/acme/shop\n\ngo 1.22\n\nrequire github.com/spf13/cobra v1.8.0\n"


def _read(stream: Stream, path: str, text: str) -> None:
    stream.read(path, _numbered(text))


@pytest.mark.parametrize(
    ("path", "text", "address", "ref"),
    [
        ("go.mod", GO_MOD, "github.com/acme/shop", "go.mod:1"),
        (
            "package.json",
            '{\n  "name": "shop",\n  "homepage": "https://www.npmjs.com/package/shop"\n}',
            None,
            None,
        ),
        (
            "package.json",
            '{\n  "name": "shop",\n  "repository": "https://gitlab.acme.io/team/Shop.git"\n}',
            "gitlab.acme.io/team/Shop",
            "package.json:3",
        ),
        (
            "src/core/Engine.cpp",
            "/*\n** This file is part of Shop.\n** https://codeberg.org/acme/shop\n*/\n",
            "codeberg.org/acme/shop",
            "src/core/Engine.cpp:3",
        ),
        (
            "Cargo.toml",
            '[package]\nname = "shop"\nrepository = "https://github.com/acme/shop"\n',
            "github.com/acme/shop",
            "Cargo.toml:3",
        ),
    ],
    ids=["go-module", "not-a-forge-host", "self-hosted-forge", "source-header", "cargo"],
)
def test_a_file_read_in_the_project_names_its_home(
    path: str, text: str, address: str | None, ref: str | None
) -> None:
    stream = Stream()
    stream.user("why does the build fail?")
    _read(stream, path, text)
    found = project_home(stream.events)
    if address is None:
        assert found is None
        return
    assert found is not None
    assert found.content == f"The project's repository is https://{address} (named in `{ref}`)."
    assert found.refs == (ref,)
    assert found.files == (path,)


def test_the_remote_git_listed_decides_origin_first() -> None:
    stream = Stream()
    stream.run(
        "git remote -v",
        output="origin\tgit@github.com:dev/shop-fork.git (fetch)\n"
        "origin\tgit@github.com:dev/shop-fork.git (push)\n"
        "upstream\thttps://github.com/acme/shop.git (fetch)\n",
    )
    _read(stream, "go.mod", GO_MOD)  # the upstream's module path: the listing decides
    found = project_home(stream.events)
    assert found is not None
    assert found.content == (
        "The project's repository is https://github.com/dev/shop-fork (named in `git remote -v`)."
    )
    assert found.refs == ()


def test_one_remote_url_printed_by_git_is_the_home() -> None:
    stream = Stream()
    stream.run("git remote get-url origin", output="https://github.com/acme/storefront\n")
    found = project_home(stream.events)
    assert found is not None
    assert "github.com/acme/storefront" in found.content


def test_what_git_push_printed_names_the_home() -> None:
    stream = Stream()
    stream.run(
        "git push origin main",
        output="To github.com:acme/shop.git\n   1a2b3c4..5d6e7f8  main -> main\n",
    )
    found = project_home(stream.events)
    assert found is not None
    assert found.content == (
        "The project's repository is https://github.com/acme/shop (named in `git push origin main`)."
    )


def test_the_pull_request_a_forge_client_opened_names_the_home() -> None:
    stream = Stream()
    stream.run(
        'gh pr create --title "Fix cart totals" --body "…"',
        output="https://github.com/acme/shop/pull/42\n",
    )
    found = project_home(stream.events)
    assert found is not None
    assert found.content.startswith("The project's repository is https://github.com/acme/shop ")


def test_another_repository_a_forge_client_shows_is_not_the_home() -> None:
    stream = Stream()
    stream.run("gh repo view cli/cli", output="cli/cli\nhttps://github.com/cli/cli\n")
    assert project_home(stream.events) is None


@pytest.mark.parametrize(
    "build",
    [
        # Said, not seen: a plan, a question, the assistant's guess.
        lambda s: s.user("Should we move the code to github.com/acme/shop?"),
        lambda s: s.say("I'll create the repository at https://github.com/acme/shop next."),
        # A file outside the project, or in a vendored, dependency or test-data folder.
        lambda s: _read(s, "/home/dev/other/go.mod", GO_MOD),
        lambda s: _read(s, "vendor/github.com/acme/shop/go.mod", GO_MOD),
        lambda s: _read(
            s,
            "node_modules/shop/package.json",
            '{"repository": "github:acme/shop", "homepage": "https://github.com/acme/shop"}',
        ),
        lambda s: _read(s, "tests/fixtures/app/go.mod", GO_MOD),
        # A template's placeholder owner.
        lambda s: _read(s, "README.md", "git clone https://github.com/your-org/shop.git\n"),
        lambda s: _read(s, "README.md", "See https://github.com/USERNAME/shop for details.\n"),
        # Only a dependency's address.
        lambda s: _read(s, "go.mod", "module shop\n\nrequire github.com/spf13/cobra v1.8.0\n"),
        # Git state of another folder.
        lambda s: s.run("cd ../billing && git remote -v", output="origin\tgit@github.com:a/shop"),
        lambda s: s.run("git -C ../billing push", output="To github.com:acme/shop.git\n"),
    ],
    ids=[
        "question",
        "plan",
        "outside",
        "vendored",
        "dependency",
        "test-data",
        "template-owner",
        "placeholder-owner",
        "dependency-only",
        "cd-elsewhere",
        "git-C-elsewhere",
    ],
)
def test_nothing_is_said_without_evidence_of_this_project(build: object) -> None:
    stream = Stream()
    stream.user("look at the project")
    build(stream)  # type: ignore[operator]
    assert project_home(stream.events) is None


def test_conflicting_addresses_say_nothing() -> None:
    stream = Stream()
    _read(stream, "go.mod", GO_MOD)
    _read(stream, "README.md", "Source: https://github.com/someone/shop.\n")
    assert project_home(stream.events) is None


def test_a_full_stop_after_the_address_is_not_part_of_its_name() -> None:
    stream = Stream()
    _read(stream, "README.md", "The code lives at https://github.com/acme/shop.\n")
    _read(stream, "docs/x.md", "See https://github.com/acme/shop.git.\n")
    found = project_home(stream.events)
    assert found is not None
    assert found.content.startswith("The project's repository is https://github.com/acme/shop (")


@pytest.mark.parametrize(
    "build",
    [
        lambda s: s.run("git remote get-url upstream", output="https://github.com/up/shop.git\n"),
        lambda s: s.run("git config --get remote.upstream.url", output="git@github.com:up/shop\n"),
        lambda s: s.run("git fetch upstream", output="From https://github.com/up/shop\n"),
        lambda s: s.run(
            "git pull https://github.com/up/shop main", output="From https://github.com/up/shop\n"
        ),
        lambda s: s.run(
            "gh api repos/up/shop", output='{"html_url": "https://github.com/up/shop"}'
        ),
        lambda s: s.run("gh search repos shop", output="https://github.com/up/shop\n"),
        lambda s: _read(s, "README.md", "# Shop\nForked from https://github.com/up/shop.\n"),
        lambda s: _read(s, "README.md", "A mirror of https://gitlab.com/up/shop\n"),
        lambda s: _read(s, "README.md", "# Shop\n\nLike github.com/foo/shop, but for books.\n"),
        lambda s: _read(
            s, "README.md", "# Shop\n\nInspired by [shop](https://github.com/foo/shop).\n"
        ),
    ],
    ids=[
        "get-url-upstream",
        "config-upstream",
        "fetch-upstream",
        "pull-url",
        "gh-api",
        "gh-search",
        "forked-from",
        "mirror-of",
        "like-another",
        "inspired-by",
    ],
)
def test_a_fork_s_upstream_or_another_repository_is_not_the_home(build: object) -> None:
    stream = Stream()
    stream.user("sync with upstream")
    build(stream)  # type: ignore[operator]
    assert project_home(stream.events) is None


def test_a_line_that_likes_the_project_still_names_its_home() -> None:
    stream = Stream()
    stream.user("where do bugs go?")
    readme = (
        "# Shop\n\nIf you'd like to help, open an issue at https://github.com/acme/shop/issues\n"
    )
    _read(stream, "README.md", readme)
    found = project_home(stream.events)
    assert found is not None and "github.com/acme/shop " in found.content


def test_two_remotes_without_origin_say_nothing() -> None:
    stream = Stream()
    stream.run(
        "git remote -v",
        output="github\tgit@github.com:acme/shop.git (fetch)\n"
        "gitlab\tgit@gitlab.com:acme/shop.git (fetch)\n",
    )
    assert project_home(stream.events) is None


async def test_the_rules_extractor_keeps_the_home_with_its_source_line() -> None:
    stream = Stream()
    stream.user("fix the lint configuration")
    _read(
        stream,
        ".golangci.yml",
        "formatters:\n  settings:\n    gofumpt:\n      module-path: github.com/acme/shop\n",
    )
    home = by_key(await extract(stream))["home"]
    assert home.type == MemoryType.PROJECT_FACT
    assert home.content == (
        "The project's repository is https://github.com/acme/shop (named in `.golangci.yml:4`)."
    )
    assert home.source_refs == (".golangci.yml:4",)
    assert home.file_paths == (".golangci.yml",)


def _recorded(stream: Stream, url: str) -> None:
    """The repository Codex recorded when the session opened (what ingest makes of the
    `git` block of a rollout's `session_meta`)."""
    stream.add(
        "session_repository",
        {"repository_url": url, "branch": "main", "commit": "9a3bedad366f"},
        origin="harness",
    )


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("https://github.com/jdx/fnox.git", "https://github.com/jdx/fnox"),
        (
            "git@github.com:jarvis-systems/brain-node.git",
            "https://github.com/jarvis-systems/brain-node",
        ),
        ("ssh://git@gitlab.com/acme/Ledger.git", "https://gitlab.com/acme/Ledger"),
    ],
    ids=["https", "scp-like-ssh", "ssh-url"],
)
def test_the_repository_the_session_recorded_is_the_home(url: str, address: str) -> None:
    stream = Stream()
    _recorded(stream, url)
    stream.user("why is this failing?")
    found = project_home(stream.events)
    assert found is not None
    assert found.content == (
        f"The project's repository is {address} (named in the session's git metadata)."
    )
    assert found.event_ids == ("evt_0001",)
    assert found.files == () and found.refs == ()


def test_a_recorded_repository_outside_a_known_forge_says_nothing() -> None:
    stream = Stream()
    _recorded(stream, "git@personal:Yangeok/i-cherri.git")  # an ssh host alias
    assert project_home(stream.events) is None


def test_a_recorded_repository_decides_over_the_files_read() -> None:
    stream = Stream()
    _recorded(stream, "https://github.com/dev/shop.git")
    _read(stream, "go.mod", GO_MOD)  # the upstream's module path
    found = project_home(stream.events)
    assert found is not None and "https://github.com/dev/shop " in found.content


@pytest.mark.parametrize(
    "build",
    [
        lambda s: s.run("git remote get-url origin", output="https://github.com/acme/shop\n"),
        lambda s: _recorded(s, "https://github.com/acme/shop-two.git"),
        lambda s: s.run(
            "git push origin main",
            output="To github.com:acme/shop.git\n   1a2b3c4..5d6e7f8  main -> main\n",
        ),
    ],
    ids=["listed-origin", "another-session", "pushed-elsewhere"],
)
def test_evidence_that_disagrees_with_the_recorded_repository_says_nothing(build: object) -> None:
    stream = Stream()
    _recorded(stream, "git@github.com:dev/shop.git")  # a fork's working copy
    build(stream)  # type: ignore[operator]
    assert project_home(stream.events) is None


def test_a_push_to_the_recorded_repository_agrees_with_it() -> None:
    stream = Stream()
    _recorded(stream, "git@github.com:acme/shop.git")
    stream.run(
        "git push", output="To github.com:acme/shop.git\n   1a2b3c4..5d6e7f8  main -> main\n"
    )
    found = project_home(stream.events)
    assert found is not None
    assert found.content == (
        "The project's repository is https://github.com/acme/shop "
        "(named in the session's git metadata)."
    )


def test_the_repository_a_forge_client_shows_for_the_project_is_the_home() -> None:
    stream = Stream()
    stream.run(
        "gh repo view --json url,nameWithOwner",
        output='{"nameWithOwner":"acme/shop","url":"https://github.com/acme/shop"}\n',
    )
    found = project_home(stream.events)
    assert found is not None
    assert found.content == (
        "The project's repository is https://github.com/acme/shop "
        "(named in `gh repo view --json url,nameWithOwner`)."
    )


def test_a_file_that_agrees_with_the_recorded_repository_is_cited_beside_it() -> None:
    stream = Stream()
    _recorded(stream, "git@github.com:acme/shop.git")
    _read(stream, "go.mod", GO_MOD)
    found = project_home(stream.events)
    assert found is not None
    assert found.content == (
        "The project's repository is https://github.com/acme/shop "
        "(named in the session's git metadata and `go.mod:1`)."
    )
    assert found.files == ("go.mod",) and found.refs == ("go.mod:1",)
