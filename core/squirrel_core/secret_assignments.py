"""Assignments that carry a secret, wherever a command gives them: before its program as its
environment (`API_KEY=… npm test`) or after it as an argument (`make SESSION_COOKIE=…`,
`--set auth.password=…`, `-var db_password=…`, `-Dpassword=…`).

An assignment carries a secret when its name says so (TOKEN, SECRET, PASSW, API_KEY, AUTH,
CREDENTIAL, COOKIE, PRIVATE, a KEY, PASS, PAT or DSN part …), whatever its value: ingest
redacts the values it knows, and the name catches the ones it does not. A value ingest
redacted is one too: the command it stands in no longer runs as it is said.
"""

from __future__ import annotations

import re
from typing import Final

from squirrel_core.redaction import REDACTED_PREFIX

#: A name that says its value is a secret.
SECRET_NAME: Final = re.compile(
    r"TOKEN|SECRET|PASSW|PASSPHRASE|(?:^|_)PWD$|API_?KEY|AUTH|CREDENTIAL|COOKIE|PRIVATE"
    r"|(?:^|[_.-])(?:KEY|PASS|PAT|DSN)(?:[_.-]|$)",
    re.IGNORECASE,
)
#: An assignment as one word of a command (an option's own form included: `-Dname=…`,
#: `--name=…`, `auth.password=…`), a quote before it allowed: the name, then the value.
_ASSIGNMENT: Final = re.compile(
    r"""(?<![\w.\-/:=@$])(?P<name>-{0,2}[A-Za-z_][\w.\-]*)=(?P<value>[^\s`]*)"""
)


def states_secret(text: str) -> bool:
    """Whether `text` (a memory, a command) gives an assignment of a secret a value: a
    secret's name with a value (a placeholder or a variable read is none), or an assignment
    whose value ingest redacted."""
    if "=" not in text:
        return False
    return any(
        _given(found.group("value"))
        and (SECRET_NAME.search(found.group("name")) or REDACTED_PREFIX in found.group("value"))
        for found in _ASSIGNMENT.finditer(text)
    )


def _given(value: str) -> bool:
    """Whether an assignment's value is one (not empty, not a placeholder such as `<key>` or
    `…`, not read from the environment or a command: `$TOKEN`, `$(pass show x)`)."""
    value = value.strip("'\"")
    return bool(value) and value[0] not in "<$*{…."


__all__ = ["SECRET_NAME", "states_secret"]
