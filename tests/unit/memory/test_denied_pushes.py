"""A push the forge refused — by the repository's rules, by push protection for a secret — and
ssh's refusal of every key it offered are one pitfall per cause: the trigger, and what got past
it when the session shows it; never the secret's value, its commit or the unblocking address.
A progress line, another error, a search and prose that say "denied" are not kept."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_core.redaction import redact
from squirrel_memory.extractors.denied_access import denied_access
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope, UpdateAction
from squirrel_memory.updates import decide_update
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"
PUBLICKEY = (
    "git@github.com: Permission denied (publickey).\r\nfatal: Could not read from remote "
    "repository.\n\nPlease make sure you have the correct access rights\nand the repository "
    "exists."
)
GH013 = (
    "remote: error: GH013: Repository rule violations found for refs/heads/main.\n"
    "remote: Review all repository rules at https://github.com/acme/ledger/rules?ref=refs%2Fheads"
    "%2Fmain\nremote: \nremote: - Changes must be made through a pull request.\nremote: \n"
    'remote: - Required status check "test" is expected.\nremote: \n'
    "To github.com:acme/ledger.git\n ! [remote rejected] main -> main (push declined due to "
    "repository rule violations)\nerror: failed to push some refs to 'github.com:acme/ledger.git'"
)
SIGNED = (
    "remote: error: GH013: Repository rule violations found for refs/heads/main.\nremote: \n"
    "remote: - Commits must have verified signatures.\nremote: \n"
    " ! [remote rejected] main -> main (push declined due to repository rule violations)"
)
COMMIT = "5477a7dd26384ed3c8b3814ee677f755ad27a597"
UNBLOCK = "2gakJrAududURpxlhIZdNlX14ZZ"
TOKEN = "ghp_" + "R8x2Lq9Vb7Tn3Kd5Hw1Zp6Mc4Yf0Js2Ag8Ue"
SECRETS = (
    "remote: error: GH013: Repository rule violations found for refs/heads/main.\nremote:\n"
    "remote: - GITHUB PUSH PROTECTION\n"
    "remote:   —————————————————————————————————————————\n"
    "remote:     Resolve the following violations before pushing again\nremote:\n"
    "remote:     - Push cannot contain secrets\nremote:\nremote:\n"
    "remote:      (?) Learn how to resolve a blocked push\n"
    "remote:      https://docs.github.com/code-security/secret-scanning/pushing-a-branch-blocked\n"
    "remote:\nremote:\n"
    "remote:       —— GitHub Personal Access Token ——————————————————————\n"
    "remote:        locations:\n"
    f"remote:          - commit: {COMMIT}\n"
    "remote:            path: src/api/client.ts:34\n"
    f"remote:          - commit: {COMMIT}\n"
    "remote:            path: .env:6\nremote:\n"
    "remote:        (?) To push, remove secret from commit(s) or follow this URL to allow the "
    "secret.\n"
    f"remote:        https://github.com/acme/ledger/security/secret-scanning/unblock-secret/{UNBLOCK}"
    "\nremote:\nTo github.com:acme/ledger.git\n"
    " ! [remote rejected] main -> main (push declined due to repository rule violations)\n"
    f"error: failed to push some refs to 'https://github.com/acme/ledger.git'\n{TOKEN}"
)
GITLAB_SECRETS = (
    "remote: PUSH BLOCKED: Secrets detected in code changes\n"
    f"remote: Secret push protection found the following secrets in commit: {COMMIT}\n"
    "remote:\nremote: -- config/settings.yml:2 GitLab Personal Access Token\nremote:\n"
    "remote: To push your changes you must remove the identified secrets."
)


def _failed(command: str, output: str, code: int = 1, session_id: str = "s1") -> Session:
    session = Session(ROOT, session_id, T0)
    session.user("Ship the release.")
    session.run(command, code, output)
    return session


def _stored(content: str, key: str, kind: MemoryType, tags: tuple[str, ...]) -> MemoryItem:
    return MemoryItem(
        id="m1",
        project_id=ROOT,
        user_id=None,
        scope=Scope.PROJECT,
        type=kind,
        key=key,
        content=content,
        tags=tags,
        importance=0.45,
        created_at=T0,
        updated_at=T0,
        source=MemorySource.RULES,
    )


# -- ssh's key refusal ---------------------------------------------------------------------------


def test_a_key_refused_by_ssh_is_a_pitfall_of_its_host() -> None:
    session = _failed("git push origin main", PUBLICKEY, 128)

    (found,) = denied_access(session.events)

    assert found.key == "pitfall:denied:ssh:github.com"
    assert found.content == (
        "ssh to `github.com` refused the keys these commands offer: `git push origin main` "
        "failed with `git@github.com: Permission denied (publickey).`."
    )
    kept = [c for c in session.extracted() if "denied" in c.tags]
    assert [(c.type, c.tags[-1]) for c in kept] == [(MemoryType.PITFALL, "ssh")]


@pytest.mark.parametrize(
    ("command", "host"),
    [
        ("ssh -p 2222 -o BatchMode=yes deploy@build.example.org uptime", "build.example.org"),
        ("git clone git@gitlab.example.com:team/ledger.git", "gitlab.example.com"),
        ("git fetch ssh://git@code.example.net:7999/team/ledger.git", "code.example.net"),
    ],
)
def test_a_refusal_without_the_host_takes_it_from_the_command(command: str, host: str) -> None:
    session = _failed(command, "Permission denied (publickey,password).", 255)
    assert [f.key for f in denied_access(session.events)] == [f"pitfall:denied:ssh:{host}"]


@pytest.mark.parametrize(
    ("fix", "how"),
    [
        (
            "git remote set-url origin https://github.com/acme/ledger.git",
            "the remote switched to https, `git remote set-url origin "
            "https://github.com/acme/ledger.git`",
        ),
        ("ssh-add ~/.ssh/id_deploy", "the key loaded into the agent, `ssh-add ~/.ssh/id_deploy`"),
        (
            "GIT_SSH_COMMAND='ssh -i ~/.ssh/id_deploy' git push origin main",
            "git told which key to use, `GIT_SSH_COMMAND='ssh -i ~/.ssh/id_deploy' git push "
            "origin main`",
        ),
    ],
)
def test_what_got_past_the_refusal_is_said_with_it(fix: str, how: str) -> None:
    session = _failed("git push origin main", PUBLICKEY, 128)
    session.run("git status --short", 0, "")
    session.run(fix, 0, "Identity added: /home/dev/.ssh/id_deploy" if "add" in fix else "")
    if not fix.endswith("push origin main"):
        session.run(
            "git push origin main", 0, "To github.com:acme/ledger.git\n   1a2b..3c4d  main -> main"
        )

    (found,) = denied_access(session.events)

    assert found.content.endswith(f" What got past it: {how}.")
    assert len(found.event_ids) == 2


def test_a_token_in_the_https_address_is_never_shown() -> None:
    session = _failed("git push origin main", PUBLICKEY, 128)
    session.run(f"git remote set-url origin https://dev:{TOKEN}@github.com/acme/ledger.git", 0)
    session.run("git push origin main", 0, "   1a2b..3c4d  main -> main")

    (found,) = denied_access(session.events)

    assert TOKEN not in found.content
    assert "`git remote set-url origin https://github.com/acme/ledger.git`" in found.content


def test_a_change_that_did_not_get_past_it_is_not_said() -> None:
    session = _failed("git push origin main", PUBLICKEY, 128)
    session.run("ssh-add ~/.ssh/id_old", 0, "Identity added")
    session.run("git push origin main", 128, PUBLICKEY)

    (found,) = denied_access(session.events)

    assert "got past" not in found.content


def test_a_change_without_a_later_reach_of_the_host_is_not_said() -> None:
    session = _failed("git push origin main", PUBLICKEY, 128)
    session.run("ssh-add ~/.ssh/id_deploy", 0, "Identity added")

    (found,) = denied_access(session.events)

    assert "got past" not in found.content


def test_an_interactive_rebase_is_no_different_key() -> None:
    session = _failed("git push origin main", PUBLICKEY, 128)
    session.run("git rebase -i HEAD~2", 0, "Successfully rebased")
    session.run("git push origin main", 0, "   1a2b..3c4d  main -> main")

    (found,) = denied_access(session.events)

    assert "got past" not in found.content


def test_repeated_refusals_by_one_host_across_sessions_are_one_memory() -> None:
    first = _failed("git push origin main", PUBLICKEY, 128)
    second = _failed("git fetch origin", PUBLICKEY, 128, session_id="s2")
    second.run("git remote set-url origin https://github.com/acme/ledger.git", 0)
    second.run("git fetch origin", 0, "")
    (old,) = [c for c in first.extracted() if c.key == "pitfall:denied:ssh:github.com"]
    (new,) = [c for c in second.extracted() if c.key == "pitfall:denied:ssh:github.com"]

    assert decide_update(new, [_stored(old.content, old.key, old.type, old.tags)]).action != (
        UpdateAction.ADD_NEW
    )


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        ("git push origin main", 0, "To github.com:acme/ledger.git\n   1a2b..3c4d  main -> main"),
        # a progress line and another error of the same push
        ("git push origin main", 1, "Enumerating objects: 5, done.\nerror: src refspec x"),
        ("grep -rn 'Permission denied (publickey)' docs/", 0, "docs/ssh.md:3:" + PUBLICKEY),
        ("cat logs/deploy.log", 1, PUBLICKEY),  # a file's words, no ssh of its own
        ("git log --oneline", 0, "4d2e1f0 docs: access was denied for keys, explain it"),
    ],
)
def test_publickey_words_outside_a_refused_ssh_are_not_kept(
    command: str, code: int, output: str
) -> None:
    assert denied_access(_failed(command, output, code).events) == []


def test_the_users_prose_about_a_refused_key_is_not_kept() -> None:
    session = Session(ROOT, "s1", T0)
    session.user(f"Pushing gave me this:\n{PUBLICKEY}")
    session.say("Access was denied because the key was not loaded.")
    assert denied_access(session.events) == []


# -- repository rules ----------------------------------------------------------------------------


def test_a_push_refused_by_repository_rules_names_them() -> None:
    session = _failed("git push origin main", GH013)

    (found,) = denied_access(session.events)

    assert found.key == "pitfall:denied:protected:main"
    assert found.content == (
        "`main` is a protected branch: the remote refused `git push origin main` with `error: "
        "GH013: Repository rule violations found for refs/heads/main.` (Changes must be made "
        'through a pull request; Required status check "test" is expected). Changes reach '
        "`main` through another branch and a pull request, not a direct push."
    )


def test_the_way_past_the_rules_is_said_when_the_session_took_it() -> None:
    session = _failed("git push origin main", GH013)
    session.run("git switch -c fix/rounding", 0, "Switched to a new branch 'fix/rounding'")
    session.run(
        "git push -u origin fix/rounding", 0, " * [new branch]      fix/rounding -> fix/rounding"
    )
    session.run(
        'gh pr create --fill --title "Fix rounding"', 0, "https://github.com/acme/ledger/pull/9"
    )

    (found,) = denied_access(session.events)

    assert found.content.endswith(
        " This session did so: it pushed another branch and opened the pull request with "
        "`gh pr create`."
    )
    assert len(found.event_ids) == 2


def test_a_request_opened_without_another_branch_pushed_is_not_said() -> None:
    session = _failed("git push origin main", GH013)
    session.run(
        'gh pr create --fill --title "Fix rounding"', 0, "https://github.com/acme/ledger/pull/9"
    )

    (found,) = denied_access(session.events)

    assert "This session" not in found.content


def test_rules_that_ask_for_no_request_are_named_alone() -> None:
    session = _failed("git push origin main", SIGNED)

    (found,) = denied_access(session.events)

    assert found.content == (
        "The repository's rules for `main` refused pushes: the remote refused `git push origin "
        "main` with `error: GH013: Repository rule violations found for refs/heads/main.` "
        "(Commits must have verified signatures)."
    )


def test_rules_printed_by_no_push_are_not_kept() -> None:
    session = _failed("gh run view 88 --log-failed", GH013)
    assert denied_access(session.events) == []


# -- push protection -----------------------------------------------------------------------------


def test_a_push_blocked_for_a_secret_names_its_type_and_files_only() -> None:
    session = _failed(f"git push https://dev:{TOKEN}@github.com/acme/ledger.git main", SECRETS)

    (found,) = denied_access(session.events)

    assert found.key == "pitfall:denied:push-protection:src/api/client.ts"
    assert found.content == (
        "The remote's push protection blocks commits that hold a secret: `git push "
        "https://github.com/acme/ledger.git main` was refused for a GitHub Personal Access "
        "Token in `src/api/client.ts` and `.env`. Such a value stays out of committed files; "
        "a blocked push goes through once no pushed commit holds it."
    )
    assert found.files == ("src/api/client.ts", ".env")
    kept = [c for c in session.extracted() if "push-protection" in c.tags]
    assert len(kept) == 1
    for text in (found.content, found.key, kept[0].content, kept[0].key):
        assert TOKEN not in text and COMMIT not in text and COMMIT[:7] not in text
        assert UNBLOCK not in text and "unblock" not in text
        assert redact(text)[1] == 0


def test_gitlabs_push_protection_is_read_too() -> None:
    session = _failed("git push origin feature/config", GITLAB_SECRETS)

    (found,) = denied_access(session.events)

    assert found.key == "pitfall:denied:push-protection:config/settings.yml"
    assert "a GitLab Personal Access Token in `config/settings.yml`" in found.content
    assert COMMIT not in found.content


def test_a_type_or_path_that_looks_like_a_value_is_left_out() -> None:
    output = SECRETS.replace("GitHub Personal Access Token", f"Token {TOKEN}").replace(
        "path: .env:6", f"path: keys/{COMMIT}.pem:1"
    )
    session = _failed("git push origin main", output)

    assert denied_access(session.events) == []


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        ("git push origin main", 0, "To github.com:acme/ledger.git\n   1a2b..3c4d  main -> main"),
        ("cat docs/push-protection.md", 0, SECRETS),  # a page that quotes it
        (
            "git push origin main",
            1,
            "remote: Counting objects: 100% (5/5), done.\n"
            "error: failed to push some refs: secrets are denied by policy",
        ),
    ],
)
def test_push_protection_words_outside_a_blocked_push_are_not_kept(
    command: str, code: int, output: str
) -> None:
    assert denied_access(_failed(command, output, code).events) == []


@pytest.mark.parametrize(
    ("failed", "fix", "host", "how"),
    [
        (
            "git clone git@github.com:acme/ledger.git",
            "git clone https://github.com/acme/ledger.git",
            "github.com",
            "the same over https, `git clone https://github.com/acme/ledger.git`",
        ),
        (
            "ssh deploy@build.example.org uptime",
            "ssh -i ~/.ssh/id_build deploy@build.example.org uptime",
            "build.example.org",
            "a different key, `ssh -i ~/.ssh/id_build deploy@build.example.org uptime`",
        ),
    ],
)
def test_a_run_that_reached_the_host_another_way_is_what_got_past_it(
    failed: str, fix: str, host: str, how: str
) -> None:
    session = _failed(
        failed,
        f"{'git@github.com' if 'git' in failed else 'deploy@' + host}: "
        "Permission denied (publickey).",
        255,
    )
    session.run(fix, 0, "up 3 days")

    (found,) = denied_access(session.events)

    assert found.key == f"pitfall:denied:ssh:{host}"
    assert found.content.endswith(f" What got past it: {how}.")


def test_a_key_for_another_host_is_not_what_got_past_it() -> None:
    session = _failed("git push origin main", PUBLICKEY, 128)
    session.run("git remote set-url backup https://gitlab.example.com/acme/ledger.git", 0)
    session.run("git push origin main", 0, "   1a2b..3c4d  main -> main")

    (found,) = denied_access(session.events)

    assert "got past" not in found.content
