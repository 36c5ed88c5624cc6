"""Project facts from one reading: the stack, languages, database, jobs, services, what the
project is, where things live, and the standing rules of its instruction files."""

from __future__ import annotations

from collections import Counter

from squirrel_memory.code_files import language_of
from squirrel_memory.models import MemoryCandidate, MemoryType
from squirrel_memory.repository.deploy import deploy_platform, deploy_text
from squirrel_memory.repository.description_claims import backed_description
from squirrel_memory.repository.findings import SAMPLE_FOLDERS, Readings, folder_of, names_tests
from squirrel_memory.repository.generated_code import generated_fact, is_generated
from squirrel_memory.repository.languages import is_excluded
from squirrel_memory.repository.member_stacks import members_fact
from squirrel_memory.repository.project_stack import (
    Part,
    Stack,
    docs_site_folders,
    ecosystem_language,
    primary_ecosystems_of,
    stack_of,
)
from squirrel_memory.repository.project_templates import template_fact, template_folders
from squirrel_memory.repository.scan import RepositoryReading
from squirrel_memory.repository.stack import dependency_role
from squirrel_memory.repository.wording import (
    about_text,
    article,
    candidate,
    join_words,
    ref_path,
    slug,
)

FACT = MemoryType.PROJECT_FACT
#: Shares below this are left out of the languages memory.
MIN_SHOWN_SHARE = 0.01


def _root_files(refs: list[str]) -> list[str]:
    """Files at the root that facts cite (sub-folder files would read as code modules)."""
    return [path for path in map(ref_path, refs) if "/" not in path and ":" not in path]


def project_name(reading: RepositoryReading) -> str:
    return reading.readings.name or reading.root.name


def _stack_fact(reading: RepositoryReading, stack: Stack) -> MemoryCandidate:
    name = project_name(reading)
    framework = stack.first("framework")
    kind = f"{stack.language}/{framework.name} app" if framework else f"{stack.language} project"
    also = _other_ecosystems_framework(stack)
    if framework and also:
        # Two languages, each with its own framework (a Flask back end, a React front end).
        kind = f"{stack.language} app built with {framework.name} and {also.name}"
    versions = []
    if stack.language_version:
        versions.append(f"{stack.runtime} {stack.language_version}")
    if framework and framework.version:
        versions.append(f"{framework.name} {framework.version}")
    text = f"{name} is {article(kind)} {kind}"
    if versions:
        text += f" ({', '.join(versions)})"
    database, orm, queue = stack.first("database"), stack.first("orm"), stack.first("queue")
    if len(stack.parts.get("database", [])) > 1:
        database = None  # the database fact says which configuration names which one
    extras = []
    if database:
        extras.append(database.name + (f" via {orm.name}" if orm else ""))
    elif orm:
        extras.append(orm.name)
    if queue:
        extras.append(f"{queue.name} for background jobs")
    if extras:
        text += " with " + join_words(extras)
    text += "."
    refs = [*stack.language_refs]
    tags = ["stack", stack.language]
    for part in (framework, database, orm, queue):
        if part:
            refs.extend(part.refs)
            tags.append(part.name)
    files = _root_files(refs)
    return candidate(FACT, "stack", text, refs=refs, importance=0.9, tags=tags, files=files)


def _ecosystem_of(stack: Stack, part: Part) -> str:
    return next((eco for eco in stack.ecosystems if dependency_role(eco, part.dependency)), "")


def _other_ecosystems_framework(stack: Stack) -> Part | None:
    """The first framework of another of the stack's ecosystems than its first framework's."""
    frameworks = stack.parts.get("framework", [])
    if len(stack.ecosystems) < 2 or len(frameworks) < 2:
        return None
    first = _ecosystem_of(stack, frameworks[0])
    return next(
        (p for p in frameworks[1:] if (eco := _ecosystem_of(stack, p)) and eco != first), None
    )


def _named(parts: list[Part]) -> str:
    """`MySQL (myxql)` / `MySQL (myxql) and SQLite (docker-compose.yml)`: each database with
    the dependency that declares it or the file that starts it."""
    named = []
    for part in parts:
        where = part.dependency or next((ref_path(r) for r in part.refs if r), "")
        named.append(part.name + (f" ({where})" if where else ""))
    return join_words(named)


def _profiles_text(out: Readings) -> tuple[str, list[str]]:
    """ "the `mysql` profile's configuration (path) names MySQL", for each profile that names
    a database, and the references."""
    said: list[str] = []
    refs: list[str] = []
    for profile, service in out.profiles:
        phrase = f"the `{profile}` profile's ({ref_path(service.ref)}) names {service.name}"
        if phrase not in said:
            said.append(phrase)
            refs.append(service.ref)
    return join_words(said), refs


def _database_fact(stack: Stack, out: Readings) -> MemoryCandidate | None:
    databases = stack.parts.get("database", [])
    others = stack.other_databases
    orm, migrations = stack.first("orm"), stack.first("migrations")
    profiles, profile_refs = _profiles_text(out)
    if not databases and not others and not profiles:
        return None
    refs: list[str] = []
    if not databases and not others:
        text = "The default configuration names no database"
    elif not databases and len(others) == 1:
        # A client only declared: what is declared, never that the application uses it, nor
        # that nothing sets it up (the code, which is not read, may connect to it).
        through = f"{orm.name} and " if orm else ""
        text = f"The manifests declare {through}a client for {_named(others)}"
        refs.extend(others[0].refs)
        if orm:
            refs.extend(orm.refs)
            orm = None  # said already
    elif not databases:
        # Nothing decides between them: say what is declared, never which one is used.
        default = " default" if profiles else ""
        text = (
            f"The repository names more than one database ({_named(others)}) and its{default}"
            " configuration does not say which one the application uses"
        )
        refs.extend(r for p in others for r in p.refs)
    elif len(databases) > 1:
        text = (
            f"The project's database configuration names {join_words([d.name for d in databases])}"
        )
    else:
        text = f"The project's database is {databases[0].name}"
    for database in databases:
        refs.extend(database.refs)
    if orm:
        text += f", used through {orm.name}"
        refs.extend(orm.refs)
    if migrations:
        text += f"; migrations are written with {migrations.name}"
        refs.extend(migrations.refs)
    if databases and others:
        # A client a profile's configuration uses (SQLite in development) is not unused.
        in_profiles = {service.name for _, service in out.profiles}
        declared = [p for p in others if p.dependency and p.name not in in_profiles]
        if declared:
            client = "a client" if len(declared) == 1 else "clients"
            text += (
                f"; the manifests also declare {client} for {_named(declared)}, which the"
                " database configuration does not use"
            )
            refs.extend(r for p in declared for r in p.refs)
    if profiles:
        # A profile's configuration holds when that profile is active, not by default.
        text += f"; of the configuration profiles, {profiles}"
        refs.extend(profile_refs)
    text += "."
    names = [p.name for p in (*databases, *others)] + [s.name for _, s in out.profiles]
    used = (stack.first("orm"), migrations)
    tags = ["database", *dict.fromkeys(names), *(p.name for p in used if p)]
    files = _root_files(refs)
    return candidate(FACT, "database", text, refs=refs, importance=0.8, tags=tags, files=files)


def _jobs_fact(stack: Stack) -> MemoryCandidate | None:
    queues = stack.parts.get("queue", []) or stack.declared_queues
    if not queues:
        return None
    named = join_words([q.name + (f" {q.version}" if q.version else "") for q in queues[:2]])
    if stack.parts.get("queue"):
        text = f"Background jobs run on {named}."
    else:
        # Only declared: what is declared, never that jobs run on it, nor that nothing sets it
        # up (the code, which is not read, may).
        text = f"The manifests declare {named} (background jobs)."
    refs = [r for q in queues[:2] for r in q.refs]
    tags = ["background jobs", "queue", *(q.name for q in queues[:2])]
    return candidate(FACT, "jobs", text, refs=refs, importance=0.75, tags=tags)


#: Most optional extras, and dependencies of each, an extras fact names.
MAX_EXTRAS = 6


def _extras_fact(out: Readings) -> MemoryCandidate | None:
    """The root manifests' optional runtime extras: parts installed on request (`postgres`
    adds psycopg), stated as such, never as the project's stack."""
    extras: dict[str, list[str]] = {}
    refs: list[str] = []
    own = out.name.lower().replace("_", "-")
    for dep in out.dependencies:
        # An extra that gathers others (`all = ["quarry[postgres,server]"]`) names the project.
        # A dependency's feature (`sqlx:postgres`) is read for the stack, not a name to list.
        if dep.extra and not folder_of(dep.manifest) and dep.name != own and ":" not in dep.name:
            named = extras.setdefault(dep.extra, [])
            if dep.name not in named:
                named.append(dep.name)
                refs.append(dep.ref)
    if not extras:
        return None
    shown = list(extras.items())[:MAX_EXTRAS]
    parts = [f"`{extra}` adds {join_words(names[:MAX_EXTRAS])}" for extra, names in shown]
    where = join_words(sorted({ref_path(r) for r in refs}))
    text = f"Optional extras, installed only on request ({where}): {'; '.join(parts)}."
    tags = ["extras", "optional dependencies", *(extra for extra, _ in shown)]
    return candidate(FACT, "extras", text, refs=refs, importance=0.5, tags=tags)


def _services_fact(out: Readings) -> MemoryCandidate | None:
    listed: list[str] = []
    refs: list[str] = []
    ports = {p.what: p for p in out.ports if p.what not in ("dev server", "container")}
    for service in out.services:
        if service.via in ("CI", "") or not service.via.endswith((".yml", ".yaml")):
            continue
        if service.configured:
            continue  # the app's configuration (`config/database.yml`) connects; it starts nothing
        port = ports.get(service.name)
        label = service.name + (f" on port {port.port}" if port else "")
        if label not in listed:
            listed.append(label)
            refs.extend([service.ref, *([port.ref] if port else [])])
    if not listed:
        return None
    via = join_words(sorted({ref_path(r) for r in refs}))
    text = f"For development, {via} starts {join_words(listed)}."
    return candidate(FACT, "services", text, refs=refs, importance=0.6, tags=["services", "docker"])


def _languages_fact(reading: RepositoryReading) -> MemoryCandidate | None:
    shown = [s for s in reading.shares if s.share >= MIN_SHOWN_SHARE][:6]
    if not shown:
        return None
    parts = ", ".join(f"{s.language} {round(s.share * 100)}%" for s in shown)
    text = f"Tracked code by size: {parts} (vendored, generated and dependency folders left out)."
    tags = ["languages", *(s.language for s in shown[:3])]
    refs = [f"commit:{reading.head}"]
    return candidate(FACT, "languages", text, refs=refs, importance=0.6, tags=tags)


def _about_fact(reading: RepositoryReading) -> MemoryCandidate | None:
    out = reading.readings
    if not out.description:
        return None
    name = project_name(reading)
    described = backed_description(out.description, out, primary_ecosystems_of(reading), name)
    if not described:
        return None
    text = about_text(name, described, ref_path(out.description_ref))
    refs = [out.description_ref]
    return candidate(FACT, "about", text, refs=refs, importance=0.7, tags=["overview"])


_TEST_DIRS = ("test", "tests", "spec", "__tests__", "e2e")
#: Top folders of configuration: their code files set the application up, they are not it.
_CONFIG_DIRS = frozenset({"config", "configs", "conf"})


def _holds_code(reading: RepositoryReading, folder: str, ecosystem: str) -> bool:
    """Whether a folder holds code files of an ecosystem (not only its build files)."""
    return any(
        f.path.startswith(f"{folder}/") and (lang := language_of(f.path)) and lang[1] == ecosystem
        for f in reading.files
    )


def _nested_tests(folder: str) -> bool:
    """Whether a folder below the top one holds tests (`src/test/`, `app/src/androidTest/`;
    a `spec/` there may hold a specification's code, as `api/spec/` does)."""
    return folder.lower() != "spec" and names_tests(folder)


def _layout_fact(reading: RepositoryReading, stack: Stack | None) -> MemoryCandidate | None:
    main = set(stack.ecosystems) if stack else set()
    code: Counter[str] = Counter()
    subdirs: dict[str, Counter[str]] = {}
    migrations: Counter[str] = Counter()
    tests: set[str] = set()
    beside = 0
    # A documentation site, examples and demos are no application code.
    sites = docs_site_folders(reading.readings)
    machinery = template_folders(reading)
    for tracked in reading.files:
        path = tracked.path
        if is_excluded(path) or "/" not in path or is_generated(path, reading.readings):
            continue
        parts = path.split("/")
        top = parts[0]
        if any(p in ("migrations", "migrate") for p in parts[:-1]):
            cut = max(i for i, p in enumerate(parts[:-1]) if p in ("migrations", "migrate"))
            migrations["/".join(parts[: cut + 1])] += 1
            continue
        if top.lower() in _TEST_DIRS or names_tests(top):
            tests.add(top)
            continue
        nested = next((i for i, p in enumerate(parts[1:-1], 1) if _nested_tests(p)), None)
        if nested is not None:
            # Tests inside a source folder (`src/test/`) are no application code.
            if nested == 1:
                tests.add(f"{top}/{parts[1]}")
            continue
        if path.endswith(("_test.go", "_test.exs")) or ".test." in path or ".spec." in path:
            beside += 1
        language = language_of(path)
        if (
            language is not None
            and (not main or language[1] in main)
            and top not in _CONFIG_DIRS
            and top not in sites
            and top not in machinery
            and top.lower() not in SAMPLE_FOLDERS
        ):
            code[top] += tracked.size
            if len(parts) > 2:
                subdirs.setdefault(top, Counter())[parts[1]] += tracked.size
    phrases: list[str] = []
    total = sum(code.values())
    tops = [t for t, size in code.most_common(3) if total and size / total >= 0.1]
    if tops:
        inner = [f"{t}/{d}" for t in tops for d, _ in subdirs.get(t, Counter()).most_common(3)]
        detail = f" ({', '.join(inner[:5])})" if inner else ""
        folders = join_words([f"`{t}/`" for t in tops])
        phrases.append(f"application code is in {folders}{detail}")
    if tests:
        phrases.append(f"tests are in {join_words([f'`{t}/`' for t in sorted(tests)])}")
    if beside and not tests:
        phrases.append("tests sit beside the code they test")
    if migrations:
        folder, _ = migrations.most_common(1)[0]
        phrases.append(f"database migrations are in `{folder}/`")
    out = reading.readings
    if out.workspaces:
        members = list(dict.fromkeys(f"`{m}`" for m, _ in out.workspaces))
        declared = ref_path(out.workspaces[0][1])
        phrases.append(f"the repository is a workspace ({declared}) of {join_words(members[:6])}")
    for path, eco in sorted(out.manifests.items()):
        folder = folder_of(path)
        if folder and eco not in main and _holds_code(reading, folder, eco):
            # Named for the language its code is in (a Gradle build of Kotlin is Kotlin's); a
            # folder of build files alone (a mobile app's platform host) holds no package.
            name = ecosystem_language(eco, reading.shares)
            phrases.append(f"`{folder}/` holds {article(name)} {name} package ({path})")
    if not phrases:
        return None
    text = "Where things live: " + "; ".join(phrases[:8]) + "."
    return candidate(
        FACT, "layout", text, refs=[f"commit:{reading.head}"], importance=0.6, tags=["layout"]
    )


def _deploy_fact(reading: RepositoryReading) -> MemoryCandidate | None:
    found = [(p, f.path) for f in reading.files if (p := deploy_platform(f.path)) and f.size > 0]
    if not found:
        return None
    platform, path = sorted(found, key=lambda item: item[1])[0]
    return candidate(
        FACT,
        "deploy",
        deploy_text(platform, path),
        refs=[f"{path}:1"],
        importance=0.6,
        tags=["deploy", "hosting", platform],
        files=[path],
    )


def _rule_facts(out: Readings) -> list[MemoryCandidate]:
    found: dict[str, tuple[str, list[str]]] = {}
    for rule in out.instructions:
        key = "rule:" + slug(rule.text)
        if key in found:
            found[key][1].append(rule.ref)
        else:
            found[key] = (rule.text, [rule.ref])
    return [
        candidate(
            FACT,
            key,
            f"Project instruction ({ref_path(refs[0])}): {text}",
            refs=refs,
            importance=0.7,
            tags=["instruction", "convention"],
            files=_root_files(refs),
        )
        for key, (text, refs) in found.items()
    ]


def project_facts(reading: RepositoryReading) -> list[MemoryCandidate]:
    """Every project fact one reading supports."""
    stack = stack_of(reading)
    found: list[MemoryCandidate | None] = [
        _stack_fact(reading, stack) if stack else None,
        _database_fact(stack, reading.readings) if stack else None,
        _jobs_fact(stack) if stack else None,
        members_fact(reading.readings),
        generated_fact(reading.readings),
        template_fact(reading),
        _services_fact(reading.readings),
        _extras_fact(reading.readings),
        _languages_fact(reading),
        _about_fact(reading),
        _layout_fact(reading, stack),
        _deploy_fact(reading),
    ]
    return [c for c in found if c is not None] + _rule_facts(reading.readings)
