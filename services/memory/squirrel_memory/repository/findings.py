"""What the readers find in a repository, each piece with the `path:line` it was read from."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from fnmatch import fnmatch

from squirrel_memory.repository.boilerplate import is_boilerplate

#: Top folders whose manifests serve the tests, not the project.
_TEST_FOLDERS = frozenset({"test", "tests", "spec", "e2e", "integration-tests"})
#: A folder named as the tests of something: `AppTests`, `AppUITests`, `Shop.Tests`,
#: `api-tests`, `unit_test` (not `latest`, `contest` nor `manifest`).
_TESTS_OF = re.compile(r"(?:[A-Za-z0-9]Tests?|[._-][Tt]ests?)$")


#: Folders of code that shows the project in use (examples, demos), not the project itself.
SAMPLE_FOLDERS = frozenset(
    {"examples", "example", "samples", "sample", "demo", "demos", "playground"}
)


def names_tests(name: str) -> bool:
    """Whether a folder's own name says it holds tests (`tests`, `spec`, `AppTests`)."""
    return name.lower() in _TEST_FOLDERS or _TESTS_OF.search(name) is not None


def is_test_folder(folder: str) -> bool:
    """Whether a folder sits under a top folder that holds tests (`tests/Shop.Tests`,
    `Shop.Tests/`)."""
    return names_tests(folder.split("/", 1)[0])


def folder_of(path: str) -> str:
    """The folder of a tracked path, relative to the root ("" for the root itself)."""
    return posixpath.dirname(path)


@dataclass(frozen=True, slots=True)
class Dependency:
    """A dependency a manifest declares; `version` is the locked one when a lock file has it.

    `dev` when it is declared for development or tests only (`devDependencies`, `only: :test`,
    a Gemfile's `group :test`, `testImplementation`, an extra named `test` or `docs`): it says
    how the project is developed, not what it runs. `extra` names the optional extra of the
    running project that declares it (`postgres`, `server`, a Cargo feature that turns an
    optional dependency on): installed on request, it is not the project's stack either.
    `optional` when the manifest declares it optional but not on request (npm's
    `optionalDependencies`, installed when they can be; a Cargo optional dependency a default
    feature turns on): the project runs without it, so it is never stated as the stack, nor
    as an extra."""

    ecosystem: str
    name: str
    version: str
    ref: str
    manifest: str
    locked_ref: str = ""
    dev: bool = False
    extra: str = ""
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Toolchain:
    """The language version a project asks for (`elixir: "~> 1.17"`, `go 1.22`)."""

    ecosystem: str
    version: str
    ref: str


@dataclass(frozen=True, slots=True)
class Command:
    """A command the repository tells people to run, as a user would type it.

    `origin` says where it was read: `instructions` (assistant instruction files and
    CONTRIBUTING), `task` (a task runner's definition), `hooks` (pre-commit), `ci`, `docs`
    (README). `detail` says what a task runs (`runs ecto.create and ecto.migrate first`).
    """

    text: str
    purpose: str
    ecosystem: str
    scope: str
    origin: str
    ref: str
    detail: str = ""
    task: str = ""


@dataclass(frozen=True, slots=True)
class Task:
    """A task a task-runner file defines, whatever it is for: `text` as a person types it
    (`make local-up`), `about` in the file's own words (a `##` help, the comment above it, a
    `desc`), `runs` its one short step when the file says nothing of it."""

    text: str
    name: str
    ref: str
    about: str = ""
    runs: str = ""


@dataclass(frozen=True, slots=True)
class Service:
    """A backing service the repository names: `kind` is database, queue, cache or search.

    `configured` is True when the application's own data-access configuration names it — the
    adapter an ORM or Repo is set up with, a settings `ENGINE`, the scheme of the URL the app
    connects to (`DATABASE_URL`): what the code uses, as against what a manifest declares or a
    compose file starts (which may be a side store). `read_only`: the configuration only reads
    it (an Ecto Repo's `read_only: true`): data the project reads, not where it keeps its own."""

    kind: str
    name: str
    ref: str
    via: str = ""
    configured: bool = False
    read_only: bool = False


@dataclass(frozen=True, slots=True)
class Port:
    """A port the repository's config names, and for what (`dev server`, `PostgreSQL`)."""

    port: int
    what: str
    ref: str


@dataclass(frozen=True, slots=True)
class Instruction:
    """A standing rule from an assistant instruction file or CONTRIBUTING."""

    text: str
    ref: str


@dataclass
class Readings:
    """Everything one scan found, gathered by the readers."""

    name: str = ""
    name_ref: str = ""
    description: str = ""
    description_ref: str = ""
    description_from_manifest: bool = False
    manifests: dict[str, str] = field(default_factory=dict)
    dependencies: list[Dependency] = field(default_factory=list)
    toolchains: list[Toolchain] = field(default_factory=list)
    image_runtimes: list[Toolchain] = field(default_factory=list)
    """Runtime versions a root Dockerfile's base images say (`FROM node:22-alpine`): never
    the project's version, but one a version its files pin (not a floor) must agree with."""
    commands: list[Command] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    """Every public task the task-runner files define (`commands` holds those of a known
    purpose)."""
    services: list[Service] = field(default_factory=list)
    profiles: list[tuple[str, Service]] = field(default_factory=list)
    """Databases a configuration profile names (Spring's `application-mysql.properties`),
    with the profile: they hold when that profile is active, not in the default set-up."""
    ports: list[Port] = field(default_factory=list)
    instructions: list[Instruction] = field(default_factory=list)
    hooks: list[tuple[str, str]] = field(default_factory=list)
    workspaces: list[tuple[str, str]] = field(default_factory=list)
    """Workspace members or patterns (`packages/*`, `apps/*`) → `path:line` declaring them."""
    tools: dict[str, str] = field(default_factory=dict)
    """Tools configured in a manifest (`[tool.pytest.ini_options]`) → `path:line`."""
    ci_files: list[str] = field(default_factory=list)
    generated: list[tuple[str, str, str, str]] = field(default_factory=list)
    """Folders a code generator writes: (folder, generator, `path:line` of the configuration
    naming it, the source folder or file it is made from, if said)."""
    set_up: set[str] = field(default_factory=set)
    """Words (lower-cased) of the configuration and process files read: what they set up or
    start (`config :shop, Oban`, a Procfile's `worker: bundle exec sidekiq`)."""

    named: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Each file that names the project → (name, `path:line`), for `prefer_own`."""
    described: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Each manifest that describes the project → (description, `path:line`)."""

    def name_project(self, name: str, ref: str) -> None:
        """Keep the first project name found (root manifests are read first); a workspace
        member's manifest names its own package (`crates/api` of a Cargo workspace, an
        umbrella's `apps/web`), not the project, unless the repository's folder is named as it
        (`prefer_own`)."""
        path = ref.split(":", 1)[0]
        if name:
            self.named.setdefault(path, (name, ref))
        folder = posixpath.dirname(path)
        member = bool(folder) and any(
            fnmatch(folder, pattern.rstrip("/")) for pattern, _ in self.workspaces
        )
        # A manifest in a test folder names the test harness (a Go module that drives the
        # project's tests), not the project.
        harness = is_test_folder(folder)
        if name and not self.name and not member and not harness:
            self.name, self.name_ref = name, ref

    def forget_a_part_s_name(self) -> None:
        """A name read from one top folder's manifest, when other top folders hold manifests of
        their own parts (`backend/` "api" beside `web/package.json`), is that part's name, not
        the project's: none is kept (the repository's folder names it)."""
        path = self.name_ref.split(":", 1)[0]
        top = path.split("/", 1)[0] if "/" in path else ""
        if not top:
            return
        others = {p.split("/", 1)[0] for p in self.manifests if "/" in p} - {top}
        if others - {f for f in others if is_test_folder(f)}:
            self.name, self.name_ref = "", ""

    def prefer_own(self, folder: str) -> None:
        """When the repository's folder is named as one of its manifests names the project
        (`redash` beside a `redash-client` front end's package.json), that manifest's name, and
        its description unless the README's says what the project is, are the project's."""
        wanted = _bare(folder)
        if not wanted or _bare(self.name) == wanted:
            return
        for path, (name, ref) in self.named.items():
            if _bare(name) == wanted:
                self.name, self.name_ref = name, ref
                if self.description_from_manifest and path in self.described:
                    self.description, self.description_ref = self.described[path]
                return

    def describe_project(self, description: str, ref: str, *, readme: bool = False) -> None:
        """Keep what the project says it is: the README's first paragraph wins over a
        manifest's one-line `description`; otherwise the first found is kept."""
        text = " ".join(description.split())
        if not readme and is_boilerplate(text):
            return  # a generator's placeholder ("A new Flutter project.") says nothing
        if text and not readme:
            self.described.setdefault(ref.split(":", 1)[0], (text, ref))
        if not text or (self.description and not readme):
            return
        if readme and self.description and not self.description_from_manifest:
            return
        self.description, self.description_ref = text, ref
        self.description_from_manifest = not readme


def _bare(name: str) -> str:
    """A package name as a folder would carry it: no scope or owner, lower case, `-` for `_`."""
    return name.rsplit("/", 1)[-1].strip().lower().replace("_", "-")
