"""The stack a repository reading shows: its primary ecosystem(s), language and runtime, and
each role's parts (framework, database, jobs …) with the files they were read from."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from fnmatch import fnmatch

from squirrel_memory.code_files import language_of
from squirrel_memory.extractors.server_frameworks import rival_servers
from squirrel_memory.repository.findings import (
    Dependency,
    Readings,
    Toolchain,
    folder_of,
    is_test_folder,
)
from squirrel_memory.repository.languages import LanguageShare, is_excluded, primary_of
from squirrel_memory.repository.scan import RepositoryReading
from squirrel_memory.repository.services import is_compose_file, is_env_example
from squirrel_memory.repository.stack import (
    Role,
    dependency_role,
    ecosystem_languages,
    language_name,
    runtime_name,
    started_framework,
)
from squirrel_memory.repository.wording import join_words, ref_path, short_version


@dataclass(frozen=True, slots=True)
class Part:
    """One part of the stack (a framework, the database …) and where it was read."""

    name: str
    version: str
    refs: tuple[str, ...]
    dependency: str = ""


@dataclass(frozen=True, slots=True)
class Stack:
    """The stack of the primary ecosystem(s), by role."""

    ecosystems: tuple[str, ...]
    language: str
    language_version: str
    runtime: str
    language_refs: tuple[str, ...]
    parts: dict[str, list[Part]]
    other_databases: list[Part] = field(default_factory=list)
    """Databases the manifests or compose files name besides the one the configuration uses
    (a side store, a test double) or, when nothing decides, every candidate: never stated as
    the project's database."""
    database_configured: bool = False
    declared_queues: list[Part] = field(default_factory=list)
    """Job queues a manifest declares that nothing in the repository sets up: never stated
    as what runs the jobs."""

    def first(self, role: str) -> Part | None:
        found = self.parts.get(role)
        return found[0] if found else None


#: Dependencies that make a folder a documentation site.
_DOCS_GENERATORS = frozenset(
    {"@docusaurus/core", "vitepress", "vuepress", "nextra", "@astrojs/starlight", "docsify"}
)


def docs_site_folders(out: Readings) -> frozenset[str]:
    """Sub-folders whose manifest declares a documentation-site generator (`website/`, `docs/`)."""
    return frozenset(
        folder
        for d in out.dependencies
        if d.name in _DOCS_GENERATORS and (folder := folder_of(d.manifest))
    )


def _only_in(out: Readings, ecosystem: str, folders: frozenset[str]) -> bool:
    paths = [p for p, eco in out.manifests.items() if eco == ecosystem]
    return bool(paths) and all(folder_of(p) in folders for p in paths)


#: Root files that set up the development environment (a Nix flake's dev shell) of a project
#: in another language: an ecosystem with no other file is the environment's, not the project's.
_ENVIRONMENT_FILES = frozenset({"flake.nix", "shell.nix", "default.nix", "devenv.nix"})


def _only_environment(reading: RepositoryReading, ecosystem: str) -> bool:
    paths = [
        f.path
        for f in reading.files
        if (lang := language_of(f.path)) and lang[1] == ecosystem and not is_excluded(f.path)
    ]
    return bool(paths) and all(path in _ENVIRONMENT_FILES for path in paths)


def primary_ecosystems_of(reading: RepositoryReading) -> tuple[str, ...]:
    """Primary ecosystems by code size, else those of the root manifests."""
    environment = {s.ecosystem for s in reading.shares if _only_environment(reading, s.ecosystem)}
    code = primary_of(s for s in reading.shares if s.ecosystem not in environment)
    found = code or primary_of(reading.shares)
    sites = docs_site_folders(reading.readings)
    if found and sites:
        # An ecosystem whose every manifest is a docs site's (`website/package.json` beside a
        # root `pyproject.toml`) is the site's language, not the project's.
        found = tuple(eco for eco in found if not _only_in(reading.readings, eco, sites))
    if found:
        return found
    root = [eco for path, eco in reading.readings.manifests.items() if not folder_of(path)]
    return tuple(dict.fromkeys(root))


def ecosystem_language(ecosystem: str, shares: tuple[LanguageShare, ...]) -> str:
    """The ecosystem's language, or the largest of the languages it may be written in
    (TypeScript over JavaScript, Kotlin over Java when there is more of it)."""
    named = ecosystem_languages(ecosystem)
    sizes = {s.language: s.bytes for s in shares if s.ecosystem == ecosystem}
    largest = max(named, key=lambda name: sizes.get(name, 0), default="")
    return largest if sizes.get(largest, 0) > 0 else language_name(ecosystem)


def _roles(
    deps: list[Dependency], ecosystem: str, started: frozenset[str] = frozenset()
) -> dict[str, list[Part]]:
    """Each role's parts among `deps`. A dependency declared for development, tests or an
    optional extra only says nothing of what the project runs, unless it is a development one
    and the framework the project's own start command starts (`astro dev` with Astro among the
    devDependencies)."""
    found: dict[str, list[Part]] = {}
    seen: set[tuple[str, str]] = set()
    ranked = sorted(deps, key=lambda d: (folder_of(d.manifest) != "", d.manifest))
    for dep in ranked:
        role: Role | None = dependency_role(ecosystem, dep.name)
        if role is None or (role.role, role.name) in seen:
            continue
        if (
            dep.extra
            or dep.optional
            or (dep.dev and not (role.role == "framework" and role.name in started))
        ):
            continue
        seen.add((role.role, role.name))
        refs = (dep.ref, dep.locked_ref)
        part = Part(role.name, short_version(dep.version), refs, dep.name)
        found.setdefault(role.role, []).append(part)
    return found


def declared_roles(deps: list[Dependency], ecosystem: str) -> dict[str, list[Part]]:
    """Each role's parts the dependencies `deps` declare for running (not for development,
    tests or an optional extra)."""
    return _roles(deps, ecosystem)


#: Roles that make a member folder a running part of its own (a web app, a job worker).
_APP_ROLES = frozenset({"framework", "database", "orm", "queue"})


def _project_roles(out: Readings, ecosystem: str) -> dict[str, list[Part]]:
    """What the project's own manifests say of its stack, per role.

    The root manifests speak for the project. A sub-folder's manifest (a docs site, a tool, an
    example) holds only where it sits, so it counts for a role only when the root says nothing
    of that role, the folder is a declared workspace member (or the ecosystem has no root
    manifest at all: its code lives in sub-folders), and every such folder names the same
    thing; otherwise the role stays unsaid rather than wrong."""
    deps = [d for d in out.dependencies if d.ecosystem == ecosystem]
    has_root = any(not folder_of(p) for p, eco in out.manifests.items() if eco == ecosystem)
    members = [pattern.rstrip("/") for pattern, _ in out.workspaces]
    started = frozenset(
        name
        for command in out.commands
        if command.purpose == "run" and not command.scope
        if (name := started_framework(f"{command.text} {command.detail}"))
    )
    root = _roles([d for d in deps if not folder_of(d.manifest)], ecosystem, started)
    by_folder: dict[str, dict[str, list[Part]]] = {}
    sites = docs_site_folders(out)
    for dep in deps:
        folder = folder_of(dep.manifest)
        if folder in sites:
            continue  # a docs site's framework is the site's, not the project's
        if folder and (not has_root or any(fnmatch(folder, m) for m in members)):
            by_folder.setdefault(folder, {})
    for folder in by_folder:
        in_folder = [d for d in deps if folder_of(d.manifest) == folder]
        by_folder[folder] = _roles(in_folder, ecosystem, started)
    found = dict(root)
    for role in sorted({r for roles in by_folder.values() for r in roles}):
        if role in root:
            continue
        named = [parts for roles in by_folder.values() if (parts := roles.get(role))]
        names = {tuple(p.name for p in parts) for parts in named}
        # Every folder that names a part of the app (its framework, database, ORM or job queue)
        # must name this one too: one member's Next.js or Drizzle is not the whole project's,
        # nor a web member's framework that of a job worker beside it.
        apps = [
            roles
            for folder, roles in by_folder.items()
            if _APP_ROLES & roles.keys() and not is_test_folder(folder)
        ]
        if len(names) == 1 and all(role in roles for roles in apps):
            found[role] = named[0]
    _drop_rival_servers(found, started)
    return found


def _drop_rival_servers(found: dict[str, list[Part]], started: frozenset[str]) -> None:
    """Two server frameworks one ecosystem declares, neither built on the other and neither
    started by the project's own run command, leave the framework unsaid: nothing decides which
    one the app runs (Express kept for a `legacy/` admin server beside a Fastify service)."""
    frameworks = found.get("framework", [])
    rivals = rival_servers(p.name for p in frameworks)
    if not rivals or rivals & started:
        return
    kept = [p for p in frameworks if p.name not in rivals]
    if kept:
        found["framework"] = kept
    else:
        found.pop("framework", None)


def _project_toolchains(out: Readings, ecosystem: str) -> list[Toolchain]:
    """The language versions that speak for the project: those read at the root; a
    sub-folder's (a docs site's `engines`) only when the ecosystem has no root manifest or the
    folder is a workspace member, and all such folders ask for the same version."""
    chains = sorted(
        (t for t in out.toolchains if t.ecosystem == ecosystem),
        key=lambda t: (folder_of(ref_path(t.ref)) != "", t.ref),
    )
    root = [t for t in chains if not folder_of(ref_path(t.ref))]
    if root:
        return root
    has_root = any(not folder_of(p) for p, eco in out.manifests.items() if eco == ecosystem)
    members = [pattern.rstrip("/") for pattern, _ in out.workspaces]
    nested = [
        t
        for t in chains
        if not has_root or any(fnmatch(folder_of(ref_path(t.ref)), m) for m in members)
    ]
    return nested if len({short_version(t.version) for t in nested}) == 1 else []


_RANGE_OPERATORS = (">", "<", "~", "^", "=", "!")


def _numbers(spec: str) -> tuple[int, ...]:
    version = short_version(spec)
    return tuple(int(n) for n in version.split(".")) if version else ()


def _versions_agree(chains: list[Toolchain]) -> bool:
    """Whether the versions the project's files ask for can all hold at once: every pinned
    version (`.nvmrc`'s `18`, `.tool-versions`' `nodejs 18.19.0`) the same as far as both say,
    and none below a range's floor (`engines: >=20`). When they disagree, nothing decides which
    one the project runs."""
    specs = [t.version.strip() for t in chains if _numbers(t.version)]
    pins = [_numbers(s) for s in specs if not s.startswith(_RANGE_OPERATORS) and " " not in s]
    floors = [_numbers(s) for s in specs if s.startswith((">", "~", "^"))]
    for pin in pins:
        if any(other[: len(pin)] != pin[: len(other)] for other in pins):
            return False
        if any(pin[: len(floor)] < floor[: len(pin)] for floor in floors):
            return False
    return True


def _entry_point_first(parts: dict[str, list[Part]], out: Readings) -> None:
    """Among the declared frameworks, the one the project's own start command starts (`next
    dev`, `mix phx.server`, `python manage.py runserver`, a script that runs one) comes first:
    it is what the app is, whatever else the manifest lists."""
    frameworks = parts.get("framework", [])
    if len(frameworks) < 2:
        return
    for command in out.commands:
        if command.purpose != "run" or command.scope:
            continue
        started = started_framework(f"{command.text} {command.detail}")
        chosen = next((p for p in frameworks if p.name == started), None)
        if chosen is not None:
            parts["framework"] = [chosen, *(p for p in frameworks if p is not chosen)]
            return


def _weigh_databases(parts: dict[str, list[Part]], out: Readings) -> tuple[list[Part], bool]:
    """Decide the project's database: the one its data-access configuration names (an ORM
    adapter, settings, the app's connection URL) over what a manifest declares or a compose
    file starts. Without configuration, the declared and started databases must agree on one,
    which a compose file (or the like) starts; a client a manifest alone declares, or databases
    that do not agree, are none the project's (they are all returned as others)."""
    declared = parts.pop("database", [])
    configured: list[Part] = []
    named = [s for s in out.services if s.kind == "database" and s.configured]
    if any(not is_env_example(s.via) for s in named):
        # The application's own configuration decides over an example environment file, which
        # may be a starter's leftover naming another database.
        named = [s for s in named if not is_env_example(s.via)]
    for service in named:
        known = next((p for p in configured if p.name == service.name), None)
        if known is None:
            match = next((p for p in declared if p.name == service.name), None)
            base = match or Part(service.name, "", ())
            configured.append(
                Part(base.name, base.version, (*base.refs, service.ref), base.dependency)
            )
        else:
            configured[configured.index(known)] = Part(
                known.name, known.version, (*known.refs, service.ref), known.dependency
            )
    if configured:
        parts["database"] = configured
        chosen = {p.name for p in configured}
        return [p for p in declared if p.name not in chosen], True
    started = {s.name for s in out.services if s.kind == "database" and not s.configured}
    if len({p.name for p in declared}) == 1 and declared[0].name in started:
        parts["database"] = declared[:1]
        return [], False
    # A driver only a manifest declares may serve a script, a side store or nothing yet.
    return declared, False


def _is_set_up(part: Part, out: Readings, stems: set[str]) -> bool:
    """Whether the repository sets a declared job queue up: its configuration or a process
    file names it (`config :shop, Oban`, `worker: bundle exec sidekiq`), or a file is named
    for it (`config/sidekiq.yml`, `shop/celery.py`). A queue a manifest only declares may be
    left over or planned: nothing says jobs run on it."""
    dependency = part.dependency.lower().rsplit("/", 1)[-1]
    # A name of two words is one name (`solid_queue`, `SolidQueue`): its words alone ("laravel",
    # "queue") are in the configuration of every app that never set it up.
    name = part.name.lower()
    names = {name, name.replace(" ", "_"), name.replace(" ", ""), dependency}
    names.add(dependency.split(".")[0])
    names.discard("")
    return bool(names & (out.set_up | stems))


def stack_of(reading: RepositoryReading) -> Stack | None:
    """The stack of the repository's primary ecosystem(s), or None when nothing is known."""
    ecosystems = primary_ecosystems_of(reading)
    if not ecosystems:
        return None
    main = ecosystems[0]
    out = reading.readings
    parts: dict[str, list[Part]] = {}
    for eco in ecosystems:
        for role, found in _project_roles(out, eco).items():
            parts.setdefault(role, []).extend(found)
    for service in out.services:
        if service.configured:
            continue  # weighed by `_weigh_databases`
        role = "cache" if service.kind == "cache" else service.kind
        known = {p.name for p in parts.get(role, [])}
        if role == "queue" and service.name not in known and is_compose_file(service.via):
            # A queue only a compose file starts, with no client in any manifest: the services
            # fact says it is started, nothing says jobs run on it.
            continue
        if service.name not in known:
            parts.setdefault(role, []).append(Part(service.name, "", (service.ref,)))
        else:
            parts[role] = [
                Part(p.name, p.version, (*p.refs, service.ref), p.dependency)
                if p.name == service.name
                else p
                for p in parts[role]
            ]
    stems = {posixpath.splitext(posixpath.basename(f.path))[0].lower() for f in reading.files}
    queues = parts.pop("queue", [])
    declared = [p for p in queues if p.dependency and not _is_set_up(p, out, stems)]
    if len(declared) < len(queues):
        parts["queue"] = [p for p in queues if p not in declared]
    others, configured = _weigh_databases(parts, out)
    _entry_point_first(parts, out)
    chains = _project_toolchains(out, main)
    # A version a file pins (`.nvmrc`'s `20`), not a floor (`engines: >=20`), that the image
    # the app is built on contradicts (`FROM node:22`) leaves nothing to decide which one runs.
    images = [t for t in out.image_runtimes if t.ecosystem == main]
    pins = [t for t in chains if not t.version.strip().startswith(_RANGE_OPERATORS)]
    if not _versions_agree(chains) or (pins and not _versions_agree([*pins, *images])):
        chains = []
    version = short_version(chains[0].version) if chains else ""
    names = [ecosystem_language(eco, reading.shares) for eco in ecosystems]
    return Stack(
        ecosystems=ecosystems,
        language=join_words(list(dict.fromkeys(names))),
        language_version=version,
        runtime=runtime_name(main),
        language_refs=tuple(t.ref for t in chains[:1]),
        parts=parts,
        other_databases=others,
        database_configured=configured,
        declared_queues=declared,
    )
