"""Hook settings writers: merged with others' hooks, idempotent, removed cleanly, malformed kept."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from squirrel_cli import hook_client, hook_config
from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError

PROGRAM = "/opt/squirrel/bin/sqrl"
OTHERS = {
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": "echo hi"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard"}]}],
    },
}


def target_for(host: str, tmp_path: Path) -> hook_config.HookTarget:
    return hook_config.target(host, repo=tmp_path / "repo", home=tmp_path / "home")


@pytest.mark.parametrize("host", hook_config.HOSTS)
def test_install_keeps_other_hooks_and_settings(host: str, tmp_path: Path) -> None:
    target = target_for(host, tmp_path)
    target.path.parent.mkdir(parents=True)
    target.path.write_text(json.dumps(OTHERS))
    assert hook_config.install(target, PROGRAM) == "added"
    data = json.loads(target.path.read_text())
    assert data["permissions"] == OTHERS["permissions"]
    assert data["hooks"]["PreToolUse"] == OTHERS["hooks"]["PreToolUse"]
    starts = data["hooks"]["SessionStart"]
    assert starts[0] == OTHERS["hooks"]["SessionStart"][0]
    assert sorted(hook_config.installed_events(target)) == sorted(target.events)
    ours = starts[-1]["hooks"][0]
    assert ours["command"] == f"{PROGRAM} hook {host} SessionStart"


@pytest.mark.parametrize("host", hook_config.HOSTS)
def test_install_twice_changes_nothing(host: str, tmp_path: Path) -> None:
    target = target_for(host, tmp_path)
    assert hook_config.install(target, PROGRAM) == "added"
    first = target.path.read_bytes()
    assert hook_config.install(target, PROGRAM) == "unchanged"
    assert target.path.read_bytes() == first


def test_a_moved_program_updates_the_entries_in_place(tmp_path: Path) -> None:
    target = target_for("claude", tmp_path)
    hook_config.install(target, PROGRAM)
    assert hook_config.install(target, "/new place/sqrl") == "updated"
    data = json.loads(target.path.read_text())
    commands = [h["command"] for g in data["hooks"]["SessionStart"] for h in g["hooks"]]
    assert commands == ["'/new place/sqrl' hook claude SessionStart"]


@pytest.mark.parametrize("host", hook_config.HOSTS)
def test_remove_takes_out_exactly_its_own_entries(host: str, tmp_path: Path) -> None:
    target = target_for(host, tmp_path)
    target.path.parent.mkdir(parents=True)
    target.path.write_text(json.dumps(OTHERS))
    hook_config.install(target, PROGRAM)
    assert hook_config.remove(target) == "removed"
    assert json.loads(target.path.read_text()) == OTHERS
    assert hook_config.remove(target) == "absent"


def test_remove_from_a_file_with_only_ours_leaves_no_empty_hooks(tmp_path: Path) -> None:
    target = target_for("gemini", tmp_path)
    target.path.parent.mkdir(parents=True)
    target.path.write_text(json.dumps({"theme": "dark"}))
    hook_config.install(target, PROGRAM)
    hook_config.remove(target)
    assert json.loads(target.path.read_text()) == {"theme": "dark"}


@pytest.mark.parametrize(
    "content",
    ["{not json", "[1, 2]", '{"hooks": ["a"]}', '{"hooks": {"SessionStart": {"x": 1}}}', "\udcff"],
)
def test_malformed_settings_are_left_untouched(content: str, tmp_path: Path) -> None:
    target = target_for("claude", tmp_path)
    target.path.parent.mkdir(parents=True)
    target.path.write_bytes(content.encode("utf-8", "surrogateescape"))
    before = target.path.read_bytes()
    with pytest.raises(FailedPreconditionError):
        hook_config.install(target, PROGRAM)
    with pytest.raises(FailedPreconditionError):
        hook_config.remove(target)
    assert target.path.read_bytes() == before
    assert hook_config.installed_events(target) == []


def test_default_scopes_never_touch_a_committed_claude_file(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    assert hook_config.target("claude", repo=repo, home=home).path == (
        repo / ".claude" / "settings.local.json"
    )
    assert hook_config.target("codex", repo=repo, home=home).path == home / ".codex" / "hooks.json"
    assert hook_config.target("gemini", repo=repo, home=home).path == (
        home / ".gemini" / "settings.json"
    )


def git_repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def untracked(repo: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_claudes_local_file_is_kept_out_of_git_once(tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "repo")
    (repo / ".git" / "info" / "exclude").write_text("# mine\n*.swp\n")
    target = target_for("claude", tmp_path)
    hook_config.install(target, PROGRAM)
    assert untracked(repo) == "?? .claude/settings.local.json\n"
    assert hook_config.keep_out_of_git(target) == repo / ".git" / "info" / "exclude"
    assert hook_config.keep_out_of_git(target) == repo / ".git" / "info" / "exclude"
    assert untracked(repo) == ""
    lines = (repo / ".git" / "info" / "exclude").read_text().splitlines()
    assert lines == ["# mine", "*.swp", hook_config.EXCLUDE_HEADER, "/.claude/settings.local.json"]


def test_a_linked_worktree_excludes_through_the_common_git_dir(tmp_path: Path) -> None:
    main = git_repo(tmp_path / "main")
    git = ["git", "-C", str(main), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    linked = tmp_path / "linked"
    subprocess.run([*git, "worktree", "add", "-q", str(linked)], check=True)
    target = hook_config.target("claude", repo=linked.resolve(), home=tmp_path / "home")
    hook_config.install(target, PROGRAM)
    assert hook_config.keep_out_of_git(target) == (main / ".git" / "info" / "exclude").resolve()
    assert untracked(linked) == ""


def test_files_that_are_not_this_machines_are_left_to_git(tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "repo")
    for host in hook_config.HOSTS:
        shared = hook_config.target(host, repo=repo, home=tmp_path / "home", scope="project")
        if host != "claude":
            assert hook_config.keep_out_of_git(shared) is None
    user = hook_config.target("claude", repo=repo, home=tmp_path / "home", scope="user")
    assert hook_config.keep_out_of_git(user) is None
    # Not a repository: nothing to exclude from.
    assert hook_config.keep_out_of_git(target_for("claude", tmp_path / "plain")) is None


def test_hosts_are_parsed_and_checked() -> None:
    assert hook_config.parse_hosts(None) == list(hook_config.HOSTS)
    assert hook_config.parse_hosts("Codex, claude,codex") == ["codex", "claude"]
    with pytest.raises(InvalidArgumentError):
        hook_config.parse_hosts("claude,cursor")


def test_only_sqrl_hook_commands_count_as_ours() -> None:
    assert hook_config.is_squirrel_hook({"type": "command", "command": "sqrl hook claude Stop"})
    assert hook_config.is_squirrel_hook({"command": "'/a b/sqrl' hook codex Stop"})
    assert not hook_config.is_squirrel_hook({"type": "command", "command": "sqrl status"})
    assert not hook_config.is_squirrel_hook({"type": "command", "command": "mysqrl hook x y"})
    assert not hook_config.is_squirrel_hook({"type": "http", "url": "http://x/sqrl hook"})
    assert not hook_config.is_squirrel_hook({"type": "command", "command": "sqrl hook 'unclosed"})


@pytest.mark.parametrize(
    ("config", "env", "expected"),
    [
        (None, None, 1000),
        ("[hooks]\ndeadline_ms = 250\n", None, 250),
        ("[hooks]\ndeadline_ms = 250\n", "400", 400),
        ("[hooks\ndeadline_ms = = 3", None, 1000),
        ("[hooks]\ndeadline_ms = 5\n", None, 1000),
        ("[hooks]\ndeadline_ms = 'soon'\n", None, 1000),
        (None, "never", 1000),
    ],
)
def test_the_hook_deadline_comes_from_env_or_config_and_falls_back(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    config: str | None,
    env: str | None,
    expected: int,
) -> None:
    if config is not None:
        (tmp_path / "config.toml").write_text(config)
    if env is None:
        monkeypatch.delenv("SQRL_HOOKS_DEADLINE_MS", raising=False)
    else:
        monkeypatch.setenv("SQRL_HOOKS_DEADLINE_MS", env)
    assert hook_client.deadline_ms(tmp_path) == expected
