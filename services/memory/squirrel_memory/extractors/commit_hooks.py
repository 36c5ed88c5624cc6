"""A git hook the session installed: what runs before each commit (or push) from now on.

Asked to make a step automatic ("can we add this as a git hook?"), a session writes a hook file;
nobody need mention it again, yet every later commit runs it. The rule, the same in every
ecosystem and host:

- the final text of a file the session wrote (as `wrapper_scripts` follows it) is a hook: a
  file under `.git/hooks/` or `.husky/` named for a git hook (`pre-commit`, `pre-push`,
  `commit-msg`, `prepare-commit-msg`), or a `.pre-commit-config.yaml`;
- a shell hook names the commands it runs: its lines once blank lines, comments, `set`, shell
  control words and git's own staging and listing commands are set aside (at most
  `MAX_COMMANDS`); a guard that tests whether one file is staged (`git diff --cached
  --name-only | grep -q "^README.md$"`) says when it runs. A pre-commit configuration names its
  hooks by their `id:`;
- a hook under `.git/hooks/` counts only once a `chmod` let it run (git skips one it may not
  execute; `.husky/` hooks run through husky's own, a configuration through `pre-commit`);
- the statement names the file, when it runs, the commands as written, and that a hook under
  `.git/hooks/` is local to the clone (git keeps no copy of it), so another clone lacks it.
"""

from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.wrapper_scripts import made_executable, written_files
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "git_hook:"
IMPORTANCE = 0.6
MAX_COMMANDS = 3
MAX_COMMAND_CHARS = 120
MAX_HOOK_IDS = 6

#: When each hook runs, as the statement says it.
_WHEN = {
    "pre-commit": "before each commit",
    "prepare-commit-msg": "when each commit message is prepared",
    "commit-msg": "on each commit message",
    "pre-push": "before each push",
}
_HOOK_FOLDERS = (".git/hooks", ".husky")
_CONFIG = ".pre-commit-config.yaml"
#: Lines of a shell hook that are no command of its own: control words, tests, output.
_CONTROL = re.compile(
    r"^(?:if|then|else|elif|fi|for|while|until|do|done|case|esac|exit|return|echo|printf|"
    r"set|shift|local|export|true|false|[\[{}()]|\.|source|trap|exec\s+<|\w+=)(?:\s|;|$|\])"
)
#: git's own commands a hook uses to list or stage files around its real work.
_GIT_PLUMBING = re.compile(
    r"^git\s+(?:add|diff|stash|rev-parse|ls-files|status|update-index|show|log|config)\b"
)
#: A guard that tests whether one file is staged: the file it names.
_STAGED_FILE = re.compile(
    r"git\s+diff\s+--(?:cached|staged)\s+--name-only.*?\|\s*grep\b[^\"']*[\"']\^?"
    r"(?P<file>[\w./-]+?)\$?[\"']"
)
_HOOK_ID = re.compile(r"^[ \t]*-[ \t]+id:[ \t]*[\"']?(?P<id>[\w.-]+)", re.MULTILINE)


def _hook_name(path: str) -> str | None:
    """The git hook `path` is (`pre-commit`, …), or None for any other file."""
    pure = PurePosixPath(path)
    if str(pure.parent).endswith(_HOOK_FOLDERS) and pure.name in _WHEN:
        return pure.name
    return "pre-commit" if pure.name == _CONFIG else None


def _shell_commands(text: str) -> list[str]:
    """The commands a shell hook runs, as written, in order."""
    found: list[str] = []
    for raw in text.splitlines():
        line = raw.strip().removesuffix(";").strip()
        if not line or line.startswith("#") or _CONTROL.match(line) or _GIT_PLUMBING.match(line):
            continue
        if len(line) > MAX_COMMAND_CHARS or "`" in line:
            continue
        try:
            tokens = shlex.split(line)
        except ValueError:
            continue
        if tokens and line not in found:
            found.append(line)
    return found[:MAX_COMMANDS]


def _statement(path: str, hook: str, text: str) -> str | None:
    """What the hook at `path` runs and when, or None when it names nothing."""
    when = _WHEN[hook]
    if PurePosixPath(path).name == _CONFIG:
        ids = list(dict.fromkeys(m.group("id") for m in _HOOK_ID.finditer(text)))[:MAX_HOOK_IDS]
        if not ids:
            return None
        named = ", ".join(f"`{i}`" for i in ids)
        # pre-commit's hooks run only in a clone where `pre-commit install` was run.
        return (
            f"`{path}` lists the pre-commit hooks {named}, run {when} in a clone where "
            "`pre-commit install` was run."
        )
    commands = _shell_commands(text)
    if not commands:
        return None
    staged = _STAGED_FILE.search(text)
    guard = f" when `{staged.group('file')}` is staged" if staged else ""
    runs = " then ".join(f"`{c}`" for c in commands)
    local = (
        " (local to this clone: git keeps no copy of `.git/hooks/`)"
        if path.startswith(".git/")
        else ""
    )
    return f"The git hook `{path}`{local} runs {runs} {when}{guard}."


def commit_hooks(events: list[StoredEvent], runs: list[CommandRun]) -> list[Fact]:
    """Facts naming the git hooks the session wrote and what they run."""
    facts: list[Fact] = []
    for written in written_files(events):
        hook = _hook_name(written.path)
        if hook is None:
            continue
        text = _statement(written.path, hook, written.text)
        executable = made_executable(written.path, runs)
        if text is None or (written.path.startswith(".git/") and not executable):
            continue  # git skips a hook under `.git/hooks/` it may not execute
        facts.append(
            Fact(
                KEY_PREFIX + written.path,
                text,
                ("git", "hook", hook),
                IMPORTANCE,
                (*written.event_ids, *executable),
                (written.path,),
            )
        )
    return facts
