"""What each member of a workspace declares it runs on, said for that member only.

A workspace's members may use different stacks (an Axum API, a Yew front end and a CLI in one
Cargo workspace; a Fastify service beside an Astro site): one member's framework or database is
not the project's, so the project's stack fact leaves it unsaid (`project_stack`). This fact
names each member folder with the framework, database client, ORM and job queue its own
manifest declares for running — what it declares, not that the code uses it — and only when
the members do not all declare the same (then the project's stack fact says it). Tests', docs'
and examples' folders and documentation sites are no members that run anything.
"""

from __future__ import annotations

from fnmatch import fnmatch

from squirrel_memory.models import MemoryCandidate, MemoryType
from squirrel_memory.repository.dev_groups import is_dev_group
from squirrel_memory.repository.findings import Readings, folder_of, is_test_folder
from squirrel_memory.repository.project_stack import Part, declared_roles, docs_site_folders
from squirrel_memory.repository.wording import candidate, join_words

#: Roles said of a member, in the order they are said.
_ROLES = ("framework", "orm", "database", "queue")
#: Most members named in the fact.
MAX_MEMBERS = 6


def _member_folders(out: Readings) -> list[tuple[str, str]]:
    """(folder, manifest path) of each workspace member with a manifest of its own."""
    patterns = [pattern.rstrip("/") for pattern, _ in out.workspaces]
    sites = docs_site_folders(out)
    found: dict[str, str] = {}
    for path in sorted(out.manifests):
        folder = folder_of(path)
        if not folder or folder in found or folder in sites:
            continue
        if not any(fnmatch(folder, pattern) for pattern in patterns):
            continue
        if any(is_test_folder(part) or is_dev_group(part) for part in folder.split("/")):
            continue
        found[folder] = path
    return list(found.items())


def _phrase(role: str, part: Part) -> str:
    if role == "database":
        through = f" ({part.dependency})" if part.dependency else ""
        return f"a client for {part.name}{through}"
    return part.name


def members_fact(out: Readings) -> MemoryCandidate | None:
    """The fact naming what each workspace member declares, when the members differ."""
    said: list[tuple[str, list[str], list[str]]] = []
    for folder, manifest in _member_folders(out):
        ecosystem = out.manifests[manifest]
        deps = [d for d in out.dependencies if d.manifest == manifest]
        roles = declared_roles(deps, ecosystem)
        phrases = [_phrase(r, p) for r in _ROLES for p in roles.get(r, [])[:2]]
        refs = [p.refs[0] for r in _ROLES for p in roles.get(r, [])[:2] if p.refs]
        if phrases:
            said.append((folder, phrases, refs))
    if len(said) < 2 or len({tuple(phrases) for _, phrases, _ in said}) < 2:
        return None
    shown = said[:MAX_MEMBERS]
    text = "Workspace members declare their own stacks: " + "; ".join(
        f"`{folder}/`: {join_words(phrases)}" for folder, phrases, _ in shown
    )
    refs = [ref for _, _, found in shown for ref in found]
    tags = ["stack", "workspace", *(folder for folder, _, _ in shown)]
    files = list(dict.fromkeys(ref.split(":", 1)[0] for ref in refs))
    return candidate(
        MemoryType.PROJECT_FACT,
        "members",
        text + ".",
        refs=refs,
        importance=0.7,
        tags=tags,
        files=files,
    )
