"""Stack facts from sessions, weighed: what the code uses over what a manifest declares, and each
piece of evidence scoped to the folder where it holds.

Evidence is *strong* when the code uses a library — a file imports it, the data-access
configuration names it (an ORM's adapter, a settings `ENGINE`, a connection URL), or a test
command runs it — and *weak* when a manifest only declares it. Each piece holds in a *scope*:
the folder of the manifest it was read from, the sub-package a code file sits in, the folder a
test command ran in, the examples, demos, docs, scripts or tools folder it sits in (code that
shows the project in use or serves its developers, not the project); a code file in another
language than the project's sits in its top folder (a docs site beside the app); a file in a
folder of test data (`test/fixtures/`, `testdata/`) is evidence of nothing. Only root-scoped
evidence speaks for the project, and:

- a test framework a manifest only declares is not stated when a test command at the root runs
  another runner, or when the code shows another framework, at the root or in a sub-folder
  (a root's declared runner beside a docs site tested with another); one that code imports is not
  stated either when the root's tests run with a runner of the language's own (`mix test`,
  `go test`) and it never ran there itself;
- a web framework a manifest only declares is not stated when the code at the root imports
  another one (the manifest may keep an old framework for a `legacy/` folder), nor are two
  rival server frameworks (`server_frameworks.rival_servers`) only declared, nor one whose
  code read imports only the HTTP client its package ships (`framework_clients`);
- a framework or library the root's manifest declares whose only users in the session are
  examples, demos or docs (`examples/server/main.zig` imports it) is theirs, not stated;
- a database (or data-access library) a manifest only declares is never stated: the driver
  may serve a script, a side store or nothing yet, so only code or configuration that uses it
  says where the data lives; a database the configuration names is the main store, and another
  main store only code imports is then a side store, not stated; test code that opens a
  database (an in-memory SQLite double) says nothing of the project's.

When evidence conflicts and nothing decides, less is said, never something wrong. Frameworks
and tests found only in a sub-folder are said of that folder ("In `docs/`, tests are written
with Vitest.") when the code there shows them, and dropped when only its manifest does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from squirrel_core.side_folders import SHOWCASE_DIRS, TEST_DATA_DIRS
from squirrel_memory.extractors.activity import CommandRun, core_tokens, split_segments
from squirrel_memory.extractors.server_frameworks import rival_servers
from squirrel_memory.extractors.toolchain import classify

#: Databases of which a project has one main store: two of them declared and nothing
#: deciding between them is a conflict (a cache or an ORM is no such conflict).
EXCLUSIVE_DATABASES = frozenset(
    {"PostgreSQL", "MySQL", "MariaDB", "SQLite", "MongoDB", "SQL Server", "Oracle"}
)
#: Test tools that run whatever the project's scripts say (`npm test`): they name no framework.
_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "npx", "make", "just", "task", "composer"})
#: Language names of one family (a TypeScript file in a JavaScript project is the same code).
_FAMILIES = {
    "TypeScript": "JavaScript",
    "Kotlin": "Java",
    "Scala": "Java",
    "C#": ".NET",
    "C": "C/C++",
    "C++": "C/C++",
    "Erlang": "Elixir",
}


#: Folders of code that shows the project in use without being it (examples, demos, a docs
#: site) or serves its developers (scripts, tools, benchmarks). What their code uses holds in
#: that folder, never for the project.
SAMPLE_DIRS = (
    SHOWCASE_DIRS
    | {"docs", "doc"}
    | {"scripts", "script", "tools", "tooling", "hack", "bench", "benchmarks", "benches"}
    # Language bindings (`bindings/python/`): the project used from another language.
    | {"bindings"}
)


def family(language: str) -> str:
    """The language family a language belongs to (`TypeScript` → `JavaScript`)."""
    return _FAMILIES.get(language, language)


@dataclass(slots=True)
class Seen:
    """One named thing (a framework, a database …) and the evidence for it in one scope."""

    strong: set[str] = field(default_factory=set)
    weak: set[str] = field(default_factory=set)
    ran: set[str] = field(default_factory=set)
    """Test commands that ran it (a subset of `strong`)."""
    configured: set[str] = field(default_factory=set)
    """Data-access configuration that names it (a subset of `strong`)."""
    example: set[str] = field(default_factory=set)
    """Example environment files that name it (`.env.example`: a subset of `configured`)."""

    def event_ids(self) -> set[str]:
        return self.strong | self.weak


@dataclass(slots=True)
class StackEvidence:
    """Evidence per fact key (`testing`, `database` …), per scope, per name, in first-seen
    order; and the test runners that name no library (`mix test`, `go test`) per scope."""

    found: dict[str, dict[str, dict[str, Seen]]] = field(default_factory=dict)
    other_runners: dict[str, set[str]] = field(default_factory=dict)
    #: Frameworks whose client parts the code read imports, and those whose server it imports
    #: (`framework_clients`).
    clients: set[str] = field(default_factory=set)
    servers: set[str] = field(default_factory=set)

    def add(
        self,
        key: str,
        name: str,
        scope: str,
        event_id: str,
        *,
        strong: bool,
        ran: bool = False,
        configured: bool = False,
        example: bool = False,
    ) -> None:
        seen = self.found.setdefault(key, {}).setdefault(scope, {}).setdefault(name, Seen())
        (seen.strong if strong else seen.weak).add(event_id)
        if ran:
            seen.ran.add(event_id)
        if configured:
            seen.configured.add(event_id)
            if example:
                seen.example.add(event_id)

    def project_names(self, key: str) -> list[str]:
        """What the root-scoped evidence says of the whole project, conflicts left out."""
        root = self.found.get(key, {}).get("", {})
        strong = [name for name, seen in root.items() if seen.strong]
        weak = [name for name, seen in root.items() if not seen.strong]
        if key == "testing" and self.other_runners.get(""):
            # The root's tests run with a runner of the language's own (`mix test`, `go
            # test`): only a framework that ran at the root too is the project's.
            strong = [name for name in strong if root[name].ran]
            weak = []
        elif key in ("testing", "framework") and strong:
            # The code shows which one it uses: another one a manifest only declares may
            # serve an old folder or a side tool (Express left for a `legacy/` server).
            weak = []
        elif key == "framework":
            # Two server frameworks only declared, and no code read: nothing decides.
            weak = [name for name in weak if name not in rival_servers(weak)]
        if key == "framework":
            # A framework only declared whose code read imports its client parts alone
            # (`use Mojo::UserAgent`): the project calls servers with it, it serves nothing.
            weak = [n for n in weak if n not in self.clients or n in self.servers]
        elif key == "testing" and self._tested_elsewhere_with_another(weak):
            # Only a manifest names the root's framework, while the tests the code shows run
            # with another one in a sub-folder: nothing decides, so nothing is said.
            weak = []
        # A dependency the root's manifest declares whose only users the session saw are
        # examples or demos (`examples/server/main.zig` imports it): it is theirs.
        weak = [name for name in weak if not self._only_samples_use(key, name)]
        if key == "database":
            # A driver a manifest declares may serve a script, a side store or nothing yet:
            # only code or configuration that uses it says where the data lives.
            weak = []
            if any(root[n].configured - root[n].example for n in strong):
                # The application's own configuration decides over an example environment
                # file (a starter's leftover may name another database).
                strong = [n for n in strong if not root[n].strong <= root[n].example]
            if any(n in EXCLUSIVE_DATABASES and root[n].configured for n in strong):
                # The configuration decides the main store: another one the code imports is a
                # side store (an import, a migration source), not the project's database.
                strong = [n for n in strong if n not in EXCLUSIVE_DATABASES or root[n].configured]
        shown = set(strong) | set(weak)
        return [name for name in root if name in shown]

    def _only_samples_use(self, key: str, name: str) -> bool:
        """Whether code of an examples, demos or docs folder uses `name`, and code elsewhere
        does not."""
        used = [
            scope
            for scope, names in self.found.get(key, {}).items()
            if scope and name in names and names[name].strong
        ]
        return bool(used) and all(
            any(part.lower() in SAMPLE_DIRS for part in PurePosixPath(scope).parts)
            for scope in used
        )

    def _tested_elsewhere_with_another(self, declared: list[str]) -> bool:
        """Whether a sub-folder's tests ran with, or its code imports, a framework the root's
        manifests do not declare, or ran with a runner of a language's own (`go test`)."""
        for scope, names in self.found.get("testing", {}).items():
            if scope and any(seen.strong and n not in declared for n, seen in names.items()):
                return True
        return any(scope and runners for scope, runners in self.other_runners.items())

    def scoped_names(self, key: str) -> dict[str, list[str]]:
        """Per sub-folder, what its code (not its manifest alone) shows and the root does not."""
        at_root = set(self.project_names(key))
        scoped: dict[str, list[str]] = {}
        for scope, names in sorted(self.found.get(key, {}).items()):
            if not scope:
                continue
            shown = [n for n, seen in names.items() if seen.strong and n not in at_root]
            if shown:
                scoped[scope] = shown
        return scoped

    def event_ids(self, key: str, names: list[str], scope: str = "") -> tuple[str, ...]:
        seen = self.found.get(key, {}).get(scope, {})
        return tuple(sorted({e for n in names if n in seen for e in seen[n].event_ids()}))


#: A file named as a test in any ecosystem: `test_cache.py`, `post_test.go`, `books.test.ts`,
#: `ledger_spec.rb`, `LedgerTest.java`, `LedgerTests.swift`, `test-ledger.R`, and a JVM
#: integration test `LedgerIT.java` (its `IT` after a lower-case letter: never `AUDIT.py`).
TEST_FILE = re.compile(
    r"^(?:(?:test[_-].+|.+[_.-](?:test|spec)|.+(?:Test|Tests|Spec))\.[A-Za-z]{1,6}"
    r"|.+[a-z0-9]IT\.(?:java|kt|groovy|scala))$"
)
#: Folders of tests and their set-up (`conftest.py`, helpers) in any ecosystem.
_TEST_DIRS = frozenset({"test", "tests", "spec", "specs", "__tests__", "testing", "t"})


def is_test_code(path: str) -> bool:
    """Whether a code file is a test or its set-up: named as a test, or in a tests folder."""
    parts = PurePosixPath(path).parts
    return bool(parts) and (
        bool(TEST_FILE.match(parts[-1])) or any(p.lower() in _TEST_DIRS for p in parts[:-1])
    )


def is_test_data(path: str) -> bool:
    """Whether a file sits in a folder of test data (`test/fixtures/`, `testdata/`): input for
    the project's tests, so what its code imports says nothing of the project."""
    return any(part.lower() in TEST_DATA_DIRS for part in PurePosixPath(path).parts[:-1])


def sample_folder(path: str) -> str:
    """The folder of examples, demos or docs a file sits in (`examples`, `docs/site`), "" when
    none: code there shows the project in use, it is not the project."""
    parts = PurePosixPath(path).parts[:-1]
    for index, part in enumerate(parts):
        if part.lower() in SAMPLE_DIRS:
            return "/".join(parts[: index + 1])
    return ""


def code_scope(path: str, packages: set[str], main: set[str], language: str | None) -> str:
    """The folder a code file's evidence holds in: the deepest sub-package (a folder with its
    own manifest) holding it; else the examples, demos or docs folder holding it; else its top
    folder when it is in another language family than the project's main ones; else the root
    ("")."""
    parents = [str(p) for p in PurePosixPath(path).parents if str(p) != "."]
    inside = [p for p in parents if p in packages]
    sample = sample_folder(path)
    if inside and len(max(inside, key=len)) >= len(sample):
        return max(inside, key=len)
    if sample:
        return sample
    parts = PurePosixPath(path).parts
    if language and main and family(language) not in main and len(parts) > 1:
        return parts[0]
    return ""


def run_scope(run: CommandRun, segment_index: int, project_id: str) -> str | None:
    """The project folder a command's segment ran in ("" for the root), or None when it ran
    outside the project. `cd <dir> && …` before the segment moves it."""
    root = project_id.rstrip("/")
    where = (run.cwd or root).rstrip("/")
    if where != root and not where.startswith(root + "/"):
        return None
    folder = where[len(root) + 1 :] if where != root else ""
    for segment in split_segments(run.command)[:segment_index]:
        tokens = segment.split()
        if len(tokens) == 2 and tokens[0] == "cd":
            target = tokens[1].rstrip("/")
            if target.startswith("/"):
                if target != root and not target.startswith(root + "/"):
                    return None
                folder = target[len(root) + 1 :] if target != root else ""
            elif target == "..":
                folder = str(PurePosixPath(folder).parent) if folder else folder
                folder = "" if folder == "." else folder
            elif target not in (".", "-", "~") and not target.startswith("~"):
                folder = str(PurePosixPath(folder) / target) if folder else target
    return folder


def test_runs(runs: list[CommandRun], project_id: str) -> list[tuple[str, str, str]]:
    """(tool, scope, event id) of every test runner a command ran (`pytest`, `mix test`);
    scripts (`npm test`) are left out: they name no framework."""
    found: list[tuple[str, str, str]] = []
    for run in runs:
        for index, segment in enumerate(split_segments(run.command)):
            use = classify(core_tokens(segment))
            if use is None or use.category != "test_runner":
                continue
            if use.tool.split()[0] in _SCRIPT_RUNNERS:
                continue
            scope = run_scope(run, index, project_id)
            if scope is not None:
                found.append((use.tool, scope, run.event_id))
    return found
