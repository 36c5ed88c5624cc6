"""The project's database when its root README and its root manifests agree on one.

A session that reads a README and a manifest but no data-access configuration has two weak
witnesses: the README names a database ("connects to a localhost PostgreSQL database",
"embedded database (SQLite)") and the manifest declares a client for one (`postgrex`,
`modernc.org/sqlite`). Either alone may be a side store, a data source the app queries, a
profile or a plan; the two together, naming the same one and nothing else, say what the
project stores its data in. The rule is the same in every ecosystem: the clients are those the
stack table knows for the manifest's ecosystem, the names those it knows for databases.

It says nothing when the README names a second database (a profile, a migration guide, a
comparison), when the root manifests declare clients of more than one database or only for
development, tests or an optional extra, when the README or manifest is a sub-folder's, or when
nothing was read whole from its first line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.manifests import manifest_reader
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.stack import database_names, dependency_role

KEY = "database"
#: Other ways a README writes a database's name.
_ALIASES = {"PostgreSQL": ("Postgres",)}


@cache
def _name_pattern(name: str) -> re.Pattern[str]:
    spelled = "|".join(re.escape(n) for n in (name, *_ALIASES.get(name, ())))
    return re.compile(rf"(?<![\w.-])(?:{spelled})(?![\w-])", re.IGNORECASE)


def _named(text: str) -> set[str]:
    """The databases a README names anywhere (its commands too: more names, less said)."""
    return {name for name in database_names() if _name_pattern(name).search(text)}


def _declared(path: str, text: str) -> dict[str, str]:
    """Database name → the client a root manifest declares for it at run time."""
    reader = manifest_reader(path)
    if reader is None:
        return {}
    out = Readings()
    try:
        reader(TextFile.of(path, text), out)
    except PARSE_ERRORS:
        return {}
    found: dict[str, str] = {}
    for dep in out.dependencies:
        if dep.dev or dep.extra or dep.optional:
            continue
        role = dependency_role(dep.ecosystem, dep.name)
        if role is not None and role.role == "database":
            found.setdefault(role.name, dep.name)
    return found


def readme_database(events: Sequence[StoredEvent]) -> Fact | None:
    """The database fact when the root README and the root manifests read agree on one."""
    readme: tuple[str, str, str] | None = None
    clients: dict[str, tuple[str, str, str]] = {}
    for event in events:
        read = root_file_read(
            event, lambda p: instruction_kind(p) == "readme" or manifest_reader(p) is not None
        )
        if read is None:
            continue
        path, text = read
        if instruction_kind(path) == "readme":
            readme = (path, text, event.id)
            continue
        for name, client in _declared(path, text).items():
            clients.setdefault(name, (client, path, event.id))
    if readme is None or len(clients) != 1:
        return None
    path, text, readme_id = readme
    ((name, (client, manifest, manifest_id)),) = clients.items()
    if _named(text) != {name}:
        return None
    said = (
        f"The project's database is {name}: {path} names it and `{manifest}` declares its "
        f"client ({client})."
    )
    ids = tuple(dict.fromkeys((readme_id, manifest_id)))
    return Fact(KEY, said, ("database", name.lower(), "readme"), 0.7, ids, (path, manifest))
