"""What a team token may do: its role, the projects it is granted, how many it may create.

A grant names projects by their team id (`github.com/acme/shop`, `local:<machine>:<path>`) or
by a pattern: `github.com/acme/*` (every project below `github.com/acme/`, at any depth) or `*`
(every project on the server). The role is one of `read` (views, search, context, listing),
`write` (also delivering events and remembering, forgetting, confirming, correcting) and `admin`
(also creating projects, at most `max_projects` of them, and only under its patterns).

Project ids a token may create are checked here too: the normalised remote form (lower case
`host/owner/repo`, no scheme, port, credentials, `.git`, `.` or `..`) or `local:<machine>:<path>`
with an absolute path. Anything else (`/etc`, `../../x`, `a b`) is INVALID_ARGUMENT.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from squirrel_core.errors import InvalidArgumentError, PermissionDeniedError

MAX_PROJECT_ID_CHARS = 600
MAX_PATTERNS = 100
DEFAULT_MAX_PROJECTS = 20
ALL = "*"
_LABEL = r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"
_HOST = re.compile(rf"^{_LABEL}(?:\.{_LABEL})*$")
_SEGMENT = re.compile(r"^[a-z0-9._~+%-]+$")
_MACHINE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_WINDOWS_ROOT = re.compile(r"^[A-Za-z]:\\")


class Role(IntEnum):
    """Each role may do what the ones below it may."""

    READ = 1
    WRITE = 2
    ADMIN = 3

    @classmethod
    def parse(cls, text: str) -> Role:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise InvalidArgumentError(
                f"a team role is read, write or admin (not {text.strip()[:40]!r})"
            ) from None

    @property
    def label(self) -> str:
        return self.name.lower()


WRITE_METHODS = frozenset(
    {
        "AppendEvents",
        "Remember",
        "RememberMany",
        "Forget",
        "ConfirmMemory",
        "CorrectMemory",
        # What a session was served, judged later: it moves the project's ranking for everyone.
        "RecordServedMemories",
    }
)
"""Memory service methods that change a project: `write` or `admin`. Every other method that
names a project reads it."""


def role_for(method: str) -> Role:
    """The role a memory service method (`/squirrel.v1.MemoryService/Remember`) needs."""
    return Role.WRITE if method.rpartition("/")[2] in WRITE_METHODS else Role.READ


def _remote_form(text: str) -> bool:
    host, _, path = text.partition("/")
    segments = path.split("/")
    return (
        bool(_HOST.match(host))
        and bool(path)
        and all(_SEGMENT.match(s) and s not in (".", "..") for s in segments)
        and not segments[-1].endswith(".git")
    )


def _local_form(text: str) -> bool:
    rest = text.removeprefix("local:")
    machine, sep, path = rest.partition(":")
    if not sep or not _MACHINE.match(machine):
        return False
    if _WINDOWS_ROOT.match(path):
        parts = path[3:].split("\\")
    elif path.startswith("/") and path != "/":
        parts = path[1:].split("/")
    else:
        return False
    return all(p and p not in (".", "..") for p in parts)


def is_project_id(text: str) -> bool:
    """Whether `text` is a team project id of the normalised remote or the local form."""
    if not text or len(text) > MAX_PROJECT_ID_CHARS:
        return False
    if any(c.isspace() or not c.isprintable() for c in text):
        return False
    if text.startswith("local:"):
        return _local_form(text)
    return _remote_form(text)


def check_project_id(text: str) -> str:
    """A project id a new team project may have; INVALID_ARGUMENT for anything else."""
    team_id = text.strip()
    if not is_project_id(team_id):
        raise InvalidArgumentError(
            f"{team_id[:80]!r} is not a team project id: use the normalised remote "
            "(e.g. github.com/acme/shop) or local:<machine>:<absolute path>"
        )
    return team_id


def check_pattern(text: str) -> str:
    """`*`, a project id, or a project id or host followed by `/*`."""
    pattern = text.strip()
    if pattern == ALL or is_project_id(pattern):
        return pattern
    prefix = pattern.removesuffix("/*")
    if prefix != pattern and (is_project_id(prefix) or _HOST.match(prefix)):
        return pattern
    raise InvalidArgumentError(
        f"{pattern[:80]!r} is not a project pattern: use a project id (github.com/acme/shop), "
        "a prefix ending in /* (github.com/acme/*) or * for every project"
    )


def check_patterns(texts: Iterable[str]) -> tuple[str, ...]:
    """Patterns from the command line: comma-separated or repeated; duplicates dropped."""
    found: list[str] = []
    for text in texts:
        for part in text.split(","):
            if part.strip():
                pattern = check_pattern(part)
                if pattern not in found:
                    found.append(pattern)
    if len(found) > MAX_PATTERNS:
        raise InvalidArgumentError(f"a token may have at most {MAX_PATTERNS} project patterns")
    return tuple(found)


def matches(pattern: str, project_id: str) -> bool:
    """Whether `pattern` covers `project_id`. A prefix pattern covers only well-formed ids, so
    `github.com/acme/../payroll` is never inside `github.com/acme/*`."""
    if pattern == ALL:
        return True
    if pattern.endswith("/*"):
        return is_project_id(project_id) and project_id.startswith(pattern[:-1])
    return pattern == project_id


@dataclass(frozen=True, slots=True)
class Grant:
    """What the token of a request may do; bound per request by the team server's edge."""

    token_id: str
    user: str
    role: Role
    projects: tuple[str, ...]
    max_projects: int = DEFAULT_MAX_PROJECTS

    def covers(self, project_id: str) -> bool:
        return any(matches(p, project_id) for p in self.projects)

    def require(self, project_id: str, role: Role) -> None:
        """PERMISSION_DENIED, naming the project, unless this token may `role` it."""
        if not self.covers(project_id):
            raise PermissionDeniedError(
                f"team token {self.token_id} ({self.user}) is not granted project "
                f"{project_id[:200]!r}; ask the team server's admin "
                "(`sqrl team token grant`)"
            )
        if self.role < role:
            raise PermissionDeniedError(
                f"team token {self.token_id} ({self.user}) may only {self.role.label} project "
                f"{project_id[:200]!r}, not {role.label} it"
            )

    def require_all(self, project_ids: Sequence[str], role: Role) -> None:
        for project_id in project_ids:
            self.require(project_id, role)

    def require_create(self, project_id: str, created_so_far: int) -> None:
        """Creating a project: an admin token, granted the id, under its project limit."""
        if self.role < Role.ADMIN:
            raise PermissionDeniedError(
                f"team token {self.token_id} ({self.user}) cannot create project "
                f"{project_id[:200]!r}: only an admin token (or the server itself) creates projects"
            )
        self.require(project_id, Role.ADMIN)
        if created_so_far >= self.max_projects:
            raise PermissionDeniedError(
                f"team token {self.token_id} ({self.user}) has created its limit of "
                f"{self.max_projects} projects; cannot create {project_id[:200]!r}"
            )
