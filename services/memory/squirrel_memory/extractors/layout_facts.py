"""Where things are in a project, from the paths its sessions touched: the folders that hold its
tests, local services (Docker Compose), the container image, database migrations, the deploy
platform and CI."""

from __future__ import annotations

from pathlib import PurePosixPath

from squirrel_memory.extractors.manifests import EXTENSION_LANGUAGES
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.stack_evidence import TEST_FILE, is_test_data
from squirrel_memory.repository.deploy import deploy_platform, deploy_text

#: Folders that hold a project's tests, at its root or one folder down (`test/`, `src/test/`);
#: a `__tests__/` deeper in is one module's tests, not where the project keeps them.
_TEST_DIRS = frozenset({"test", "tests", "spec", "specs", "e2e"})
_TEST_DIR_DEPTH = 2
#: Test folders named in one fact.
MAX_TEST_FOLDERS = 2


def tests_fact(paths: list[tuple[str, str]]) -> Fact | None:
    """Where the tests live, from the test files the session read, edited or ran: the folder
    up to the first test folder of each (`test/`, `src/test/`), when the file is code named
    as a test; more than two such folders say nothing. Tests beside their code (`post_test.go`
    in `internal/books/`, `__tests__/` in a module) say nothing."""
    files: dict[str, list[str]] = {}
    ids: list[str] = []
    for path, event_id in paths:
        parts = PurePosixPath(path).parts
        name = parts[-1] if parts else ""
        code = PurePosixPath(name).suffix.lower() in EXTENSION_LANGUAGES
        if not code or not TEST_FILE.match(name) or is_test_data(path):
            continue  # a test of a fixture app (`test/fixtures/app/a.test.js`) is data
        top = parts[:-1][:_TEST_DIR_DEPTH]
        cut = next((i for i, part in enumerate(top) if part.lower() in _TEST_DIRS), None)
        if cut is None:
            continue
        files.setdefault("/".join(parts[: cut + 1]), []).append(path)
        ids.append(event_id)
    if not files or len(files) > MAX_TEST_FOLDERS:
        return None
    named = " and ".join(f"`{folder}/`" for folder in files)
    example = next(iter(files.values()))[0]
    text = f"Tests live in {named} (`{example}` among them)."
    unique = tuple(dict.fromkeys(ids))[:10]
    return Fact("tests_folder", text, ("layout", "tests"), 0.45, unique, tuple(files))


#: A folder whose files are not the project's own setup: a dev container's (the editor's
#: container and its services, not how the project runs).
_OTHERS_FOLDERS = frozenset({".devcontainer"})


def _not_the_projects(parts: tuple[str, ...]) -> bool:
    """Whether a path is another thing's file: in a dev container's folder, or under a name
    with a template's placeholder (`{{cookiecutter.project_slug}}/Dockerfile` is the generated
    project's)."""
    return any(p in _OTHERS_FOLDERS or "{{" in p or "{%" in p for p in parts)


def layout_facts(paths: list[tuple[str, str]]) -> list[Fact]:
    """Local services, the container image, migrations, the deploy platform and CI, from the
    paths the sessions touched (a dev container's or a template's files say nothing)."""
    facts: dict[str, Fact] = {}
    for path, event_id in paths:
        parts = PurePosixPath(path).parts
        if not parts or _not_the_projects(parts):
            continue
        name = parts[-1].lower()
        if name.startswith(("docker-compose", "compose.")) and name.endswith((".yml", ".yaml")):
            facts.setdefault(
                "services",
                Fact(
                    "services",
                    f"Local services run with Docker Compose ({path}).",
                    ("docker", "services"),
                    0.5,
                    (event_id,),
                    (path,),
                ),
            )
        elif name == "dockerfile" or name.startswith("dockerfile."):
            facts.setdefault(
                "container",
                Fact(
                    "container",
                    f"Packaged as a container image ({path}).",
                    ("docker",),
                    0.4,
                    (event_id,),
                    (path,),
                ),
            )
        if "alembic" in parts[:-1] or name == "alembic.ini":
            facts.setdefault(
                "migrations",
                Fact(
                    "migrations",
                    "Database migrations are managed with Alembic (alembic/).",
                    ("database", "migrations", "alembic"),
                    0.6,
                    (event_id,),
                    (path,),
                ),
            )
        elif "migrations" in parts[:-1]:
            folder = "/".join(parts[: parts.index("migrations") + 1])
            facts.setdefault(
                "migrations",
                Fact(
                    "migrations",
                    f"Database migrations live in {folder}/.",
                    ("database", "migrations"),
                    0.5,
                    (event_id,),
                    (path,),
                ),
            )
        platform = deploy_platform(path)
        if platform:
            facts.setdefault(
                "deploy",
                Fact(
                    "deploy",
                    deploy_text(platform, path),
                    ("deploy", "hosting", platform.lower()),
                    0.55,
                    (event_id,),
                    (path,),
                ),
            )
        if parts[:2] == (".github", "workflows"):
            facts.setdefault(
                "ci",
                Fact(
                    "ci",
                    f"CI runs on GitHub Actions ({path}).",
                    ("ci", "github-actions"),
                    0.4,
                    (event_id,),
                    (path,),
                ),
            )
    return list(facts.values())
