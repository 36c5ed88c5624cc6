"""A command refused for want of access — `sudo` with no terminal for its password, a push to
a protected branch, a path the system denied — is one pitfall per cause, fixed or not; the
same words in a file read, a search's output, a passing command's output or the user's prose,
a tree walk's complaints and ssh's key refusal are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.denied_access import denied_access, denied_path
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope, UpdateAction
from squirrel_memory.updates import decide_update
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 2, 9, 0, tzinfo=UTC)
C_LIB = "/home/dev/tensor"  # a C library with a CUDA back end
PY_LIB = "/home/dev/ledger"  # a Python package released from `main`
SUDO = (
    "sudo: a terminal is required to read the password; either use the -S option to read from "
    "standard input or configure an askpass helper\nsudo: a password is required"
)
GH006 = (
    "remote: error: GH006: Protected branch update failed for refs/heads/main.\nremote: \n"
    "remote: - 3 of 3 required status checks are expected.\n"
    "To github.com:acme/ledger.git\n ! [remote rejected] main -> main (protected branch hook "
    "declined)\nerror: failed to push some refs to 'github.com:acme/ledger.git'"
)
GITLAB = (
    "remote: GitLab: You are not allowed to push code to protected branches on this project.\n"
    "To gitlab.com:acme/ledger.git\n ! [remote rejected] develop -> develop (pre-receive hook "
    "declined)\nerror: failed to push some refs to 'gitlab.com:acme/ledger.git'"
)


def _failed(root: str, command: str, output: str, code: int = 1) -> Session:
    session = Session(root, "s1", T0)
    session.user("Install what the build needs and ship it.")
    session.run(command, code, output)
    return session


def test_sudo_without_a_terminal_is_a_pitfall_with_the_command_as_run() -> None:
    session = _failed(C_LIB, "sudo dpkg -i cuda-keyring_1.1-1_all.deb", SUDO)

    (found,) = denied_access(session.events)

    assert found.key == "pitfall:denied:sudo"
    assert found.content == (
        "`sudo` cannot ask for a password where these commands run: `sudo dpkg -i "
        "cuda-keyring_1.1-1_all.deb` failed with `sudo: a terminal is required to read the "
        "password`. A step that needs root fails here; the user runs it in their own terminal."
    )
    assert found.event_ids == (session.events[-1].id,)
    kept = [c for c in session.extracted() if "denied" in c.tags]
    assert [c.type for c in kept] == [MemoryType.PITFALL]


@pytest.mark.parametrize(
    "command",
    ["apt-get update && sudo apt-get install -y ripgrep", "cat key.asc | sudo tee /etc/k.asc"],
)
def test_sudo_anywhere_on_the_line_counts(command: str) -> None:
    session = _failed(C_LIB, command, "sudo: a password is required")
    assert [f.key for f in denied_access(session.events)] == ["pitfall:denied:sudo"]


def test_repeated_sudo_failures_are_one_pitfall() -> None:
    session = _failed(C_LIB, "sudo apt-get update", SUDO)
    session.run("sudo apt-get install cuda-toolkit-12-6", 1, SUDO)

    assert len(denied_access(session.events)) == 1


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        ("ssh gpu-box sudo nvidia-smi", 1, SUDO),  # a remote host's sudo
        ("cat notes/setup.md", 0, SUDO),  # a file that quotes it
        ("grep -rn 'terminal is required' docs/", 0, "docs/a.md:3:" + SUDO),  # a search
        ("sudo make install", None, SUDO),  # declined: it never ran
    ],
)
def test_sudo_words_outside_a_failed_sudo_run_are_not_kept(
    command: str, code: int | None, output: str
) -> None:
    session = _failed(C_LIB, command, output, code) if code is not None else None
    if session is None:
        session = Session(C_LIB, "s1", T0)
        session.typed(command, "", output)
    assert denied_access(session.events) == []


def test_a_sudo_that_passed_in_the_session_keeps_nothing() -> None:
    session = _failed(C_LIB, "sudo dpkg -i cuda-keyring_1.1-1_all.deb", SUDO)
    session.run("sudo -n true", 0, "")
    assert denied_access(session.events) == []


def test_the_users_prose_and_a_read_file_are_not_failures() -> None:
    session = Session(C_LIB, "s1", T0)
    session.user(f"Last time I got this:\n{SUDO}\nand also {GH006}")
    session.read("docs/INSTALL.md", f"If you see `{SUDO}` run it yourself.\n{GH006}")
    session.say("Permission denied errors mean the file mode is wrong.")
    assert denied_access(session.events) == []


@pytest.mark.parametrize(
    ("output", "branch", "said"),
    [
        (
            GH006,
            "main",
            "`main` is a protected branch: the remote refused `git tag v0.16.1 && git push "
            "origin main --tags 2>&1` with `error: GH006: Protected branch update failed for "
            "refs/heads/main.` (3 of 3 required status checks are expected). Changes reach "
            "`main` through another branch and a pull request, not a direct push.",
        ),
        (
            GITLAB,
            "develop",
            "`develop` is a protected branch: the remote refused `git tag v0.16.1 && git push "
            "origin main --tags 2>&1` with `You are not allowed to push code to protected "
            "branches on this project.`. Changes reach `develop` through another branch and a "
            "merge request, not a direct push.",
        ),
    ],
)
def test_a_push_refused_by_a_protected_branch_is_a_pitfall(
    output: str, branch: str, said: str
) -> None:
    session = _failed(PY_LIB, "git tag v0.16.1 && git push origin main --tags 2>&1", output)

    (found,) = denied_access(session.events)

    assert found.key == f"pitfall:denied:protected:{branch}"
    assert found.content == said


def test_a_hook_declined_push_without_the_protected_line_is_not_kept() -> None:
    output = (
        "remote: error: commit message does not follow the convention\n"
        " ! [remote rejected] main -> main (pre-receive hook declined)"
    )
    session = _failed(PY_LIB, "git push origin main", output)
    assert denied_access(session.events) == []


def test_a_later_push_that_updated_the_branch_keeps_nothing() -> None:
    session = _failed(PY_LIB, "git push origin main", GH006)
    session.run(
        "git push origin main", 0, "To github.com:acme/ledger.git\n   1a2b..3c4d  main -> main"
    )
    assert denied_access(session.events) == []


def test_a_refusal_printed_by_a_command_that_is_no_push_is_not_kept() -> None:
    session = _failed(PY_LIB, "gh run view 88 --log-failed | grep -B2 GH006", GH006)
    assert denied_access(session.events) == []


@pytest.mark.parametrize(
    ("output", "path"),
    [
        ("bash: ./scripts/release.sh: Permission denied", "./scripts/release.sh"),
        ("/bin/sh: 1: ./run: Permission denied", "./run"),
        ("zsh: permission denied: ./gradlew", "./gradlew"),
        ("mkdir: cannot create directory '/opt/tools': Permission denied", "/opt/tools"),
        (
            "PermissionError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/x'",
            "/usr/lib/python3/dist-packages/x",
        ),
        (
            "npm error Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/x'",
            "/usr/local/lib/node_modules/x",
        ),
        (
            "error: failed to open file `/home/dev/.cache/uv/sdists-v9/.git`: Permission denied "
            "(os error 13)",
            "/home/dev/.cache/uv/sdists-v9/.git",
        ),
        (
            "Got permission denied while trying to connect: dial unix /var/run/docker.sock: "
            "connect: permission denied",
            "/var/run/docker.sock",
        ),
        (
            "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission "
            "denied)",
            "/var/lib/dpkg/lock-frontend",
        ),
    ],
)
def test_each_runtimes_permission_denied_line_names_the_path(output: str, path: str) -> None:
    assert denied_path(output)[0] == path


@pytest.mark.parametrize(
    "output",
    [
        "git@github.com: Permission denied (publickey).",  # a key, not a path
        "find: '/proc/1/fd': Permission denied",  # a walk's by-the-way
        "grep: ./private: Permission denied",
        "logs/app.log:12:error: Permission denied",  # a search's hit
        "2026-06-02 09:00 WARN upload failed: permission denied by policy",  # a log's words
    ],
)
def test_other_permission_denied_words_name_no_path(output: str) -> None:
    assert denied_path(output) == ("", "")


def test_a_denied_path_is_a_pitfall_with_the_command_as_run() -> None:
    output = (
        "error: failed to open file `/home/dev/.cache/uv/sdists-v9/.git`: Permission denied "
        "(os error 13)"
    )
    session = _failed(PY_LIB, "uv run ledger-mcp --help", output, 2)

    (found,) = denied_access(session.events)

    assert found.key == "pitfall:denied:path:~/.cache/uv/sdists-v9/.git"
    assert found.content == (
        "Access to `~/.cache/uv/sdists-v9/.git` is denied to the user these commands run as: "
        "`uv run ledger-mcp --help` failed with `error: failed to open file "
        "'~/.cache/uv/sdists-v9/.git': Permission denied (os error 13)`. A step that reads, "
        "writes or runs it fails until its permissions (or the user) change."
    )


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("./scripts/release.sh", 0),  # the command passed despite the line
        ("grep -rn 'Permission denied' logs/", 1),  # a search for the words
    ],
)
def test_a_denied_line_outside_a_failure_of_its_own_is_not_kept(command: str, code: int) -> None:
    session = _failed(PY_LIB, command, "bash: ./scripts/release.sh: Permission denied", code)
    assert denied_access(session.events) == []


def test_a_denied_path_fixed_by_a_later_pass_of_the_command_is_left_to_the_fix() -> None:
    session = _failed(
        PY_LIB, "./scripts/release.sh", "bash: ./scripts/release.sh: Permission denied"
    )
    session.run("chmod +x scripts/release.sh", 0)
    session.run("./scripts/release.sh", 0, "released")
    assert denied_access(session.events) == []


def test_the_same_refusal_in_another_session_restates_one_memory() -> None:
    first = _failed(C_LIB, "sudo apt-get update", SUDO)
    second = Session(C_LIB, "s2", T0.replace(day=9))
    second.run("sudo apt-get install -y cuda-toolkit-12-6", 1, SUDO)
    (old,) = [c for c in first.extracted() if c.key == "pitfall:denied:sudo"]
    (new,) = [c for c in second.extracted() if c.key == "pitfall:denied:sudo"]
    stored = MemoryItem(
        id="m1",
        project_id=C_LIB,
        user_id=None,
        scope=Scope.PROJECT,
        type=old.type,
        key=old.key,
        content=old.content,
        tags=old.tags,
        importance=old.importance,
        created_at=T0,
        updated_at=T0,
        source=MemorySource.RULES,
    )

    assert decide_update(new, [stored]).action != UpdateAction.ADD_NEW


def test_a_denied_path_inside_the_project_is_said_from_its_root() -> None:
    output = f"bash: {PY_LIB}/scripts/release.sh: Permission denied"
    session = _failed(PY_LIB, f"{PY_LIB}/scripts/release.sh v1", output, 126)

    (found,) = denied_access(session.events)

    assert found.key == "pitfall:denied:path:scripts/release.sh"
    assert PY_LIB not in found.content


SANDBOXED = "/home/dev/quire"  # worked in by an agent whose host runs commands in a sandbox


@pytest.mark.parametrize(
    ("command", "output", "line", "key"),
    [
        (
            "git add -A",
            "failed in sandbox: fatal: Unable to create '/home/dev/quire/.git/index.lock': "
            "Operation not permitted\n",
            "fatal: Unable to create '.git/index.lock': Operation not permitted",
            "pitfall:denied:sandbox:git",
        ),
        (
            "python - << 'PY'\nprint(1)\nPY",
            "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, "
            "exit code: 1, stdout: , stderr: bash: cannot create temp file for here document: "
            "Operation not permitted\n",
            "bash: cannot create temp file for here document: Operation not permitted",
            "pitfall:denied:sandbox:python",
        ),
    ],
    ids=["git-metadata", "here-document"],
)
def test_a_write_the_agents_sandbox_refused_is_a_pitfall(
    command: str, output: str, line: str, key: str
) -> None:
    session = _failed(SANDBOXED, command, output)
    (found,) = denied_access(session.events)
    assert found.key == key
    assert f"failed with `{line}`" in found.content, found.content
    assert found.content.startswith("The agent's sandbox refused `"), found.content
    assert "/home/dev" not in found.content


@pytest.mark.parametrize(
    "output",
    [
        # The same words without the host's sandbox: the system's permissions (`_path`'s) or
        # a program's own message.
        "fatal: Unable to create '/home/dev/quire/.git/index.lock': File exists.\n",
        "rm: cannot remove 'build/x': Operation not permitted\n",
        # The host's sandbox line with no refusal of the command's own.
        "failed in sandbox: error: pathspec 'nope' did not match any file(s) known to git\n",
    ],
)
def test_no_sandbox_refusal_without_both_the_hosts_and_the_commands_lines(output: str) -> None:
    session = _failed(SANDBOXED, "git add nope", output)
    assert not [d for d in denied_access(session.events) if "sandbox" in d.key]


BWRAP = "bwrap: Unexpected capabilities but not setuid, old file caps config?\n"


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("pwd && rg --files -g package.json", BWRAP),
        ("npm test", "sandbox-exec: sandbox_apply: Operation not permitted\n"),
    ],
)
def test_a_sandbox_that_could_not_start_is_a_pitfall_of_the_machine(
    command: str, output: str
) -> None:
    session = _failed(SANDBOXED, command, output)
    session.run(command, 0, "ok")

    (found,) = denied_access(session.events)

    assert found.key == "pitfall:denied:sandbox:start"
    assert found.content.startswith("The agent's sandbox could not start on this machine")
    assert output.strip() in found.content and "outside the sandbox" in found.content


@pytest.mark.parametrize(
    ("output", "then"),
    [
        (BWRAP, None),  # never run again: what passes outside it is not seen
        (BWRAP, "rg --files"),  # another command passed, not the one that failed
        ("error: bwrap: not found in PATH\n", "pwd && rg --files -g package.json"),  # not first
    ],
)
def test_no_sandbox_start_lesson_without_its_line_first_and_the_same_command_passing(
    output: str, then: str | None
) -> None:
    session = _failed(SANDBOXED, "pwd && rg --files -g package.json", output)
    if then:
        session.run(then, 0, "ok")
    assert not [d for d in denied_access(session.events) if d.key.endswith(":start")]
