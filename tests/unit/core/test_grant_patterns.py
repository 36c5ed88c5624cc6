"""Team grants: which project ids may be created, which patterns cover which projects, roles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError, PermissionDeniedError
from squirrel_core.project_identity import normalise_remote
from squirrel_core.team_grants import (
    ALL,
    Grant,
    Role,
    check_pattern,
    check_patterns,
    check_project_id,
    is_project_id,
    matches,
    role_for,
)
from squirrel_core.team_tokens import TeamTokens


@pytest.mark.parametrize(
    "good",
    [
        "github.com/acme/shop",
        "gitlab.example.org/group/sub/repo",
        "git-host/team/repo",
        "github.com/acme/shop.web",
        "local:alice-mbp:/home/alice/src/shop",
        "local:ci.box:C:\\work\\shop",
    ],
)
def test_team_ids_of_both_forms_are_accepted(good: str) -> None:
    assert check_project_id(good) == good


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "/etc",
        "../../x",
        "etc",
        "github.com",
        "github.com/",
        "github.com/acme/../payroll",
        "github.com/./acme",
        "github.com//acme",
        "github.com/acme/shop.git",
        "GitHub.com/Acme/Shop",
        "https://github.com/acme/shop",
        "github.com:22/acme/shop",
        "user@github.com/acme/shop",
        "github.com/acme/sh op",
        "github.com/ac\nme/shop",
        "github.com/acme/\x00",
        "-host/acme/shop",
        "local:alice:relative/path",
        "local:alice:/",
        "local:alice:/home/../etc",
        "local::/home/alice",
        "local:/home/alice",
        "github.com/" + "a" * 600,
    ],
)
def test_ids_that_are_not_team_ids_are_refused(bad: str) -> None:
    assert not is_project_id(bad)
    with pytest.raises(InvalidArgumentError):
        check_project_id(bad)


@pytest.mark.parametrize(
    "url",
    [
        "git@github.com:acme/shop.git",
        "https://user:token@GitHub.com/acme/shop/",
        "ssh://git@gitlab.example.org:22/group/sub/repo.git",
        "https://dev.azure.com/org/My%20Project/_git/repo",
    ],
)
def test_every_normalised_remote_is_a_team_id(url: str) -> None:
    found = normalise_remote(url)
    assert found is not None and is_project_id(found)


@pytest.mark.parametrize(
    ("pattern", "project", "covered"),
    [
        ("github.com/acme/*", "github.com/acme/shop", True),
        ("github.com/acme/*", "github.com/acme/team/shop", True),
        ("github.com/acme/*", "github.com/acme", False),
        ("github.com/acme/*", "github.com/acmeco/shop", False),
        ("github.com/acme/*", "github.com/other/payroll", False),
        ("github.com/acme/*", "github.com/acme/../other/payroll", False),
        ("github.com/acme/*", "github.com/acme/./shop", False),
        ("github.com/*", "github.com/anyone/anything", True),
        ("github.com/*", "gitlab.com/anyone/anything", False),
        ("github.com/acme/shop", "github.com/acme/shop", True),
        ("github.com/acme/shop", "github.com/acme/shop2", False),
        ("github.com/acme/shop", "github.com/acme/shop/sub", False),
        ("local:m:/home/a/*", "local:m:/home/a/shop", True),
        ("local:m:/home/a/*", "local:n:/home/a/shop", False),
        (ALL, "github.com/other/payroll", True),
    ],
)
def test_patterns_cover_their_projects_only(pattern: str, project: str, covered: bool) -> None:
    assert check_pattern(pattern) == pattern
    assert matches(pattern, project) is covered


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "/etc/*",
        "../*",
        "github.com/*/shop",
        "github.com/acme*",
        "*/shop",
        "**",
        "github.com/acme/**",
    ],
)
def test_malformed_patterns_are_refused(bad: str) -> None:
    with pytest.raises(InvalidArgumentError):
        check_pattern(bad)


def test_patterns_from_the_command_line_are_split_and_deduplicated() -> None:
    assert check_patterns(["github.com/acme/*, github.com/b/c", "github.com/acme/*"]) == (
        "github.com/acme/*",
        "github.com/b/c",
    )


def test_methods_that_change_a_project_need_write() -> None:
    for method in ("AppendEvents", "Remember", "RememberMany", "Forget", "ConfirmMemory"):
        assert role_for(f"/squirrel.v1.MemoryService/{method}") is Role.WRITE
    for method in ("SearchMemory", "GetTaskContext", "ListMemories", "GetSourceCursors"):
        assert role_for(f"/squirrel.v1.MemoryService/{method}") is Role.READ


def test_recording_what_a_session_was_served_needs_write() -> None:
    # The served log is judged into the project's ranking (a fact served and never used moves
    # down for every teammate): a `read` token may not write it.
    assert role_for("/squirrel.v1.MemoryService/RecordServedMemories") is Role.WRITE
    assert role_for("/squirrel.v1.MemoryService/CorrectMemory") is Role.WRITE


def test_a_grant_refuses_naming_the_project() -> None:
    grant = Grant("abc", "bob", Role.WRITE, ("github.com/acme/*",), max_projects=1)
    grant.require("github.com/acme/shop", Role.WRITE)
    with pytest.raises(PermissionDeniedError, match=r"github\.com/other/payroll"):
        grant.require("github.com/other/payroll", Role.READ)
    with pytest.raises(PermissionDeniedError, match="only an admin"):
        grant.require_create("github.com/acme/new", 0)
    admin = Grant("abd", "ann", Role.ADMIN, ("github.com/acme/*",), max_projects=1)
    admin.require_create("github.com/acme/new", 0)
    with pytest.raises(PermissionDeniedError, match="limit of 1"):
        admin.require_create("github.com/acme/new", 1)
    with pytest.raises(PermissionDeniedError, match=r"github\.com/other/new"):
        admin.require_create("github.com/other/new", 0)


def test_roles_parse_and_order() -> None:
    assert Role.parse(" Write ") is Role.WRITE
    assert Role.READ < Role.WRITE < Role.ADMIN
    with pytest.raises(InvalidArgumentError):
        Role.parse("owner")


def test_tokens_keep_their_grant_and_a_changed_grant_is_read_at_once(tmp_path: Path) -> None:
    tokens = TeamTokens(tmp_path / "tokens.json")
    record, token = tokens.issue("alice", ["github.com/acme/*"], Role.WRITE, max_projects=3)
    grant = tokens.grant_of(token)
    assert grant is not None
    assert (grant.user, grant.role, grant.projects, grant.max_projects) == (
        "alice",
        Role.WRITE,
        ("github.com/acme/*",),
        3,
    )
    TeamTokens(tokens.path).grant(record.id, projects=["github.com/acme/shop"], role=Role.READ)
    changed = tokens.grant_of(token)
    assert changed is not None and changed.role is Role.READ
    assert changed.projects == ("github.com/acme/shop",) and changed.max_projects == 3
    with pytest.raises(NotFoundError):
        tokens.grant("nope", role=Role.ADMIN)
    with pytest.raises(InvalidArgumentError):
        tokens.grant(record.id, projects=["/etc"])
    with pytest.raises(InvalidArgumentError):
        tokens.issue("bob", ["../../x"])


def test_a_token_from_before_grants_reads_everything_and_writes_nothing(tmp_path: Path) -> None:
    tokens = TeamTokens(tmp_path / "tokens.json")
    _, token = tokens.issue("old", ["github.com/acme/*"], Role.ADMIN)
    data = json.loads(tokens.path.read_text())
    for item in data["tokens"]:
        for key in ("role", "projects", "max_projects"):
            del item[key]
    tokens.path.write_text(json.dumps(data) + "\n")
    grant = tokens.grant_of(token)
    assert grant is not None and grant.role is Role.READ and grant.projects == (ALL,)
