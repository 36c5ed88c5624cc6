"""ssh refusing the keys on offer (`git@github.com: Permission denied (publickey).`) to a
command of ssh, git, scp, sftp or rsync: one pitfall per host, with what got past it when a
later run of the session reached the host after a change (the remote switched to https, the
key loaded, another key, git told which key to use). See `denied_access` for the rule."""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.refusal_parts import (
    MAX_LINE_CHARS,
    NAMES_WORDS,
    DeniedAccess,
    git_verb,
    output_lines,
    shown_command,
)

#: ssh refused every key it offered: `git@github.com: Permission denied (publickey).`
_PUBLICKEY = re.compile(
    r"^(?:(?P<user>[\w.-]+)@)?(?:(?P<host>[\w.-]+): )?"
    r"Permission denied \((?:[\w-]+,)*publickey(?:,[\w-]+)*\)\.?$"
)
#: Programs that reach a host over ssh.
_SSH_PROGRAMS = frozenset({"ssh", "git", "scp", "sftp", "rsync", "ssh-copy-id"})
#: ssh's options that take a value.
_SSH_VALUED = frozenset("bcDEeFIiJLlmOopQRSWw")
_SCP_LIKE = re.compile(r"^[\w.-]+@(?P<host>[\w.-]+):")
_SSH_URL = re.compile(r"^(?:git\+)?ssh://(?:[^@/\s]+@)?(?P<host>[\w.-]+)")
_HTTPS_URL = re.compile(r"^https?://(?:[^@/\s]+@)?(?P<host>[\w.-]+)")
_NETWORK_VERBS = frozenset({"push", "pull", "fetch", "clone", "ls-remote"})


def _ssh_host(run: CommandRun) -> str:
    """The host the command reaches over ssh: `ssh [opts] [user@]host`, a `user@host:path` or
    `ssh://` address among a command's words, else ""."""
    for tokens in run.segments:
        if tokens[0] not in _SSH_PROGRAMS:
            continue
        if tokens[0] == "ssh":
            named = [t for t in tokens[1:] if "@" in t and not t.startswith("-")]
            if named:
                return named[0].rsplit("@", 1)[-1].lower()
            rest = tokens[1:]
            while rest and rest[0].startswith("-"):
                flag = rest[0]
                rest = rest[2:] if len(flag) == 2 and flag[1] in _SSH_VALUED else rest[1:]
            if rest:
                return rest[0].rsplit("@", 1)[-1].lower()
            continue
        for token in tokens[1:]:
            found = _SCP_LIKE.match(token) or _SSH_URL.match(token)
            if found:
                return found.group("host").lower()
    return ""


def refused_key(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    """ssh refused the keys on offer: one pitfall per host, with what got past it when the
    session shows it."""
    if NAMES_WORDS.search(run.command) or not any(
        tokens[0] in _SSH_PROGRAMS for tokens in run.segments
    ):
        return None
    line, host = "", ""
    for raw in output_lines(run.output):
        found = _PUBLICKEY.match(raw)
        if found:
            line, host = raw, (found.group("host") or "").lower()
            break
    host = host or _ssh_host(run)
    if not line or not host:
        return None
    content = (
        f"ssh to `{host}` refused the keys these commands offer: `{shown_command(run)}` "
        f"failed with `{clipped(line, MAX_LINE_CHARS)}`."
    )
    ids: tuple[str, ...] = (run.event_id,)
    past = _past_refused_key(run, runs, host)
    if past is not None:
        how, fix = past
        content += f" What got past it: {how}, `{shown_command(fix)}`."
        ids = (run.event_id, fix.event_id)
    return DeniedAccess(f"pitfall:denied:ssh:{host}", content, ids)


def _reached(run: CommandRun, host: str) -> bool:
    """Whether `run` got through to `host` (or to a git remote it does not name)."""
    if run.ok is not True and "successfully authenticated" not in run.output:
        return False
    for tokens in run.segments:
        if tokens[0] == "ssh" and _ssh_host(run) == host:
            return True
        if git_verb(tokens) in _NETWORK_VERBS:
            named = {
                (_SCP_LIKE.match(t) or _SSH_URL.match(t) or _HTTPS_URL.match(t)) for t in tokens
            } - {None}
            hosts = {found.group("host").lower() for found in named if found}
            if not hosts or host in hosts:
                return True
    return False


def _https_to(tokens: list[str], host: str) -> bool:
    """Whether one of `tokens` is an https address of `host`."""
    return any(
        (https := _HTTPS_URL.match(t)) is not None and https.group("host").lower() == host
        for t in tokens
    )


def _difference(run: CommandRun, host: str) -> str:
    """What `run` changed in how the host is reached, described, else ""."""
    for tokens in run.segments:
        verb = git_verb(tokens)
        if verb == "remote" and "set-url" in tokens and _https_to(tokens, host):
            return "the remote switched to https"
        if tokens[0] == "ssh-add":
            return "the key loaded into the agent"
        if "GIT_SSH_COMMAND=" in run.command or "core.sshCommand" in run.command:
            return "git told which key to use"
        if tokens[0] in ("ssh", "scp", "sftp") and "-i" in tokens:
            return "a different key"
        if verb in _NETWORK_VERBS and _https_to(tokens, host):
            return "the same over https"
    return ""


def _past_refused_key(
    failed: CommandRun, runs: list[CommandRun], host: str
) -> tuple[str, CommandRun] | None:
    """(what changed, the run that changed it) when a later run of the session reached `host`
    after a change the session made, else None."""
    changed: tuple[str, CommandRun] | None = None
    for other in runs:
        if other.session_id != failed.session_id or other.timestamp <= failed.timestamp:
            continue
        if other.ok is True or "successfully authenticated" in other.output:
            how = _difference(other, host)
            if how and changed is None:
                changed = (how, other)
        if _reached(other, host):
            return changed
        if other.ok is False and _PUBLICKEY.search(other.output):
            changed = None  # that change did not get past it
    return None
